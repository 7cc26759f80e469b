/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool lifecycle and accounting (lib/npool/npool.h, npool_stats.h):
 * npool_conf_defaults/npool_init/npool_fini errors, npool_usage_get,
 * npool_head_pool, the per-lcore counters (the head cache's included),
 * npool_stats_get/sum/reset and npool_frags_outstanding.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_mempool_npool.h"
#include "npool_head_cache.h"
#include "unit_common.h"

static const struct npool_stats zero_stats;

static int
setup_small(void **state __rte_unused)
{
	return ut_npool_init(16, 8, 128, 0) == 0 ? 0 : -1;
}

static void
test_conf_defaults_are_the_documented_values(void **state __rte_unused)
{
	struct npool_conf c;

	memset(&c, 0, sizeof(c));
	npool_conf_defaults(&c);
	assert_int_equal(c.nb_pkts, 8192);
	assert_int_equal(c.nb_chunks, NPOOL_CONF_AUTO);
	assert_int_equal(c.nb_small_chunks, NPOOL_CONF_AUTO);
	assert_int_equal(c.nb_heads, NPOOL_CONF_AUTO);
	assert_int_equal(c.nb_tiny, NPOOL_CONF_AUTO);
	assert_int_equal(c.headroom, RTE_PKTMBUF_HEADROOM);
	assert_int_equal(c.socket_id, SOCKET_ID_ANY);
	assert_int_equal(c.tiny_len, NPOOL_PKT_SMALL_LEN);
	assert_int_equal(c.mid_len, NPOOL_PKT_MID_LEN);
	assert_int_equal(c.mid_len, 2048);
	assert_int_equal(c.nb_mid, NPOOL_CONF_AUTO);
}

/* npool_init() with nb_pkts @p pkts, the sizes left at NPOOL_CONF_AUTO
 * but @p heads; npool.h's rules, L lcores: the usage read back. */
static struct npool_usage
sized_for(uint32_t pkts, uint32_t heads, uint32_t mid_len)
{
	struct npool_conf c;
	struct npool_usage u;

	npool_conf_defaults(&c);
	c.nb_pkts = pkts;
	c.mid_len = mid_len;
	if (heads != 0)
		c.nb_heads = heads;
	assert_int_equal(npool_init(&c), 0);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(npool_fini(), 0);
	return u;
}

static void
test_sizes_follow_nb_pkts(void **state __rte_unused)
{
	const uint32_t l = rte_lcore_count();
	/* 1728 B fragments of full-size frames at the default headroom. */
	const uint32_t per = NPOOL_CHUNK_SIZE / 1728;
	struct npool_usage u = sized_for(8192, 0, NPOOL_PKT_MID_LEN);

	/* Mid-size packets take full-size frames off the chunks: a
	 * quarter of them left. */
	assert_int_equal(u.chunks, (8192 / 4 + per - 1) / per + 2 * l);
	assert_int_equal(u.small_chunks, 8192 / 16 + 2 * l);
	assert_int_equal(u.heads, 8192 + 96 * l);
	assert_int_equal(u.small_pkts, 8192 + 384 * l);
	assert_int_equal(u.mid_pkts, 8192 + 384 * l);
	assert_int_equal(u.mid_pkt_size, 2368);
	/* Without them, every frame in chunks. */
	u = sized_for(8192, 0, 0);
	assert_int_equal(u.chunks, (8192 + per - 1) / per + 2 * l);
	assert_int_equal(u.mid_pkts, 0);
	assert_int_equal(u.small_pkts, 8192 + 384 * l);
	/* A quarter of the packets: every size follows; one set stays. */
	u = sized_for(1000, 200, NPOOL_PKT_MID_LEN);
	assert_int_equal(u.chunks, ((1000 + 3) / 4 + per - 1) / per + 2 * l);
	assert_int_equal(u.small_chunks, (1000 + 15) / 16 + 2 * l);
	assert_int_equal(u.heads, 200);
	assert_int_equal(u.small_pkts, 1000 + 384 * l);
	assert_int_equal(u.mid_pkts, 1000 + 384 * l);
}

static void
test_calls_before_init_fail_cleanly(void **state __rte_unused)
{
	struct rte_mbuf *m[2];
	struct rte_mempool *mp;
	struct npool_usage u;
	struct npool_stats s;
	char frag[64];

	assert_null(npool_default());
	assert_int_equal(npool_fini(), -ENODEV);
	assert_int_equal(npool_usage_get(&u), -ENODEV);
	assert_int_equal(npool_stats_get(0, &s), -EINVAL);
	assert_int_equal(npool_stats_sum(&s), -EINVAL);
	npool_stats_reset();
	npool_frag_cache_drain_all();
	assert_int_equal(npool_frags_outstanding(), 0);
	assert_null(npool_head_pool());
	rte_errno = 0;
	assert_null(npool_napi_alloc_frag(64));
	assert_int_equal(rte_errno, ENODEV);
	rte_errno = 0;
	assert_null(npool_alloc_frag_align(64, 64));
	assert_int_equal(rte_errno, ENODEV);
	rte_errno = 0;
	assert_null(npool_napi_alloc_pkt(64));
	assert_int_equal(rte_errno, ENODEV);
	rte_errno = 0;
	assert_null(npool_alloc_pkt(64));
	assert_int_equal(rte_errno, ENODEV);
	rte_errno = 0;
	assert_null(npool_build_pkt(frag, sizeof(frag)));
	assert_int_equal(rte_errno, ENODEV);
	/* Without npool, the consume path is rte_pktmbuf_free_bulk(). */
	mp = rte_pktmbuf_pool_create("ut_stock", 63, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	assert_non_null(mp);
	assert_int_equal(rte_pktmbuf_alloc_bulk(mp, m, 2), 0);
	assert_int_equal(rte_pktmbuf_chain(m[0], m[1]), 0);
	npool_napi_consume_bulk(m, 1);
	assert_int_equal(rte_mempool_avail_count(mp), 63);
	rte_mempool_free(mp);
}

static void
test_init_twice_ealready(void **state __rte_unused)
{
	struct npool *first = npool_default();

	rte_errno = 0;
	assert_int_equal(npool_init(NULL), -EALREADY);
	assert_int_equal(rte_errno, EALREADY);
	/* The instance in place is untouched. */
	assert_ptr_equal(npool_default(), first);
}

static void
expect_init_einval(uint32_t nb_chunks, uint32_t nb_small, uint32_t nb_heads,
		uint32_t headroom)
{
	struct npool_conf c;

	npool_conf_defaults(&c);
	c.nb_chunks = nb_chunks;
	c.nb_small_chunks = nb_small;
	c.nb_heads = nb_heads;
	c.headroom = headroom;
	rte_errno = 0;
	assert_int_equal(npool_init(&c), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	assert_null(npool_default());
	assert_null(npool_head_pool());
}

static void
test_init_rejects_settings_out_of_range(void **state __rte_unused)
{
	expect_init_einval(0, 0, 64, 0);
	expect_init_einval((1u << 20) + 1, 0, 64, 0);
	expect_init_einval(1, (1u << 20) + 1, 64, 0);
	expect_init_einval(1, 0, 63, 0);
	expect_init_einval(1, 0, (1u << 24) + 1, 0);
	expect_init_einval(1, 0, 64, 1025);
	/* Nothing half-made was left: the limits themselves work. */
	assert_int_equal(ut_npool_init(1, 0, 64, 1024), 0);
	assert_int_equal(npool_default()->headroom, 1024);
	assert_int_equal(npool_fini(), 0);
}

static void
test_fini_busy_while_a_frag_is_out(void **state __rte_unused)
{
	char *a = npool_napi_alloc_frag(100), *b;

	assert_int_equal(npool_fini(), -EBUSY);
	/* Nothing was freed: npool keeps working. */
	assert_non_null(npool_default());
	b = npool_napi_alloc_frag(100);
	assert_ptr_equal(b, a - 100);
	npool_free_frag(a);
	assert_int_equal(npool_fini(), -EBUSY);
	npool_free_frag(b);
	/* ut_teardown_check() then finds npool_fini() == 0. */
}

static void
test_fini_busy_while_a_head_is_out(void **state __rte_unused)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(npool_head_pool());

	assert_non_null(m);
	assert_int_equal(npool_fini(), -EBUSY);
	assert_non_null(npool_head_pool());
	rte_pktmbuf_free(m);
}

static void
test_usage_reports_sizes_and_what_is_out(void **state __rte_unused)
{
	struct npool_usage u;
	struct rte_mbuf *m;
	char *f;

	assert_int_equal(npool_usage_get(NULL), -EINVAL);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.chunks, 16);
	assert_int_equal(u.small_chunks, 8);
	assert_int_equal(u.chunks_in_use, 0);
	assert_int_equal(u.frags_out, 0);
	assert_int_equal(u.heads, 128);
	assert_int_equal(u.heads_out, 0);
	m = npool_napi_alloc_pkt(1000);
	f = npool_alloc_frag(10);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.chunks_in_use, 2);
	assert_int_equal(u.frags_out, 2);
	assert_int_equal(u.heads_out, 1);
	rte_pktmbuf_free(m);
	npool_free_frag(f);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, 0);
	assert_int_equal(u.heads_out, 0);
	/* The caches still hold their chunks until drained. */
	assert_int_equal(u.chunks_in_use, 2);
}

