/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's one pass (apps/fwd/core/fwd_pass.h) against its own slow
 * path one packet at a time: bursts of every 3-tuple of packet kinds
 * (plain IPv4 and IPv6, padded, martians, TTL 1, a bad checksum, the PMD's
 * GOOD or BAD word on a port with and without the RX checksum offload, no
 * route, a disabled port, a tbl8 route, class E, VID-0 and other tags,
 * frames to another MAC or a group address, IP broadcast and multicast
 * with and without a route, IPv4 options, a chain, a foreign mbuf->port,
 * non-IP, above the MTU), each tuple in the first 3 places and a tail
 * after them, with the offload off and on, for --lookup lpm and fib. Each
 * packet must get its kind's verdict and port (fwd_pass_kinds.c writes
 * them out, with the frames), the bytes it gets alone, the drop counters
 * the sum of the kinds' reasons, the forwarded ones must leave their ports
 * in RX order, the dropped ones wait in the context in RX order, and
 * exactly the plain IPv4 kinds must stay in the pass (the context counts
 * what the slow path took). Then copy-break in the pass, the default
 * route, the router's own address as a source, and the 20-byte checksum
 * test.
 */
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "npool_rx.h"
#include "unit_common.h"
#include "fwd_addr_cli.h"
#include "fwd_check.h"
#include "fwd_icmp.h"
#include "fwd_mroute.h"
#include "fwd_unit.h"
#include "fwd_pass_kinds.h"

/* Routes to port 3 are loaded with -p 0xf and then hit -p 0x7. */
static const char routes4[] =
	"R198.18.0.0/16 1\nR198.18.3.0/24 3\nR10.0.0.0/8 2\n"
	"R198.18.5.128/25 2\n";
static const char routes6[] = "R2001:db8::/32 2\nR2001:db8:3::/48 3\n";
static const char mroutes[] =
	"mroute from 0 source 192.0.2.1 group 225.1.2.3 to 1 2\n";

/* Most packets a kind's packet leaves as (the fragments of 1600 B). */
#define OUT_MAX 4

/* What each kind gets alone, [offload off, on]: its verdict and port,
 * and per port the packets it leaves as and the bytes of the first (a
 * fragment, a multicast copy). */
static int ref_verdict[2][NB_KINDS];
static int ref_port[2][NB_KINDS];
static uint8_t ref_out[2][NB_KINDS][FU_PORTS][FRAME_MAX];
static uint32_t ref_len[2][NB_KINDS][FU_PORTS];
static uint16_t ref_nout[2][NB_KINDS][FU_PORTS];
static struct rte_mempool *pool;
static struct fu_run run;

/* What the last burst left on each port, in order. */
static struct rte_mbuf *outs[FU_PORTS][FWD_BURST_MAX * OUT_MAX];
static uint16_t nout[FU_PORTS];

static void
take_outputs(void)
{
	uint16_t p;

	for (p = 0; p < FU_PORTS; p++)
		nout[p] = fu_out(&run, p, outs[p], RTE_DIM(outs[p]));
}

static void
free_outputs(void)
{
	uint16_t p, i;

	for (p = 0; p < FU_PORTS; p++)
		for (i = 0; i < nout[p]; i++)
			rte_pktmbuf_free(outs[p][i]);
}

/* A forwarded packet of kind @p k out of @p port, @p len bytes at @p o:
 * the port's MACs, the IP packet the frame held with TTL / hop limit - 1
 * and (IPv4) a right checksum, no tag, no padding. */
static void
check_forwarded(unsigned int k, int port, const uint8_t *o, uint32_t len)
{
	const struct kind *d = &kinds[k];
	const uint32_t l2 = d->shape == VLAN0 ? 18 : 14;
	const uint8_t *in = frame[k] + l2;
	const uint32_t ttl_at = d->v6 ? 7 : 8;
	uint8_t mac[6];
	uint32_t i;

	assert_int_equal(len, RTE_ETHER_HDR_LEN + d->ip_len);
	assert_int_equal(o[0], 0x02);
	assert_int_equal(o[5], port);
	fu_port_mac((uint16_t)port, mac);
	assert_memory_equal(o + 6, mac, 6);
	assert_memory_equal(o + 12, frame[k] + l2 - 2, 2);
	for (i = 0; i < d->ip_len; i++)
		if (i == ttl_at)
			assert_int_equal(o[14 + i], in[i] - 1);
		else if (d->v6 || (i != 10 && i != 11))
			assert_int_equal(o[14 + i], in[i]);
	/* A wrong one stays as wrong (the PMD's GOOD taken). */
	if (!d->v6 && !d->bad_csum)
		assert_int_equal(rte_raw_cksum(o + 14, (o[14] & 15) * 4u),
				0xffff);
}

