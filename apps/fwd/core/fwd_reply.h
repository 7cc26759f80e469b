/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_REPLY_H
#define FWD_REPLY_H

/**
 * @file
 * What npool-fwd's answers share, IPv4 (fwd_icmp.c) and IPv6
 * (fwd_icmp6.c) alike: the ICMP rate limiters (Linux
 * icmp_global_allow() and inet_peer_xrlim_allow()), the packet an answer
 * is built in, the copy of the quoted bytes, the Internet and ICMPv6
 * checksums.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "app_ctr.h"
#include "fwd_addr.h"
#include "fwd_tables.h"

#define FWD_IP4_HDR 20u
#define FWD_IP6_HDR 40u
#define FWD_ICMP_HDR 8u
/* Linux: sysctl_ip_default_ttl, the IPv6 hop_limit default. */
#define FWD_REPLY_TTL 64

/** What fwd_local_input() knows of a received packet. */
struct fwd_rx_pkt {
	const struct fwd_tables *t;
	struct app_port_ctr *ic;
	struct rte_mbuf *m;
	unsigned int v;           /* its verdict */
	uint16_t port;            /* the port it came in on */
	uint32_t l3;              /* offset of the IP header / ARP */
	const uint8_t *h;         /* its first bytes (a copy if chained) */
	uint32_t hlen;            /* bytes at @c h */
};

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

/** fwd_icmp_rl_allow() of the lcore's limiter of the receiving port. */
bool fwd_rl_allow(const struct fwd_rx_pkt *r, const uint8_t key[16],
		uint32_t tmo_ms);

/** An empty packet of @p len bytes to send out of the receiving port,
 * its Ethernet header written (destination @p dst); NULL (counted
 * icmp_nomem) when none can be had. */
struct rte_mbuf *fwd_reply_alloc(const struct fwd_rx_pkt *r, uint32_t len,
		const struct rte_ether_addr *dst, uint16_t type);

/** Bytes @p off .. @p off + @p n of @p m into @p dst. */
void fwd_copy_out(const struct rte_mbuf *m, uint32_t off, uint32_t n,
		void *dst);

/** The Internet checksum of @p len bytes at @p p. */
uint16_t fwd_cksum_fold(const void *p, uint32_t len);

/** The ICMPv6 checksum of @p ip6's payload at @p l4 (payload_len). */
uint16_t fwd_icmp6_cksum(const struct rte_ipv6_hdr *ip6, const void *l4);

/** The packet was for the router: counted as "local" instead. */
void fwd_to_local(const struct fwd_rx_pkt *r);

/** The source MAC of the received packet. */
const struct rte_ether_addr *fwd_eth_src(const struct fwd_rx_pkt *r);

/** An empty packet of @p len bytes for what the control side asks
 * (fwd_solicit()), from npool, else from t->ctl_pool; NULL (counted
 * icmp_nomem in @p ic) when none can be had. */
struct rte_mbuf *fwd_ctl_alloc(const struct fwd_tables *t, uint32_t len,
		struct app_port_ctr *ic);

#endif /* FWD_REPLY_H */
