/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_H
#define FWD_CTL_H

/**
 * @file
 * npool-fwd's control thread: the one writer of the tables while the
 * lcores run. It owns the routing information base (fwd_rib.h), the
 * neighbour tables (fwd_neigh.h) and the next-hop objects (fwd_nh.h),
 * reads what the lcores hand it (held packets, neighbour events:
 * fwd_ctlmsg.h) and tells one lcore what to send. Every object a lookup
 * may read is freed after the forwarding lcores have each passed a
 * quiescent state (rte_rcu_qsbr). A plain pthread, not an lcore: it
 * sleeps (1 ms at most) when it has nothing to do.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>
#include <rte_rcu_qsbr.h>
#include <rte_mempool.h>

#include "fwd_fpm.h"
#include "fwd_neigh.h"
#include "fwd_rib.h"
#include "fwd_rt.h"
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

struct fwd_ctl;

/**
 * Add (or replace) a route: a unicast route by a gateway takes the
 * gateway's neighbour (made if need be; its port the one whose connected
 * prefix holds it when @p rt names none), one on a link its port's own
 * next hop, the others their FWD_HOP_*. Its prefix's neighbours get or
 * lose their host routes as it says. Control thread, or main before the
 * thread runs (the routes of the files).
 *
 * @param origin
 *   FWD_RT_FILE, FWD_RT_CONNECTED or FWD_RT_FPM.
 * @param why
 *   Set to the reason when the route is refused.
 * @return 0, or a negative errno with @p why: -EINVAL (a gateway on no
 *   port's prefix, a port not enabled, a martian prefix), -EEXIST (the
 *   router's own address), -ENOSPC (a table or the neighbour table is
 *   full).
 */
int fwd_ctl_add(struct fwd_ctl *ctl, const struct fwd_rt *rt, uint8_t origin,
		const char **why);

/** Hold a route of the router's own (@p hop FWD_HOP_LOCAL or
 * FWD_HOP_BCAST), already in the tables, so that no other replaces it.
 * @return 0, or -ENOSPC. */
int fwd_ctl_add_own(struct fwd_ctl *ctl, const struct fwd_rt *rt,
		uint32_t hop);

/** Delete the route of @p rt's prefix if it came from @p origin.
 * @return 0, or -ENOENT. */
int fwd_ctl_del(struct fwd_ctl *ctl, const struct fwd_rt *rt,
		uint8_t origin);

/** Start the thread. @return 0, or -1 after app_err(). */
int fwd_ctl_start(struct fwd_ctl *ctl);

#endif /* FWD_CTL_H */
