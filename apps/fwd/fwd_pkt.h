/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_PKT_H
#define FWD_PKT_H

/**
 * @file
 * Per-packet work of npool-fwd, inline: the RFC 1812 checks in the order
 * of docs/npool-fwd.md (the first failing one names the drop reason), the
 * route lookup, and the rewrite of a forwarded packet (VID-0 tag and
 * padding removed, TTL / hop limit - 1 with an RFC 1624 checksum update,
 * MAC addresses). No offload is assumed: vdevs parse nothing for us.
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
#include "fwd.h"
#include "fwd_addr.h"
#include "fwd_cast.h"
#include "fwd_em.h"
#include "fwd_lookup.h"

/** Header bytes the checks read: Ethernet, one tag, IPv4 with options. */
#define FWD_HDR_MAX (RTE_ETHER_HDR_LEN + 4 + 60)

/** What the checks learnt about a packet to forward. */
struct fwd_meta {
	uint32_t ip_len;  /**< IP length: header + payload */
	uint16_t l2_len;  /**< 14, or 18 behind a VID-0 tag */
	uint16_t port;    /**< egress port (FWD_MCAST: the route) */
	bool v6;
	/** Leaves as a link broadcast (a directed broadcast forwarded with
	 * --bc-forwarding, fwd_cast.h): destination MAC ff:ff:ff:ff:ff:ff. */
	bool l2_bcast;
};

/**
 * Move the first @p need bytes of a chain into its first segment.
 * @return 0, or -1 if the packet cannot be written (never for RX mbufs).
 */
int fwd_pkt_pullup(struct rte_mbuf *m, uint32_t need);

/** Cut a chain to its first @p len bytes, freeing the segments past. */
void fwd_pkt_trim_chain(struct rte_mbuf *m, uint32_t len);

/**
 * Fragments a packet fwd_pkt_decide() returned FWD_FRAGMENT for will be
 * cut into: the room fwd_pkt_fragment() needs.
 *
 * @return 1 .. 8190, or 0 when it cannot be cut (drop it as frag_fail):
 *   the MTU leaves no 8-byte payload step behind the header, or the last
 *   fragment would end past IP offset 65535 ("ping of death").
 */
uint32_t fwd_pkt_frag_count(const struct fwd_conf *fc,
		const struct rte_mbuf *m, const struct fwd_meta *md);

/**
 * Cut a rewritten packet (FWD_FRAGMENT) into IPv4 fragments of at most
 * fwd_egress_mtu() bytes with rte_ipv4_fragment_packet() (headers in
 * fc->frag_direct, payload by reference through fc->frag_indirect), each
 * behind the packet's Ethernet header (as the rewrite for md->port left
 * it), with a fresh header checksum
 * and mbuf->port @p in_port. Kernel: ip_fragment(). @p m is consumed.
 *
 * @param frags
 *   Room for @p nb fragments.
 * @param nb
 *   fwd_pkt_frag_count() of the packet (not 0).
 * @return The fragments in @p frags (1 .. @p nb); 0 or a negative errno
 *   of rte_ipv4_fragment_packet() when none was made (frag_fail).
 */
int32_t fwd_pkt_fragment(const struct fwd_conf *fc, struct rte_mbuf *m,
		const struct fwd_meta *md, uint16_t in_port,
		struct rte_mbuf **frags, uint32_t nb);

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
 * Whether an IPv4 header sums to 0xffff, as rte_raw_cksum(ip, ihl) ==
 * 0xffff. For the common 20-byte header: two 64-bit loads and a 32-bit
 * one added with end-around carry, a sum congruent to the one's
 * complement sum modulo 0xffff (2^16, 2^32 and 2^64 - 1 are 1 or 0
 * modulo 0xffff); the header sums to 0xffff exactly when that is a
 * multiple of 0xffff and not 0, a test GCC makes with one multiply and
 * one compare (no folding to 16 bits). The generic loop for options.
 */
