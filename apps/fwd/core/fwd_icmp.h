/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ICMP_H
#define FWD_ICMP_H

/**
 * @file
 * What npool-fwd says itself, once it has addresses (--port-addr): ARP
 * replies, NDP neighbour advertisements, echo replies for its own
 * addresses, and the ICMP errors of RFC 1812 (4.3.2, 5.2.7, 5.3.1) and
 * RFC 4443 as Linux sends them (net/ipv4/icmp.c __icmp_send(),
 * net/ipv6/icmp.c icmp6_send()), rate limited as Linux does. Slow path
 * only: a packet comes here after the checks gave it a drop verdict, and
 * it stays dropped (counted under its reason, or under "local" when it
 * was for the router); what is sent back leaves the receiving port.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "app_ctr.h"
#include "fwd_tables.h"
#include "fwd_addr.h"

/** What the router said (the "router" counters of the table, --json and
 * telemetry), counted on the port the packet came in on; and how its
 * checks took the IPv4 checksum (FWD_EV_CKSUM_PMD). */
enum fwd_event {
	FWD_EV_ARP_REPLY,
	FWD_EV_ND_ADVERT,
	FWD_EV_ECHO_REPLY,
	FWD_EV_ECHO6_REPLY,
	FWD_EV_TTL4,          /**< time exceeded (11/0) */
	FWD_EV_UNREACH4,      /**< net unreachable (3/0) */
	FWD_EV_FRAG_NEEDED,   /**< fragmentation needed (3/4) */
	FWD_EV_HOPLIMIT6,     /**< ICMPv6 time exceeded (3/0) */
	FWD_EV_NOROUTE6,      /**< ICMPv6 destination unreachable (1/0) */
	FWD_EV_TOOBIG6,       /**< ICMPv6 packet too big (2/0) */
	FWD_EV_RATELIMITED,   /**< an error the rate limits held back */
	FWD_EV_NO_SRC,        /**< an error not sent: no port address */
	FWD_EV_NOMEM,         /**< nothing sent: no packet to build it in */
	/** A multicast copy the TX queue did not take (counted on the
	 * port it was to leave; fwd_mcast.h). */
	FWD_EV_MC_TX_FULL,
	/** A multicast copy not made: no head for it (fwd_mcast.h). */
	FWD_EV_MC_NOMEM,
	/** Not said but seen: IPv4 packets of bursts whose checksum the
	 * one pass took from the PMD (every packet GOOD, on a port with
	 * the RX checksum offload: none summed). */
	FWD_EV_CKSUM_PMD,
	FWD_EV_HOST_UNREACH4, /**< host unreachable (3/1): neighbour failed,
	                       *   unreachable route */
	FWD_EV_PROHIB4,       /**< administratively prohibited (3/13) */
	FWD_EV_ADDR_UNREACH6, /**< ICMPv6 address unreachable (1/3) */
	FWD_EV_PROHIB6,       /**< ICMPv6 administratively prohibited (1/1) */
	FWD_EV_ARP_REQUEST,   /**< ARP requests sent (neighbour solicited) */
	FWD_EV_ND_SOLICIT,    /**< neighbour solicitations sent */
	/** What the lcores heard of a neighbour and could not hand to the
	 * control side (its ring full): an ARP or NDP flood. */
	FWD_EV_NEV_LOST,
	/** An answer of the router's with no route back: not sent. */
	FWD_EV_NO_ROUTE_BACK,
	FWD_NB_EVENTS,
};

/** Names of enum fwd_event (JSON keys under "router"). */
extern const char *const fwd_event_names[FWD_NB_EVENTS];

/** The verdicts fwd_local_input() takes a look at. */
#define FWD_LOCAL_VERDICTS (UINT32_C(1) << FWD_NOT_IP | \
		UINT32_C(1) << FWD_MARTIAN_DST | \
		UINT32_C(1) << FWD_MARTIAN_SRC | \
		UINT32_C(1) << FWD_NO_ROUTE | \
		UINT32_C(1) << FWD_TTL_EXCEEDED | \
		UINT32_C(1) << FWD_MTU | \
		UINT32_C(1) << FWD_LOCAL | \
		UINT32_C(1) << FWD_BCAST | \
		UINT32_C(1) << FWD_MC_LOCAL | \
		UINT32_C(1) << FWD_NEIGH_FAILED | \
		UINT32_C(1) << FWD_UNREACHABLE | \
		UINT32_C(1) << FWD_PROHIBIT)

