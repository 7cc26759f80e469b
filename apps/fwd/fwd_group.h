/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_GROUP_H
#define FWD_GROUP_H

/**
 * @file
 * npool-fwd's checks over a whole burst, in groups of 4 as DPDK's l3fwd
 * (processx4_step1..3) and VPP's ip4-lookup do: the next group's headers
 * prefetched; the plain-IPv4 test of the 4 packets computed into a mask
 * without a branch per condition; one lookup of the 4 destinations
 * (rte_lpm_lookupx4(); with FIB one rte_fib_lookup_bulk() of all the
 * groups' destinations, as l3fwd's FIB path); then the port checks as
 * a mask too and the rewrite (TTL - 1 with an RFC 1624 update, both MACs in
 * one 16-byte store). The plain IPv6 packets of the burst are looked up
 * together after the groups (rte_lpm6_lookup_bulk_func() or
 * rte_fib6_lookup_bulk()). Any other packet, and the last n % 4, take
 * fwd_pkt_decide(): its verdict, drop count and output are the same as
 * one by one, whatever the packet's place in the burst.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_prefetch.h>

#include "fwd_pkt.h"

/** Packets checked together. */
#define FWD_GROUP 4

/** Most packets fwd_pkt_decide_burst() takes at once. */
#define FWD_BURST_MAX FWD_LOOKUP_BULK_MAX

/** 16 bytes in a SIMD register where the CPU has them (GCC vectors). */
typedef uint8_t fwd_v16 __attribute__((vector_size(16)));

/* Read in place of a packet too short for the tests: it fails them all
 * (EtherType 0), and no byte past a packet's data is read. */
static const uint8_t fwd_no_hdr[RTE_ETHER_HDR_LEN +
		sizeof(struct rte_ipv6_hdr)] __rte_aligned(16);

/*
 * 1 when @p m is plain IPv4: one segment holding an untagged frame with
 * a 20-byte header and no padding, TTL above 1, within the MTU, no
 * martian (or class E, left to fwd_classify()) address and a right
 * header checksum unless the PMD said GOOD. All conditions are computed,
 * and'ed without branches; @p dst and @p tot are valid when 1 is returned.
 */
