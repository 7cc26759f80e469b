/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_HEAD_CACHE_PVT_H
#define NPOOL_HEAD_CACHE_PVT_H

/**
 * @file
 * @internal The head cache's inline paths (npool_head_cache.h): the
 * per-lcore get and put with their slow halves, the store's put and get,
 * the per-lcore counters and the debug builds' checks of every object
 * that crosses them, for libnpool's own .c files (the "npool" ops,
 * npool_hc_get_bulk() and npool_hc_put_bulk()). Private: not installed,
 * not exported.
 */

#include <stdint.h>
#include <string.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "npool_head_cache.h"
#include "npool_debug.h"
#include "npool_tsan.h"

/** Debug and ASan builds: @p n objects are about to be put into @p hc:
 * panic if one is not of hc's pool or is already free; mark them free
 * (ASan builds, once npool_debug_hc_arm_pvt() armed @p hc: poison
 * them). */
void npool_debug_hc_put_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n);

/** Debug builds: the store of @p hc refused @p n objects: panic. */
void npool_debug_hc_store_full_pvt(const struct npool_hc *hc,
		unsigned int n);

/** Debug and ASan builds: @p n objects were taken from @p hc: mark them
 * in use (ASan builds: unpoison them). */
void npool_debug_hc_got_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n);

/**
 * Count a refill, a flush or a miss of the calling lcore on
 * @p hc (the store behind DPDK's mempool cache: rte_mempool_npool.c). Threads
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
 * Zero the refills, flushes and misses of lcore @p lcore
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

/** Get slow path: refill @p c, then take @p n objects. */
int npool_hc_get_slow_pvt(struct npool_hc *hc, struct npool_hc_lcore *c,
		void **objs, unsigned int n);
/** Flush slow path: store @p n objects that do not fit. */
void npool_hc_flush_pvt(struct npool_hc *hc, struct npool_hc_lcore *c,
		void * const *objs, unsigned int n);

/** Put @p n objects into the store. It has room for every
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

/** After a get from the store: ThreadSanitizer builds take
 * what every earlier put released (npool_tsan.h). TSan does not see the
 * store's own ordering: the RTS tail is released by a 64-bit
 * compare-and-swap and acquired by a 32-bit load of its position half,
 * at another address. Nothing in other builds. */
static __rte_always_inline void
npool_hc_store_acquire_pvt(const struct npool_hc *hc)
{
	npool_tsan_acquire(&hc->store->prod);
}

/** npool_hc_get_pvt() without the debug-build marks. */
static __rte_always_inline int
npool_hc_get_nomark_pvt(struct npool_hc *hc, void **objs, unsigned int n)
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

/** npool_hc_get_bulk() inline, with the debug-build marks. */
static __rte_always_inline int
npool_hc_get_pvt(struct npool_hc *hc, void **objs, unsigned int n)
{
	int ret = npool_hc_get_nomark_pvt(hc, objs, n);

	if (ret == 0)
		NPOOL_DEBUG_HOOK(npool_debug_hc_got_pvt(hc, objs, n));
	return ret;
}

/** npool_hc_put_pvt() for a caller that knows its lcore id
 * (@p lcore, rte_lcore_id(); LCORE_ID_ANY or any id >= RTE_MAX_LCORE for
 * a thread without one). */
static __rte_always_inline void
npool_hc_put_lcore_pvt(struct npool_hc *hc, unsigned int lcore,
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

/** npool_hc_put_bulk() inline. */
static __rte_always_inline void
npool_hc_put_pvt(struct npool_hc *hc, void * const *objs, unsigned int n)
{
	npool_hc_put_lcore_pvt(hc, rte_lcore_id(), objs, n);
}

#endif /* NPOOL_HEAD_CACHE_PVT_H */
