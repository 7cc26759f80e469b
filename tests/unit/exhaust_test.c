/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exhaustion and recovery of the packet path, end to end: packets take
 * every chunk of a tiny arena (or every head of a tiny head pool), the
 * next allocation fails with the documented rte_errno (ENOMEM, ENOBUFS),
 * counted once; once everything is freed exactly as many packets can be
 * had again, and nothing leaks. Copy-break with no packet to copy into
 * keeps the RX mbuf as it is. Expected counts come from the chunk
 * arithmetic (fragments carved from a chunk's end, cache-line sized), not
 * from a first run.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "unit_common.h"
#include "npool_rx.h"

#define NB_BIG 2
#define NB_SMALL 1
#define NB_HEADS 100    /* not a multiple of the head cache's bulk (16) */
#define LEN 200         /* bytes asked of each packet */
#define MAX_PKTS 4096

static struct rte_mbuf *pkts[MAX_PKTS];

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

static int
setup_one_chunk(void **state __rte_unused)
{
	return ut_npool_init(1, 0, 0, 0) == 0 ? 0 : -1;
}

/* Packets of LEN bytes a tiny arena holds: whole fragments per chunk. */
static unsigned int
pkts_in_arena(void)
{
	const uint32_t fragsz = npool_pkt_fragsz(LEN);

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
		pkts[n] = npool_napi_alloc_pkt(LEN);
		if (pkts[n] == NULL)
			break;
		/* Usable: room as asked, data written to the last byte. */
		assert_true(rte_pktmbuf_tailroom(pkts[n]) >= LEN);
		memset(rte_pktmbuf_append(pkts[n], LEN), n & 0xff, LEN);
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
	assert_null(npool_alloc_pkt(LEN));
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

static void
test_arena_exhausted_enomem_counted_then_recovers(void **state __rte_unused)
{
	const unsigned int want = pkts_in_arena();
	struct npool_stats s0, s1;
	unsigned int round;

	for (round = 0; round < 2; round++) {
		s0 = ut_stats_self();
		/* The guarded flavor finds no chunk either. */
		exhaust(want, ENOMEM);
		s1 = ut_stats_self();
		assert_int_equal(s1.failures - s0.failures, 2);
		assert_int_equal(s1.small_fallbacks - s0.small_fallbacks,
				NB_SMALL);
		/* The failed refills gave their heads back. */
		assert_usage(NB_BIG + NB_SMALL, want, want);
		/* Every byte of every packet is still its own. */
		assert_int_equal(*rte_pktmbuf_mtod_offset(pkts[want - 1],
				uint8_t *, LEN - 1), (want - 1) & 0xff);
		rte_pktmbuf_free_bulk(pkts, want);
		s1 = ut_stats_self();
		assert_int_equal(s1.frees - s0.frees, want);
		npool_frag_cache_drain_all();
		assert_usage(0, 0, 0);
	}
}

static void
test_heads_exhausted_enobufs_no_fragment_taken(void **state __rte_unused)
{
	struct npool_stats s0, s1;
	struct npool_usage u;
	unsigned int round;

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

/* RX mbufs of @p len bytes, byte i of packet k = k + i. */
static void
rx_burst(struct rte_mempool *rx, struct rte_mbuf **b, unsigned int n,
		uint16_t len)
{
	unsigned int k, i;
	uint8_t *d;

	assert_int_equal(rte_pktmbuf_alloc_bulk(rx, b, n), 0);
	for (k = 0; k < n; k++) {
		d = (uint8_t *)rte_pktmbuf_append(b[k], len);
		for (i = 0; i < len; i++)
			d[i] = (uint8_t)(k + i);
		b[k]->port = 3;
	}
}

static void
assert_burst_bytes(struct rte_mbuf **b, unsigned int n, uint16_t len)
{
	unsigned int k, i;

	for (k = 0; k < n; k++) {
		const uint8_t *d = rte_pktmbuf_mtod(b[k], const uint8_t *);

		assert_int_equal(b[k]->pkt_len, len);
		assert_int_equal(b[k]->port, 3);
		for (i = 0; i < len; i++)
			assert_int_equal(d[i], (uint8_t)(k + i));
	}
}

#define BURST 8
#define COPY_LEN 60
#define FIT 3           /* packets left room for in the only chunk */

static void
test_copybreak_without_memory_keeps_rx_mbufs(void **state __rte_unused)
{
	const uint32_t fragsz = npool_pkt_fragsz(COPY_LEN);
	struct rte_mempool *rx;
	struct rte_mbuf *b[BURST], *orig[BURST];
	struct npool_stats s0, s1;
	unsigned int k;
	char *hold;

	rx = rte_pktmbuf_pool_create("ut_exh_rx", 63, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	assert_non_null(rx);
	/* The only chunk held but for the room of FIT packets at its
	 * start (fragments are carved from the end down). */
	hold = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE - FIT * fragsz);
	assert_non_null(hold);
	rx_burst(rx, b, BURST, COPY_LEN);
	memcpy(orig, b, sizeof(b));
	s0 = ut_stats_self();
	assert_int_equal(npool_rx_copybreak(b, BURST, 256), FIT);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_allocs - s0.pkt_allocs, FIT);
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, BURST - FIT);
	/* The first FIT became npool packets, the others stayed in their
	 * RX mbufs; every one holds its bytes, in order. */
	for (k = 0; k < BURST; k++) {
		assert_int_equal(RTE_MBUF_HAS_EXTBUF(b[k]) != 0, k < FIT);
		assert_true((b[k] == orig[k]) == (k >= FIT));
	}
	assert_burst_bytes(b, BURST, COPY_LEN);
	/* The copied ones' RX mbufs are back in the RX pool. */
	assert_int_equal(rte_mempool_avail_count(rx), 63 - BURST + FIT);
	rte_pktmbuf_free_bulk(b, BURST);
	npool_free_frag(hold);
	/* With the chunk back, the next burst is copied whole. */
	rx_burst(rx, b, BURST, COPY_LEN);
	assert_int_equal(npool_rx_copybreak(b, BURST, 256), BURST);
	assert_burst_bytes(b, BURST, COPY_LEN);
	assert_int_equal(rte_mempool_avail_count(rx), 63);
	rte_pktmbuf_free_bulk(b, BURST);
	rte_mempool_free(rx);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_arena_exhausted_enomem_counted_then_recovers,
			setup_tiny_arena),
		T(test_heads_exhausted_enobufs_no_fragment_taken,
			setup_tiny_heads),
		T(test_copybreak_without_memory_keeps_rx_mbufs,
			setup_one_chunk),
	};

	return UT_MAIN("npool_ut_exhaust", tests);
}