static __rte_always_inline bool
fwd_ipv4_cksum_ok(const struct rte_ipv4_hdr *ip, uint32_t ihl)
{
	uint64_t a, b, s;
	uint32_t c;

	if (unlikely(ihl != sizeof(*ip)))
		return rte_raw_cksum(ip, ihl) == 0xffff;
	memcpy(&a, ip, sizeof(a));
	memcpy(&b, (const char *)ip + 8, sizeof(b));
	memcpy(&c, (const char *)ip + 16, sizeof(c));
	s = a + b;
	s += s < b;
	s += c;
	s += s < c;
	return (s % 0xffff == 0) & (s != 0);
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

/* The route's port: no route, not enabled, or the egress port. The
 * tables hold FWD_HOP_BAD for a route to a port outside the port mask
 * (fwd_routes_add()): fwd_hop_ok() is one compare. */
static __rte_always_inline int
fwd_check_hop(const struct fwd_conf *fc, int32_t hop, struct fwd_meta *md)
{
	if (unlikely(hop < 0))
		return FWD_NO_ROUTE;
	if (unlikely(hop >= RTE_MAX_ETHPORTS ||
			!(fc->portmask & (UINT64_C(1) << hop))))
		/* The router's own addresses and the broadcast addresses
		 * of its prefixes (fwd_addr.h) fail here too. */
		return hop == FWD_HOP_LOCAL ? FWD_LOCAL :
			hop == FWD_HOP_BCAST ? FWD_BCAST : FWD_BAD_PORT;
	md->port = (uint16_t)hop;
	return FWD_PASS;
}

static __rte_always_inline int
fwd_check_ipv4(const struct fwd_conf *fc, const struct rte_mbuf *m,
		const struct rte_ipv4_hdr *ip, uint32_t l3_len,
		struct fwd_meta *md)
{
	uint32_t ihl, tot, dst;
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
	/* A valid header sums to 0xffff; trust only a PMD that said GOOD. */
	if ((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) !=
			RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
			unlikely(!fwd_ipv4_cksum_ok(ip, ihl)))
		return FWD_IPV4_CSUM;
	dst = rte_be_to_cpu_32(ip->dst_addr);
	if (unlikely(fwd_v4_martian(dst)))
		return FWD_MARTIAN_DST;
	if (unlikely(fwd_v4_martian(rte_be_to_cpu_32(ip->src_addr))))
		return FWD_MARTIAN_SRC;
	/* One of the router's own addresses (fwd_cast.h). */
	if (unlikely(fc->own4_octet[((const uint8_t *)&ip->src_addr)[3]]) &&
			fwd_cast_own_src4(fc, ip->src_addr))
		return FWD_MARTIAN_SRC;
	hop = unlikely(fc->lookup == FWD_LOOKUP_EM) ?
		fwd_em_lookup4(fc, ip, tot, m->port) : fwd_lookup4(fc, dst);
	v = fwd_check_hop(fc, hop, md);
	if (unlikely(v != FWD_PASS))
		return v;
	if (unlikely(ip->time_to_live <= 1))
		return FWD_TTL_EXCEEDED;
	md->ip_len = tot;
	md->v6 = false;
	if (unlikely(tot > fc->mtu) && tot > fwd_egress_mtu(fc, md->port))
		return (ip->fragment_offset &
				RTE_BE16(RTE_IPV4_HDR_DF_FLAG)) != 0 ?
			FWD_MTU : FWD_FRAGMENT;
	return FWD_PASS;
}

static __rte_always_inline int
fwd_check_ipv6(const struct fwd_conf *fc, const struct rte_ipv6_hdr *ip,
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
	hop = unlikely(fc->lookup == FWD_LOOKUP_EM) ?
		fwd_em_lookup6(fc, ip, plen + sizeof(*ip), in_port) :
		fwd_lookup6(fc, dst);
	v = fwd_check_hop(fc, hop, md);
	if (unlikely(v != FWD_PASS))
		return v;
	if (unlikely(ip->hop_limits <= 1))
		return FWD_TTL_EXCEEDED;
	md->ip_len = plen + sizeof(*ip);
	md->v6 = true;
	/* Routers do not fragment IPv6. */
	if (unlikely(md->ip_len > fc->mtu) &&
			md->ip_len > fwd_egress_mtu(fc, md->port))
		return FWD_MTU;
	return FWD_PASS;
}

/* The checks of a frame to the port's MAC (fwd_classify()). */
static __rte_always_inline int
fwd_classify_ip(const struct fwd_conf *fc, struct rte_mbuf *m,
		struct fwd_meta *md)
{
	const uint32_t len = m->pkt_len;
	const struct rte_vlan_hdr *vh;
	const uint8_t *p;
	uint32_t l2 = RTE_ETHER_HDR_LEN;
	uint16_t type;

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
	if (likely(type == RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		return fwd_check_ipv4(fc, m,
				(const struct rte_ipv4_hdr *)(p + l2),
				len - l2, md);
	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV6))
		return fwd_check_ipv6(fc,
				(const struct rte_ipv6_hdr *)(p + l2),
				len - l2, md, m->port);
	return FWD_NOT_IP;
}

/**
 * Check a received packet: the IP checks, then, for a frame not to the
 * port's unicast MAC or an IP destination that is no unicast one, what
 * fwd_cast.h says.
 * @return A drop reason (enum fwd_reason), FWD_PASS, FWD_FRAGMENT or
 *   FWD_MCAST; for the last three @p md is filled in.
 */
static __rte_always_inline int
fwd_classify(const struct fwd_conf *fc, struct rte_mbuf *m,
		struct fwd_meta *md)
{
	int v = fwd_classify_ip(fc, m, md);

	if (unlikely(fwd_cast_wants(fc, m, v)))
		v = fwd_cast_classify(fc, m, md, v);
	return v;
}

/**
 * TTL / hop limit - 1 of the IP header at @p l3. IPv4: TTL is the high
 * byte of its 16-bit word, HC' = HC + 0x0100 with end-around carry,
 * 0xffff folding to 0x0000 (RFC 1624). Kernel: ip_decrease_ttl().
 */
static __rte_always_inline void
fwd_ttl_dec(uint8_t *l3, bool v6)
{
	if (v6) {
		((struct rte_ipv6_hdr *)l3)->hop_limits--;
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)l3;
		uint32_t sum = ip->hdr_checksum;

		sum += RTE_BE16(0x0100);
		ip->hdr_checksum = (uint16_t)(sum + (sum >= 0xffff));
		ip->time_to_live--;
	}
}

