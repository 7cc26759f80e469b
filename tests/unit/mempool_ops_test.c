/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "npool" rte_mempool ops (lib/npool/rte_mempool_npool.c): pools from
 * npool_pktmbuf_pool_create() and from rte_mempool_set_ops_byname(),
 * counts after populate and after alloc/free cycles on every kind of
 * thread, exhaustion, name limits, freeing.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_mempool_npool.h"
#include "npool_head_cache.h"
#include "unit_common.h"

#define POOL_SIZE 1023
#define PRIV 16

static struct rte_mempool *mp;

static int
setup(void **state)
{
	mp = npool_pktmbuf_pool_create("ut_mp", POOL_SIZE, PRIV,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	return ut_setup_default(state);
}

static int
teardown(void **state)
{
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);
	mp = NULL;
	return ut_teardown_check(state);
}

static void
count_obj(struct rte_mempool *p __rte_unused, void *arg,
		void *obj __rte_unused, unsigned int idx __rte_unused)
{
	(*(unsigned int *)arg)++;
}

static void
test_pool_uses_npool_ops_behind_mempool_cache(void **state __rte_unused)
{
	unsigned int n = 0;
	struct rte_mempool *stock = rte_pktmbuf_pool_create("ut_stock", 63, 0,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);

	assert_string_equal(rte_mempool_get_ops(mp->ops_index)->name, "npool");
	/* DPDK's cache, reached inline by rte_mempool_get/put() (none in
	 * debug and ASan builds: npool_hc_mempool_cache_size()). */
	assert_int_equal(mp->cache_size,
			NPOOL_DEBUG || NPOOL_ASAN ? 0 : NPOOL_HC_SIZE);
	assert_true((rte_mempool_default_cache(mp, rte_lcore_id()) != NULL) ==
			(mp->cache_size != 0));
	assert_true(npool_mempool_is_npool(mp));
	assert_false(npool_mempool_is_npool(stock));
	assert_false(npool_mempool_is_npool(NULL));
	assert_int_equal(mp->size, POOL_SIZE);
	assert_int_equal(rte_pktmbuf_data_room_size(mp),
			RTE_MBUF_DEFAULT_BUF_SIZE);
	assert_int_equal(rte_pktmbuf_priv_size(mp), PRIV);
	assert_non_null(rte_ring_lookup("NP_ut_mp"));
	assert_int_equal(((struct npool_hc *)mp->pool_data)->size, POOL_SIZE);
	/* Everything is available straight after populate. */
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	assert_int_equal(rte_mempool_obj_iter(mp, count_obj, &n), POOL_SIZE);
	assert_int_equal(n, POOL_SIZE);
	rte_mempool_free(stock);
}

static void
test_mbufs_come_out_ready_for_rx(void **state __rte_unused)
{
	struct rte_mbuf *m[4];
	unsigned int i;

	assert_int_equal(rte_pktmbuf_alloc_bulk(mp, m, 4), 0);
	for (i = 0; i < 4; i++) {
		assert_ptr_equal(m[i]->pool, mp);
		assert_int_equal(m[i]->buf_len, RTE_MBUF_DEFAULT_BUF_SIZE);
		assert_int_equal(m[i]->data_off, RTE_PKTMBUF_HEADROOM);
		assert_int_equal(m[i]->priv_size, PRIV);
		assert_int_equal(rte_mbuf_refcnt_read(m[i]), 1);
		assert_int_equal(m[i]->nb_segs, 1);
		assert_null(m[i]->next);
		assert_int_equal(m[i]->data_len, 0);
		memset(rte_pktmbuf_append(m[i], 1500), (int)i, 1500);
		rte_mbuf_sanity_check(m[i], 1);
	}
	rte_pktmbuf_free_bulk(m, 4);
}

static void
test_avail_count_after_alloc_free_cycles(void **state __rte_unused)
{
	static struct rte_mbuf *m[POOL_SIZE];
	unsigned int round, i, n, out = 0;

	srand(11);
	for (round = 0; round < 200; round++) {
		n = 1 + rand() % 200;
		if (out + n > POOL_SIZE)
			n = POOL_SIZE - out;
		if (round % 3 == 0) {
			for (i = 0; i < n; i++)
				m[out + i] = rte_pktmbuf_alloc(mp);
		} else {
			assert_int_equal(rte_pktmbuf_alloc_bulk(mp, &m[out], n),
					0);
		}
		out += n;
		assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE - out);
		n = rand() % (out + 1);
		/* Free from the middle sometimes, one by one or in bulk. */
		if (round % 2)
			rte_pktmbuf_free_bulk(&m[out - n], n);
		else
			for (i = 0; i < n; i++)
				rte_pktmbuf_free(m[out - n + i]);
		out -= n;
		assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE - out);
		assert_int_equal(rte_mempool_in_use_count(mp), out);
	}
	rte_pktmbuf_free_bulk(m, out);
}

