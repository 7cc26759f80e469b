/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exhaustion and recovery of the packet path, end to end: packets take
 * every chunk of a tiny arena (or every head of a tiny head pool), the
 * next allocation fails with the documented rte_errno (ENOMEM, ENOBUFS),
 * counted once; once everything is freed exactly as many packets can be
 * had again, and nothing leaks. Expected counts come from the chunk
 * arithmetic (fragments carved from a chunk's end, cache-line sized), not
 * from a first run. (Copy-break without memory: rx_copybreak_test.c.)
 */
#include <string.h>

#include <rte_mbuf.h>

#include "unit_common.h"

#define NB_BIG 2
#define NB_SMALL 1
#define NB_HEADS 100    /* not a multiple of the head cache's bulk (16) */
#define LEN_SMALL 200   /* bytes asked of each packet: a small packet */
#define LEN_BIG 1500    /* and one that is not */
#define MAX_PKTS 4096

static struct rte_mbuf *pkts[MAX_PKTS];
static uint32_t len;    /* LEN_SMALL or LEN_BIG, this test's */

static int
setup_tiny_arena(void **state __rte_unused)
{
	return ut_npool_init(NB_BIG, NB_SMALL, 0, 0) == 0 ? 0 : -1;
}

static int
setup_tiny_heads(void **state __rte_unused)
{
	return ut_npool_init(0, 0, NB_HEADS, 0) == 0 ? 0 : -1;
}

/* Packets of len bytes a tiny arena holds: whole fragments per chunk. */
static unsigned int
pkts_in_arena(void)
{
	const uint32_t fragsz = npool_pkt_fragsz(len);

	/* Carved at cache-line offsets: whole fragments only if aligned. */
	assert_int_equal(fragsz % RTE_CACHE_LINE_SIZE, 0);
	return NB_BIG * (NPOOL_CHUNK_SIZE / fragsz) +
		(fragsz <= NPOOL_SMALL_CHUNK_SIZE ?
		 NB_SMALL * (NPOOL_SMALL_CHUNK_SIZE / fragsz) : 0);
}

/* napi_alloc_skb() until it fails: how many, and the failure's errno. */
static unsigned int
alloc_until_failure(int *err)
{
	unsigned int n = 0;

	for (;;) {
		assert_true(n < MAX_PKTS);
		rte_errno = 0;
		pkts[n] = npool_napi_alloc_pkt(len);
		if (pkts[n] == NULL)
			break;
		/* Usable: room as asked, data written to the last byte. */
		assert_true(rte_pktmbuf_tailroom(pkts[n]) >= len);
		memset(rte_pktmbuf_append(pkts[n], len), n & 0xff, len);
		n++;
	}
	*err = rte_errno;
	return n;
}

/*
 * Take packets until npool refuses one: exactly @p want, then both
 * flavors fail with @p err, each failure counted once.
 */
static void
exhaust(unsigned int want, int err)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	int got;

	assert_int_equal(alloc_until_failure(&got), want);
	assert_int_equal(got, err);
	rte_errno = 0;
	assert_null(npool_alloc_pkt(len));
	assert_int_equal(rte_errno, err);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, 2);
	assert_int_equal(s1.pkt_allocs - s0.pkt_allocs, want);
}

static void
assert_usage(uint32_t chunks_in_use, int64_t frags_out, uint32_t heads_out)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.chunks_in_use, chunks_in_use);
	assert_int_equal(u.frags_out, frags_out);
	assert_int_equal(u.heads_out, heads_out);
}

/*
 * A packet that is not small carves big chunks first and takes the small
 * one as the order-0 fallback; a small packet (npool_pkt.h) carves the
 * small chunk first and takes big ones when it is gone.
 */
static void
arena_exhausted_then_recovers(uint32_t pkt_len)
{
	const int small = npool_pkt_fragsz(pkt_len) <= npool_default()->small_fragsz;
	unsigned int want, round;
	struct npool_stats s0, s1;

	len = pkt_len;
	want = pkts_in_arena();
	for (round = 0; round < 2; round++) {
		s0 = ut_stats_self();
		/* The guarded flavor finds no chunk either. */
		exhaust(want, ENOMEM);
		s1 = ut_stats_self();
		assert_int_equal(s1.failures - s0.failures, 2);
		assert_int_equal(s1.small_fallbacks - s0.small_fallbacks,
				small ? 0 : NB_SMALL);
		assert_int_equal(s1.big_fallbacks - s0.big_fallbacks,
				small ? NB_BIG : 0);
		/* The failed refills gave their heads back. */
		assert_usage(NB_BIG + NB_SMALL, want, want);
		/* Every byte of every packet is still its own. */
		assert_int_equal(*rte_pktmbuf_mtod_offset(pkts[want - 1],
				uint8_t *, len - 1), (want - 1) & 0xff);
		rte_pktmbuf_free_bulk(pkts, want);
		s1 = ut_stats_self();
		assert_int_equal(s1.frees - s0.frees, want);
		npool_frag_cache_drain_all();
		assert_usage(0, 0, 0);
	}
}

static void
test_arena_exhausted_enomem_counted_then_recovers(void **state __rte_unused)
{
	assert_true(npool_pkt_fragsz(LEN_BIG) > npool_default()->small_fragsz);
	arena_exhausted_then_recovers(LEN_BIG);
}

static void
test_arena_exhausted_by_small_pkts_then_recovers(void **state __rte_unused)
{
	assert_true(npool_pkt_fragsz(LEN_SMALL) <= npool_default()->small_fragsz);
	arena_exhausted_then_recovers(LEN_SMALL);
}

static void
test_heads_exhausted_enobufs_no_fragment_taken(void **state __rte_unused)
{
	struct npool_stats s0, s1;
	struct npool_usage u;
	unsigned int round;

	len = LEN_SMALL;
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads, NB_HEADS);
	for (round = 0; round < 2; round++) {
		s0 = ut_stats_self();
		exhaust(NB_HEADS, ENOBUFS);
		s1 = ut_stats_self();
		/* No fragment is carved for a packet without a head. */
		assert_int_equal(s1.failures, s0.failures);
		assert_int_equal(s1.allocs - s0.allocs, NB_HEADS);
		assert_int_equal(npool_usage_get(&u), 0);
		assert_int_equal(u.frags_out, NB_HEADS);
		assert_int_equal(u.heads_out, NB_HEADS);
		/* napi_consume_skb(): heads into this lcore's cache. */
		npool_napi_consume_bulk(pkts, NB_HEADS);
		s1 = ut_stats_self();
		assert_int_equal(s1.pkt_consumes - s0.pkt_consumes, NB_HEADS);
		assert_int_equal(npool_usage_get(&u), 0);
		assert_int_equal(u.frags_out, 0);
		assert_int_equal(u.heads_out, 0);
	}
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_arena_exhausted_enomem_counted_then_recovers,
			setup_tiny_arena),
		T(test_arena_exhausted_by_small_pkts_then_recovers,
			setup_tiny_arena),
		T(test_heads_exhausted_enobufs_no_fragment_taken,
			setup_tiny_heads),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_exhaust", tests);
}
