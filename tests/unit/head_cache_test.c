/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Head cache (lib/npool/npool_head_cache.h), the NAPI skb cache: per-lcore
 * LIFO of 64, refill in bulks of 16, flush of the coldest half when full,
 * all-or-nothing gets (-ENOBUFS), gets larger than the cache, non-EAL
 * threads served by the store. A private cache over dummy objects.
 */
#include <string.h>

#include "npool_head_cache.h"
#include "unit_common.h"

#define NB_OBJS 512

static uint64_t objs[NB_OBJS];
static struct npool_hc *hc;

static int
setup(void **state __rte_unused)
{
	hc = npool_hc_create("ut_hc", NB_OBJS, SOCKET_ID_ANY);
	return hc != NULL ? 0 : -1;
}

static int
teardown(void **state __rte_unused)
{
	npool_hc_free(hc);
	hc = NULL;
	return 0;
}

static struct npool_hc_lcore *
my_cache(void)
{
	return &hc->lc[rte_lcore_id()];
}

static unsigned int
in_store(void)
{
	return rte_ring_count(hc->store);
}

/* Put objs[first .. first+n-1] straight into the store. */
static void
seed_store(unsigned int first, unsigned int n)
{
	void *p[NB_OBJS];
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = &objs[first + i];
	assert_int_equal(rte_ring_enqueue_bulk(hc->store, p, n, NULL), n);
}

/* Put objs[first .. first+n-1] one by one through the cache. */
static void
put_each(unsigned int first, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		void *p = &objs[first + i];

		npool_hc_put_bulk(hc, &p, 1);
	}
}