static void
test_head_pool_is_npool_ops_with_mempool_cache(void **state __rte_unused)
{
	struct rte_mempool *mp = npool_head_pool();

	assert_non_null(mp);
	assert_ptr_equal(mp, npool_default()->head_pool);
	assert_string_equal(mp->name, "npool_heads");
	assert_string_equal(rte_mempool_get_ops(mp->ops_index)->name,
			NPOOL_MEMPOOL_OPS_NAME);
	assert_true(npool_mempool_is_npool(mp));
	/* DPDK's cache of NPOOL_MEMPOOL_CACHE_SIZE per lcore, the ops
	 * behind it; none in debug and ASan builds (the ops' caches check
	 * every put). */
	assert_int_equal(mp->cache_size,
			NPOOL_DEBUG || NPOOL_ASAN ? 0 : NPOOL_MEMPOOL_CACHE_SIZE);
	assert_true((rte_mempool_default_cache(mp, rte_lcore_id()) != NULL) ==
			(mp->cache_size != 0));
	assert_int_equal(mp->size, 128);
	assert_int_equal(rte_pktmbuf_data_room_size(mp), 0);
	assert_int_equal(rte_mempool_avail_count(mp), 128);
	assert_ptr_equal(npool_default()->head_hc, mp->pool_data);
}

