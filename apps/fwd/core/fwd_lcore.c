/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding loop of one lcore (fwd_lcore.h).
 */
#include <string.h>

#include <rte_ethdev.h>

#include "fwd_burst.h"
#include "fwd_cmd.h"
#include "fwd_lcore.h"

struct fwd_lcore fwd_lcores[RTE_MAX_LCORE] __rte_cache_aligned;
struct app_lcore_ctr fwd_ctr[RTE_MAX_LCORE];

int
fwd_lcore_main(void *arg __rte_unused)
{
	const unsigned int lcore = rte_lcore_id();
	struct fwd_lcore *l = &fwd_lcores[lcore];
	struct rte_mbuf *pkts[FWD_BURST];
	struct rte_rcu_qsbr *qsv;
	struct fwd_ctx c;
	uint64_t ports;
	bool cmd;
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
			fwd_burst_drops(&c);
			/* Room for the next burst (FWD_TX_ROOM). */
			if (l->nb_rxq > 1)
				fwd_tx_flush_ports(c.tx, c.ctr, ports,
						FWD_BURST);
		}
		if (unlikely(cmd))
			fwd_cmd_poll(&c);
		fwd_tx_flush_ports(c.tx, c.ctr, ports, 1);
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
