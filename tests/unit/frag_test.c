/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fragment caches on one lcore (lib/npool/npool_frag.h): carving from the
 * end toward the start, alignment, argument errors, chunk boundaries,
 * free by inner address, refcount/bias bookkeeping, in-place reuse versus
 * a new chunk, chunks returned exactly once, IOVA, draining.
 */
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"

#define NB_FRAGS 64

typedef void *(alloc_fn)(uint32_t size, uint32_t align);

static void *
napi_alloc(uint32_t size, uint32_t align)
{
	return npool_napi_alloc_frag_align(size, align);
}

static void *
guarded_alloc(uint32_t size, uint32_t align)
{
	return npool_alloc_frag_align(size, align);
}

static void
check_carving(alloc_fn *alloc, struct npool_frag_cache *nc, uint32_t size)
{
	char *p[NB_FRAGS];
	struct npool_chunk *c;
	unsigned int i, n = RTE_MIN((uint32_t)NB_FRAGS,
			NPOOL_CHUNK_SIZE / size);

	p[0] = alloc(size, 1);
	assert_non_null(p[0]);
	c = ut_chunk_of(p[0]);
	assert_non_null(c);
	assert_ptr_equal(nc->chunk, c);
	/* The first fragment is the last @size bytes of the chunk. */
	assert_ptr_equal(p[0], c->va + c->size - size);
	for (i = 1; i < n; i++) {
		p[i] = alloc(size, 1);
		/* Each next one sits right below the previous one. */
		assert_ptr_equal(p[i], p[i - 1] - size);
		assert_ptr_equal(ut_chunk_of(p[i]), c);
	}
	assert_int_equal(nc->offset, (int32_t)(c->size - n * size));
	for (i = 0; i < n; i++)
		npool_free_frag(p[i]);
}

static void
test_napi_frags_carved_from_end_toward_start(void **state __rte_unused)
{
	check_carving(napi_alloc, ut_napi_cache(), 256);
}

static void
test_napi_frags_of_odd_size_spaced_by_the_size(void **state __rte_unused)
{
	check_carving(napi_alloc, ut_napi_cache(), 100);
}

static void
test_guarded_frags_carved_from_end_toward_start(void **state __rte_unused)
{
	check_carving(guarded_alloc, ut_guarded_cache(), 1500);
}

static void
test_napi_and_guarded_caches_use_different_chunks(void **state __rte_unused)
{
	void *a = npool_napi_alloc_frag(64);
	void *b = npool_alloc_frag(64);

	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(ut_chunk_of(a), ut_chunk_of(b));
	assert_ptr_equal(ut_napi_cache()->chunk, ut_chunk_of(a));
	assert_ptr_equal(ut_guarded_cache()->chunk, ut_chunk_of(b));
	assert_int_equal(ut_in_use(), 2);
	npool_free_frag(a);
	npool_free_frag(b);
}

static void
test_chunk_filled_exactly_then_new_chunk(void **state __rte_unused)
{
	const unsigned int n = NPOOL_CHUNK_SIZE / 1024;
	struct npool_stats s0 = ut_stats_self(), s1;
	char *p[NPOOL_CHUNK_SIZE / 1024 + 1];
	unsigned int i;

	for (i = 0; i <= n; i++)
		p[i] = npool_napi_alloc_frag(1024);
	/* The n-th fragment is the first byte of the chunk... */
	assert_ptr_equal(p[n - 1], ut_chunk_of(p[0])->va);
	/* ...and the next one opens a new chunk, from its end. */
	assert_ptr_not_equal(ut_chunk_of(p[n]), ut_chunk_of(p[0]));
	assert_ptr_equal(p[n], ut_chunk_of(p[n])->va + NPOOL_CHUNK_SIZE - 1024);
	s1 = ut_stats_self();
	assert_int_equal(s1.refills - s0.refills, 2);
	assert_int_equal(s1.reuses - s0.reuses, 0);
	assert_int_equal(s1.allocs - s0.allocs, n + 1);
	for (i = 0; i <= n; i++)
		npool_free_frag(p[i]);
}

static void
check_never_straddles(alloc_fn *alloc)
{
	static void *p[2000];
	static uint32_t sz[2000];
	unsigned int i;

	srand(7);
	for (i = 0; i < RTE_DIM(p); i++) {
		/* Mostly packet sizes, sometimes up to a whole chunk. */
		sz[i] = (i % 50 == 49) ? 1 + rand() % NPOOL_CHUNK_SIZE :
			1 + rand() % 3000;
		p[i] = alloc(sz[i], 1u << (rand() % 7));
		assert_non_null(p[i]);
		assert_ptr_equal(ut_chunk_of(p[i]),
				ut_chunk_of((char *)p[i] + sz[i] - 1));
		/* Writing the whole fragment must not hurt a neighbour. */
		memset(p[i], (int)(i & 0xff), sz[i]);
	}
	for (i = 0; i < RTE_DIM(p); i++) {
		assert_int_equal(((unsigned char *)p[i])[0], i & 0xff);
		assert_int_equal(((unsigned char *)p[i])[sz[i] - 1], i & 0xff);
		npool_free_frag(p[i]);
	}
}

