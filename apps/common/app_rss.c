/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_errno.h>

#include "app_cli.h"
#include "app_json.h"
#include "app_rss.h"

/* Why RSS cannot feed the polled queues of @port, and what to poll. */
static void
rss_error(uint16_t port, const struct npool_rx_profile *prof,
		const struct rte_eth_dev_info *info, uint16_t n,
		uint16_t nb_rxq_dev, const struct npool_rx_rss_plan *rss)
{
	char hint[96];

	if (rss->rss_hf == 0)
		snprintf(hint, sizeof(hint), "poll one RX queue of port %u",
				port);
	else if (prof->rss_max_queues != 0 && n > prof->rss_max_queues)
		snprintf(hint, sizeof(hint),
				"poll at most %u RX queues of port %u",
				prof->rss_max_queues, port);
	else if (info->reta_size != 0 && n > info->reta_size)
		snprintf(hint, sizeof(hint),
				"poll at most %u RX queues of port %u",
				info->reta_size, port);
	else
		snprintf(hint, sizeof(hint),
				"poll all %u RX queues of port %u (one per forwarding lcore)",
				nb_rxq_dev, port);
	app_err("port %u (%s, profile %s): %u RX queues in --config: RSS: %s (flow_type_rss_offloads 0x%" PRIx64 ", reta_size %u); --config: %s",
			port, info->driver_name, prof->driver, n, rss->reason,
			info->flow_type_rss_offloads, info->reta_size, hint);
}

/* Log each wanted hash type the device lacks, when RSS is on. */
static void
log_lacking(uint16_t port, const struct rte_eth_dev_info *info,
		const struct npool_rx_rss_plan *rss)
{
	uint64_t off = rss->on ? rss->rss_hf_lacking : 0;

	while (off != 0) {
		uint64_t bit = off & -off;
		const char *name = npool_rx_rss_type_name(bit);

		printf("port %u: RSS hash type %s not offered by %s (flow_type_rss_offloads 0x%" PRIx64 "): not configured\n",
				port, name != NULL ? name : "?",
				info->driver_name,
				info->flow_type_rss_offloads);
		off &= ~bit;
	}
}

int
app_rss_plan(uint16_t port, const struct npool_rx_profile *prof,
		const struct rte_eth_dev_info *info, uint16_t nb_rxq,
		uint16_t nb_rxq_dev, struct npool_rx_rss_plan *rss,
		struct rte_eth_conf *conf)
{
	const struct npool_rx_rss_req req = {
		.nb_rxq = nb_rxq, .nb_rxq_dev = nb_rxq_dev,
	};

	if (npool_rx_rss_plan(prof, info, &req, rss) != 0) {
		rss_error(port, prof, info, nb_rxq, nb_rxq_dev, rss);
		return -1;
	}
	npool_rx_rss_conf(rss, conf);
	log_lacking(port, info, rss);
	return 0;
}

int
app_rss_start(uint16_t port, const struct rte_eth_dev_info *info,
		uint16_t nb_rxq_dev, const struct npool_rx_rss_plan *rss,
		bool *read_back)
{
	char types[512], reta[96];
	int ret;

	*read_back = false;
	if (!rss->on) {
		printf("port %u: RSS off: %s\n", port, rss->reason);
		return 0;
	}
	ret = npool_rx_rss_reta_apply(port, rss, read_back);
	if (ret == -ENOTSUP && nb_rxq_dev == rss->nb_queues) {
		/* Its own spread then covers exactly the polled queues. */
		snprintf(reta, sizeof(reta),
				"RETA not written (%s: not supported), the PMD's own spread",
				info->driver_name);
	} else if (ret != 0) {
		app_err("port %u (%s): RSS redirection table of %u entries over RX queues 0..%u: %s",
				port, info->driver_name, rss->reta_size,
				rss->nb_queues - 1, ret == -EIO ?
				"read back different from what was written" :
				rte_strerror(-ret));
		return -1;
	} else if (rss->reta_size == 0) {
		snprintf(reta, sizeof(reta),
				"no RETA (reta_size 0): the PMD spreads itself");
	} else {
		snprintf(reta, sizeof(reta),
				"RETA %u entries, %u-%u per queue, %s",
				rss->reta_size, rss->reta_min, rss->reta_max,
				*read_back ? "read back equal" :
				"not read back (no query)");
	}
	npool_rx_rss_types_str(rss->rss_hf, types, sizeof(types));
	printf("port %u: RSS on over RX queues 0-%u: hash %s (rss_hf 0x%" PRIx64 "), %s\n",
			port, rss->nb_queues - 1, types, rss->rss_hf, reta);
	return 0;
}

/* The names of the hash types in @p hf, as an array. */
static void
json_types(struct app_json *j, const char *key, uint64_t hf)
{
	char hex[24];

	app_json_arr_begin(j, key);
	while (hf != 0) {
		uint64_t bit = hf & -hf;
		const char *name = npool_rx_rss_type_name(bit);

		snprintf(hex, sizeof(hex), "0x%" PRIx64, bit);
		app_json_str(j, NULL, name != NULL ? name : hex);
		hf &= ~bit;
	}
	app_json_arr_end(j);
}

void
app_rss_json(struct app_json *j, const struct npool_rx_rss_plan *rss,
		bool read_back)
{
	unsigned int per_q[NPOOL_RX_RSS_RETA_MAX] = { 0 };
	unsigned int i;

	app_json_obj_begin(j, "rss");
	app_json_bool(j, "on", rss->on);
	app_json_u64(j, "rss_hf", rss->rss_hf);
	json_types(j, "hash", rss->rss_hf);
	json_types(j, "lacking", rss->on ? rss->rss_hf_lacking : 0);
	app_json_u64(j, "queues", rss->nb_queues);
	app_json_u64(j, "reta_size", rss->reta_size);
	for (i = 0; i < rss->reta_size; i++)
		per_q[rss->reta[i]]++;
	app_json_arr_begin(j, "reta_per_queue");
	for (i = 0; rss->reta_size != 0 && i < rss->nb_queues; i++)
		app_json_u64(j, NULL, per_q[i]);
	app_json_arr_end(j);
	app_json_bool(j, "reta_read_back", read_back);
	if (rss->reason != NULL)
		app_json_str(j, "reason", rss->reason);
	app_json_obj_end(j);
}