/**
 * Rewrite a packet that passed fwd_classify() for its egress port.
 * Kernel: ip_decrease_ttl() (RFC 1624 incremental checksum update).
 */
static __rte_always_inline void
fwd_rewrite(const struct fwd_conf *fc, struct rte_mbuf *m,
		const struct fwd_meta *md)
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
	memcpy(rte_pktmbuf_mtod(m, void *), &fc->l2[md->port],
			sizeof(fc->l2[0]));
	if (unlikely(md->l2_bcast))
		memset(rte_pktmbuf_mtod(m, void *), 0xff, RTE_ETHER_ADDR_LEN);
}

/* The end of a decision @p v: the rewrite of a packet that leaves, or
 * the count of its drop reason (FWD_MCAST: neither, its copies are made
 * at TX). Returns @p v. */
static __rte_always_inline int
fwd_pkt_finish(const struct fwd_conf *fc, struct rte_mbuf *m,
		const struct fwd_meta *md, uint64_t *drops, int v)
{
	if (likely(v == FWD_PASS || v == FWD_FRAGMENT))
		fwd_rewrite(fc, m, md);
	else if (v < FWD_NB_REASONS)
		drops[v]++;
	return v;
}

/** First octets the one-pass check leaves to fwd_classify(): 0, 127 and
 * 224..255 (224/4 and 255.255.255.255 among them). */
static const uint8_t fwd_fast_octet_odd[256] = {
	[0] = 1, [127] = 1, [224 ... 255] = 1,
};

/* Read in place of a packet too short for the tests: it fails them all
 * (EtherType 0), and no byte past a packet's data is read. */
static const uint8_t fwd_no_hdr[RTE_ETHER_HDR_LEN +
		sizeof(struct rte_ipv6_hdr)] __rte_aligned(16);

/** 16 bytes in a SIMD register where the CPU has them (GCC vectors). */
typedef uint8_t fwd_v16 __attribute__((vector_size(16)));

/* The bytes of a frame's first 16 that fwd_plain4() and fwd_plain6()
 * take from fwd_conf.plain_hdr: destination MAC, EtherType, the IP
 * version nibble (and IPv4's IHL). */
static const fwd_v16 fwd_plain_mask4 = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	0xff, 0,
};
static const fwd_v16 fwd_plain_mask6 = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	0xf0, 0,
};

/*
 * 1 when the first 16 bytes at @p p equal @p want where @p mask is set:
 * one load, one xor, one and, one test of the 128 bits (SSE4.1's ptest,
 * else two 64-bit halves). In the SIMD registers: the group path keeps
 * its general registers for the rest.
 */
