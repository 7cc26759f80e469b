/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-line half of the apps' RX checks (app_rx.h): the chain test
 * and the fix of a burst that has an odd packet.
 */
#include "app_rx.h"
#include "app_stats.h"

/* Whether the segments of @p m add up to its pkt_len and nb_segs. */
static bool
chain_ok(const struct rte_mbuf *m)
{
	const struct rte_mbuf *s = m;
	uint32_t len = 0;
	uint16_t segs = 0;

	/* At most nb_segs + 1 steps, whatever the next pointers say. */
	while (s != NULL && segs <= m->nb_segs) {
		len += s->data_len;
		segs++;
		s = s->next;
	}
	return s == NULL && segs == m->nb_segs && len == m->pkt_len;
}

uint16_t
app_rx_fix_pvt(struct app_lcore_ctr *c, uint16_t port,
		struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *bad[n];
	uint16_t i, ok = 0, nb = 0;

	for (i = 0; i < n; i++) {
		pkts[i]->port = port;
		if (likely(chain_ok(pkts[i])))
			pkts[ok++] = pkts[i];
		else
			bad[nb++] = pkts[i];
	}
	if (nb != 0) {
		c->port[port].drops[app_stats_rx_bad_pvt] += nb;
		/* Follows the next pointers, not nb_segs. */
		rte_pktmbuf_free_bulk(bad, nb);
	}
	return ok;
}