static void
test_create_rejects_bad_arguments(void **state __rte_unused)
{
	rte_errno = 0;
	assert_null(npool_hc_create(NULL, 16, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(npool_hc_create("ut_hc0", 0, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(npool_hc_create("ut_hc0", (1u << 30) + 1, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EINVAL);
	/* The name of the cache set up for this test is taken. */
	rte_errno = 0;
	assert_null(npool_hc_create("ut_hc", 16, SOCKET_ID_ANY));
	assert_int_equal(rte_errno, EEXIST);
	npool_hc_free(NULL);
	/* A new cache is empty everywhere. */
	assert_int_equal(npool_hc_count(hc), 0);
	assert_int_equal(hc->size, NB_OBJS);
	assert_true(rte_ring_get_capacity(hc->store) >= NB_OBJS);
}

static void
test_put_fills_lcore_cache_before_store(void **state __rte_unused)
{
	put_each(0, 10);
	assert_int_equal(my_cache()->len, 10);
	assert_int_equal(in_store(), 0);
	assert_int_equal(npool_hc_count(hc), 10);
}

static void
test_get_returns_hottest_first(void **state __rte_unused)
{
	void *p[3];

	put_each(0, 3);
	assert_int_equal(npool_hc_get_bulk(hc, p, 1), 0);
	assert_ptr_equal(p[0], &objs[2]);
	assert_int_equal(npool_hc_get_bulk(hc, p, 2), 0);
	assert_ptr_equal(p[0], &objs[1]);
	assert_ptr_equal(p[1], &objs[0]);
	assert_int_equal(my_cache()->len, 0);
	assert_int_equal(my_cache()->refills, 0);
}

static void
test_empty_cache_refills_in_bulks_of_16(void **state __rte_unused)
{
	struct npool_hc_lcore *c = my_cache();
	void *p[32];

	seed_store(0, 100);
	assert_int_equal(npool_hc_get_bulk(hc, p, 1), 0);
	assert_int_equal(in_store(), 100 - NPOOL_HC_BULK);
	assert_int_equal(c->len, NPOOL_HC_BULK - 1);
	assert_int_equal(c->refills, 1);
	/* The store hands out in FIFO order; the cache gives its top. */
	assert_ptr_equal(p[0], &objs[15]);
	/* 15 left in cache: no refill for 15 more. */
	assert_int_equal(npool_hc_get_bulk(hc, p, 15), 0);
	assert_int_equal(in_store(), 84);
	assert_int_equal(c->refills, 1);
	/* 20 from an empty cache: two bulks, never one object at a time. */
	assert_int_equal(npool_hc_get_bulk(hc, p, 20), 0);
	assert_int_equal(in_store(), 84 - 2 * NPOOL_HC_BULK);
	assert_int_equal(c->len, 2 * NPOOL_HC_BULK - 20);
	assert_int_equal(c->refills, 2);
	assert_int_equal(npool_hc_count(hc), 100 - 36);
}

static void
test_refill_capped_at_cache_size(void **state __rte_unused)
{
	void *p[NPOOL_HC_SIZE];

	put_each(0, 60);
	seed_store(60, 50);
	assert_int_equal(npool_hc_get_bulk(hc, p, NPOOL_HC_SIZE), 0);
	/* Only the 4 missing ones came from the store. */
	assert_int_equal(in_store(), 46);
	assert_int_equal(my_cache()->len, 0);
	assert_ptr_equal(p[0], &objs[63]);
	assert_ptr_equal(p[4], &objs[59]);
	assert_ptr_equal(p[63], &objs[0]);
}

static void
test_full_cache_flushes_coldest_half(void **state __rte_unused)
{
	struct npool_hc_lcore *c = my_cache();
	void *p[NPOOL_HC_HALF];
	unsigned int i;

	put_each(0, NPOOL_HC_SIZE);
	assert_int_equal(c->len, NPOOL_HC_SIZE);
	assert_int_equal(in_store(), 0);
	assert_int_equal(c->flushes, 0);
	put_each(NPOOL_HC_SIZE, 1);
	assert_int_equal(in_store(), NPOOL_HC_HALF);
	assert_int_equal(c->len, NPOOL_HC_HALF + 1);
	assert_int_equal(c->flushes, 1);
	/* The store got the 32 put first, in one bulk, in order... */
	assert_int_equal(rte_ring_dequeue_bulk(hc->store, p, NPOOL_HC_HALF,
			NULL), NPOOL_HC_HALF);
	for (i = 0; i < NPOOL_HC_HALF; i++)
		assert_ptr_equal(p[i], &objs[i]);
	/* ...and the cache kept the hot ones, newest on top. */
	assert_ptr_equal(c->objs[0], &objs[NPOOL_HC_HALF]);
	assert_ptr_equal(c->objs[c->len - 1], &objs[NPOOL_HC_SIZE]);
	/* Back where it was, for the teardown. */
	seed_store(0, NPOOL_HC_HALF);
	assert_int_equal(npool_hc_count(hc), NPOOL_HC_SIZE + 1);
}

static void
test_big_put_into_full_cache_goes_to_store(void **state __rte_unused)
{
	void *p[40];
	unsigned int i;

	for (i = 0; i < 40; i++)
		p[i] = &objs[100 + i];
	put_each(0, 30);
	/* 30 + 40 > 64 and 40 >= 32: the bulk bypasses the cache. */
	npool_hc_put_bulk(hc, p, 40);
	assert_int_equal(my_cache()->len, 30);
	assert_int_equal(in_store(), 40);
	put_each(30, 34);
	npool_hc_put_bulk(hc, p, NPOOL_HC_HALF);
	assert_int_equal(my_cache()->len, NPOOL_HC_SIZE);
	assert_int_equal(in_store(), 40 + NPOOL_HC_HALF);
	assert_int_equal(my_cache()->flushes, 2);
}

static void
test_exhaustion_enobufs_takes_nothing(void **state __rte_unused)
{
	struct npool_hc_lcore *c = my_cache();
	void *p[16];
	unsigned int i;

	seed_store(0, 10);
	for (i = 0; i < 16; i++)
		p[i] = NULL;
	assert_int_equal(npool_hc_get_bulk(hc, p, 11), -ENOBUFS);
	for (i = 0; i < 16; i++)
		assert_null(p[i]);
	assert_int_equal(npool_hc_count(hc), 10);
	assert_int_equal(c->misses, 1);
	assert_int_equal(npool_hc_get_bulk(hc, p, 10), 0);
	assert_int_equal(npool_hc_count(hc), 0);
	assert_int_equal(npool_hc_get_bulk(hc, p, 1), -ENOBUFS);
	assert_int_equal(c->misses, 2);
	npool_hc_put_bulk(hc, p, 10);
}

static void
test_get_larger_than_cache_from_store(void **state __rte_unused)
{
	static void *p[NB_OBJS];

	seed_store(0, 200);
	assert_int_equal(npool_hc_get_bulk(hc, p, 100), 0);
	assert_int_equal(in_store(), 100);
	assert_int_equal(my_cache()->len, 0);
	assert_ptr_equal(p[0], &objs[0]);
	assert_ptr_equal(p[99], &objs[99]);
	assert_int_equal(npool_hc_get_bulk(hc, p + 100, 150), -ENOBUFS);
	assert_int_equal(npool_hc_count(hc), 100);
	assert_int_equal(my_cache()->misses, 1);
	npool_hc_put_bulk(hc, p, 100);
}

static void
test_get_larger_than_cache_uses_cache_too(void **state __rte_unused)
{
	static void *p[NB_OBJS];

	put_each(0, 10);
	seed_store(10, 90);
	/* Exactly what there is, split between cache and store. */
	assert_int_equal(npool_hc_get_bulk(hc, p, 100), 0);
	assert_int_equal(npool_hc_count(hc), 0);
	/* Hot objects first. */
	assert_ptr_equal(p[0], &objs[9]);
	npool_hc_put_bulk(hc, p, 100);
	assert_int_equal(npool_hc_count(hc), 100);
}

struct non_eal_run {
	int get3, get3_again, lens;
	unsigned int store_after_put;
};

static int
non_eal_ops(void *arg)
{
	struct non_eal_run *r = arg;
	void *p[5];
	unsigned int i;

	for (i = 0; i < 5; i++)
		p[i] = &objs[i];
	npool_hc_put_bulk(hc, p, 5);
	r->store_after_put = in_store();
	r->get3 = npool_hc_get_bulk(hc, p, 3);
	r->get3_again = npool_hc_get_bulk(hc, p, 3);
	for (i = 0; i < RTE_MAX_LCORE; i++)
		r->lens += hc->lc[i].len;
	return 0;
}

static void
test_non_eal_thread_uses_store_only(void **state __rte_unused)
{
	struct non_eal_run r = { 0 };

	assert_int_equal(ut_in_pthread(non_eal_ops, &r), 0);
	assert_int_equal(r.store_after_put, 5);
	assert_int_equal(r.get3, 0);
	assert_int_equal(r.get3_again, -ENOBUFS);
	assert_int_equal(r.lens, 0);
	assert_int_equal(in_store(), 2);
	seed_store(5, 3);
}

static int
put_seven(void *arg __rte_unused)
{
	put_each(20, 7);
	return 0;
}

static int
get_one(void *arg __rte_unused)
{
	void *p;

	return npool_hc_get_bulk(hc, &p, 1);
}

static int
put_three(void *arg __rte_unused)
{
	put_each(40, 3);
	return 0;
}

static void
test_count_includes_every_lcore_cache(void **state __rte_unused)
{
	put_each(0, 10);
	assert_int_equal(ut_on_other_lcore(put_seven, NULL), 0);
	assert_int_equal(ut_in_pthread(put_three, NULL), 0);
	assert_int_equal(hc->lc[rte_lcore_id()].len, 10);
	assert_int_equal(hc->lc[UT_OTHER_LCORE].len, 7);
	assert_int_equal(in_store(), 3);
	assert_int_equal(npool_hc_count(hc), 20);
}

static void
test_other_lcore_cannot_see_my_cache(void **state __rte_unused)
{
	put_each(0, 10);
	/* Objects cached by lcore 0 are not in the store for lcore 1. */
	assert_int_equal(ut_on_other_lcore(get_one, NULL), -ENOBUFS);
	assert_int_equal(npool_hc_count(hc), 10);
	seed_store(10, 1);
	assert_int_equal(ut_on_other_lcore(get_one, NULL), 0);
	assert_int_equal(npool_hc_count(hc), 10);
}

/* What a non-EAL thread does while another consumer stalls. */
static struct npool_hc *stall_hc;

static int
cycle_through_store(void *arg __rte_unused)
{
	void *p[16];
	int k;

	/* 48 objects: under the ring's head-tail distance (1/8 of it). */
	for (k = 0; k < 3; k++) {
		if (npool_hc_get_bulk(stall_hc, p, 16) != 0)
			return -ENOBUFS;
		npool_hc_put_bulk(stall_hc, p, 16);
	}
	return 0;
}

/*
 * A consumer of the store stalls between taking its slot and finishing
 * (a preempted thread; here held by hand with the ring's own steps)
 * while a thread without an lcore id takes objects and puts them back:
 * no put may be refused, no object lost. Under relaxed tail sync the
 * objects taken and put back still count against the room until the
 * stalled one ends: a store with room for the objects alone (511 in a
 * ring of 512) refused the puts and lost them.
 */
static void
test_store_loses_nothing_while_a_consumer_stalls(void **state __rte_unused)
{
	const unsigned int n = NB_OBJS - 1;
	uint32_t head, entries;
	void *p[NB_OBJS], *stalled;
	unsigned int i;
	uint8_t seen[NB_OBJS] = { 0 };

	stall_hc = npool_hc_create("ut_hc_stall", n, SOCKET_ID_ANY);
	assert_non_null(stall_hc);
	for (i = 0; i < n; i++)
		p[i] = &objs[i];
	assert_int_equal(rte_ring_enqueue_bulk(stall_hc->store, p, n, NULL),
			n);
	assert_int_equal(stall_hc->store->cons.sync_type,
			RTE_RING_SYNC_MT_RTS);
	assert_int_equal(__rte_ring_rts_move_cons_head(stall_hc->store, 1,
			RTE_RING_QUEUE_FIXED, &head, &entries), 1);
	__rte_ring_dequeue_elems(stall_hc->store, head, &stalled,
			sizeof(void *), 1);
	assert_int_equal(ut_in_pthread(cycle_through_store, NULL), 0);
	/* The stalled consumer finishes and gives its object back. */
	__rte_ring_rts_update_tail(&stall_hc->store->rts_cons);
	npool_hc_put_bulk(stall_hc, &stalled, 1);
	assert_int_equal(npool_hc_count(stall_hc), n);
	/* Every object there once (from this lcore's cache and the store). */
	assert_int_equal(npool_hc_get_bulk(stall_hc, p, n), 0);
	for (i = 0; i < n; i++) {
		uint64_t *o = p[i];

		assert_true(o >= objs && o < objs + n);
		assert_int_equal(seen[o - objs]++, 0);
	}
	npool_hc_free(stall_hc);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_create_rejects_bad_arguments),
		T(test_put_fills_lcore_cache_before_store),
		T(test_get_returns_hottest_first),
		T(test_empty_cache_refills_in_bulks_of_16),
		T(test_refill_capped_at_cache_size),
		T(test_full_cache_flushes_coldest_half),
		T(test_big_put_into_full_cache_goes_to_store),
		T(test_exhaustion_enobufs_takes_nothing),
		T(test_get_larger_than_cache_from_store),
		T(test_get_larger_than_cache_uses_cache_too),
		T(test_non_eal_thread_uses_store_only),
		T(test_count_includes_every_lcore_cache),
		T(test_other_lcore_cannot_see_my_cache),
		cmocka_unit_test(
			test_store_loses_nothing_while_a_consumer_stalls),
	};

	return UT_MAIN("npool_ut_head_cache", tests);
}
