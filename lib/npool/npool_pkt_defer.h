/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_PKT_DEFER_H
#define NPOOL_PKT_DEFER_H

/**
 * @file
 * Packets freed on another lcore than the one whose caches carved their
 * fragments, handed back to that lcore in batches: the kernel's
 * skb_attempt_defer_free() and per-CPU defer lists.
 *
 * A pipeline's worker that frees what the RX lcore made with
 * npool_napi_consume_bulk() hands the lone head + fragment packets back
 * to the lcore that carved them, one enqueue a burst on that lcore's
 * defer ring (NPOOL_DEFER_MAX packets at most), instead of freeing each
 * fragment with an atomic operation on a chunk that lcore still carves.
 * That lcore frees them in its next burst: npool_napi_alloc_pkt_bulk()
 * takes their heads for its packets (npool_napi_defer_take()), or
 * npool_napi_defer_drain() frees them. What does not fit the ring is
 * freed where it is, one atomic operation a chunk of fragments
 * (npool_frag_batch.h).
 */

#include <stdint.h>
#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Packets one lcore's defer ring holds (npool_napi_consume_bulk()): the
 * kernel's skb_defer_max (128 since 2025). A burst that finds the ring
 * full frees the packets that do not fit itself.
 */
#define NPOOL_DEFER_MAX 128

/**
 * @internal Whether defer ring @p r holds packets: its producers' tail
 * against its consumer's, each read relaxed (a stale answer only moves
 * the take to the next burst). rte_ring_empty() reads them plainly,
 * which ThreadSanitizer takes for a race with the producers' stores.
 */
static __rte_always_inline int
npool_defer_pending_pvt(const struct rte_ring *r)
{
	return __atomic_load_n(&r->prod.tail, __ATOMIC_RELAXED) !=
		__atomic_load_n(&r->cons.tail, __ATOMIC_RELAXED);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change, or be removed, without prior
 * notice (libnpool.map's EXPERIMENTAL node: define ALLOW_EXPERIMENTAL_API
 * to call it).
 *
 * Free on the calling lcore the packets that other lcores' consume
 * bursts handed back to it (npool_napi_consume_bulk()): the packets whose
 * fragments this lcore's caches carved. The kernel's
 * skb_defer_free_flush(), which net_rx_action() runs once per poll.
 *
 * npool_napi_alloc_pkt_bulk() takes their heads (npool_napi_defer_take())
 * when the ring is not empty, and npool_frag_cache_drain_local() and
 * npool_frag_cache_drain_all() free them too (from the main lcore, those
 * of idle lcores). An lcore that makes head + fragment packets some other
 * way
 * (npool_napi_alloc_pkt(), npool_build_pkt()), or stops making them
 * while others still free them, calls it once per loop turn; otherwise
 * up to NPOOL_DEFER_MAX packets wait there, and the bursts that find the
 * ring full free their packets themselves (one atomic operation per
 * chunk of their fragments, npool_stats.remote_frees).
 *
 * Context: an EAL lcore, on its own ring (the only consumer); elsewhere
 * it does nothing.
 *
 * @return
 *   The number of packets freed.
 */
__rte_experimental
unsigned int npool_napi_defer_drain(void);

/**
 * Take up to @p n of the packets that other lcores handed back to the
 * calling lcore (npool_napi_consume_bulk()), free their fragments and
 * keep their heads, as they are, for a burst of npool_napi_alloc_pkt_bulk()
 * to attach new fragments to: the kernel's napi_skb_cache_get() of heads
 * that skb_defer_free_flush() put in that cache. The out-of-line half of
 * npool_napi_alloc_pkt_bulk(); applications call that (or
 * npool_napi_defer_drain()).
 *
 * Context: the calling EAL lcore, its own ring (the only consumer).
 *
 * @param heads
 *   Where to write the heads: lone heads of the lcore's instance's head
 *   pool, their fields stale (no buffer, no pool) until attached or
 *   given back with npool_pkt_heads_put().
 * @param n
 *   Most heads wanted, 1 .. NPOOL_PKT_BULK_MAX.
 * @return
 *   The number of heads written.
 */
unsigned int npool_napi_defer_take(struct rte_mbuf **heads, unsigned int n);

/**
 * Give heads of npool_napi_defer_take() back to their pool unused, each
 * made the empty head the pool holds. The out-of-line failure path of
 * npool_napi_alloc_pkt_bulk(); applications do not call it.
 *
 * Context: the lcore that took them.
 *
 * @param heads
 *   The heads.
 * @param n
 *   Their number (0: nothing).
 */
void npool_pkt_heads_put(struct rte_mbuf **heads, unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_PKT_DEFER_H */
