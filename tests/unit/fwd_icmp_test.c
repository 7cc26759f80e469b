/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's own answers (apps/fwd/core/fwd_icmp.c, fwd_icmp6.c) byte by
 * byte: packets made here go through the pipeline (fwd_burst_decide()) as
 * the lcore loop runs it, then fwd_local_input() on the packet dropped with
 * its parse; the ICMP errors' type, code, MTU field, source,
 * quote and checksums, the "never" rules (an ICMP error, a non-first
 * fragment, link-layer broadcast, a broadcast source, a port without
 * address), ARP and NDP answers and non-answers, echo replies, and the
 * rate limiter against Linux's numbers. Replies come from npool.
 */
#include <arpa/inet.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "unit_common.h"
#include "fwd_addr_cli.h"
#include "fwd_check.h"
#include "fwd_cli.h"
#include "fwd_icmp.h"
#include "fwd_reply.h"
#include "fwd_unit.h"

static const char routes4[] = "R198.18.1.0/24 0\nR198.18.2.0/24 1\n"
	"R198.18.3.0/24 2\n";
static const char routes6[] = "R2001:2:0:1::/64 0\nR2001:2:0:2::/64 1\n"
	"R2001:2:0:3::/64 2\n";

static struct rte_mempool *pool;
static struct fwd_conf fc;
static struct fwd_addrs addrs;
/* The pipeline's context and counters: ctr[port] are the run's. */
static struct fu_run run;
#define ctr (run.ctr.port)

static const struct rte_ether_addr host_mac = {
	{ 0x02, 0xaa, 0, 0, 0, 1 } };

static uint32_t
a4(const char *s)
{
	uint32_t a;

	assert_int_equal(inet_pton(AF_INET, s, &a), 1);
	return a;
}

static void
a6(const char *s, uint8_t *out)
{
	assert_int_equal(inet_pton(AF_INET6, s, out), 1);
}

/* An IPv4 packet of @p len IP bytes from host_mac to port @p port. */
static struct rte_mbuf *
pkt4(const char *src, const char *dst, uint8_t ttl, uint8_t proto,
		uint16_t len, uint16_t frag)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	uint8_t *l4;
	uint16_t i;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m,
			RTE_ETHER_HDR_LEN + len);
	assert_non_null(eth);
	eth->src_addr = host_mac;
	eth->dst_addr = fc.t.l2[0].src;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->type_of_service = 0x10;
	ip->total_length = rte_cpu_to_be_16(len);
	ip->fragment_offset = rte_cpu_to_be_16(frag);
	ip->time_to_live = ttl;
	ip->next_proto_id = proto;
	ip->src_addr = a4(src);
	ip->dst_addr = a4(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	l4 = (uint8_t *)(ip + 1);
	for (i = 0; i < len - 20; i++)
		l4[i] = (uint8_t)(i * 7 + 1);
	if (proto == IPPROTO_ICMP) {
		l4[0] = 8;
		l4[1] = 0;
		l4[2] = l4[3] = 0;
		*(uint16_t *)(l4 + 2) = (uint16_t)~rte_raw_cksum(l4, len - 20);
	}
	return m;
}

/* An IPv6 packet of @p plen payload bytes. */
static struct rte_mbuf *
pkt6(const char *src, const char *dst, uint8_t hlim, uint8_t nh,
		uint16_t plen)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv6_hdr *ip;
	uint8_t *l4;
	uint16_t i;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m,
			RTE_ETHER_HDR_LEN + 40 + plen);
	assert_non_null(eth);
	eth->src_addr = host_mac;
	eth->dst_addr = fc.t.l2[0].src;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	ip = (struct rte_ipv6_hdr *)(eth + 1);
	ip->vtc_flow = RTE_BE32(0x60000000);
	ip->payload_len = rte_cpu_to_be_16(plen);
	ip->proto = nh;
	ip->hop_limits = hlim;
	a6(src, APP_IPV6_BYTES(ip->src_addr));
	a6(dst, APP_IPV6_BYTES(ip->dst_addr));
	l4 = (uint8_t *)(ip + 1);
	for (i = 0; i < plen; i++)
		l4[i] = (uint8_t)(i * 5 + 3);
	if (nh == IPPROTO_ICMPV6) {
		l4[0] = 128;
		l4[1] = 0;
		l4[2] = l4[3] = 0;
		*(uint16_t *)(l4 + 2) = rte_ipv6_udptcp_cksum(ip, l4);
	}
	return m;
}

