/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 half of npool-fwd's own answers (fwd_icmp.h): neighbour
 * advertisements (Linux ndisc_recv_ns()), echo replies
 * (icmpv6_echo_reply()) and ICMPv6 errors (icmp6_send()).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "app_compat.h"
#include "fwd_ctlq.h"
#include "fwd_icmp6.h"
#include "fwd_lookup.h"

/* RFC 4443 2.4(c): an ICMPv6 error is at most the minimum IPv6 MTU. */
#define ICMP6_MAX 1280u
#define ICMP6_ECHO_REQUEST 128
#define ICMP6_ECHO_REPLY 129
#define ND_NS 135
#define ND_NA 136
#define ND_OPT_SLLA 1
#define ND_OPT_TLLA 2
/* NA flags: router, solicited, override. */
#define NA_R 0x80
#define NA_S 0x40
#define NA_O 0x20

static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
/* Its link-layer address (RFC 2464 7). */
static const struct rte_ether_addr all_nodes_mac = {
	{ 0x33, 0x33, 0, 0, 0, 1 } };

static bool
is_ll(const uint8_t *a)
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

/* ff02::1:ffXX:XXXX of @p a (RFC 4291 2.7.1). */
static bool
is_snm_of(const uint8_t *dst, const uint8_t *a)
{
	static const uint8_t pre[13] = { 0xff, 0x02, [11] = 0x01, 0xff };

	return memcmp(dst, pre, 13) == 0 && memcmp(dst + 13, a + 13, 3) == 0;
}

/* IPv6 header of a packet the router sends; payload_len @p plen. */
static void
ip6_fill(struct rte_ipv6_hdr *ip6, uint8_t tc, uint16_t plen, uint8_t hlim,
		const uint8_t *src, const uint8_t *dst)
{
	ip6->vtc_flow = rte_cpu_to_be_32(6u << 28 | (uint32_t)tc << 20);
	ip6->payload_len = rte_cpu_to_be_16(plen);
	ip6->proto = IPPROTO_ICMPV6;
	ip6->hop_limits = hlim;
	memcpy(APP_IPV6_BYTES(ip6->src_addr), src, 16);
	memcpy(APP_IPV6_BYTES(ip6->dst_addr), dst, 16);
}

/* The ICMPv6 message of @p ip6 (no extension header), its checksum
 * checked, copied into @p out (room for @p max); its length, or 0. */
static uint32_t
icmp6_read(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6,
		uint8_t *out, uint32_t max)
{
	const uint32_t n = rte_be_to_cpu_16(ip6->payload_len);
	struct rte_ipv6_hdr h = *ip6;

	if (ip6->proto != IPPROTO_ICMPV6 || n < FWD_ICMP_HDR || n > max)
		return 0;
	fwd_copy_out(r->m, r->l3 + FWD_IP6_HDR, n, out);
	h.payload_len = ip6->payload_len;
	return fwd_icmp6_cksum(&h, out) == 0 ? n : 0;
}

/* What an NS or NA says of a neighbour, to the control side. */
static void
nd_heard(const struct fwd_rx_pkt *r, const uint8_t *ip, const uint8_t *lla,
		uint8_t kind, uint8_t flags)
{
	struct fwd_nev ev;

	if (r->t->nev == NULL)
		return;
	memset(&ev, 0, sizeof(ev));
	memcpy(ev.ip, ip, 16);
	if (lla != NULL) {
		memcpy(&ev.mac, lla, RTE_ETHER_ADDR_LEN);
		flags |= FWD_NEV_F_MAC;
	}
	ev.kind = kind;
	ev.flags = flags;
	ev.port = r->port;
	ev.v6 = 1;
	fwd_nev_put(r->t, r->ic, &ev);
}

/* Neighbour advertisement (RFC 4861 7.1.2 checks; Linux ndisc_recv_na()):
 * what it says of its target, to the control side, which updates an
 * entry it has (none is made). Never answered. */
