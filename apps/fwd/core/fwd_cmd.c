/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The commands of the control thread carried out on the command lcore
 * (fwd_cmd.h): a held packet sent, one answered, a neighbour solicited;
 * every packet the router sends itself routed (fwd_route_out()).
 */
#include <string.h>

#include <rte_ring_elem.h>

#include "fwd_cmd.h"
#include "fwd_icmp.h"
#include "fwd_lookup.h"

void
fwd_route_out(struct fwd_ctx *c, struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct fwd_tables *t = c->t;
	const struct fwd_nh *nh;
	uint32_t dst;
	int32_t hop;

	if (t->lookup == FWD_LOOKUP_EM) {
		rte_pktmbuf_free(m);
		return;
	}
	if (p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) &&
			p[13] == (RTE_ETHER_TYPE_IPV6 & 0xff)) {
		hop = fwd_lookup6(t, p + RTE_ETHER_HDR_LEN + 24);
	} else {
		memcpy(&dst, p + RTE_ETHER_HDR_LEN + 16, sizeof(dst));
		hop = fwd_lookup4(t, rte_be_to_cpu_32(dst));
	}
	if ((uint32_t)hop >= FWD_NH_MAX) {
		c->ctr->port[c->in_port].ev[FWD_EV_NO_ROUTE_BACK]++;
		rte_pktmbuf_free(m);
		return;
	}
	nh = fwd_nh_get(t->nht, (uint32_t)hop);
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), nh->eth16,
			2 * RTE_ETHER_ADDR_LEN);
	fwd_tx_put(c, nh->tx, m);
}

/* FWD_CMD_ANSWER: a held packet dropped as @p why, counted on the port it
 * came in on (its forwarded count undone: the pass counted it), answered
 * by its route. */
static void
fwd_cmd_answer(struct fwd_ctx *c, struct rte_mbuf *m, unsigned int why)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const bool v6 = p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) &&
		p[13] == (RTE_ETHER_TYPE_IPV6 & 0xff);
	struct app_port_ctr *ic;
	struct rte_mbuf *r;

	/* The router's own packets: nothing to count or answer. */
	if (m->port >= RTE_MAX_ETHPORTS || m->pkt_len < RTE_ETHER_HDR_LEN) {
		rte_pktmbuf_free(m);
		return;
	}
	ic = &c->ctr->port[m->port];
	ic->fwd--;
	ic->drops[why]++;
	m->l2_len = RTE_ETHER_HDR_LEN;
	m->packet_type = v6 ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV4;
	c->in_port = m->port;
	r = fwd_local_input(c->t, ic, m, why, m->port);
	if (r != NULL)
		fwd_route_out(c, r);
	rte_pktmbuf_free(m);
}

/* A burst of commands carried out; how many. */
static unsigned int
fwd_cmd_burst(struct fwd_ctx *c)
{
	struct fwd_cmd cmd[FWD_BURST];
	unsigned int n, i;
	struct rte_mbuf *m;

	n = rte_ring_sc_dequeue_burst_elem(c->t->cmd, cmd, sizeof(cmd[0]),
			RTE_DIM(cmd), NULL);
	for (i = 0; i < n; i++) {
		m = cmd[i].m;
		switch (cmd[i].kind) {
		case FWD_CMD_SEND:
			memcpy(rte_pktmbuf_mtod(m, uint8_t *), cmd[i].eth,
					sizeof(cmd[i].eth));
			fwd_tx_put(c, cmd[i].port, m);
			break;
		case FWD_CMD_ANSWER:
			fwd_cmd_answer(c, m, cmd[i].why);
			break;
		case FWD_CMD_SOLICIT:
			m = fwd_solicit(c->t, &cmd[i],
					&c->ctr->port[cmd[i].port]);
			if (m != NULL)
				fwd_tx_put(c, cmd[i].port, m);
			break;
		}
	}
	return n;
}

void
fwd_cmd_poll(struct fwd_ctx *c)
{
	unsigned int b, n, done = 0;

	for (b = 0; b < FWD_CMD_POLL_BURSTS; b++) {
		n = fwd_cmd_burst(c);
		done += n;
		if (n < FWD_BURST)
			break;
	}
	/* In the TX buffers now, ahead of what the next RX bursts send:
	 * the control side may let the fast path by (one writer). */
	if (done != 0 && c->t->cmd_done != NULL)
		__atomic_store_n(c->t->cmd_done, *c->t->cmd_done + done,
				__ATOMIC_RELEASE);
}