static __rte_always_inline uint32_t
fwd_v16_match(const uint8_t *p, const uint8_t *want, fwd_v16 mask)
{
	fwd_v16 h, w;

	memcpy(&h, p, sizeof(h));
	memcpy(&w, want, sizeof(w));
	h = (h ^ w) & mask;
#ifdef __SSE4_1__
	return (uint32_t)__builtin_ia32_ptestz128((__v2di)h, (__v2di)h);
#else
	{
		uint64_t lo, hi;

		memcpy(&lo, &h, sizeof(lo));
		memcpy(&hi, (const uint8_t *)&h + 8, sizeof(hi));
		return (lo | hi) == 0;
	}
#endif
}

/** How fwd_plain4() takes the IPv4 header checksum. */
enum fwd_ck {
	FWD_CK_SUM,    /**< sum it: the port has no RX checksum offload */
	FWD_CK_HW,     /**< the PMD's GOOD flag (other flags: not plain) */
	FWD_CK_EITHER, /**< GOOD flag, else the sum (one packet alone) */
};

/** The nb_segs and port words of an mbuf as one 32-bit value: @p want
 * of fwd_plain4() for one whole segment received on @p port. */
static __rte_always_inline uint32_t
fwd_segs_port(uint16_t port)
{
	return 1u | (uint32_t)port << 16;
}

/* nb_segs and port of @p m, side by side: one load. */
static __rte_always_inline uint32_t
fwd_segs_port_of(const struct rte_mbuf *m)
{
	uint32_t v;

	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, port) !=
			offsetof(struct rte_mbuf, nb_segs) + sizeof(uint16_t));
	memcpy(&v, &m->nb_segs, sizeof(v));
	return v;
}

/*
 * 1 when @p m is plain IPv4: one whole segment (nb_segs and port as
 * @p want, data_len = pkt_len) holding an untagged frame to the port's
 * MAC with a 20-byte header and no padding, TTL above 1, within the MTU,
 * no martian (or class E, left to fwd_classify()) address, a source
 * whose last octet is none of the router's addresses' (fwd_cast.h) and
 * a right header checksum as @p ck says. All conditions are computed and and'ed without
 * branches; @p dst and @p tot are valid when 1 is returned. The one
 * IPv4 fast check of npool-fwd: fwd_check_ipv4() is the full one.
 */
static __rte_always_inline uint32_t
fwd_plain4(const struct fwd_conf *fc, const struct rte_mbuf *m,
		uint32_t want, enum fwd_ck ck, uint32_t *dst, uint16_t *tot)
{
	const uint32_t len = m->pkt_len;
	const uint32_t room = (m->data_len == len) &
		(fwd_segs_port_of(m) == want) &
		(len >= RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr));
	const uint8_t *p = room ? rte_pktmbuf_mtod(m, const uint8_t *) :
		fwd_no_hdr;
	const struct rte_ipv4_hdr *ip =
		(const struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
	const uint8_t *src = (const uint8_t *)&ip->src_addr;
	const uint32_t t = rte_be_to_cpu_16(ip->total_length);
	const uint32_t good = (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
		RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	uint32_t ok;

	/* To the port's MAC, EtherType IPv4, version 4, IHL 5. */
	ok = room & fwd_v16_match(p, fc->plain_hdr[(want >> 16) &
			(RTE_MAX_ETHPORTS - 1)][0], fwd_plain_mask4);
	ok &= t + RTE_ETHER_HDR_LEN == len;
	ok &= ip->time_to_live > 1;
	ok &= t <= fc->mtu;
	/* First octets of source and destination (network order). */
	ok &= !(fwd_fast_octet_odd[src[0]] | fwd_fast_octet_odd[src[4]] |
			fc->own4_octet[src[3]]);
	if (ck == FWD_CK_HW)
		ok &= good;
	else if (ck == FWD_CK_SUM)
		ok &= fwd_ipv4_cksum_ok(ip, sizeof(*ip));
	else
		ok &= good | fwd_ipv4_cksum_ok(ip, sizeof(*ip));
	*dst = rte_be_to_cpu_32(ip->dst_addr);
	*tot = (uint16_t)t;
	return ok;
}

/* 1 when @p m is plain IPv6: as fwd_plain4() (but the source's octet),
 * the payload not empty. */
static __rte_always_inline uint32_t
fwd_plain6(const struct fwd_conf *fc, const struct rte_mbuf *m,
		uint32_t want)
{
	const uint32_t len = m->pkt_len;
	const uint32_t room = (m->data_len == len) &
		(fwd_segs_port_of(m) == want) &
		(len >= RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv6_hdr));
	const uint8_t *p = room ? rte_pktmbuf_mtod(m, const uint8_t *) :
		fwd_no_hdr;
	const struct rte_ipv6_hdr *ip =
		(const struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN);
	const uint32_t l3 = rte_be_to_cpu_16(ip->payload_len) + sizeof(*ip);
	uint32_t ok;

	/* To the port's MAC, EtherType IPv6, version 6. */
	ok = room & fwd_v16_match(p, fc->plain_hdr[(want >> 16) &
			(RTE_MAX_ETHPORTS - 1)][1], fwd_plain_mask6);
	ok &= l3 != sizeof(*ip);
	ok &= l3 + RTE_ETHER_HDR_LEN == len;
	ok &= ip->hop_limits > 1;
	ok &= l3 <= fc->mtu;
	if (!ok)
		return 0;
	/* Both tests run (no branch between them): as ints, for clang. */
	return (uint32_t)!fwd_v6_martian(APP_IPV6_BYTES(ip->dst_addr)) &
		(uint32_t)!fwd_v6_martian(APP_IPV6_BYTES(ip->src_addr));
}

