/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's own answers (fwd_icmp.h): ARP, NDP, echo and ICMP errors,
 * built in packets from npool_napi_alloc_pkt() (the kernel's alloc_skb()),
 * from the received packet's pool when npool does not run.
 */
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_lcore.h>

#include "npool.h"
#include "app_compat.h"
#include "fwd_ctlq.h"
#include "fwd_icmp.h"
#include "fwd_icmp6.h"
#include "fwd_lookup.h"

/* RFC 1812 4.3.2.3: an ICMPv4 error is at most 576 bytes. */
#define ICMP4_MAX 576u
/* Linux's NR_ICMP_TYPES: a type above is taken for an error. */
#define NR_ICMP_TYPES 18
#define ICMP4_DEST_UNREACH 3
#define ICMP4_TIME_EXCEEDED 11
/* Linux icmp_pointers[].error (net/ipv4/icmp.c): types 1-7, 9-12. */
#define ICMP4_ERROR_TYPES (1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | \
		1u << 5 | 1u << 6 | 1u << 7 | 1u << 9 | 1u << 10 | 1u << 11 | \
		1u << 12)

/* IPv4 identification of what each lcore sends. */
static uint16_t fwd_ip_id[RTE_MAX_LCORE];

/* What an ARP packet says of its sender, to the control side (Linux
 * arp_process(): a request for us learns it, anything else updates an
 * entry; a DAD probe, sender 0.0.0.0, says nothing). */
static void
arp_heard(const struct fwd_rx_pkt *r, const struct rte_arp_hdr *q, bool for_us)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)r->h;
	struct fwd_nev ev;

	if (r->t->nev == NULL || q->arp_data.arp_sip == 0)
		return;
	memset(&ev, 0, sizeof(ev));
	memcpy(ev.ip, &q->arp_data.arp_sip, 4);
	ev.mac = q->arp_data.arp_sha;
	ev.kind = for_us ? FWD_NEV_ARP_REQ : FWD_NEV_ARP;
	ev.flags = FWD_NEV_F_MAC;
	/* A reply sent to the port (PACKET_HOST) confirms: REACHABLE. */
	if (q->arp_opcode == RTE_BE16(RTE_ARP_OP_REPLY) &&
			rte_is_same_ether_addr(&eth->dst_addr,
				&r->t->l2[r->port].src))
		ev.flags |= FWD_NEV_F_HOST;
	if (q->arp_data.arp_sip == q->arp_data.arp_tip)
		ev.flags |= FWD_NEV_F_GARP;
	ev.port = r->port;
	fwd_nev_put(r->t, r->ic, &ev);
}

/* ARP (Linux arp_process(), arp_ignore 0): a request for an address of
 * the router (any of them, on any port) answered; what any ARP says of
 * its sender told to the control side (arp_heard()). */
static struct rte_mbuf *
arp_input(const struct fwd_rx_pkt *r)
{
	const struct rte_arp_hdr *q;
	struct rte_arp_hdr *a;
	struct rte_mbuf *m;
	uint32_t tip;
	bool for_us;

	if (r->hlen < r->l3 + sizeof(*q))
		return NULL;
	q = (const struct rte_arp_hdr *)(r->h + r->l3);
	if (q->arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
			q->arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
			q->arp_hlen != RTE_ETHER_ADDR_LEN || q->arp_plen != 4 ||
			(q->arp_opcode != RTE_BE16(RTE_ARP_OP_REQUEST) &&
			 q->arp_opcode != RTE_BE16(RTE_ARP_OP_REPLY)) ||
			rte_is_multicast_ether_addr(&q->arp_data.arp_sha))
		return NULL;
	tip = q->arp_data.arp_tip;
	for_us = q->arp_opcode == RTE_BE16(RTE_ARP_OP_REQUEST) &&
		fwd_addr_own4(r->t->addrs, tip);
	arp_heard(r, q, for_us);
	if (!for_us)
		return NULL;
	fwd_to_local(r);
	m = fwd_reply_alloc(r, RTE_ETHER_HDR_LEN + sizeof(*a),
			&q->arp_data.arp_sha, RTE_ETHER_TYPE_ARP);
	if (m == NULL)
		return NULL;
	a = rte_pktmbuf_mtod_offset(m, struct rte_arp_hdr *,
			RTE_ETHER_HDR_LEN);
	*a = *q;
	a->arp_opcode = RTE_BE16(RTE_ARP_OP_REPLY);
	a->arp_data.arp_sha = r->t->l2[r->port].src;
	a->arp_data.arp_sip = tip;
	a->arp_data.arp_tha = q->arp_data.arp_sha;
	a->arp_data.arp_tip = q->arp_data.arp_sip;
	r->ic->ev[FWD_EV_ARP_REPLY]++;
	return m;
}

