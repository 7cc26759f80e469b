/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_HEAD_CACHE_H
#define NPOOL_HEAD_CACHE_H

/**
 * @file
 * Per-lcore cache of packet heads (or any mempool object) over a shared
 * lock-free backing store: the kernel's NAPI skb cache (Lobakin, 2021,
 * napi_skb_cache_get() / napi_skb_cache_put()).
 *
 * Each lcore keeps up to NPOOL_HC_SIZE (64) objects. An empty cache is
 * refilled from the backing rte_ring in bulks of NPOOL_HC_BULK (16), as
 * kmem_cache_alloc_bulk(16); a full cache flushes NPOOL_HC_HALF (32)
 * objects back in one bulk. Threads without an lcore id go straight to
 * the ring. The "npool" mempool ops use only its store and its per-lcore
 * counters: DPDK's own mempool cache is the per-lcore cache in front of
 * them, and a pool with cache size 0 caches nothing, as DPDK's contract
 * says (npool_head_cache_ops.c). The per-lcore get/put here serve callers
 * that hold a bare head cache (hc->mp == NULL).
 */

#include <stdint.h>
#include <string.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "npool_build_config.h"
#include "npool_debug.h"
#include "npool_tsan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Objects one lcore's cache holds at most (NAPI_SKB_CACHE_SIZE). */
#define NPOOL_HC_SIZE 64
/** Objects taken from the store when the cache runs dry (_BULK). */
#define NPOOL_HC_BULK 16
/** Objects given back to the store when the cache is full (_HALF). */
#define NPOOL_HC_HALF (NPOOL_HC_SIZE / 2)
/** Most objects a head cache serves (its store has twice the room). */
#define NPOOL_HC_MAX_OBJS ((1u << 29) - 1)

/** One lcore's cache. Its counters, for npool's head pool, are the
 * head_refills, head_flushes and head_misses of struct npool_stats. */
struct npool_hc_lcore {
	uint32_t len;        /**< objects in @c objs */
	uint32_t pad;        /**< unused */
	uint64_t refills;    /**< bulk refills from the store */
	uint64_t flushes;    /**< half flushes to the store */
	uint64_t misses;     /**< gets that failed: store empty */
	void *objs[NPOOL_HC_SIZE]; /**< LIFO: objs[len - 1] is the hottest */
} __rte_cache_aligned;

/** A head cache: the store plus one cache per lcore. */
struct npool_hc {
	struct rte_ring *store;   /**< shared backing store, MP/MC */
	uint32_t size;            /**< objects that exist in all */
	/** The mempool on these ops, or NULL for a bare head cache; debug
	 * builds check that objects put back are its own, once. */
	struct rte_mempool *mp;
	/** ASan builds: free objects are poisoned (npool_debug_hc_arm_pvt()). */
	int asan_armed;
	/** The ops keep per-lcore caches (get/put below) for this pool:
	 * only npool's own pools in debug and ASan builds, which have no
	 * mempool cache (npool_hc_mempool_cache_size()) so that every get
	 * and put is checked, but keep the release builds' per-lcore reuse.
	 * Any other pool with cache size 0 caches nothing (DPDK's contract:
	 * npool_head_cache_ops.c). Set by npool_hc_own_pool_pvt(). */
	int lcore_cache;
	struct npool_hc_lcore lc[RTE_MAX_LCORE]; /**< per-lcore caches */
};

/**
 * Create a head cache with a store large enough for @p size objects.
 * Slow path.
 *
 * @param name
 *   Ring name (unique, at most RTE_RING_NAMESIZE - 1 characters).
 * @param size
 *   Number of objects that will ever be put, 1 .. NPOOL_HC_MAX_OBJS
 *   (2^29 - 1).
 * @param socket_id
 *   NUMA socket, or SOCKET_ID_ANY.
 * @return
 *   The cache, or NULL with rte_errno set: EINVAL, ENOMEM, EEXIST.
 */
struct npool_hc *npool_hc_create(const char *name, uint32_t size,
		int socket_id);

