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
#include "app_ctr.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_stats.h"
#include "app_telemetry.h"

/* The counters of a snapshot into a dict (app_ctr_walk() visit). */
struct tel {
	struct rte_tel_data *top; /* the command's dict */
	struct rte_tel_data *cur; /* top, or the group open under key */
	const char *key;
};

static int
tel_open(void *arg, const char *key)
{
	struct tel *t = arg;

	t->cur = rte_tel_data_alloc();
	if (t->cur == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(t->cur);
	t->key = key;
	return 0;
}

static void
tel_close(void *arg)
{
	struct tel *t = arg;

	rte_tel_data_add_dict_container(t->top, t->key, t->cur, 0);
	t->cur = t->top;
}

static void
tel_value(void *arg, const struct app_ctr_def *def __rte_unused,
		const char *key, const char *label __rte_unused,
		const uint64_t *v)
{
	struct tel *t = arg;

	rte_tel_data_add_dict_uint(t->cur, key, v[0]);
}

/* The counters of section @p sec of @p col into dict @p d. */
static int
tel_walk(struct rte_tel_data *d, unsigned int sec,
		const struct app_ctr_col *col)
{
	struct tel t = { d, d, NULL };
	const struct app_ctr_visit vis = {
		APP_CTR_TEL, tel_open, tel_close, tel_value, &t,
	};

	return app_ctr_walk(&vis, sec, col, 1, false);
}

/* Port @p port's counters (or the total's) into dict @p d. */
static int
ctr_to_dict(struct rte_tel_data *d, uint16_t port)
{
	struct app_port_ctr c;

	if (app_stats_port_snapshot(port, &c) != 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "app", app_stats_desc_get()->app);
	return tel_walk(d, APP_CTR_SEC_PORT,
			&(struct app_ctr_col){ &c, NULL, NULL });
}

static int
tel_stats(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	if (app_stats_desc_get() == NULL)
		return -ENODEV;
	return ctr_to_dict(d, APP_STATS_ALL_PORTS);
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
	unsigned long p;
	char *end;
	int ret;

	if (app_stats_desc_get() == NULL)
		return -ENODEV;
	if (params == NULL || *params == '\0')
		return -EINVAL;
	p = strtoul(params, &end, 10);
	if (*end != '\0' || p >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	ret = ctr_to_dict(d, (uint16_t)p);
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
	return tel_walk(d, APP_CTR_SEC_RX, &(struct app_ctr_col){ .rx = &rs });
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
