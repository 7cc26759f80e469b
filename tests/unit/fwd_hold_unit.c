/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the hold gate's tests share (fwd_hold_unit.h): the configuration,
 * the packets they make and the checks of what the ports and the hold
 * ring carry.
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "unit_common.h"
#include "app_compat.h"
#include "fwd_neigh_table.h"
#include "fwd_unit.h"
#include "fwd_hold_unit.h"

/* Senders on port 0, destinations on ports 1 and 2. The neighbours' host
 * routes are loaded to their ports (the table of a file has room for its
 * rules alone); host_route() points them at the neighbours' next hops. */
static const char routes4[] = "R10.0.0.0/8 0\nR198.18.1.0/24 1\n"
	"R198.18.2.0/24 2\nR198.18.1.5/32 1\nR198.18.1.7/32 1\n"
	"R198.18.2.5/32 2\n";
static const char routes6[] = "R2001:2:0:9::/64 0\nR2001:2:0:1::/64 1\n"
	"R2001:2:0:2::/64 2\nR2001:2:0:1::5/128 1\n";

const uint8_t host6_x[16] = {
	0x20, 0x01, 0, 2, 0, 0, 0, 1, [15] = 5 };

const struct rte_ether_addr sender_mac = {
	{ 0x02, 0xaa, 0, 0, 0, 1 } };
const struct rte_ether_addr mac_x = {{ 0x02, 0xbb, 0, 0, 0, 5 }};
const struct rte_ether_addr mac_z = {{ 0x02, 0xbb, 0, 0, 2, 5 }};

struct rte_mempool *pool;
struct fwd_conf fc;
struct fu_run run;
/* Objects the test publishes: the control side's would be malloc'd. */
struct fwd_nh obj[4];

/* An IPv4 (@p v6 false: to @p dst) or IPv6 (to host6_x) packet from
 * the sender to port 0, received there, numbered @p seq. */
struct rte_mbuf *
pkt(bool v6, uint32_t dst, uint8_t seq)
{
	static const uint8_t src6[16] = {
		0x20, 0x01, 0, 2, 0, 0, 0, 9, [15] = 2 };
	const uint16_t l3 = v6 ? 40 : 20, len = l3 + 32;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	uint8_t *ip;

	assert_non_null(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m,
			RTE_ETHER_HDR_LEN + len);
	assert_non_null(eth);
	memset(eth, 0, RTE_ETHER_HDR_LEN + len);
	eth->src_addr = sender_mac;
	eth->dst_addr = fc.t.l2[0].src;
	ip = (uint8_t *)(eth + 1);
	if (v6) {
		struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)ip;

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
		h->vtc_flow = RTE_BE32(0x60000000);
		h->payload_len = rte_cpu_to_be_16(len - l3);
		h->proto = 253;
		h->hop_limits = 64;
		memcpy(APP_IPV6_BYTES(h->src_addr), src6, 16);
		memcpy(APP_IPV6_BYTES(h->dst_addr), host6_x, 16);
	} else {
		struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		h->version_ihl = 0x45;
		h->total_length = rte_cpu_to_be_16(len);
		h->time_to_live = 64;
		h->next_proto_id = 253;
		h->src_addr = RTE_BE32(RTE_IPV4(10, 1, 0, 2));
		h->dst_addr = rte_cpu_to_be_32(dst);
		h->hdr_checksum = rte_ipv4_cksum(h);
	}
	ip[l3] = seq;
	m->port = 0;
	return m;
}

/* The number pkt() gave @p m. */
uint8_t
seq_of(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	return p[RTE_ETHER_HDR_LEN +
		(p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) ? 40 : 20)];
}

/* Packets @p seq .. @p seq + @p n - 1 (IPv4, to @p dst) through the
 * pipeline on port 0: none dropped. */
void
send4(uint32_t dst, uint8_t seq, uint16_t n)
{
	struct rte_mbuf *m[8];
	uint16_t i;

	assert_true(n <= RTE_DIM(m));
	for (i = 0; i < n; i++)
		m[i] = pkt(false, dst, (uint8_t)(seq + i));
	fu_decide(&run, 0, m, n);
	assert_int_equal(run.c.nd, 0);
}

/* Next hop @p id's object as the control side publishes it: holding
 * (@p mac NULL: the hold MAC, the hold buffer) or resolving to @p mac
 * out of @p port. Into obj[@p k]. */
void
publish(unsigned int k, uint32_t id, const struct rte_ether_addr *mac,
		uint16_t port)
{
	struct rte_ether_addr hold;

	fwd_nh_hold_mac(id, &hold);
	fwd_nh_fill(&obj[k], mac != NULL ? mac : &hold, &fc.t.l2[port].src,
			mac != NULL ? port : FWD_TX_HOLD, port, id);
	fwd_nh_set(fc.t.nht, id, &obj[k]);
}

/* IPv4 host route @p ip (loaded) to next hop @p id. */
void
host_route(uint32_t ip, uint32_t id)
{
	assert_int_equal(rte_lpm_add(fc.t.lpm4, ip, 32, id), 0);
}