static void
test_alloc_bulk_above_available_fails_cleanly(void **state __rte_unused)
{
	static struct rte_mbuf *m[POOL_SIZE + 1];

	memset(m, 0, sizeof(m));
	assert_int_not_equal(rte_pktmbuf_alloc_bulk(mp, m, POOL_SIZE + 1), 0);
	assert_null(m[0]);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	/* Exactly what is available works, whatever the lcore cache holds. */
	assert_int_equal(rte_pktmbuf_alloc_bulk(mp, m, POOL_SIZE), 0);
	assert_int_equal(rte_mempool_avail_count(mp), 0);
	assert_null(rte_pktmbuf_alloc(mp));
	assert_int_not_equal(rte_pktmbuf_alloc_bulk(mp, &m[POOL_SIZE], 1), 0);
	rte_pktmbuf_free_bulk(m, POOL_SIZE);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
}

static void
test_alloc_one_by_one_until_empty(void **state __rte_unused)
{
	static struct rte_mbuf *m[POOL_SIZE];
	unsigned int n = 0;
	void *obj;

	while (n < POOL_SIZE && (m[n] = rte_pktmbuf_alloc(mp)) != NULL)
		n++;
	assert_int_equal(n, POOL_SIZE);
	assert_null(rte_pktmbuf_alloc(mp));
	assert_true(rte_mempool_get(mp, &obj) < 0);
	assert_int_equal(rte_mempool_avail_count(mp), 0);
	/* Every mbuf handed out once. */
	for (n = 1; n < POOL_SIZE; n++)
		assert_ptr_not_equal(m[n], m[n - 1]);
	rte_pktmbuf_free_bulk(m, POOL_SIZE);
}

struct thread_run {
	struct rte_mbuf *m[100];
	int ret;
};

static int
alloc_100(void *arg)
{
	struct thread_run *r = arg;

	r->ret = rte_pktmbuf_alloc_bulk(mp, r->m, 100);
	return r->ret;
}

static int
alloc_free_in_thread(void *arg)
{
	struct thread_run *r = arg;
	unsigned int i;

	if (alloc_100(r) != 0)
		return -1;
	rte_pktmbuf_free_bulk(r->m, 50);
	for (i = 50; i < 100; i++)
		rte_pktmbuf_free(r->m[i]);
	return 0;
}

static void
test_alloc_free_on_any_thread(void **state __rte_unused)
{
	struct thread_run lc1, non_eal;

	assert_int_equal(ut_on_other_lcore(alloc_100, &lc1), 0);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE - 100);
	/* Allocated on lcore 1, freed here. */
	rte_pktmbuf_free_bulk(lc1.m, 100);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	/* A non-EAL thread goes to the store and back. */
	assert_int_equal(ut_in_pthread(alloc_free_in_thread, &non_eal), 0);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	/* Allocated by a non-EAL thread, freed on lcore 1. */
	assert_int_equal(ut_in_pthread(alloc_100, &non_eal), 0);
	assert_int_equal(ut_on_other_lcore(alloc_free_in_thread, &lc1), 0);
	rte_pktmbuf_free_bulk(non_eal.m, 100);
}

struct get_put_one {
	unsigned int store0, store_after_get1, store_after_put1;
};

/* The pool of the tests that run on lcore 1. */
static struct rte_mempool *rf_mp;

static unsigned int
store_count(void)
{
	return rte_ring_count(((struct npool_hc *)rf_mp->pool_data)->store);
}

/* On lcore 1: one get and one put on a cache-0 pool. */
static int
get_put_one_on_lcore(void *arg)
{
	struct get_put_one *r = arg;
	struct rte_mbuf *m;

	r->store0 = store_count();
	m = rte_pktmbuf_alloc(rf_mp);
	r->store_after_get1 = store_count();
	rte_pktmbuf_free(m);
	r->store_after_put1 = store_count();
	return m == NULL;
}

/*
 * DPDK's contract for cache size 0: no per-lcore caching. One mbuf
 * taken moves exactly one out of the store, and one freed is back in
 * it at once (npool until 3a1ac5f took 16 and kept them on the lcore).
 */
static void
test_cache0_pool_caches_nothing(void **state __rte_unused)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create_by_ops("ut_mp0",
			POOL_SIZE, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			SOCKET_ID_ANY, NPOOL_MEMPOOL_OPS_NAME);
	struct get_put_one r;

	assert_non_null(mp);
	assert_null(rte_mempool_default_cache(mp, rte_lcore_id()));
	rf_mp = mp;
	assert_int_equal(ut_on_other_lcore(get_put_one_on_lcore, &r), 0);
	assert_int_equal(r.store0, POOL_SIZE);
	assert_int_equal(r.store_after_get1, POOL_SIZE - 1);
	assert_int_equal(r.store_after_put1, POOL_SIZE);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	rte_mempool_free(mp);
}

