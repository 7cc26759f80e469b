/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's neighbour tables (apps/fwd/ctl/fwd_neigh.h) against Linux's
 * state machine: each test drives a table with made-up time and events
 * and reads what it did through recording operations (sends, solicits,
 * drops, publications, in order).
 */
#include <errno.h>
#include <string.h>

#include "unit_common.h"

#include <rte_mbuf.h>

#include "fwd_neigh_table.h"

#define MAX_CALLS 64

enum call_kind { C_SEND, C_SOLICIT, C_DROP, C_PUBLISH, C_MADE, C_GONE };

struct call {
	enum call_kind kind;
	const struct rte_mbuf *m;   /* send, drop */
	unsigned int why;           /* drop */
	bool unicast;               /* solicit */
	bool resolves;              /* publish */
	struct rte_ether_addr mac;  /* send, publish */
};

static struct {
	struct call c[MAX_CALLS];
	unsigned int n;
	uint32_t next_nh;
	struct rte_mempool *mp;
} rec;

static void
note(enum call_kind k, const struct rte_mbuf *m, unsigned int why,
		bool flag, const struct rte_ether_addr *mac)
{
	struct call *c;

	assert_true(rec.n < MAX_CALLS);
	c = &rec.c[rec.n++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	c->m = m;
	c->why = why;
	c->unicast = flag;
	c->resolves = flag;
	if (mac != NULL)
		c->mac = *mac;
}

static void
op_send(void *ctx, const struct fwd_neigh *n, struct rte_mbuf *m)
{
	(void)ctx;
	note(C_SEND, m, 0, false, &n->mac);
	rte_pktmbuf_free(m);
}

static void
op_solicit(void *ctx, const struct fwd_neigh *n, bool unicast,
		const struct rte_mbuf *last)
{
	(void)ctx;
	(void)n;
	note(C_SOLICIT, last, 0, unicast, NULL);
}

static void
op_drop(void *ctx, struct rte_mbuf *m, unsigned int why)
{
	(void)ctx;
	note(C_DROP, m, why, false, NULL);
	rte_pktmbuf_free(m);
}

static void
op_publish(void *ctx, struct fwd_neigh *n)
{
	(void)ctx;
	note(C_PUBLISH, NULL, 0, n->published, &n->mac);
}

static void
op_life(void *ctx, struct fwd_neigh *n, bool made)
{
	(void)ctx;
	(void)n;
	note(made ? C_MADE : C_GONE, NULL, 0, false, NULL);
}

static const struct fwd_neigh_ops ops = {
	op_send, op_solicit, op_drop, op_publish, op_life,
};

static uint32_t
nh_get(void *ctx)
{
	(void)ctx;
	return rec.next_nh++;
}

static void
nh_put(void *ctx, uint32_t nh)
{
	(void)ctx;
	(void)nh;
}

static const uint8_t ip_x[16] = { 198, 18, 2, 5 };
static const struct rte_ether_addr mac_x = {{ 2, 0, 0, 0, 0x22, 5 }};
static const struct rte_ether_addr mac_y = {{ 2, 0, 0, 0, 0x22, 6 }};

static struct fwd_neigh_tbl *
tbl_make(struct fwd_neigh_parms *p)
{
	struct fwd_neigh_parms d;
	struct fwd_neigh_tbl *t;

	if (p == NULL) {
		fwd_neigh_parms_default(&d, false);
		p = &d;
	}
	memset(rec.c, 0, sizeof(rec.c));
	rec.n = 0;
	rec.next_nh = 100;
	t = fwd_neigh_tbl_create(p, false, &ops, NULL, nh_get, nh_put);
	assert_non_null(t);
	return t;
}

static struct rte_mbuf *
pkt(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(rec.mp);

	assert_non_null(m);
	assert_non_null(rte_pktmbuf_append(m, 64));
	return m;
}

/* The calls of kind @p k since call @p from. */
static unsigned int
count(enum call_kind k, unsigned int from)
{
	unsigned int i, n = 0;

	for (i = from; i < rec.n; i++)
		n += rec.c[i].kind == k;
	return n;
}

static struct fwd_nev
ev_of(uint8_t kind, uint8_t flags, const struct rte_ether_addr *mac)
{
	struct fwd_nev ev;

	memset(&ev, 0, sizeof(ev));
	memcpy(ev.ip, ip_x, 4);
	ev.kind = kind;
	ev.flags = flags | (mac != NULL ? FWD_NEV_F_MAC : 0);
	if (mac != NULL)
		ev.mac = *mac;
	ev.port = 1;
	return ev;
}

/* Linux: 3 broadcast probes, retrans_time apart; FAILED when the third
 * is a retrans_time old; the queue answered as failed. */
static void
test_incomplete_three_probes_then_failed(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_neigh *n = fwd_neigh_get(t, 1, ip_x, 1000);
	struct rte_mbuf *m = pkt();
	unsigned int i;

	(void)state;
	assert_non_null(n);
	assert_int_equal(n->state, FWD_NUD_NONE);
	assert_int_equal(n->nh, 100);
	fwd_neigh_output(n, m, 1000);
	assert_int_equal(n->state, FWD_NUD_INCOMPLETE);
	assert_int_equal(n->qlen, 1);
	assert_int_equal(count(C_SOLICIT, 0), 1);
	assert_false(rec.c[rec.n - 1].unicast);
	assert_ptr_equal(rec.c[rec.n - 1].m, m);
	fwd_neigh_tick(t, 1999);
	assert_int_equal(count(C_SOLICIT, 0), 1);
	for (i = 1; i <= 2; i++) {
		fwd_neigh_tick(t, 1000 + 1000 * i);
		assert_int_equal(count(C_SOLICIT, 0), 1 + i);
		assert_int_equal(n->state, FWD_NUD_INCOMPLETE);
	}
	fwd_neigh_tick(t, 4000);
	assert_int_equal(n->state, FWD_NUD_FAILED);
	assert_int_equal(count(C_SOLICIT, 0), 3);
	assert_int_equal(count(C_DROP, 0), 1);
	assert_int_equal(rec.c[rec.n - 1].kind, C_DROP);
	assert_int_equal(rec.c[rec.n - 1].why, FWD_NEIGH_FAILED);
	assert_int_equal(n->qlen, 0);
	assert_int_equal(fwd_neigh_stats(t)->res_failed, 1);
	fwd_neigh_tbl_free(t);
}

/* A reply sent to the port: REACHABLE, the queue sent in order before
 * the next hop resolves (its publication comes last). */
static void
test_reply_sends_queue_in_order(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_neigh *n = fwd_neigh_get(t, 1, ip_x, 0);
	struct rte_mbuf *m[3];
	struct fwd_nev ev;
	unsigned int i, from;

	(void)state;
	for (i = 0; i < 3; i++) {
		m[i] = pkt();
		fwd_neigh_output(n, m[i], 10 * i);
	}
	assert_int_equal(n->qlen, 3);
	from = rec.n;
	ev = ev_of(FWD_NEV_ARP, FWD_NEV_F_HOST, &mac_x);
	fwd_neigh_event(t, &ev, 500);
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_x));
	assert_int_equal(rec.n - from, 4);
	for (i = 0; i < 3; i++) {
		assert_int_equal(rec.c[from + i].kind, C_SEND);
		assert_ptr_equal(rec.c[from + i].m, m[i]);
	}
	assert_int_equal(rec.c[from + 3].kind, C_PUBLISH);
	assert_true(rec.c[from + 3].resolves);
	fwd_neigh_tbl_free(t);
}

