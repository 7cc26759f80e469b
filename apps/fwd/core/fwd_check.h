/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CHECK_H
#define FWD_CHECK_H

/**
 * @file
 * The slow path's work on a packet, inline: every RFC 1812 check in the
 * order of docs/apps/npool-fwd.md (the first failing one names the drop
 * reason), the route lookup, and the rewrite of a forwarded packet (VID-0
 * tag and padding removed, TTL / hop limit - 1 with an RFC 1624 checksum
 * update, MAC addresses). fwd_classify() is where a packet the one pass
 * (fwd_pass.h) does not take is classified; frames not to the port's
 * unicast MAC and IP broadcast and multicast go on to fwd_cast.h. No PMD
 * packet type is read: vdevs parse nothing for us; the RX checksum flags
 * only on the ports whose PMD checks (fwd_tables.cksum_hw).
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_mbuf.h>

#include "app_compat.h"
#include "fwd_addr.h"
#include "fwd_cast.h"
#include "fwd_em_key.h"
#include "fwd_lookup.h"
#include "fwd_meta.h"
#include "fwd_pkt.h"
#include "fwd_tables.h"

/** Header bytes the checks read: Ethernet, one tag, IPv4 with options. */
#define FWD_HDR_MAX (RTE_ETHER_HDR_LEN + 4 + 60)

static __rte_always_inline bool
fwd_is_tag(uint16_t be_type)
{
	return be_type == RTE_BE16(RTE_ETHER_TYPE_VLAN) ||
		be_type == RTE_BE16(RTE_ETHER_TYPE_QINQ) ||
		be_type == RTE_BE16(RTE_ETHER_TYPE_QINQ1);
}

/** First octets of 0/8, 127/8 and 224/4, a bit per octet value. */
static const uint64_t fwd_v4_martian_octets[4] = {
	UINT64_C(1) << 0,                 /* 0 */
	UINT64_C(1) << 63,                /* 127 */
	0,
	UINT64_C(0xffff) << (224 - 192),  /* 224..239 */
};

/** 0/8, 127/8, 224/4, 255.255.255.255 (host order): one table load. */
static __rte_always_inline bool
fwd_v4_martian(uint32_t a)
{
	return ((fwd_v4_martian_octets[a >> 30] >> ((a >> 24) & 63)) & 1) ||
		a == UINT32_MAX;
}

/**
 * The sum of the five 32-bit words of a 20-byte IPv4 header at @p ip,
 * added with end-around carry: congruent to the one's complement sum of
 * its 16-bit words modulo 0xffff (2^16 and 2^32 are 1 modulo 0xffff), and
 * 0 only for a header of zeros. On x86-64 one load and five adds with
 * carry from memory; the last cannot carry out (the one before left at
 * most 2^16 - 1 when it did).
 */
static __rte_always_inline uint32_t
fwd_sum20(const void *ip)
{
	typedef uint32_t fwd_u32_pvt __attribute__((may_alias, aligned(1)));
	const fwd_u32_pvt *w = (const fwd_u32_pvt *)ip;
#ifdef RTE_ARCH_X86_64
	uint32_t s;

	__asm__("movl %1, %0\n\taddl %2, %0\n\tadcl %3, %0\n\t"
			"adcl %4, %0\n\tadcl %5, %0\n\tadcl $0, %0"
			: "=&r"(s)
			: "m"(w[0]), "m"(w[1]), "m"(w[2]), "m"(w[3]), "m"(w[4])
			: "cc");
	return s;
#else
	uint64_t s = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];

	s = (s & 0xffffffff) + (s >> 32);
	return (uint32_t)(s + (s >> 32));
#endif
}

/** Whether fwd_sum20() of a header is that of a valid one: a multiple
 * of 0xffff (the sum of its 16-bit words 0xffff), when it is not 0. A
 * test for divisibility by an odd number: a multiply by its inverse
 * modulo 2^32 and a compare. */
static __rte_always_inline bool
fwd_sum20_ok(uint32_t s)
{
	/* 0xffff * 0xfffeffff = 1 modulo 2^32; (2^32 - 1) / 0xffff. */
	return s * 0xfffeffffu <= 0x10001u;
}

/** fwd_sum20_ok() as a sign: negative when it is false, so that it is
 * ORed with other such differences and one sign bit tested for all. */
static __rte_always_inline int64_t
fwd_sum20_neg(uint32_t s)
{
	return (int64_t)0x10001 - (int64_t)(uint32_t)(s * 0xfffeffffu);
}