#define XL_POOL 64

static struct rte_mbuf *xl_mbufs[XL_POOL];

/* Free all of xl_mbufs on this lcore, one at a time as
 * mbuf_autotest does (a bulk of 64 would bypass a per-lcore cache). */
static int
xl_free_all(void *arg __rte_unused)
{
	unsigned int i;

	for (i = 0; i < XL_POOL; i++)
		rte_pktmbuf_free(xl_mbufs[i]);
	return 0;
}

/* Allocate all of xl_mbufs on this lcore. */

static int
xl_alloc_all(void *arg __rte_unused)
{
	return rte_pktmbuf_alloc_bulk(rf_mp, xl_mbufs, XL_POOL);
}

/*
 * DPDK's mbuf_autotest (test_refcnt_iter) in short: a 64-mbuf cache-0
 * pool, freed on one lcore and allocated whole on the other, both ways,
 * 1000 rounds. With per-lcore caches in the ops the first round failed:
 * the frees sat in lcore 1's cache while avail_count said 64.
 */
static void
test_cache0_free_on_one_lcore_alloc_all_on_other(void **state __rte_unused)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create_by_ops("ut_xl",
			XL_POOL, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			SOCKET_ID_ANY, NPOOL_MEMPOOL_OPS_NAME);
	unsigned int round;

	assert_non_null(mp);
	rf_mp = mp;
	assert_int_equal(xl_alloc_all(NULL), 0);
	for (round = 0; round < 1000; round++) {
		/* Freed on lcore 1, all 64 allocated on the main lcore. */
		assert_int_equal(ut_on_other_lcore(xl_free_all, NULL), 0);
		assert_int_equal(rte_mempool_avail_count(mp), XL_POOL);
		assert_int_equal(xl_alloc_all(NULL), 0);
		assert_int_equal(rte_mempool_avail_count(mp), 0);
		/* Freed on the main lcore, all 64 allocated on lcore 1. */
		xl_free_all(NULL);
		assert_int_equal(rte_mempool_avail_count(mp), XL_POOL);
		assert_int_equal(ut_on_other_lcore(xl_alloc_all, NULL), 0);
		assert_int_equal(rte_mempool_avail_count(mp), 0);
	}
	xl_free_all(NULL);
	assert_true(rte_mempool_full(mp));
	rte_mempool_free(mp);
}

struct cached_rf {
	uint64_t refills0, refills1, flushes1, flushes2, misses2;
	unsigned int store0, store1, cache1, store2, cache2, thresh;
	int ret;
};

/* On lcore 1: gets and puts through DPDK's cache of the npool pool. */
static int
cached_refill_flush_on_lcore(void *arg)
{
	struct npool_hc_lcore *st =
		&((struct npool_hc *)mp->pool_data)->lc[rte_lcore_id()];
	struct rte_mempool_cache *c =
		rte_mempool_default_cache(mp, rte_lcore_id());
	struct cached_rf *r = arg;
	struct rte_mbuf *m[POOL_SIZE];
	unsigned int i;

	rf_mp = mp;
	r->refills0 = st->refills;
	r->store0 = store_count();
	m[0] = rte_pktmbuf_alloc(mp);
	/* An empty cache: one refill from the store, counted. */
	r->refills1 = st->refills;
	r->flushes1 = st->flushes;
	r->store1 = store_count();
	r->cache1 = c->len;
	rte_pktmbuf_free(m[0]);
	/* All of them, then back one by one: flushes, and a miss at the
	 * end of the store. */
	r->ret = rte_pktmbuf_alloc_bulk(mp, m, POOL_SIZE);
	if (rte_pktmbuf_alloc(mp) == NULL)
		r->misses2 = st->misses;
	for (i = 0; i < POOL_SIZE; i++)
		rte_pktmbuf_free(m[i]);
	r->flushes2 = st->flushes;
	r->store2 = store_count();
	r->cache2 = c->len;
	r->thresh = c->flushthresh;
	/* Leave lcore 1's cache empty again. */
	rte_mempool_cache_flush(c, mp);
	return 0;
}

static void
test_cached_pool_counts_refills_and_flushes(void **state __rte_unused)
{
	struct cached_rf r;

	if (mp->cache_size == 0)
		skip();
	memset(&r, 0, sizeof(r));
	assert_int_equal(ut_on_other_lcore(cached_refill_flush_on_lcore, &r),
			0);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.refills1 - r.refills0, 1);
	assert_int_equal(r.flushes1, 0);
	/* What left the store is in the cache, but the one taken. */
	assert_true(r.cache1 >= 1);
	assert_int_equal(r.store0 - r.store1, r.cache1 + 1);
	assert_true(r.flushes2 >= 1);
	assert_true(r.misses2 >= 1);
	assert_int_equal(r.store2 + r.cache2, r.store0);
	assert_true(r.cache2 <= r.thresh);
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
}