/* The pipeline's verdict on @p m received on @p port (what it forwards
 * freed; a dropped packet left in run.c.drop[0]). */
static int
decide(struct rte_mbuf *m, uint16_t port, uint16_t *out_port)
{
	struct rte_mbuf *o = NULL;
	int v;

	m->port = port;
	v = fu_decide1(&run, port, m, out_port, &o);
	rte_pktmbuf_free(o);
	return v;
}

/* The dropped packet of the last decide(), freed. */
static void
drop_done(void)
{
	assert_int_equal(run.c.nd, 1);
	rte_pktmbuf_free(run.c.drop[0]);
	run.c.nd = 0;
}

/* decide() on port 0, then fwd_local_input() on the dropped packet. */
static struct rte_mbuf *
answer(struct rte_mbuf *m, int want_verdict)
{
	struct rte_mbuf *r;
	int v;

	v = decide(m, 0, NULL);
	assert_int_equal(v, want_verdict);
	r = fwd_local_input(&fc.t, &ctr[0], run.c.drop[0], (unsigned int)v, 0);
	drop_done();
	return r;
}

/* The reply's Ethernet header; its IP header. */
static uint8_t *
reply_l3(struct rte_mbuf *r, uint16_t type)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(r,
			struct rte_ether_hdr *);

	assert_int_equal(r->nb_segs, 1);
	assert_memory_equal(&eth->dst_addr, &host_mac, 6);
	assert_memory_equal(&eth->src_addr, &fc.t.l2[0].src, 6);
	assert_int_equal(rte_be_to_cpu_16(eth->ether_type), type);
	return (uint8_t *)(eth + 1);
}

/* An ICMPv4 error: its bytes against the packet it quotes. */
static void
check_err4(struct rte_mbuf *orig, uint16_t orig_len, uint8_t type,
		uint8_t code, uint16_t mtu)
{
	uint8_t q[1600];
	const uint32_t n = RTE_MIN((uint32_t)orig_len, 576u - 28);
	struct rte_mbuf *r;
	struct rte_ipv4_hdr *ip;
	uint8_t *ic;

	memcpy(q, rte_pktmbuf_mtod_offset(orig, void *, RTE_ETHER_HDR_LEN),
			orig_len);
	r = answer(orig, type == 11 ? FWD_TTL_EXCEEDED :
			code == 4 ? FWD_MTU : FWD_NO_ROUTE);
	assert_non_null(r);
	ip = (struct rte_ipv4_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV4);
	assert_int_equal(r->pkt_len, RTE_ETHER_HDR_LEN + 28 + n);
	assert_int_equal(ip->version_ihl, 0x45);
	assert_int_equal(ip->type_of_service, 0xc0 | 0x10);
	assert_int_equal(rte_be_to_cpu_16(ip->total_length), 28 + n);
	assert_int_equal(ip->fragment_offset, 0);
	assert_int_equal(ip->time_to_live, 64);
	assert_int_equal(ip->next_proto_id, IPPROTO_ICMP);
	assert_int_equal(ip->src_addr, a4("198.18.1.1"));
	assert_int_equal(ip->dst_addr, a4("198.18.1.2"));
	assert_int_equal(rte_raw_cksum(ip, 20), 0xffff);
	ic = (uint8_t *)(ip + 1);
	assert_int_equal(ic[0], type);
	assert_int_equal(ic[1], code);
	assert_int_equal(ic[4] << 8 | ic[5], 0);
	assert_int_equal(ic[6] << 8 | ic[7], mtu);
	assert_int_equal(rte_raw_cksum(ic, 8 + n), 0xffff);
	assert_memory_equal(ic + 8, q, n);
	rte_pktmbuf_free(r);
}

