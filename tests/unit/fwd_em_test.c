/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's --lookup em (apps/fwd/fwd_em.c, core/fwd_em_key.h and the
 * pass's bulk lookup): l3fwd's EM route files (DPDK's own em_default_v4/
 * v6.cfg too), the 5-tuple match, a miss back out of the receiving port as
 * l3fwd, lpm's checks and drop reasons before and after the lookup, and a
 * burst (one bulk lookup) against one packet at a time: each packet's
 * verdict and port written out here, the same bytes, forwarded in RX
 * order, and the plain IPv4 ones kept in the pass.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "unit_common.h"
#include "fwd_em.h"
#include "fwd_unit.h"

static const char em4[] =
	"# dst src dport sport proto port\n"
	"R198.18.1.2 198.18.0.9 9 9 0x11 1\n"
	"  R198.18.2.2 198.18.0.9 80 1234 6 2\n"
	"\n"
	"R198.18.3.2 198.18.0.9 9 9 17 3\n";
static const char em6[] =
	"R2001:2:0:1::2 2001:2::9 9 9 0x11 1\n";

static struct rte_mempool *pool;

struct pk {
	const char *src, *dst;
	uint8_t proto, ttl;
	uint16_t sport, dport;
	int verdict, port;   /* port for FWD_PASS */
	int fast;            /* stays in the pass */
};

/* Received on port 0; -p 0x7 (port 3's route skipped at load). */
static const struct pk pks[] = {
	{ "198.18.0.9", "198.18.1.2", 17, 64, 9, 9, FWD_PASS, 1, 1 },
	{ "198.18.0.9", "198.18.2.2", 6, 64, 1234, 80, FWD_PASS, 2, 1 },
	/* Misses: another port, protocol, source; back out of port 0. */
	{ "198.18.0.9", "198.18.1.2", 17, 64, 9, 10, FWD_PASS, 0, 1 },
	{ "198.18.0.9", "198.18.1.2", 6, 64, 9, 9, FWD_PASS, 0, 1 },
	{ "198.18.0.8", "198.18.1.2", 17, 64, 9, 9, FWD_PASS, 0, 1 },
	{ "198.18.0.9", "198.18.3.2", 17, 64, 9, 9, FWD_PASS, 0, 1 },
	/* lpm's checks and reasons. */
	{ "198.18.0.9", "198.18.1.2", 17, 1, 9, 9, FWD_TTL_EXCEEDED, -1, 0 },
	{ "198.18.0.9", "127.0.0.1", 17, 64, 9, 9, FWD_MARTIAN_DST, -1, 0 },
	{ "198.18.0.9", "224.0.0.9", 17, 64, 9, 9, FWD_MC_LOCAL, -1, 0 },
	{ "0.0.0.1", "198.18.1.2", 17, 64, 9, 9, FWD_MARTIAN_SRC, -1, 0 },
	{ "2001:2::9", "2001:2:0:1::2", 17, 64, 9, 9, FWD_PASS, 1, 0 },
	{ "2001:2::9", "2001:2:0:1::2", 17, 64, 9, 8, FWD_PASS, 0, 0 },
	{ "2001:2::9", "2001:2:0:1::2", 17, 1, 9, 9, FWD_TTL_EXCEEDED, -1,
		0 },
	{ "2001:2::9", "ff02::1", 17, 64, 9, 9, FWD_MC_LOCAL, -1, 0 },
};

static struct fu_run run;

static struct rte_mbuf *
make(const struct pk *k)
{
	const bool v6 = strchr(k->dst, ':') != NULL;
	const uint16_t l4 = 8 + 18, l3 = (v6 ? 40 : 20) + l4;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	uint8_t *p;

	assert_non_null(m);
	assert_non_null(rte_pktmbuf_append(m, RTE_ETHER_HDR_LEN + l3));
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	memset(eth, 0, RTE_ETHER_HDR_LEN + l3);
	fu_port_mac(0, eth->dst_addr.addr_bytes);
	eth->ether_type = rte_cpu_to_be_16(v6 ? RTE_ETHER_TYPE_IPV6 :
			RTE_ETHER_TYPE_IPV4);
	p = (uint8_t *)(eth + 1);
	if (v6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;

		ip->vtc_flow = RTE_BE32(0x60000000);
		ip->payload_len = rte_cpu_to_be_16(l4);
		ip->proto = k->proto;
		ip->hop_limits = k->ttl;
		inet_pton(AF_INET6, k->src, APP_IPV6_BYTES(ip->src_addr));
		inet_pton(AF_INET6, k->dst, APP_IPV6_BYTES(ip->dst_addr));
		p += 40;
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;

		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16(l3);
		ip->time_to_live = k->ttl;
		ip->next_proto_id = k->proto;
		inet_pton(AF_INET, k->src, &ip->src_addr);
		inet_pton(AF_INET, k->dst, &ip->dst_addr);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		p += 20;
	}
	*(uint16_t *)p = rte_cpu_to_be_16(k->sport);
	*(uint16_t *)(p + 2) = rte_cpu_to_be_16(k->dport);
	m->port = 0;
	return m;
}

