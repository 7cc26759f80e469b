/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Small packets (lib/npool/npool_pkt.h, "Small packets"): packets whose
 * fragment is at most the small threshold come from a per-lcore cache of
 * 4 KiB small chunks, so that a retained one pins at most 4 KiB; their
 * truesize is the head plus the fragment; the small caches reuse in
 * place, credit local frees to their bias, drain, and fall back to big
 * chunks when no small one is free; with no small chunk in the arena
 * there are no small packets.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "unit_common.h"

/* Largest len that is small with the default headroom: 1 KiB fragment. */
#define SMALL_MAX (NPOOL_PKT_SMALL_FRAGSZ - RTE_PKTMBUF_HEADROOM - \
		NPOOL_SHINFO_SIZE)

static int
setup_no_small(void **state __rte_unused)
{
	return ut_npool_init(0, 0, 0, 0) == 0 ? 0 : -1;
}

static int
setup_big_headroom(void **state __rte_unused)
{
	return ut_npool_init(0, 256, 0, 1024) == 0 ? 0 : -1;
}

/* The arena: 16 big chunks, here with 32 small ones. */
static int
setup_16_chunks(void **state __rte_unused)
{
	return ut_npool_init(16, 32, 0, 0) == 0 ? 0 : -1;
}

/* One small chunk: the small caches must fall back to big ones. */
static int
setup_one_small(void **state __rte_unused)
{
	return ut_npool_init(4, 1, 0, 0) == 0 ? 0 : -1;
}

static uint32_t
head_truesize(void)
{
	const struct rte_mempool *mp = npool_head_pool();

	return mp->header_size + mp->elt_size + mp->trailer_size;
}

static int
is_small_chunk(const struct rte_mbuf *m)
{
	return (ut_chunk_of(m->buf_addr)->flags & NPOOL_CHUNK_F_SMALL) != 0;
}

static struct rte_mbuf *
alloc_filled(uint32_t len)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(len);

	assert_non_null(m);
	memset(rte_pktmbuf_append(m, len), 0x3c, len);
	return m;
}

static void
test_threshold_is_kernel_1k_and_copybreak(void **state __rte_unused)
{
	struct rte_mbuf *a = alloc_filled(60);
	struct rte_mbuf *b = alloc_filled(NPOOL_PKT_SMALL_LEN);
	struct rte_mbuf *c = alloc_filled(SMALL_MAX);
	struct rte_mbuf *d = alloc_filled(SMALL_MAX + 1);

	assert_int_equal(SMALL_MAX, 872);
	assert_int_equal(npool_default()->small_fragsz, 1024);
	assert_int_equal(npool_pkt_fragsz(SMALL_MAX), 1024);
	assert_true(is_small_chunk(a));
	assert_true(is_small_chunk(b));
	assert_true(is_small_chunk(c));
	assert_false(is_small_chunk(d));
	/* Carved downward from the small chunk's end, as big ones are. */
	assert_ptr_equal(a->buf_addr, ut_chunk_of(a->buf_addr)->va +
			NPOOL_SMALL_CHUNK_SIZE - npool_pkt_fragsz(60));
	assert_ptr_equal(b->buf_addr, (char *)a->buf_addr -
			npool_pkt_fragsz(NPOOL_PKT_SMALL_LEN));
	assert_ptr_equal(c->buf_addr, (char *)b->buf_addr -
			npool_pkt_fragsz(SMALL_MAX));
	assert_ptr_equal(ut_napi_cache()->chunk, ut_chunk_of(d->buf_addr));
	assert_ptr_equal(npool_default()->lc[rte_lcore_id()].napi_small.chunk,
			ut_chunk_of(a->buf_addr));
	/* IOVA right on a small chunk too. */
	assert_int_equal(rte_pktmbuf_iova(a),
			npool_frag_iova(rte_pktmbuf_mtod(a, void *)));
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
	npool_napi_consume_pkt(c);
	npool_napi_consume_pkt(d);
}

