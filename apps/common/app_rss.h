/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_RSS_H
#define APP_RSS_H

/**
 * @file
 * How app_port.c applies a port's RSS plan (npool_rx_rss_plan()): the
 * plan into the port configuration with each hash type the device lacks
 * logged, or a refusal naming the port and --config; once the port is
 * started, its RETA and the one start-up line that says how its RX
 * queues are fed; the plan in --json. Main lcore.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>

#include "npool_rx.h"

/**
 * Plan RSS for port @p port and write it into @p conf (mq_mode, rss_hf).
 *
 * @param nb_rxq
 *   RX queues polled (0 when none are: a generator).
 * @param nb_rxq_dev
 *   RX queues set up, polled or not.
 * @param rss
 *   Out: the plan.
 * @return 0, or -1 after app_err() naming the port and --config.
 */
int app_rss_plan(uint16_t port, const struct npool_rx_profile *prof,
		const struct rte_eth_dev_info *info, uint16_t nb_rxq,
		uint16_t nb_rxq_dev, struct npool_rx_rss_plan *rss,
		struct rte_eth_conf *conf);

/**
 * After rte_eth_dev_start(): write the plan's RETA
 * (npool_rx_rss_reta_apply()) and print the port's RSS line: "port P: RSS
 * off: <why>" or "port P: RSS on over RX queues 0-N: hash <types>
 * (rss_hf 0x..), RETA <size> entries, <min>-<max> per queue, read back
 * equal".
 *
 * @param read_back
 *   Out: whether the RETA was read back equal.
 * @return 0, or -1 after app_err() (RETA refused or read back different).
 */
int app_rss_start(uint16_t port, const struct rte_eth_dev_info *info,
		uint16_t nb_rxq_dev, const struct npool_rx_rss_plan *rss,
		bool *read_back);

struct app_json;

/**
 * The plan as the JSON object "rss" of a port: "on", "rss_hf", "hash"
 * and "lacking" (type names), "queues", "reta_size", "reta_per_queue"
 * (entries of each queue), "reta_read_back", and "reason" when off.
 */
void app_rss_json(struct app_json *j, const struct npool_rx_rss_plan *rss,
		bool read_back);

#endif /* APP_RSS_H */