/**
 * Whether an IPv4 header sums to 0xffff, as rte_raw_cksum(ip, ihl) ==
 * 0xffff: fwd_sum20() for the common 20-byte header, the generic loop
 * for options.
 */
static __rte_always_inline bool
fwd_ipv4_cksum_ok(const struct rte_ipv4_hdr *ip, uint32_t ihl)
{
	uint32_t s;

	if (unlikely(ihl != sizeof(*ip)))
		return rte_raw_cksum(ip, ihl) == 0xffff;
	s = fwd_sum20(ip);
	return fwd_sum20_ok(s) & (s != 0);
}

/** What the PMD says of an IPv4 header checksum, as the checks take it. */
enum fwd_ck {
	FWD_CK_SUM,  /**< nothing: sum it */
	FWD_CK_GOOD, /**< the PMD checked it: right */
	FWD_CK_BAD,  /**< the PMD checked it: wrong */
};

/**
 * The PMD's word on the IPv4 header checksum of @p m, received on @p port:
 * on a port whose PMD checks checksums (t->cksum_hw) GOOD and BAD are
 * taken, anything else (UNKNOWN, NONE) is summed; on the others the flags
 * are not read.
 */
static __rte_always_inline enum fwd_ck
fwd_rx_cksum(const struct fwd_tables *t, const struct rte_mbuf *m,
		uint16_t port)
{
	const uint64_t f = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;

	if (!((t->cksum_hw >> (port & 63)) & 1))
		return FWD_CK_SUM;
	return f == RTE_MBUF_F_RX_IP_CKSUM_GOOD ? FWD_CK_GOOD :
		f == RTE_MBUF_F_RX_IP_CKSUM_BAD ? FWD_CK_BAD : FWD_CK_SUM;
}

/** ::, ::1, fe80::/10, ff00::/8. */
static __rte_always_inline bool
fwd_v6_martian(const uint8_t *a)
{
	uint64_t hi, lo;

	if (a[0] == 0xff || (a[0] == 0xfe && (a[1] & 0xc0) == 0x80))
		return true;
	memcpy(&hi, a, sizeof(hi));
	memcpy(&lo, a + 8, sizeof(lo));
	return hi == 0 && (lo == 0 || lo == RTE_BE64(1));
}

/* The drop reason of a route whose next hop is none (FWD_HOP_*). */
static inline int
fwd_hop_reason(uint32_t hop)
{
	switch (hop) {
	case FWD_HOP_LOCAL:
		return FWD_LOCAL;
	case FWD_HOP_BCAST:
		return FWD_BCAST;
	case FWD_HOP_BLACKHOLE:
		return FWD_BLACKHOLE;
	case FWD_HOP_UNREACH:
		return FWD_UNREACHABLE;
	case FWD_HOP_PROHIBIT:
		return FWD_PROHIBIT;
	}
	return FWD_BAD_PORT;
}

/* The route's next hop: no route, a port not enabled, or one of the
 * next-hop table (fwd_nh.h), its egress port and TX buffer into @p md.
 * The tables hold FWD_HOP_BAD for a route to a port outside the port
 * mask (fwd_routes_add()): one compare. */
static __rte_always_inline int
fwd_check_hop(const struct fwd_tables *t, int32_t hop, struct fwd_meta *md)
{
	const struct fwd_nh *nh;

	if (unlikely(hop < 0))
		return FWD_NO_ROUTE;
	if (unlikely((uint32_t)hop >= FWD_NH_MAX))
		/* The router's own addresses and the broadcast addresses
		 * of its prefixes (fwd_addr.h) fail here too. */
		return fwd_hop_reason((uint32_t)hop);
	nh = fwd_nh_get(t->nht, (uint32_t)hop);
	md->nh = nh;
	md->port = nh->port;
	md->tx = nh->tx;
	return FWD_PASS;
}

static __rte_always_inline int
fwd_check_ipv4(const struct fwd_tables *t, const struct rte_mbuf *m,
		const struct rte_ipv4_hdr *ip, uint32_t l3_len,
		struct fwd_meta *md)
{
	uint32_t ihl, tot, dst;
	enum fwd_ck ck;
	int32_t hop;
	int v;

