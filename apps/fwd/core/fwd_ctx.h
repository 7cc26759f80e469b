/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTX_H
#define FWD_CTX_H

/**
 * @file
 * What a burst goes through npool-fwd's pipeline with: the context every
 * stage of it takes (as VPP's nodes take (vm, node, frame)), and the one
 * TX path, the lcore's per-port TX buffers: forwarded packets, fragments
 * and the router's answers all leave through them, and packets waiting for
 * a neighbour through the hold buffer (fwd_nh.h). A buffer is sent when
 * it holds a burst (FWD_BURST) and at the end of every poll round; a
 * packet the TX queue refuses is dropped as tx_full on the port it came
 * in on (mbuf->port; the router's own answers carry
 * RTE_MBUF_PORT_INVALID and are only freed).
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "npool_rx.h"
#include "app_ctr.h"
#include "fwd_tables.h"

/** Packets per rte_eth_rx_burst() and per rte_eth_tx_burst() (l3fwd's
 * MAX_PKT_BURST). */
#define FWD_BURST 32u

/** Most packets a burst through the pipeline has. */
#define FWD_BURST_MAX 64

/** mbuf->port of a multicast copy in a TX buffer: a copy the TX queue
 * does not take is counted as the mc_tx_full event of its port, not as a
 * drop of the packet (counted forwarded once). */
#define FWD_PORT_MCAST (RTE_MBUF_PORT_INVALID - 1)

/** Room of a port's TX buffer: a whole burst on top of the less than
 * FWD_BURST that the last one may have left. */
#define FWD_TX_ROOM (FWD_BURST_MAX + FWD_BURST)

/** An lcore's TX buffers, one per port and the hold buffer
 * (FWD_TX_HOLD, fwd_nh.h): m[b] .. tail[b] waits. */
struct fwd_tx {
	/** Where the next packet for each buffer goes in @c m. */
	struct rte_mbuf **tail[FWD_TX_NB];
	uint16_t txq;                   /**< the lcore's TX queue, every port */
	/** The tables: the hold buffer goes to their ring (NULL: no port
	 * resolves neighbours, nothing is held), through their gate. */
	const struct fwd_tables *t;
	struct rte_mbuf *m[FWD_TX_NB][FWD_TX_ROOM];
};

/** Packets waiting in TX buffer @p b (a port, or FWD_TX_HOLD). */
static inline uint16_t
fwd_tx_count(const struct fwd_tx *tx, uint16_t b)
{
	return (uint16_t)(tx->tail[b] - tx->m[b]);
}

/** Empty TX buffers for TX queue @p txq, holding into @p t's ring (lcore
 * start). */
static inline void
fwd_tx_init(struct fwd_tx *tx, uint16_t txq, const struct fwd_tables *t)
{
	uint16_t b;

	tx->txq = txq;
	tx->t = t;
	for (b = 0; b < FWD_TX_NB; b++)
		tx->tail[b] = tx->m[b];
}

/** The context of one burst in the pipeline. */
struct fwd_ctx {
	const struct fwd_tables *t;
	struct fwd_tx *tx;             /**< the lcore's TX buffers */
	struct app_lcore_ctr *ctr;     /**< the lcore's counters */
	struct app_port_ctr *ic;       /**< those of the receiving port */
	/** The burst's copy-break (npool_rx_copybreak_begin()), NULL when
	 * the packets are not copied here. */
	struct npool_rx_cb *cb;
	uint16_t in_port;              /**< the port the burst came in on */
	uint16_t nslow;                /**< packets the slow path took */
	/** Dropped packets, in RX order, counted; each keeps its parse in
	 * the mbuf (fwd_classify()) and its reason in @c why. */
	uint16_t nd;
	struct rte_mbuf *drop[FWD_BURST_MAX];
	uint8_t why[FWD_BURST_MAX];
};

/**
 * Send what TX buffer @p b holds: a port's with rte_eth_tx_burst(), the
 * hold buffer onto the control side's ring (fwd_hold_hand(): a packet
 * whose next hop resolved while it waited there is sent at once); what
 * the queue or the ring refuses is dropped and counted on the port each
 * packet came in on (tx_full, or unres_discard for the ring). A port's
 * buffer is sent only after the hold buffer, so that nothing the lcore
 * held leaves after what it sent later by the same next hop. Out of
 * line: once a burst of packets.
 */
void fwd_tx_flush(struct fwd_tx *tx, struct app_lcore_ctr *ctr, uint16_t b);

/** Send the TX buffers of the ports in @p ports, and the hold buffer,
 * that hold at least @p least packets (1: all that hold any). Whether
 * one of them still holds a packet (fewer than @p least). */
static inline bool
fwd_tx_flush_ports(struct fwd_tx *tx, struct app_lcore_ctr *ctr,
		uint64_t ports, uint16_t least)
{
	uint16_t p, n, left = 0;

	if (unlikely(fwd_tx_count(tx, FWD_TX_HOLD) >= least))
		fwd_tx_flush(tx, ctr, FWD_TX_HOLD);
	for (; ports != 0; ports &= ports - 1) {
		p = (uint16_t)__builtin_ctzll(ports);
		if (p >= RTE_MAX_ETHPORTS)
			continue;
		n = fwd_tx_count(tx, p);
		if (n >= least)
			fwd_tx_flush(tx, ctr, p);
		else
			left |= n;
	}
	/* A port's flush sends the hold buffer first. */
	return (left | fwd_tx_count(tx, FWD_TX_HOLD)) != 0;
}

/**
 * Queue @p m on TX buffer @p b (a port, or FWD_TX_HOLD), sending the
 * buffer once it holds a burst: the slow path's (and the answers') way
 * out. The one pass stores into the buffer itself (fwd_pass.h), with no
 * test: a burst fits on top of what this leaves (FWD_TX_ROOM).
 */
static inline void
fwd_tx_put(struct fwd_ctx *c, uint16_t b, struct rte_mbuf *m)
{
	struct fwd_tx *tx = c->tx;

	*tx->tail[b]++ = m;
	if (unlikely(fwd_tx_count(tx, b) >= FWD_BURST))
		fwd_tx_flush(tx, c->ctr, b);
}

#endif /* FWD_CTX_H */