/* The sender address of an ARP request (arp_solicit() with arp_announce
 * 0): the source of the packet waiting, when it is one of the router's;
 * else inet_select_addr(): the port's address whose prefix holds the
 * target, its first one, or any of the router's. false: none. */
static bool
solicit_src4(const struct fwd_addrs *a, const struct fwd_cmd *cmd,
		uint32_t *src)
{
	uint32_t tgt;
	unsigned int q;

	memcpy(src, cmd->src, 4);
	if (a == NULL || fwd_addr_own4(a, *src))
		return a != NULL;
	memcpy(&tgt, cmd->ip, 4);
	if (fwd_addr_src4(a, cmd->port, tgt, src))
		return true;
	for (q = 0; q < RTE_MAX_ETHPORTS; q++)
		if (a->p[q].n4 != 0) {
			*src = a->p[q].v4[0];
			return true;
		}
	return false;
}

struct rte_mbuf *
fwd_solicit(const struct fwd_tables *t, const struct fwd_cmd *cmd,
		struct app_port_ctr *ic)
{
	static const struct rte_ether_addr zero;
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *a;
	struct rte_mbuf *m;
	uint32_t src;

	if (cmd->v6)
		return fwd_ns_build(t, cmd, ic);
	if (!solicit_src4(t->addrs, cmd, &src))
		return NULL;
	m = fwd_ctl_alloc(t, RTE_ETHER_HDR_LEN + sizeof(*a), ic);
	if (m == NULL)
		return NULL;
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	memcpy(&eth->dst_addr, cmd->eth, RTE_ETHER_ADDR_LEN);
	if (rte_is_same_ether_addr(&eth->dst_addr, &zero))
		memset(&eth->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	eth->src_addr = t->l2[cmd->port].src;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	a = (struct rte_arp_hdr *)(eth + 1);
	a->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = RTE_ETHER_ADDR_LEN;
	a->arp_plen = 4;
	a->arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
	a->arp_data.arp_sha = t->l2[cmd->port].src;
	a->arp_data.arp_sip = src;
	memset(&a->arp_data.arp_tha, 0, RTE_ETHER_ADDR_LEN);
	memcpy(&a->arp_data.arp_tip, cmd->ip, 4);
	ic->ev[FWD_EV_ARP_REQUEST]++;
	return m;
}

/* IPv4 header of a packet the router sends. */
static void
ip4_fill(struct rte_ipv4_hdr *ip, uint8_t tos, uint16_t tot, uint32_t src,
		uint32_t dst)
{
	const unsigned int lcore = rte_lcore_id();

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->type_of_service = tos;
	ip->total_length = rte_cpu_to_be_16(tot);
	ip->packet_id = rte_cpu_to_be_16(
			fwd_ip_id[lcore < RTE_MAX_LCORE ? lcore : 0]++);
	ip->time_to_live = FWD_REPLY_TTL;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = src;
	ip->dst_addr = dst;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

/* Echo request to an address of the router (Linux icmp_echo()): the
 * same ICMP data back, from @p from (network order). */
static struct rte_mbuf *
echo4_input(const struct fwd_rx_pkt *r, const struct rte_ipv4_hdr *ip,
		uint32_t from)
{
	const uint32_t ihl = rte_ipv4_hdr_len(ip);
	const uint32_t tot = rte_be_to_cpu_16(ip->total_length);
	struct rte_icmp_hdr *ic;
	struct rte_mbuf *m;
	uint32_t n;

	if (ip->next_proto_id != IPPROTO_ICMP || tot < ihl + FWD_ICMP_HDR ||
			(ip->fragment_offset & RTE_BE16(
				RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) ||
			r->h[r->l3 + ihl] != RTE_ICMP_TYPE_ECHO_REQUEST)
		return NULL;
	n = tot - ihl;
	m = fwd_reply_alloc(r, RTE_ETHER_HDR_LEN + FWD_IP4_HDR + n,
			fwd_eth_src(r), RTE_ETHER_TYPE_IPV4);
	if (m == NULL)
		return NULL;
	ic = rte_pktmbuf_mtod_offset(m, struct rte_icmp_hdr *,
			RTE_ETHER_HDR_LEN + FWD_IP4_HDR);
	fwd_copy_out(r->m, r->l3 + ihl, n, ic);
	if (rte_raw_cksum(ic, n) != 0xffff) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	ic->icmp_type = RTE_ICMP_TYPE_ECHO_REPLY;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = fwd_cksum_fold(ic, n);
	ip4_fill(rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
				RTE_ETHER_HDR_LEN), ip->type_of_service,
			(uint16_t)(FWD_IP4_HDR + n), from, ip->src_addr);
	r->ic->ev[FWD_EV_ECHO_REPLY]++;
	return m;
}

/* Linux __icmp_send() for a packet being forwarded. */
static struct rte_mbuf *
icmp4_error(const struct fwd_rx_pkt *r, const struct rte_ipv4_hdr *ip,
		uint8_t type, uint8_t code, uint32_t info, unsigned int ev)
{
	const uint32_t ihl = rte_ipv4_hdr_len(ip);
	const uint32_t tot = rte_be_to_cpu_16(ip->total_length);
	const struct fwd_addrs *a = r->t->addrs;
	uint32_t room, n, src;
	uint8_t key[16] = { 0 };
	struct rte_icmp_hdr *ic;
	struct rte_mbuf *m;
	uint8_t it;

	/* No replies to link-layer multicast or broadcast, to IP
	 * multicast or broadcast, to fragments but the first, nor to the
	 * router's own address (a packet claiming to come from it). A
	 * directed broadcast forwarded (--bc-forwarding) gets them as any
	 * packet: Linux's route for it has no RTCF_BROADCAST. */
	if (rte_is_multicast_ether_addr(
			&((const struct rte_ether_hdr *)r->h)->dst_addr) ||
			(!r->t->bc_forwarding &&
			 fwd_addr_bcast4(a, ip->dst_addr)) ||
			fwd_addr_bcast4(a, ip->src_addr) ||
			fwd_addr_own4(a, ip->src_addr) ||
			(ip->fragment_offset &
			 RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)))
		return NULL;
	/* Never an error about an ICMP error (unknown types are taken
	 * for errors, as Linux does). */
	if (ip->next_proto_id == IPPROTO_ICMP) {
		if (tot < ihl + 1 || r->hlen < r->l3 + ihl + 1)
			return NULL;
		it = r->h[r->l3 + ihl];
		if (it > NR_ICMP_TYPES || ((ICMP4_ERROR_TYPES >> it) & 1))
			return NULL;
	}
	if (!fwd_addr_src4(a, r->port, ip->src_addr, &src)) {
		r->ic->ev[FWD_EV_NO_SRC]++;
		return NULL;
	}
	/* icmpv4_mask_allow(): frag needed is never limited. */
	memcpy(key, &ip->src_addr, 4);
	if (!(type == ICMP4_DEST_UNREACH && code == 4) &&
			!fwd_rl_allow(r, key, a->ratelimit_ms)) {
		r->ic->ev[FWD_EV_RATELIMITED]++;
		return NULL;
	}
	/* Linux: the MTU of the route back, the receiving port's. */
	room = RTE_MIN((uint32_t)fwd_egress_mtu(r->t, r->port), ICMP4_MAX) -
		FWD_IP4_HDR - FWD_ICMP_HDR;
	if (room <= FWD_IP4_HDR)
		return NULL;
	n = RTE_MIN(tot, room);
	m = fwd_reply_alloc(r, RTE_ETHER_HDR_LEN + FWD_IP4_HDR + FWD_ICMP_HDR +
			n, fwd_eth_src(r), RTE_ETHER_TYPE_IPV4);
	if (m == NULL)
		return NULL;
	ic = rte_pktmbuf_mtod_offset(m, struct rte_icmp_hdr *,
			RTE_ETHER_HDR_LEN + FWD_IP4_HDR);
	ic->icmp_type = type;
	ic->icmp_code = code;
	ic->icmp_cksum = 0;
	/* The rest of the header: unused, or the next-hop MTU in its
	 * low 16 bits (RFC 1191). */
	memcpy(&ic->icmp_ident, &(uint32_t){ rte_cpu_to_be_32(info) }, 4);
	fwd_copy_out(r->m, r->l3, n, ic + 1);
	ic->icmp_cksum = fwd_cksum_fold(ic, FWD_ICMP_HDR + n);
	/* TOS: the original's, precedence internetwork control. */
	ip4_fill(rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
				RTE_ETHER_HDR_LEN),
			(uint8_t)((ip->type_of_service & 0x1e) | 0xc0),
			(uint16_t)(FWD_IP4_HDR + FWD_ICMP_HDR + n), src,
			ip->src_addr);
	r->ic->ev[ev]++;
	return m;
}

