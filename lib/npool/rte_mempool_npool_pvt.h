/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef RTE_MEMPOOL_NPOOL_PVT_H
#define RTE_MEMPOOL_NPOOL_PVT_H

/**
 * @file
 * @internal The pools npool itself creates on the "npool" ops
 * (rte_mempool_npool.h: npool's head pool, npool_pktmbuf_pool_create()):
 * their mempool cache size, their per-lcore head caches in debug and ASan
 * builds, and the ASan builds' poisoning of their free objects. Private:
 * not installed, not exported.
 */

#include <stdint.h>
#include <rte_common.h>
#include <rte_mempool.h>

#include "rte_mempool_npool.h"
#include "npool_debug.h"
#include "npool_head_cache.h"

/**
 * Mempool cache size of a pool of @p n objects on the "npool" ops
 * (npool's head pool, npool_pktmbuf_pool_create()):
 * NPOOL_MEMPOOL_CACHE_SIZE, or the largest rte_mempool_create() accepts
 * for @p n (cache_size * 1.5 <= n). 0 in debug and AddressSanitizer builds: every get and put then
 * reaches the ops, whose checks (npool_debug.h) and poisoning
 * (npool_asan.h) DPDK's inline cache would skip.
 *
 * @param n
 *   Objects in the pool.
 * @return
 *   The cache size.
 */
static inline unsigned int
npool_hc_mempool_cache_size(unsigned int n)
{
	if (NPOOL_DEBUG_HOOKS)
		return 0;
	return RTE_MIN((unsigned int)NPOOL_MEMPOOL_CACHE_SIZE,
			(unsigned int)((uint64_t)n * 2 / 3));
}

/**
 * Mark @p mp, a pool npool itself just created on the "npool"
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
 * ASan builds: from now on poison the objects of @p hc's pool while they
 * are free, starting with every one free now. Called once the pool is
 * populated and initialised (rte_pktmbuf_init() writes to every object
 * after they are all put). Main lcore, nobody using the pool; nothing in
 * other builds. rte_mempool_free() takes every object out through the
 * ops before it frees their memory: each is unpoisoned then.
 */
void npool_debug_hc_arm_pvt(struct npool_hc *hc);

#endif /* RTE_MEMPOOL_NPOOL_PVT_H */
