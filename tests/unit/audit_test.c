/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool_audit(): the counts it reports (chunks free, cached, pinned,
 * fragments and heads out) on known states, and each kind of corruption
 * it must find: a refcount off by one, a chunk out of the arena that
 * nobody holds, a chunk free twice, a head free twice. Each corruption is
 * undone before the (leak-checking) teardown.
 */
#include <rte_mempool.h>

#include "npool_head_cache.h"
#include "unit_common.h"

/* Chunks of the default arena (npool_conf_defaults()). */
/* What npool_audit() must find in the default instance: every chunk and
 * head there is (npool_usage). */
#define CHUNKS (ut_usage().chunks + ut_usage().small_chunks)
#define HEADS (ut_usage().heads)

static struct npool_usage
ut_usage(void)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	return u;
}

static struct npool_audit
audit_ok(void)
{
	struct npool_audit a;

	assert_int_equal(npool_audit(&a), 0);
	assert_int_equal(a.errors, 0);
	assert_int_equal(a.chunks, CHUNKS);
	assert_int_equal(a.heads, HEADS);
	assert_int_equal(a.frags_out, a.frags_counted);
	return a;
}

/* An audit that must find @errors inconsistencies. */
static struct npool_audit
audit_bad(uint32_t errors)
{
	struct npool_audit a;

	rte_errno = 0;
	assert_int_equal(npool_audit(&a), -EUCLEAN);
	assert_int_equal(rte_errno, EUCLEAN);
	assert_int_equal(a.errors, errors);
	return a;
}

