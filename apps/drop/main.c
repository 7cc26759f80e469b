/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-drop: receive and drop, Brouer's "drop in raw". Every packet
 * received is released at once with npool_napi_consume_bulk() (the
 * kernel's napi_consume_skb() on a drop batch); the figure is packets per
 * second and nanoseconds per packet per lcore.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_ethdev.h>

#include "npool.h"
#include "npool_rx.h"
#include "app_cli.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"

/* The only drop reason: received and dropped on purpose. */
static const char *const drop_reasons[] = { "rx_drop" };
#define RX_DROP 0

static int
drop_lcore_main(void *arg)
{
	const struct app_opts *o = arg;
	const struct app_lcore_conf *lc = &app_lcores[rte_lcore_id()];
	struct app_lcore_ctr *ctr = &app_ctr[rte_lcore_id()];
	const uint16_t copybreak = (uint16_t)o->copybreak;
	struct rte_mbuf *pkts[APP_BURST];
	struct app_loop loop;
	uint16_t i, n, port;

	app_loop_init(&loop);
	while (app_loop_running(&loop)) {
		for (i = 0; i < lc->nb_rxq; i++) {
			port = lc->rxq[i].port;
			n = rte_eth_rx_burst(port, lc->rxq[i].queue, pkts,
					APP_BURST);
			if (n == 0)
				continue;
			app_ctr_rx(ctr, port, n);
			if (copybreak != 0)
				npool_rx_copybreak(pkts, n, copybreak);
			npool_napi_consume_bulk(pkts, n);
			ctr->port[port].drops[RX_DROP] += n;
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct app_stats_desc desc = {
		"npool-drop", drop_reasons, RTE_DIM(drop_reasons),
	};
	static const struct app_cli cli = { NULL, NULL, NULL, NULL, NULL };
	static const struct app_port_params pp = { .tx = false, .mtu = 0 };
	static struct app_opts o;
	struct app_leak lk = { .ok = true };
	int ret, status = APP_EXIT_OK;
	double duration;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "npool-drop: EAL initialisation failed\n");
		return APP_EXIT_SETUP;
	}
	app_run_signals();
	app_opts_defaults(&o, "npool-drop");
	ret = app_cli_parse(argc - ret, argv + ret, &o, &cli);
	if (ret != 0) {
		status = ret > 0 ? APP_EXIT_OK : APP_EXIT_USAGE;
		goto out;
	}
	if (app_pool_init(&o, 0) < 0 || app_ports_start(&o, &pp) < 0) {
		status = APP_EXIT_SETUP;
		goto out;
	}
	app_stats_init(&desc, &o);
	duration = app_run(&o, drop_lcore_main, &o);
	app_ports_close();
	app_stats_print_final(stdout, duration);
	app_pool_leak_check(stdout, &lk);
	if (o.json != NULL && app_stats_write_json(o.json, duration, &lk) < 0)
		status = APP_EXIT_SETUP;
	if (!lk.ok)
		status = APP_EXIT_LEAK;
out:
	app_ports_close();
	app_pool_fini();
	rte_eal_cleanup();
	return status;
}
