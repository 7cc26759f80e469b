/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's hold gate (struct fwd_hold_gate, fwd_hold_hand(),
 * fwd_tx_flush()) as an lcore goes through it: packets made here go
 * through the pipeline (fwd_burst_decide()) to next-hop objects the test
 * publishes as the control side would, then the TX buffers are sent and
 * read back from the ports (rings) and the hold ring (fu_hold_init()).
 * Held packets are copied into npool packets on their way: every mbuf of
 * the test's pool must be back and npool's leak check clean after each
 * test. Each test says what a wrong gate would show.
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "unit_common.h"
#include "app_compat.h"
#include "fwd_ctl.h"
#include "fwd_ctl_pvt.h"
#include "fwd_ctl_setup.h"
#include "fwd_ctlmsg.h"
#include "fwd_neigh_table.h"
#include "fwd_unit.h"

/* Senders on port 0, destinations on ports 1 and 2. The neighbours' host
 * routes are loaded to their ports (the table of a file has room for its
 * rules alone); host_route() points them at the neighbours' next hops. */
static const char routes4[] = "R10.0.0.0/8 0\nR198.18.1.0/24 1\n"
	"R198.18.2.0/24 2\nR198.18.1.5/32 1\nR198.18.1.7/32 1\n"
	"R198.18.2.5/32 2\n";
static const char routes6[] = "R2001:2:0:9::/64 0\nR2001:2:0:1::/64 1\n"
	"R2001:2:0:2::/64 2\nR2001:2:0:1::5/128 1\n";

/* Neighbours' next hops (above the ports' own) and their hosts (host
 * order; DPDK 22.11's RTE_IPV4() shifts an int: UB past 127). */
#define HOST4(c, d) ((uint32_t)198 << 24 | 18u << 16 | (c) << 8 | (d))
#define NH_X (RTE_MAX_ETHPORTS + 7)
#define NH_Y (RTE_MAX_ETHPORTS + 9)
#define NH_Z (RTE_MAX_ETHPORTS + 12)
#define HOST_X HOST4(1u, 5u)
#define HOST_Y HOST4(1u, 7u)
#define HOST_Z HOST4(2u, 5u)
/* On port 1's link, no host route: held by port 1's own next hop. */
#define HOST_LINK HOST4(1u, 6u)
static const uint8_t host6_x[16] = {
	0x20, 0x01, 0, 2, 0, 0, 0, 1, [15] = 5 };

static const struct rte_ether_addr sender_mac = {
	{ 0x02, 0xaa, 0, 0, 0, 1 } };
static const struct rte_ether_addr mac_x = {{ 0x02, 0xbb, 0, 0, 0, 5 }};
static const struct rte_ether_addr mac_z = {{ 0x02, 0xbb, 0, 0, 2, 5 }};

static struct rte_mempool *pool;
static struct fwd_conf fc;
static struct fu_run run;
/* Objects the test publishes: the control side's would be malloc'd. */
static struct fwd_nh obj[4];

#define ALL_PORTS ((1ull << FU_PORTS) - 1)

/* An IPv4 (@p v6 false: to @p dst) or IPv6 (to host6_x) packet from
 * the sender to port 0, received there, numbered @p seq. */
static struct rte_mbuf *
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
static uint8_t
seq_of(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	return p[RTE_ETHER_HDR_LEN +
		(p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) ? 40 : 20)];
}

/* Packets @p seq .. @p seq + @p n - 1 (IPv4, to @p dst) through the
 * pipeline on port 0: none dropped. */
static void
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
static void
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
static void
host_route(uint32_t ip, uint32_t id)
{
	assert_int_equal(rte_lpm_add(fc.t.lpm4, ip, 32, id), 0);
}

/* The 12 MAC bytes of a packet held by next hop @p id out of @p port. */
static void
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
struct taken {
	unsigned int n;
	uint8_t seq[16];
	uint8_t mac[16][2 * RTE_ETHER_ADDR_LEN];
};

static void
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
static void
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
static void
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
static void
check_no_port(void)
{
	uint16_t p;

	for (p = 0; p < FU_PORTS; p++)
		check_port(p, 0, NULL, NULL);
}