static void
na_input(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6,
		const uint8_t *na, uint32_t n)
{
	const uint8_t *tgt = na + 8, *tlla = NULL;
	uint8_t flags = 0;
	uint32_t off;

	if (ip6->hop_limits != 255 || na[1] != 0 || n < 24 ||
			tgt[0] == 0xff ||
			(APP_IPV6_BYTES(ip6->dst_addr)[0] == 0xff &&
			 (na[4] & NA_S)) ||
			fwd_addr_own6(r->t->addrs, r->port, tgt))
		return;
	for (off = 24; off + 8 <= n; off += na[off + 1] * 8u) {
		if (na[off + 1] == 0)
			return;
		if (na[off] == ND_OPT_TLLA && na[off + 1] == 1)
			tlla = na + off + 2;
	}
	if (na[4] & NA_S)
		flags |= FWD_NEV_F_SOLICITED;
	if (na[4] & NA_O)
		flags |= FWD_NEV_F_OVERRIDE;
	if (na[4] & NA_R)
		flags |= FWD_NEV_F_ROUTER;
	nd_heard(r, tgt, tlla, FWD_NEV_NA, flags);
}

/* Neighbour solicitation for an address of the receiving port (RFC 4861
 * 7.1.1 checks, 7.2.4 answer; Linux ndisc_recv_ns()); @p ours set when
 * it is one (then counted "local", whether answered or not). */
static struct rte_mbuf *
ns_input(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6,
		const uint8_t *ns, uint32_t n, bool *ours)
{
	const uint8_t *src = APP_IPV6_BYTES(ip6->src_addr);
	const uint8_t *dst = APP_IPV6_BYTES(ip6->dst_addr);
	const uint8_t *tgt = ns + 8, *slla = NULL;
	const struct rte_ether_addr *l2dst;
	static const uint8_t any[16];
	const bool dad = memcmp(src, any, 16) == 0;
	const bool mc = dst[0] == 0xff;
	struct rte_ipv6_hdr *o;
	struct rte_mbuf *m;
	uint32_t off;
	uint8_t *na;

	if (ip6->hop_limits != 255 || ns[1] != 0 || n < 24 || tgt[0] == 0xff ||
			!fwd_addr_own6(r->t->addrs, r->port, tgt) ||
			(mc ? !is_snm_of(dst, tgt) :
			 !fwd_addr_own6(r->t->addrs, r->port, dst)))
		return NULL;
	for (off = 24; off + 8 <= n; off += ns[off + 1] * 8u) {
		if (ns[off + 1] == 0)
			return NULL;
		if (ns[off] == ND_OPT_SLLA && ns[off + 1] == 1)
			slla = ns + off + 2;
	}
	if (dad && (!mc || slla != NULL))
		return NULL;
	*ours = true;
	/* Linux ndisc_recv_ns(): the source with its link-layer address
	 * is learnt (STALE). */
	if (!dad && slla != NULL)
		nd_heard(r, src, slla, FWD_NEV_NS, 0);
	/* Linux: the link-layer address option and the override flag
	 * only for a multicast solicitation. */
	l2dst = slla != NULL ? (const struct rte_ether_addr *)slla :
		fwd_eth_src(r);
	if (dad)
		l2dst = &all_nodes_mac;
	n = mc ? 32 : 24;
	m = fwd_reply_alloc(r, RTE_ETHER_HDR_LEN + FWD_IP6_HDR + n, l2dst,
			RTE_ETHER_TYPE_IPV6);
	if (m == NULL)
		return NULL;
	o = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
			RTE_ETHER_HDR_LEN);
	ip6_fill(o, 0, (uint16_t)n, 255, tgt, dad ? all_nodes : src);
	na = (uint8_t *)(o + 1);
	memset(na, 0, n);
	na[0] = ND_NA;
	na[4] = NA_R | (dad ? 0 : NA_S) | (mc ? NA_O : 0);
	memcpy(na + 8, tgt, 16);
	if (mc) {
		na[24] = ND_OPT_TLLA;
		na[25] = 1;
		memcpy(na + 26, &r->t->l2[r->port].src, 6);
	}
	*(uint16_t *)(na + 2) = fwd_icmp6_cksum(o, na);
	r->ic->ev[FWD_EV_ND_ADVERT]++;
	return m;
}

