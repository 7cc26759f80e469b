/* SPDX-License-Identifier: BSD-3-Clause */
/* The packet kinds of fwd_pass_test.c and their frames. */
#include <string.h>

#include <rte_ip.h>

#include "unit_common.h"
#include "fwd_check.h"
#include "fwd_unit.h"
#include "fwd_pass_kinds.h"

#define A4(a, b, c, d) { a, b, c, d }
#define A6(h0, h1, h2, last) { h0 >> 8, h0 & 0xff, h1 >> 8, h1 & 0xff, \
	h2 >> 8, h2 & 0xff, [15] = last }
/* The same verdict with and without the offload. */
#define SAME(v, p, f) v, p, f, v, p, f

const struct kind kinds[NB_KINDS] = {
	{ "plain4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, PLAIN, SAME(FWD_PASS, 1, 1) },
	{ "plain4-port2", 0, A4(10, 9, 9, 9), A4(192, 0, 2, 1), 2, 100, 1, 0,
		NONE, PLAIN, SAME(FWD_PASS, 2, 1) },
	{ "tbl8-route", 0, A4(198, 18, 5, 200), A4(192, 0, 2, 1), 64, 46, 0,
		0, NONE, PLAIN, SAME(FWD_PASS, 2, 1) },
	{ "martian-dst", 0, A4(127, 0, 0, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, PLAIN, SAME(FWD_MARTIAN_DST, -1, 0) },
	{ "martian-src", 0, A4(198, 18, 1, 1), A4(224, 0, 0, 5), 64, 46, 0, 0,
		NONE, PLAIN, SAME(FWD_MARTIAN_SRC, -1, 0) },
	{ "bcast-dst", 0, A4(255, 255, 255, 255), A4(192, 0, 2, 1), 64, 46, 0,
		0, NONE, PLAIN, SAME(FWD_BCAST, -1, 0) },
	{ "ttl1", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 1, 46, 0, 0, NONE,
		PLAIN, SAME(FWD_TTL_EXCEEDED, -1, 0) },
	{ "bad-csum", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 1,
		NONE, PLAIN, SAME(FWD_IPV4_CSUM, -1, 0) },
	/* The PMD's word is taken only on a port whose PMD checks. */
	{ "bad-csum-pmd-good", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64,
		46, 0, 1, GOOD, PLAIN, FWD_IPV4_CSUM, -1, 0, FWD_PASS, 1, 1 },
	{ "pmd-bad", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		BAD, PLAIN, FWD_PASS, 1, 1, FWD_IPV4_CSUM, -1, 0 },
	{ "no-route4", 0, A4(203, 0, 113, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, PLAIN, SAME(FWD_NO_ROUTE, -1, 0) },
	{ "class-e", 0, A4(240, 0, 0, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, PLAIN, SAME(FWD_NO_ROUTE, -1, 0) },
	{ "bad-port4", 0, A4(198, 18, 3, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, PLAIN, SAME(FWD_BAD_PORT, -1, 0) },
	{ "padded4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 28, 0, 0,
		NONE, PAD, SAME(FWD_PASS, 1, 1) },
	{ "vlan0", 0, A4(10, 1, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, NONE,
		VLAN0, SAME(FWD_PASS, 2, 0) },
	{ "vlan5", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, VLAN5, SAME(FWD_VLAN, -1, 0) },
	{ "options", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 48, 0, 0,
		NONE, OPTIONS, SAME(FWD_PASS, 1, 0) },
	{ "chain", 0, A4(10, 2, 2, 2), A4(192, 0, 2, 1), 64, 200, 0, 0, NONE,
		CHAIN, SAME(FWD_PASS, 2, 0) },
	{ "foreign-port", 0, A4(10, 2, 2, 3), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, FOREIGN_PORT, SAME(FWD_PASS, 2, 0) },
	/* Frames not for the port's MAC: the slow path (fwd_cast.h). */
	{ "l2-other4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, OTHER_MAC, SAME(FWD_L2_OTHERHOST, -1, 0) },
	{ "l2-bcast4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, BCAST_MAC, SAME(FWD_L2_BCAST, -1, 0) },
	{ "l2-mcast6", 1, A6(0x2001, 0xdb8, 0, 1), A6(0x2001, 0xdb8, 9, 1),
		64, 60, 0, 0, NONE, MCAST_MAC, SAME(FWD_L2_MCAST, -1, 0) },
	{ "mcast4", 0, A4(225, 1, 2, 3), A4(192, 0, 2, 1), 64, 46, 0, 0,
		NONE, MCAST_MAC, SAME(FWD_MCAST, 1, 0) },
	{ "mcast6-no-route", 1, A6(0xff0e, 0, 0, 3), A6(0x2001, 0xdb8, 9, 1),
		64, 60, 0, 0, NONE, MCAST_MAC, SAME(FWD_MC_NO_ROUTE, -1, 0) },
	{ "arp", 0, { 0 }, { 0 }, 0, 0, 0, 0, NONE, ARP,
		SAME(FWD_NOT_IP, -1, 0) },
	{ "fragment", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 1600, 0, 0,
		NONE, PLAIN, SAME(FWD_FRAGMENT, 1, 0) },
	{ "df-mtu", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 1600, 1, 0,
		NONE, PLAIN, SAME(FWD_MTU, -1, 0) },
	{ "plain6", 1, A6(0x2001, 0xdb8, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, NONE, PLAIN, SAME(FWD_PASS, 2, 0) },
	{ "hlim1-6", 1, A6(0x2001, 0xdb8, 0, 1), A6(0x2001, 0xdb8, 9, 1), 1,
		60, 0, 0, NONE, PLAIN, SAME(FWD_TTL_EXCEEDED, -1, 0) },
	{ "no-route6", 1, A6(0x2001, 0xdb9, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, NONE, PLAIN, SAME(FWD_NO_ROUTE, -1, 0) },
	{ "bad-port6", 1, A6(0x2001, 0xdb8, 3, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, NONE, PLAIN, SAME(FWD_BAD_PORT, -1, 0) },
	{ "martian6", 1, A6(0xfe80, 0, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64, 60,
		0, 0, NONE, PLAIN, SAME(FWD_MARTIAN_DST, -1, 0) },
	{ "padded6", 1, A6(0x2001, 0xdb8, 0, 2), A6(0x2001, 0xdb8, 9, 1), 64,
		41, 0, 0, NONE, PAD, SAME(FWD_PASS, 2, 0) },
};


uint8_t frame[NB_KINDS][FRAME_MAX];
uint32_t frame_len[NB_KINDS];

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The frame of kind @p k into frame[k]: to port 0's MAC, unless its
 * shape says otherwise. */
void
kind_build(unsigned int k)
{
	const struct kind *d = &kinds[k];
	uint8_t *f = frame[k], *ip;
	uint32_t l2 = RTE_ETHER_HDR_LEN, ihl, i;
	uint16_t sum;

	memset(f, 0, FRAME_MAX);
	fu_port_mac(0, f);
	if (d->shape == OTHER_MAC)
		f[5] = 0x77;
	else if (d->shape == BCAST_MAC)
		memset(f, 0xff, 6);
	else if (d->shape == MCAST_MAC)
		memcpy(f, d->v6 ? "\x33\x33\x00\x00\x00\x01" :
				"\x01\x00\x5e\x01\x02\x03", 6);
	memset(f + 6, 0xbb, 6);
	if (d->shape == VLAN0 || d->shape == VLAN5) {
		put16(f + 12, RTE_ETHER_TYPE_VLAN);
		put16(f + 14, d->shape == VLAN0 ? 0x6000 : 0x6005);
		l2 += 4;
	}
	if (d->shape == ARP) {
		put16(f + 12, RTE_ETHER_TYPE_ARP);
		for (i = 14; i < 60; i++)
			f[i] = (uint8_t)i;
		frame_len[k] = 60;
		return;
	}
	put16(f + l2 - 2, d->v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);
	ip = f + l2;
	for (i = 0; i < d->ip_len; i++)
		ip[i] = (uint8_t)(i * 7 + k);
	if (d->v6) {
		memset(ip, 0, 40);
		ip[0] = 0x60;
		put16(ip + 4, (uint16_t)(d->ip_len - 40));
		ip[6] = 17;
		ip[7] = d->ttl;
		memcpy(ip + 8, d->src, 16);
		memcpy(ip + 24, d->dst, 16);
	} else {
		ihl = d->shape == OPTIONS ? 24 : 20;
		memset(ip, 0, ihl);
		ip[0] = (uint8_t)(0x40 | ihl / 4);
		put16(ip + 2, d->ip_len);
		put16(ip + 4, (uint16_t)(0x1234 + k));
		put16(ip + 6, d->df ? RTE_IPV4_HDR_DF_FLAG : 0);
		ip[8] = d->ttl;
		ip[9] = 17;
		memcpy(ip + 12, d->src, 4);
		memcpy(ip + 16, d->dst, 4);
		if (d->shape == OPTIONS)
			ip[20] = 1; /* NOP options */
		sum = (uint16_t)~rte_raw_cksum(ip, ihl);
		memcpy(ip + 10, &sum, 2);
		if (d->bad_csum)
			ip[11] ^= 0x5a;
	}
	frame_len[k] = l2 + d->ip_len;
	if (d->shape == PAD)
		frame_len[k] = RTE_MAX(frame_len[k] + 6, 60u);
}

/* Kind @p k as a packet from @p pool (a chain of 2 for CHAIN), received
 * on port 0. */
struct rte_mbuf *
kind_packet(unsigned int k, struct rte_mempool *pool)
{
	const uint32_t len = frame_len[k];
	const uint32_t first = kinds[k].shape == CHAIN ? 20 : len;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool), *s;

	assert_non_null(m);
	memcpy(rte_pktmbuf_append(m, (uint16_t)first), frame[k], first);
	if (first < len) {
		s = rte_pktmbuf_alloc(pool);
		assert_non_null(s);
		memcpy(rte_pktmbuf_append(s, (uint16_t)(len - first)),
				frame[k] + first, len - first);
		assert_int_equal(rte_pktmbuf_chain(m, s), 0);
	}
	if (kinds[k].flag == GOOD)
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	else if (kinds[k].flag == BAD)
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
	m->port = kinds[k].shape == FOREIGN_PORT ? 5 : 0;
	return m;
}