static int
setup(void **state)
{
	int rc = ut_setup_default(state);

	if (rc != 0)
		return rc;
	pool = rte_pktmbuf_pool_create("ut_fwd_icmp", 255, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (pool == NULL)
		return -1;
	fwd_addr_init(&addrs);
	assert_int_equal(fwd_addr_parse(&addrs,
			"0,198.18.1.1/24,2001:2:0:1::1/64"), 0);
	assert_int_equal(fwd_addr_parse(&addrs,
			"1,198.18.2.1/24,2001:2:0:2::1/64"), 0);
	fu_conf_init_addrs(&fc, FWD_LOOKUP_LPM, 0x7, routes4, routes6,
			&addrs);
	fwd_addr_link_local(&addrs, (const struct rte_ether_addr[]){
			fc.t.l2[0].src, fc.t.l2[1].src, fc.t.l2[2].src });
	fu_run_init(&run, &fc);
	return 0;
}

static int
teardown(void **state)
{
	fwd_routes_free(&fc);
	rte_mempool_free(pool);
	return ut_teardown_check(state);
}

static void
test_errors4(void **state __rte_unused)
{
	check_err4(pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_UDP, 100, 0),
			100, 11, 0, 0);
	/* The quote stops at 576 bytes in all (RFC 1812 4.3.2.3). */
	check_err4(pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_UDP, 1400, 0),
			1400, 11, 0, 0);
	check_err4(pkt4("198.18.1.2", "198.18.9.2", 64, IPPROTO_UDP, 60, 0),
			60, 3, 0, 0);
	fc.t.mtu = 1000;
	check_err4(pkt4("198.18.1.2", "198.18.2.2", 64, IPPROTO_UDP, 1400,
				RTE_IPV4_HDR_DF_FLAG), 1400, 3, 4, 1000);
	fc.t.mtu = 1500;
	/* --port-mtu 1,1000 (fwd_port_mtu_apply()): frag needed says
	 * port 1's MTU; towards port 0 the packet passes. */
	fc.t.portmask = 0x3;
	fc.t.port_mtu[1] = 1000;
	assert_int_equal(fwd_port_mtu_apply(&fc), 0);
	assert_int_equal(fc.t.mtu, 1000);
	check_err4(pkt4("198.18.1.2", "198.18.2.2", 64, IPPROTO_UDP, 1400,
				RTE_IPV4_HDR_DF_FLAG), 1400, 3, 4, 1000);
	{
		struct rte_mbuf *m = pkt4("198.18.2.2", "198.18.1.2", 64,
				IPPROTO_UDP, 1400, RTE_IPV4_HDR_DF_FLAG);
		uint16_t port = 9;

		/* In on port 1, to its MAC. */
		rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->dst_addr =
			fc.t.l2[1].src;
		assert_int_equal(decide(m, 1, &port), FWD_PASS);
		assert_int_equal(port, 0);
	}
	memset(fc.t.port_mtu, 0, sizeof(fc.t.port_mtu));
	fc.t.mtu = 1500;
	fc.t.portmask = 0x7;
	/* An ICMP echo may get an error (it is no error itself). */
	check_err4(pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_ICMP, 84, 0),
			84, 11, 0, 0);
	/* The first fragment gets one. */
	check_err4(pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_UDP, 100,
				RTE_IPV4_HDR_MF_FLAG), 100, 11, 0, 0);
	assert_int_equal(ctr[0].ev[FWD_EV_TTL4], 4);
	assert_int_equal(ctr[0].ev[FWD_EV_UNREACH4], 1);
	assert_int_equal(ctr[0].ev[FWD_EV_FRAG_NEEDED], 2);
	assert_int_equal(ctr[0].drops[FWD_TTL_EXCEEDED], 4);
}

static void
test_never4(void **state __rte_unused)
{
	struct rte_mbuf *m;

	/* About an ICMP error (dest unreachable), an unknown type. */
	m = pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_ICMP, 56, 0);
	rte_pktmbuf_mtod_offset(m, uint8_t *, 34)[0] = 3;
	assert_null(answer(m, FWD_TTL_EXCEEDED));
	m = pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_ICMP, 56, 0);
	rte_pktmbuf_mtod_offset(m, uint8_t *, 34)[0] = 40;
	assert_null(answer(m, FWD_TTL_EXCEEDED));
	/* A fragment but the first. */
	assert_null(answer(pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_UDP,
				100, 185), FWD_TTL_EXCEEDED));
	/* Link-layer broadcast: not forwarded, so nothing exceeded. */
	m = pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_UDP, 100, 0);
	memset(rte_pktmbuf_mtod(m, uint8_t *), 0xff, 6);
	assert_null(answer(m, FWD_L2_BCAST));
	/* To or from the broadcast address of a port's prefix (to it:
	 * for the router, fwd_cast.h). */
	assert_null(answer(pkt4("198.18.1.2", "198.18.2.255", 1, IPPROTO_UDP,
				100, 0), FWD_BCAST));
	assert_null(answer(pkt4("198.18.1.255", "198.18.2.2", 1, IPPROTO_UDP,
				100, 0), FWD_TTL_EXCEEDED));
	assert_int_equal(ctr[0].ev[FWD_EV_TTL4], 0);
	/* A port without address: counted, nothing sent. */
	m = pkt4("198.18.3.2", "198.18.1.2", 1, IPPROTO_UDP, 100, 0);
	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->dst_addr =
		fc.t.l2[2].src;
	assert_int_equal(decide(m, 2, NULL), FWD_TTL_EXCEEDED);
	assert_null(fwd_local_input(&fc.t, &ctr[2], run.c.drop[0],
				FWD_TTL_EXCEEDED, 2));
	assert_int_equal(ctr[2].ev[FWD_EV_NO_SRC], 1);
	drop_done();
}