/* Echo request to a unicast address of the router: the same data back
 * from that address, its traffic class kept. */
static struct rte_mbuf *
echo6_input(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6)
{
	const uint32_t n = rte_be_to_cpu_16(ip6->payload_len);
	struct rte_ipv6_hdr *o;
	struct rte_mbuf *m;
	uint8_t *e;

	if (n < FWD_ICMP_HDR || ip6->proto != IPPROTO_ICMPV6)
		return NULL;
	m = fwd_reply_alloc(r, RTE_ETHER_HDR_LEN + FWD_IP6_HDR + n,
			fwd_eth_src(r), RTE_ETHER_TYPE_IPV6);
	if (m == NULL)
		return NULL;
	o = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
			RTE_ETHER_HDR_LEN);
	e = (uint8_t *)(o + 1);
	if (icmp6_read(r, ip6, e, n) == 0 || e[0] != ICMP6_ECHO_REQUEST) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	ip6_fill(o, (uint8_t)(rte_be_to_cpu_32(ip6->vtc_flow) >> 20),
			(uint16_t)n, FWD_REPLY_TTL,
			APP_IPV6_BYTES(ip6->dst_addr),
			APP_IPV6_BYTES(ip6->src_addr));
	e[0] = ICMP6_ECHO_REPLY;
	e[2] = e[3] = 0;
	*(uint16_t *)(e + 2) = fwd_icmp6_cksum(o, e);
	r->ic->ev[FWD_EV_ECHO6_REPLY]++;
	return m;
}

/* Linux is_ineligible(): whether the packet carries an ICMPv6 error (its
 * extension headers skipped as ipv6_skip_exthdr() does; a fragment but
 * the first stops there, and gets errors). */
static bool
ineligible(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6)
{
	const uint32_t end = r->l3 + FWD_IP6_HDR + rte_be_to_cpu_16(
			ip6->payload_len);
	uint32_t off = r->l3 + FWD_IP6_HDR;
	uint8_t nh = ip6->proto, h[2], t;

	for (;;) {
		if (nh == 59)
			return false;
		if (nh != 0 && nh != 43 && nh != 44 && nh != 51 && nh != 60)
			break;
		if (off + 8 > end)
			return false;
		fwd_copy_out(r->m, off, 2, h);
		if (nh == 44) {
			uint8_t fo[2];

			fwd_copy_out(r->m, off + 2, 2, fo);
			if (((fo[0] << 8 | fo[1]) & ~7) != 0)
				return false;
			off += 8;
		} else {
			off += nh == 51 ? (h[1] + 2u) * 4 : (h[1] + 1u) * 8;
		}
		nh = h[0];
	}
	if (nh != IPPROTO_ICMPV6)
		return false;
	if (off + 1 > end)
		return true;
	fwd_copy_out(r->m, off, 1, &t);
	return !(t & 0x80);
}

/* Linux icmp6_send() for a packet being forwarded: type @p type_code >> 8,
 * code its low byte. */