static void
test_napi_frag_never_straddles_chunks(void **state __rte_unused)
{
	check_never_straddles(napi_alloc);
}

static void
test_guarded_frag_never_straddles_chunks(void **state __rte_unused)
{
	check_never_straddles(guarded_alloc);
}

static void
test_results_aligned_for_every_power_of_two(void **state __rte_unused)
{
	uint32_t align;

	for (align = 1; align <= NPOOL_CHUNK_SIZE; align <<= 1) {
		char *a = npool_napi_alloc_frag_align(100, align);
		char *b = npool_alloc_frag_align(100, align);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal((uintptr_t)a % align, 0);
		assert_int_equal((uintptr_t)b % align, 0);
		assert_ptr_equal(ut_chunk_of(a), ut_chunk_of(a + 99));
		assert_ptr_equal(ut_chunk_of(b), ut_chunk_of(b + 99));
		npool_free_frag(a);
		npool_free_frag(b);
	}
}

static void
test_alignment_rounds_the_start_down(void **state __rte_unused)
{
	char *a = npool_napi_alloc_frag(100);
	char *b = npool_napi_alloc_frag_align(100, 64);
	struct npool_chunk *c = ut_chunk_of(a);

	/* 32768 - 100 = 32668; 32568 rounded down to 64 is 32512. */
	assert_ptr_equal(a, c->va + NPOOL_CHUNK_SIZE - 100);
	assert_ptr_equal(b, c->va +
			RTE_ALIGN_FLOOR(NPOOL_CHUNK_SIZE - 200, 64));
	npool_free_frag(a);
	npool_free_frag(b);
}

static void
test_alignment_not_power_of_two_einval(void **state __rte_unused)
{
	static const uint32_t bad[] = { 0, 3, 48, 100, NPOOL_CHUNK_SIZE * 2,
		UINT32_MAX, 1u << 31 };
	struct npool_stats s0 = ut_stats_self(), s1;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		assert_null(npool_napi_alloc_frag_align(64, bad[i]));
		assert_int_equal(rte_errno, EINVAL);
		rte_errno = 0;
		assert_null(npool_alloc_frag_align(64, bad[i]));
		assert_int_equal(rte_errno, EINVAL);
	}
	s1 = ut_stats_self();
	assert_int_equal(s1.failures - s0.failures, 2 * RTE_DIM(bad));
	assert_int_equal(s1.allocs, s0.allocs);
	assert_int_equal(s1.guarded_allocs, s0.guarded_allocs);
	/* A rejected call takes no chunk. */
	assert_int_equal(ut_in_use(), 0);
}

static void
test_size_zero_or_above_chunk_einval(void **state __rte_unused)
{
	static const uint32_t bad[] = { 0, NPOOL_CHUNK_SIZE + 1,
		NPOOL_CHUNK_SIZE * 2, UINT32_MAX };
	struct npool_stats s0 = ut_stats_self(), s1;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		assert_null(npool_napi_alloc_frag(bad[i]));
		assert_int_equal(rte_errno, EINVAL);
		rte_errno = 0;
		assert_null(npool_alloc_frag(bad[i]));
		assert_int_equal(rte_errno, EINVAL);
	}
	s1 = ut_stats_self();
	assert_int_equal(s1.failures - s0.failures, 2 * RTE_DIM(bad));
	assert_int_equal(ut_in_use(), 0);
}

static void
test_whole_chunk_fragment_is_the_chunk(void **state __rte_unused)
{
	char *a = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
	char *b = npool_alloc_frag(NPOOL_CHUNK_SIZE);

	assert_non_null(a);
	assert_ptr_equal(a, ut_chunk_of(a)->va);
	assert_ptr_equal(b, ut_chunk_of(b)->va);
	npool_free_frag(a);
	npool_free_frag(b);
}

static void
test_free_from_any_inner_address(void **state __rte_unused)
{
	char *p[4];
	struct npool_chunk *c;
	unsigned int i;

	for (i = 0; i < 4; i++)
		p[i] = npool_napi_alloc_frag(512);
	c = ut_chunk_of(p[0]);
	npool_free_frag(p[0]);
	npool_free_frag(p[1] + 1);
	npool_free_frag(p[2] + 256);
	npool_free_frag(p[3] + 511);
	assert_int_equal(npool_frags_outstanding(), 0);
	/* Only the cache's bias keeps the chunk now. */
	assert_int_equal(c->refcnt, npool_frag_cache_bias_pvt(ut_napi_cache()));
	npool_frag_cache_drain_all();
	assert_int_equal(c->refcnt, 0);
	assert_int_equal(ut_in_use(), 0);
}