static void
test_counters_count_each_event(void **state __rte_unused)
{
	const unsigned int n = NPOOL_CHUNK_SIZE / 2048;
	struct npool_stats s0 = ut_stats_self(), s;
	char *p[NPOOL_CHUNK_SIZE / 2048 + 1], *g;
	unsigned int i;

	for (i = 0; i <= n; i++)
		p[i] = npool_napi_alloc_frag(2048);
	g = npool_alloc_frag(64);
	assert_null(npool_napi_alloc_frag(0));
	assert_null(npool_alloc_frag_align(1, 3));
	for (i = 0; i <= n; i++)
		npool_free_frag(p[i]);
	npool_free_frag(g);
	/* Fill the rest of the second chunk, give it all back, then one
	 * more: the chunk ran out with every fragment back, a reuse. */
	for (i = 0; i < n - 1; i++)
		p[i] = npool_napi_alloc_frag(2048);
	for (i = 0; i < n - 1; i++)
		npool_free_frag(p[i]);
	npool_free_frag(npool_napi_alloc_frag(2048));
	s = ut_stats_self();
	assert_int_equal(s.allocs - s0.allocs, 2 * n + 1);
	assert_int_equal(s.guarded_allocs - s0.guarded_allocs, 1);
	assert_int_equal(s.frees - s0.frees, 2 * n + 2);
	assert_int_equal(s.remote_frees - s0.remote_frees, 0);
	assert_int_equal(s.refills - s0.refills, 3);
	assert_int_equal(s.reuses - s0.reuses, 1);
	assert_int_equal(s.small_fallbacks - s0.small_fallbacks, 0);
	assert_int_equal(s.failures - s0.failures, 2);
	assert_int_equal(s.pkt_allocs, s0.pkt_allocs);
}

