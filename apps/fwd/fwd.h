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
#include "fwd_ctl.h"
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

/**
 * Called for each route line fwd_routes_parse() skips because its port is
 * not enabled (l3fwd loads route files without those routes).
 *
 * @param ctx
 *   As given to fwd_routes_parse().
 * @param lineno
 *   The line (1-based).
 * @param r
 *   The route as written (port 0..255, outside the port mask).
 */
typedef void (*fwd_route_skip_t)(void *ctx, unsigned int lineno,
		const struct fwd_route *r);

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
	bool fpm_opts;         /**< --fpm-if or --fpm-sync-ms given */
};

/**
 * Parse an l3fwd route file, appending its routes to @p s: a line is
 * blank, a '#' comment, or "R<prefix>/<depth> <port>" (blanks around, a
 * comment after). Any NUL byte or a line of LINE_MAX bytes or more is an
 * error.
 *
 * @param f
 *   The file, read to its end (or to the first bad line).
 * @param v6
 *   IPv6 prefixes (inet_pton(AF_INET6)), else dotted-quad IPv4.
 * @param portmask
 *   Enabled ports (-p): a route to another port is skipped, as l3fwd
 *   does (@p skip is told), not added to @p s.
 * @param lineno
 *   Set to the number of the last line read (1-based; 0 for an empty
 *   file).
 * @param why
 *   Set to the reason of a bad line, else NULL.
 * @param skip
 *   Called for each skipped route, in file order; NULL: none is told.
 * @param ctx
 *   Passed to @p skip.
 * @return 0; -1 for a bad line (@p lineno, @p why); -2 when reading
 *   failed (errno set, e.g. EISDIR).
 */
int fwd_routes_parse(FILE *f, bool v6, uint64_t portmask,
		struct fwd_route_set *s, unsigned int *lineno, const char **why,
		fwd_route_skip_t skip, void *ctx);

/**
 * Add routes to the existing tables of fc->t.lookup, fc->t.lpm4 or fc->t.fib4
 * (fc->t.lpm6 or fc->t.fib6 with @p v6), in order: a later route of the same
 * prefix replaces the port, depth 0 sets fc->t.def4 (fc->t.def6). A route to
 * a port outside fc->t.portmask is added with next hop FWD_HOP_BAD, an IPv4
 * route inside a martian destination range with FWD_HOP_MARTIAN.
 *
 * @param failed
 *   Set to the index of the route that could not be added.
 * @return 0, or the negative errno of rte_lpm_add()/rte_lpm6_add()
 *   (-ENOSPC: no rule or tbl8 room left) or rte_fib_add()/rte_fib6_add()
 *   (-ENOSPC, -ENOMEM).
 */
int fwd_routes_add(struct fwd_conf *fc, const struct fwd_route_set *s,
		bool v6, unsigned int *failed);

/**
 * Make the tables of one family (@p v6) of fc->t.lookup (LPM or FIB, sized
 * for @p s), add the martian IPv4 ranges (0/8, 127/8, 224/4 and
 * 255.255.255.255 to FWD_HOP_MARTIAN) and @p s to them (fwd_routes_add()).
 *
 * @return 0; -2 after app_err() when a table cannot be made or a route
 *   not added (setup error).
 */
int fwd_routes_fill(struct fwd_conf *fc, const struct fwd_route_set *s,
		bool v6);

/**
 * Load the routes (files or l3fwd's default tables) into new tables on
 * socket fc->socket_id of fc->t.lookup (rte_lpm and rte_lpm6, or rte_fib
 * and rte_fib6 with the fastest lookup function the CPU and EAL's SIMD
 * width allow); depth 0 becomes fc->t.def4 / fc->t.def6. Prints a line
 * per family and one naming the lookup. A file's routes to ports outside
 * fc->t.portmask are left out with a warning naming file:line each
 * (l3fwd leaves them out silently); l3fwd's default tables keep theirs
 * (packets matching them are dropped as bad_port).
 *
 * @return 0; -1 after app_err() naming file:line for a bad file (usage
 *   error); -2 after app_err() when the tables cannot be made (setup).
 */
int fwd_routes_load(struct fwd_conf *fc);

/** Whether @p s holds a default route (depth 0). */
bool fwd_route_set_has_default(const struct fwd_route_set *s);

struct app_cli;
struct app_opts;