	if (unlikely(l3_len < sizeof(*ip)))
		return FWD_TRUNCATED;
	ihl = (ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * 4u;
	if (unlikely(l3_len < ihl))
		return FWD_TRUNCATED;
	if (unlikely((ip->version_ihl >> 4) != 4))
		return FWD_IP_VERSION;
	if (unlikely(ihl < sizeof(*ip)))
		return FWD_IPV4_IHL;
	tot = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(tot < ihl || tot > l3_len))
		return FWD_IPV4_LEN;
	/* A valid header sums to 0xffff; the PMD's word where it checks. */
	ck = fwd_rx_cksum(t, m, m->port);
	if (unlikely(ck == FWD_CK_BAD ||
			(ck == FWD_CK_SUM && !fwd_ipv4_cksum_ok(ip, ihl))))
		return FWD_IPV4_CSUM;
	dst = rte_be_to_cpu_32(ip->dst_addr);
	if (unlikely(fwd_v4_martian(dst)))
		return FWD_MARTIAN_DST;
	if (unlikely(fwd_v4_martian(rte_be_to_cpu_32(ip->src_addr))))
		return FWD_MARTIAN_SRC;
	/* One of the router's own addresses (fwd_cast.h). */
	if (unlikely(t->own4_octet[((const uint8_t *)&ip->src_addr)[3]]) &&
			fwd_addr_own4(t->addrs, ip->src_addr))
		return FWD_MARTIAN_SRC;
	hop = unlikely(t->lookup == FWD_LOOKUP_EM) ?
		fwd_em_lookup4(t, ip, tot, m->port) : fwd_lookup4(t, dst);
	v = fwd_check_hop(t, hop, md);
	if (unlikely(v != FWD_PASS))
		return v;
	if (unlikely(ip->time_to_live <= 1))
		return FWD_TTL_EXCEEDED;
	md->ip_len = tot;
	md->v6 = false;
	if (unlikely(tot > t->mtu) && tot > fwd_egress_mtu(t, md->port))
		return (ip->fragment_offset &
				RTE_BE16(RTE_IPV4_HDR_DF_FLAG)) != 0 ?
			FWD_MTU : FWD_FRAGMENT;
	return FWD_PASS;
}

static __rte_always_inline int
fwd_check_ipv6(const struct fwd_tables *t, const struct rte_ipv6_hdr *ip,
		uint32_t l3_len, struct fwd_meta *md, uint16_t in_port)
{
	const uint8_t *dst = APP_IPV6_BYTES(ip->dst_addr);
	uint32_t plen;
	int32_t hop;
	int v;

	if (unlikely(l3_len < sizeof(*ip)))
		return FWD_TRUNCATED;
	if (unlikely((*(const uint8_t *)ip >> 4) != 6))
		return FWD_IP_VERSION;
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (unlikely(plen == 0 || plen + sizeof(*ip) > l3_len))
		return FWD_IPV6_LEN;
	if (unlikely(fwd_v6_martian(dst)))
		return FWD_MARTIAN_DST;
	if (unlikely(fwd_v6_martian(APP_IPV6_BYTES(ip->src_addr))))
		return FWD_MARTIAN_SRC;
	hop = unlikely(t->lookup == FWD_LOOKUP_EM) ?
		fwd_em_lookup6(t, ip, plen + sizeof(*ip), in_port) :
		fwd_lookup6(t, dst);
	v = fwd_check_hop(t, hop, md);
	if (unlikely(v != FWD_PASS))
		return v;
	if (unlikely(ip->hop_limits <= 1))
		return FWD_TTL_EXCEEDED;
	md->ip_len = plen + sizeof(*ip);
	md->v6 = true;
	/* Routers do not fragment IPv6. */
	if (unlikely(md->ip_len > t->mtu) &&
			md->ip_len > fwd_egress_mtu(t, md->port))
		return FWD_MTU;
	return FWD_PASS;
}

/* The checks of a frame to the port's MAC (fwd_classify()). */
static __rte_always_inline int
fwd_classify_ip(const struct fwd_tables *t, struct rte_mbuf *m,
		struct fwd_meta *md)
{
	const uint32_t len = m->pkt_len;
	const struct rte_vlan_hdr *vh;
	const uint8_t *p;
	uint32_t l2 = RTE_ETHER_HDR_LEN;
	uint16_t type;