/* The verdict, port and bytes of each kind alone, with the offload off
 * (@p hw 0) or on, against what the kinds say. */
static void
reference(int hw)
{
	const struct app_port_ctr *ic = &run.ctr.port[0];
	uint64_t before[FWD_NB_REASONS];
	unsigned int k, nports;
	uint16_t p;
	int v, port, fast;

	for (k = 0; k < NB_KINDS; k++) {
		const struct kind *d = &kinds[k];
		struct rte_mbuf *m = kind_packet(k, pool);

		memcpy(before, ic->drops, sizeof(before));
		fu_decide(&run, 0, &m, 1);
		take_outputs();
		port = -1;
		nports = 0;
		for (p = 0; p < FU_PORTS; p++) {
			ref_nout[hw][k][p] = nout[p];
			if (nout[p] == 0)
				continue;
			if (port < 0)
				port = p;
			nports++;
			ref_len[hw][k][p] = outs[p][0]->pkt_len;
			assert_true(ref_len[hw][k][p] <= FRAME_MAX);
			memmove(ref_out[hw][k][p], rte_pktmbuf_read(outs[p][0],
					0, ref_len[hw][k][p],
					ref_out[hw][k][p]), ref_len[hw][k][p]);
		}
		if (run.c.nd == 1) {
			v = run.c.why[0];
		} else {
			for (v = 0; v < FWD_NB_REASONS &&
					ic->drops[v] == before[v]; v++)
				;
			if (v == FWD_NB_REASONS)
				v = nports > 1 ? FWD_MCAST :
					port >= 0 && nout[port] > 1 ?
					FWD_FRAGMENT : FWD_PASS;
		}
		fast = run.c.nslow == 0;
		if (v == FWD_PASS)
			check_forwarded(k, port, ref_out[hw][k][port],
					ref_len[hw][k][port]);
		fu_drops(&run);
		free_outputs();
		ref_verdict[hw][k] = v;
		ref_port[hw][k] = port;
		if (v != (hw ? d->hw_verdict : d->verdict) ||
				port != (hw ? d->hw_port : d->port) ||
				fast != (hw ? d->hw_fast : d->fast))
			fail_msg("%s alone (offload %d): verdict %d port %d "
					"pass %d, want %d %d %d", d->name, hw,
					v, port, fast,
					hw ? d->hw_verdict : d->verdict,
					hw ? d->hw_port : d->port,
					hw ? d->hw_fast : d->fast);
	}
}

/*
 * One burst of the kinds in @p ks received on port 0: each packet's
 * verdict and bytes as alone, the forwarded ones out of their port in
 * order, the dropped in the context in order, the drop counters the
 * sum, and the slow path taken by the other packets only.
 */
