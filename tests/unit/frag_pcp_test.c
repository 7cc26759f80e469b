/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The chunks an lcore keeps (npool_lcore.pcp, the kernel's per-CPU page
 * lists): a chunk whose last fragment comes back on the EAL lcore that
 * carved it after its cache gave it up stays with that lcore and is its
 * next refill, with no trip through the arena (another lcore's free sends
 * it to the arena); at most NPOOL_PCP_MAX, the rest go to the arena;
 * a drain gives them back; the audit counts them free; a guarded cache
 * (any thread) never takes one; a dry arena takes them back for the
 * fallbacks.
 */
#include <string.h>

#include "unit_common.h"

#define HALF (NPOOL_CHUNK_SIZE / 2)

static struct npool_lcore *
self_lc(void)
{
	return &npool_default()->lc[npool_slot()];
}

static unsigned int
arena_free_big(void)
{
	return npool_arena_free_count(&npool_default()->arena, 0);
}

/*
 * Give up @p n chunks with one fragment of each still out, in @p kept:
 * each chunk is carved in two halves, the other half freed, and two more
 * chunks carved after it (the cache holds a chunk and the one before).
 */
static void
chunks_left_with_one_frag(void **kept, unsigned int n)
{
	void *p[2 * (NPOOL_PCP_MAX + 3)];
	unsigned int i;

	assert_true(n + 2 <= NPOOL_PCP_MAX + 3);
	for (i = 0; i < 2 * (n + 2); i++) {
		p[i] = npool_napi_alloc_frag(HALF);
		assert_non_null(p[i]);
	}
	for (i = 0; i < n; i++) {
		kept[i] = p[2 * i];
		npool_free_frag(p[2 * i + 1]);
	}
	/* The last two chunks: back at the next drain. */
	for (i = 2 * n; i < 2 * (n + 2); i++)
		npool_free_frag(p[i]);
}

static void
test_last_frag_back_keeps_chunk_for_next_refill(void **state __rte_unused)
{
	struct npool_lcore *lc = self_lc();
	struct npool_stats s0, s1;
	struct npool_chunk *c;
	unsigned int i, before;
	void *h[6], *p;

	/* Chunks A, B, C in halves; the cache holds C and, before it, B. */
	for (i = 0; i < 6; i++) {
		h[i] = npool_napi_alloc_frag(HALF);
		assert_non_null(h[i]);
	}
	c = ut_chunk_of(h[0]);
	for (i = 1; i < 6; i += 2)
		npool_free_frag(h[i]);
	assert_int_equal(lc->pcp_n, 0);
	before = arena_free_big();
	npool_free_frag(h[0]);
	/* A's last fragment: kept here, not in the arena. */
	assert_int_equal(c->refcnt, 0);
	assert_int_equal(lc->pcp_n, 1);
	assert_ptr_equal(lc->pcp[0], c);
	assert_int_equal(arena_free_big(), before);
	/* B and C each have a fragment out: the next carve refills, from
	 * what this lcore keeps. */
	s0 = ut_stats_self();
	p = npool_napi_alloc_frag(HALF);
	s1 = ut_stats_self();
	assert_ptr_equal(ut_chunk_of(p), c);
	assert_int_equal(lc->pcp_n, 0);
	assert_int_equal(s1.reuses - s0.reuses, 1);
	assert_int_equal(s1.refills - s0.refills, 0);
	assert_int_equal(arena_free_big(), before);
	assert_int_equal(c->owner, npool_slot());
	npool_free_frag(p);
	npool_free_frag(h[2]);
	npool_free_frag(h[4]);
}

static void
test_at_most_pcp_max_kept_rest_to_arena(void **state __rte_unused)
{
	struct npool_lcore *lc = self_lc();
	void *kept[NPOOL_PCP_MAX + 1];
	unsigned int i, before;

	chunks_left_with_one_frag(kept, NPOOL_PCP_MAX + 1);
	before = arena_free_big();
	for (i = 0; i < NPOOL_PCP_MAX + 1; i++)
		npool_free_frag(kept[i]);
	assert_int_equal(lc->pcp_n, NPOOL_PCP_MAX);
	assert_int_equal(arena_free_big(), before + 1);
	assert_int_equal(ut_in_use(), 2);
}

static void
test_drain_gives_kept_chunks_back(void **state __rte_unused)
{
	const unsigned int nb = npool_default()->arena.nb_chunks;
	void *kept[2];

	chunks_left_with_one_frag(kept, 2);
	npool_free_frag(kept[0]);
	npool_free_frag(kept[1]);
	assert_int_equal(self_lc()->pcp_n, 2);
	npool_frag_cache_drain_local();
	assert_int_equal(self_lc()->pcp_n, 0);
	assert_int_equal(arena_free_big(), nb);
}

static void
test_audit_and_usage_count_kept_chunks_free(void **state __rte_unused)
{
	struct npool_audit a;
	struct npool_usage u;
	void *kept[2];

	chunks_left_with_one_frag(kept, 2);
	npool_free_frag(kept[0]);
	assert_int_equal(self_lc()->pcp_n, 1);
	assert_int_equal(npool_audit(&a), 0);
	assert_int_equal(a.errors, 0);
	/* Kept: 1; the cache's two chunks; the one kept[1] pins. */
	assert_int_equal(a.chunks_free, a.chunks - 3);
	assert_int_equal(a.chunks_cached, 2);
	assert_int_equal(a.chunks_pinned, 1);
	assert_int_equal(npool_usage_get(&u), 0);
	/* The cache's chunks hold no fragment: kept[1]'s chunk alone. */
	assert_int_equal(u.big_pinned, 1);
	npool_free_frag(kept[1]);
}

