/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fragment caches when the arena runs low: the 4 KiB small-chunk fallback
 * (the kernel's order-0 page), ENOMEM when nothing fits, small chunks
 * going back to the arena rather than being reused, alignment never
 * broken by a small chunk. npool runs with 2 big and 2 small chunks.
 */
#include "unit_common.h"

#define NB_BIG 2
#define NB_SMALL 2

static int
setup_tiny(void **state __rte_unused)
{
	return ut_npool_init(NB_BIG, NB_SMALL, 0, 0) == 0 ? 0 : -1;
}

static int
setup_one_chunk_no_small(void **state __rte_unused)
{
	return ut_npool_init(1, 0, 0, 0) == 0 ? 0 : -1;
}

/* Take every big chunk with whole-chunk fragments (napi cache). */
static void
hold_big_chunks(char *big[NB_BIG])
{
	unsigned int i;

	for (i = 0; i < NB_BIG; i++) {
		big[i] = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
		assert_non_null(big[i]);
	}
	assert_int_equal(ut_free_big(), 0);
}

static void
free_all(char **p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		npool_free_frag(p[i]);
}

static void
test_small_chunk_fallback_when_no_big_free(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *big[NB_BIG], *p[3];
	struct npool_chunk *c;

	hold_big_chunks(big);
	p[0] = npool_napi_alloc_frag(64);
	assert_non_null(p[0]);
	c = ut_chunk_of(p[0]);
	assert_int_equal(c->flags, NPOOL_CHUNK_F_SMALL);
	assert_int_equal(c->size, NPOOL_SMALL_CHUNK_SIZE);
	/* Carved from the end of the 4 KiB chunk toward its start. */
	assert_ptr_equal(p[0], c->va + NPOOL_SMALL_CHUNK_SIZE - 64);
	p[1] = npool_napi_alloc_frag(64);
	assert_ptr_equal(p[1], p[0] - 64);
	p[2] = npool_alloc_frag(100);
	assert_non_null(p[2]);
	assert_int_equal(ut_chunk_of(p[2])->flags, NPOOL_CHUNK_F_SMALL);
	s1 = ut_stats_self();
	assert_int_equal(s1.small_fallbacks - s0.small_fallbacks, 2);
	assert_int_equal(s1.refills - s0.refills, NB_BIG + 2);
	assert_int_equal(s1.failures, s0.failures);
	free_all(p, 3);
	free_all(big, NB_BIG);
}

static void
test_small_chunk_fills_exactly_then_next_small(void **state __rte_unused)
{
	char *big[NB_BIG], *p[NPOOL_SMALL_CHUNK_SIZE / 512 + 1];
	unsigned int i, n = NPOOL_SMALL_CHUNK_SIZE / 512;

	hold_big_chunks(big);
	for (i = 0; i <= n; i++)
		p[i] = npool_napi_alloc_frag(512);
	assert_ptr_equal(p[n - 1], ut_chunk_of(p[0])->va);
	assert_ptr_not_equal(ut_chunk_of(p[n]), ut_chunk_of(p[0]));
	assert_int_equal(ut_chunk_of(p[n])->flags, NPOOL_CHUNK_F_SMALL);
	free_all(p, n + 1);
	free_all(big, NB_BIG);
}

/* With -Dchunk_size=4096 a small chunk is as big as a big one: what is
 * above the one is above the other (EINVAL, frag_test.c). */
#if NPOOL_CHUNK_SIZE > NPOOL_SMALL_CHUNK_SIZE
static void
test_no_fallback_for_frag_above_small_chunk_enomem(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *big[NB_BIG], *p;

	hold_big_chunks(big);
	rte_errno = 0;
	assert_null(npool_napi_alloc_frag(NPOOL_SMALL_CHUNK_SIZE + 1));
	assert_int_equal(rte_errno, ENOMEM);
	rte_errno = 0;
	assert_null(npool_alloc_frag(NPOOL_SMALL_CHUNK_SIZE + 1));
	assert_int_equal(rte_errno, ENOMEM);
	s1 = ut_stats_self();
	assert_int_equal(s1.failures - s0.failures, 2);
	assert_int_equal(s1.small_fallbacks, s0.small_fallbacks);
	/* No small chunk was taken for nothing. */
	assert_int_equal(ut_free_small(), NB_SMALL);
	/* Exactly one small chunk's worth still fits. */
	p = npool_napi_alloc_frag(NPOOL_SMALL_CHUNK_SIZE);
	assert_non_null(p);
	assert_ptr_equal(p, ut_chunk_of(p)->va);
	npool_free_frag(p);
	free_all(big, NB_BIG);
}

#endif

static void
test_enomem_when_every_chunk_is_out(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *big[NB_BIG], *small[NB_SMALL];
	unsigned int i;

	hold_big_chunks(big);
	for (i = 0; i < NB_SMALL; i++) {
		small[i] = npool_napi_alloc_frag(NPOOL_SMALL_CHUNK_SIZE);
		assert_non_null(small[i]);
		assert_ptr_equal(small[i], ut_chunk_of(small[i])->va);
	}
	assert_int_equal(ut_in_use(),
			NB_BIG + NB_SMALL);
	rte_errno = 0;
	assert_null(npool_napi_alloc_frag(1));
	assert_int_equal(rte_errno, ENOMEM);
	rte_errno = 0;
	assert_null(npool_alloc_frag(1));
	assert_int_equal(rte_errno, ENOMEM);
	s1 = ut_stats_self();
	assert_int_equal(s1.failures - s0.failures, 2);
	assert_int_equal(s1.allocs - s0.allocs, NB_BIG + NB_SMALL);
	/* Once a chunk is back, allocation works again. */
	npool_free_frag(small[0]);
	small[0] = npool_napi_alloc_frag(64);
	assert_non_null(small[0]);
	free_all(small, NB_SMALL);
	free_all(big, NB_BIG);
}

static void
test_failed_refill_leaves_outstanding_chunk_alone(void **state __rte_unused)
{
	char *a, *b;
	struct npool_chunk *c;

	/* One big chunk, no small one: a whole-chunk fragment holds it. */
	a = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
	c = ut_chunk_of(a);
	rte_errno = 0;
	b = npool_napi_alloc_frag(64);
	assert_null(b);
	assert_int_equal(rte_errno, ENOMEM);
	/* The failed refill let go of the chunk: the fragment alone holds
	 * it, and freeing it gives the chunk back. */
	assert_null(ut_napi_cache()->chunk);
	assert_int_equal(c->refcnt, 1);
	npool_free_frag(a);
	assert_int_equal(ut_in_use(), 0);
	b = npool_napi_alloc_frag(64);
	assert_ptr_equal(b, c->va + NPOOL_CHUNK_SIZE - 64);
	npool_free_frag(b);
}

static void
test_small_chunk_goes_back_instead_of_reuse(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *big[NB_BIG], *p[2], *q;
	struct npool_chunk *c;

	hold_big_chunks(big);
	p[0] = npool_napi_alloc_frag(NPOOL_SMALL_CHUNK_SIZE / 2);
	p[1] = npool_napi_alloc_frag(NPOOL_SMALL_CHUNK_SIZE / 2);
	c = ut_chunk_of(p[0]);
	free_all(p, 2);
	/* A big chunk is free again (the one the cache carved before the
	 * small fallback, which it still holds): the next refill must
	 * prefer it, and the small chunk go back to the arena. */
	npool_free_frag(big[1]);
	q = npool_napi_alloc_frag(64);
	assert_ptr_equal(ut_chunk_of(q), ut_chunk_of(big[1]));
	assert_int_equal(ut_chunk_of(q)->flags & NPOOL_CHUNK_F_SMALL, 0);
	assert_int_equal(c->refcnt, 0);
	assert_int_equal(ut_free_small(), NB_SMALL);
	s1 = ut_stats_self();
	assert_int_equal(s1.reuses, s0.reuses + 1);
	npool_free_frag(q);
	npool_free_frag(big[0]);
}

#if NPOOL_CHUNK_SIZE > NPOOL_SMALL_CHUNK_SIZE
/* Hold both big chunks and small chunk 0, so that the next fallback gets
 * small chunk 1, which is 4 KiB aligned but not 8 KiB aligned. */
static void
hold_all_but_odd_small_chunk(char *big[NB_BIG], char **small0)
{
	const struct npool_arena *a = &npool_default()->arena;

	hold_big_chunks(big);
	*small0 = npool_napi_alloc_frag(NPOOL_SMALL_CHUNK_SIZE);
	assert_ptr_equal(*small0, a->chunks[NB_BIG].va);
	assert_int_not_equal((uintptr_t)a->chunks[NB_BIG + 1].va % 8192, 0);
}

/* Only small chunks are left: an 8 KiB alignment cannot be served. */
static void
assert_8k_aligned_or_enomem(int napi)
{
	char *p;

	rte_errno = 0;
	p = napi ? npool_napi_alloc_frag_align(64, 8192) :
		npool_alloc_frag_align(64, 8192);
	/* Never a fragment aligned less than asked... */
	if (p != NULL)
		assert_int_equal((uintptr_t)p % 8192, 0);
	/* ...and here none at all. */
	assert_null(p);
	assert_int_equal(rte_errno, ENOMEM);
}

static void
test_big_alignment_never_served_from_small_chunk(void **state __rte_unused)
{
	char *big[NB_BIG], *small0;

	hold_all_but_odd_small_chunk(big, &small0);
	assert_8k_aligned_or_enomem(1);
	assert_8k_aligned_or_enomem(0);
	npool_free_frag(small0);
	free_all(big, NB_BIG);
}

static void
test_big_alignment_from_current_small_chunk(void **state __rte_unused)
{
	char *big[NB_BIG], *small0, *p, *q;

	hold_all_but_odd_small_chunk(big, &small0);
	/* The cache now carves small chunk 1. */
	p = npool_napi_alloc_frag_align(64, 64);
	assert_ptr_equal(ut_chunk_of(p), &npool_default()->arena.chunks[NB_BIG + 1]);
	assert_8k_aligned_or_enomem(1);
	/* Alignments up to 4 KiB still come from small chunks. */
	npool_free_frag(p);
	q = npool_napi_alloc_frag_align(64, NPOOL_SMALL_CHUNK_SIZE);
	assert_ptr_equal(q, npool_default()->arena.chunks[NB_BIG + 1].va);
	npool_free_frag(q);
	npool_free_frag(small0);
	free_all(big, NB_BIG);
}

#endif

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_small_chunk_fallback_when_no_big_free, setup_tiny),
		T(test_small_chunk_fills_exactly_then_next_small, setup_tiny),
#if NPOOL_CHUNK_SIZE > NPOOL_SMALL_CHUNK_SIZE
		T(test_no_fallback_for_frag_above_small_chunk_enomem,
			setup_tiny),
#endif
		T(test_enomem_when_every_chunk_is_out, setup_tiny),
		T(test_failed_refill_leaves_outstanding_chunk_alone,
			setup_one_chunk_no_small),
		T(test_small_chunk_goes_back_instead_of_reuse, setup_tiny),
#if NPOOL_CHUNK_SIZE > NPOOL_SMALL_CHUNK_SIZE
		T(test_big_alignment_never_served_from_small_chunk,
			setup_tiny),
		T(test_big_alignment_from_current_small_chunk, setup_tiny),
#endif
	};

	return UT_MAIN("npool_ut_frag_fallback", tests);
}
