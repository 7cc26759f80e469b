/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hold gate's tests (fwd_hold_test.c), the control thread's side:
 * fwd_ctl_poll() turned by the test with a clock of its own.
 */
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include "unit_common.h"
#include "app_compat.h"
#include "fwd_ctl.h"
#include "fwd_ctl_pvt.h"
#include "fwd_ctl_setup.h"
#include "fwd_ctlmsg.h"
#include "fwd_neigh_table.h"
#include "fwd_hold_unit.h"

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

void
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
void
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
int
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
int
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
