/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding loop of one lcore: RX bursts from its queues (--config),
 * each through the pipeline (fwd_burst.h: the one pass with copy-break
 * in it, the slow path, the router's answers), every packet that leaves
 * on the per-port TX buffers (fwd_ctx.h), sent when one holds a burst
 * and at the end of each poll round. With a control thread (live routes,
 * neighbours), a quiescent state reported at the end of each round
 * (rte_rcu_qsbr), and on one lcore its commands carried out.
 */
#include <string.h>

#include <rte_ethdev.h>

#include "app_numa.h"
#include "app_port.h"
#include "app_run.h"
#include "app_rx.h"
#include "app_stats.h"
#include "fwd_burst.h"
#include "fwd_ctlq.h"

static struct fwd_tx fwd_txs[RTE_MAX_LCORE] __rte_cache_aligned;

int
fwd_lcore_main(void *arg)
{
	const unsigned int lcore = rte_lcore_id();
	const struct app_lcore_conf *lc = &app_lcores[lcore];
	struct rte_mbuf *pkts[APP_BURST];
	struct app_loop loop;
	struct fwd_ctx c;
	struct rte_rcu_qsbr *qsv;
	uint64_t ports;
	bool cmd;
	uint16_t i, n;

	RTE_BUILD_BUG_ON(APP_BURST > FWD_BURST_MAX);
	memset(&c, 0, sizeof(c));
	/* The tables of this lcore's socket (fwd_lcore_main()'s doc). */
	c.t = ((const struct fwd_tables *const *)arg)[
		app_numa_lcore_socket(lcore)];
	c.tx = &fwd_txs[lcore];
	c.ctr = &app_ctr[lcore];
	fwd_tx_init(c.tx, lc->txq, c.t);
	ports = c.t->portmask;
	/* The control side's: reports of quiescent states (its writes to
	 * the tables wait for them), and its commands on one lcore. */
	qsv = c.t->qsv;
	cmd = c.t->cmd != NULL && lcore == c.t->cmd_lcore;
	if (qsv != NULL) {
		rte_rcu_qsbr_thread_register(qsv, lcore);
		rte_rcu_qsbr_thread_online(qsv, lcore);
	}
	app_loop_init(&loop);
	while (app_loop_running(&loop)) {
		for (i = 0; i < lc->nb_rxq; i++) {
			/* Copy-break is made in the pass
			 * (fwd_burst_decide()). */
			n = app_rx_burst_unchecked(lc, i, c.ctr, pkts, 0);
			if (n == 0)
				continue;
			c.in_port = lc->rxq[i].port;
			c.ic = &c.ctr->port[c.in_port];
			fwd_burst_decide(&c, pkts, n);
			fwd_burst_drops(&c);
			/* Room for the next burst (FWD_TX_ROOM). */
			if (lc->nb_rxq > 1)
				fwd_tx_flush_ports(c.tx, c.ctr, ports,
						APP_BURST);
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