/* REACHABLE for reachable_time (15..45 s), then STALE, which holds again
 * (its first use is seen); that use sends at once, DELAY, then PROBE:
 * 3 unicast probes, FAILED. */
static void
test_reachable_stale_delay_probe_failed(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_neigh *n = fwd_neigh_get(t, 1, ip_x, 0);
	struct fwd_nev ev = ev_of(FWD_NEV_ARP, FWD_NEV_F_HOST, &mac_x);
	uint64_t now;
	unsigned int from;

	(void)state;
	fwd_neigh_output(n, pkt(), 0);
	fwd_neigh_event(t, &ev, 100);
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	fwd_neigh_tick(t, 100 + 15000 - 1);
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	for (now = 15100; n->state == FWD_NUD_REACHABLE && now < 50000;
			now += 100)
		fwd_neigh_tick(t, now);
	assert_int_equal(n->state, FWD_NUD_STALE);
	assert_true(now <= 45100 + 100);
	assert_false(rec.c[rec.n - 1].resolves);
	from = rec.n;
	fwd_neigh_output(n, pkt(), now);
	assert_int_equal(n->state, FWD_NUD_DELAY);
	assert_int_equal(count(C_SEND, from), 1);
	assert_int_equal(count(C_PUBLISH, from), 1);
	from = rec.n;
	fwd_neigh_tick(t, now + 5000);
	assert_int_equal(n->state, FWD_NUD_PROBE);
	assert_int_equal(count(C_SOLICIT, from), 1);
	assert_true(rec.c[rec.n - 1].unicast);
	fwd_neigh_tick(t, now + 6000);
	fwd_neigh_tick(t, now + 7000);
	assert_int_equal(count(C_SOLICIT, from), 3);
	assert_int_equal(n->state, FWD_NUD_PROBE);
	fwd_neigh_tick(t, now + 8000);
	assert_int_equal(n->state, FWD_NUD_FAILED);
	assert_false(rec.c[rec.n - 1].resolves);
	fwd_neigh_tbl_free(t);
}

