/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's grouped checks (apps/fwd/fwd_group.h) against its checks one
 * packet at a time (fwd_pkt_decide()): bursts of every 4-tuple of packet
 * kinds (plain IPv4 and IPv6, martians, TTL 1, bad checksum with and
 * without the PMD's GOOD, no route, a disabled port, class E, padding,
 * VID-0 and other tags, IPv4 options, a chain, non-IP, above the MTU,
 * frames to another MAC, to a link broadcast or multicast, IP broadcast
 * and multicast with and without a route),
 * each tuple in the first group of 4 and a tail after it, for --lookup
 * lpm and fib. Each packet must get its kind's verdict and port (written
 * out here), the bytes fwd_pkt_decide() gives it alone, and the drop
 * counters the sum of the kinds' reasons.
 */
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "unit_common.h"
#include "fwd_group.h"
#include "fwd_mcast.h"
#include "fwd_unit.h"

/* Routes to port 3 are loaded with -p 0xf and then hit -p 0x7. */
static const char routes4[] =
	"R198.18.0.0/16 1\nR198.18.3.0/24 3\nR10.0.0.0/8 2\n";
static const char routes6[] = "R2001:db8::/32 2\nR2001:db8:3::/48 3\n";
static const char mroutes[] =
	"mroute from 0 source 192.0.2.1 group 225.1.2.3 to 1 2\n";

#define FRAME_MAX 1700

enum shape { PLAIN, PAD, VLAN0, VLAN5, OPTIONS, CHAIN, ARP };

struct kind {
	const char *name;
	int v6;
	uint8_t dst[16], src[16];
	uint8_t ttl;
	uint16_t ip_len;        /* IP header + payload */
	int df, bad_csum, good_flag;
	enum shape shape;
	int verdict;            /* what the rules give */
	int port;               /* FWD_PASS / FWD_FRAGMENT; FWD_MCAST: route */
	enum { TO_PORT, TO_OTHER, TO_BCAST, TO_MCAST } l2; /* the frame's */
};

#define A4(a, b, c, d) { a, b, c, d }
#define A6(h0, h1, h2, last) { h0 >> 8, h0 & 0xff, h1 >> 8, h1 & 0xff, \
	h2 >> 8, h2 & 0xff, [15] = last }