/* The gate's count of each next hop: @p n for @p id, 0 for every
 * other (a count put on the wrong id, or one too many, shows). */
static void
check_inflight(uint32_t id, uint32_t n, uint32_t id2, uint32_t n2)
{
	const struct fwd_hold_gate *g = fc.t.gate;
	uint32_t i;

	for (i = 0; i < FWD_NH_MAX; i++)
		assert_int_equal(g->inflight[i], i == id ? n :
				i == id2 ? n2 : 0);
}

/* Events hold_late on the receiving port (0). */
#define LATE (run.ctr.port[0].ev[FWD_EV_HOLD_LATE])

/*
 * 1. Three packets held by X, still holding when the buffer is sent: on
 * the ring in their order, X's hold MAC kept, the gate counting 3 for X
 * and nothing for any other id; no port sends anything, none is late.
 */
static void
test_holding_on_ring(void **state __rte_unused)
{
	static const uint8_t seqs[] = { 1, 2, 3 };
	static const uint32_t ids[] = { NH_X, NH_X, NH_X };

	publish(0, NH_X, NULL, 1);
	host_route(HOST_X, NH_X);
	send4(HOST_X, 1, 3);
	/* The pass held them (not sent yet). */
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 3);
	fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 0);
	check_inflight(NH_X, 3, NH_X, 3);
	check_ring(3, seqs, ids, 1);
	check_no_port();
	assert_int_equal(LATE, 0);
	assert_int_equal(run.ctr.port[0].drops[FWD_UNRES_DISCARD], 0);
}

/*
 * 2. The same three, X resolving by the time the buffer is sent: none on
 * the ring and none counted in the gate; they leave X's port (1) in
 * order with X's 12 MAC bytes, counted hold_late on port 0 (where they
 * came in) and tx on port 1; nothing leaves another port.
 */
static void
test_resolved_sent_late(void **state __rte_unused)
{
	static const uint8_t seqs[] = { 1, 2, 3 };

	publish(0, NH_X, NULL, 1);
	host_route(HOST_X, NH_X);
	send4(HOST_X, 1, 3);
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 3);
	publish(1, NH_X, &mac_x, 1);
	fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	assert_int_equal(rte_ring_count(fc.t.hold), 0);
	check_inflight(NH_X, 0, NH_X, 0);
	assert_int_equal(LATE, 3);
	assert_int_equal(run.ctr.port[1].ev[FWD_EV_HOLD_LATE], 0);
	assert_int_equal(run.ctr.port[1].tx, 3);
	check_port(1, 3, seqs, &obj[1]);
	check_no_port();
}

/*
 * 3. A1..A3 held by X; X resolves; B1..B3 by the resolved X go on port
 * 1's buffer, behind them in the lcore's order: port 1 sends A1, A2, A3,
 * B1, B2, B3, whether the loop turn's flush sends every buffer (@p
 * port_only false) or only port 1's is sent (a full buffer,
 * fwd_tx_put()): the hold buffer goes first either way.
 */
static void
order(bool port_only)
{
	static const uint8_t seqs[] = { 1, 2, 3, 4, 5, 6 };

	publish(0, NH_X, NULL, 1);
	host_route(HOST_X, NH_X);
	send4(HOST_X, 1, 3);
	publish(1, NH_X, &mac_x, 1);
	send4(HOST_X, 4, 3);
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 3);
	assert_int_equal(fwd_tx_count(&run.tx, 1), 3);
	if (port_only)
		fwd_tx_flush(&run.tx, &run.ctr, 1);
	else
		fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 0);
	assert_int_equal(fwd_tx_count(&run.tx, 1), 0);
	assert_int_equal(rte_ring_count(fc.t.hold), 0);
	check_inflight(NH_X, 0, NH_X, 0);
	assert_int_equal(LATE, 3);
	assert_int_equal(run.ctr.port[1].tx, 6);
	check_port(1, 6, seqs, &obj[1]);
}

static void
test_order_all_buffers(void **state __rte_unused)
{
	order(false);
}

static void
test_order_port_buffer(void **state __rte_unused)
{
	order(true);
}

