/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_CONF_H
#define FWD_CTL_CONF_H

/**
 * @file
 * What npool-fwd's control thread (fwd_ctl.h) is made from: the tables it
 * writes, its limits, the permanent neighbours, the FPM feed.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mempool.h>
#include <rte_rcu_qsbr.h>

#include "fwd_fpm.h"
#include "fwd_tables.h"

struct app_lcore_ctr;

/** A permanent neighbour (--neigh, --neigh-file). */
struct fwd_static_neigh {
	uint8_t ip[16];
	bool v6;
	uint16_t port;
	struct rte_ether_addr mac;
	unsigned int line;   /**< of its file, 0: the command line */
};

/** What the control thread is made from. */
struct fwd_ctl_conf {
	/** The tables of each socket a forwarding lcore is on; [0] is the
	 * one of the main lcore's socket. */
	struct fwd_tables *tabs[RTE_MAX_NUMA_NODES];
	unsigned int ntabs;
	/** Ports whose next hops are resolved by ARP / NDP: --port-addr
	 * without --eth-dest. */
	uint64_t resolve;
	/** Routes each family may hold ([0] IPv4, [1] IPv6). */
	uint32_t max_routes[2];
	/** The lcore that carries out the control side's commands (the
	 * first forwarding one). */
	unsigned int cmd_lcore;
	/** Where the router's own packets come from without npool. */
	struct rte_mempool *pool;
	/** The forwarding lcores' quiescent states (the caller's: it
	 * outlives the tables, whose rte_lpm defer queues use it). */
	struct rte_rcu_qsbr *qsv;
	/** Permanent neighbours. */
	const struct fwd_static_neigh *neigh;
	unsigned int nb_neigh;
	/** FRR zebra's FPM feed (--fpm), NULL: none. */
	const struct fwd_fpm_params *fpm;
	/** Where the thread counts the packets it drops (a block of the
	 * report's no lcore writes). */
	struct app_lcore_ctr *ctr;
};

#endif /* FWD_CTL_CONF_H */