static void
check_burst(const struct fwd_conf *fc, const unsigned int *ks, uint16_t n,
		int hw)
{
	static uint8_t buf[FRAME_MAX];
	uint64_t want[FWD_NB_REASONS] = { 0 }, before[FWD_NB_REASONS];
	struct rte_mbuf *pkts[FWD_BURST_MAX], *orig[FWD_BURST_MAX];
	struct app_port_ctr *ic = &run.ctr.port[0];
	uint16_t at[FU_PORTS] = { 0 }, slow = 0, nd = 0, good = 0, i, j, p;
	const uint64_t pmd = ic->ev[FWD_EV_CKSUM_PMD];
	unsigned int k;

	memcpy(before, ic->drops, sizeof(before));
	for (i = 0; i < n; i++)
		pkts[i] = orig[i] = kind_packet(ks[i], pool);
	fu_decide(&run, 0, pkts, n);
	take_outputs();
	for (i = 0; i < n; i++) {
		const int v = ref_verdict[hw][ks[i]];
		const int port = ref_port[hw][ks[i]];

		k = ks[i];
		slow += !(hw ? kinds[k].hw_fast : kinds[k].fast);
		good += kinds[k].flag == GOOD;
		if (v < FWD_NB_REASONS) {
			want[v]++;
			/* Classified drops wait in the context, in order
			 * (with copy-break, as their copy). */
			if (v != FWD_TRUNCATED && v != FWD_FRAG_FAIL) {
				if (nd >= run.c.nd || run.c.why[nd] != v ||
						(fc->t.copybreak == 0 &&
						 run.c.drop[nd] != orig[i]) ||
						run.c.drop[nd]->pkt_len !=
						frame_len[k] ||
						memcmp(rte_pktmbuf_read(
							run.c.drop[nd], 0,
							frame_len[k], buf),
							frame[k],
							frame_len[k]) != 0)
					fail_msg("lookup %d: %s at %u of %u: "
							"not dropped as %d in "
							"order", fc->t.lookup,
							kinds[k].name, i, n, v);
				nd++;
			}
			continue;
		}
		/* Copy-broken: a small packet of one segment leaves as an
		 * npool packet, any other in its RX mbuf. */
		if (v == FWD_PASS && at[port] < nout[port] &&
				(outs[port][at[port]]->pool != pool) !=
				(fc->t.copybreak >= frame_len[k] &&
				 kinds[k].shape != CHAIN))
			fail_msg("%s at %u: copy-broken %d, copy-break %u",
					kinds[k].name, i,
					outs[port][at[port]]->pool != pool,
					fc->t.copybreak);
		for (p = 0; p < FU_PORTS; p++) {
			if (ref_nout[hw][k][p] == 0)
				continue;
			if (at[p] + ref_nout[hw][k][p] > nout[p])
				fail_msg("lookup %d: %s at %u of %u: not out "
						"of port %u", fc->t.lookup,
						kinds[k].name, i, n, p);
			j = at[p];
			at[p] += ref_nout[hw][k][p];
			if (outs[p][j]->pkt_len != ref_len[hw][k][p] ||
					memcmp(rte_pktmbuf_read(outs[p][j], 0,
						ref_len[hw][k][p], buf),
						ref_out[hw][k][p],
						ref_len[hw][k][p]) != 0)
				fail_msg("lookup %d: %s at %u of %u: bytes "
						"differ on port %u",
						fc->t.lookup, kinds[k].name, i,
						n, p);
		}
	}
	for (j = 0; j < FU_PORTS; j++)
		assert_int_equal(at[j], nout[j]);
	assert_int_equal(nd, run.c.nd);
	if (run.c.nslow != slow)
		fail_msg("lookup %d: the slow path took %u of %u, want %u",
				fc->t.lookup, run.c.nslow, n, slow);
	for (j = 0; j < FWD_NB_REASONS; j++)
		assert_true(ic->drops[j] - before[j] == want[j]);
	/* The PMD's word taken for the whole burst when all are GOOD. */
	assert_true(ic->ev[FWD_EV_CKSUM_PMD] - pmd ==
			(hw && good == n ? n : 0u));
	fu_drops(&run);
	free_outputs();
}

/* The kinds' tables (loaded with -p 0xf, then -p 0x7; the multicast
 * route), their frames, and what each gets alone with the offload off. */
static void
kinds_conf(struct fwd_conf *fc, enum fwd_lookup lookup)
{
	unsigned int k;

	fu_conf_init(fc, lookup, 0xf, routes4, routes6);
	fu_conf_mroutes(fc, mroutes);
	fu_conf_portmask(fc, 0x7);
	for (k = 0; k < NB_KINDS; k++)
		kind_build(k);
	fu_run_init(&run, fc);
	reference(0);
}

static void
kinds_conf_free(struct fwd_conf *fc)
{
	fwd_mroutes_free(fc);
	fwd_routes_free(fc);
}

/* Every 3-tuple of kinds (each packet beside every pair of others),
 * then a tail of 0..5 packets, with the offload off and on. */
static void
check_lookup(enum fwd_lookup lookup)
{
	unsigned int ks[8], t, j, n;
	struct fwd_conf fc;
	int hw;

	kinds_conf(&fc, lookup);
	fc.t.cksum_hw = 1;
	fu_run_init(&run, &fc);
	reference(1);
	for (t = 0; t < 2 * NB_KINDS * NB_KINDS * NB_KINDS; t++) {
		for (j = 0, n = t / 2; j < 3; j++, n /= NB_KINDS)
			ks[j] = n % NB_KINDS;
		n = 3 + t / 2 % 6;
		for (j = 3; j < n; j++)
			ks[j] = (ks[j - 3] + j) % NB_KINDS;
		/* Port 0 summing, then taking its PMD's word. */
		hw = t & 1;
		fc.t.cksum_hw = (uint64_t)hw;
		check_burst(&fc, ks, (uint16_t)n, hw);
	}
	kinds_conf_free(&fc);
	assert_int_equal(rte_mempool_avail_count(pool), pool->size);
}