/**
 * Describe npool-fwd's own options (--lookup, -L, -E, --rule_ipv4,
 * --rule_ipv6, --eth-dest, --mtu, --max-pkt-len, --parse-ptype, the
 * router's addresses and ICMP settings, --port-mtu, --mroute,
 * --bc-forwarding, --forward-otherhost, --fpm, --fpm-if, --fpm-sync-ms)
 * in @p cli (zeroed), and set @p fc's defaults. Main lcore.
 */
void fwd_cli_init(struct app_cli *cli, struct fwd_conf *fc);

/**
 * Parse the command line after EAL's (app_cli_next()), npool-fwd's own
 * options into @p fc. An --eth-dest port must exist (rte_ethdev); --mtu
 * and --max-pkt-len exclude each other. Main lcore.
 *
 * @return 0, or -1 with the exit status in cli->status.
 */
int fwd_cli_parse(struct app_cli *cli, struct app_opts *o, struct fwd_conf *fc,
		int argc, char **argv);

/**
 * Check the FPM options after the command line (--fpm-if and
 * --fpm-sync-ms need --fpm, --fpm-if ports are in -p), then, with --fpm,
 * listen once on its address to show it can be had and say that live
 * routes are not wired yet. Main lcore.
 * @return 0; -1 after app_err() naming the option (usage error); -2
 *   after app_err() when the address cannot be listened on (setup).
 */
int fwd_fpm_conf_check(struct fwd_conf *fc);

/**
 * Make @p dst a copy of @p src with tables of its own on @p socket,
 * filled from @p src's routes (which it shares: free @p dst first).
 * l3fwd's lookup struct per socket. Prints nothing on success.
 *
 * @return 0, or -2 after app_err() when the tables cannot be made.
 */
int fwd_routes_copy(struct fwd_conf *dst, const struct fwd_conf *src,
		int socket);

/** Free the route tables (any of them may be NULL), and the routes
 * unless shared. */
void fwd_routes_free(struct fwd_conf *fc);

/** Free the route tables only (any of them may be NULL). */
void fwd_routes_free_tables(struct fwd_conf *fc);

/**
 * An unsigned decimal (digits only, no sign, no blank) of at most @p max.
 * @return 0 with @p v set, or -1.
 */
int fwd_parse_dec(const char *s, unsigned long max, unsigned long *v);

/**
 * One line of fwd_read_lines(), its newline kept, writable.
 * @return 0, or -1 with @p why set (a bad line: reading stops).
 */
typedef int (*fwd_line_t)(void *ctx, char *line, unsigned int lineno,
		const char **why);

/**
 * Read @p f to its end, one call of @p cb per line; a line holding a NUL
 * byte or of LINE_MAX bytes or more is bad. Reads at most LINE_MAX bytes
 * of a line (memory stays bounded whatever the file).
 *
 * @param lineno
 *   Set to the number of the last line read (1-based; 0: none).
 * @param why
 *   Set to the reason of a bad line, else NULL.
 * @return 0; -1 for a bad line; -2 when reading failed (errno set).
 */
int fwd_read_lines(FILE *f, fwd_line_t cb, void *ctx, unsigned int *lineno,
		const char **why);

/**
 * Append @p el (@p size bytes) to a growing array @p *arr of @p *n
 * elements and room for @p *cap (doubled from 64 when full).
 * @return 0, or -1 when out of memory (the array unchanged).
 */
int fwd_vec_push(void *arr, unsigned int *n, unsigned int *cap, size_t size,
		const void *el);

/**
 * Apply --port-mtu after the command line: every other enabled port
 * gets fc->t.mtu, and fc->t.mtu becomes the smallest (the bound of the
 * plain-packet test). A --port-mtu above the ports' MTU (max(--mtu,
 * 1500)) or on a port outside -p is an error.
 * @return 0, or -1 after app_err() naming --port-mtu.
 */
int fwd_port_mtu_apply(struct fwd_conf *fc);

/**
 * Parse one --neigh argument "PORT,ADDR,MAC" into fc->neigh: a permanent
 * neighbour (ip neigh ... nud permanent).
 * @return 0, or -1 after app_err() naming --neigh.
 */
int fwd_neigh_parse(struct fwd_conf *fc, const char *arg);

/**
 * Read --neigh-file ("ADDR lladdr MAC dev PORT [nud permanent]" a line,
 * '#' comments) into fc->neigh, and check every permanent neighbour's
 * port against -p; any sets fc->live. After the command line, before
 * fwd_routes_load().
 * @return 0, or -1 after app_err() naming the file and line or --neigh.
 */
int fwd_neigh_load(struct fwd_conf *fc);

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

#endif /* FWD_H */
