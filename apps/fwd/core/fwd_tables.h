/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_TABLES_H
#define FWD_TABLES_H

/**
 * @file
 * What npool-fwd's pipeline (apps/fwd/core) reads: the drop reasons and
 * the tables of a run (routes, MAC addresses, MTUs, the router's own
 * addresses). The control side (apps/fwd: command line, route files)
 * makes them at setup; nothing writes them while the lcores run.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_mempool.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "fwd_ctlmsg.h"
#include "fwd_nh.h"

/**
 * Drop reasons, X(enum suffix, name in the table, --json and telemetry):
 * up to LOCAL in the order the checks run (docs/apps/npool-fwd.md); a
 * reason's number does not change, so a new one goes at the end (its
 * place among the checks: fwd_cast.h and the table of
 * docs/apps/npool-fwd.md).
 */
#define FWD_REASONS(X) \
	X(TRUNCATED, truncated) \
	X(VLAN, vlan) \
	X(NOT_IP, not_ip) \
	X(IP_VERSION, ip_version) \
	X(IPV4_IHL, ipv4_ihl) \
	X(IPV4_LEN, ipv4_len) \
	X(IPV4_CSUM, ipv4_csum) \
	X(IPV6_LEN, ipv6_len) \
	X(MARTIAN_DST, martian_dst) \
	X(MARTIAN_SRC, martian_src) \
	X(NO_ROUTE, no_route) \
	X(BAD_PORT, bad_port) \
	X(TTL_EXCEEDED, ttl_exceeded) \
	X(MTU, mtu) \
	X(FRAG_FAIL, frag_fail) \
	X(TX_FULL, tx_full) \
	/* To the router's own addresses (--port-addr), ARP and NDP for \
	 * them included: answered (fwd_icmp.h) or not, never forwarded. \
	 * Found with the route (a host route to FWD_HOP_LOCAL). */ \
	X(LOCAL, local) \
	/* A frame to another station's unicast MAC (Linux's \
	 * PACKET_OTHERHOST), whatever it carries: first of all checks. */ \
	X(L2_OTHERHOST, l2_otherhost) \
	/* Unicast IP to forward in a link-layer broadcast frame (Linux's \
	 * ip_forward() takes PACKET_HOST only; RFC 1812 5.3.4). */ \
	X(L2_BCAST, l2_bcast) \
	/* The same in a link-layer multicast frame. */ \
	X(L2_MCAST, l2_mcast) \
	/* IPv4 broadcast for the router: 255.255.255.255, or a directed \
	 * broadcast of a port's prefix (--port-addr) it does not forward \
	 * (--bc-forwarding 0): never forwarded as unicast. */ \
	X(BCAST, bcast) \
	/* IP multicast for the link: 224.0.0.0/24, IGMP, IPv6 scope up to \
	 * link-local (ff00::/16 .. ff02::/16): never routed. */ \
	X(MC_LOCAL, mc_local) \
	/* IP multicast without an (S,G) or (*,G) route (--mroute). */ \
	X(MC_NO_ROUTE, mc_no_route) \
	/* IP multicast in on a port other than its route's (the RPF \
	 * check; Linux's "wrong interface"). */ \
	X(MC_RPF, mc_rpf) \
	/* IP multicast whose TTL / hop limit is not above the threshold of \
	 * any output port of its route (or whose length is above the MTU of \
	 * every one): nothing to send. */ \
	X(MC_TTL, mc_ttl) \
	/* Waiting for its neighbour, not kept: the neighbour's queue was \
	 * full (Linux's unres_qlen_bytes) or the hold ring was (Linux's \
	 * unresolved_discards). */ \
	X(UNRES_DISCARD, unres_discard) \
	/* Its neighbour did not answer (the FAILED state): an ICMP host \
	 * or address unreachable is sent back (Linux's arp_error_report(), \
	 * ndisc_error_report()). */ \
	X(NEIGH_FAILED, neigh_failed) \
	/* No neighbour entry could be made for it: the table holds \
	 * gc_thresh3 entries none of which may go (Linux: "neighbour table \
	 * overflow"). */ \
	X(NEIGH_FULL, neigh_full) \
	/* Its route is a blackhole route: dropped, nothing said. */ \
	X(BLACKHOLE, blackhole) \
	/* Its route is an unreachable route: ICMP host unreachable (IPv4 \
	 * code 1), ICMPv6 no route (code 0), as Linux's ip_error() and \
	 * ip6_pkt_discard(). */ \
	X(UNREACHABLE, unreachable) \
	/* Its route is a prohibit route: ICMP communication \
	 * administratively prohibited (IPv4 code 13, ICMPv6 code 1). */ \
	X(PROHIBIT, prohibit)

