/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Mid-size packets (lib/npool/npool_pkt.h, "Mid-size packets"): above
 * npool_conf.tiny_len and up to mid_len bytes of room a packet of
 * npool_napi_alloc_pkt(), npool_alloc_pkt() and the bulk flavour is one
 * direct mbuf of the mid-size pool, a stock mbuf's object; above mid_len
 * the head + fragment packet stays. The class boundaries, the consume
 * path on the lcore that made them and on another, what npool_usage
 * counts, and a pool run dry: every failure counted, nothing lost. Each
 * test ends with the leak check (ut_teardown_check()).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "npool_pkt_bulk.h"
#include "unit_common.h"

static struct npool_usage
usage(void)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	return u;
}

static int
is_mid(const struct rte_mbuf *m)
{
	return m != NULL && m->pool == npool_default()->mid_pool &&
		RTE_MBUF_DIRECT(m) && !npool_pkt_is_npool(m);
}

static void
assert_mid(const struct rte_mbuf *m, uint32_t len)
{
	assert_non_null(m);
	assert_true(is_mid(m));
	/* The headroom of the other packets (npool_conf.headroom). */
	assert_int_equal(m->data_off, RTE_PKTMBUF_HEADROOM);
	assert_int_equal(m->data_len, 0);
	assert_int_equal(m->pkt_len, 0);
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_int_equal(m->ol_flags, 0);
	assert_int_equal(m->packet_type, 0);
	assert_true(rte_pktmbuf_tailroom(m) >= len);
	assert_int_equal(rte_pktmbuf_tailroom(m), NPOOL_PKT_MID_LEN);
}

static void
test_mid_class_boundaries(void **state __rte_unused)
{
	const uint32_t tiny = NPOOL_PKT_SMALL_LEN, mid = NPOOL_PKT_MID_LEN;
	struct rte_mbuf *t = npool_napi_alloc_pkt(tiny);
	struct rte_mbuf *a = npool_napi_alloc_pkt(tiny + 1);
	struct rte_mbuf *b = npool_napi_alloc_pkt(1500);
	struct rte_mbuf *c = npool_napi_alloc_pkt(mid);
	struct rte_mbuf *d = npool_napi_alloc_pkt(mid + 1);
	struct npool_usage u = usage();

	assert_non_null(t);
	assert_ptr_equal(t->pool, npool_default()->small_pool);
	assert_mid(a, tiny + 1);
	assert_mid(b, 1500);
	assert_mid(c, mid);
	/* Above mid_len: a head and a fragment. */
	assert_true(npool_pkt_is_npool(d));
	assert_true(rte_pktmbuf_tailroom(d) >= mid + 1);
	assert_int_equal(u.mid_pkts_out, 3);
	assert_int_equal(u.small_pkts_out, 1);
	assert_int_equal(u.heads_out, 1);
	/* A stock mbuf's object: 64 B mempool header, 128 B mbuf, 128 B
	 * headroom, 2048 B: its truesize and all a kept one pins. */
	assert_int_equal(u.mid_pkt_size, 2368);
	assert_int_equal(npool_pkt_truesize(b), u.mid_pkt_size);
	assert_int_equal(u.pinned_mid, 3 * 2368);
	assert_int_equal(u.pinned, u.pinned_big + u.pinned_small +
			u.pinned_tiny + u.pinned_mid + u.pinned_heads);
	assert_int_equal(ut_stats_self().pkt_allocs, 5);
	npool_napi_consume_pkt(t);
	npool_napi_consume_pkt(a);
	npool_napi_consume_pkt(b);
	npool_napi_consume_pkt(c);
	npool_napi_consume_pkt(d);
	u = usage();
	assert_int_equal(u.mid_pkts_out, 0);
	assert_int_equal(u.pinned_mid, 0);
	assert_int_equal(ut_stats_self().pkt_consumes, 5);
}

/* The guarded flavour from a thread without an lcore id: the pool's
 * ring, no lcore cache. */
static int
alloc_in_thread(void *arg __rte_unused)
{
	struct rte_mbuf *m = npool_alloc_pkt(1000);

	if (!is_mid(m) || m->data_off != RTE_PKTMBUF_HEADROOM)
		return -1;
	npool_napi_consume_pkt(m);
	return 0;
}