static void
test_pass_agrees_with_one_by_one_lpm(void **state __rte_unused)
{
	check_lookup(FWD_LOOKUP_LPM);
}

static void
test_pass_agrees_with_one_by_one_fib(void **state __rte_unused)
{
	check_lookup(FWD_LOOKUP_FIB);
}

static unsigned int
kind_of(const char *name)
{
	unsigned int k;

	for (k = 0; k < NB_KINDS && strcmp(kinds[k].name, name) != 0; k++)
		;
	assert_true(k < NB_KINDS);
	return k;
}

/* Full bursts of plain packets of both families, and a burst where
 * every packet has GOOD (the pass takes the PMD's word for all). */
static void
test_full_bursts(void **state __rte_unused)
{
	unsigned int ks[FWD_BURST_MAX], i;
	const unsigned int p4 = kind_of("plain4"), p6 = kind_of("plain6");
	const unsigned int good = kind_of("bad-csum-pmd-good");
	struct fwd_conf fc;

	kinds_conf(&fc, FWD_LOOKUP_LPM);
	for (i = 0; i < FWD_BURST_MAX; i++)
		ks[i] = i % 2 ? p6 : p4;
	check_burst(&fc, ks, FWD_BURST_MAX, 0);
	for (i = 0; i < FWD_BURST_MAX; i++)
		ks[i] = p6;
	check_burst(&fc, ks, FWD_BURST_MAX, 0);
	fc.t.cksum_hw = 1;
	fu_run_init(&run, &fc);
	reference(1);
	for (i = 0; i < FWD_BURST_MAX; i++)
		ks[i] = good;
	check_burst(&fc, ks, FWD_BURST_MAX, 1);
	kinds_conf_free(&fc);
}

/* Kind @p k alone through the pipeline: verdict @p want, out of
 * @p want_port when forwarded, @p want_slow packets on the slow path. */
static void
decide_one(unsigned int k, int want, uint16_t want_port, uint16_t want_slow)
{
	struct rte_mbuf *out = NULL;
	uint16_t port = 9;

	assert_int_equal(fu_decide1(&run, 0, kind_packet(k, pool), &port,
				&out), want);
	if (want == FWD_PASS)
		assert_int_equal(port, want_port);
	assert_int_equal(run.c.nslow, want_slow);
	rte_pktmbuf_free(out);
	fu_drops(&run);
}

/* --forward-otherhost: a frame to another station's unicast MAC leaves
 * by the one pass as one to the port's own does; link-layer
 * broadcast and multicast keep their verdicts on the slow path. The FIB
 * pass too. */
static void
test_forward_otherhost_on_the_pass(void **state __rte_unused)
{
	const unsigned int own = kind_of("plain4"), other = kind_of("l2-other4");
	static uint8_t a[FRAME_MAX], b[FRAME_MAX];
	const uint8_t *o;
	struct rte_mbuf *out;
	struct fwd_conf fc;
	uint16_t port;
	uint32_t la;
	int lk;

	for (lk = FWD_LOOKUP_LPM; lk <= FWD_LOOKUP_FIB; lk++) {
		kinds_conf(&fc, (enum fwd_lookup)lk);
		fc.t.forward_otherhost = true;
		fu_run_init(&run, &fc);
		out = NULL;
		assert_int_equal(fu_decide1(&run, 0, kind_packet(own, pool),
				&port, &out), FWD_PASS);
		la = out->pkt_len;
		memmove(a, rte_pktmbuf_read(out, 0, la, a), la);
		rte_pktmbuf_free(out);
		out = NULL;
		assert_int_equal(fu_decide1(&run, 0, kind_packet(other, pool),
				&port, &out), FWD_PASS);
		assert_int_equal(port, 1);
		assert_int_equal(run.c.nslow, 0);
		/* The same MACs and length (the kinds differ in their IP
		 * ID); TTL - 1. */
		assert_int_equal(out->pkt_len, la);
		o = rte_pktmbuf_read(out, 0, la, b);
		assert_memory_equal(o, a, RTE_ETHER_HDR_LEN);
		assert_int_equal(o[RTE_ETHER_HDR_LEN + 8], 63);
		rte_pktmbuf_free(out);
		fu_drops(&run);
		decide_one(kind_of("l2-bcast4"), FWD_L2_BCAST, 0, 1);
		decide_one(kind_of("l2-mcast6"), FWD_L2_MCAST, 0, 1);
		kinds_conf_free(&fc);
	}
}

