/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_STATS_FIELDS_H
#define NPOOL_STATS_FIELDS_H

/**
 * @file
 * The per-lcore counters of the fragment and packet allocators: their
 * list, struct npool_stats, and the slot of non-EAL threads. Each
 * instance's per-lcore state embeds them (npool_core.h); npool_stats.h
 * reads them out through the instances. Installed as an indirect header
 * (npool_stats.h includes it): include npool_stats.h.
 */

#include <stdint.h>
#include <rte_lcore.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Slot index of the counters shared by all non-EAL threads. */
#define NPOOL_NON_EAL_SLOT RTE_MAX_LCORE

/**
 * The counters, in struct order: X(name) for each, documented at struct
 * npool_stats. This list is the only place the fields are written out:
 * it generates the struct, npool_stats_add_pvt(), the reset, the
 * telemetry dicts (/npool/stats, /npool/lcore) and the apps' output.
 */
#define NPOOL_STATS_FIELDS(X) \
	X(allocs) \
	X(guarded_allocs) \
	X(frees) \
	X(remote_frees) \
	X(defers) \
	X(refills) \
	X(reuses) \
	X(small_fallbacks) \
	X(big_fallbacks) \
	X(failures) \
	X(pkt_allocs) \
	X(pkt_builds) \
	X(pkt_failures) \
	X(pkt_consumes) \
	X(condensed) \
	X(head_refills) \
	X(head_flushes) \
	X(head_misses)

/**
 * Counters of one lcore (or of the non-EAL slot). Every member is a
 * uint64_t generated from NPOOL_STATS_FIELDS (doxygen does not see
 * them one by one):
 *
 * - @c allocs: fragments handed out by the napi flavor (napi_alloc_frag).
 * - @c guarded_allocs: fragments handed out by the guarded flavor
 *   (netdev_alloc_frag).
 * - @c frees: fragments freed by this lcore (page_frag_free /
 *   skb_free_frag).
 * - @c remote_frees: of @c frees, those of a fragment carved by another
 *   lcore's cache.
 * - @c defers: packets a consume burst of this lcore handed back to the
 *   lcore whose cache carved their fragment, which frees them in its
 *   next burst (npool_napi_consume_bulk(); the kernel's
 *   skb_attempt_defer_free()): their frees count there, not here.
 * - @c refills: chunks taken from the arena after a cache ran out.
 * - @c reuses: chunks carved again with no trip through the arena: an
 *   exhausted chunk reused in place (every fragment had come back), or
 *   one this lcore kept when its last fragment came back here
 *   (npool_chunk_free()).
 * - @c small_fallbacks: refills that got a 4 KiB small chunk: no big
 *   chunk was free.
 * - @c big_fallbacks: refills of a small-packet cache that got a big
 *   chunk: no small chunk was free (its small packets may then pin a big
 *   chunk).
 * - @c failures: allocations that failed: bad argument or no chunk at
 *   all.
 * - @c pkt_allocs: packets made by npool_napi_alloc_pkt() /
 *   npool_alloc_pkt().
 * - @c pkt_builds: packets made by npool_build_pkt() (build_skb).
 * - @c pkt_failures: packet heads that could not be had (head pool
 *   empty).
 * - @c pkt_consumes: segments released by npool_napi_consume_pkt()/_bulk().
 * - @c condensed: segments npool_pkt_condense() moved into a fragment of
 *   their own size (the kernel's skb_condense()); each fragment counts in
 *   @c guarded_allocs too.
 * - @c head_refills: refills of the lcore's cache of packet heads from
 *   the head store (the kernel's kmem_cache_alloc_bulk() in
 *   napi_skb_cache_get()): one per bulk, whatever its size.
 * - @c head_flushes: flushes of the lcore's cache of packet heads to the
 *   head store (napi_skb_cache_put()'s kmem_cache_free_bulk()), and puts
 *   too large for the cache.
 * - @c head_misses: requests for heads that the head store could not
 *   serve, having too few (a get that DPDK's mempool cache cannot serve
 *   counts two: the cache's refill, then the get itself).
 *
 * The head_* counters are kept by the head pool's cache itself
 * (npool_head_cache.h) and copied in by npool_stats_get() and
 * npool_stats_sum(); they stay 0 in the non-EAL slot, whose threads use
 * the head store directly.
 */
struct npool_stats {
#define NPOOL_STATS_MEMBER_PVT(name) uint64_t name;
	NPOOL_STATS_FIELDS(NPOOL_STATS_MEMBER_PVT)
#undef NPOOL_STATS_MEMBER_PVT
};

/**
 * @internal Add every counter of @p src to @p dst. Any thread.
 */
static inline void
npool_stats_add_pvt(struct npool_stats *dst, const struct npool_stats *src)
{
#define NPOOL_STATS_ADD_PVT(name) dst->name += src->name;
	NPOOL_STATS_FIELDS(NPOOL_STATS_ADD_PVT)
#undef NPOOL_STATS_ADD_PVT
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_STATS_FIELDS_H */