static void
test_mid_pkt_any_thread_and_stock_free(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_alloc_pkt(1500);

	assert_mid(m, 1500);
	/* In-place helpers work: it is a direct mbuf. */
	memset(rte_pktmbuf_append(m, 1500), 0x3c, 1500);
	assert_int_equal(rte_vlan_insert(&m), 0);
	assert_int_equal(m->pkt_len, 1504);
	rte_pktmbuf_free(m);
	assert_int_equal(ut_in_pthread(alloc_in_thread, NULL), 0);
	assert_int_equal(usage().mid_pkts_out, 0);
}

static void
test_mid_bulk(void **state __rte_unused)
{
	struct rte_mbuf *m[NPOOL_PKT_BULK_MAX];
	uint32_t lens[NPOOL_PKT_BULK_MAX];
	unsigned int i;

	/* One mid size: one bulk get. */
	for (i = 0; i < RTE_DIM(lens); i++)
		lens[i] = 1500;
	assert_int_equal(npool_napi_alloc_pkt_bulk(m, lens, RTE_DIM(m)),
			RTE_DIM(m));
	for (i = 0; i < RTE_DIM(m); i++)
		assert_mid(m[i], 1500);
	assert_int_equal(usage().mid_pkts_out, RTE_DIM(m));
	assert_int_equal(usage().heads_out, 0);
	npool_napi_consume_bulk(m, RTE_DIM(m));
	assert_int_equal(usage().mid_pkts_out, 0);
	/* Mixed: each its own class, in order. */
	for (i = 0; i < 12; i++)
		lens[i] = (uint32_t[]){ 64, 257, 2048, 2049, 9000, 512 }[i % 6];
	assert_int_equal(npool_napi_alloc_pkt_bulk(m, lens, 12), 12);
	for (i = 0; i < 12; i++) {
		if (lens[i] <= NPOOL_PKT_SMALL_LEN)
			assert_ptr_equal(m[i]->pool,
					npool_default()->small_pool);
		else if (lens[i] <= NPOOL_PKT_MID_LEN)
			assert_mid(m[i], lens[i]);
		else
			assert_true(npool_pkt_is_npool(m[i]));
	}
	assert_int_equal(usage().mid_pkts_out, 6);
	assert_int_equal(usage().heads_out, 4);
	npool_napi_consume_bulk(m, 12);
	assert_int_equal(usage().mid_pkts_out, 0);
}

/* A pipeline: made here, freed on another lcore, its objects back in
 * the pool through that lcore's cache; no fragment, nothing deferred. */
struct remote {
	struct rte_mbuf *m[NPOOL_PKT_BULK_MAX];
	unsigned int n;
};

static int
consume_there(void *arg)
{
	struct remote *r = arg;

	npool_napi_consume_bulk(r->m, r->n - 1);
	npool_napi_consume_pkt(r->m[r->n - 1]);
	return 0;
}

static void
test_mid_consumed_on_other_lcore(void **state __rte_unused)
{
	uint32_t lens[NPOOL_PKT_BULK_MAX];
	struct npool_stats before, after;
	struct remote r;
	unsigned int i, round;

	for (i = 0; i < RTE_DIM(lens); i++)
		lens[i] = 1024;
	r.n = RTE_DIM(r.m);
	before = ut_stats_sum();
	for (round = 0; round < 16; round++) {
		assert_int_equal(npool_napi_alloc_pkt_bulk(r.m, lens, r.n),
				r.n);
		for (i = 0; i < r.n; i++)
			memset(rte_pktmbuf_append(r.m[i], 1024), (int)i, 1024);
		assert_int_equal(usage().mid_pkts_out, r.n);
		assert_int_equal(ut_on_other_lcore(consume_there, &r), 0);
		assert_int_equal(usage().mid_pkts_out, 0);
	}
	after = ut_stats_sum();
	assert_int_equal(after.pkt_allocs - before.pkt_allocs, 16 * r.n);
	assert_int_equal(after.pkt_consumes - before.pkt_consumes, 16 * r.n);
	assert_int_equal(after.defers - before.defers, 0);
	assert_int_equal(after.allocs - before.allocs, 0);
	assert_int_equal(after.frees - before.frees, 0);
}

/* Off with mid_len 0: head + fragment above tiny_len, as before. */
static void
test_mid_off(void **state __rte_unused)
{
	struct npool_conf conf;
	struct rte_mbuf *m;

	npool_conf_defaults(&conf);
	assert_int_equal(conf.mid_len, NPOOL_PKT_MID_LEN);
	assert_int_equal(conf.nb_mid, NPOOL_CONF_AUTO);
	conf.mid_len = 0;
	assert_int_equal(npool_init(&conf), 0);
	assert_null(npool_default()->mid_pool);
	m = npool_napi_alloc_pkt(1500);
	assert_true(npool_pkt_is_npool(m));
	assert_int_equal(usage().mid_pkts, 0);
	npool_napi_consume_pkt(m);
}