static void
test_audit_finds_kept_chunk_also_in_arena(void **state __rte_unused)
{
	struct npool_lcore *lc = self_lc();
	struct npool_audit a;
	void *kept;

	chunks_left_with_one_frag(&kept, 1);
	npool_free_frag(kept);
	assert_int_equal(lc->pcp_n, 1);
	/* The same chunk in the arena too: a double free the audit sees. */
	npool_arena_put(&npool_default()->arena, lc->pcp[0]);
	assert_int_equal(npool_audit(&a), -EUCLEAN);
	assert_true(a.errors > 0);
	lc->pcp_n = 0;
}

/* Every big chunk of the arena taken out; back by arena_return(). */
static unsigned int
arena_take_big(struct npool_chunk **got, unsigned int max)
{
	unsigned int n = 0;

	while (n < max &&
			(got[n] = npool_arena_get(&npool_default()->arena, 0))
				!= NULL)
		n++;
	return n;
}

static void
arena_return(struct npool_chunk **got, unsigned int n)
{
	while (n-- > 0)
		npool_arena_put(&npool_default()->arena, got[n]);
}

static void
test_guarded_never_takes_kept_chunk(void **state __rte_unused)
{
	struct npool_chunk *got[1024];
	unsigned int n;
	void *kept, *p;

	chunks_left_with_one_frag(&kept, 1);
	/* The cache's own chunks back to the arena: it has none then. */
	npool_frag_cache_drain_local();
	npool_free_frag(kept);
	assert_int_equal(self_lc()->pcp_n, 1);
	n = arena_take_big(got, RTE_DIM(got));
	assert_int_equal(arena_free_big(), 0);
	/* Too big for a small chunk: the guarded cache has none. */
	rte_errno = 0;
	assert_null(npool_alloc_frag(NPOOL_CHUNK_SIZE));
	assert_int_equal(rte_errno, ENOMEM);
	/* The napi cache of this lcore takes it. */
	p = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
	assert_non_null(p);
	assert_int_equal(self_lc()->pcp_n, 0);
	npool_free_frag(p);
	arena_return(got, n);
}

static void
test_dry_arena_takes_kept_chunks_back(void **state __rte_unused)
{
	struct npool *np = npool_default();
	struct npool_chunk *got[1024], *smalls[1024], *c;
	struct npool_stats s0, s1;
	unsigned int n, small_n = 0;
	void *p;

	/* This lcore keeps a small chunk (its last fragment came back
	 * here); the arena has no chunk of either kind left. */
	c = npool_arena_get(&np->arena, 1);
	assert_non_null(c);
	c->owner = (uint16_t)npool_slot();
	npool_chunk_free(np, npool_slot(), c);
	assert_int_equal(self_lc()->pcp_n, 1);
	n = arena_take_big(got, RTE_DIM(got));
	while ((smalls[small_n] = npool_arena_get(&np->arena, 1)) != NULL)
		small_n++;
	/* The big cache keeps no big chunk: the kept small one goes back
	 * to the arena and is the order-0 fallback. */
	s0 = ut_stats_self();
	p = npool_napi_alloc_frag(64);
	s1 = ut_stats_self();
	assert_non_null(p);
	assert_ptr_equal(ut_chunk_of(p), c);
	assert_int_equal(self_lc()->pcp_n, 0);
	assert_int_equal(s1.small_fallbacks - s0.small_fallbacks, 1);
	npool_free_frag(p);
	npool_frag_cache_drain_local();
	while (small_n-- > 0)
		npool_arena_put(&np->arena, smalls[small_n]);
	arena_return(got, n);
}

static int
free_on_worker(void *arg)
{
	npool_free_frag(arg);
	return 0;
}

static void
test_chunk_freed_by_another_lcore_goes_to_arena(void **state __rte_unused)
{
	unsigned int before;
	void *kept;

	chunks_left_with_one_frag(&kept, 1);
	before = arena_free_big();
	/* A worker that only frees keeps nothing: the chunk is not its. */
	assert_int_equal(ut_on_other_lcore(free_on_worker, kept), 0);
	assert_int_equal(self_lc()->pcp_n, 0);
	assert_int_equal(arena_free_big(), before + 1);
	assert_int_equal(ut_in_use(), 2);
}

#define T(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_last_frag_back_keeps_chunk_for_next_refill),
		T(test_at_most_pcp_max_kept_rest_to_arena),
		T(test_drain_gives_kept_chunks_back),
		T(test_audit_and_usage_count_kept_chunks_free),
		T(test_audit_finds_kept_chunk_also_in_arena),
		T(test_guarded_never_takes_kept_chunk),
		T(test_dry_arena_takes_kept_chunks_back),
		T(test_chunk_freed_by_another_lcore_goes_to_arena),
	};

	return UT_MAIN("npool_ut_frag_pcp", tests);
}