static void
test_stats_get_rejects_bad_arguments(void **state __rte_unused)
{
	struct npool_stats s;

	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT + 1, &s), -EINVAL);
	assert_int_equal(npool_stats_get(UINT32_MAX, &s), -EINVAL);
	assert_int_equal(npool_stats_get(0, NULL), -EINVAL);
	assert_int_equal(npool_stats_sum(NULL), -EINVAL);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &s), 0);
	assert_int_equal(npool_stats_get(RTE_MAX_LCORE - 1, &s), 0);
	assert_memory_equal(&s, &zero_stats, sizeof(s));
}

static int
alloc_free_three(void *arg __rte_unused)
{
	void *p[3];
	unsigned int i;

	for (i = 0; i < 3; i++)
		p[i] = rte_lcore_id() == LCORE_ID_ANY ? npool_alloc_frag(64) :
			npool_napi_alloc_frag(64);
	for (i = 0; i < 3; i++)
		npool_free_frag(p[i]);
	return 0;
}

static void
test_stats_sum_adds_every_slot(void **state __rte_unused)
{
	struct npool_stats a, b, c, sum;
	const uint64_t *pa = (const uint64_t *)&a, *pb = (const uint64_t *)&b;
	const uint64_t *pc = (const uint64_t *)&c, *ps;
	unsigned int i;

	alloc_free_three(NULL);
	assert_int_equal(ut_on_other_lcore(alloc_free_three, NULL), 0);
	assert_int_equal(ut_in_pthread(alloc_free_three, NULL), 0);
	assert_null(npool_napi_alloc_frag(0));
	assert_int_equal(npool_stats_get(rte_lcore_id(), &a), 0);
	assert_int_equal(npool_stats_get(UT_OTHER_LCORE, &b), 0);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &c), 0);
	assert_int_equal(a.allocs, 3);
	assert_int_equal(b.allocs, 3);
	assert_int_equal(c.guarded_allocs, 3);
	assert_int_equal(c.allocs, 0);
	sum = ut_stats_sum();
	ps = (const uint64_t *)&sum;
	for (i = 0; i < sizeof(sum) / sizeof(uint64_t); i++)
		assert_int_equal(ps[i], pa[i] + pb[i] + pc[i]);
	assert_int_equal(sum.allocs, 6);
	assert_int_equal(sum.guarded_allocs, 3);
	assert_int_equal(sum.frees, 9);
	assert_int_equal(sum.refills, 3);
	assert_int_equal(sum.failures, 1);
}

