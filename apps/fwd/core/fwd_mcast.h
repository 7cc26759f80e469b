/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_MCAST_H
#define FWD_MCAST_H

/**
 * @file
 * Static multicast routing of npool-fwd (--mroute FILE), as Linux's
 * multicast forwarding cache (net/ipv4/ipmr.c, net/ipv6/ip6mr.c) filled
 * by smcroute: (S,G) and (*,G) routes, IPv4 and IPv6, each an input port
 * and output ports, each output with a TTL threshold (the MFC's ttls[]).
 * A packet to a group (any frame the port takes: fwd_cast.h) takes its
 * (S,G) route, else its (*,G) route; it must come in on the route's input
 * port (RPF); it leaves, TTL / hop limit - 1, on each output port whose
 * threshold its TTL is above and whose MTU it fits, to the group's MAC
 * (RFC 1112 6.4, RFC 2464 7). One data copy serves all ports: a head of
 * its own per port carries the Ethernet header, chained to the packet,
 * whose refcount is set once to the number of copies (the kernel
 * pktgen's clone_skb, npool-gen --clone); one output port rewrites the
 * packet in place. Per route, per lcore: packets, bytes, copies and
 * wrong-port arrivals (Linux's mfc pkt, bytes, wrong_if), in the report,
 * --json and telemetry (/fwd/mroutes, /fwd/mroute,<index>).
 *
 * Route file, one route a line (smcroute.conf's words, ports by number,
 * the thresholds as /proc/net/ip_mr_cache's Oifs column):
 *   mroute from PORT [source ADDR] group GROUP to PORT[:TTL] [PORT[:TTL]...]
 * '#' starts a comment. Written at setup (the control side, apps/fwd's
 * fwd_mroute.h), read-only while running but for the counters.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "app_ctr.h"
#include "fwd_tables.h"

struct fwd_meta;

/** Most routes of a file. */
#define FWD_MROUTE_MAX 4096u

/** One multicast route. */
struct fwd_mroute {
	uint8_t src[16];   /**< source, network order (IPv4: 4 bytes); 0 for
	                    *   (*,G) */
	uint8_t grp[16];   /**< group, network order */
	bool v6;
	bool any_src;      /**< (*,G) */
	uint16_t in_port;  /**< the RPF port */
	uint64_t oifs;     /**< output ports, a bit each (never in_port) */
	/** Per output port: the TTL / hop limit must be above it, 1..254
	 * (Linux's mfc ttls[]; smcroute's default 1). */
	uint8_t ttl[RTE_MAX_ETHPORTS];
	unsigned int line; /**< its line in the file */
};

/** Counters of one route on one lcore (Linux: mfc_un.res). */
struct fwd_mroute_ctr {
	uint64_t pkts;     /**< packets routed: at least one copy queued */
	uint64_t bytes;    /**< their IP bytes */
	uint64_t copies;   /**< copies handed to the TX buffers */
	uint64_t wrong_if; /**< arrivals on another port (mc_rpf) */
};

/** Routes of one file in file order (a growing array). */
struct fwd_mroute_set {
	struct fwd_mroute *r;
	unsigned int n, cap;
};

struct rte_hash;

/** The routes of a run, as looked up. */
struct fwd_mroutes {
	struct fwd_mroute_set s;  /**< the routes; the index is the key's */
	struct rte_hash *h;       /**< (family, source, group) -> index */
	/** Counters per lcore ([RTE_MAX_LCORE]: any other thread), s.n
	 * each, NULL for an lcore that has none. */
	struct fwd_mroute_ctr *ctr[RTE_MAX_LCORE + 1];
	char *path;               /**< the file */
};

/**
 * The multicast part of fwd_cast_classify(): a packet whose destination
 * @p ip (its IP header, in the first segment) says is IP multicast.
 *
 * @return FWD_MARTIAN_SRC, FWD_MC_LOCAL, FWD_MC_NO_ROUTE, FWD_MC_RPF
 *   (counted in the route's wrong_if), FWD_MC_TTL, or FWD_MCAST with
 *   md->port the route's index and md->ip_len, md->v6 set.
 */
int fwd_mcast_classify(const struct fwd_tables *t, const struct rte_mbuf *m,
		struct fwd_meta *md, const uint8_t *ip, bool v6);

/**
 * The copies of a packet fwd_mcast_classify() gave FWD_MCAST, route
 * @p route (md->port): TTL / hop limit - 1, VID-0 tag and padding
 * removed; one per output port (FWD_PORT_MCAST in mbuf->port), or none.
 * Counts the route's pkts, bytes and copies; a head not had counts
 * mc_nomem in @p ic. @p m is consumed (it is in the copies, or freed).
 *
 * @param out
 *   Room for RTE_MAX_ETHPORTS packets.
 * @param port
 *   Out: the port of each.
 * @return The copies (0 .. RTE_MAX_ETHPORTS).
 */
unsigned int fwd_mcast_copies(const struct fwd_tables *t, struct rte_mbuf *m,
		uint16_t route, struct rte_mbuf **out, uint16_t *port,
		struct app_port_ctr *ic);

/** A route's hash key: family, source (0 for (*,G)), group; IPv4 in 4
 * bytes. */
struct fwd_mroute_key {
	uint8_t v6;
	uint8_t pad[3];
	uint8_t src[16];
	uint8_t grp[16];
};

/** Make the key of a route. */
static inline void
fwd_mroute_key(struct fwd_mroute_key *k, bool v6, const uint8_t *src,
		const uint8_t *grp)
{
	const size_t n = v6 ? 16 : 4;

	memset(k, 0, sizeof(*k));
	k->v6 = v6;
	if (src != NULL)
		memcpy(k->src, src, n);
	memcpy(k->grp, grp, n);
}

/** The calling lcore's counters of route @p i. */
static inline struct fwd_mroute_ctr *
fwd_mroute_ctr_of(const struct fwd_mroutes *mr, unsigned int i)
{
	const unsigned int lcore = rte_lcore_id();
	struct fwd_mroute_ctr *c = lcore < RTE_MAX_LCORE ? mr->ctr[lcore] :
		NULL;

	return (c != NULL ? c : mr->ctr[RTE_MAX_LCORE]) + i;
}

#endif /* FWD_MCAST_H */
