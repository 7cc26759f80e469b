/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_STATS_H
#define NPOOL_STATS_H

/**
 * @file
 * Per-lcore counters of the fragment and packet allocators.
 *
 * Each EAL lcore writes only its own slot with plain stores (no atomic);
 * threads without an lcore id (non-EAL) share slot NPOOL_NON_EAL_SLOT,
 * updated atomically. Reading is allowed from any thread at any time; a
 * reader may see a slot in the middle of an update (counters are 64-bit
 * and never torn on 64-bit targets).
 */

#include <stdint.h>
#include <rte_lcore.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Slot index of the counters shared by all non-EAL threads. */
#define NPOOL_NON_EAL_SLOT RTE_MAX_LCORE

/** Counters of one lcore (or of the non-EAL slot). */
struct npool_stats {
	/** Fragments handed out by the napi flavor (napi_alloc_frag). */
	uint64_t allocs;
	/** Fragments handed out by the guarded flavor (netdev_alloc_frag). */
	uint64_t guarded_allocs;
	/** Fragments freed by this lcore (page_frag_free / skb_free_frag). */
	uint64_t frees;
	/** Of @c frees, those of a fragment carved by another lcore's cache. */
	uint64_t remote_frees;
	/** Chunks taken from the arena after a cache ran out. */
	uint64_t refills;
	/** Exhausted chunks reused in place: every fragment had come back. */
	uint64_t reuses;
	/** Refills that got a 4 KiB small chunk: no big chunk was free. */
	uint64_t small_fallbacks;
	/** Refills of a small-packet cache that got a big chunk: no small
	 * chunk was free (its small packets may then pin a big chunk). */
	uint64_t big_fallbacks;
	/** Allocations that failed: bad argument or no chunk at all. */
	uint64_t failures;
	/** Packets made by npool_napi_alloc_pkt() / npool_alloc_pkt(). */
	uint64_t pkt_allocs;
	/** Packets made by npool_build_pkt() (build_skb). */
	uint64_t pkt_builds;
	/** Packet heads that could not be had (head pool empty). */
	uint64_t pkt_failures;
	/** Segments released by npool_napi_consume_pkt()/_bulk(). */
	uint64_t pkt_consumes;
};

/**
 * Read the counters of one slot, summed over the instances.
 *
 * @param slot
 *   An lcore id (0 .. RTE_MAX_LCORE-1) or NPOOL_NON_EAL_SLOT.
 * @param out
 *   Where to copy them.
 * @return
 *   0, or -EINVAL (slot out of range, @p out NULL, or npool not
 *   initialised). Any thread.
 */
int npool_stats_get(unsigned int slot, struct npool_stats *out);

struct npool;

/**
 * Sum the counters of every slot of instance @p np into @p out.
 * Any thread.
 *
 * @return 0, or -EINVAL (@p np or @p out NULL).
 */
int npool_instance_stats_sum(const struct npool *np, struct npool_stats *out);

/**
 * Sum the counters of every slot of every instance into @p out.
 * Any thread.
 *
 * @return 0, or -EINVAL (@p out NULL or npool not initialised).
 */
int npool_stats_sum(struct npool_stats *out);

/**
 * Zero every slot of every instance, as npool_stats_get() and
 * npool_stats_sum() see them: the counters run on and a base is taken
 * (a PMD's stats offset); npool_frags_outstanding() is read from the
 * refcounts, and npool_audit() checks them against the counters whole,
 * so neither moves. Call only
 * while no thread allocates or frees, or counts will be lost.
 */
void npool_stats_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_STATS_H */
