/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_CORE_H
#define NPOOL_CORE_H

/**
 * @file
 * The npool instance (one per process) and its per-lcore state.
 *
 * Exposed only because the fast paths in npool_frag.h, npool_pkt.h and
 * npool_head_cache.h are inline, as rte_mempool.h exposes struct
 * rte_mempool: applications should not touch these fields.
 */

#include <stdint.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "npool_arena.h"
#include "npool_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mempool;
struct npool_hc;

/**
 * A fragment cache: the kernel's struct page_frag_cache. Fragments are
 * carved from the end of the current chunk toward its start.
 */
struct npool_frag_cache {
	char *va;              /**< current chunk, NULL before the first refill */
	int32_t offset;        /**< end of the next fragment; counts down */
	uint32_t pagecnt_bias; /**< references taken but not yet handed out */
	struct npool_chunk *chunk; /**< header of the current chunk */
	uint16_t lcore;        /**< owner lcore, or NPOOL_NON_EAL_SLOT */
	uint16_t guarded;      /**< 1 for the guarded (netdev) flavor */
	/** 1 for a small-packet cache: carves 4 KiB small chunks first
	 * (big ones only when no small chunk is free); 0: big chunks first
	 * (small ones as the order-0 fallback). */
	uint16_t small;
	uint16_t pad;
};

/** Per-lcore state, one cache line group per lcore. */
struct npool_lcore {
	/** The napi cache: used only by its owner lcore, no lock. */
	struct npool_frag_cache napi;
	/** The napi cache of small packets (npool_pkt.h), as @c napi. */
	struct npool_frag_cache napi_small;
	/** The guarded (netdev) cache: any thread, under @c lock. */
	struct npool_frag_cache guarded;
	/** The guarded cache of small packets, under @c lock. */
	struct npool_frag_cache guarded_small;
	/** Guards @c guarded and @c guarded_small (the kernel's
	 * local_irq_save()). */
	rte_spinlock_t lock;
	/** Debug builds: thread id owning @c napi (0: none yet). */
	int dbg_owner;
	/** This slot's counters. */
	struct npool_stats stats __rte_cache_aligned;
} __rte_cache_aligned;

/** The process-wide npool instance created by npool_init(). */
struct npool {
	struct npool_arena arena;        /**< chunks */
	struct rte_mempool *head_pool;   /**< packet heads (ops "npool") */
	struct npool_hc *head_hc;        /**< head_pool's backing store */
	uint32_t headroom;               /**< headroom of npool packets */
	/** Packets whose fragment is at most this many bytes are small:
	 * they come from the small-packet caches (npool_pkt.h). */
	uint32_t small_fragsz;
	int64_t frags_out_base;          /**< outstanding at the last reset */
	/** Per-lcore state; slot NPOOL_NON_EAL_SLOT serves non-EAL threads. */
	struct npool_lcore lc[RTE_MAX_LCORE + 1];
};

/** The instance, NULL before npool_init() and after npool_fini(). */
extern struct npool *npool_g;

/** Slot of the calling thread: its lcore id, or NPOOL_NON_EAL_SLOT. */
static __rte_always_inline unsigned int
npool_slot(void)
{
	unsigned int id = rte_lcore_id();

	return likely(id < RTE_MAX_LCORE) ? id : NPOOL_NON_EAL_SLOT;
}

/** Add @p n to counter @p field of slot @p slot (atomic for non-EAL). */
#define NPOOL_STAT_ADD(slot, field, n) do { \
	if (likely((slot) != NPOOL_NON_EAL_SLOT)) \
		npool_g->lc[slot].stats.field += (n); \
	else \
		__atomic_fetch_add(&npool_g->lc[slot].stats.field, (n), \
				__ATOMIC_RELAXED); \
} while (0)

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_CORE_H */
