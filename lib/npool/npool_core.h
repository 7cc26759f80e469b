/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_CORE_H
#define NPOOL_CORE_H

/**
 * @file
 * The npool instances (one per NUMA socket, or one per process) and their
 * per-lcore state.
 *
 * Each instance is the kernel's per-node page_pool: its own chunk arena
 * and head pool on its socket, and its own fragment caches per lcore. An
 * lcore allocates from the instance of its socket (npool_lcore_np[]); a
 * fragment or head goes back to the instance that owns its address, from
 * any lcore.
 *
 * Exposed only because the fast paths in npool_frag.h and npool_pkt.h
 * are inline, as rte_mempool.h exposes struct rte_mempool: applications
 * should not touch these fields. Installed as an indirect header (npool.h
 * includes it).
 */

#include <assert.h>
#include <stdint.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "npool_arena.h"
#include "npool_stats_fields.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mempool;
struct rte_ring;
struct npool_hc;
struct npool;

/**
 * A fragment cache: the kernel's struct page_frag_cache. Fragments are
 * carved from the end of the current chunk toward its start.
 *
 * The references the cache holds on its current chunk (the kernel's
 * pagecnt_bias) are two counts, so that an allocation and a free on the
 * owner lcore write different words and a loop of both does not wait on
 * one memory location: @c pagecnt_bias, which each allocation takes one
 * from, and @c returned, which each free of a fragment of the current
 * chunk on the owner lcore adds one to (napi caches only).
 * npool_frag_cache_bias_pvt() is their sum, the cache's references:
 * refcount - bias is the number of fragments out.
 */
struct npool_frag_cache {
	char *va;              /**< current chunk, NULL before the first refill */
	int32_t offset;        /**< end of the next fragment; counts down */
	/** References not yet handed out, less those freed back since the
	 * chunk was installed (@c returned). */
	uint32_t pagecnt_bias;
	/** napi caches: fragments of the current chunk freed on the owner
	 * lcore since the chunk was installed, their references the cache's
	 * again. 0 in guarded caches (their frees are atomic). */
	uint32_t returned;
	/** Bytes of the current chunk (0 without one): a free on the owner
	 * lcore tests an address against @c va and @c len alone. */
	uint32_t len;
	struct npool_chunk *chunk; /**< header of the current chunk */
	rte_iova_t iova;       /**< IOVA of @c va, 0 without a chunk */
	/** The instance whose arena the cache carves. */
	struct npool *np;
	/** napi caches: the chunk carved before @c chunk, kept with its
	 * bias so that frees of the burst that used it up still cost no
	 * atomic operation; given up at the next refill (a fragment of it
	 * still out then costs one atomic decrement). NULL if none. */
	struct npool_chunk *prev;
	/** References of @c prev not handed out (its pagecnt_bias). */
	uint32_t prev_bias;
	uint16_t lcore;        /**< owner lcore, or NPOOL_NON_EAL_SLOT */
	/** 0: a napi cache; 1: a guarded (netdev) one; NPOOL_CACHE_KEEP:
	 * the guarded cache of kept packets (npool_pkt_keep.h), whose
	 * chunks it marks NPOOL_CHUNK_F_KEEP. */
	uint8_t guarded;
	/** 1 for a small-packet cache: carves 4 KiB small chunks first
	 * (big ones only when no small chunk is free); 0: big chunks first
	 * (small ones as the order-0 fallback). */
	uint8_t small;
};

/** npool_frag_cache.guarded of the cache of kept packets. */
#define NPOOL_CACHE_KEEP 2

/** @internal The references cache @p nc holds on its current chunk. */
static __rte_always_inline uint32_t
npool_frag_cache_bias_pvt(const struct npool_frag_cache *nc)
{
	return nc->pagecnt_bias + nc->returned;
}

/** Free chunks an lcore keeps for itself (npool_lcore.pcp): at most
 * 96 KiB of big chunks per lcore and instance. */
#define NPOOL_PCP_MAX 3

/** Per-lcore state, one cache line group per lcore: 512 bytes, so that
 * np->lc[slot] is one shift (576 bytes cost every fast path 2 to 3
 * instructions). The caches come first, each a line; the counters end
 * where the lock, the debug owner, the defer ring and the free chunks
 * share a line. */
struct npool_lcore {
	/** The napi cache: used only by its owner lcore, no lock. */
	struct npool_frag_cache napi;
	/** The napi cache of small packets (npool_pkt.h), as @c napi. */
	struct npool_frag_cache napi_small;
	/** The guarded (netdev) cache: any thread, under @c lock. */
	struct npool_frag_cache guarded;
	/** The guarded cache of small packets, under @c lock. */
	struct npool_frag_cache guarded_small;
	/** The cache of kept packets (npool_pkt_condense()): any thread,
	 * under @c lock; its chunks hold packets kept for long only. */
	struct npool_frag_cache keep;
	/** This slot's counters, counting from the instance's creation:
	 * never reset (npool_audit() checks the refcounts against them). */
	struct npool_stats stats __rte_cache_aligned;
	/** Guards @c guarded, @c guarded_small and @c keep (the kernel's
	 * local_irq_save()). */
	rte_spinlock_t lock;
	/** Debug builds: thread id owning @c napi (0: none yet). */
	int dbg_owner;
	/** The packets other lcores' consume bursts handed back to this
	 * lcore, whose caches carved their fragments, to free here (the
	 * kernel's per-CPU defer list, skb_attempt_defer_free()): multi-
	 * producer, this lcore the only consumer (npool_pkt_defer.h).
	 * NULL in slots without an EAL lcore. */
	struct rte_ring *defer;
	/** Chunks this slot's EAL lcore carved whose last fragment came
	 * back here, kept for its napi caches' next refills (the kernel's per-CPU page
	 * lists): a chunk freed and carved again on one lcore, as in a
	 * pipeline whose worker hands its packets back (npool_pkt_defer.h),
	 * costs no trip through the arena's stack (two of its lock-free
	 * operations, some five atomics). This slot's lcore only. */
	struct npool_chunk *pcp[NPOOL_PCP_MAX];
	uint8_t pcp_n;  /**< entries of @c pcp in use */
} __rte_cache_aligned;