static __rte_always_inline uint32_t
fwd_plain4(const struct fwd_conf *fc, const struct rte_mbuf *m,
		uint32_t *dst, uint16_t *tot)
{
	const uint32_t len = m->pkt_len;
	const uint32_t room = (m->data_len == len) &
		(len >= RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr));
	const uint8_t *p = room ? rte_pktmbuf_mtod(m, const uint8_t *) :
		fwd_no_hdr;
	const struct rte_ipv4_hdr *ip =
		(const struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
	const uint8_t *src = (const uint8_t *)&ip->src_addr;
	const uint32_t t = rte_be_to_cpu_16(ip->total_length);
	uint32_t ok;

	ok = room & (((const struct rte_ether_hdr *)p)->ether_type ==
			RTE_BE16(RTE_ETHER_TYPE_IPV4));
	ok &= ip->version_ihl == (4 << 4 | sizeof(*ip) / 4);
	ok &= t + RTE_ETHER_HDR_LEN == len;
	ok &= ip->time_to_live > 1;
	ok &= t <= fc->mtu;
	/* First octets of source and destination (network order). */
	ok &= !(fwd_fast_octet_odd[src[0]] | fwd_fast_octet_odd[src[4]]);
	ok &= ((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
			RTE_MBUF_F_RX_IP_CKSUM_GOOD) |
		fwd_ipv4_cksum_ok(ip, sizeof(*ip));
	*dst = rte_be_to_cpu_32(ip->dst_addr);
	*tot = (uint16_t)t;
	return ok;
}

/* 1 when @p m is plain IPv6: as fwd_plain4(), the payload not empty. */
static __rte_always_inline uint32_t
fwd_plain6(const struct fwd_conf *fc, const struct rte_mbuf *m)
{
	const uint32_t len = m->pkt_len;
	const uint32_t room = (m->data_len == len) &
		(len >= RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv6_hdr));
	const uint8_t *p = room ? rte_pktmbuf_mtod(m, const uint8_t *) :
		fwd_no_hdr;
	const struct rte_ipv6_hdr *ip =
		(const struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN);
	const uint32_t l3 = rte_be_to_cpu_16(ip->payload_len) + sizeof(*ip);
	uint32_t ok;

	ok = room & (((const struct rte_ether_hdr *)p)->ether_type ==
			RTE_BE16(RTE_ETHER_TYPE_IPV6));
	ok &= (*(const uint8_t *)ip >> 4) == 6;
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

/* 1 when the route's port is enabled (fwd_check_hop() passes). */
static __rte_always_inline uint32_t
fwd_hop_ok(const struct fwd_conf *fc, int32_t hop)
{
	return ((uint32_t)hop < RTE_MAX_ETHPORTS) &
		(uint32_t)((fc->portmask >> (hop & 63)) & 1);
}

/*
 * fwd_rewrite() of a plain packet to @p port: nothing to cut; MACs in one
 * 16-byte load and store keeping bytes 12..15 (EtherType, first bytes of
 * the IP header), as l3fwd's val_eth.
 */
static __rte_always_inline void
fwd_rewrite_plain(const struct fwd_conf *fc, struct rte_mbuf *m,
		uint16_t port, bool v6, struct fwd_meta *md, uint32_t ip_len)
{
	static const fwd_v16 keep = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	fwd_v16 h, mac;

	if (v6) {
		((struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN))->hop_limits--;
	} else {
		struct rte_ipv4_hdr *ip =
			(struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
		uint32_t sum = ip->hdr_checksum;

		/* As fwd_rewrite(): TTL is the high byte of its word. */
		sum += RTE_BE16(0x0100);
		ip->hdr_checksum = (uint16_t)(sum + (sum >= 0xffff));
		ip->time_to_live--;
	}
	memcpy(&h, p, sizeof(h));
	memcpy(&mac, fc->eth16[port], sizeof(mac));
	h = (h & keep) | mac;
	memcpy(p, &h, sizeof(h));
	md->l2_len = RTE_ETHER_HDR_LEN;
	md->ip_len = ip_len;
	md->port = port;
	md->v6 = v6;
}

/* fwd_pkt_decide() without the one-pass check (the group's failed). */
static __rte_always_inline int
fwd_pkt_decide_slow(const struct fwd_conf *fc, struct rte_mbuf *m,
		struct fwd_meta *md, uint64_t *drops)
{
	return fwd_pkt_finish(fc, m, md, drops, fwd_classify(fc, m, md));
}

/**
 * fwd_pkt_decide() of every packet of a burst, in groups of 4 (see the
 * file's comment): what each packet gets, the drop counts and the bytes
 * of a rewritten packet are those of fwd_pkt_decide() one by one.
 *
 * @param pkts
 *   The burst, in RX order; rewritten in place, none freed.
 * @param n
 *   Packets in @p pkts: 0 .. FWD_BURST_MAX.
 * @param[out] verdict
 *   Per packet, fwd_pkt_decide()'s return: FWD_PASS, FWD_FRAGMENT or
 *   the drop reason.
 * @param[out] md
 *   Per packet, for FWD_PASS and FWD_FRAGMENT: where it goes.
 * @param drops
 *   Drop counters of the input port (fwd_pkt_decide()).
 */
static __rte_always_inline void
fwd_pkt_decide_burst(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint8_t *verdict, struct fwd_meta *md,
		uint64_t *drops)
{
	const uint16_t ng = n & ~(FWD_GROUP - 1); /* in whole groups */
	uint8_t ip6[FWD_BURST_MAX][16];
	uint16_t at6[FWD_BURST_MAX], tot[FWD_BURST_MAX];
	uint32_t dst[FWD_BURST_MAX], ok;
	int32_t hop[FWD_BURST_MAX];
	uint64_t plain = 0;
	uint16_t i, k, n6 = 0;

	for (i = 0; i < n && i < FWD_GROUP; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	/* The plain test, four at a time, the next four prefetched; LPM
	 * looks the four up at once, FIB the whole burst after. */
	for (i = 0; i < ng; i += FWD_GROUP) {
		struct rte_mbuf **g = pkts + i;

		for (k = FWD_GROUP; k < 2 * FWD_GROUP && i + k < n; k++)
			rte_prefetch0(rte_pktmbuf_mtod(g[k], void *));
		plain |= (uint64_t)(fwd_plain4(fc, g[0], &dst[i], &tot[i]) |
			fwd_plain4(fc, g[1], &dst[i + 1], &tot[i + 1]) << 1 |
			fwd_plain4(fc, g[2], &dst[i + 2], &tot[i + 2]) << 2 |
			fwd_plain4(fc, g[3], &dst[i + 3], &tot[i + 3]) << 3) << i;
		/* Looked up whatever they are: a non-IPv4 lane reads 0. */
		if (fc->lookup == FWD_LOOKUP_LPM)
			fwd_lookup4x4(fc, &dst[i], &hop[i]);
	}
	if (fc->lookup != FWD_LOOKUP_LPM && ng != 0)
		fwd_lookup4_bulk(fc, dst, hop, ng);
	/* The port checks as a mask, the rewrite; the rest one by one. */
	for (i = 0; i < ng; i += FWD_GROUP) {
		struct rte_mbuf **g = pkts + i;

		ok = (uint32_t)(plain >> i) & (fwd_hop_ok(fc, hop[i]) |
				fwd_hop_ok(fc, hop[i + 1]) << 1 |
				fwd_hop_ok(fc, hop[i + 2]) << 2 |
				fwd_hop_ok(fc, hop[i + 3]) << 3);
		for (k = 0; k < FWD_GROUP; k++) {
			if (likely(ok & (1u << k))) {
				fwd_rewrite_plain(fc, g[k],
						(uint16_t)hop[i + k], false,
						&md[i + k], tot[i + k]);
				verdict[i + k] = FWD_PASS;
			} else if (!((plain >> (i + k)) & 1) &&
					fwd_plain6(fc, g[k])) {
				/* Looked up with the burst's others. */
				memcpy(ip6[n6], rte_pktmbuf_mtod_offset(g[k],
						uint8_t *, RTE_ETHER_HDR_LEN +
						offsetof(struct rte_ipv6_hdr,
							dst_addr)), 16);
				at6[n6++] = i + k;
			} else {
				verdict[i + k] = (uint8_t)fwd_pkt_decide_slow(
						fc, g[k], &md[i + k], drops);
			}
		}
	}
	for (i = ng; i < n; i++)
		verdict[i] = (uint8_t)fwd_pkt_decide(fc, pkts[i], &md[i],
				drops);
	if (n6 == 0)
		return;
	fwd_lookup6_bulk(fc, ip6, hop, n6);
	for (k = 0; k < n6; k++) {
		struct rte_mbuf *m = pkts[at6[k]];

		if (likely(fwd_hop_ok(fc, hop[k]))) {
			fwd_rewrite_plain(fc, m, (uint16_t)hop[k], true,
					&md[at6[k]],
					m->pkt_len - RTE_ETHER_HDR_LEN);
			verdict[at6[k]] = FWD_PASS;
		} else {
			verdict[at6[k]] = (uint8_t)fwd_pkt_decide_slow(fc, m,
					&md[at6[k]], drops);
		}
	}
}

#endif /* FWD_GROUP_H */