/* With 1 KiB of headroom a 256 B packet (copy-break) is still small. */
static void
test_copybreak_len_small_at_any_headroom(void **state __rte_unused)
{
	struct rte_mbuf *a = alloc_filled(NPOOL_PKT_SMALL_LEN);
	struct rte_mbuf *b = alloc_filled(NPOOL_PKT_SMALL_LEN + 64);

	assert_int_equal(npool_default()->small_fragsz,
			RTE_ALIGN_CEIL(1024 + NPOOL_PKT_SMALL_LEN +
				NPOOL_SHINFO_SIZE, RTE_CACHE_LINE_SIZE));
	assert_true(is_small_chunk(a));
	assert_false(is_small_chunk(b));
	assert_int_equal(rte_pktmbuf_headroom(a), 1024);
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
}

static void
test_truesize_is_head_plus_fragment(void **state __rte_unused)
{
	static const uint32_t lens[] = { 0, 60, 64, 128, 256, SMALL_MAX };
	unsigned int i;

	for (i = 0; i < RTE_DIM(lens); i++) {
		struct rte_mbuf *m = alloc_filled(lens[i]);

		assert_true(is_small_chunk(m));
		assert_int_equal(npool_pkt_truesize(m),
				head_truesize() + npool_pkt_fragsz(lens[i]));
		rte_pktmbuf_free(m);
	}
	/* The memory row's figure: 448 B for a 64 B copy-break packet. */
	assert_int_equal(head_truesize() + npool_pkt_fragsz(64), 448);
}

#define RET_N 256
#define RET_KEEP 32

/*
 * The case: 256 packets of 128 B, every 32nd kept, the rest
 * freed, caches drained. Each kept one is alone on its small chunk:
 * pinned bytes per kept packet exactly one small chunk (before: 3 big
 * chunks for 8 packets, 12 KiB each, 24 times their truesize).
 */
static void
test_retained_small_pkt_pins_at_most_4k(void **state __rte_unused)
{
	struct rte_mbuf *m[RET_N], *kept[RET_N / RET_KEEP];
	uint64_t truesize = 0, pinned;
	struct npool_audit au;
	unsigned int i, k = 0;

	for (i = 0; i < RET_N; i++)
		m[i] = alloc_filled(128);
	for (i = 0; i < RET_N; i++) {
		if (i % RET_KEEP == 0) {
			kept[k++] = m[i];
			truesize += npool_pkt_truesize(m[i]);
		} else {
			rte_pktmbuf_free(m[i]);
		}
	}
	assert_int_equal(npool_frag_cache_drain_all(), 0);
	assert_int_equal(npool_audit(&au), 0);
	/* Held only by the kept packets: one small chunk each. */
	assert_int_equal(au.chunks_cached, 0);
	assert_int_equal(au.chunks_pinned, k);
	assert_int_equal(ut_free_big(),
			npool_default()->arena.nb_chunks);
	pinned = (uint64_t)au.chunks_pinned * NPOOL_SMALL_CHUNK_SIZE;
	assert_int_equal(truesize, k * 512);
	assert_true(pinned / k <= NPOOL_SMALL_CHUNK_SIZE);
	for (i = 0; i < k; i++) {
		assert_true(is_small_chunk(kept[i]));
		assert_int_equal(ut_chunk_of(kept[i]->buf_addr)->refcnt, 1);
	}
	rte_pktmbuf_free_bulk(kept, k);
}

#define KEEP_ONE_IN 128
#define NB_ALLOCS 2049

/*
 * The 16-chunk arena, one 60 B packet kept in 128: before, 2048
 * allocations pinned all 16 big chunks (512 KiB for 16 packets, 7 KiB by
 * truesize) and anything that needed a big chunk failed with ENOMEM;
 * now the kept packets pin one small chunk each and no big chunk.
 */
