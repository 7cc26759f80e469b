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
 * says (rte_mempool_npool.c). The per-lcore get/put serve the ops of
 * npool's own pools in debug and ASan builds (npool_hc.lcore_cache), and
 * tests.
 *
 * Private to libnpool: the head cache is how the "npool" mempool ops
 * work, not API. The header is not installed and the functions are not
 * exported; npool's own test and benchmark of the bare head cache link
 * the static library (npool_static_dep). Applications use the ops:
 * npool_pktmbuf_pool_create() (rte_mempool_npool.h).
 */

#include <stdint.h>
#include <rte_common.h>
#include <rte_lcore.h>

#include "npool_build_config.h"
#include "npool_debug.h"

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

struct rte_ring;
struct rte_mempool;

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
	 * rte_mempool_npool.c). Set by npool_hc_own_pool_pvt(). */
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
int npool_hc_get_bulk(struct npool_hc *hc, void **objs, unsigned int n);

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
void npool_hc_put_bulk(struct npool_hc *hc, void * const *objs,
		unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_HEAD_CACHE_H */