static struct rte_mbuf *
icmp6_error(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6,
		uint16_t type_code, uint32_t info, unsigned int ev)
{
	const uint8_t *osrc = APP_IPV6_BYTES(ip6->src_addr);
	const struct fwd_addrs *a = r->t->addrs;
	struct rte_ipv6_hdr *o;
	const uint8_t type = (uint8_t)(type_code >> 8);
	uint8_t src[16], plen;
	struct rte_mbuf *m;
	uint32_t n, tmo;
	uint8_t *ic;

	/* Multicast destinations are martian here (no error but packet
	 * too big would go to them): only link-layer ones are left. A
	 * source must name one node: not ::, not multicast, and not the
	 * router itself (an error to its own address). */
	if ((type != 2 && rte_is_multicast_ether_addr(
			&((const struct rte_ether_hdr *)r->h)->dst_addr)) ||
			osrc[0] == 0xff || fwd_addr_own6_any(a, osrc) ||
			ineligible(r, ip6))
		return NULL;
	if (!fwd_addr_src6(a, r->port, osrc, src, &plen)) {
		r->ic->ev[FWD_EV_NO_SRC]++;
		return NULL;
	}
	/* icmpv6_xrlim_allow(): packet too big never limited; wider
	 * prefixes get a shorter interval. */
	tmo = a->ratelimit_ms >> ((128 - plen) >> 5);
	if (type != 2 && !fwd_rl_allow(r, osrc, tmo)) {
		r->ic->ev[FWD_EV_RATELIMITED]++;
		return NULL;
	}
	n = RTE_MIN(FWD_IP6_HDR + rte_be_to_cpu_16(ip6->payload_len),
			ICMP6_MAX - FWD_IP6_HDR - FWD_ICMP_HDR);
	m = fwd_reply_alloc(r, RTE_ETHER_HDR_LEN + FWD_IP6_HDR + FWD_ICMP_HDR +
			n, fwd_eth_src(r), RTE_ETHER_TYPE_IPV6);
	if (m == NULL)
		return NULL;
	o = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
			RTE_ETHER_HDR_LEN);
	ip6_fill(o, 0, (uint16_t)(FWD_ICMP_HDR + n), FWD_REPLY_TTL, src, osrc);
	ic = (uint8_t *)(o + 1);
	ic[0] = type;
	ic[1] = (uint8_t)type_code;
	ic[2] = ic[3] = 0;
	memcpy(ic + 4, &(uint32_t){ rte_cpu_to_be_32(info) }, 4);
	fwd_copy_out(r->m, r->l3, n, ic + FWD_ICMP_HDR);
	*(uint16_t *)(ic + 2) = fwd_icmp6_cksum(o, ic);
	r->ic->ev[ev]++;
	return m;
}

/* A packet to the router: NS, echo, or anything else (dropped). */
static struct rte_mbuf *
to_router(const struct fwd_rx_pkt *r, const struct rte_ipv6_hdr *ip6)
{
	const uint8_t *dst = APP_IPV6_BYTES(ip6->dst_addr);
	const uint8_t *src = APP_IPV6_BYTES(ip6->src_addr);
	struct rte_mbuf *m;
	bool ours = false;
	uint8_t ns[64];
	uint32_t n;

	/* A multicast source is dropped before anything (RFC 4291 2.7;
	 * Linux ip6_rcv_core()). */
	if (src[0] == 0xff)
		return NULL;
	if (dst[0] == 0xff) {
		/* Only a solicitation of ours is for the router; an
		 * advertisement to all nodes is heard. */
		n = icmp6_read(r, ip6, ns, sizeof(ns));
		if (n != 0 && ns[0] == ND_NA && r->t->nev != NULL &&
				memcmp(dst, all_nodes, 16) == 0)
			na_input(r, ip6, ns, n);
		if (n == 0 || ns[0] != ND_NS)
			return NULL;
		m = ns_input(r, ip6, ns, n, &ours);
		if (ours)
			fwd_to_local(r);
		return m;
	}
	if (!(is_ll(dst) ? fwd_addr_own6(r->t->addrs, r->port, dst) :
			fwd_addr_own6_any(r->t->addrs, dst)))
		return NULL;
	/* A martian source (not link-local) stays a martian. */
	if (r->v == FWD_MARTIAN_SRC && !is_ll(src))
		return NULL;
	fwd_to_local(r);
	if (ip6->proto != IPPROTO_ICMPV6 || r->hlen < r->l3 + FWD_IP6_HDR + 1)
		return NULL;
	if (r->h[r->l3 + FWD_IP6_HDR] == ICMP6_ECHO_REQUEST)
		return echo6_input(r, ip6);
	n = icmp6_read(r, ip6, ns, sizeof(ns));
	if (n != 0 && ns[0] == ND_NA)
		na_input(r, ip6, ns, n);
	return n != 0 && ns[0] == ND_NS ? ns_input(r, ip6, ns, n, &ours) :
		NULL;
}

/* ff02::1:ffXX:XXXX of @p a, and its MAC 33:33:ff:XX:XX:XX. */
static void
snm_of(const uint8_t *a, uint8_t *ip, struct rte_ether_addr *mac)
{
	static const uint8_t pre[13] = { 0xff, 0x02, [11] = 0x01, 0xff };

	memcpy(ip, pre, sizeof(pre));
	memcpy(ip + 13, a + 13, 3);
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(mac->addr_bytes + 2, ip + 12, 4);
}

