/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding loop of one lcore: RX bursts from its queues (--config),
 * each through the pipeline (fwd_burst.h: the one pass with copy-break
 * in it, the slow path, the router's answers), every packet that leaves
 * on the per-port TX buffers (fwd_ctx.h), sent when one holds a burst
 * and at the end of each poll round.
 */
#include <string.h>

#include <rte_ethdev.h>

#include "app_numa.h"
#include "app_port.h"
#include "app_run.h"
#include "app_rx.h"
#include "app_stats.h"
#include "fwd_burst.h"

static struct fwd_tx fwd_txs[RTE_MAX_LCORE] __rte_cache_aligned;

int
fwd_lcore_main(void *arg)
{
	const unsigned int lcore = rte_lcore_id();
	const struct app_lcore_conf *lc = &app_lcores[lcore];
	struct rte_mbuf *pkts[APP_BURST];
	struct app_loop loop;
	struct fwd_ctx c;
	uint64_t ports;
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
		fwd_tx_flush_ports(c.tx, c.ctr, ports, 1);
	}
	fwd_tx_flush_ports(c.tx, c.ctr, ports, 1);
	return 0;
}