static void
test_audit_rejects_null_and_no_npool(void **state __rte_unused)
{
	struct npool_audit a;

	rte_errno = 0;
	assert_int_equal(npool_audit(NULL), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	assert_null(npool_default());
	assert_int_equal(npool_audit(&a), -ENODEV);
	assert_int_equal(rte_errno, ENODEV);
}

static void
test_audit_of_fresh_npool(void **state __rte_unused)
{
	struct npool_audit a = audit_ok();

	assert_int_equal(a.chunks_free, CHUNKS);
	assert_int_equal(a.chunks_cached, 0);
	assert_int_equal(a.chunks_pinned, 0);
	assert_int_equal(a.frags_out, 0);
	assert_int_equal(a.heads_free, HEADS);
}

static void
test_audit_counts_cached_then_pinned_chunks(void **state __rte_unused)
{
	char *p = npool_napi_alloc_frag(100);
	char *q = npool_napi_alloc_frag(300);
	char *g = npool_alloc_frag(200);
	struct npool_audit a;

	assert_non_null(p);
	assert_non_null(q);
	assert_non_null(g);
	/* Two caches carve two chunks; three fragments out of them. */
	a = audit_ok();
	assert_int_equal(a.chunks_cached, 2);
	assert_int_equal(a.chunks_pinned, 0);
	assert_int_equal(a.chunks_free, CHUNKS - 2);
	assert_int_equal(a.frags_out, 3);
	/* The caches let go: the fragments alone pin the chunks. */
	npool_frag_cache_drain_all();
	a = audit_ok();
	assert_int_equal(a.chunks_cached, 0);
	assert_int_equal(a.chunks_pinned, 2);
	assert_int_equal(a.frags_out, 3);
	npool_free_frag(p + 99);
	npool_free_frag(g);
	a = audit_ok();
	assert_int_equal(a.chunks_pinned, 1);
	assert_int_equal(a.chunks_free, CHUNKS - 1);
	assert_int_equal(a.frags_out, 1);
	npool_free_frag(q);
	a = audit_ok();
	assert_int_equal(a.chunks_free, CHUNKS);
	assert_int_equal(a.frags_out, 0);
}

static void
test_audit_counts_heads_out(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(64);
	struct rte_mbuf *c;
	struct npool_audit a;

	assert_non_null(m);
	c = rte_pktmbuf_clone(m, npool_head_pool());
	assert_non_null(c);
	a = audit_ok();
	assert_int_equal(a.heads_free, HEADS - 2);
	assert_int_equal(a.frags_out, 1);
	rte_pktmbuf_free(m);
	npool_napi_consume_pkt(c);
	a = audit_ok();
	assert_int_equal(a.heads_free, HEADS);
	assert_int_equal(a.frags_out, 0);
}

static void
test_audit_finds_refcount_off_by_one(void **state __rte_unused)
{
	char *p = npool_alloc_frag(64);
	struct npool_chunk *c = ut_chunk_of(p);
	struct npool_audit a;

	npool_frag_cache_drain_all();
	assert_int_equal(c->refcnt, 1);
	/* A reference nobody will give back (debug builds: the fragment
	 * map disagrees too). */
	c->refcnt++;
	a = audit_bad(NPOOL_DEBUG ? 2 : 1);
	assert_int_equal(a.frags_out, 2);
	assert_int_equal(a.frags_counted, 1);
	c->refcnt--;
	audit_ok();
	npool_free_frag(p);
}

static void
test_audit_finds_chunk_nobody_holds(void **state __rte_unused)
{
	struct npool_arena *ar = &npool_default()->arena;
	struct npool_chunk *c = npool_arena_get(ar, 0);
	struct npool_audit a;

	/* Out of the arena, no cache, no reference: a leak. */
	assert_non_null(c);
	a = audit_bad(1);
	assert_int_equal(a.chunks_free, CHUNKS - 1);
	assert_int_equal(a.chunks_pinned, 1);
	npool_arena_put(ar, c);
	audit_ok();
}

static void
test_audit_finds_chunk_free_twice(void **state __rte_unused)
{
	struct npool_arena *ar = &npool_default()->arena;
	struct npool_chunk *c = npool_arena_get(ar, 1);
	struct npool_chunk *d = npool_arena_get(ar, 1);
	struct npool_audit a;

	/* The stack holds every chunk at most: c takes d's place, so d
	 * is out with nobody holding it. Two errors. */
	assert_non_null(c);
	assert_non_null(d);
	npool_arena_put(ar, c);
	npool_arena_put(ar, c);
	a = audit_bad(2);
	assert_int_equal(a.chunks_free, CHUNKS - 1);
	assert_int_equal(a.chunks_pinned, 1);
	/* The walk kept the stack as it was: the top is c, twice. */
	assert_ptr_equal(npool_arena_get(ar, 1), c);
	npool_arena_put(ar, d);
	audit_ok();
}

#if !NPOOL_DEBUG
/* (Debug builds panic on the second put itself: see debug_test.c.) */
static void
test_audit_finds_head_free_twice(void **state __rte_unused)
{
	struct rte_mempool *hp = npool_head_pool();
	struct rte_mempool_cache *c;
	struct npool_hc_lcore *oc;
	void *m, *m1, *m2, **objs;
	uint32_t len;
	struct npool_audit a;

	assert_int_equal(rte_mempool_get(hp, &m), 0);
	rte_mempool_put(hp, m);
	rte_mempool_put(hp, m);
	a = audit_bad(1);
	assert_int_equal(a.heads_free, HEADS);
	/* In this lcore's cache twice: DPDK's count, capped at the pool size
	 * with a mempool cache, cannot tell; the audit does. */
	c = rte_mempool_default_cache(hp, rte_lcore_id());
	if (c != NULL) {
		len = c->len;
		objs = c->objs;
	} else { /* ASan builds: the ops' own cache */
		oc = &((struct npool_hc *)hp->pool_data)->lc[rte_lcore_id()];
		len = oc->len;
		objs = oc->objs;
	}
	assert_true(len >= 2);
	assert_ptr_equal(objs[len - 1], m);
	assert_ptr_equal(objs[len - 2], m);
	assert_int_equal(rte_mempool_avail_count(hp),
			hp->cache_size != 0 ? HEADS : HEADS + 1);
	assert_int_equal(rte_mempool_get(hp, &m1), 0);
	assert_int_equal(rte_mempool_get(hp, &m2), 0);
	assert_ptr_equal(m1, m);
	assert_ptr_equal(m2, m);
	rte_mempool_put(hp, m);
	audit_ok();
}
#endif

#define T(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_audit_rejects_null_and_no_npool),
		T(test_audit_of_fresh_npool),
		T(test_audit_counts_cached_then_pinned_chunks),
		T(test_audit_counts_heads_out),
		T(test_audit_finds_refcount_off_by_one),
		T(test_audit_finds_chunk_nobody_holds),
		T(test_audit_finds_chunk_free_twice),
#if !NPOOL_DEBUG
		T(test_audit_finds_head_free_twice),
#endif
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_audit", tests);
}