static void
test_keep_one_in_128_leaves_big_chunks_free(void **state __rte_unused)
{
	struct rte_mbuf *kept[NB_ALLOCS / KEEP_ONE_IN + 1], *big;
	struct npool_stats s0 = ut_stats_self(), s1;
	struct npool_usage u;
	unsigned int i, k = 0;
	void *chunk;

	for (i = 0; i < NB_ALLOCS; i++) {
		struct rte_mbuf *m = npool_napi_alloc_pkt(60);

		assert_non_null(m);
		if (i % KEEP_ONE_IN == 0)
			kept[k++] = m;
		else
			rte_pktmbuf_free(m);
	}
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, 0);
	assert_int_equal(s1.big_fallbacks - s0.big_fallbacks, 0);
	assert_int_equal(k, 17);
	assert_int_equal(npool_usage_get(&u), 0);
	/* 17 kept, each alone on a small chunk; the cache carves one of
	 * them or the next: at most 18 small chunks, no big one. */
	assert_true(u.chunks_in_use >= k && u.chunks_in_use <= k + 1);
	assert_int_equal(ut_free_big(), 16);
	for (i = 0; i < k; i++)
		assert_true(is_small_chunk(kept[i]));
	/* A whole big chunk can still be had, and a jumbo packet. */
	chunk = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
	assert_non_null(chunk);
	npool_free_frag(chunk);
	big = npool_napi_alloc_pkt(RTE_MIN(9000u, NPOOL_PKT_MAX_LEN));
	assert_non_null(big);
	rte_pktmbuf_free(big);
	rte_pktmbuf_free_bulk(kept, k);
}

/* Alloc+free on the owner lcore: the small cache's bias takes the
 * reference back (no atomic), and an exhausted chunk is reused in place. */
static void
test_small_cache_local_free_and_reuse_in_place(void **state __rte_unused)
{
	const struct npool_frag_cache *nc =
		&npool_default()->lc[rte_lcore_id()].napi_small;
	const uint32_t per_chunk = NPOOL_SMALL_CHUNK_SIZE /
		npool_pkt_fragsz(64);
	struct npool_stats s0 = ut_stats_self(), s1;
	struct npool_chunk *c;
	struct rte_mbuf *m;
	unsigned int i;

	m = alloc_filled(64);
	c = ut_chunk_of(m->buf_addr);
	rte_pktmbuf_free(m);
	assert_ptr_equal(nc->chunk, c);
	/* The refcount was never touched: the bias took it back. */
	assert_int_equal(c->refcnt, NPOOL_FRAG_BIAS_MAX);
	assert_int_equal(c->refcnt - npool_frag_cache_bias_pvt(nc), 0);
	for (i = 1; i < 5 * per_chunk; i++)
		npool_napi_consume_pkt(alloc_filled(64));
	s1 = ut_stats_self();
	/* One refill, then the same small chunk over and over. */
	assert_ptr_equal(nc->chunk, c);
	assert_int_equal(s1.refills - s0.refills, 1);
	assert_int_equal(s1.reuses - s0.reuses, 4);
	assert_int_equal(s1.small_fallbacks, s0.small_fallbacks);
	assert_int_equal(ut_in_use(), 1);
	/* A drain gives it back. */
	assert_int_equal(npool_frag_cache_drain_all(), 0);
	assert_null(nc->chunk);
	assert_int_equal(ut_in_use(), 0);
}

/* Freed on another lcore: one atomic decrement, counted remote. */
static int
free_on_lcore(void *arg)
{
	rte_pktmbuf_free(arg);
	return 0;
}

static void
test_small_pkt_freed_on_another_lcore(void **state __rte_unused)
{
	struct rte_mbuf *m = alloc_filled(100), *n = alloc_filled(100);
	struct npool_chunk *c = ut_chunk_of(m->buf_addr);
	struct npool_stats o;

	assert_int_equal(ut_on_other_lcore(free_on_lcore, m), 0);
	assert_int_equal(npool_stats_get(UT_OTHER_LCORE, &o), 0);
	assert_int_equal(o.frees, 1);
	assert_int_equal(o.remote_frees, 1);
	assert_int_equal(c->refcnt - npool_frag_cache_bias_pvt(
			&npool_default()->lc[rte_lcore_id()].napi_small), 1);
	rte_pktmbuf_free(n);
}

static int
guarded_small_in_thread(void *arg)
{
	struct rte_mbuf **m = arg;

	m[0] = npool_alloc_pkt(64);
	m[1] = npool_alloc_pkt(1500);
	return m[0] != NULL && m[1] != NULL ? 0 : -1;
}