static void
test_stats_reset_keeps_outstanding_right(void **state __rte_unused)
{
	struct npool_stats s;
	struct npool_usage u;
	void *p[5];
	unsigned int i;

	for (i = 0; i < 5; i++)
		p[i] = i < 3 ? npool_napi_alloc_frag(64) :
			npool_alloc_frag(64);
	assert_int_equal(npool_frags_outstanding(), 5);
	npool_stats_reset();
	s = ut_stats_sum();
	assert_memory_equal(&s, &zero_stats, sizeof(s));
	assert_int_equal(npool_frags_outstanding(), 5);
	npool_free_frag(p[0]);
	npool_free_frag(p[4]);
	assert_int_equal(npool_frags_outstanding(), 3);
	assert_int_equal(ut_stats_sum().frees, 2);
	/* A second reset keeps the base right too. */
	npool_stats_reset();
	assert_int_equal(npool_frags_outstanding(), 3);
	p[0] = npool_napi_alloc_frag(64);
	assert_int_equal(npool_frags_outstanding(), 4);
	for (i = 0; i < 4; i++)
		npool_free_frag(p[i]);
	assert_int_equal(npool_frags_outstanding(), 0);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, 0);
}

static void
test_counters_start_at_zero_after_reinit(void **state __rte_unused)
{
	struct npool_stats s;

	npool_free_frag(npool_napi_alloc_frag(64));
	assert_int_equal(npool_fini(), 0);
	assert_int_equal(npool_init(NULL), 0);
	s = ut_stats_sum();
	assert_memory_equal(&s, &zero_stats, sizeof(s));
	assert_int_equal(npool_frags_outstanding(), 0);
	assert_null(ut_napi_cache()->chunk);
}

/* Heads of the head cache test: a few times what one lcore caches. */
#define HC_HEADS 1024
/* Heads it takes one at a time: two caches' worth and some. */
#define HC_N (2 * NPOOL_HC_SIZE + 8)

static int
setup_heads(void **state __rte_unused)
{
	return ut_npool_init(16, 8, HC_HEADS, 0) == 0 ? 0 : -1;
}

/*
 * Empty the calling lcore's cache of heads: DPDK's mempool cache, or in
 * debug and ASan builds (cache size 0) the ops' own, from which a get
 * larger than it takes all it holds.
 */
static void
empty_head_cache(struct rte_mempool *mp)
{
	void *objs[NPOOL_HC_SIZE + 1];

	if (mp->cache_size != 0) {
		rte_mempool_cache_flush(rte_mempool_default_cache(mp,
				rte_lcore_id()), mp);
		return;
	}
	assert_int_equal(rte_mempool_generic_get(mp, objs, RTE_DIM(objs),
			NULL), 0);
	rte_mempool_generic_put(mp, objs, RTE_DIM(objs), NULL);
}

static int
get_put_one_head(void *arg)
{
	struct rte_mempool *mp = arg;
	void *obj;

	if (rte_mempool_get(mp, &obj) != 0)
		return -1;
	rte_mempool_put(mp, obj);
	return 0;
}

static void
assert_no_head_counts(const struct npool_stats *s)
{
	assert_int_equal(s->head_refills, 0);
	assert_int_equal(s->head_flushes, 0);
	assert_int_equal(s->head_misses, 0);
}