/** Whether fwd_local_input() wants a packet of drop verdict @p v. */
static inline bool
fwd_local_wants(const struct fwd_tables *t, unsigned int v)
{
	return t->addrs != NULL && t->addrs->ports != 0 && v < 32 &&
		((FWD_LOCAL_VERDICTS >> v) & 1);
}

/**
 * Answer a packet the checks dropped with verdict @p v, if anything is
 * to be answered: an ARP request or NDP solicitation for an address of
 * the router, an echo request to one, or an ICMP error. The packet is
 * read as fwd_classify() parsed it (m->packet_type, m->l2_len: no header
 * is parsed again). A packet that was for the router moves from its drop
 * reason to "local" in @p ic->drops. @p m is left to the caller (to
 * free).
 *
 * @param ic
 *   Counters of the port @p m came in on (drops and events).
 * @return The packet to send out of @p in_port, or NULL.
 */
struct rte_mbuf *fwd_local_input(const struct fwd_tables *t,
		struct app_port_ctr *ic, struct rte_mbuf *m, unsigned int v,
		uint16_t in_port);

/**
 * An ARP request (IPv4) or a neighbour solicitation (IPv6) as @p cmd
 * (FWD_CMD_SOLICIT) asks, to send out of cmd->port: Linux's
 * arp_solicit() (sender address cmd->src, target hardware address 0,
 * broadcast unless a unicast probe) and ndisc_send_ns() (hop limit 255,
 * the source link-layer address option, the solicited-node group unless a
 * unicast probe). Counted arp_request / nd_solicit in @p ic.
 *
 * @return The packet, or NULL (counted icmp_nomem).
 */
struct rte_mbuf *fwd_solicit(const struct fwd_tables *t,
		const struct fwd_cmd *cmd, struct app_port_ctr *ic);

/** Destinations each rate limiter remembers (Linux: inet_peer). */
#define FWD_RL_PEERS 16

/** Linux's XRLIM_BURST_FACTOR: a destination may get 6 at once. */
#define FWD_RL_BURST 6

/** A rate limiter of one port on one lcore (Linux: icmp_global and the
 * per-destination inet_peer tokens). */
struct fwd_rl {
	bool init;
	uint32_t credit;   /**< icmp_global.credit */
	uint64_t stamp;    /**< icmp_global.stamp, ms */
	struct {
		uint8_t key[16];
		bool used;
		uint64_t last;    /**< ms */
		uint64_t tokens;  /**< ms */
	} peer[FWD_RL_PEERS];
};

/**
 * Whether one more rate-limited ICMP error may go to @p key at @p now_ms:
 * the global bucket (msgs_per_sec, msgs_burst; refilled every 20 ms at
 * least, as icmp_global_allow()) and then the destination's bucket
 * (inet_peer_xrlim_allow(): @p tmo_ms per message, 6 deep).
 */
bool fwd_icmp_rl_allow(struct fwd_rl *rl, const struct fwd_addrs *a,
		uint64_t now_ms, const uint8_t key[16], uint32_t tmo_ms);

/**
 * Whether the global bucket (--icmp-msgs-per-sec) of @p port on this
 * lcore is empty now, after its refill: then no rate-limited error can
 * leave, and the forwarding loop counts a TTL-exceeded or no-route drop
 * as icmp_ratelimited without looking at it (Linux's
 * icmpv4_global_allow() comes before the route lookup of an error for
 * the same reason: a flood costs what a drop costs).
 */
bool fwd_icmp_rl_empty(const struct fwd_tables *t, uint16_t port);

/** The verdicts whose error the global bucket limits (all but frag
 * needed / packet too big, as icmpv4_mask_allow() and
 * icmpv6_mask_allow()). */
#define FWD_ICMP_LIMITED (UINT32_C(1) << FWD_TTL_EXCEEDED | \
		UINT32_C(1) << FWD_NO_ROUTE | \
		UINT32_C(1) << FWD_NEIGH_FAILED | \
		UINT32_C(1) << FWD_UNREACHABLE | \
		UINT32_C(1) << FWD_PROHIBIT)

#endif /* FWD_ICMP_H */