/*
 * 4. Held by port 1's own next hop (holding: --port-addr, no route to a
 * neighbour's next hop yet): P1 to HOST_X, P2 to HOST_LINK (IPv4), P3 to
 * host6_x. Then host routes to X for HOST_X and host6_x, as the control
 * side adds them when it makes X. With X holding (@p resolved false), P1 and P3 go on the ring
 * as X's (its hold MAC written, counted for X), P2 as port 1's; with X
 * resolving, P1 and P3 leave port 1 by X (late), P2 is still port 1's on
 * the ring. A lookup at the wrong offset, or the count on the id the
 * frame was held by, shows in the ids and counts.
 */
static void
routed_again(bool resolved)
{
	static const uint8_t seqs_held[] = { 1, 2, 3 }, seqs_p2[] = { 2 },
		seqs_late[] = { 1, 3 };
	static const uint32_t ids_held[] = { NH_X, 1, NH_X }, ids_p2[] = { 1 };
	uint8_t eth[2 * RTE_ETHER_ADDR_LEN];
	struct rte_mbuf *m[3] = {
		pkt(false, HOST_X, 1), pkt(false, HOST_LINK, 2),
		pkt(true, 0, 3),
	};
	unsigned int i;

	publish(0, 1, NULL, 1);
	fu_decide(&run, 0, m, 3);
	assert_int_equal(run.c.nd, 0);
	/* Held with port 1's hold MAC, in order. */
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 3);
	hold_eth(1, 1, eth);
	for (i = 0; i < 3; i++) {
		assert_int_equal(seq_of(run.tx.m[FWD_TX_HOLD][i]), i + 1);
		assert_memory_equal(rte_pktmbuf_mtod(run.tx.m[FWD_TX_HOLD][i],
				const uint8_t *), eth, sizeof(eth));
	}
	host_route(HOST_X, NH_X);
	assert_int_equal(app_lpm6_add(fc.t.lpm6, host6_x, 128, NH_X), 0);
	publish(1, NH_X, resolved ? &mac_x : NULL, 1);
	fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	if (resolved) {
		check_inflight(1, 1, 1, 1);
		check_ring(1, seqs_p2, ids_p2, 1);
		assert_int_equal(LATE, 2);
		check_port(1, 2, seqs_late, &obj[1]);
	} else {
		check_inflight(NH_X, 2, 1, 1);
		check_ring(3, seqs_held, ids_held, 1);
		assert_int_equal(LATE, 0);
		check_no_port();
	}
}

static void
test_port_held_routed_to_holding(void **state __rte_unused)
{
	routed_again(false);
}

static void
test_port_held_routed_to_resolved(void **state __rte_unused)
{
	routed_again(true);
}

/*
 * 5. X's neighbour gone (its object NULL) while two packets held by it
 * wait in the buffer: on the ring as X's, counted for X (the control side
 * drops them as it takes them off), none sent.
 */
static void
test_gone_on_ring(void **state __rte_unused)
{
	static const uint8_t seqs[] = { 1, 2 };
	static const uint32_t ids[] = { NH_X, NH_X };

	publish(0, NH_X, NULL, 1);
	host_route(HOST_X, NH_X);
	send4(HOST_X, 1, 2);
	fwd_nh_set(fc.t.nht, NH_X, NULL);
	fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	check_inflight(NH_X, 2, NH_X, 2);
	check_ring(2, seqs, ids, 1);
	check_no_port();
	assert_int_equal(LATE, 0);
}

/*
 * One buffer for three neighbours, interleaved: X resolves on port 1, Z
 * on port 2, Y still holds. X's packets leave port 1 and Z's port 2, each
 * in order, Y's go on the ring in order, counted for Y alone: the late
 * packets split by port without losing their order or one another's.
 */