static void
test_head_cache_counts_refills_flushes_misses(void **state __rte_unused)
{
	struct rte_mempool *mp = npool_head_pool();
	struct npool_stats s1, s2, s3, o, sum;
	void **objs = calloc(HC_HEADS + 1, sizeof(*objs));
	unsigned int i;

	assert_non_null(objs);
	empty_head_cache(mp);
	npool_stats_reset();
	s1 = ut_stats_self();
	assert_no_head_counts(&s1);
	/* One at a time: a refill per bulk from the store, nothing else. */
	for (i = 0; i < HC_N; i++)
		assert_int_equal(rte_mempool_get(mp, &objs[i]), 0);
	s1 = ut_stats_self();
	if (mp->cache_size != 0)
		/* DPDK's cache refills to its size (64) and then serves the
		 * get: 65 per refill (22.11 to 25.11; at least 64, at most
		 * its flush threshold 96 + 1), never one per object. */
		/* assert_in_range() is deprecated in sid's cmocka 2. */
		assert_true(s1.head_refills >= (HC_N + 3 * NPOOL_HC_SIZE / 2) /
				(3 * NPOOL_HC_SIZE / 2 + 1) &&
				s1.head_refills <= (HC_N + NPOOL_HC_SIZE - 1) /
				NPOOL_HC_SIZE);
	else
		/* The ops' cache: bulks of NPOOL_HC_BULK (16). */
		assert_int_equal(s1.head_refills,
				(HC_N + NPOOL_HC_BULK - 1) / NPOOL_HC_BULK);
	assert_int_equal(s1.head_flushes, 0);
	assert_int_equal(s1.head_misses, 0);
	/* Back one at a time: flushes only. */
	for (i = 0; i < HC_N; i++)
		rte_mempool_put(mp, objs[i]);
	s2 = ut_stats_self();
	assert_int_equal(s2.head_refills, s1.head_refills);
	assert_int_equal(s2.head_misses, 0);
	if (mp->cache_size != 0)
		/* DPDK flushes at least half its cache at a time. */
		assert_true(s2.head_flushes >= 1 &&
				s2.head_flushes <= HC_N / (NPOOL_HC_SIZE / 2));
	else
		/* The ops' cache holds 8 after 9 refills of 16: full at put
		 * 57, then every 32 puts (half flushed): 57, 89, 121. */
		assert_int_equal(s2.head_flushes, 3);
	/* More than the pool has: one miss of the store, nothing taken. */
	assert_int_equal(rte_mempool_generic_get(mp, objs, HC_HEADS + 1, NULL),
			-ENOBUFS);
	s3 = ut_stats_self();
	assert_int_equal(s3.head_misses, 1);
	assert_int_equal(s3.head_refills, s2.head_refills);
	assert_int_equal(s3.head_flushes, s2.head_flushes);
	assert_int_equal(rte_mempool_avail_count(mp), HC_HEADS);
	/* Another lcore counts in its own slot: its first get refills. */
	assert_int_equal(ut_on_other_lcore(get_put_one_head, mp), 0);
	assert_int_equal(npool_stats_get(UT_OTHER_LCORE, &o), 0);
	assert_int_equal(o.head_refills, 1);
	assert_int_equal(o.head_flushes, 0);
	assert_int_equal(o.head_misses, 0);
	s1 = ut_stats_self();
	assert_memory_equal(&s1, &s3, sizeof(s1));
	/* Non-EAL threads use the store directly: no counts of theirs. */
	assert_int_equal(ut_in_pthread(get_put_one_head, mp), 0);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &o), 0);
	assert_no_head_counts(&o);
	/* Summed: both lcores, nobody else used the pool. */
	sum = ut_stats_sum();
	assert_int_equal(sum.head_refills, s3.head_refills + 1);
	assert_int_equal(sum.head_flushes, s3.head_flushes);
	assert_int_equal(sum.head_misses, 1);
	/* A reset zeroes them in every slot. */
	npool_stats_reset();
	sum = ut_stats_sum();
	assert_no_head_counts(&sum);
	free(objs);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)
#define TD(f) T(f, ut_setup_default)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_defaults_are_the_documented_values),
		cmocka_unit_test(test_sizes_follow_nb_pkts),
		cmocka_unit_test(test_calls_before_init_fail_cleanly),
		cmocka_unit_test(test_init_rejects_settings_out_of_range),
		TD(test_init_twice_ealready),
		TD(test_fini_busy_while_a_frag_is_out),
		TD(test_fini_busy_while_a_head_is_out),
		T(test_usage_reports_sizes_and_what_is_out, setup_small),
		T(test_head_pool_is_npool_ops_with_mempool_cache,
			setup_small),
		TD(test_counters_count_each_event),
		TD(test_stats_get_rejects_bad_arguments),
		TD(test_stats_sum_adds_every_slot),
		TD(test_stats_reset_keeps_outstanding_right),
		TD(test_counters_start_at_zero_after_reinit),
		T(test_head_cache_counts_refills_flushes_misses, setup_heads),
	};

	return UT_MAIN("npool_ut_stats", tests);
}
