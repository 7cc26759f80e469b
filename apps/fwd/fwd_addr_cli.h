/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ADDR_CLI_H
#define FWD_ADDR_CLI_H

/**
 * @file
 * The router's addresses of the command line (--port-addr, the ICMP
 * settings) and the routes they make (connected prefixes, host routes);
 * its permanent neighbours (--neigh, --neigh-file).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "fwd.h"

/** Set the defaults (no address, Linux's ICMP limits). */
void fwd_addr_init(struct fwd_addrs *a);

/**
 * Parse one --port-addr argument "PORT,ADDR/LEN[,ADDR/LEN...]" into @p a:
 * IPv4 (LEN 1..32) or IPv6 (LEN 1..128) unicast addresses, not loopback,
 * multicast, link-local IPv6 (derived) nor given before on any port.
 *
 * @return 0, or -1 after app_err() naming --port-addr.
 */
int fwd_addr_parse(struct fwd_addrs *a, const char *arg);

/**
 * Check the ports of --port-addr against -p (after the command line).
 * @return 0, or -1 after app_err() naming --port-addr.
 */
int fwd_addr_check(const struct fwd_addrs *a, uint64_t portmask);

/** Derive each addressed port's link-local address from @p mac[port]. */
void fwd_addr_link_local(struct fwd_addrs *a,
		const struct rte_ether_addr *mac);

/**
 * Append the connected route of each address of one family of the ports
 * in @p portmask to @p s (Linux's "proto kernel scope link": the prefix
 * on the port's link; none for a /32 or /128), origin FWD_RT_CONNECTED.
 *
 * @return The routes appended, or -1 when out of memory.
 */
int fwd_addr_connected(const struct fwd_addrs *a, uint64_t portmask,
		struct fwd_route_set *s, bool v6);

/**
 * Append a host route to FWD_HOP_LOCAL for each address of one family
 * to @p s (line 0), and for each IPv4 prefix of length up to 30 a host
 * route of its broadcast address to FWD_HOP_BCAST.
 *
 * @return The routes appended, or -1 when out of memory.
 */
int fwd_addr_routes(const struct fwd_addrs *a, struct fwd_route_set *s,
		bool v6);

/**
 * Parse one --neigh argument "PORT,ADDR,MAC" into fc->neigh: a permanent
 * neighbour (ip neigh ... nud permanent).
 * @return 0, or -1 after app_err() naming --neigh.
 */
int fwd_neigh_parse(struct fwd_conf *fc, const char *arg);

/**
 * Read --neigh-file ("ADDR lladdr MAC dev PORT [nud permanent]" a line,
 * '#' comments) into fc->neigh, and check every permanent neighbour's
 * port against -p and their number (FWD_NEIGH_PERM_MAX a family); any
 * sets fc->live. After the command line, before fwd_routes_load().
 * @return 0, or -1 after app_err() naming the file and line or --neigh.
 */
int fwd_neigh_load(struct fwd_conf *fc);

#endif /* FWD_ADDR_CLI_H */