/* An ICMPv6 error: bytes, source, checksum with the pseudo-header. */
static void
check_err6(struct rte_mbuf *orig, uint16_t plen, uint8_t type, int verdict,
		uint32_t mtu)
{
	const uint32_t n = RTE_MIN(40u + plen, 1280u - 48);
	uint8_t q[1600], src[16], dst[16];
	struct rte_ipv6_hdr *ip;
	uint32_t mtu_be;
	struct rte_mbuf *r;
	uint8_t *ic;

	memcpy(q, rte_pktmbuf_mtod_offset(orig, void *, RTE_ETHER_HDR_LEN),
			40 + plen);
	r = answer(orig, verdict);
	assert_non_null(r);
	ip = (struct rte_ipv6_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV6);
	assert_int_equal(r->pkt_len, RTE_ETHER_HDR_LEN + 48 + n);
	assert_int_equal(rte_be_to_cpu_16(ip->payload_len), 8 + n);
	assert_int_equal(ip->proto, IPPROTO_ICMPV6);
	assert_int_equal(ip->hop_limits, 64);
	a6("2001:2:0:1::1", src);
	a6("2001:2:0:1::2", dst);
	assert_memory_equal(APP_IPV6_BYTES(ip->src_addr), src, 16);
	assert_memory_equal(APP_IPV6_BYTES(ip->dst_addr), dst, 16);
	ic = (uint8_t *)(ip + 1);
	assert_int_equal(ic[0], type);
	assert_int_equal(ic[1], 0);
	memcpy(&mtu_be, ic + 4, sizeof(mtu_be)); /* not 4-byte aligned */
	assert_int_equal(rte_be_to_cpu_32(mtu_be), mtu);
	assert_int_equal(rte_ipv6_udptcp_cksum_verify(ip, ic), 0);
	assert_memory_equal(ic + 8, q, n);
	rte_pktmbuf_free(r);
}

static void
test_errors6(void **state __rte_unused)
{
	struct rte_mbuf *m;

	check_err6(pkt6("2001:2:0:1::2", "2001:2:0:2::2", 1, IPPROTO_UDP,
				60), 60, 3, FWD_TTL_EXCEEDED, 0);
	/* The quote stops at 1280 bytes in all (RFC 4443 2.4(c)). */
	check_err6(pkt6("2001:2:0:1::2", "2001:2:0:2::2", 1, IPPROTO_UDP,
				1400), 1400, 3, FWD_TTL_EXCEEDED, 0);
	check_err6(pkt6("2001:2:0:1::2", "2001:2:0:9::2", 64, IPPROTO_UDP,
				60), 60, 1, FWD_NO_ROUTE, 0);
	fc.t.mtu = 1280;
	check_err6(pkt6("2001:2:0:1::2", "2001:2:0:2::2", 64, IPPROTO_UDP,
				1300), 1300, 2, FWD_MTU, 1280);
	fc.t.mtu = 1500;
	/* An echo request may get an error, an ICMPv6 error not. */
	check_err6(pkt6("2001:2:0:1::2", "2001:2:0:2::2", 1, IPPROTO_ICMPV6,
				64), 64, 3, FWD_TTL_EXCEEDED, 0);
	m = pkt6("2001:2:0:1::2", "2001:2:0:2::2", 1, IPPROTO_ICMPV6, 64);
	rte_pktmbuf_mtod_offset(m, uint8_t *, 54)[0] = 1;
	assert_null(answer(m, FWD_TTL_EXCEEDED));
	assert_int_equal(ctr[0].ev[FWD_EV_HOPLIMIT6], 3);
	assert_int_equal(ctr[0].ev[FWD_EV_NOROUTE6], 1);
	assert_int_equal(ctr[0].ev[FWD_EV_TOOBIG6], 1);
}