/* A confirmation in DELAY makes it REACHABLE at its timer. */
static void
test_delay_confirmed_reachable(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_neigh *n = fwd_neigh_get(t, 1, ip_x, 0);
	struct fwd_nev req = ev_of(FWD_NEV_ARP_REQ, 0, &mac_x);
	struct fwd_nev rep = ev_of(FWD_NEV_ARP, FWD_NEV_F_HOST, &mac_x);

	(void)state;
	fwd_neigh_event(t, &req, 0);
	assert_int_equal(n->state, FWD_NUD_STALE);
	fwd_neigh_output(n, pkt(), 100);
	assert_int_equal(n->state, FWD_NUD_DELAY);
	fwd_neigh_event(t, &rep, 2000);
	/* Linux: DELAY -> REACHABLE by the update itself. */
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	fwd_neigh_tick(t, 5100);
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	fwd_neigh_tbl_free(t);
}

/* The queue never pins more than unres_qlen_bytes: the oldest go. */
static void
test_queue_bounded_in_bytes(void **state)
{
	struct fwd_neigh_parms p;
	struct fwd_neigh_tbl *t;
	struct fwd_neigh *n;
	struct rte_mbuf *m[5];
	uint32_t one;
	unsigned int i;

	(void)state;
	fwd_neigh_parms_default(&p, false);
	m[0] = pkt();
	one = npool_pkt_truesize(m[0]);
	p.unres_qlen_bytes = 3 * one;
	t = tbl_make(&p);
	n = fwd_neigh_get(t, 1, ip_x, 0);
	for (i = 1; i < 5; i++)
		m[i] = pkt();
	for (i = 0; i < 5; i++)
		fwd_neigh_output(n, m[i], i);
	assert_int_equal(n->qlen, 3);
	assert_int_equal(n->qbytes, 3 * one);
	assert_int_equal(count(C_DROP, 0), 2);
	assert_ptr_equal(n->q[n->qhead], m[2]);
	assert_int_equal(fwd_neigh_stats(t)->unres_discards, 2);
	for (i = 0; i < rec.n; i++)
		if (rec.c[i].kind == C_DROP) {
			assert_int_equal(rec.c[i].why, FWD_UNRES_DISCARD);
			assert_true(rec.c[i].m == m[0] || rec.c[i].m == m[1]);
		}
	fwd_neigh_tbl_free(t);
}

/* arp_accept 0: a reply or gratuitous ARP about no entry makes none; a
 * request for us does (STALE). */
static void
test_learning_makes_entries_only_from_requests(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_nev ev = ev_of(FWD_NEV_ARP, FWD_NEV_F_HOST, &mac_x);
	struct fwd_neigh *n;

	(void)state;
	fwd_neigh_event(t, &ev, 0);
	ev = ev_of(FWD_NEV_ARP, FWD_NEV_F_GARP, &mac_x);
	fwd_neigh_event(t, &ev, 0);
	ev = ev_of(FWD_NEV_NA, FWD_NEV_F_SOLICITED, &mac_x);
	fwd_neigh_event(t, &ev, 0);
	assert_int_equal(fwd_neigh_count(t), 0);
	assert_int_equal(fwd_neigh_stats(t)->ignored, 3);
	ev = ev_of(FWD_NEV_ARP_REQ, 0, &mac_x);
	fwd_neigh_event(t, &ev, 0);
	n = fwd_neigh_lookup(t, 1, ip_x);
	assert_non_null(n);
	assert_int_equal(n->state, FWD_NUD_STALE);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_x));
	fwd_neigh_tbl_free(t);
}

/* ARP's locktime: another MAC within 1 s of the last change is not taken
 * (unless gratuitous); after it, it is. */