/**
 * Register the "npool" mempool ops in this process, once; later calls
 * return the same index. npool_init() and npool_pktmbuf_pool_create()
 * call it, so an app needs it only to name the ops itself before either
 * (rte_mempool_set_ops_byname(), --mbuf-pool-ops-name). An unmodified
 * DPDK app gets it from EAL's -d librte_mempool_npool.so instead.
 *
 * Call it after rte_eal_init(): mempool ops indexes are per process, and
 * registering after EAL's driver plugins keeps the stock ops at the
 * indexes a secondary process (dpdk-dumpcap, dpdk-pdump) gives them.
 *
 * Context: main lcore (slow path); not multi-thread safe against pool
 * creation.
 *
 * @return
 *   The ops index (>= 0), or a negative errno with rte_errno set:
 *   -ENOSPC, the ops table is full (RTE_MEMPOOL_MAX_OPS_IDX).
 */
int npool_mempool_ops_register(void);

/** Free a head cache (the objects themselves are not touched).
 *
 * @param hc
 *   A head cache, or NULL.
 */
void npool_hc_free(struct npool_hc *hc);

/**
 * Objects available: store plus every lcore's cache. Any thread; exact
 * only while no thread gets or puts.
 *
 * @param hc
 *   A head cache.
 * @return
 *   The number of objects available.
 */
unsigned int npool_hc_count(const struct npool_hc *hc);

/**
 * @internal Mempool cache size of a pool of @p n objects on the "npool"
 * ops (npool's head pool, npool_pktmbuf_pool_create()): NPOOL_HC_SIZE,
 * or the largest rte_mempool_create() accepts for @p n (cache_size * 1.5
 * <= n). 0 in debug and AddressSanitizer builds: every get and put then
 * reaches the ops, whose checks (npool_debug.h) and poisoning
 * (npool_asan.h) DPDK's inline cache would skip.
 */
static inline unsigned int
npool_hc_mempool_cache_size(unsigned int n)
{
	if (NPOOL_DEBUG_HOOKS)
		return 0;
	return RTE_MIN((unsigned int)NPOOL_HC_SIZE,
			(unsigned int)((uint64_t)n * 2 / 3));
}

/**
 * @internal Mark @p mp, a pool npool itself just created on the "npool"
 * ops (its head pool, npool_pktmbuf_pool_create()), as one whose ops keep
 * per-lcore caches when it has no mempool cache (debug and ASan builds).
 */
static inline void
npool_hc_own_pool_pvt(struct rte_mempool *mp)
{
	struct npool_hc *hc = mp->pool_data;

	hc->lcore_cache = NPOOL_DEBUG_HOOKS && mp->cache_size == 0;
}

/**
 * @internal Count a refill, a flush or a miss of the calling lcore on
 * @p hc (the store behind DPDK's mempool cache: npool_mempool.c). Threads
 * without an lcore id are not counted, as on the ops' own caches.
 */
static __rte_always_inline void
npool_hc_count_pvt(struct npool_hc *hc, unsigned int refills,
		unsigned int flushes, unsigned int misses)
{
	unsigned int lcore = rte_lcore_id();

	if (unlikely(lcore >= RTE_MAX_LCORE))
		return;
	hc->lc[lcore].refills += refills;
	hc->lc[lcore].flushes += flushes;
	hc->lc[lcore].misses += misses;
}

/**
 * @internal Zero the refills, flushes and misses of lcore @p lcore
 * (0 .. RTE_MAX_LCORE - 1) on @p hc. Only while that lcore does not use
 * @p hc, or counts are lost.
 */
static inline void
npool_hc_count_reset_pvt(struct npool_hc *hc, unsigned int lcore)
{
	hc->lc[lcore].refills = 0;
	hc->lc[lcore].flushes = 0;
	hc->lc[lcore].misses = 0;
}

/** @internal Get slow path: refill @p c, then take @p n objects. */
int npool_hc_get_slow_pvt(struct npool_hc *hc, struct npool_hc_lcore *c,
		void **objs, unsigned int n);
/** @internal Flush slow path: store @p n objects that do not fit. */
void npool_hc_flush_pvt(struct npool_hc *hc, struct npool_hc_lcore *c,
		void * const *objs, unsigned int n);

/** @internal Put @p n objects into the store. It has room for every
 * object: debug builds panic if it refuses (the objects would be lost). */
static __rte_always_inline void
npool_hc_store_put_pvt(struct npool_hc *hc, void * const *objs,
		unsigned int n)
{
	unsigned int done;

	/* See npool_hc_store_acquire_pvt(). */
	npool_tsan_release(&hc->store->prod);
	done = rte_ring_enqueue_bulk(hc->store, objs, n, NULL);
	if (unlikely(done != n))
		NPOOL_DEBUG_CHECK(npool_debug_hc_store_full_pvt(hc, n));
}

