/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ICMP_PVT_H
#define FWD_ICMP_PVT_H

/*
 * @internal What fwd_icmp.c (ARP, IPv4) and fwd_icmp6.c (NDP, IPv6)
 * share.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "fwd_icmp.h"

#define IP4_HDR 20u
#define IP6_HDR 40u
#define ICMP_HDR 8u
/* Linux: sysctl_ip_default_ttl, the IPv6 hop_limit default. */
#define REPLY_TTL 64

/* What fwd_local_input() knows of a received packet. */
struct rx_pkt {
	const struct fwd_tables *t;
	struct app_port_ctr *ic;
	struct rte_mbuf *m;
	unsigned int v;           /* its verdict */
	uint16_t port;            /* the port it came in on */
	uint32_t l3;              /* offset of the IP header / ARP */
	const uint8_t *h;         /* its first bytes (a copy if chained) */
	uint32_t hlen;            /* bytes at @c h */
};

/* fwd_icmp_rl_allow() of the lcore's limiter of the receiving port. */
bool fwd_rl_allow(const struct rx_pkt *r, const uint8_t key[16],
		uint32_t tmo_ms);

/* An empty packet of @p len bytes to send out of the receiving port,
 * its Ethernet header written (destination @p dst); NULL (counted
 * icmp_nomem) when none can be had. */
struct rte_mbuf *fwd_reply_alloc(const struct rx_pkt *r, uint32_t len,
		const struct rte_ether_addr *dst, uint16_t type);

/* Bytes @p off .. @p off + @p n of @p m into @p dst. */
void fwd_copy_out(const struct rte_mbuf *m, uint32_t off, uint32_t n,
		void *dst);

/* The Internet checksum of @p len bytes at @p p. */
uint16_t fwd_cksum_fold(const void *p, uint32_t len);

/* The ICMPv6 checksum of @p ip6's payload at @p l4 (payload_len). */
uint16_t fwd_icmp6_cksum(const struct rte_ipv6_hdr *ip6, const void *l4);

/* The packet was for the router: counted as "local" instead. */
void fwd_to_local(const struct rx_pkt *r);

/* The source MAC of the received packet. */
const struct rte_ether_addr *fwd_eth_src(const struct rx_pkt *r);

/* The IPv6 part of fwd_local_input() (fwd_icmp6.c). */
struct rte_mbuf *fwd_ip6_input(const struct rx_pkt *r);

/* The IPv6 part of fwd_solicit() (fwd_icmp6.c). */
struct rte_mbuf *fwd_ns_build(const struct fwd_tables *t,
		const struct fwd_cmd *cmd, struct app_port_ctr *ic);

/* An empty packet of @p len bytes for what the control side asks
 * (fwd_solicit()), from npool, else from t->ctl_pool; NULL (counted
 * icmp_nomem in @p ic) when none can be had. */
struct rte_mbuf *fwd_ctl_alloc(const struct fwd_tables *t, uint32_t len,
		struct app_port_ctr *ic);

#endif /* FWD_ICMP_PVT_H */