static void
test_locktime(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_nev ev = ev_of(FWD_NEV_ARP_REQ, 0, &mac_x);
	struct fwd_neigh *n;

	(void)state;
	fwd_neigh_event(t, &ev, 0);
	n = fwd_neigh_lookup(t, 1, ip_x);
	ev = ev_of(FWD_NEV_ARP, 0, &mac_y);
	fwd_neigh_event(t, &ev, 500);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_x));
	ev = ev_of(FWD_NEV_ARP, FWD_NEV_F_GARP, &mac_y);
	fwd_neigh_event(t, &ev, 600);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_y));
	ev = ev_of(FWD_NEV_ARP, 0, &mac_x);
	fwd_neigh_event(t, &ev, 1601);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_x));
	fwd_neigh_tbl_free(t);
}

/* ndisc_recv_na(): solicited REACHABLE; another MAC without the override
 * flag only suspects a REACHABLE entry (STALE, its MAC kept); with it,
 * the MAC is taken. */
static void
test_na_override_rules(void **state)
{
	struct fwd_neigh_parms p;
	struct fwd_neigh_tbl *t;
	struct fwd_neigh *n;
	struct fwd_nev ev;

	(void)state;
	fwd_neigh_parms_default(&p, true);
	t = tbl_make(&p);
	n = fwd_neigh_get(t, 1, ip_x, 0);
	fwd_neigh_output(n, pkt(), 0);
	ev = ev_of(FWD_NEV_NA, FWD_NEV_F_SOLICITED | FWD_NEV_F_ROUTER,
			&mac_x);
	fwd_neigh_event(t, &ev, 10);
	assert_int_equal(n->state, FWD_NUD_REACHABLE);
	assert_true(n->router);
	ev = ev_of(FWD_NEV_NA, FWD_NEV_F_SOLICITED, &mac_y);
	fwd_neigh_event(t, &ev, 20);
	assert_int_equal(n->state, FWD_NUD_STALE);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_x));
	ev = ev_of(FWD_NEV_NA, FWD_NEV_F_OVERRIDE, &mac_y);
	fwd_neigh_event(t, &ev, 30);
	assert_int_equal(n->state, FWD_NUD_STALE);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_y));
	fwd_neigh_tbl_free(t);
}

/* A permanent entry is never solicited, overridden nor collected. */
static void
test_permanent(void **state)
{
	struct fwd_neigh_tbl *t = tbl_make(NULL);
	struct fwd_nev ev = ev_of(FWD_NEV_ARP, FWD_NEV_F_GARP, &mac_y);
	struct fwd_neigh *n;
	unsigned int from;

	(void)state;
	assert_int_equal(fwd_neigh_set_permanent(t, 1, ip_x, &mac_x, 0), 0);
	n = fwd_neigh_lookup(t, 1, ip_x);
	assert_int_equal(n->state, FWD_NUD_PERMANENT);
	from = rec.n;
	fwd_neigh_output(n, pkt(), 5);
	assert_int_equal(count(C_SEND, from), 1);
	fwd_neigh_event(t, &ev, 10);
	assert_true(rte_is_same_ether_addr(&n->mac, &mac_x));
	fwd_neigh_tick(t, 10000000);
	assert_int_equal(count(C_SOLICIT, 0), 0);
	assert_non_null(fwd_neigh_lookup(t, 1, ip_x));
	fwd_neigh_tbl_free(t);
}

static void
op_publish_quiet(void *ctx, struct fwd_neigh *n)
{
	(void)ctx;
	(void)n;
}

static void
op_life_quiet(void *ctx, struct fwd_neigh *n, bool made)
{
	(void)ctx;
	(void)n;
	(void)made;
}

/* At most FWD_NEIGH_PERM_MAX permanent entries, room left or not: the
 * others keep their gc_thresh3 slots. One set again is no new one. */
static void
test_permanent_bounded(void **state)
{
	static const struct fwd_neigh_ops quiet = {
		op_send, op_solicit, op_drop, op_publish_quiet, op_life_quiet,
	};
	struct fwd_neigh_parms p;
	struct fwd_neigh_tbl *t;
	uint8_t ip[16] = { 10 };
	unsigned int i;

	(void)state;
	fwd_neigh_parms_default(&p, false);
	rec.next_nh = 100;
	t = fwd_neigh_tbl_create(&p, false, &quiet, NULL, nh_get, nh_put);
	assert_non_null(t);
	for (i = 0; i < FWD_NEIGH_PERM_MAX; i++) {
		ip[2] = (uint8_t)(i >> 8);
		ip[3] = (uint8_t)i;
		assert_int_equal(fwd_neigh_set_permanent(t, 0, ip, &mac_x, 0),
				0);
	}
	assert_int_equal(fwd_neigh_set_permanent(t, 0, ip, &mac_y, 0), 0);
	assert_true(rte_is_same_ether_addr(&fwd_neigh_lookup(t, 0, ip)->mac,
			&mac_y));
	ip[1] = 1;
	assert_int_equal(fwd_neigh_set_permanent(t, 0, ip, &mac_x, 0),
			-ENOSPC);
	assert_null(fwd_neigh_lookup(t, 0, ip));
	assert_int_equal(fwd_neigh_count(t), FWD_NEIGH_PERM_MAX);
	/* An entry that may go still finds its slot. */
	assert_non_null(fwd_neigh_get(t, 0, ip, 0));
	fwd_neigh_tbl_free(t);
}