#define FWD_REASON_ENUM_(e, name) FWD_##e,
enum fwd_reason {
	FWD_REASONS(FWD_REASON_ENUM_)
	FWD_NB_REASONS,
};
#undef FWD_REASON_ENUM_

/**
 * What the router said (the "router" counters of the table, --json and
 * telemetry), counted on the port the packet came in on, and how its
 * checks took the IPv4 checksum: X(enum suffix, name).
 */
#define FWD_EVENTS(X) \
	X(ARP_REPLY, arp_reply) \
	X(ND_ADVERT, nd_advert) \
	X(ECHO_REPLY, echo_reply) \
	X(ECHO6_REPLY, echo6_reply) \
	X(TTL4, icmp_ttl_exceed)           /* time exceeded (11/0) */ \
	X(UNREACH4, icmp_net_unreach)      /* net unreachable (3/0) */ \
	X(FRAG_NEEDED, icmp_frag_needed)   /* fragmentation needed (3/4) */ \
	X(HOPLIMIT6, icmp6_hop_limit)      /* ICMPv6 time exceeded (3/0) */ \
	X(NOROUTE6, icmp6_no_route)        /* ICMPv6 unreachable (1/0) */ \
	X(TOOBIG6, icmp6_too_big)          /* ICMPv6 packet too big (2/0) */ \
	/* An error the rate limits held back. */ \
	X(RATELIMITED, icmp_ratelimited) \
	X(NO_SRC, icmp_no_src)             /* error not sent: no address */ \
	X(NOMEM, icmp_nomem)               /* no packet to build it in */ \
	/* A multicast copy the TX queue did not take (counted on the \
	 * port it was to leave; fwd_mcast.h). */ \
	X(MC_TX_FULL, mc_tx_full) \
	/* A multicast copy not made: no head for it (fwd_mcast.h). */ \
	X(MC_NOMEM, mc_nomem) \
	/* Not said but seen: IPv4 packets of bursts whose checksum the \
	 * one pass took from the PMD (every packet GOOD, on a port with \
	 * the RX checksum offload: none summed). */ \
	X(CKSUM_PMD, cksum_pmd) \
	/* Host unreachable (3/1): neighbour failed, unreachable route. */ \
	X(HOST_UNREACH4, icmp_host_unreach) \
	X(PROHIB4, icmp_prohibited)        /* prohibited (3/13) */ \
	X(ADDR_UNREACH6, icmp6_addr_unreach) /* ICMPv6 (1/3) */ \
	X(PROHIB6, icmp6_prohibited)       /* ICMPv6 prohibited (1/1) */ \
	X(ARP_REQUEST, arp_request)        /* neighbour solicited */ \
	X(ND_SOLICIT, nd_solicit)          /* neighbour solicited */ \
	/* What the lcores heard of a neighbour and could not hand to the \
	 * control side (its ring full): an ARP or NDP flood. */ \
	X(NEV_LOST, neigh_ev_lost) \
	/* An answer of the router's with no route back: not sent. */ \
	X(NO_ROUTE_BACK, no_route_back) \
	/* Held, its neighbour resolved before the lcore handed it over: \
	 * sent by the lcore, ahead of its TX buffers (fwd_hold_hand()). */ \
	X(HOLD_LATE, hold_late)

#define FWD_EVENT_ENUM_(e, name) FWD_EV_##e,
enum fwd_event {
	FWD_EVENTS(FWD_EVENT_ENUM_)
	FWD_NB_EVENTS,
};
#undef FWD_EVENT_ENUM_

/** The names of the reasons and of the events, by number. */
extern const char *const fwd_reason_names[FWD_NB_REASONS];
extern const char *const fwd_event_names[FWD_NB_EVENTS];

/** Verdicts of the checks beside the drop reasons. */
#define FWD_PASS     (FWD_NB_REASONS + 0) /**< forward as is */
#define FWD_FRAGMENT (FWD_NB_REASONS + 1) /**< IPv4 above the MTU, DF clear */
/** IP multicast to replicate by its route (fwd_mcast.h): the route's
 * index in fwd_meta.port, the packet not yet rewritten. */
#define FWD_MCAST    (FWD_NB_REASONS + 2)

/** The route tables a run looks routes up in (--lookup). */
enum fwd_lookup {
	FWD_LOOKUP_LPM, /**< rte_lpm + rte_lpm6 (l3fwd's LPM), the default */
	FWD_LOOKUP_FIB, /**< rte_fib DIR24_8 + rte_fib6 TRIE (l3fwd's FIB) */
	FWD_LOOKUP_EM,  /**< rte_hash of 5-tuples (l3fwd's EM): fwd_em_key.h */
};