static void
test_arp(void **state __rte_unused)
{
	struct rte_mbuf *m, *r;
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *q;
	int k;

	for (k = 0; k < 2; k++) {
		m = rte_pktmbuf_alloc(pool);
		assert_non_null(m);
		assert_non_null(rte_pktmbuf_append(m, 60));
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		memset(rte_pktmbuf_mtod(m, uint8_t *), 0, m->data_len);
		memset(&eth->dst_addr, 0xff, 6);
		eth->src_addr = host_mac;
		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
		q = (struct rte_arp_hdr *)(eth + 1);
		q->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
		q->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		q->arp_hlen = 6;
		q->arp_plen = 4;
		q->arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
		q->arp_data.arp_sha = host_mac;
		q->arp_data.arp_sip = a4("198.18.1.2");
		q->arp_data.arp_tip = a4(k == 0 ? "198.18.1.1" : "198.18.1.9");
		r = answer(m, FWD_NOT_IP);
		if (k == 1) {
			/* Not the router's address: no answer. */
			assert_null(r);
			break;
		}
		assert_non_null(r);
		q = (struct rte_arp_hdr *)reply_l3(r, RTE_ETHER_TYPE_ARP);
		assert_int_equal(r->pkt_len, 42);
		assert_int_equal(q->arp_opcode, RTE_BE16(RTE_ARP_OP_REPLY));
		assert_memory_equal(&q->arp_data.arp_sha, &fc.t.l2[0].src, 6);
		assert_int_equal(q->arp_data.arp_sip, a4("198.18.1.1"));
		assert_memory_equal(&q->arp_data.arp_tha, &host_mac, 6);
		assert_int_equal(q->arp_data.arp_tip, a4("198.18.1.2"));
		rte_pktmbuf_free(r);
	}
	assert_int_equal(ctr[0].drops[FWD_LOCAL], 1);
	assert_int_equal(ctr[0].drops[FWD_NOT_IP], 1);
	assert_int_equal(ctr[0].ev[FWD_EV_ARP_REPLY], 1);
}