static void
test_mid_conf(void **state __rte_unused)
{
	struct npool_conf conf;
	struct npool_usage u;
	struct rte_mbuf *m;

	npool_conf_defaults(&conf);
	conf.mid_len = NPOOL_PKT_MID_MAX_LEN + 1;
	assert_int_equal(npool_init(&conf), -EINVAL);
	conf.mid_len = NPOOL_PKT_MID_LEN;
	conf.nb_mid = (1u << 24) + 1;
	assert_int_equal(npool_init(&conf), -EINVAL);
	/* Auto: every packet in flight, plus the lcore caches. */
	npool_conf_defaults(&conf);
	conf.nb_pkts = 1024;
	assert_int_equal(npool_init(&conf), 0);
	u = usage();
	assert_int_equal(u.mid_pkts, 1024 + 384 * rte_lcore_count());
	/* A quarter of the full-size frames in chunks (18 a chunk). */
	assert_int_equal(u.chunks, (256 + 17) / 18 + 2 * rte_lcore_count());
	assert_int_equal(npool_fini(), 0);
	/* A jumbo class at the bound. */
	conf.mid_len = NPOOL_PKT_MID_MAX_LEN;
	assert_int_equal(npool_init(&conf), 0);
	m = npool_napi_alloc_pkt(9000);
	assert_true(is_mid(m));
	assert_true(rte_pktmbuf_tailroom(m) >= 9000);
	rte_pktmbuf_free(m);
}

/* The pool run dry: ENOBUFS, counted, and every object back after. */
#define NB_MID 48

static int
setup_small_mid(void **state __rte_unused)
{
	struct npool_conf conf;

	npool_conf_defaults(&conf);
	conf.nb_mid = NB_MID;
	return npool_init(&conf) == 0 ? 0 : -1;
}

static void
test_mid_exhaustion(void **state __rte_unused)
{
	struct rte_mbuf *m[NB_MID + 8], *b[4];
	uint32_t lens[4] = { 1500, 1500, 1500, 1500 };
	uint64_t fail0 = ut_stats_self().pkt_failures;
	unsigned int i, n = 0;

	assert_int_equal(usage().mid_pkts, NB_MID);
	for (i = 0; i < RTE_DIM(m); i++) {
		m[i] = npool_napi_alloc_pkt(1500);
		if (m[i] == NULL) {
			assert_int_equal(rte_errno, ENOBUFS);
			continue;
		}
		assert_true(is_mid(m[i]));
		n++;
	}
	assert_int_equal(n, NB_MID);
	assert_int_equal(ut_stats_self().pkt_failures - fail0, 8);
	assert_int_equal(usage().mid_pkts_out, NB_MID);
	/* A burst finds none either: each entry NULL, each counted. */
	assert_int_equal(npool_napi_alloc_pkt_bulk(b, lens, 4), 0);
	for (i = 0; i < 4; i++)
		assert_null(b[i]);
	assert_int_equal(ut_stats_self().pkt_failures - fail0, 12);
	/* Bigger packets still come: the chunks are not the mid pool. */
	b[0] = npool_napi_alloc_pkt(4000);
	assert_true(npool_pkt_is_npool(b[0]));
	npool_napi_consume_pkt(b[0]);
	/* Half back: a burst of 4 gets its 4. */
	npool_napi_consume_bulk(m, NB_MID / 2);
	assert_int_equal(npool_napi_alloc_pkt_bulk(b, lens, 4), 4);
	npool_napi_consume_bulk(b, 4);
	for (i = NB_MID / 2; i < RTE_DIM(m); i++)
		rte_pktmbuf_free(m[i]);
	assert_int_equal(usage().mid_pkts_out, 0);
	assert_int_equal(rte_mempool_avail_count(npool_default()->mid_pool),
			NB_MID);
}

#define TD(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)
#define TN(f) cmocka_unit_test_teardown(f, ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_mid_class_boundaries),
		TD(test_mid_pkt_any_thread_and_stock_free),
		TD(test_mid_bulk),
		TD(test_mid_consumed_on_other_lcore),
		TN(test_mid_off),
		TN(test_mid_conf),
		cmocka_unit_test_setup_teardown(test_mid_exhaustion,
				setup_small_mid, ut_teardown_check),
	};

	ut_mid_len = NPOOL_PKT_MID_LEN;
	return UT_MAIN("npool_ut_pkt_mid", tests);
}