static void
test_refcount_minus_bias_counts_outstanding(void **state __rte_unused)
{
	struct npool_frag_cache *nc = ut_napi_cache();
	char *p[16];
	struct npool_chunk *c;
	int out = 0;
	unsigned int i;

	for (i = 0; i < 16; i++) {
		/* 16 of them fit one chunk of any configured size. */
		p[i] = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 20);
		c = nc->chunk;
		out++;
		/* Handed out - freed == refcount - bias still in the cache. */
		assert_int_equal((int64_t)c->refcnt - npool_frag_cache_bias_pvt(nc), out);
		if (i % 3 == 2) {
			npool_free_frag(p[i - 1]);
			p[i - 1] = NULL;
			out--;
			assert_int_equal((int64_t)c->refcnt - npool_frag_cache_bias_pvt(nc),
					out);
		}
	}
	/* One chunk all along, and the cache still holds it. */
	assert_ptr_equal(ut_chunk_of(p[0]), c);
	assert_ptr_equal(nc->chunk, c);
	/* Leave the chunk: then refcount alone counts what is out. */
	npool_frag_cache_drain_all();
	assert_int_equal(c->refcnt, out);
	for (i = 0; i < 16; i++) {
		if (p[i] == NULL)
			continue;
		npool_free_frag(p[i]);
		assert_int_equal(c->refcnt, --out);
		/* Back in the arena exactly when the last one comes back. */
		assert_int_equal(ut_in_use(),
				out != 0);
	}
}

/* Carve a chunk into 4 quarters (p[0..3]), free the first @nfree. */
static struct npool_chunk *
fill_chunk_with_quarters(char *p[4], unsigned int nfree)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		p[i] = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 4);
	assert_ptr_equal(ut_chunk_of(p[3]), ut_chunk_of(p[0]));
	for (i = 0; i < nfree; i++)
		npool_free_frag(p[i]);
	return ut_chunk_of(p[0]);
}

static void
test_reuse_when_all_frags_freed(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct npool_chunk *c;
	char *p[4], *q;

	c = fill_chunk_with_quarters(p, 4);
	/* The chunk ran out with every fragment back: reused in place. */
	q = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 4);
	assert_ptr_equal(q, p[0]);
	assert_ptr_equal(ut_chunk_of(q), c);
	s1 = ut_stats_self();
	assert_int_equal(s1.reuses - s0.reuses, 1);
	assert_int_equal(s1.refills - s0.refills, 1);
	assert_int_equal(ut_in_use(), 1);
	assert_int_equal(c->refcnt - npool_frag_cache_bias_pvt(ut_napi_cache()), 1);
	npool_free_frag(q);
}

static void
test_new_chunk_when_a_frag_is_still_out(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct npool_frag_cache *nc = ut_napi_cache();
	struct npool_chunk *c, *d;
	char *p[4], *q, *r;
	unsigned int i;

	c = fill_chunk_with_quarters(p, 3);
	q = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 4);
	d = ut_chunk_of(q);
	assert_ptr_not_equal(d, c);
	s1 = ut_stats_self();
	assert_int_equal(s1.reuses - s0.reuses, 0);
	assert_int_equal(s1.refills - s0.refills, 2);
	/* The cache keeps the old chunk as its previous one, with its
	 * bias: one fragment out, whose free costs no atomic. */
	assert_ptr_equal(nc->prev, c);
	assert_int_equal(c->refcnt - nc->prev_bias, 1);
	assert_int_equal(ut_in_use(), 2);
	npool_free_frag(p[3] + 17);
	assert_int_equal(c->refcnt - nc->prev_bias, 0);
	assert_int_equal(c->refcnt, NPOOL_FRAG_BIAS_MAX);
	/* The next refill reuses it, all back, without the arena. */
	for (i = 0; i < 3; i++) {
		p[i] = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 4);
		assert_ptr_equal(ut_chunk_of(p[i]), d);
	}
	for (i = 0; i < 3; i++)
		npool_free_frag(p[i]);
	r = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 4);
	assert_ptr_equal(ut_chunk_of(r), c);
	assert_ptr_equal(nc->prev, d);
	s0 = s1;
	s1 = ut_stats_self();
	assert_int_equal(s1.reuses - s0.reuses, 1);
	assert_int_equal(s1.refills - s0.refills, 0);
	assert_int_equal(ut_in_use(), 2);
	npool_free_frag(q);
	npool_free_frag(r);
}