/* A neighbour solicitation for @p tgt to @p dst, with an SLLA. */
static struct rte_mbuf *
ns(const char *dst, const char *tgt)
{
	struct rte_mbuf *m = pkt6("fe80::2", dst, 255, IPPROTO_ICMPV6, 32);
	struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(m,
			struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	uint8_t *l4 = (uint8_t *)(ip + 1);

	memset(l4, 0, 32);
	l4[0] = 135;
	a6(tgt, l4 + 8);
	l4[24] = 1;
	l4[25] = 1;
	memcpy(l4 + 26, &host_mac, 6);
	*(uint16_t *)(l4 + 2) = rte_ipv6_udptcp_cksum(ip, l4);
	return m;
}

static void
test_ndp(void **state __rte_unused)
{
	struct rte_ipv6_hdr *ip;
	struct rte_mbuf *r;
	uint8_t a[16];
	uint8_t *na;

	r = answer(ns("ff02::1:ff00:1", "2001:2:0:1::1"), FWD_MC_LOCAL);
	assert_non_null(r);
	ip = (struct rte_ipv6_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV6);
	assert_int_equal(ip->hop_limits, 255);
	a6("2001:2:0:1::1", a);
	assert_memory_equal(APP_IPV6_BYTES(ip->src_addr), a, 16);
	a6("fe80::2", a);
	assert_memory_equal(APP_IPV6_BYTES(ip->dst_addr), a, 16);
	na = (uint8_t *)(ip + 1);
	assert_int_equal(rte_be_to_cpu_16(ip->payload_len), 32);
	assert_int_equal(na[0], 136);
	assert_int_equal(na[4], 0xe0); /* router, solicited, override */
	a6("2001:2:0:1::1", a);
	assert_memory_equal(na + 8, a, 16);
	assert_int_equal(na[24], 2);
	assert_memory_equal(na + 26, &fc.t.l2[0].src, 6);
	assert_int_equal(rte_ipv6_udptcp_cksum_verify(ip, na), 0);
	rte_pktmbuf_free(r);
	/* For the link-local address, unicast: no option, no override. */
	r = answer(ns("fe80::ff:fe00:0", "fe80::ff:fe00:0"), FWD_MARTIAN_DST);
	assert_null(r);
	memcpy(a, addrs.p[0].ll6, 16);
	{
		char s[64];

		inet_ntop(AF_INET6, a, s, sizeof(s));
		r = answer(ns(s, s), FWD_MARTIAN_DST);
	}
	assert_non_null(r);
	ip = (struct rte_ipv6_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV6);
	na = (uint8_t *)(ip + 1);
	assert_int_equal(rte_be_to_cpu_16(ip->payload_len), 24);
	assert_int_equal(na[4], 0xc0);
	rte_pktmbuf_free(r);
	/* Another port's address, another node's: no answer. */
	assert_null(answer(ns("ff02::1:ff00:1", "2001:2:0:2::1"),
				FWD_MC_LOCAL));
	assert_null(answer(ns("ff02::1:ff00:9", "2001:2:0:1::9"),
				FWD_MC_LOCAL));
	assert_int_equal(ctr[0].ev[FWD_EV_ND_ADVERT], 2);
	assert_int_equal(ctr[0].drops[FWD_LOCAL], 2);
	assert_int_equal(ctr[0].drops[FWD_MARTIAN_DST], 1);
	assert_int_equal(ctr[0].drops[FWD_MC_LOCAL], 2);
}

/*
 * Found by breaking it: duplicate address detection answered to the
 * all-nodes MAC (it went to 00:00:00:00:00:00 from a dead compound
 * literal); a solicitation from a multicast source not answered; no
 * ICMP error to the router's own address.
 */
static void
test_dad_and_bad_sources(void **state __rte_unused)
{
	static const uint8_t all_nodes_mac[6] = { 0x33, 0x33, 0, 0, 0, 1 };
	struct rte_mbuf *m, *r;
	struct rte_ipv6_hdr *ip;
	struct rte_ether_hdr *eth;
	uint8_t a[16], *l4;

	/* DAD: from ::, to the solicited-node group, no SLLA option. */
	m = pkt6("::", "ff02::1:ff00:1", 255, IPPROTO_ICMPV6, 24);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
			RTE_ETHER_HDR_LEN);
	l4 = (uint8_t *)(ip + 1);
	memset(l4, 0, 24);
	l4[0] = 135;
	a6("2001:2:0:1::1", l4 + 8);
	*(uint16_t *)(l4 + 2) = rte_ipv6_udptcp_cksum(ip, l4);
	r = answer(m, FWD_MC_LOCAL);
	assert_non_null(r);
	eth = rte_pktmbuf_mtod(r, struct rte_ether_hdr *);
	assert_memory_equal(&eth->dst_addr, all_nodes_mac, 6);
	assert_memory_equal(&eth->src_addr, &fc.t.l2[0].src, 6);
	ip = (struct rte_ipv6_hdr *)(eth + 1);
	a6("ff02::1", a);
	assert_memory_equal(APP_IPV6_BYTES(ip->dst_addr), a, 16);
	l4 = (uint8_t *)(ip + 1);
	assert_int_equal(l4[0], 136);
	assert_int_equal(l4[4], 0xa0); /* router, override: not solicited */
	assert_int_equal(rte_ipv6_udptcp_cksum_verify(ip, l4), 0);
	rte_pktmbuf_free(r);
	/* A solicitation from a multicast source: no answer. */
	m = ns("ff02::1:ff00:1", "2001:2:0:1::1");
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *,
			RTE_ETHER_HDR_LEN);
	a6("ff02::5", APP_IPV6_BYTES(ip->src_addr));
	l4 = (uint8_t *)(ip + 1);
	l4[2] = l4[3] = 0;
	*(uint16_t *)(l4 + 2) = rte_ipv6_udptcp_cksum(ip, l4);
	assert_null(answer(m, FWD_MC_LOCAL));
	assert_int_equal(ctr[0].ev[FWD_EV_ND_ADVERT], 1);
	/* From the router's own addresses: a martian source for IPv4
	 * (Linux fib_validate_source()); IPv6 checks no source so, and
	 * sends no error to itself. */
	assert_null(answer(pkt4("198.18.1.1", "198.18.2.2", 1, IPPROTO_UDP,
				100, 0), FWD_MARTIAN_SRC));
	assert_null(answer(pkt4("198.18.2.1", "198.18.2.2", 1, IPPROTO_UDP,
				100, 0), FWD_MARTIAN_SRC));
	assert_null(answer(pkt6("2001:2:0:1::1", "2001:2:0:2::2", 1,
				IPPROTO_UDP, 60), FWD_TTL_EXCEEDED));
	assert_int_equal(ctr[0].ev[FWD_EV_TTL4], 0);
	assert_int_equal(ctr[0].ev[FWD_EV_HOPLIMIT6], 0);
	/* Its neighbour still gets one. */
	r = answer(pkt4("198.18.1.2", "198.18.2.2", 1, IPPROTO_UDP, 100, 0),
			FWD_TTL_EXCEEDED);
	assert_non_null(r);
	rte_pktmbuf_free(r);
	assert_int_equal(ctr[0].ev[FWD_EV_TTL4], 1);
}