/* A default route: an address without a route leaves by it, in the
 * pass (the tbl24 entry is empty: the default is taken in line). */
static void
test_default_route(void **state __rte_unused)
{
	struct fwd_conf fc;

	fu_conf_init(&fc, FWD_LOOKUP_LPM, 0xf, "R0.0.0.0/0 3\nR10.0.0.0/8 2\n",
			routes6);
	kind_build(kind_of("no-route4"));
	fu_run_init(&run, &fc);
	decide_one(kind_of("no-route4"), FWD_PASS, 3, 0);
	fwd_routes_free(&fc);
}

/*
 * The router's own IPv4 address as a source (--port-addr): the pass
 * leaves a source whose last octet is one of its addresses' to the slow
 * path, which drops the router's own as martian_src and forwards another
 * that ends so.
 */
static void
test_own_source(void **state __rte_unused)
{
	static const uint8_t own[4] = { 192, 0, 2, 1 }, other[4] = {
		198, 19, 7, 1 };
	const unsigned int k = kind_of("plain4");
	struct fwd_addrs addrs;
	struct fwd_conf fc;
	uint8_t *ip;

	fwd_addr_init(&addrs);
	assert_int_equal(fwd_addr_parse(&addrs, "2,192.0.2.1/24"), 0);
	fu_conf_init_addrs(&fc, FWD_LOOKUP_LPM, 0xf, routes4, routes6, &addrs);
	fu_run_init(&run, &fc);
	kind_build(k);
	ip = frame[k] + RTE_ETHER_HDR_LEN;
	assert_memory_equal(ip + 12, own, 4);
	decide_one(k, FWD_MARTIAN_SRC, 0, 1);
	/* Another source ending in .1: forwarded, by the slow path. */
	memcpy(ip + 12, other, 4);
	memset(ip + 10, 0, 2);
	memcpy(ip + 10, &(uint16_t){ (uint16_t)~rte_raw_cksum(ip, 20) }, 2);
	decide_one(k, FWD_PASS, 1, 1);
	fwd_routes_free(&fc);
}

/*
 * Copy-break in the pass (--copybreak 256): each packet of up to 256
 * bytes leaves as an npool packet with the bytes it has without
 * copy-break, its RX mbuf back in the pool; the longer ones leave as
 * they came; nothing leaks.
 */
static void
test_copybreak_in_pass(void **state __rte_unused)
{
	static const char *const names[] = {
		"plain4", "padded4", "plain6", "ttl1", "options", "fragment",
		"chain", "plain4-port2",
	};
	unsigned int ks[RTE_DIM(names)], i, copied = 0;
	struct npool_rx_stats before, after;
	struct fwd_conf fc;

	assert_int_equal(ut_npool_init(0, 0, 0, 0), 0);
	kinds_conf(&fc, FWD_LOOKUP_LPM);
	for (i = 0; i < RTE_DIM(names); i++) {
		ks[i] = kind_of(names[i]);
		copied += frame_len[ks[i]] <= 256 &&
			kinds[ks[i]].shape != CHAIN;
	}
	fc.t.copybreak = 256;
	npool_rx_stats_sum(&before);
	check_burst(&fc, ks, RTE_DIM(names), 0);
	npool_rx_stats_sum(&after);
	assert_int_equal(after.copybreak_copied - before.copybreak_copied,
			copied);
	kinds_conf_free(&fc);
	assert_int_equal(rte_mempool_avail_count(pool), pool->size);
	ut_teardown_check(NULL);
}

/*
 * The 20-byte checksum test against rte_raw_cksum(): random headers,
 * each also with its checksum made right, plus the edge sums (all
 * zero: 0, not valid; all 0xff: 0xffff, valid; carries out of every
 * 32-bit add).
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
	pool = rte_pktmbuf_pool_create("ut_fwd_pass", 511, 0, 0,
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
				test_pass_agrees_with_one_by_one_lpm, setup,
				teardown),
		cmocka_unit_test_setup_teardown(
				test_pass_agrees_with_one_by_one_fib, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_full_bursts, setup,
				teardown),
		cmocka_unit_test_setup_teardown(
				test_forward_otherhost_on_the_pass, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_default_route, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_own_source, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_copybreak_in_pass, setup,
				teardown),
		cmocka_unit_test(test_cksum_against_rte),
	};

	return UT_MAIN("ut_fwd_pass", tests);
}
