/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef RTE_MEMPOOL_NPOOL_H
#define RTE_MEMPOOL_NPOOL_H

/**
 * @file
 * The "npool" rte_mempool ops driver: a lock-free rte_ring backing store
 * behind DPDK's own per-lcore mempool cache.
 *
 * npool_pktmbuf_pool_create() and npool's head pool have a mempool cache
 * of NPOOL_MEMPOOL_CACHE_SIZE (64) objects per lcore, the size of the
 * kernel's NAPI skb cache, so that a get or put by a PMD
 * (rte_mempool_get_bulk(), rte_pktmbuf_free()) or by npool costs no call
 * on a hit; the ops are called only to refill (cache size + wanted
 * objects, DPDK's policy) or flush, and count both per lcore (the
 * head_refills, head_flushes and head_misses of npool_stats). A pool
 * created on these ops with cache size 0 caches nothing, as DPDK's
 * contract says: every get and put reaches the shared store. Any PMD's RX
 * queue can take either. Threads without an lcore id are served from the
 * store.
 */

#include <stdint.h>
#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Name of npool's rte_mempool ops. */
#define NPOOL_MEMPOOL_OPS_NAME "npool"

/** Mempool cache size, per lcore, of the pools npool creates on its ops
 * (a pool of fewer than 96 objects gets less: rte_mempool_create() takes
 * at most n / 1.5). The kernel's NAPI_SKB_CACHE_SIZE. */
#define NPOOL_MEMPOOL_CACHE_SIZE 64

/**
 * Register the "npool" mempool ops in this process, once; later calls
 * return the same index. npool_create() and npool_pktmbuf_pool_create()
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


/**
 * Create a packet mbuf pool on the "npool" ops, as
 * rte_pktmbuf_pool_create() does on the default ops, with a mempool cache
 * of NPOOL_MEMPOOL_CACHE_SIZE (64) objects per lcore (fewer for a pool of
 * fewer than 96 objects: rte_mempool_create() takes at most @p n / 1.5;
 * none in debug and AddressSanitizer builds, whose ops check every object
 * that crosses them).
 *
 * Context: main lcore (slow path).
 *
 * @param name
 *   Pool name, at most RTE_RING_NAMESIZE - 4 (25) characters: the store
 *   ring is named "NP_" + name.
 * @param n
 *   Number of mbufs, 1 .. 2^29 - 1.
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