static void
test_echo(void **state __rte_unused)
{
	struct rte_ipv4_hdr *ip;
	struct rte_ipv6_hdr *ip6;
	struct rte_mbuf *r;
	uint8_t *ic;

	/* To the far port's address: local too (host route). */
	r = answer(pkt4("198.18.1.2", "198.18.2.1", 1, IPPROTO_ICMP, 84, 0),
			FWD_LOCAL);
	assert_non_null(r);
	ip = (struct rte_ipv4_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV4);
	assert_int_equal(ip->src_addr, a4("198.18.2.1"));
	assert_int_equal(ip->dst_addr, a4("198.18.1.2"));
	assert_int_equal(rte_be_to_cpu_16(ip->total_length), 84);
	ic = (uint8_t *)(ip + 1);
	assert_int_equal(ic[0], 0);
	assert_int_equal(rte_raw_cksum(ic, 64), 0xffff);
	rte_pktmbuf_free(r);
	r = answer(pkt6("2001:2:0:1::2", "2001:2:0:1::1", 64, IPPROTO_ICMPV6,
				64), FWD_LOCAL);
	assert_non_null(r);
	ip6 = (struct rte_ipv6_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV6);
	ic = (uint8_t *)(ip6 + 1);
	assert_int_equal(ic[0], 129);
	assert_int_equal(rte_ipv6_udptcp_cksum_verify(ip6, ic), 0);
	rte_pktmbuf_free(r);
	/* Anything else to it: dropped as local, no answer. */
	assert_null(answer(pkt4("198.18.1.2", "198.18.1.1", 64, IPPROTO_UDP,
				60, 0), FWD_LOCAL));
	assert_int_equal(ctr[0].drops[FWD_LOCAL], 3);
	assert_int_equal(ctr[0].ev[FWD_EV_ECHO_REPLY], 1);
	assert_int_equal(ctr[0].ev[FWD_EV_ECHO6_REPLY], 1);
}

/* Echo requests to a broadcast (--icmp-echo-ignore-broadcasts 0):
 * answered from the receiving port, never to a 0/8 source (Linux has
 * no route back to it: DHCP's 0.0.0.0 to 255.255.255.255 gets none). */
static void
test_bcast_echo(void **state __rte_unused)
{
	struct rte_ipv4_hdr *ip;
	struct rte_mbuf *r;

	addrs.echo_ignore_bcast = false;
	r = answer(pkt4("198.18.1.2", "255.255.255.255", 64, IPPROTO_ICMP,
				84, 0), FWD_BCAST);
	assert_non_null(r);
	ip = (struct rte_ipv4_hdr *)reply_l3(r, RTE_ETHER_TYPE_IPV4);
	assert_int_equal(ip->src_addr, a4("198.18.1.1"));
	assert_int_equal(ip->dst_addr, a4("198.18.1.2"));
	rte_pktmbuf_free(r);
	assert_null(answer(pkt4("0.0.0.0", "255.255.255.255", 64,
				IPPROTO_ICMP, 84, 0), FWD_BCAST));
	assert_null(answer(pkt4("0.1.2.3", "255.255.255.255", 64,
				IPPROTO_ICMP, 84, 0), FWD_BCAST));
	assert_int_equal(ctr[0].ev[FWD_EV_ECHO_REPLY], 1);
	addrs.echo_ignore_bcast = true;
	assert_null(answer(pkt4("198.18.1.2", "255.255.255.255", 64,
				IPPROTO_ICMP, 84, 0), FWD_BCAST));
}

/* A directed broadcast forwarded (--bc-forwarding 1) gets ICMP errors as
 * any forwarded packet (Linux: its route has no RTCF_BROADCAST), frag
 * needed naming its prefix's port's MTU; without the option it is for
 * the router: no error. */