struct rte_mbuf *
fwd_ns_build(const struct fwd_tables *t, const struct fwd_cmd *cmd,
		struct app_port_ctr *ic)
{
	static const uint8_t zero[RTE_ETHER_ADDR_LEN];
	const uint32_t n = 32;
	struct rte_ether_hdr *eth;
	struct rte_ipv6_hdr *o;
	struct rte_mbuf *m;
	uint8_t dst[16];
	const uint8_t *src;
	uint8_t *ns;

	/* ndisc_solicit(): the source of the packet waiting when it is an
	 * address of the port, else the port's link-local address. */
	if (t->addrs == NULL)
		return NULL;
	src = fwd_addr_own6(t->addrs, cmd->port, cmd->src) ? cmd->src :
		t->addrs->p[cmd->port].ll6;
	m = fwd_ctl_alloc(t, RTE_ETHER_HDR_LEN + FWD_IP6_HDR + n, ic);
	if (m == NULL)
		return NULL;
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	if (memcmp(cmd->eth, zero, sizeof(zero)) != 0) {
		/* A unicast probe (PROBE): to the neighbour itself. */
		memcpy(&eth->dst_addr, cmd->eth, RTE_ETHER_ADDR_LEN);
		memcpy(dst, cmd->ip, 16);
	} else {
		snm_of(cmd->ip, dst, &eth->dst_addr);
	}
	eth->src_addr = t->l2[cmd->port].src;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	o = (struct rte_ipv6_hdr *)(eth + 1);
	ip6_fill(o, 0, (uint16_t)n, 255, src, dst);
	ns = (uint8_t *)(o + 1);
	memset(ns, 0, n);
	ns[0] = ND_NS;
	memcpy(ns + 8, cmd->ip, 16);
	ns[24] = ND_OPT_SLLA;
	ns[25] = 1;
	memcpy(ns + 26, &t->l2[cmd->port].src, RTE_ETHER_ADDR_LEN);
	*(uint16_t *)(ns + 2) = fwd_icmp6_cksum(o, ns);
	ic->ev[FWD_EV_ND_SOLICIT]++;
	return m;
}

struct rte_mbuf *
fwd_ip6_input(const struct fwd_rx_pkt *r)
{
	const struct rte_ipv6_hdr *ip6;

	if (r->hlen < r->l3 + FWD_IP6_HDR)
		return NULL;
	ip6 = (const struct rte_ipv6_hdr *)(r->h + r->l3);
	switch (r->v) {
	case FWD_LOCAL:
	case FWD_MARTIAN_DST:
	case FWD_MARTIAN_SRC:
	case FWD_MC_LOCAL:
		return to_router(r, ip6);
	case FWD_TTL_EXCEEDED:
		return icmp6_error(r, ip6, 3 << 8, 0, FWD_EV_HOPLIMIT6);
	case FWD_NO_ROUTE:
		return icmp6_error(r, ip6, 1 << 8, 0, FWD_EV_NOROUTE6);
	case FWD_UNREACHABLE:
		/* Linux ip6_pkt_discard(): no route. */
		return icmp6_error(r, ip6, 1 << 8, 0, FWD_EV_NOROUTE6);
	case FWD_NEIGH_FAILED:
		/* Linux ndisc_error_report(): address unreachable. */
		return icmp6_error(r, ip6, 1 << 8 | 3, 0,
				FWD_EV_ADDR_UNREACH6);
	case FWD_PROHIBIT:
		return icmp6_error(r, ip6, 1 << 8 | 1, 0, FWD_EV_PROHIB6);
	case FWD_MTU:
		/* The MTU of the port the route leads to. */
		return icmp6_error(r, ip6, 2 << 8, fwd_egress_mtu(r->t,
				(uint16_t)fwd_hop_port(r->t, fwd_lookup6(r->t,
					APP_IPV6_BYTES(ip6->dst_addr)))),
				FWD_EV_TOOBIG6);
	}
	return NULL;
}