static void
test_chunk_returned_to_arena_exactly_once(void **state __rte_unused)
{
	const unsigned int nb = npool_default()->arena.nb_chunks;
	char *p[8];
	unsigned int i, round;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < 8; i++)
			p[i] = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / 2);
		/* 8 halves: chunks 1-3 left the cache, the 4th is in it. */
		assert_int_equal(ut_free_big(), nb - 4);
		for (i = 0; i < 8; i++)
			npool_free_frag(p[7 - i]);
		/* Chunks 1-2 are back; the cache holds the 4th and, as its
		 * previous one, the 3rd. */
		assert_int_equal(ut_free_big(), nb - 2);
		npool_frag_cache_drain_all();
		assert_int_equal(ut_free_big(), nb);
		assert_int_equal(ut_in_use(), 0);
	}
}

static void
test_frag_iova_of_any_inner_byte(void **state __rte_unused)
{
	char *p = npool_napi_alloc_frag(2048);
	struct npool_chunk *c = ut_chunk_of(p);
	int outside;

	assert_int_not_equal(npool_frag_iova(p), RTE_BAD_IOVA);
	assert_int_equal(npool_frag_iova(p), c->iova + (p - c->va));
	assert_int_equal(npool_frag_iova(p + 2047), c->iova + (p - c->va) +
			2047);
	assert_int_equal(npool_frag_iova(p + 5), rte_mem_virt2iova(p + 5));
	assert_int_equal(npool_frag_iova(&outside), RTE_BAD_IOVA);
	npool_free_frag(p);
}

static void
test_free_null_is_ignored(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;

	npool_free_frag(NULL);
	s1 = ut_stats_self();
	assert_memory_equal(&s0, &s1, sizeof(s0));
}

#if !NPOOL_DEBUG
static void
test_free_outside_arena_ignored_and_counted(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	int x;

	npool_free_frag(&x);
	s1 = ut_stats_self();
	assert_int_equal(s1.failures - s0.failures, 1);
	assert_int_equal(s1.frees, s0.frees);
	assert_int_equal(npool_frags_outstanding(), 0);
}
#endif

static void
test_drain_returns_idle_chunks_and_caches_refill(void **state __rte_unused)
{
	char *a = npool_napi_alloc_frag(64), *b = npool_alloc_frag(64), *c;

	npool_free_frag(a);
	npool_free_frag(b);
	assert_int_equal(ut_in_use(), 2);
	npool_frag_cache_drain_all();
	assert_int_equal(ut_in_use(), 0);
	assert_null(ut_napi_cache()->chunk);
	assert_null(ut_guarded_cache()->chunk);
	assert_int_equal(npool_frag_cache_bias_pvt(ut_napi_cache()), 0);
	c = npool_napi_alloc_frag(64);
	assert_non_null(c);
	assert_ptr_equal(c, ut_chunk_of(c)->va + NPOOL_CHUNK_SIZE - 64);
	npool_free_frag(c);
}

static void
test_drain_leaves_chunk_to_outstanding_frag(void **state __rte_unused)
{
	char *a = npool_napi_alloc_frag(64);
	struct npool_chunk *c = ut_chunk_of(a);

	npool_frag_cache_drain_all();
	assert_int_equal(c->refcnt, 1);
	assert_int_equal(ut_in_use(), 1);
	/* Draining twice changes nothing. */
	npool_frag_cache_drain_all();
	assert_int_equal(c->refcnt, 1);
	npool_free_frag(a);
	assert_int_equal(c->refcnt, 0);
	assert_int_equal(ut_in_use(), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_napi_frags_carved_from_end_toward_start),
		T(test_napi_frags_of_odd_size_spaced_by_the_size),
		T(test_guarded_frags_carved_from_end_toward_start),
		T(test_napi_and_guarded_caches_use_different_chunks),
		T(test_chunk_filled_exactly_then_new_chunk),
		T(test_napi_frag_never_straddles_chunks),
		T(test_guarded_frag_never_straddles_chunks),
		T(test_results_aligned_for_every_power_of_two),
		T(test_alignment_rounds_the_start_down),
		T(test_alignment_not_power_of_two_einval),
		T(test_size_zero_or_above_chunk_einval),
		T(test_whole_chunk_fragment_is_the_chunk),
		T(test_free_from_any_inner_address),
		T(test_refcount_minus_bias_counts_outstanding),
		T(test_reuse_when_all_frags_freed),
		T(test_new_chunk_when_a_frag_is_still_out),
		T(test_chunk_returned_to_arena_exactly_once),
		T(test_frag_iova_of_any_inner_byte),
		T(test_free_null_is_ignored),
#if !NPOOL_DEBUG
		T(test_free_outside_arena_ignored_and_counted),
#endif
		T(test_drain_returns_idle_chunks_and_caches_refill),
		T(test_drain_leaves_chunk_to_outstanding_frag),
	};

	return UT_MAIN("npool_ut_frag", tests);
}
