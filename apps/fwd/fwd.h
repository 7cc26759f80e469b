/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_H
#define FWD_H

/**
 * @file
 * npool-fwd's control side: the command line, route files and the
 * router's addresses, and the configuration they make. struct fwd_conf
 * holds the tables the pipeline reads (struct fwd_tables, apps/fwd/core)
 * and the options and routes it never reads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>

#include "fwd_addr.h"
#include "fwd_ctl_conf.h"
#include "fwd_fpm.h"
#include "fwd_rib.h"
#include "fwd_rt.h"
#include "fwd_tables.h"

/** Packets of the control side's pool (ARP requests, NS, without
 * npool). */
#define FWD_CTL_POOL_MBUFS 1023u
/** Default --route-max: routes of each family a live table holds. */
#define FWD_ROUTE_MAX_DEFAULT 262144u
/** Host routes of neighbours a live table keeps room for. */
#define FWD_LIVE_HOSTS 4096u
/** tbl8 groups a live table keeps at least (16 MiB of rte_lpm's). */
#define FWD_LIVE_TBL8 16384u

/** One route of a route file ("R<prefix>/<depth> <port> [via <addr>]",
 * "R<prefix>/<depth> via <addr>", "R<prefix>/<depth> blackhole"), a
 * connected prefix or an address of the router's. */
struct fwd_route {
	uint8_t ip[16];  /**< prefix as written (not masked), network order;
	                  *   IPv4 in the first 4 bytes, the rest 0 */
	uint8_t gw[16];  /**< gateway, as @c ip, when @c has_gw */
	uint8_t depth;   /**< 0 (default route) .. 32 (IPv4) or 128 (IPv6) */
	bool has_gw;     /**< by gateway @c gw */
	uint8_t type;    /**< enum fwd_rt_type */
	uint8_t origin;  /**< enum fwd_rt_origin, or FWD_RIB_OWN */
	/** Egress port, enabled in the port mask; FWD_RT_PORT_ANY (by a
	 * gateway: the port whose prefix holds it); FWD_HOP_LOCAL or
	 * FWD_HOP_BCAST for the router's own (FWD_RIB_OWN) */
	uint16_t port;
	unsigned int line; /**< line of its route file, 0 = none */
};

/** Routes of one family in file order (a growing array). */
struct fwd_route_set {
	struct fwd_route *r; /**< the routes; free() it */
	unsigned int n;      /**< routes in @c r */
	unsigned int cap;    /**< room in @c r */
};

struct fwd_em_rule;

/** EM routes of one family in file order (fwd_em.h). */
struct fwd_em_set {
	struct fwd_em_rule *r;
	unsigned int n, cap;
};

/** What the command line and the route files make: the pipeline's
 * tables, and what the pipeline never reads. */
struct fwd_conf {
	/** The tables the lcores read (core/fwd_tables.h). */
	struct fwd_tables t;
	/** Socket of the tables (l3fwd's per-socket lookup structs). */
	int socket_id;
	/** The routes the tables were filled from ([0] IPv4, [1] IPv6),
	 * kept for fwd_routes_copy(); owned unless @c routes_shared. */
	struct fwd_route_set routes[2];
	bool routes_shared;
	/** EM routes ([0] IPv4, [1] IPv6); owned unless routes_shared. */
	struct fwd_em_set em_rules[2];
	bool fib_vec4;          /**< fib4 looks up with AVX512 */
	bool fib_vec6;          /**< fib6 looks up with AVX512 */
	/** The router's addresses as the command line writes them;
	 * t.addrs points here once the routes are loaded. */
	struct fwd_addrs *addrs;
	/** The tables change while the lcores run: a control thread
	 * (apps/fwd/ctl) places the routes by a gateway, resolves
	 * neighbours, takes FPM's routes. Set before fwd_routes_load(),
	 * which sets it too for a route by a gateway. */
	bool live;
	/** Ports whose next hops are resolved by ARP / NDP: --port-addr
	 * without --eth-dest. */
	uint64_t resolve;
	/** --route-max: routes each family may hold while live. */
	uint32_t route_max;
	/** Permanent neighbours (--neigh, --neigh-file), a growing array. */
	struct fwd_static_neigh *neigh;
	unsigned int nb_neigh, neigh_cap;
	const char *neigh_file;  /**< --neigh-file, NULL = none */
	/** The lcores' quiescent states while live (main's: it outlives
	 * the tables' rte_lpm defer queues). */
	struct rte_rcu_qsbr *qsv;
	/* Command line only. */
	const char *rule4;     /**< --rule_ipv4 file, NULL = l3fwd's table */
	const char *rule6;     /**< --rule_ipv6 file, NULL = l3fwd's table */
	const char *mroute_file; /**< --mroute file, NULL = none */
	uint32_t eth_dest_set; /**< bit per port given by --eth-dest */
	bool mtu_set;          /**< --mtu given */
	uint32_t max_pkt_len;  /**< --max-pkt-len (then mtu is it - 18), 0 */
	struct rte_ether_addr eth_dest[RTE_MAX_ETHPORTS];
	/** --fpm, --fpm-if, --fpm-sync-ms (ctl/fwd_fpm.h). */
	struct fwd_fpm_params fpm;
	bool fpm_on;           /**< --fpm given */
	const char *fpm_opt;   /**< --fpm-if or --fpm-sync-ms, the first
	                        *   given, else NULL */
};

#endif /* FWD_H */
