/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The apps' counters over DPDK telemetry, read while they run
 * (dpdk-telemetry.py, or the socket under /var/run/dpdk/<prefix>/; EAL's
 * --no-telemetry turns it off):
 *   /app/stats        rx, tx, forwarded, dropped, in flight and drops by
 *                     reason, summed over the enabled ports
 *   /app/port,<id>    the same for one port, with rx_queues (rx of each
 *                     polled RX queue, by queue id) and rss ("on"/"off")
 *   /app/pools        mbufs out of every pool of the app (the leak check's
 *                     figures, live), npool's fragments, chunks and heads
 *                     out, the copy-break counters (copied, nomem)
 * The drop reasons of a snapshot are read before rx (as the --stats line),
 * so that rx == forwarded + dropped + in_flight.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include "npool_rx.h"
#include "app_compat.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_stats.h"
#include "app_telemetry.h"

/* The app's event counters (app_stats_desc.events) into dict @p d. */
static int
events_to_dict(struct rte_tel_data *d, const struct app_stats_desc *desc,
		const struct app_port_ctr *c)
{
	struct rte_tel_data *ev;
	unsigned int r;

	if (desc->events_key == NULL || desc->nb_events == 0)
		return 0;
	ev = rte_tel_data_alloc();
	if (ev == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(ev);
	for (r = 0; r < desc->nb_events && r < APP_MAX_EVENTS; r++)
		rte_tel_data_add_dict_uint(ev, desc->events[r], c->ev[r]);
	rte_tel_data_add_dict_container(d, desc->events_key, ev, 0);
	return 0;
}

/* One port's (or the total's) counters into dict @p d. */
static int
ctr_to_dict(struct rte_tel_data *d, const struct app_port_ctr *c)
{
	const struct app_stats_desc *desc = app_stats_desc_get();
	struct rte_tel_data *drops = rte_tel_data_alloc();
	uint64_t dropped = 0;
	unsigned int r;

	if (drops == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(drops);
	for (r = 0; r < desc->nb_reasons; r++) {
		dropped += c->drops[r];
		rte_tel_data_add_dict_uint(drops, desc->reasons[r],
				c->drops[r]);
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "app", desc->app);
	rte_tel_data_add_dict_uint(d, "rx", c->rx);
	rte_tel_data_add_dict_uint(d, "tx", c->tx);
	rte_tel_data_add_dict_uint(d, "forwarded", c->fwd);
	rte_tel_data_add_dict_uint(d, "dropped", dropped);
	rte_tel_data_add_dict_uint(d, "in_flight",
			c->rx > c->fwd + dropped ? c->rx - c->fwd - dropped : 0);
	rte_tel_data_add_dict_container(d, "drops", drops, 0);
	return events_to_dict(d, desc, c);
}

static int
tel_stats(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	struct app_port_ctr sum, c;
	unsigned int r;
	uint16_t p;

	if (app_stats_desc_get() == NULL)
		return -ENODEV;
	memset(&sum, 0, sizeof(sum));
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (app_stats_port_snapshot(p, &c) != 0)
			continue;
		sum.rx += c.rx;
		sum.tx += c.tx;
		sum.fwd += c.fwd;
		for (r = 0; r < APP_MAX_REASONS; r++)
			sum.drops[r] += c.drops[r];
		for (r = 0; r < APP_MAX_EVENTS; r++)
			sum.ev[r] += c.ev[r];
	}
	return ctr_to_dict(d, &sum);
}

/* Port @p's polled RX queues (rx by queue id) and RSS state into @p d. */
static int
rxq_to_dict(struct rte_tel_data *d, uint16_t p)
{
	const struct npool_rx_rss_plan *rss = app_port_rss(p, NULL);
	struct rte_tel_data *q = rte_tel_data_alloc();
	uint64_t rx[APP_MAX_RXQ];
	unsigned int n, i;

	if (q == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(q, RTE_TEL_U64_VAL);
	n = app_stats_rxq_snapshot(p, rx, RTE_DIM(rx));
	for (i = 0; i < n; i++)
		rte_tel_data_add_array_uint(q, rx[i]);
	rte_tel_data_add_dict_container(d, "rx_queues", q, 0);
	rte_tel_data_add_dict_string(d, "rss", rss != NULL && rss->on ?
			"on" : "off");
	return 0;
}

static int
tel_port(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct app_port_ctr c;
	unsigned long p;
	char *end;
	int ret;

	if (app_stats_desc_get() == NULL)
		return -ENODEV;
	if (params == NULL || *params == '\0')
		return -EINVAL;
	p = strtoul(params, &end, 10);
	if (*end != '\0' || p >= RTE_MAX_ETHPORTS ||
			app_stats_port_snapshot((uint16_t)p, &c) != 0)
		return -EINVAL;
	ret = ctr_to_dict(d, &c);
	if (ret == 0)
		ret = rxq_to_dict(d, (uint16_t)p);
	return ret;
}

static int
tel_pools(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	struct npool_rx_stats rs;

	rte_tel_data_start_dict(d);
	app_pool_usage_to_dict(d);
	npool_rx_stats_sum(&rs);
	rte_tel_data_add_dict_uint(d, "copybreak_copied", rs.copybreak_copied);
	rte_tel_data_add_dict_uint(d, "copybreak_nomem", rs.copybreak_nomem);
	return 0;
}

void
app_telemetry_register(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	rte_telemetry_register_cmd("/app/stats", tel_stats,
		"The app's packet counters and drops by reason, all ports. No parameters");
	rte_telemetry_register_cmd("/app/port", tel_port,
		"The app's packet counters and drops by reason of one port, rx of each polled RX queue, RSS on or off. Parameters: port id");
	rte_telemetry_register_cmd("/app/pools", tel_pools,
		"Mbufs out of each pool of the app, npool fragments, chunks and heads out, copy-break counters. No parameters");
}
