/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-drop: receive and drop, Brouer's "drop in raw". Every burst
 * received is released at once: with npool_napi_consume_plain() when it
 * is all plain RX mbufs of one pool (checked in the RX pass of loads,
 * app_rx_burst_plain()), else with npool_napi_consume_bulk() (the kernel's
 * napi_consume_skb() on a drop batch); the figure is packets per second
 * and nanoseconds per packet per lcore.
 */
#include <rte_launch.h>

#include "npool.h"
#include "app_cli.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_run.h"
#include "app_rx.h"
#include "app_stats.h"

/* Received and dropped on purpose; malformed chains from the PMD. */
static const char *const drop_reasons[] = { "rx_drop", "truncated" };
#define RX_DROP 0
#define RX_TRUNCATED 1

/* Each lcore's counters (app_stats.h reports them). */
static struct app_lcore_ctr drop_ctr[RTE_MAX_LCORE];

static int
drop_lcore_main(void *arg)
{
	const struct app_opts *o = arg;
	const unsigned int lcore = rte_lcore_id();
	const struct app_lcore_conf *lc = &app_lcores[lcore];
	struct app_lcore_ctr *ctr = &drop_ctr[lcore];
	const uint16_t copybreak = (uint16_t)o->copybreak;
	const uint16_t nb_rxq = lc->nb_rxq;
	uint64_t *dropped[APP_MAX_RXQ_PER_LCORE];
	struct rte_mbuf *pkts[APP_BURST];
	uint16_t i, n;
	bool plain;

	if (nb_rxq == 0)
		return 0;
	/* Where each queue's drops are counted, once for the run. */
	for (i = 0; i < nb_rxq; i++)
		dropped[i] = &ctr->port[lc->rxq[i].port].drops[RX_DROP];
	app_ctr_start(ctr);
	while (!app_quit) {
		for (i = 0; i < nb_rxq; i++) {
			n = app_rx_burst_plain(lc, i, ctr, pkts, copybreak,
					&plain);
			if (n == 0)
				continue;
			/* testpmd's rxonly: rte_pktmbuf_free_bulk(). A
			 * burst checked plain in the RX pass is one bulk
			 * put, with no second look at the mbufs. */
			if (likely(plain))
				npool_napi_consume_plain(pkts[0]->pool,
						pkts, n);
			else
				npool_napi_consume_bulk(pkts, n);
			*dropped[i] += n;
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct app_stats_desc desc = {
		"npool-drop", drop_reasons, RTE_DIM(drop_reasons),
		.rx_bad = RX_TRUNCATED,
	};
	static const struct app_port_params pp = { .tx = false, .mtu = 0 };
	static struct app_opts o;
	struct app_cli cli = { .usage = NULL };
	struct app_run run;
	double duration;
	int ret, status;

	ret = app_run_init(argc, argv, &o, "npool-drop", &cli);
	if (ret < 0 || app_cli_next(&cli, &o, argc - ret, argv + ret) != 0) {
		status = cli.status;
		goto out;
	}
	app_pool_init(&o, 0);
	if (app_ports_start(&o, &pp) < 0) {
		status = APP_EXIT_SETUP;
		goto out;
	}
	app_stats_init(&desc, &o, drop_ctr);
	app_run_start(&run, &o);
	rte_eal_mp_remote_launch(drop_lcore_main, &o, CALL_MAIN);
	duration = app_run_wait(&run);
	rte_eal_mp_wait_lcore();
	status = app_run_report(&o, duration);
out:
	app_run_cleanup();
	return status;
}
