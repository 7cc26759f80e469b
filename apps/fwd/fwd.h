/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_H
#define FWD_H

/**
 * @file
 * npool-fwd: an l3fwd-compatible LPM/FIB forwarder that follows the
 * RFC 1812 router rules of docs/npool-fwd.md. Shared by its files: the
 * drop reasons, the read-only forwarding configuration and the entry
 * points.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Drop reasons, in the order the checks run (docs/npool-fwd.md) up to
 * FWD_LOCAL; the reasons after it were added later and sit at the end so
 * that the numbers before stay (their place among the checks: fwd_cast.h
 * and the table of docs/apps/npool-fwd.md).
 */
enum fwd_reason {
	FWD_TRUNCATED,
	FWD_VLAN,
	FWD_NOT_IP,
	FWD_IP_VERSION,
	FWD_IPV4_IHL,
	FWD_IPV4_LEN,
	FWD_IPV4_CSUM,
	FWD_IPV6_LEN,
	FWD_MARTIAN_DST,
	FWD_MARTIAN_SRC,
	FWD_NO_ROUTE,
	FWD_BAD_PORT,
	FWD_TTL_EXCEEDED,
	FWD_MTU,
	FWD_FRAG_FAIL,
	FWD_TX_FULL,
	/** To the router's own addresses (--port-addr), ARP and NDP for
	 * them included: answered (fwd_icmp.h) or not, never forwarded.
	 * Found with the route (a host route to FWD_HOP_LOCAL). */
	FWD_LOCAL,
	/** A frame to another station's unicast MAC (Linux's
	 * PACKET_OTHERHOST), whatever it carries: first of all checks. */
	FWD_L2_OTHERHOST,
	/** Unicast IP to forward in a link-layer broadcast frame (Linux's
	 * ip_forward() takes PACKET_HOST only; RFC 1812 5.3.4). */
	FWD_L2_BCAST,
	/** The same in a link-layer multicast frame. */
	FWD_L2_MCAST,
	/** IPv4 broadcast for the router: 255.255.255.255, or a directed
	 * broadcast of a port's prefix (--port-addr) it does not forward
	 * (--bc-forwarding 0): never forwarded as unicast. */
	FWD_BCAST,
	/** IP multicast for the link: 224.0.0.0/24, IGMP, IPv6 scope up to
	 * link-local (ff00::/16 .. ff02::/16): never routed. */
	FWD_MC_LOCAL,
	/** IP multicast without an (S,G) or (*,G) route (--mroute). */
	FWD_MC_NO_ROUTE,
	/** IP multicast in on a port other than its route's (the RPF
	 * check; Linux's "wrong interface"). */
	FWD_MC_RPF,
	/** IP multicast whose TTL / hop limit is not above the threshold of
	 * any output port of its route (or whose length is above the MTU of
	 * every one): nothing to send. */
	FWD_MC_TTL,
	FWD_NB_REASONS,
};

/** Verdicts of the classifier beside the drop reasons. */
#define FWD_PASS     (FWD_NB_REASONS + 0) /**< forward as is */
#define FWD_FRAGMENT (FWD_NB_REASONS + 1) /**< IPv4 above the MTU, DF clear */
/** IP multicast to replicate by its route (fwd_mcast.h): the route's
 * index in fwd_meta.port, the packet not yet rewritten. */
#define FWD_MCAST    (FWD_NB_REASONS + 2)

/** JSON/table names of the reasons, indexed by enum fwd_reason. */
extern const char *const fwd_reason_names[FWD_NB_REASONS];

/** The route tables a run looks routes up in (--lookup). */
enum fwd_lookup {
	FWD_LOOKUP_LPM, /**< rte_lpm + rte_lpm6 (l3fwd's LPM), the default */
	FWD_LOOKUP_FIB, /**< rte_fib DIR24_8 + rte_fib6 TRIE (l3fwd's FIB) */
	FWD_LOOKUP_EM,  /**< rte_hash of 5-tuples (l3fwd's EM): fwd_em.h */
};

/**
 * Next hop rte_fib / rte_fib6 return for an address without a route (the
 * default_nh they are made with): above any port, within the 2-byte next
 * hops of small tables (at most 0x7fff; larger ones have 4-byte ones). Depth 0 routes stay in def4/def6,
 * as with LPM.
 */
#define FWD_FIB_MISS 0x7fff

/**
 * Next hop the tables hold for a route to a port outside the port mask
 * (l3fwd's default tables keep such routes; fwd_routes_add() maps them):
 * the port is checked once, when the route is added, and a lookup gives
 * either a port to send to, this, FWD_HOP_LOCAL (fwd_addr.h) or -1 (no
 * route). Above any port, below FWD_HOP_LOCAL and FWD_FIB_MISS.
 */