/* The port a packet to @p dst (network order) leaves on: its route's,
 * or, for a directed broadcast forwarded (--bc-forwarding), its prefix's
 * (the route is the router's own there). */
static uint16_t
egress_port4(const struct fwd_tables *t, uint32_t dst)
{
	const int bp = t->bc_forwarding ?
		fwd_addr_bcast4_port(t->addrs, dst) : -1;

	return (uint16_t)(bp >= 0 ? bp : fwd_hop_port(t,
			fwd_lookup4(t, rte_be_to_cpu_32(dst))));
}

static struct rte_mbuf *
ip4_input(const struct fwd_rx_pkt *r)
{
	const struct rte_ipv4_hdr *ip;
	uint32_t from;

	if (r->hlen < r->l3 + FWD_IP4_HDR)
		return NULL;
	ip = (const struct rte_ipv4_hdr *)(r->h + r->l3);
	if (r->hlen < r->l3 + rte_ipv4_hdr_len(ip))
		return NULL;
	switch (r->v) {
	case FWD_LOCAL:
		return echo4_input(r, ip, ip->dst_addr);
	case FWD_BCAST:
		/* Linux icmp_rcv(): an echo request to a broadcast is
		 * ignored (icmp_echo_ignore_broadcasts), else answered from
		 * the address the route back to the sender prefers
		 * (fib_compute_spec_dst()): the receiving port's. Never to
		 * a 0/8 source (255.255.255.255 takes one, as DHCP sends):
		 * Linux finds no route back to it (__mkroute_output()). */
		return r->t->addrs->echo_ignore_bcast ||
			(ip->src_addr & RTE_BE32(0xff000000)) == 0 ||
			!fwd_addr_src4(r->t->addrs, r->port, ip->src_addr,
				&from) ? NULL : echo4_input(r, ip, from);
	case FWD_TTL_EXCEEDED:
		return icmp4_error(r, ip, ICMP4_TIME_EXCEEDED, 0, 0,
				FWD_EV_TTL4);
	case FWD_NO_ROUTE:
		return icmp4_error(r, ip, ICMP4_DEST_UNREACH, 0, 0,
				FWD_EV_UNREACH4);
	case FWD_NEIGH_FAILED:
	case FWD_UNREACHABLE:
		/* Linux arp_error_report(), ip_error() of EHOSTUNREACH. */
		return icmp4_error(r, ip, ICMP4_DEST_UNREACH, 1, 0,
				FWD_EV_HOST_UNREACH4);
	case FWD_PROHIBIT:
		return icmp4_error(r, ip, ICMP4_DEST_UNREACH, 13, 0,
				FWD_EV_PROHIB4);
	case FWD_MTU:
		return icmp4_error(r, ip, ICMP4_DEST_UNREACH, 4,
				fwd_egress_mtu(r->t, egress_port4(r->t,
						ip->dst_addr)),
				FWD_EV_FRAG_NEEDED);
	}
	return NULL;
}