static void
test_mixed(void **state __rte_unused)
{
	static const uint8_t sx[] = { 1, 4 }, sy[] = { 2, 5 }, sz[] = { 3, 6 };
	static const uint32_t ids[] = { NH_Y, NH_Y };
	struct rte_mbuf *m[6];
	unsigned int i;

	publish(0, NH_X, NULL, 1);
	publish(1, NH_Y, NULL, 1);
	publish(2, NH_Z, NULL, 2);
	host_route(HOST_X, NH_X);
	host_route(HOST_Y, NH_Y);
	host_route(HOST_Z, NH_Z);
	for (i = 0; i < 6; i++)
		m[i] = pkt(false, i % 3 == 0 ? HOST_X : i % 3 == 1 ?
				HOST_Y : HOST_Z, (uint8_t)(i + 1));
	fu_decide(&run, 0, m, 6);
	assert_int_equal(run.c.nd, 0);
	assert_int_equal(fwd_tx_count(&run.tx, FWD_TX_HOLD), 6);
	publish(0, NH_X, &mac_x, 1);
	publish(3, NH_Z, &mac_z, 2);
	fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	check_inflight(NH_Y, 2, NH_Y, 2);
	check_ring(2, sy, ids, 1);
	assert_int_equal(LATE, 4);
	assert_int_equal(run.ctr.port[1].tx, 2);
	assert_int_equal(run.ctr.port[2].tx, 2);
	check_port(1, 2, sx, &obj[0]);
	check_port(2, 2, sz, &obj[3]);
}

/*
 * A ring with room for 2 and 4 packets held: the first 2 on it in order,
 * counted 2 in the gate (what the ring refused is not waiting for X),
 * the other 2 dropped as unres_discard on port 0, their forwarded count
 * taken back.
 */
static void
test_ring_full(void **state __rte_unused)
{
	static const uint8_t seqs[] = { 1, 2 };
	static const uint32_t ids[] = { NH_X, NH_X };
	uint64_t fwd;

	fu_hold_free(&fc);
	fu_hold_init(&fc, 2);
	publish(0, NH_X, NULL, 1);
	host_route(HOST_X, NH_X);
	send4(HOST_X, 1, 4);
	fwd = run.ctr.port[0].fwd;
	fwd_tx_flush_ports(&run.tx, &run.ctr, ALL_PORTS, 1);
	check_inflight(NH_X, 2, NH_X, 2);
	check_ring(2, seqs, ids, 1);
	assert_int_equal(run.ctr.port[0].drops[FWD_UNRES_DISCARD], 2);
	assert_int_equal(run.ctr.port[0].fwd, fwd - 2);
	check_no_port();
}

/* The other lcore's side of test_gate_lock(): the hold buffer sent. */
static int
flush_hold(void *arg __rte_unused)
{
	fwd_tx_flush(&run.tx, &run.ctr, FWD_TX_HOLD);
	return 0;
}

/*
 * The hand waits for the gate: with the lock taken here (the control
 * side's), another lcore sending the hold buffer puts nothing on the
 * ring; X published resolving under the lock, the packets leave by X once
 * the lock is let go. A hand that looked at the objects outside the lock
 * would have put them on the ring (or, racing, not waited).
 */
static void
test_gate_lock(void **state __rte_unused)
{
	static const uint8_t seqs[] = { 1, 2 };
	unsigned int i, early;

	publish(0, NH_X, NULL, 1);
	host_route(HOST_X, NH_X);
	send4(HOST_X, 1, 2);
	rte_spinlock_lock(&fc.t.gate->lock);
	assert_int_equal(ut_remote_launch(flush_hold, NULL, UT_OTHER_LCORE),
			0);
	/* Up to 50 ms for a hand that does not wait to show itself; the
	 * lock let go before any assert (the gate is freed after it). */
	for (i = 0; i < 50 && rte_ring_count(fc.t.hold) == 0; i++)
		rte_delay_ms(1);
	early = rte_ring_count(fc.t.hold);
	publish(1, NH_X, &mac_x, 1);
	rte_spinlock_unlock(&fc.t.gate->lock);
	assert_int_equal(ut_wait_lcore(UT_OTHER_LCORE), 0);
	assert_int_equal(early, 0);
	check_inflight(NH_X, 0, NH_X, 0);
	assert_int_equal(rte_ring_count(fc.t.hold), 0);
	assert_int_equal(LATE, 2);
	check_port(1, 2, seqs, &obj[1]);
}