/** @internal After a get from the store: ThreadSanitizer builds take
 * what every earlier put released (npool_tsan.h). TSan does not see the
 * store's own ordering: the RTS tail is released by a 64-bit
 * compare-and-swap and acquired by a 32-bit load of its position half,
 * at another address. Nothing in other builds. */
static __rte_always_inline void
npool_hc_store_acquire_pvt(const struct npool_hc *hc)
{
	npool_tsan_acquire(&hc->store->prod);
}

/** @internal npool_hc_get_bulk() without the debug-build marks. */
static __rte_always_inline int
npool_hc_get_bulk_pvt(struct npool_hc *hc, void **objs, unsigned int n)
{
	unsigned int lcore = rte_lcore_id();
	struct npool_hc_lcore *c;
	unsigned int i, len;

	if (unlikely(lcore >= RTE_MAX_LCORE)) {
		if (rte_ring_dequeue_bulk(hc->store, objs, n, NULL) != n)
			return -ENOBUFS;
		npool_hc_store_acquire_pvt(hc);
		return 0;
	}
	c = &hc->lc[lcore];
	/* Empty cache: one bulk refill, never one object at a time. A get
	 * larger than the cache is slow too (and then n > 64 never reaches
	 * the loop below, which the compiler must see for a constant n). */
	if (unlikely(n > NPOOL_HC_SIZE || c->len < n))
		return npool_hc_get_slow_pvt(hc, c, objs, n);
	/* Hottest first: the objects freed last are still in cache. */
	len = c->len;
	for (i = 0; i < n; i++)
		objs[i] = c->objs[len - 1 - i];
	c->len = len - n;
	return 0;
}

/**
 * Get @p n objects, all or none. Kernel: napi_skb_cache_get().
 *
 * Context: any thread. EAL lcores use their own cache without lock or
 * atomic (one lcore id must not be shared by two running threads);
 * threads without an lcore id use the store (lock-free ring).
 *
 * @param hc
 *   The head cache.
 * @param objs
 *   Array of at least @p n pointers to fill.
 * @param n
 *   Number of objects wanted, 1 .. any.
 * @return
 *   0, or -ENOBUFS if fewer than @p n objects could be had (nothing is
 *   taken then).
 */
static __rte_always_inline int
npool_hc_get_bulk(struct npool_hc *hc, void **objs, unsigned int n)
{
	int ret = npool_hc_get_bulk_pvt(hc, objs, n);

	if (ret == 0)
		NPOOL_DEBUG_HOOK(npool_debug_hc_got_pvt(hc, objs, n));
	return ret;
}

/** @internal npool_hc_put_bulk() for a caller that knows its lcore id
 * (@p lcore, rte_lcore_id(); LCORE_ID_ANY or any id >= RTE_MAX_LCORE for
 * a thread without one). */
static __rte_always_inline void
npool_hc_put_bulk_lcore_pvt(struct npool_hc *hc, unsigned int lcore,
		void * const *objs, unsigned int n)
{
	struct npool_hc_lcore *c;

	NPOOL_DEBUG_HOOK(npool_debug_hc_put_pvt(hc, objs, n));
	if (unlikely(lcore >= RTE_MAX_LCORE)) {
		npool_hc_store_put_pvt(hc, objs, n);
		return;
	}
	c = &hc->lc[lcore];
	/* Full: flush half in one bulk rather than object by object. */
	if (unlikely(n > NPOOL_HC_SIZE || c->len + n > NPOOL_HC_SIZE)) {
		npool_hc_flush_pvt(hc, c, objs, n);
		return;
	}
	/* One packet at a time is the consume path's common case. */
	if (n == 1)
		c->objs[c->len] = objs[0];
	else
		memcpy(&c->objs[c->len], objs, n * sizeof(void *));
	c->len += n;
}

/**
 * Put @p n objects back. Kernel: napi_skb_cache_put().
 *
 * Context: as npool_hc_get_bulk(). Never fails: the store holds every
 * object that exists. Debug builds panic, naming the object, when one is
 * not of the pool the cache serves (@c mp) or is put twice without a get
 * between (npool_debug.h).
 *
 * @param hc
 *   The head cache.
 * @param objs
 *   The objects.
 * @param n
 *   How many.
 */
static __rte_always_inline void
npool_hc_put_bulk(struct npool_hc *hc, void * const *objs, unsigned int n)
{
	npool_hc_put_bulk_lcore_pvt(hc, rte_lcore_id(), objs, n);
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_HEAD_CACHE_H */
