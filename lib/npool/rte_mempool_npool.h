/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef RTE_MEMPOOL_NPOOL_H
#define RTE_MEMPOOL_NPOOL_H

/**
 * @file
 * The "npool" rte_mempool ops driver: a lock-free rte_ring backing store
 * behind per-lcore caches of NPOOL_HC_SIZE (64) objects, the size of the
 * kernel's NAPI skb cache.
 *
 * npool_pktmbuf_pool_create() and npool's head pool keep those caches in
 * DPDK's own mempool cache (cache size 64), so that a get or put by a PMD
 * (rte_mempool_get_bulk(), rte_pktmbuf_free()) or by npool costs no call
 * on a hit; the ops are called only to refill (size + wanted objects, as
 * DPDK's cache does) or flush, and count both per lcore (npool_hc_lcore).
 * A pool created on these ops with cache size 0 keeps its per-lcore
 * caches in the ops instead, with the NAPI policy (bulk refill 16, flush
 * half when full). Any PMD's RX queue can take either. Threads without an
 * lcore id are served from the backing store.
 */

#include <stdint.h>
#include <rte_mempool.h>

/* npool_mempool_ops_register(), with the ops themselves. */
#include "npool_head_cache.h"

#ifdef __cplusplus
extern "C" {
#endif


/**
 * Create a packet mbuf pool on the "npool" ops, as
 * rte_pktmbuf_pool_create() does on the default ops, with a mempool cache
 * of NPOOL_HC_SIZE (64) objects per lcore (fewer for a pool of fewer than
 * 96 objects: rte_mempool_create() takes at most @p n / 1.5).
 *
 * Context: main lcore (slow path).
 *
 * @param name
 *   Pool name, at most RTE_RING_NAMESIZE - 4 (25) characters: the store
 *   ring is named "NP_" + name.
 * @param n
 *   Number of mbufs, 1 .. 2^29 - 1 (NPOOL_HC_MAX_OBJS).
 * @param priv_size
 *   Application private area per mbuf in bytes, a multiple of
 *   RTE_MBUF_PRIV_ALIGN.
 * @param data_room_size
 *   Data room per mbuf in bytes, headroom included (e.g.
 *   RTE_MBUF_DEFAULT_BUF_SIZE); 0 for a pool of heads only.
 * @param socket_id
 *   NUMA socket, or SOCKET_ID_ANY.
 * @return
 *   The pool, or NULL with rte_errno set as rte_pktmbuf_pool_create():
 *   EINVAL (also for a NULL name), ENOSPC, EEXIST, ENOMEM; ENAMETOOLONG
 *   for a long name.
 */
struct rte_mempool *npool_pktmbuf_pool_create(const char *name,
		unsigned int n, uint16_t priv_size, uint16_t data_room_size,
		int socket_id);

/**
 * Whether @p mp uses the "npool" ops. Any thread.
 *
 * @param mp
 *   A mempool.
 * @return
 *   1 if it uses the "npool" ops, 0 if not (or @p mp is NULL).
 */
int npool_mempool_is_npool(const struct rte_mempool *mp);

#ifdef __cplusplus
}
#endif

#endif /* RTE_MEMPOOL_NPOOL_H */