static void
test_consume_bulk_returns_rx_mbufs(void **state __rte_unused)
{
	struct rte_mbuf *m[32];
	unsigned int round;

	/* An RX loop: refill a burst, drop it through the napi path. */
	for (round = 0; round < 100; round++) {
		assert_int_equal(rte_pktmbuf_alloc_bulk(mp, m, 32), 0);
		assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE - 32);
		npool_napi_consume_bulk(m, 32);
		assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	}
}

static void
test_name_length_limits(void **state __rte_unused)
{
	char name[RTE_RING_NAMESIZE + 8];
	struct rte_mempool *p;

	/* RTE_RING_NAMESIZE - 4 = 25 characters is the longest. */
	memset(name, 'a', sizeof(name));
	name[RTE_RING_NAMESIZE - 4] = '\0';
	p = npool_pktmbuf_pool_create(name, 64, 0, 0, SOCKET_ID_ANY);
	assert_non_null(p);
	assert_int_equal(strlen(p->name), 25);
	rte_mempool_free(p);
	name[RTE_RING_NAMESIZE - 4] = 'a';
	name[RTE_RING_NAMESIZE - 3] = '\0';
	rte_errno = 0;
	assert_null(npool_pktmbuf_pool_create(name, 64, 0, 0, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, ENAMETOOLONG);
	rte_errno = 0;
	assert_null(npool_pktmbuf_pool_create(NULL, 64, 0, 0, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EINVAL);
	/* Nothing was left behind by the failures. */
	assert_null(rte_mempool_lookup(name));
	name[RTE_RING_NAMESIZE - 4] = '\0';
	assert_null(rte_mempool_lookup(name));
}

static void
test_same_name_twice_eexist(void **state __rte_unused)
{
	rte_errno = 0;
	assert_null(npool_pktmbuf_pool_create("ut_mp", 64, 0, 0,
			SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EEXIST);
}

static void
test_pool_free_releases_store(void **state __rte_unused)
{
	struct rte_mempool *p = npool_pktmbuf_pool_create("ut_gone", 100, 0,
			0, SOCKET_ID_ANY);

	assert_non_null(p);
	assert_non_null(rte_ring_lookup("NP_ut_gone"));
	rte_mempool_free(p);
	assert_null(rte_ring_lookup("NP_ut_gone"));
	assert_null(rte_mempool_lookup("ut_gone"));
	/* The name is free again. */
	p = npool_pktmbuf_pool_create("ut_gone", 100, 0, 0, SOCKET_ID_ANY);
	assert_non_null(p);
	rte_mempool_free(p);
}

static void
test_plain_mempool_on_npool_ops(void **state __rte_unused)
{
	struct rte_mempool *p = rte_mempool_create_empty("ut_plain", 500, 64,
			0, 0, SOCKET_ID_ANY, 0);
	void *o[100];

	assert_non_null(p);
	assert_int_equal(rte_mempool_set_ops_byname(p, NPOOL_MEMPOOL_OPS_NAME,
			NULL), 0);
	assert_int_equal(rte_mempool_populate_default(p), 500);
	assert_true(npool_mempool_is_npool(p));
	assert_int_equal(rte_mempool_avail_count(p), 500);
	assert_int_equal(rte_mempool_get_bulk(p, o, 100), 0);
	memset(o[99], 0, 64);
	assert_int_equal(rte_mempool_avail_count(p), 400);
	rte_mempool_put_bulk(p, o, 100);
	assert_int_equal(rte_mempool_avail_count(p), 500);
	rte_mempool_free(p);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_pool_uses_npool_ops_behind_mempool_cache),
		T(test_mbufs_come_out_ready_for_rx),
		T(test_avail_count_after_alloc_free_cycles),
		T(test_alloc_bulk_above_available_fails_cleanly),
		T(test_alloc_one_by_one_until_empty),
		T(test_alloc_free_on_any_thread),
		T(test_cache0_pool_caches_nothing),
		T(test_cache0_free_on_one_lcore_alloc_all_on_other),
		T(test_cached_pool_counts_refills_and_flushes),
		T(test_consume_bulk_returns_rx_mbufs),
		T(test_name_length_limits),
		T(test_same_name_twice_eexist),
		T(test_pool_free_releases_store),
		T(test_plain_mempool_on_npool_ops),
	};

	return UT_MAIN("npool_ut_mempool_ops", tests);
}