static void
test_guarded_small_pkt_from_non_eal_thread(void **state __rte_unused)
{
	const struct npool_lcore *lc = &npool_default()->lc[NPOOL_NON_EAL_SLOT];
	struct rte_mbuf *m[2];

	assert_int_equal(ut_in_pthread(guarded_small_in_thread, m), 0);
	assert_true(is_small_chunk(m[0]));
	assert_false(is_small_chunk(m[1]));
	assert_ptr_equal(lc->guarded_small.chunk, ut_chunk_of(m[0]->buf_addr));
	assert_ptr_equal(lc->guarded.chunk, ut_chunk_of(m[1]->buf_addr));
	assert_int_equal(ut_chunk_of(m[0]->buf_addr)->owner,
			NPOOL_NON_EAL_SLOT);
	assert_int_equal(npool_pkt_truesize(m[0]),
			head_truesize() + npool_pkt_fragsz(64));
	rte_pktmbuf_free(m[0]);
	rte_pktmbuf_free(m[1]);
	/* And on an lcore: its own guarded small cache. */
	m[0] = npool_alloc_pkt(64);
	assert_non_null(m[0]);
	assert_true(is_small_chunk(m[0]));
	assert_ptr_equal(npool_default()->lc[rte_lcore_id()].guarded_small.chunk,
			ut_chunk_of(m[0]->buf_addr));
	rte_pktmbuf_free(m[0]);
}

/* The only small chunk held: small packets go on in a big chunk,
 * counted; once the small chunk is back they return to it. */
static void
test_small_cache_falls_back_to_big_chunk(void **state __rte_unused)
{
	const uint32_t per_chunk = NPOOL_SMALL_CHUNK_SIZE /
		npool_pkt_fragsz(64);
	struct rte_mbuf *m[64];
	struct npool_stats s0 = ut_stats_self(), s1;
	unsigned int i;

	assert_true(per_chunk < RTE_DIM(m));
	for (i = 0; i <= per_chunk; i++)
		m[i] = alloc_filled(64);
	for (i = 0; i < per_chunk; i++)
		assert_true(is_small_chunk(m[i]));
	assert_false(is_small_chunk(m[per_chunk]));
	s1 = ut_stats_self();
	assert_int_equal(s1.big_fallbacks - s0.big_fallbacks, 1);
	assert_int_equal(s1.small_fallbacks, s0.small_fallbacks);
	rte_pktmbuf_free_bulk(m, per_chunk + 1);
	/* Once the big chunk is used up (every packet back), it goes back
	 * to the arena rather than be reused: the small one comes first
	 * (the cache's previous chunk, all back: reused without the
	 * arena). */
	for (i = 0; i < 2 * NPOOL_CHUNK_SIZE / npool_pkt_fragsz(64); i++) {
		m[0] = alloc_filled(64);
		if (is_small_chunk(m[0]))
			break;
		npool_napi_consume_pkt(m[0]);
	}
	assert_int_equal(i, NPOOL_CHUNK_SIZE / npool_pkt_fragsz(64) - 1);
	s0 = ut_stats_self();
	assert_int_equal(s0.reuses, s1.reuses + 1);
	assert_int_equal(s0.big_fallbacks, s1.big_fallbacks);
	assert_int_equal(ut_free_big(),
			npool_default()->arena.nb_chunks);
	rte_pktmbuf_free(m[0]);
}

/* No small chunk in the arena: no small packet, no second cache. */
static void
test_no_small_chunks_no_small_pkts(void **state __rte_unused)
{
	struct rte_mbuf *a = alloc_filled(60), *b = alloc_filled(1500);

	assert_int_equal(npool_default()->small_fragsz, 0);
	assert_ptr_equal(ut_chunk_of(a->buf_addr), ut_chunk_of(b->buf_addr));
	assert_null(npool_default()->lc[rte_lcore_id()].napi_small.chunk);
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)
#define TD(f) T(f, ut_setup_default)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_threshold_is_kernel_1k_and_copybreak),
		T(test_copybreak_len_small_at_any_headroom, setup_big_headroom),
		TD(test_truesize_is_head_plus_fragment),
		TD(test_retained_small_pkt_pins_at_most_4k),
		T(test_keep_one_in_128_leaves_big_chunks_free,
			setup_16_chunks),
		TD(test_small_cache_local_free_and_reuse_in_place),
		TD(test_small_pkt_freed_on_another_lcore),
		TD(test_guarded_small_pkt_from_non_eal_thread),
		T(test_small_cache_falls_back_to_big_chunk, setup_one_small),
		T(test_no_small_chunks_no_small_pkts, setup_no_small),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_pkt_small", tests);
}