/* 1 when a looked-up port may be sent to: the tables hold FWD_HOP_BAD
 * for a port outside the port mask, -1 is no route (fwd_check_hop()). */
static __rte_always_inline uint32_t
fwd_hop_ok(int32_t hop)
{
	return (uint32_t)hop < RTE_MAX_ETHPORTS;
}

/*
 * fwd_rewrite() of a plain packet to @p port: nothing to cut; MACs in one
 * 16-byte load and store keeping bytes 12..15 (EtherType, first bytes of
 * the IP header), as l3fwd's val_eth.
 */
static __rte_always_inline void
fwd_rewrite_plain(const struct fwd_conf *fc, struct rte_mbuf *m,
		uint16_t port, bool v6)
{
	static const fwd_v16 keep = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	fwd_v16 h, mac;

	fwd_ttl_dec(p + RTE_ETHER_HDR_LEN, v6);
	memcpy(&h, p, sizeof(h));
	memcpy(&mac, fc->eth16[port], sizeof(mac));
	h = (h & keep) | mac;
	memcpy(p, &h, sizeof(h));
}

/* What fwd_classify() says of a plain packet to @p port. */
static __rte_always_inline void
fwd_meta_plain(struct fwd_meta *md, uint16_t port, uint32_t ip_len,
		bool v6)
{
	md->l2_len = RTE_ETHER_HDR_LEN;
	md->ip_len = ip_len;
	md->port = port;
	md->v6 = v6;
	md->l2_bcast = false;
}

/**
 * The per-packet decision of the forwarding loop: the checks (one pass
 * for plain IPv4, fwd_plain4(), else fwd_classify()), then the rewrite
 * of a packet that leaves, or the count of its drop reason.
 * fwd_pkt_decide_burst() (fwd_group.h) does it for a burst.
 *
 * @param drops
 *   Drop counters of the input port, indexed by enum fwd_reason: a
 *   dropped packet increments exactly its reason's.
 * @return FWD_PASS (rewritten, @p md says where to), FWD_FRAGMENT
 *   (rewritten, for fwd_pkt_fragment()) or the drop reason (left as it
 *   came, for the caller to free).
 */
static __rte_always_inline int
fwd_pkt_decide(const struct fwd_conf *fc, struct rte_mbuf *m,
		struct fwd_meta *md, uint64_t *drops)
{
	uint32_t dst;
	uint16_t tot;
	int32_t hop;

	/* Whatever port it came in on: mbuf->port is the caller's. EM
	 * keys on more than the destination: fwd_classify() has it. */
	if (fc->lookup != FWD_LOOKUP_EM && fwd_plain4(fc, m,
			fwd_segs_port(m->port), FWD_CK_EITHER, &dst, &tot)) {
		hop = fwd_lookup4(fc, dst);
		if (likely(fwd_hop_ok(hop))) {
			fwd_rewrite_plain(fc, m, (uint16_t)hop, false);
			fwd_meta_plain(md, (uint16_t)hop, tot, false);
			return FWD_PASS;
		}
	}
	return fwd_pkt_finish(fc, m, md, drops, fwd_classify(fc, m, md));
}

#endif /* FWD_PKT_H */