#define FWD_HOP_BAD 0x7ffd

/** The next hop a table holds for a route to @p port: the port when it
 * is enabled in fc->portmask, else FWD_HOP_BAD (checked once, when the
 * route is added, not per packet). */
static inline uint32_t
fwd_hop_of_port(uint64_t portmask, uint32_t port)
{
	return port < 64 && ((portmask >> port) & 1) ? port : FWD_HOP_BAD;
}

/** Ethernet addresses written on a packet leaving a port. */
struct fwd_l2 {
	struct rte_ether_addr dst; /**< --eth-dest, or 02:00:00:00:00:<port> */
	struct rte_ether_addr src; /**< the port's MAC */
};

/** One route of a route file ("R<prefix>/<depth> <port>"). */
struct fwd_route {
	uint8_t ip[16];  /**< prefix as written (not masked), network order;
	                  *   IPv4 in the first 4 bytes, the rest 0 */
	uint8_t depth;   /**< 0 (default route) .. 32 (IPv4) or 128 (IPv6) */
	uint16_t port;   /**< egress port, enabled in the port mask */
	unsigned int line; /**< line of its route file, 0 = l3fwd's table */
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

struct fwd_addrs;
struct fwd_em_rule;
struct rte_hash;

/** EM routes of one family in file order (fwd_em.h). */
struct fwd_em_set {
	struct fwd_em_rule *r;
	unsigned int n, cap;
};

/** Forwarding configuration: written at setup, read-only while running. */
struct fwd_conf {
	enum fwd_lookup lookup; /**< which of the tables below are made */
	/** Socket of the tables (l3fwd's per-socket lookup structs). */
	int socket_id;
	/** The routes the tables were filled from ([0] IPv4, [1] IPv6),
	 * kept for fwd_routes_copy(); owned unless @c routes_shared. */
	struct fwd_route_set routes[2];
	bool routes_shared;
	struct rte_lpm *lpm4;
	struct rte_lpm6 *lpm6;
	struct rte_fib *fib4;   /**< with FWD_LOOKUP_FIB, in place of lpm4 */
	struct rte_fib6 *fib6;  /**< with FWD_LOOKUP_FIB, in place of lpm6 */
	bool fib_vec4;          /**< fib4 looks up with AVX512 */
	bool fib_vec6;          /**< fib6 looks up with AVX512 */
	struct rte_hash *em4;   /**< with FWD_LOOKUP_EM (fwd_em.h) */
	struct rte_hash *em6;
	/** EM routes ([0] IPv4, [1] IPv6); owned unless routes_shared. */
	struct fwd_em_set em_rules[2];
	int32_t def4;          /**< port of the IPv4 default route, -1 none */
	int32_t def6;          /**< port of the IPv6 default route, -1 none */
	uint64_t portmask;     /**< enabled ports (-p) */
	/** Ports whose PMD checks IPv4 header checksums (RX offload on):
	 * their packets' GOOD flag is trusted, the others are summed. */
	uint64_t cksum_hw;
	uint16_t mtu;          /**< egress IP MTU of every port; with
	                        *   --port-mtu the smallest of them */
	/** --port-mtu: egress IP MTU of a port, 0 = @c mtu
	 * (fwd_egress_mtu()); only packets above @c mtu look at it. */
	uint16_t port_mtu[RTE_MAX_ETHPORTS];
	uint16_t copybreak;    /**< --copybreak bytes, 0 = off */
	struct rte_mempool *frag_direct;   /**< fragment headers */
	struct rte_mempool *frag_indirect; /**< fragment payload references */
	struct fwd_l2 l2[RTE_MAX_ETHPORTS];
	/** The router's addresses and ICMP settings (fwd_addr.h); NULL or
	 * none: it says nothing itself, as l3fwd. */
	struct fwd_addrs *addrs;
	/** Multicast routes (--mroute, fwd_mcast.h); NULL: none, and IP
	 * multicast is not routed (mc_no_route). */
	struct fwd_mroutes *mroutes;
	/** --forward-otherhost: a frame to another station's unicast MAC is
	 * taken as one to the port (l3fwd checks no MAC), not dropped as
	 * l2_otherhost. */
	bool forward_otherhost;
	/** --bc-forwarding 1: a directed broadcast to a port's prefix leaves
	 * there as a link broadcast (Linux's bc_forwarding). */
	bool bc_forwarding;
	/** Each port's MAC as fwd_eth_to_port() compares it:
	 * fwd_conf_l2_prepare(). */
	uint64_t rx_mac[RTE_MAX_ETHPORTS];
	/** Non-zero at the last octet of each of the router's IPv4
	 * addresses (fwd_routes_load()): a source ending so is checked
	 * against them (fwd_cast_own_src4()), off the fast path. */
	uint8_t own4_octet[256];
	/** l2[port] as 16 bytes, the last 4 zero: fwd_conf_l2_prepare() */
	uint8_t eth16[RTE_MAX_ETHPORTS][16] __rte_aligned(16);
	/** The first 16 bytes a plain packet received on a port starts with
	 * ([0] IPv4, [1] IPv6; fwd_plain4(), fwd_plain6()): the port's MAC,
	 * the EtherType, 0x45 / 0x6_. fwd_conf_l2_prepare(). */
	uint8_t plain_hdr[RTE_MAX_ETHPORTS][2][16] __rte_aligned(16);
	/* Command line only. */
	const char *rule4;     /**< --rule_ipv4 file, NULL = l3fwd's table */
	const char *rule6;     /**< --rule_ipv6 file, NULL = l3fwd's table */
	const char *mroute_file; /**< --mroute file, NULL = none */
	uint32_t eth_dest_set; /**< bit per port given by --eth-dest */
	bool mtu_set;          /**< --mtu given */
	uint32_t max_pkt_len;  /**< --max-pkt-len (then mtu is it - 18), 0 */
	struct rte_ether_addr eth_dest[RTE_MAX_ETHPORTS];
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
 * Add routes to the existing tables of fc->lookup, fc->lpm4 or fc->fib4
 * (fc->lpm6 or fc->fib6 with @p v6), in order: a later route of the same
 * prefix replaces the port, depth 0 sets fc->def4 (fc->def6). A route to
 * a port outside fc->portmask is added with next hop FWD_HOP_BAD.
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
 * Make the tables of one family (@p v6) of fc->lookup (LPM or FIB, sized
 * for @p s) and add @p s to them (fwd_routes_add()).
 *
 * @return 0; -2 after app_err() when a table cannot be made or a route
 *   not added (setup error).
 */
int fwd_routes_fill(struct fwd_conf *fc, const struct fwd_route_set *s,
		bool v6);

/**
 * Load the routes (files or l3fwd's default tables) into new tables on
 * socket fc->socket_id of fc->lookup (rte_lpm and rte_lpm6, or rte_fib and rte_fib6 with the
 * fastest lookup function the CPU and EAL's SIMD width allow); depth 0
 * becomes fc->def4 / fc->def6. Prints a line per family and one naming
 * the lookup. A file's routes
 * to ports outside fc->portmask are left out with a warning naming
 * file:line each (l3fwd leaves them out silently); l3fwd's default
 * tables keep theirs (packets matching them are dropped as bad_port).
 *
 * @return 0; -1 after app_err() naming file:line for a bad file (usage
 *   error); -2 after app_err() when the tables cannot be made (setup).
 */
int fwd_routes_load(struct fwd_conf *fc);

struct app_cli;

/**
 * Describe npool-fwd's own options (--lookup, -L, -E, --rule_ipv4,
 * --rule_ipv6, --eth-dest, --mtu, --max-pkt-len, --parse-ptype, the
 * router's addresses and ICMP settings, --port-mtu, --mroute,
 * --bc-forwarding, --forward-otherhost) in @p cli
 * for app_cli_parse(), which then writes them into @p fc. An --eth-dest
 * port must exist (rte_ethdev); --mtu and --max-pkt-len exclude each
 * other. Main lcore.
 */
void fwd_cli_init(struct app_cli *cli, struct fwd_conf *fc);

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

/** The egress IP MTU of port @p port (--port-mtu, else --mtu). */
static inline uint16_t
fwd_egress_mtu(const struct fwd_conf *fc, uint16_t port)
{
	return port < RTE_MAX_ETHPORTS && fc->port_mtu[port] != 0 ?
		fc->port_mtu[port] : fc->mtu;
}

/**
 * Apply --port-mtu after the command line: every other enabled port
 * gets fc->mtu, and fc->mtu becomes the smallest (the bound of the
 * plain-packet test). A --port-mtu above the ports' MTU (max(--mtu,
 * 1500)) or on a port outside -p is an error.
 * @return 0, or -1 after app_err() naming --port-mtu.
 */
int fwd_port_mtu_apply(struct fwd_conf *fc);

/** Fill fc->eth16 and fc->rx_mac from fc->l2, once fc->l2 is set
 * (setup). */
void fwd_conf_l2_prepare(struct fwd_conf *fc);

/** The lcore loop (lcore_function_t); @p arg is an array of
 * RTE_MAX_NUMA_NODES const struct fwd_conf pointers, the one of each
 * socket (app_numa_lcore_socket()). */
int fwd_lcore_main(void *arg);

#ifdef __cplusplus
}
#endif

#endif /* FWD_H */
