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

void
fwd_tx_flush(struct fwd_tx *tx, struct app_lcore_ctr *ctr, uint16_t b)
{
	const uint16_t n = fwd_tx_count(tx, b);
	uint16_t sent;

	tx->tail[b] = tx->m[b];
	if (n == 0)
		return;
	if (unlikely(b == FWD_TX_HOLD)) {
		sent = fwd_hold_hand(tx->hold, tx->m[b], n);
	} else {
		sent = rte_eth_tx_burst(b, tx->txq, tx->m[b], n);
		ctr->port[b].tx += sent;
	}
	if (unlikely(sent < n))
		fwd_tx_unsent(ctr, b, tx->m[b] + sent, n - sent);
}