static const struct kind kinds[] = {
	{ "plain4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		PLAIN, FWD_PASS, 1, TO_PORT },
	{ "plain4-port2", 0, A4(10, 9, 9, 9), A4(192, 0, 2, 1), 2, 100, 1, 0,
		0, PLAIN, FWD_PASS, 2, TO_PORT },
	{ "martian-dst", 0, A4(127, 0, 0, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		0, PLAIN, FWD_MARTIAN_DST, -1, TO_PORT },
	{ "martian-src", 0, A4(198, 18, 1, 1), A4(224, 0, 0, 5), 64, 46, 0, 0,
		0, PLAIN, FWD_MARTIAN_SRC, -1, TO_PORT },
	{ "bcast-dst", 0, A4(255, 255, 255, 255), A4(192, 0, 2, 1), 64, 46, 0,
		0, 0, PLAIN, FWD_BCAST, -1, TO_PORT },
	{ "l2-other4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		PLAIN, FWD_L2_OTHERHOST, -1, TO_OTHER },
	{ "l2-bcast4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		PLAIN, FWD_L2_BCAST, -1, TO_BCAST },
	{ "mcast4", 0, A4(225, 1, 2, 3), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		PLAIN, FWD_MCAST, 0, TO_MCAST },
	{ "ttl1", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 1, 46, 0, 0, 0,
		PLAIN, FWD_TTL_EXCEEDED, -1, TO_PORT },
	{ "bad-csum", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 1,
		0, PLAIN, FWD_IPV4_CSUM, -1, TO_PORT },
	{ "bad-csum-pmd-good", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46,
		0, 1, 1, PLAIN, FWD_PASS, 1, TO_PORT },
	{ "no-route4", 0, A4(203, 0, 113, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		0, PLAIN, FWD_NO_ROUTE, -1, TO_PORT },
	{ "class-e", 0, A4(240, 0, 0, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		PLAIN, FWD_NO_ROUTE, -1, TO_PORT },
	{ "bad-port4", 0, A4(198, 18, 3, 1), A4(192, 0, 2, 1), 64, 46, 0, 0,
		0, PLAIN, FWD_BAD_PORT, -1, TO_PORT },
	{ "padded4", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 28, 0, 0, 0,
		PAD, FWD_PASS, 1, TO_PORT },
	{ "vlan0", 0, A4(10, 1, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		VLAN0, FWD_PASS, 2, TO_PORT },
	{ "vlan5", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 46, 0, 0, 0,
		VLAN5, FWD_VLAN, -1, TO_PORT },
	{ "options", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 48, 0, 0, 0,
		OPTIONS, FWD_PASS, 1, TO_PORT },
	{ "chain", 0, A4(10, 2, 2, 2), A4(192, 0, 2, 1), 64, 200, 0, 0, 0,
		CHAIN, FWD_PASS, 2, TO_PORT },
	{ "arp", 0, { 0 }, { 0 }, 0, 0, 0, 0, 0, ARP, FWD_NOT_IP, -1, TO_PORT },
	{ "fragment", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 1600, 0, 0,
		0, PLAIN, FWD_FRAGMENT, 1, TO_PORT },
	{ "df-mtu", 0, A4(198, 18, 1, 1), A4(192, 0, 2, 1), 64, 1600, 1, 0, 0,
		PLAIN, FWD_MTU, -1, TO_PORT },
	{ "plain6", 1, A6(0x2001, 0xdb8, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, 0, PLAIN, FWD_PASS, 2, TO_PORT },
	{ "hlim1-6", 1, A6(0x2001, 0xdb8, 0, 1), A6(0x2001, 0xdb8, 9, 1), 1,
		60, 0, 0, 0, PLAIN, FWD_TTL_EXCEEDED, -1, TO_PORT },
	{ "no-route6", 1, A6(0x2001, 0xdb9, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, 0, PLAIN, FWD_NO_ROUTE, -1, TO_PORT },
	{ "bad-port6", 1, A6(0x2001, 0xdb8, 3, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, 0, PLAIN, FWD_BAD_PORT, -1, TO_PORT },
	{ "martian6", 1, A6(0xfe80, 0, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64, 60,
		0, 0, 0, PLAIN, FWD_MARTIAN_DST, -1, TO_PORT },
	{ "padded6", 1, A6(0x2001, 0xdb8, 0, 2), A6(0x2001, 0xdb8, 9, 1), 64,
		41, 0, 0, 0, PAD, FWD_PASS, 2, TO_PORT },
	{ "l2-mcast6", 1, A6(0x2001, 0xdb8, 0, 1), A6(0x2001, 0xdb8, 9, 1), 64,
		60, 0, 0, 0, PLAIN, FWD_L2_MCAST, -1, TO_MCAST },
	{ "mcast6-no-route", 1, A6(0xff0e, 0, 0, 3), A6(0x2001, 0xdb8, 9, 1),
		64, 60, 0, 0, 0, PLAIN, FWD_MC_NO_ROUTE, -1, TO_MCAST },
};

#define NB_KINDS RTE_DIM(kinds)

static uint8_t frame[NB_KINDS][FRAME_MAX];
static uint32_t frame_len[NB_KINDS];
/* What fwd_pkt_decide() gives each kind alone. */
static int ref_verdict[NB_KINDS];
static struct fwd_meta ref_md[NB_KINDS];
static uint8_t ref_out[NB_KINDS][FRAME_MAX];
static uint32_t ref_len[NB_KINDS];
static struct rte_mempool *pool;

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The frame of kind @p k into frame[k]. */
static void
build(unsigned int k)
{
	const struct kind *d = &kinds[k];
	uint8_t *f = frame[k], *ip;
	uint32_t l2 = RTE_ETHER_HDR_LEN, ihl, i;
	uint16_t sum;

	static const uint8_t dst[][6] = {
		[TO_PORT] = { 0x02, 0, 0, 0, 0x01, 0 }, /* fu_conf_init()'s */
		[TO_OTHER] = { 0x02, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa },
		[TO_BCAST] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		[TO_MCAST] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06 },
	};

	memset(f, 0, FRAME_MAX);
	memcpy(f, dst[d->l2], 6);
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

/* Kind @p k as a packet from the pool (a chain of 2 for CHAIN). */
static struct rte_mbuf *
packet(unsigned int k)
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
	if (kinds[k].good_flag)
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	m->port = 0; /* received on port 0, as the bursts are */
	return m;
}

/* The verdicts, metadata and bytes of each kind checked alone. */
static void
reference(const struct fwd_conf *fc)
{
	uint64_t drops[FWD_NB_REASONS];
	struct rte_mbuf *m;
	unsigned int k;

	for (k = 0; k < NB_KINDS; k++) {
		memset(drops, 0, sizeof(drops));
		m = packet(k);
		memset(&ref_md[k], 0, sizeof(ref_md[k]));
		ref_verdict[k] = fwd_pkt_decide(fc, m, &ref_md[k], drops);
		if (ref_verdict[k] != kinds[k].verdict ||
				(kinds[k].port >= 0 &&
				 ref_md[k].port != kinds[k].port))
			fail_msg("%s alone: verdict %d port %u, want %d %d",
					kinds[k].name, ref_verdict[k],
					ref_md[k].port, kinds[k].verdict,
					kinds[k].port);
		ref_len[k] = m->pkt_len;
		assert_true(ref_len[k] <= FRAME_MAX);
		memmove(ref_out[k], rte_pktmbuf_read(m, 0, m->pkt_len,
				ref_out[k]), m->pkt_len);
		rte_pktmbuf_free(m);
	}
}

/* One burst of the kinds in @p ks through fwd_pkt_decide_burst(): each
 * packet's verdict, meta and bytes as alone, the forwarded ones written
 * out in order with their ports, the others in the drop list. */
static void
check_burst(const struct fwd_conf *fc, const unsigned int *ks, uint16_t n)
{
	uint64_t drops[FWD_NB_REASONS] = { 0 }, want[FWD_NB_REASONS] = { 0 };
	static uint8_t out[FRAME_MAX];
	struct rte_mbuf *pkts[FWD_BURST_MAX], *orig[FWD_BURST_MAX];
	struct fwd_meta md[FWD_BURST_MAX];
	uint8_t verdict[FWD_BURST_MAX];
	struct fwd_burst b;
	uint64_t ports = 0;
	unsigned int i, j, k, nf = 0, nd = 0;

	for (i = 0; i < n; i++) {
		pkts[i] = orig[i] = packet(ks[i]);
		pkts[i]->port = 0;
	}
	fwd_pkt_decide_burst_pvt(fc, pkts, n, 0, &b, drops, verdict, md);
	for (i = 0; i < n; i++) {
		k = ks[i];
		if (verdict[i] != ref_verdict[k])
			fail_msg("lookup %d: %s at %u of %u: verdict %d, alone %d",
					fc->lookup, kinds[k].name, i, n,
					verdict[i], ref_verdict[k]);
		if (ref_verdict[k] < FWD_NB_REASONS) {
			want[ref_verdict[k]]++;
			/* In any order: IPv6 ones come after the groups. */
			for (j = 0; j < b.nd && b.drop[j] != orig[i]; j++)
				;
			if (j == b.nd)
				fail_msg("%s at %u: not in the drop list",
						kinds[k].name, i);
			nd++;
		} else if (md[i].port != ref_md[k].port ||
				md[i].l2_len != ref_md[k].l2_len ||
				md[i].ip_len != ref_md[k].ip_len ||
				md[i].v6 != ref_md[k].v6) {
			fail_msg("%s at %u: meta differs", kinds[k].name, i);
		} else if (nf >= b.nf || pkts[nf] != orig[i] ||
				b.dst[nf] != (md[i].port |
					(verdict[i] == FWD_FRAGMENT ?
					 FWD_DST_FRAG : 0) |
					(verdict[i] == FWD_MCAST ?
					 FWD_DST_MCAST : 0))) {
			fail_msg("%s at %u: not forwarded in order to %u",
					kinds[k].name, i, md[i].port);
		} else {
			ports |= UINT64_C(1) << md[i].port;
			nf++;
		}
		if (orig[i]->pkt_len != ref_len[k] ||
				memcmp(rte_pktmbuf_read(orig[i], 0, ref_len[k],
						out), ref_out[k],
					ref_len[k]) != 0)
			fail_msg("lookup %d: %s at %u of %u: bytes differ",
					fc->lookup, kinds[k].name, i, n);
		rte_pktmbuf_free(orig[i]);
	}
	assert_int_equal(nf, b.nf);
	assert_int_equal(nd, b.nd);
	assert_true(b.ports == ports);
	assert_memory_equal(drops, want, sizeof(drops));
}

/* Every 4-tuple of kinds as a group, then a tail of 0..4 packets. */
static void
check_lookup(enum fwd_lookup lookup)
{
	unsigned int ks[FWD_GROUP + 4], t, j, n;
	struct fwd_conf fc;

	fu_conf_init(&fc, lookup, 0xf, routes4, routes6);
	fu_conf_mroutes(&fc, mroutes);
	fu_conf_portmask(&fc, 0x7);
	for (t = 0; t < NB_KINDS; t++)
		build(t);
	reference(&fc);
	for (t = 0; t < NB_KINDS * NB_KINDS * NB_KINDS * NB_KINDS; t++) {
		for (j = 0, n = t; j < FWD_GROUP; j++, n /= NB_KINDS)
			ks[j] = n % NB_KINDS;
		n = FWD_GROUP + t % 5;
		for (j = FWD_GROUP; j < n; j++)
			ks[j] = (ks[j - FWD_GROUP] + j) % NB_KINDS;
		/* Port 0 summing, then trusting its PMD's flags. */
		fc.cksum_hw = t & 1;
		check_burst(&fc, ks, (uint16_t)n);
	}
	fwd_mroutes_free(&fc);
	fwd_routes_free(&fc);
	assert_int_equal(rte_mempool_avail_count(pool), pool->size);
}

static void
test_groups_agree_with_one_by_one_lpm(void **state __rte_unused)
{
	check_lookup(FWD_LOOKUP_LPM);
}

static void
test_groups_agree_with_one_by_one_fib(void **state __rte_unused)
{
	check_lookup(FWD_LOOKUP_FIB);
}

/* A full burst of plain packets of both families, one IPv6 packet in
 * every second place: the IPv6 bulk lookup sees them all. */
static void
test_full_burst_mixed_families(void **state __rte_unused)
{
	unsigned int ks[FWD_BURST_MAX], i, plain4 = 0, plain6 = 0;
	struct fwd_conf fc;

	for (i = 0; i < NB_KINDS; i++) {
		if (strcmp(kinds[i].name, "plain4") == 0)
			plain4 = i;
		if (strcmp(kinds[i].name, "plain6") == 0)
			plain6 = i;
	}
	fu_conf_init(&fc, FWD_LOOKUP_LPM, 0xf, routes4, routes6);
	fu_conf_mroutes(&fc, mroutes);
	fu_conf_portmask(&fc, 0x7);
	for (i = 0; i < NB_KINDS; i++)
		build(i);
	reference(&fc);
	for (i = 0; i < FWD_BURST_MAX; i++)
		ks[i] = i % 2 ? plain6 : plain4;
	check_burst(&fc, ks, FWD_BURST_MAX);
	for (i = 0; i < FWD_BURST_MAX; i++)
		ks[i] = plain6;
	check_burst(&fc, ks, FWD_BURST_MAX);
	fwd_mroutes_free(&fc);
	fwd_routes_free(&fc);
}

/*
 * The 20-byte checksum test against rte_raw_cksum(): random headers,
 * each also with its checksum made right, plus the edge sums (all
 * zero: 0, not valid; all 0xff: 0xffff, valid; carries out of both
 * 64-bit adds).
 */
static void
test_cksum_against_rte(void **state __rte_unused)
{
	uint8_t h[20];
	unsigned int i, k, valid = 0;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (i = 0; i < 200000; i++) {
		const struct rte_ipv4_hdr *ip = (const void *)h;

		for (k = 0; k < sizeof(h); k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Mostly 0xff bytes one time in four: long carries. */
			h[k] = (i & 3) == 0 && (x & 7) ? 0xff : (uint8_t)x;
		}
		if (i & 1) {
			/* Make it right: the field holds ~sum of the rest. */
			h[10] = h[11] = 0;
			memcpy(&h[10], &(uint16_t){ (uint16_t)~rte_raw_cksum(h,
					sizeof(h)) }, 2);
		}
		assert_int_equal(fwd_ipv4_cksum_ok(ip, sizeof(h)),
				rte_raw_cksum(h, sizeof(h)) == 0xffff);
		valid += fwd_ipv4_cksum_ok(ip, sizeof(h));
	}
	/* Every made-right header, and few of the others (the mostly
	 * 0xff ones among them: all 0xff sums to 0xffff). */
	assert_true(valid >= 100000 && valid < 110000);
	memset(h, 0, sizeof(h));
	assert_false(fwd_ipv4_cksum_ok((const void *)h, sizeof(h)));
	memset(h, 0xff, sizeof(h));
	assert_true(fwd_ipv4_cksum_ok((const void *)h, sizeof(h)));
}

static int
setup(void **state __rte_unused)
{
	pool = rte_pktmbuf_pool_create("ut_fwd_grp", 255, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return pool == NULL ? -1 : 0;
}

static int
teardown(void **state __rte_unused)
{
	rte_mempool_free(pool);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
				test_groups_agree_with_one_by_one_lpm, setup,
				teardown),
		cmocka_unit_test_setup_teardown(
				test_groups_agree_with_one_by_one_fib, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_full_burst_mixed_families,
				setup, teardown),
		cmocka_unit_test(test_cksum_against_rte),
	};

	return UT_MAIN("ut_fwd_group", tests);
}