static void
test_bc_forwarding_errors(void **state __rte_unused)
{
	/* The limiter's buckets outlive a test: no limit here. */
	addrs.ratelimit_ms = 0;
	addrs.msgs_per_sec = 0;
	assert_null(answer(pkt4("198.18.1.2", "198.18.2.255", 1,
				IPPROTO_UDP, 100, 0), FWD_BCAST));
	fc.t.bc_forwarding = true;
	check_err4(pkt4("198.18.1.2", "198.18.2.255", 1, IPPROTO_UDP, 100,
				0), 100, 11, 0, 0);
	/* Port 1's MTU 1200; the smallest (fc.t.mtu) 1000 is port 2's. */
	fc.t.mtu = 1000;
	fc.t.port_mtu[0] = 1500;
	fc.t.port_mtu[1] = 1200;
	check_err4(pkt4("198.18.1.2", "198.18.2.255", 64, IPPROTO_UDP, 1300,
				RTE_IPV4_HDR_DF_FLAG), 1300, 3, 4, 1200);
	assert_int_equal(ctr[0].ev[FWD_EV_TTL4], 1);
	assert_int_equal(ctr[0].ev[FWD_EV_FRAG_NEEDED], 1);
	fc.t.bc_forwarding = false;
	fc.t.mtu = 1500;
	memset(fc.t.port_mtu, 0, sizeof(fc.t.port_mtu));
}

static void
test_ratelimit(void **state __rte_unused)
{
	static const uint8_t k1[16] = { 1 }, k2[16] = { 2 };
	struct fwd_rl rl;
	int i, n = 0;

	/* icmp_global_allow(): 50 at once, then 1000/s in steps of at
	 * least 20 ms. */
	memset(&rl, 0, sizeof(rl));
	for (i = 0; i < 100; i++)
		n += fwd_icmp_rl_allow(&rl, &addrs, 10000, k1, 0);
	assert_int_equal(n, 50);
	assert_false(fwd_icmp_rl_allow(&rl, &addrs, 10019, k1, 0));
	for (n = 0, i = 0; i < 100; i++)
		n += fwd_icmp_rl_allow(&rl, &addrs, 10020, k1, 0);
	assert_int_equal(n, 20);
	/* inet_peer_xrlim_allow(): 6 to one destination, then one per
	 * icmp_ratelimit; another destination has its own. */
	memset(&rl, 0, sizeof(rl));
	for (n = 0, i = 0; i < 10; i++)
		n += fwd_icmp_rl_allow(&rl, &addrs, 5000, k1, 1000);
	assert_int_equal(n, 6);
	assert_true(fwd_icmp_rl_allow(&rl, &addrs, 5000, k2, 1000));
	assert_false(fwd_icmp_rl_allow(&rl, &addrs, 5999, k1, 1000));
	assert_true(fwd_icmp_rl_allow(&rl, &addrs, 6000, k1, 1000));
	/* Frag needed is never limited: 60 at once all sent. */
	addrs.msgs_per_sec = 1;
	addrs.msgs_burst = 1;
	fc.t.mtu = 1000;
	for (i = 0; i < 60; i++) {
		struct rte_mbuf *r = answer(pkt4("198.18.1.2", "198.18.2.2",
					64, IPPROTO_UDP, 1400,
					RTE_IPV4_HDR_DF_FLAG), FWD_MTU);

		assert_non_null(r);
		rte_pktmbuf_free(r);
	}
	for (n = 0, i = 0; i < 10; i++) {
		struct rte_mbuf *r = answer(pkt4("198.18.1.2", "198.18.2.2",
					1, IPPROTO_UDP, 100, 0),
				FWD_TTL_EXCEEDED);

		n += r != NULL;
		rte_pktmbuf_free(r);
	}
	assert_true(n <= 1);
	assert_int_equal(ctr[0].ev[FWD_EV_RATELIMITED], 10 - n);
	fc.t.mtu = 1500;
	fwd_addr_init(&addrs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_errors4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors6, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ndp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dad_and_bad_sources,
				setup, teardown),
		cmocka_unit_test_setup_teardown(test_echo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bcast_echo, setup,
				teardown),
		cmocka_unit_test_setup_teardown(test_bc_forwarding_errors,
				setup, teardown),
		cmocka_unit_test_setup_teardown(test_ratelimit, setup,
				teardown),
	};

	return UT_MAIN("ut_fwd_icmp", tests);
}