/* The configuration of every test: the pool, the tables, a run. */
static int
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
static int
teardown_conf(void **state, int bad)
{
	fwd_routes_free(&fc);
	bad |= rte_mempool_avail_count(pool) != pool->size;
	rte_mempool_free(pool);
	return ut_teardown_check(state) != 0 || bad ? -1 : 0;
}

/*
 * 8. The control thread's side of the gate: a neighbour resolves while
 * its packets are on the hold ring. With the thread kept off its CPU
 * for longer than the 2 ms a resolving object waits for a stream, its
 * first look after the gap must not publish the object past what the
 * lcores held meanwhile: it takes them off the ring, has them sent,
 * then publishes. Only packets that keep coming while the thread looks
 * for 2 ms are passed (publish_forced). A wait counted from when the
 * neighbour resolved, gap included, publishes at once with two packets
 * still on the ring (they would leave after the fast path's).
 */
static struct fwd_ctl *ctl;
static struct rte_rcu_qsbr *ctl_qsv;
static struct app_lcore_ctr ctl_ctr;

/* A packet from port 0 to @p dst held by next hop @p id (its hold MAC),
 * on the ring as an lcore hands it (counted in the gate). */
static void
ctl_hold(uint32_t dst, uint32_t id, uint8_t seq)
{
	struct rte_mbuf *m = pkt(false, dst, seq);
	uint8_t eth[2 * RTE_ETHER_ADDR_LEN];

	hold_eth(id, 1, eth);
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), eth, sizeof(eth));
	assert_int_equal(rte_ring_mp_enqueue(fc.t.hold, m), 0);
	fc.t.gate->inflight[id]++;
}

/* The command lcore: every command carried out (packets sent: their
 * numbers into @p seqs, @p n of them at most), cmd_done moved. */
static unsigned int
ctl_carry_out(uint8_t *seqs, unsigned int n)
{
	struct fwd_cmd cmd;
	unsigned int k = 0, done = 0;

	while (rte_ring_sc_dequeue_elem(fc.t.cmd, &cmd, sizeof(cmd)) == 0) {
		done++;
		if (cmd.kind == FWD_CMD_SEND && k < n)
			seqs[k++] = seq_of(cmd.m);
		if (cmd.m != NULL)
			rte_pktmbuf_free(cmd.m);
	}
	__atomic_store_n(fc.t.cmd_done, *fc.t.cmd_done + done,
			__ATOMIC_RELEASE);
	return k;
}

/* Whether next hop @p id's object sends out of port 1 (resolving). */
static bool
ctl_resolving(uint32_t id)
{
	const struct fwd_nh *nh = fwd_nh_get(fc.t.nht, id);

	return nh != NULL && nh->tx == 1;
}

/*
 * Packet 1 to HOST_X held by port 1's own next hop: the thread makes
 * the neighbour and solicits it; ARP's reply makes it REACHABLE, packet
 * 1 is sent (its number into @p seq) and the resolving object waits for
 * that: not published. Looks at @p t0. @return The neighbour's next hop.
 */
static uint32_t
ctl_resolve(uint64_t t0, uint8_t *seq)
{
	const uint8_t ip[16] = { 198, 18, 1, 5 };
	struct fwd_nev ev = {
		.mac = mac_x, .kind = FWD_NEV_ARP,
		.flags = FWD_NEV_F_MAC | FWD_NEV_F_HOST, .port = 1,
	};
	const struct fwd_neigh *n;

	ctl_hold(HOST_X, 1, 1);
	fwd_ctl_poll(ctl, t0);
	n = fwd_neigh_lookup(ctl->nb[0], 1, ip);
	assert_non_null(n);
	assert_int_equal(n->state, FWD_NUD_INCOMPLETE);
	assert_int_equal(ctl_carry_out(seq, 1), 0);
	memcpy(ev.ip, ip, 4);
	assert_int_equal(rte_ring_mp_enqueue_elem(fc.t.nev, &ev, sizeof(ev)),
			0);
	fwd_ctl_poll(ctl, t0);
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	assert_false(ctl_resolving(n->nh));
	assert_int_equal(ctl_carry_out(seq, 1), 1);
	return n->nh;
}