struct rte_mbuf *
fwd_local_input(const struct fwd_tables *t, struct app_port_ctr *ic,
		struct rte_mbuf *m, unsigned int v, uint16_t in_port)
{
	uint8_t buf[RTE_ETHER_HDR_LEN + 4 + 60 + 40];
	struct fwd_rx_pkt r = { t, ic, m, v, in_port, m->l2_len, NULL, 0 };

	if (!fwd_local_wants(t, v) || in_port >= RTE_MAX_ETHPORTS)
		return NULL;
	/* What fwd_classify() parsed: the L3 type and where it starts
	 * (behind a VID-0 priority tag it took). The headers sit in the
	 * first segment; a copy only of a packet shorter than the buffer's
	 * reach in a chain. */
	r.hlen = RTE_MIN(m->pkt_len, (uint32_t)sizeof(buf));
	r.h = rte_pktmbuf_read(m, 0, r.hlen, buf);
	if (r.h == NULL || r.hlen < r.l3)
		return NULL;
	switch (m->packet_type & RTE_PTYPE_L3_MASK) {
	case RTE_PTYPE_L3_IPV4:
		return ip4_input(&r);
	case RTE_PTYPE_L3_IPV6:
		return fwd_ip6_input(&r);
	}
	if ((m->packet_type & RTE_PTYPE_L2_MASK) == RTE_PTYPE_L2_ETHER_ARP)
		return v == FWD_NOT_IP ? arp_input(&r) : NULL;
	return NULL;
}