/**
 * Next hop rte_fib / rte_fib6 return for an address without a route (the
 * default_nh they are made with): above any port, within the 2-byte next
 * hops of small tables (at most 0x7fff; larger ones have 4-byte ones).
 * Depth 0 routes stay in def4/def6, as with LPM.
 */
#define FWD_FIB_MISS 0x7fff

/** Next hop of the router's own addresses in the route tables: above
 * every port, below FWD_FIB_MISS (fits 2-byte FIB next hops). */
#define FWD_HOP_LOCAL (FWD_FIB_MISS - 1)

/**
 * Next hop the tables hold for a route to a port outside the port mask
 * (l3fwd's default tables keep such routes; fwd_routes_add() maps them):
 * the port is checked once, when the route is added, and a lookup gives
 * either a port to send to, this, FWD_HOP_LOCAL or -1 (no route). Above
 * any port, below FWD_HOP_LOCAL and FWD_FIB_MISS.
 */
#define FWD_HOP_BAD 0x7ffd

/** Next hop of the broadcast addresses of the router's prefixes (a port
 * address of prefix length up to 30, as Linux's local table has them):
 * a packet to one leaves the checks as "bcast" (fwd_cast.h). Below
 * FWD_HOP_BAD. */
#define FWD_HOP_BCAST (FWD_HOP_BAD - 1)

/**
 * Next hop the IPv4 tables hold for the martian destinations 0/8, 127/8,
 * 224/4 and 255.255.255.255, and for a route inside them (it can never
 * forward: fwd_routes_add()): no port, so that the one pass needs no test
 * of its own for them and the checks name them (martian_dst, or what
 * fwd_cast.h makes of multicast and the limited broadcast). Below
 * FWD_HOP_BCAST.
 */
#define FWD_HOP_MARTIAN (FWD_HOP_BCAST - 1)

/** Next hops of routes that forward nothing (Linux's RTN_BLACKHOLE,
 * RTN_UNREACHABLE, RTN_PROHIBIT): their drop reasons, no port. Below
 * FWD_HOP_MARTIAN. */
#define FWD_HOP_BLACKHOLE (FWD_HOP_MARTIAN - 1)
#define FWD_HOP_UNREACH   (FWD_HOP_MARTIAN - 2)
#define FWD_HOP_PROHIBIT  (FWD_HOP_MARTIAN - 3)

/** Not a next hop of the tables (fwd_nh.h): no route (-1), or one of the
 * FWD_HOP_* above. */
static __rte_always_inline uint32_t
fwd_hop_odd(uint32_t hop)
{
	RTE_BUILD_BUG_ON(!RTE_IS_POWER_OF_2(FWD_NH_MAX));
	RTE_BUILD_BUG_ON(FWD_NH_MAX > FWD_HOP_PROHIBIT);
	return hop & ~(FWD_NH_MAX - 1);
}

/** The next hop a table holds for a route to @p port: the port's own
 * next hop (fwd_nh.h) when it is enabled in @p portmask, else FWD_HOP_BAD
 * (checked once, when the route is added, not per packet). */
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

struct fwd_addrs;
struct fwd_hold_gate;
struct fwd_mroutes;
struct rte_hash;

