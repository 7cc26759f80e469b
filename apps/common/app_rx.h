/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_RX_H
#define APP_RX_H

/**
 * @file
 * The apps' RX bursts and the checks every app makes on what a PMD hands
 * over, in one place: mbuf->port set to the queue's port, a chain whose
 * segments do not add up (a PMD that cut a frame) dropped as the app's
 * rx_bad reason, copy-break (npool_rx_copybreak()) where asked for, the
 * RX counters. The fast test is loads only; the fix is out of line
 * (app_rx.c). rte_mbuf_check() would make the chain test too, but it
 * walks the next pointers until NULL (a cycle in a broken chain never
 * ends) and panics or fails on pool and IOVA fields the loop does not
 * need: app_rx_fix_pvt() takes at most nb_segs + 1 steps a packet.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool.h"
#include "app_ctr.h"
#include "app_port.h"

/**
 * @internal The slow path of app_rx_burst_plain(): set mbuf->port to @p port
 * on every packet of @p pkts, then drop those whose segments' data_len do
 * not add up to pkt_len, or whose segment count is not nb_segs (a PMD
 * that cut a frame), counted under the app's rx_bad reason on @p port;
 * keep the others in order.
 *
 * @return Packets left in @p pkts.
 */
uint16_t app_rx_fix_pvt(struct app_lcore_ctr *c, uint16_t port,
		struct rte_mbuf **pkts, uint16_t n);

/**
 * @internal Nonzero when a packet of the burst is a chain, a single
 * segment that is not the whole packet, or has a foreign mbuf->port:
 * loads only; nb_segs and port side by side, one load checks both.
 */
static __rte_always_inline uint32_t
app_rx_odd_pvt(struct rte_mbuf *const *pkts, uint16_t n, uint16_t port)
{
	const uint32_t want = NPOOL_MBUF_SEGS_PORT(1, port);
	uint32_t odd = 0;
	uint16_t k;

	for (k = 0; k < n; k++)
		odd |= (pkts[k]->pkt_len ^ pkts[k]->data_len) |
			(npool_mbuf_segs_port(pkts[k]) ^ want);
	return odd;
}

/** @internal The loads of app_rx_odd_plain_pvt() for packet @p m, each
 * ORed into its own accumulator: the masks wait for the end. */
#define APP_RX_PLAIN_ACC_PVT(m) do { \
	rearm_x |= npool_mbuf_rearm(m) ^ want; \
	flags |= (m)->ol_flags; \
	len_x |= (m)->pkt_len ^ (m)->data_len; \
	pool_x |= (uintptr_t)(m)->pool ^ mp; \
} while (0)

/**
 * @internal Zero when every packet of the burst is a plain RX mbuf of
 * pkts[0]'s pool on @p port: direct, refcnt 1, one whole segment.
 * refcnt, nb_segs and port follow data_off: one 64-bit load for three
 * (npool_mbuf.h).
 * Branch-free: each condition is ORed over the burst and masked once,
 * four packets a round (the loads of one round are independent).
 */
static __rte_always_inline uint64_t
app_rx_odd_plain_pvt(struct rte_mbuf *const *pkts, uint16_t n, uint16_t port)
{
	const uint64_t want = NPOOL_MBUF_REARM(0, 1, 1, port);
	const uintptr_t mp = (uintptr_t)pkts[0]->pool;
	struct rte_mbuf *const *p = pkts, *const *end = pkts + n;
	uint64_t rearm_x = 0, flags = 0, pool_x = 0;
	uint32_t len_x = 0;

	for (; end - p >= 4; p += 4) {
		APP_RX_PLAIN_ACC_PVT(p[0]);
		APP_RX_PLAIN_ACC_PVT(p[1]);
		APP_RX_PLAIN_ACC_PVT(p[2]);
		APP_RX_PLAIN_ACC_PVT(p[3]);
	}
	for (; p < end; p++)
		APP_RX_PLAIN_ACC_PVT(p[0]);
	/* data_off is free; only the extbuf and indirect flags count. */
	return (rearm_x & ~NPOOL_MBUF_REARM(0xffff, 0, 0, 0)) | pool_x | len_x |
		(flags & (RTE_MBUF_F_EXTERNAL | RTE_MBUF_F_INDIRECT));
}

/**
 * Receive a burst from the @p i-th RX queue of lcore @p lc, count it, set
 * each packet's mbuf->port to the port it came in on (net_ring leaves the
 * sender's), drop the malformed chains (segments that do not add up to
 * pkt_len, e.g. net_pcap's frames above 64 KiB) under the app's rx_bad
 * reason and, with @p copybreak != 0, copy-break the rest
 * (npool_rx_copybreak()). In the same pass of loads, tell in @p plain
 * whether the burst returned is all plain RX mbufs (direct, refcnt 1, one
 * segment, all of pkts[0]'s pool, none copied), which
 * npool_napi_consume_plain() may release without looking at them again
 * (npool_napi_consume_bulk()'s fast case, its checks done).
 *
 * @return Packets in @p pkts (at most APP_BURST).
 */
static __rte_always_inline uint16_t
app_rx_burst_plain(const struct app_lcore_conf *lc, uint16_t i,
		struct app_lcore_ctr *ctr, struct rte_mbuf **pkts,
		uint16_t copybreak, bool *plain)
{
	const uint16_t port = lc->rxq[i].port;
	uint16_t n;

	n = rte_eth_rx_burst(port, lc->rxq[i].queue, pkts, APP_BURST);
	if (n == 0) {
		app_ctr_idle(ctr);
		return 0;
	}
	app_ctr_rx(ctr, i, port, n);
	/* A chain, a single segment that is not the whole packet or a
	 * foreign mbuf->port takes the fix out of line; only a burst the
	 * pass finds not plain is looked at again for it. */
	*plain = app_rx_odd_plain_pvt(pkts, n, port) == 0;
	if (unlikely(!*plain && app_rx_odd_pvt(pkts, n, port) != 0))
		n = app_rx_fix_pvt(ctr, port, pkts, n);
	*plain = *plain && copybreak == 0;
	if (copybreak != 0 && n != 0)
		npool_rx_copybreak(pkts, n, copybreak);
	return n;
}

#endif /* APP_RX_H */