/* The 12 MAC bytes of a packet held by next hop @p id out of @p port. */
void
hold_eth(uint32_t id, uint16_t port, uint8_t eth[2 * RTE_ETHER_ADDR_LEN])
{
	struct rte_ether_addr a;

	fwd_nh_hold_mac(id, &a);
	memcpy(eth, &a, RTE_ETHER_ADDR_LEN);
	memcpy(eth + RTE_ETHER_ADDR_LEN, &fc.t.l2[port].src,
			RTE_ETHER_ADDR_LEN);
}

/* What a check took off the ring or a port: each packet's number and 12
 * MAC bytes, the packets freed first, so that a failed check leaks none
 * (the tear-down's leak checks then speak of the test's own). */
void
take(struct taken *t, struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	t->n = n;
	for (i = 0; i < n; i++) {
		t->seq[i] = seq_of(m[i]);
		memcpy(t->mac[i], rte_pktmbuf_mtod(m[i], const uint8_t *),
				sizeof(t->mac[i]));
	}
	rte_pktmbuf_free_bulk(m, n);
}

/*
 * What is on the hold ring: @p n packets, numbered @p seqs in order,
 * waiting for next hops @p ids (their destination MACs the hold MACs,
 * the source port @p port's). The ring then empty.
 */
void
check_ring(unsigned int n, const uint8_t *seqs, const uint32_t *ids,
		uint16_t port)
{
	uint8_t eth[2 * RTE_ETHER_ADDR_LEN];
	struct rte_mbuf *m[16];
	struct taken t;
	unsigned int i;

	take(&t, m, rte_ring_sc_dequeue_burst(fc.t.hold, (void **)m,
			RTE_DIM(m), NULL));
	assert_int_equal(rte_ring_count(fc.t.hold), 0);
	assert_int_equal(t.n, n);
	for (i = 0; i < n; i++) {
		hold_eth(ids[i], port, eth);
		assert_int_equal(t.seq[i], seqs[i]);
		assert_memory_equal(t.mac[i], eth, sizeof(eth));
	}
}

/*
 * What left port @p port: @p n packets numbered @p seqs in order, with
 * the MACs of object @p nh (its 12 bytes).
 */
void
check_port(uint16_t port, unsigned int n, const uint8_t *seqs,
		const struct fwd_nh *nh)
{
	struct rte_mbuf *m[16];
	struct taken t;
	unsigned int i;

	take(&t, m, fu_out(&run, port, m, RTE_DIM(m)));
	assert_int_equal(t.n, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(t.seq[i], seqs[i]);
		assert_memory_equal(t.mac[i], nh->eth16, sizeof(t.mac[i]));
	}
}

/* Nothing left any port. */
void
check_no_port(void)
{
	uint16_t p;

	for (p = 0; p < FU_PORTS; p++)
		check_port(p, 0, NULL, NULL);
}

/* The gate's count of each next hop: @p n for @p id, 0 for every
 * other (a count put on the wrong id, or one too many, shows). */
void
check_inflight(uint32_t id, uint32_t n, uint32_t id2, uint32_t n2)
{
	const struct fwd_hold_gate *g = fc.t.gate;
	uint32_t i;

	for (i = 0; i < FWD_NH_MAX; i++)
		assert_int_equal(g->inflight[i], i == id ? n :
				i == id2 ? n2 : 0);
}

int
setup_conf(void **state)
{
	int rc = ut_setup_default(state);

	if (rc != 0)
		return rc;
	pool = rte_pktmbuf_pool_create("ut_fwd_hold", 255, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (pool == NULL)
		return -1;
	fu_conf_init(&fc, FWD_LOOKUP_LPM, ALL_PORTS, routes4, routes6);
	fu_run_init(&run, &fc);
	return 0;
}

/* setup_conf()'s, freed; every mbuf back (@p bad: a test's own check
 * failed). */
int
teardown_conf(void **state, int bad)
{
	fwd_routes_free(&fc);
	bad |= rte_mempool_avail_count(pool) != pool->size;
	rte_mempool_free(pool);
	return ut_teardown_check(state) != 0 || bad ? -1 : 0;
}


int
setup(void **state)
{
	if (setup_conf(state) != 0)
		return -1;
	fu_hold_init(&fc, FWD_HOLD_RING);
	memset(obj, 0, sizeof(obj));
	return 0;
}

/*
 * Every buffer, the ports and the ring empty: each test read what it made.
 * What a failed test left is freed, so that the leak checks (the test's
 * pool, npool's) and the next test see only their own.
 */
int
teardown(void **state)
{
	struct rte_mbuf *m[64];
	uint16_t b, p, n;
	int bad = 0;

	for (b = 0; b < FWD_TX_NB; b++) {
		n = fwd_tx_count(&run.tx, b);
		rte_pktmbuf_free_bulk(run.tx.m[b], n);
		run.tx.tail[b] = run.tx.m[b];
		bad |= n != 0;
	}
	for (p = 0; p < FU_PORTS; p++)
		while ((n = fu_out(&run, p, m, RTE_DIM(m))) != 0) {
			rte_pktmbuf_free_bulk(m, n);
			bad = 1;
		}
	bad |= fu_hold_free(&fc) != 0;
	return teardown_conf(state, bad);
}