/** The tables of a run: written at setup, read-only while running. */
struct fwd_tables {
	enum fwd_lookup lookup; /**< which of the tables below are made */
	struct rte_lpm *lpm4;
	struct rte_lpm6 *lpm6;
	struct rte_fib *fib4;   /**< with FWD_LOOKUP_FIB, in place of lpm4 */
	struct rte_fib6 *fib6;  /**< with FWD_LOOKUP_FIB, in place of lpm6 */
	struct rte_hash *em4;   /**< with FWD_LOOKUP_EM (fwd_em_key.h) */
	struct rte_hash *em6;
	int32_t def4;          /**< port of the IPv4 default route, -1 none */
	int32_t def6;          /**< port of the IPv6 default route, -1 none */
	uint64_t portmask;     /**< enabled ports (-p) */
	/** Ports whose PMD checks IPv4 header checksums (RX offload on):
	 * there the PMD's word is taken (GOOD passes, BAD is dropped,
	 * anything else summed); on the others the flags are not read. */
	uint64_t cksum_hw;
	uint16_t mtu;          /**< egress IP MTU of every port; with
	                        *   --port-mtu the smallest of them */
	/** --port-mtu: egress IP MTU of a port, 0 = @c mtu
	 * (fwd_egress_mtu()); only packets above @c mtu look at it. */
	uint16_t port_mtu[RTE_MAX_ETHPORTS];
	uint16_t copybreak;    /**< --copybreak bytes, 0 = off */
	struct rte_mempool *frag_direct;   /**< fragment headers */
	struct rte_mempool *frag_indirect; /**< fragment payload references */
	/** The router's addresses and ICMP settings (fwd_addr.h); NULL or
	 * none: it says nothing itself, as l3fwd. */
	const struct fwd_addrs *addrs;
	/** Multicast routes (--mroute, fwd_mcast.h), read-only but for
	 * their per-lcore counters; NULL: none, and IP multicast is not
	 * routed (mc_no_route). */
	struct fwd_mroutes *mroutes;
	/** --forward-otherhost: a frame to another station's unicast MAC is
	 * taken as one to the port (l3fwd checks no MAC), not dropped as
	 * l2_otherhost. */
	bool forward_otherhost;
	/** --bc-forwarding 1: a directed broadcast to a port's prefix leaves
	 * there as a link broadcast (Linux's bc_forwarding). */
	bool bc_forwarding;
	/** Non-zero at the first octets of the IPv4 sources the one pass
	 * leaves to the slow path: 0, 127 and 224..255 (multicast, class E
	 * and 255.255.255.255 among them). Beside own4_octet, so that the
	 * pass reads both from one base. fwd_tables_octets_prepare(). */
	uint8_t src_odd4[256];
	/** Non-zero at the last octet of each of the router's IPv4
	 * addresses: a source ending so is checked against them
	 * (fwd_addr_own4()), off the one pass.
	 * fwd_tables_octets_prepare(). */
	uint8_t own4_octet[256];
	/** The next hops the route tables name (fwd_nh.h): one table for
	 * every socket's copy of the tables. */
	struct fwd_nht *nht;
	/** Where the lcores hand packets waiting for a neighbour (their
	 * hold buffers, fwd_ctx.h): the control side's ring, NULL when no
	 * port resolves neighbours. */
	struct rte_ring *hold;
	/** Orders the hold ring and resolving next hops (fwd_ctlmsg.h),
	 * NULL with @c hold. */
	struct fwd_hold_gate *gate;
	/** What the lcores heard of neighbours (fwd_ctlmsg.h), NULL: none is
	 * listened to. */
	struct rte_ring *nev;
	/** What the control side asks lcore @c cmd_lcore to do
	 * (fwd_ctlmsg.h), NULL: nothing. */
	struct rte_ring *cmd;
	unsigned int cmd_lcore;
	/** Commands lcore @c cmd_lcore has carried out since the start,
	 * stored (release) after the TX buffers of the loop turn that took
	 * them are sent, before its next RX burst: the control side
	 * publishes a resolving next hop only once the packets it asked to
	 * send by it are on their port's TX queue (fwd_ctl.c). Its own
	 * cache line, the control side's. */
	uint64_t *cmd_done;
	/** The forwarding lcores' quiescent states (each reports one per
	 * loop turn, its lcore id as thread id), NULL: the tables never
	 * change while they run. */
	struct rte_rcu_qsbr *qsv;
	/** Where the router's own packets come from without npool
	 * (--pool mempool): fwd_solicit(). */
	struct rte_mempool *ctl_pool;
	struct fwd_l2 l2[RTE_MAX_ETHPORTS];
	/** Each port's MAC as fwd_eth_to_port() compares it:
	 * fwd_tables_l2_prepare(). */
	uint64_t rx_mac[RTE_MAX_ETHPORTS];
	/** The first 16 bytes of a plain IPv4 frame received on a port: its
	 * own MAC as destination (RFC 1812 5.3.4), EtherType 0x0800, version
	 * 4 and IHL 5 at the places FWD_RX16_MASK says (the others 0). */
	uint8_t rx16[RTE_MAX_ETHPORTS][16] __rte_aligned(16);
};

/** Bytes of fwd_tables.rx16 a plain IPv4 frame must have, a bit each:
 * the destination MAC (0-5), the EtherType (12, 13), version/IHL (14). */
#define FWD_RX16_MASK 0x703fu

/** FWD_RX16_MASK with --forward-otherhost: of the destination MAC its
 * first byte only, of which the group bit alone is compared (fwd_pass.h),
 * the EtherType and version / IHL. */
#define FWD_RX16_MASK_OH 0x7001u

/** The egress IP MTU of port @p port (--port-mtu, else --mtu). */
static inline uint16_t
fwd_egress_mtu(const struct fwd_tables *t, uint16_t port)
{
	return port < RTE_MAX_ETHPORTS && t->port_mtu[port] != 0 ?
		t->port_mtu[port] : t->mtu;
}

/** Fill t->src_odd4, and t->own4_octet from t->addrs (NULL: none), once
 * t->addrs is set (setup). */
void fwd_tables_octets_prepare(struct fwd_tables *t);

/** Fill t->rx16 and t->rx_mac from t->l2, and the ports' own next hops
 * in t->nht (when made), once t->l2 is set (setup). */
void fwd_tables_l2_prepare(struct fwd_tables *t);

#endif /* FWD_TABLES_H */