	m->packet_type = 0;
	if (unlikely(len < RTE_ETHER_HDR_LEN))
		return FWD_TRUNCATED;
	/* Headers are read from the first segment only. */
	if (unlikely(m->data_len < RTE_MIN(len, (uint32_t)FWD_HDR_MAX)) &&
			fwd_pkt_pullup(m, RTE_MIN(len, (uint32_t)FWD_HDR_MAX)))
		return FWD_TRUNCATED;
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	type = ((const struct rte_ether_hdr *)p)->ether_type;
	if (unlikely(fwd_is_tag(type))) {
		if (len < l2 + sizeof(*vh))
			return FWD_TRUNCATED;
		vh = (const struct rte_vlan_hdr *)(p + l2);
		if (type != RTE_BE16(RTE_ETHER_TYPE_VLAN) ||
				(vh->vlan_tci & RTE_BE16(0x0fff)) != 0)
			return FWD_VLAN;
		/* A VID-0 priority tag: look behind it (once). */
		type = vh->eth_proto;
		l2 += sizeof(*vh);
		if (fwd_is_tag(type))
			return FWD_VLAN;
	}
	md->l2_len = (uint16_t)l2;
	md->l2_bcast = false;
	m->l2_len = l2;
	if (likely(type == RTE_BE16(RTE_ETHER_TYPE_IPV4))) {
		m->packet_type = RTE_PTYPE_L3_IPV4;
		m->l3_len = (p[l2] & RTE_IPV4_HDR_IHL_MASK) * 4u;
		return fwd_check_ipv4(t, m,
				(const struct rte_ipv4_hdr *)(p + l2),
				len - l2, md);
	}
	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		m->packet_type = RTE_PTYPE_L3_IPV6;
		m->l3_len = sizeof(struct rte_ipv6_hdr);
		return fwd_check_ipv6(t,
				(const struct rte_ipv6_hdr *)(p + l2),
				len - l2, md, m->port);
	}
	if (type == RTE_BE16(RTE_ETHER_TYPE_ARP))
		m->packet_type = RTE_PTYPE_L2_ETHER_ARP;
	return FWD_NOT_IP;
}

/**
 * Check a packet received on m->port that the one pass did not take: the
 * slow path's entry, every rule of docs/apps/npool-fwd.md in order: the
 * IP checks, then, for a frame not to the port's unicast MAC or an IP
 * destination that is no unicast one, what fwd_cast.h says. The headers
 * are made to sit in the first segment (fwd_pkt_pullup()), and what was
 * parsed stays in the mbuf for the router's answers (fwd_icmp.h): l2_len
 * (14, or 18 behind a VID-0 tag; the ARP header too), l3_len (the IPv4
 * header's length, 40 for IPv6) and packet_type (RTE_PTYPE_L2_ETHER_ARP,
 * RTE_PTYPE_L3_IPV4 or RTE_PTYPE_L3_IPV6 once the EtherType is read, else
 * 0).
 *
 * @return A drop reason (enum fwd_reason), FWD_PASS, FWD_FRAGMENT or
 *   FWD_MCAST; for the last three @p md is filled in.
 */
static __rte_always_inline int
fwd_classify(const struct fwd_tables *t, struct rte_mbuf *m,
		struct fwd_meta *md)
{
	int v = fwd_classify_ip(t, m, md);

	if (unlikely(fwd_cast_wants(t, m, v)))
		v = fwd_cast_classify(t, m, md, v);
	return v;
}

/**
 * Rewrite a packet that fwd_classify() passed for its next hop: the
 * VID-0 tag and anything past the IP packet (Ethernet padding) cut, TTL
 * / hop limit - 1, the next hop's MACs. Kernel: ip_decrease_ttl() (RFC
 * 1624 incremental checksum update), pskb_trim_rcsum().
 */
static __rte_always_inline void
fwd_rewrite(struct rte_mbuf *m, const struct fwd_meta *md)
{
	uint8_t *l3 = rte_pktmbuf_mtod_offset(m, uint8_t *, md->l2_len);
	const uint32_t len = RTE_ETHER_HDR_LEN + md->ip_len;

	fwd_ttl_dec(l3, md->v6);
	/* Dropping the 4 tag bytes in front brings the inner EtherType to
	 * offset 12: the MACs are rewritten below anyway. */
	if (unlikely(md->l2_len != RTE_ETHER_HDR_LEN))
		rte_pktmbuf_adj(m, md->l2_len - RTE_ETHER_HDR_LEN);
	/* Ethernet padding (or any trailer) past the IP length goes. */
	if (unlikely(m->pkt_len != len)) {
		if (likely(m->nb_segs == 1)) {
			m->data_len = (uint16_t)len;
			m->pkt_len = len;
		} else {
			fwd_pkt_trim_chain(m, len);
		}
	}
	memcpy(rte_pktmbuf_mtod(m, void *), md->nh->eth16,
			2 * RTE_ETHER_ADDR_LEN);
	if (unlikely(md->l2_bcast))
		memset(rte_pktmbuf_mtod(m, void *), 0xff, RTE_ETHER_ADDR_LEN);
}

#endif /* FWD_CHECK_H */
