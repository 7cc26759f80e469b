/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_BURST_H
#define FWD_BURST_H

/**
 * @file
 * A received burst through npool-fwd's pipeline: fwd_burst_decide() (the
 * one pass, fwd_pass.h, with copy-break in it, and the slow path) leaves
 * the forwarded packets on the TX buffers of their ports and the dropped
 * ones, counted, in the context; fwd_burst_drops() answers those the
 * router answers (fwd_icmp.h), through the same TX buffers, and frees
 * them. The lcore loop (fwd_lcore.c) calls both, then sends the buffers;
 * a test calls the same, and reads the context, the buffers and the
 * counters.
 */

#include <stdint.h>

#include <rte_mbuf.h>

#include "fwd_ctx.h"

/**
 * Decide a burst received on c->in_port, as rte_eth_rx_burst() gave it
 * (the RX checks are made here: fwd_slow()): each packet forwarded
 * (rewritten, on the TX buffer of its port, counted forwarded on c->ic),
 * fragmented (the
 * fragments there), or dropped (counted on c->ic under its reason, into
 * c->drop / c->why in RX order, its parse in the mbuf: fwd_classify());
 * a malformed chain is counted truncated and freed here. With
 * t->copybreak the packets up to it are copy-broken
 * (npool_rx_copybreak_pkt()) on the way. Sets c->nd, c->nslow, c->cb.
 *
 * @param pkts
 *   The burst, in RX order; its entries are consumed.
 * @param n
 *   Packets in @p pkts: 1 .. FWD_BURST_MAX.
 */
void fwd_burst_decide(struct fwd_ctx *c, struct rte_mbuf **pkts,
		uint16_t n);

/**
 * The end of a burst's drops: the router's answers to them (with
 * --port-addr; fwd_local_input()), on the TX buffer of c->in_port, then
 * the dropped packets freed in one npool_napi_consume_bulk(). While the
 * port's global ICMP bucket is empty (looked at once a burst), a
 * rate-limited error is only counted: a TTL-1 flood costs a drop.
 */
void fwd_burst_drops(struct fwd_ctx *c);

#endif /* FWD_BURST_H */
