/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TX buffers of npool-fwd's pipeline sent (fwd_ctx.h): onto a port's
 * TX queue, or the hold buffer onto the control side's ring.
 */
#include <rte_ethdev.h>

#include "npool.h"
#include "fwd_ctlq.h"
#include "fwd_ctx.h"

/* The TX queue of @p port (or the hold ring, FWD_TX_HOLD) did not take
 * them: dropped, counted on the port they came in on (tx_full, or
 * unres_discard; the router's answers, RTE_MBUF_PORT_INVALID, are only
 * freed); a multicast copy counted on @p port (its packet was counted
 * forwarded once, fwd_mcast.h). */
static __rte_noinline void
fwd_tx_unsent(struct app_lcore_ctr *ctr, uint16_t port, struct rte_mbuf **m,
		uint16_t n)
{
	const unsigned int why = port == FWD_TX_HOLD ? FWD_UNRES_DISCARD :
		FWD_TX_FULL;
	struct app_port_ctr *c;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (m[i]->port == FWD_PORT_MCAST && port < RTE_MAX_ETHPORTS)
			ctr->port[port].ev[FWD_EV_MC_TX_FULL]++;
		if (m[i]->port >= RTE_MAX_ETHPORTS)
			continue;
		c = &ctr->port[m[i]->port];
		c->fwd--;
		c->drops[why]++;
	}
	npool_napi_consume_bulk(m, n);
}

/* @p n packets onto port @p port's TX queue, what it refuses dropped. */
static void
fwd_tx_send(struct fwd_tx *tx, struct app_lcore_ctr *ctr, uint16_t port,
		struct rte_mbuf **m, uint16_t n)
{
	const uint16_t sent = rte_eth_tx_burst(port, tx->txq, m, n);

	ctr->port[port].tx += sent;
	if (unlikely(sent < n))
		fwd_tx_unsent(ctr, port, m + sent, n - sent);
}

/* The hold buffer's @p n packets handed (fwd_hold_hand()); those whose
 * next hop resolved meanwhile sent now, port by port in their order. */
static __rte_noinline void
fwd_tx_flush_hold(struct fwd_tx *tx, struct app_lcore_ctr *ctr, uint16_t n)
{
	struct rte_mbuf *late[FWD_TX_ROOM], *one[FWD_TX_ROOM];
	uint16_t late_port[FWD_TX_ROOM];
	struct fwd_hold_batch b = {
		.m = tx->m[FWD_TX_HOLD], .n = n,
		.late = late, .late_port = late_port,
	};
	uint16_t taken, i, k, port;

	taken = fwd_hold_hand(tx->t, &b);
	if (unlikely(taken < b.held))
		fwd_tx_unsent(ctr, FWD_TX_HOLD, b.m + taken, b.held - taken);
	for (i = 0; i < b.nlate; i++)
		if (late[i]->port < RTE_MAX_ETHPORTS)
			ctr->port[late[i]->port].ev[FWD_EV_HOLD_LATE]++;
	while (b.nlate != 0) {
		port = late_port[0];
		for (i = k = 0; i < b.nlate; i++) {
			if (late_port[i] == port) {
				one[k++] = late[i];
				continue;
			}
			late_port[i - k] = late_port[i];
			late[i - k] = late[i];
		}
		b.nlate = (uint16_t)(b.nlate - k);
		fwd_tx_send(tx, ctr, port, one, k);
	}
}

void
fwd_tx_flush(struct fwd_tx *tx, struct app_lcore_ctr *ctr, uint16_t b)
{
	const uint16_t n = fwd_tx_count(tx, b);

	tx->tail[b] = tx->m[b];
	if (n == 0)
		return;
	if (unlikely(b == FWD_TX_HOLD)) {
		fwd_tx_flush_hold(tx, ctr, n);
		return;
	}
	/* What the lcore held goes first (fwd_tx_flush()'s doc). */
	if (unlikely(fwd_tx_count(tx, FWD_TX_HOLD) != 0))
		fwd_tx_flush(tx, ctr, FWD_TX_HOLD);
	fwd_tx_send(tx, ctr, b, tx->m[b], n);
}