/* A full table first removes entries not updated in the last 5 s (down
 * to gc_thresh2); entries a route names never go: then none is made. */
static void
test_table_full_forced_gc(void **state)
{
	struct fwd_neigh_parms p;
	struct fwd_neigh_tbl *t;
	struct fwd_neigh *n;
	uint8_t ip[16] = { 198, 18, 2 };
	unsigned int i;

	(void)state;
	fwd_neigh_parms_default(&p, false);
	p.gc_thresh1 = 2;
	p.gc_thresh2 = 2;
	p.gc_thresh3 = 4;
	t = tbl_make(&p);
	for (i = 0; i < 4; i++) {
		ip[3] = (uint8_t)(10 + i);
		assert_non_null(fwd_neigh_get(t, 1, ip, 0));
	}
	ip[3] = 20;
	/* All four updated less than 5 s ago: none may go. */
	assert_null(fwd_neigh_get(t, 1, ip, 1000));
	assert_int_equal(fwd_neigh_stats(t)->table_fulls, 1);
	n = fwd_neigh_lookup(t, 1, (uint8_t []){ 198, 18, 2, 10, [15] = 0 });
	n->refs = 1;
	assert_non_null(fwd_neigh_get(t, 1, ip, 6000));
	assert_int_equal(fwd_neigh_count(t), 3);
	assert_non_null(fwd_neigh_lookup(t, 1,
			(uint8_t []){ 198, 18, 2, 10, [15] = 0 }));
	assert_int_equal(count(C_GONE, 0), 2);
	n->refs = 0;
	fwd_neigh_tbl_free(t);
}

/* Periodic collection: unused (gc_stale_time) or FAILED entries go,
 * those with a timer running stay. */
static void
test_periodic_gc(void **state)
{
	struct fwd_neigh_parms p;
	struct fwd_neigh_tbl *t;
	uint8_t ip[16] = { 198, 18, 2, 30 };

	(void)state;
	fwd_neigh_parms_default(&p, false);
	p.gc_thresh1 = 0;
	t = tbl_make(&p);
	assert_non_null(fwd_neigh_get(t, 1, ip, 0));
	fwd_neigh_output(fwd_neigh_get(t, 1, ip_x, 0), pkt(), 0);
	fwd_neigh_tick(t, 0);
	fwd_neigh_tick(t, 59000);
	assert_int_equal(fwd_neigh_count(t), 2);
	fwd_neigh_tick(t, 60000);
	fwd_neigh_tick(t, 62000);
	assert_int_equal(fwd_neigh_lookup(t, 1, ip_x)->state, FWD_NUD_FAILED);
	/* The next run: one FAILED, the other unused for 60 s. */
	fwd_neigh_tick(t, 76000);
	assert_int_equal(fwd_neigh_count(t), 0);
	assert_true(fwd_neigh_stats(t)->periodic_gc_runs >= 2);
	fwd_neigh_tbl_free(t);
}

static int
setup(void **state)
{
	(void)state;
	rec.mp = rte_pktmbuf_pool_create("ut_neigh", 256, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return rec.mp == NULL ? -1 : 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_incomplete_three_probes_then_failed,
				setup),
		cmocka_unit_test(test_reply_sends_queue_in_order),
		cmocka_unit_test(test_reachable_stale_delay_probe_failed),
		cmocka_unit_test(test_delay_confirmed_reachable),
		cmocka_unit_test(test_queue_bounded_in_bytes),
		cmocka_unit_test(test_learning_makes_entries_only_from_requests),
		cmocka_unit_test(test_locktime),
		cmocka_unit_test(test_na_override_rules),
		cmocka_unit_test(test_permanent),
		cmocka_unit_test(test_permanent_bounded),
		cmocka_unit_test(test_table_full_forced_gc),
		cmocka_unit_test(test_periodic_gc),
	};

	return UT_MAIN("ut_fwd_neigh", tests);
}
