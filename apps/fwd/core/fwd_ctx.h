/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTX_H
#define FWD_CTX_H

/**
 * @file
 * What a burst goes through npool-fwd's pipeline with: the context every
 * stage of it takes (as VPP's nodes take (vm, node, frame)), and the one
 * TX path, the lcore's per-port TX buffers: forwarded packets, fragments
 * and the router's answers all leave through them. A buffer is sent when
 * it holds a burst (APP_BURST) and at the end of every poll round; a
 * packet the TX queue refuses is dropped as tx_full on the port it came
 * in on (mbuf->port; the router's own answers carry
 * RTE_MBUF_PORT_INVALID and are only freed).
 */

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool_rx.h"
#include "app_port.h"
#include "app_stats.h"
#include "fwd_tables.h"

/** Most packets a burst through the pipeline has. */
#define FWD_BURST_MAX 64

/** Room of a port's TX buffer: a whole burst on top of the less than
 * APP_BURST that the last one may have left. */
#define FWD_TX_ROOM (FWD_BURST_MAX + APP_BURST)

/** What the pass touches of a port it sends to, in one 32-byte slot. */
struct fwd_txport {
	/** The MACs a packet leaving the port gets, as 16 bytes (the last
	 * 4 zero): a copy of fwd_tables.eth16 of the lcore's tables. */
	uint8_t eth16[16];
	/** Where the next packet for the port goes in fwd_tx.m. */
	struct rte_mbuf **tail;
	uint64_t pad;
} __rte_aligned(32);

/** An lcore's TX buffers, one per port: m[p] .. port[p].tail waits. */
struct fwd_tx {
	struct fwd_txport port[RTE_MAX_ETHPORTS];
	uint16_t txq;                   /**< the lcore's TX queue, every port */
	struct rte_mbuf *m[RTE_MAX_ETHPORTS][FWD_TX_ROOM];
};

/** Packets waiting in the TX buffer of @p port. */
static inline uint16_t
fwd_tx_count(const struct fwd_tx *tx, uint16_t port)
{
	return (uint16_t)(tx->port[port].tail - tx->m[port]);
}

/** Empty TX buffers for TX queue @p txq, the MACs of @p t (lcore
 * start). */
static inline void
fwd_tx_init(struct fwd_tx *tx, uint16_t txq, const struct fwd_tables *t)
{
	uint16_t p;

	tx->txq = txq;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		memcpy(tx->port[p].eth16, t->eth16[p],
				sizeof(tx->port[p].eth16));
		tx->port[p].tail = tx->m[p];
		tx->port[p].pad = 0;
	}
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
 * Send what the TX buffer of @p port holds (rte_eth_tx_burst()); what the
 * queue refuses is dropped and counted tx_full on the port each packet
 * came in on. Out of line: once a burst of packets.
 */
void fwd_tx_flush(struct fwd_tx *tx, struct app_lcore_ctr *ctr,
		uint16_t port);

/** Send the TX buffers of the ports in @p ports that hold at least
 * @p least packets (1: all that hold any). */
static inline void
fwd_tx_flush_ports(struct fwd_tx *tx, struct app_lcore_ctr *ctr,
		uint64_t ports, uint16_t least)
{
	uint16_t p;

	for (; ports != 0; ports &= ports - 1) {
		p = (uint16_t)__builtin_ctzll(ports);
		if (p < RTE_MAX_ETHPORTS && fwd_tx_count(tx, p) >= least)
			fwd_tx_flush(tx, ctr, p);
	}
}

/**
 * Queue @p m on the TX buffer of @p port, sending the buffer once it
 * holds a burst: the slow path's (and the answers') way out. The one pass
 * stores into the buffer itself (fwd_pass.h), with no test: a burst fits
 * on top of what this leaves (FWD_TX_ROOM).
 */
static inline void
fwd_tx_put(struct fwd_ctx *c, uint16_t port, struct rte_mbuf *m)
{
	struct fwd_tx *tx = c->tx;

	*tx->port[port].tail++ = m;
	if (unlikely(fwd_tx_count(tx, port) >= APP_BURST))
		fwd_tx_flush(tx, c->ctr, port);
}

#endif /* FWD_CTX_H */