static void
test_em_match(void **state __rte_unused)
{
	const unsigned int n = RTE_DIM(pks);
	struct rte_mbuf *burst[FWD_BURST_MAX], *out[FU_PORTS][FWD_BURST_MAX];
	uint64_t d1[FWD_NB_REASONS], d2[FWD_NB_REASONS];
	uint16_t nout[FU_PORTS], at[FU_PORTS] = { 0 }, port, p;
	unsigned int i, r, nd = 0, slow = 0;
	struct rte_mbuf *one, *o;
	struct fwd_conf fc;
	int v;

	fu_conf_init(&fc, FWD_LOOKUP_EM, 0x7, em4, em6);
	assert_int_equal(fc.em_rules[0].n, 2);
	assert_int_equal(fc.em_rules[1].n, 1);
	fu_run_init(&run, &fc);
	/* Three rounds, so that the bulk lookup sees a full burst. */
	for (r = 0; r < 3; r++)
		for (i = 0; i < n; i++)
			burst[r * n + i] = make(&pks[i]);
	fu_decide(&run, 0, burst, (uint16_t)(3 * n));
	memcpy(d2, run.ctr.port[0].drops, sizeof(d2));
	for (p = 0; p < FU_PORTS; p++)
		nout[p] = fu_out(&run, p, out[p], FWD_BURST_MAX);
	for (r = 0; r < 3; r++)
		for (i = 0; i < n; i++) {
			slow += !pks[i].fast;
			nd += pks[i].verdict < FWD_NB_REASONS;
		}
	assert_int_equal(run.c.nd, nd);
	nd = 0;
	assert_int_equal(run.c.nslow, slow);
	for (r = 0; r < 3; r++) {
		for (i = 0; i < n; i++) {
			struct fu_run alone;

			fu_run_init(&alone, &fc);
			one = make(&pks[i]);
			o = NULL;
			v = fu_decide1(&alone, 0, one, &port, &o);
			assert_int_equal(v, pks[i].verdict);
			if (v == FWD_PASS) {
				/* Out in RX order, with its port. */
				assert_int_equal(port, pks[i].port);
				assert_true(at[port] < nout[port]);
				one = out[port][at[port]++];
				assert_int_equal(one->pkt_len, o->pkt_len);
				assert_memory_equal(rte_pktmbuf_mtod(one,
						void *), rte_pktmbuf_mtod(o,
						void *), o->pkt_len);
				rte_pktmbuf_free(one);
				rte_pktmbuf_free(o);
			} else {
				/* Dropped in RX order with its reason. */
				assert_int_equal(run.c.why[nd++], v);
				fu_drops(&alone);
			}
		}
	}
	for (p = 0; p < FU_PORTS; p++)
		assert_int_equal(at[p], nout[p]);
	memset(d1, 0, sizeof(d1));
	for (r = 0; r < 3; r++)
		for (i = 0; i < n; i++)
			if (pks[i].verdict < FWD_NB_REASONS)
				d1[pks[i].verdict]++;
	assert_memory_equal(d1, d2, sizeof(d1));
	assert_int_equal(d1[FWD_TTL_EXCEEDED], 6);
	fu_drops(&run);
	fwd_routes_free(&fc);
}

/* DPDK's own EM route files load as l3fwd loads them. */
static void
test_em_dpdk_files(void **state __rte_unused)
{
	static const char dir[] = "/usr/share/dpdk/examples/l3fwd/";
	struct fwd_conf fc;
	char p4[128], p6[128];

	snprintf(p4, sizeof(p4), "%sem_default_v4.cfg", dir);
	snprintf(p6, sizeof(p6), "%sem_default_v6.cfg", dir);
	if (access(p4, R_OK) != 0 || access(p6, R_OK) != 0) {
		print_message("skipped: %s not there (Debian: dpdk-doc)\n", p4);
		return;
	}
	memset(&fc, 0, sizeof(fc));
	fc.t.lookup = FWD_LOOKUP_EM;
	fc.t.portmask = 0xffff;
	fc.rule4 = p4;
	fc.rule6 = p6;
	assert_int_equal(fwd_routes_load(&fc), 0);
	assert_int_equal(fc.em_rules[0].n, 16);
	assert_int_equal(fc.em_rules[1].n, 16);
	fwd_routes_free(&fc);
	/* And l3fwd's built-in tables without files are the same. */
	memset(&fc, 0, sizeof(fc));
	fc.t.lookup = FWD_LOOKUP_EM;
	fc.t.portmask = 0xffff;
	assert_int_equal(fwd_routes_load(&fc), 0);
	assert_int_equal(fc.em_rules[0].n, 16);
	fwd_routes_free(&fc);
}

static int
setup(void **state __rte_unused)
{
	pool = rte_pktmbuf_pool_create("ut_fwd_em", 511, 0, 0,
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
		cmocka_unit_test_setup_teardown(test_em_match, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_em_dpdk_files, setup,
				teardown),
	};

	return UT_MAIN("ut_fwd_em", tests);
}