static void
test_ctl_gap_not_forced(void **state __rte_unused)
{
	static const uint8_t queue_then_ring[] = { 1, 2, 3 };
	const uint64_t t0 = fwd_ctl_now_ms();
	uint8_t seqs[8];
	uint32_t id = ctl_resolve(t0, seqs);

	/* The thread is away 5 ms; the lcores hold two more by it. */
	ctl_hold(HOST_X, id, 2);
	ctl_hold(HOST_X, id, 3);
	fwd_ctl_poll(ctl, t0 + 5);
	assert_false(ctl_resolving(id));
	assert_int_equal(rte_ring_count(fc.t.hold), 0);
	assert_int_equal(ctl_carry_out(seqs + 1, RTE_DIM(seqs) - 1), 2);
	assert_memory_equal(seqs, queue_then_ring, 3);
	fwd_ctl_poll(ctl, t0 + 5);
	assert_true(ctl_resolving(id));
	assert_int_equal(ctl->publish_forced, 0);
}

/* Packets that keep coming while the thread looks, one a millisecond:
 * the object goes 2 ms after the first look that found them, forced. */
static void
test_ctl_stream_forced(void **state __rte_unused)
{
	const uint64_t t0 = fwd_ctl_now_ms();
	uint8_t seqs[8], seq = 2;
	uint32_t id = ctl_resolve(t0, seqs);
	uint64_t t;

	for (t = t0 + 1; !ctl_resolving(id) && t < t0 + 10; t++) {
		ctl_carry_out(seqs, RTE_DIM(seqs));
		ctl_hold(HOST_X, id, seq++);
		fwd_ctl_poll(ctl, t);
	}
	assert_true(ctl_resolving(id));
	assert_int_equal(ctl->publish_forced, 1);
	/* Published at the look of t0 + 2. */
	assert_int_equal(t, t0 + 3);
}

/* setup_conf() and a control side as fwd_ctl_create() makes it for
 * port 1 resolving, without its thread (the tests turn its loop). */
static int
setup_ctl(void **state)
{
	struct fwd_ctl_conf c;
	size_t sz;

	if (setup_conf(state) != 0)
		return -1;
	sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	ctl_qsv = rte_zmalloc("ut_ctl_qsv", sz, RTE_CACHE_LINE_SIZE);
	if (ctl_qsv == NULL || rte_rcu_qsbr_init(ctl_qsv, RTE_MAX_LCORE) != 0)
		return -1;
	memset(&c, 0, sizeof(c));
	memset(&ctl_ctr, 0, sizeof(ctl_ctr));
	c.tabs[0] = &fc.t;
	c.ntabs = 1;
	c.resolve = 1u << 1;
	c.max_routes[0] = c.max_routes[1] = 1024;
	c.cmd_lcore = rte_lcore_id();
	c.pool = pool;
	c.qsv = ctl_qsv;
	c.ctr = &ctl_ctr;
	ctl = fwd_ctl_create(&c);
	return ctl == NULL ? -1 : 0;
}

/* The commands left carried out, what the control side holds freed. */
static int
teardown_ctl(void **state)
{
	ctl_carry_out(NULL, 0);
	fwd_ctl_stop(ctl);
	fwd_ctl_free(ctl);
	ctl = NULL;
	fc.t.hold = NULL;
	fc.t.gate = NULL;
	rte_free(ctl_qsv);
	return teardown_conf(state, 0);
}

static int
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
static int
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

int
main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_holding_on_ring),
		T(test_resolved_sent_late),
		T(test_order_all_buffers),
		T(test_order_port_buffer),
		T(test_port_held_routed_to_holding),
		T(test_port_held_routed_to_resolved),
		T(test_gone_on_ring),
		T(test_mixed),
		T(test_ring_full),
		T(test_gate_lock),
		cmocka_unit_test_setup_teardown(test_ctl_gap_not_forced,
				setup_ctl, teardown_ctl),
		cmocka_unit_test_setup_teardown(test_ctl_stream_forced,
				setup_ctl, teardown_ctl),
	};
#undef T

	return UT_MAIN("ut_fwd_hold", tests);
}