static_assert(sizeof(struct npool_frag_cache) == 64,
		"a fragment cache is one cache line");
static_assert(sizeof(struct npool_lcore) == 512,
		"np->lc[slot] is one shift");

/** Longest instance name, terminating NUL included. */
#define NPOOL_NAMESIZE 16

/** An npool instance, made by npool_create() (or npool_init()). */
struct npool {
	struct npool_arena arena;        /**< chunks */
	/** The socket it serves (SOCKET_ID_ANY: every lcore without an
	 * instance of its own socket). Its memory is there. */
	int socket_id;
	char name[NPOOL_NAMESIZE];       /**< "s<socket>" or "any" */
	struct rte_mempool *head_pool;   /**< packet heads (ops "npool") */
	struct npool_hc *head_hc;        /**< head_pool's backing store */
	uint32_t headroom;               /**< headroom of npool packets */
	/** Packets whose fragment is at most this many bytes are small:
	 * they come from the small-packet caches (npool_pkt.h). */
	uint32_t small_fragsz;
	/** Tiny packets (room up to NPOOL_PKT_SMALL_LEN) as direct mbufs of
	 * this pool (stock ops, DPDK's inline lcore cache): the kernel's
	 * small-head kmem_cache. NULL without small chunks. */
	struct rte_mempool *small_pool;
	uint32_t tiny_len;  /**< npool_conf.tiny_len with a small_pool */
	uint32_t tiny_headroom;  /**< npool_conf.tiny_headroom */
	/** Lengths below it are tiny: tiny_len + 1 with a small_pool, else
	 * 0 (one compare tells). */
	uint32_t tiny_lim;
	/** Mid-size packets (above tiny_len, room up to npool_conf.mid_len)
	 * as direct mbufs of this pool (stock ops, DPDK's inline lcore
	 * cache): the kmalloc size class page fragments serve badly. NULL
	 * without them. */
	struct rte_mempool *mid_pool;
	/** Lengths below it and not tiny are mid-size: mid_len + 1 with a
	 * mid_pool, else 0. */
	uint32_t mid_lim;
	/** Per-lcore state; slot NPOOL_NON_EAL_SLOT serves non-EAL threads. */
	struct npool_lcore lc[RTE_MAX_LCORE + 1];
	/** Each slot's @c stats at the last npool_stats_reset(): what
	 * npool_stats_get() and npool_stats_sum() subtract (a PMD's stats
	 * offset). */
	struct npool_stats stats_base[RTE_MAX_LCORE + 1];
};

/**
 * The instance of each slot (lcore id, or NPOOL_NON_EAL_SLOT): the one of
 * the lcore's socket, else the default one (npool_default()); NULL while
 * there is none. The inline fast paths read it (one indexed load), as
 * rte_eth_rx_burst() reads rte_eth_fp_ops[]; applications call
 * npool_local() instead. Written only by npool_create() and
 * npool_destroy().
 */
extern struct npool *npool_lcore_np[NPOOL_NON_EAL_SLOT + 1];

/** Slot of the calling thread: its lcore id, or NPOOL_NON_EAL_SLOT.
 *
 * @return
 *   The slot, 0 .. NPOOL_NON_EAL_SLOT.
 */
static __rte_always_inline unsigned int
npool_slot(void)
{
	unsigned int id = rte_lcore_id();

	return likely(id < RTE_MAX_LCORE) ? id : NPOOL_NON_EAL_SLOT;
}

/** Add @p n to counter @p field of slot @p slot of instance @p np
 * (atomic for non-EAL). */
#define NPOOL_STAT_ADD_NP(np, slot, field, n) do { \
	if (likely((slot) != NPOOL_NON_EAL_SLOT)) \
		(np)->lc[slot].stats.field += (n); \
	else \
		__atomic_fetch_add(&(np)->lc[slot].stats.field, (n), \
				__ATOMIC_RELAXED); \
} while (0)

/** NPOOL_STAT_ADD_NP() on the slot's own instance. */
#define NPOOL_STAT_ADD(slot, field, n) \
	NPOOL_STAT_ADD_NP(npool_lcore_np[slot], slot, field, n)

/**
 * Debug builds: the calling thread uses the napi caches of lcore
 * @p slot: it takes ownership if none has it, and panics if another
 * thread owns them. The napi allocators call it (NPOOL_DEBUG_CHECK());
 * applications do not.
 *
 * @param slot
 *   An lcore id, 0 .. RTE_MAX_LCORE - 1.
 */
void npool_debug_napi_owner(unsigned int slot);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_CORE_H */
