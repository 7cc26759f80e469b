/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's hold gate (struct fwd_hold_gate, fwd_hold_hand(),
 * fwd_tx_flush()) as an lcore goes through it: packets made here go
 * through the pipeline (fwd_burst_decide()) to next-hop objects the test
 * publishes as the control side would, then the TX buffers are sent and
 * read back from the ports (rings) and the hold ring (fu_hold_init()).
 * Held packets are copied into npool packets on their way: every mbuf of
 * the test's pool must be back and npool's leak check clean after each
 * test. Each test says what a wrong gate would show. The control
 * thread's side: fwd_hold_ctl.c; what both use: fwd_hold_unit.h.
 */
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "unit_common.h"
#include "app_compat.h"
#include "fwd_hold_unit.h"

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
