/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding loop of one lcore (fwd_lcore.h), and on the command
 * lcore what the control thread asks (fwd_ctlmsg.h): a held packet sent,
 * one answered, a neighbour solicited; every packet the router sends
 * itself routed (fwd_route_out()).
 */
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ring_elem.h>

#include "fwd_burst.h"
#include "fwd_icmp.h"
#include "fwd_lcore.h"
#include "fwd_lookup.h"

struct fwd_lcore fwd_lcores[RTE_MAX_LCORE] __rte_cache_aligned;
struct app_lcore_ctr fwd_ctr[RTE_MAX_LCORE];

/*
 * Send @p m, a packet the router made (its Ethernet and IP headers
 * written), by the route to its IP destination, as Linux's
 * ip_local_out(): the next hop's MACs, its TX buffer (the hold buffer
 * when its neighbour is not resolved). Without a route (or with --lookup
 * em) it is freed, counted no_route_back on c->in_port.
 */
static void
fwd_route_out(struct fwd_ctx *c, struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct fwd_tables *t = c->t;
	const struct fwd_nh *nh;
	int32_t hop;

	if (t->lookup == FWD_LOOKUP_EM) {
		rte_pktmbuf_free(m);
		return;
	}
	hop = fwd_lookup_frame(t, p);
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

/* Bursts of commands fwd_cmd_poll() carries out at most: a queue that
 * resolution sent (up to a few hundred packets) leaves in a loop turn or
 * two, the RX bursts of the turn not delayed by more than that. */
#define FWD_CMD_POLL_BURSTS 8

/* A burst of the control side's commands (t->cmd) carried out; how
 * many. */
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

/* Carry out what the control side asks, up to FWD_CMD_POLL_BURSTS bursts
 * of it: on lcore t->cmd_lcore, once a loop turn, after its RX bursts.
 * @return How many: counted in t->cmd_done once the turn's TX buffers are
 * sent (fwd_cmd_done()). */
static unsigned int
fwd_cmd_poll(struct fwd_ctx *c)
{
	unsigned int b, n, done = 0;

	for (b = 0; b < FWD_CMD_POLL_BURSTS; b++) {
		n = fwd_cmd_burst(c);
		done += n;
		if (n < FWD_BURST)
			break;
	}
	return done;
}

/* @p done commands carried out and their packets on their TX queues,
 * ahead of what the next RX bursts send: the control side may let the
 * fast path by (one writer). */
static void
fwd_cmd_done(struct fwd_ctx *c, unsigned int done)
{
	if (done != 0 && c->t->cmd_done != NULL)
		__atomic_store_n(c->t->cmd_done, *c->t->cmd_done + done,
				__ATOMIC_RELEASE);
}

int
fwd_lcore_main(void *arg __rte_unused)
{
	const unsigned int lcore = rte_lcore_id();
	struct fwd_lcore *l = &fwd_lcores[lcore];
	struct rte_mbuf *pkts[FWD_BURST];
	struct rte_rcu_qsbr *qsv;
	struct fwd_ctx c;
	unsigned int done;
	uint64_t ports;
	bool cmd, held = false;
	uint16_t i, n;

	RTE_BUILD_BUG_ON(FWD_BURST > FWD_BURST_MAX);
	if (l->t == NULL || l->nb_rxq == 0)
		return 0;
	memset(&c, 0, sizeof(c));
	c.t = l->t;
	c.tx = &l->tx;
	c.ctr = &fwd_ctr[lcore];
	fwd_tx_init(c.tx, l->txq, c.t);
	ports = c.t->portmask;
	/* The control side's: reports of quiescent states (its writes to
	 * the tables wait for them), and its commands on one lcore. */
	qsv = c.t->qsv;
	cmd = c.t->cmd != NULL && lcore == c.t->cmd_lcore;
	if (qsv != NULL) {
		rte_rcu_qsbr_thread_register(qsv, lcore);
		rte_rcu_qsbr_thread_online(qsv, lcore);
	}
	app_ctr_start(c.ctr);
	while (!*l->quit) {
		for (i = 0; i < l->nb_rxq; i++) {
			c.in_port = l->rxq[i].port;
			n = rte_eth_rx_burst(c.in_port, l->rxq[i].queue, pkts,
					FWD_BURST);
			if (n == 0) {
				app_ctr_idle(c.ctr);
				continue;
			}
			app_ctr_rx(c.ctr, i, c.in_port, n);
			c.ic = &c.ctr->port[c.in_port];
			/* Copy-break is made in the pass
			 * (fwd_burst_decide()). */
			fwd_burst_decide(&c, pkts, n);
			/* Its own test, without the call, when none. */
			if (c.nd != 0)
				fwd_burst_drops(&c);
			/* Room for the next burst (FWD_TX_ROOM); whether a
			 * buffer still holds packets, known from the
			 * look. */
			held = true;
			if (l->nb_rxq > 1)
				held = fwd_tx_flush_ports(c.tx, c.ctr, ports,
						FWD_BURST);
		}
		done = unlikely(cmd) ? fwd_cmd_poll(&c) : 0;
		/* The end of the round: no buffer looked at when every one
		 * was empty after the last look and nothing came since
		 * (the command lcore's answers may have). */
		if (held || cmd)
			fwd_tx_flush_ports(c.tx, c.ctr, ports, 1);
		held = false;
		fwd_cmd_done(&c, done);
		if (qsv != NULL)
			rte_rcu_qsbr_quiescent(qsv, lcore);
	}
	fwd_tx_flush_ports(c.tx, c.ctr, ports, 1);
	if (qsv != NULL) {
		rte_rcu_qsbr_thread_offline(qsv, lcore);
		rte_rcu_qsbr_thread_unregister(qsv, lcore);
	}
	return 0;
}
