/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bursts of head + fragment packets: npool_napi_alloc_pkt_bulk() with one
 * length and with mixed ones, and npool_napi_consume_bulk(), whose
 * fragment frees are batched (npool_frag_batch.h, npool_frag_free_batch_pvt:
 * the fragments of the napi cache's current and previous chunk counted,
 * each bias raised once per burst). A burst of 1500 B packets spans
 * several chunks, so the three kinds of free meet in one burst: current
 * chunk, previous chunk, and an older one (a packet kept across bursts).
 */
#include <string.h>

#include <rte_mbuf.h>

#include "npool_pkt_bulk.h"
#include "unit_common.h"

#define BURST 64
#define LEN 1500
#define NB_CHUNKS 8
#define ROUNDS 400

static int
setup_few_chunks(void **state __rte_unused)
{
	/* 8 chunks of 32 KiB: a burst of 64 x 1500 B takes 3.4 of them, so
	 * any reference not given back runs the arena dry within rounds. */
	return ut_npool_init(NB_CHUNKS, 4, 4 * BURST, 0) == 0 ? 0 : -1;
}

static void
fill(struct rte_mbuf *m, uint8_t tag)
{
	char *p = rte_pktmbuf_append(m, LEN);

	assert_non_null(p);
	memset(p, tag, LEN);
}

static void
assert_filled(const struct rte_mbuf *m, uint8_t tag)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	unsigned int i;

	assert_int_equal(m->data_len, LEN);
	for (i = 0; i < LEN; i++)
		if (p[i] != tag)
			fail_msg("byte %u of a kept packet is %u, not %u: its "
				"chunk was carved again while it was out",
				i, p[i], tag);
}

static void
test_bursts_over_chunks_give_every_reference_back(void **state __rte_unused)
{
	struct rte_mbuf *pkts[BURST], *kept[3] = { NULL, NULL, NULL };
	uint32_t lens[BURST];
	struct npool_stats s0 = ut_stats_self(), s1;
	uint64_t frees = 0;
	unsigned int r, i;

	for (i = 0; i < BURST; i++)
		lens[i] = LEN;
	for (r = 0; r < ROUNDS; r++) {
		uint8_t tag = (uint8_t)(r + 1);
		unsigned int k = r % 3;

		/* Every other round one length (the burst's sizes worked out
		 * once), else mixed: one 1400 B packet in the middle. */
		lens[BURST / 2] = r % 2 ? LEN - 100 : LEN;
		assert_int_equal(npool_napi_alloc_pkt_bulk(pkts, lens, BURST),
				BURST);
		for (i = 0; i < BURST; i++)
			if (lens[i] == LEN)
				fill(pkts[i], tag);
		/* The packet kept three rounds ago joins this burst: its
		 * chunk is neither the current nor the previous one. */
		if (kept[k] != NULL) {
			assert_filled(kept[k], (uint8_t)(r - 2));
			/* Its slot's packet goes by DPDK's free. */
			rte_pktmbuf_free(pkts[BURST / 2]);
			pkts[BURST / 2] = kept[k];
			frees++;
		}
		kept[k] = pkts[0];
		/* Consumed in reverse order, the kept one's slot included. */
		for (i = 0; i < (BURST - 1) / 2; i++) {
			struct rte_mbuf *t = pkts[1 + i];

			pkts[1 + i] = pkts[BURST - 1 - i];
			pkts[BURST - 1 - i] = t;
		}
		npool_napi_consume_bulk(pkts + 1, BURST - 1);
		frees += BURST - 1;
	}
	for (i = 0; i < 3; i++) {
		npool_napi_consume_bulk(&kept[i], 1);
		frees++;
	}
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_allocs - s0.pkt_allocs, ROUNDS * BURST);
	assert_int_equal(s1.frees - s0.frees, frees);
	assert_int_equal(npool_frags_outstanding(), 0);
}

static void
test_one_burst_credits_current_and_previous_chunk(void **state __rte_unused)
{
	struct npool_frag_cache *nc = ut_napi_cache();
	struct rte_mbuf *pkts[BURST];
	uint32_t lens[BURST];
	uint32_t bias, prev_bias;
	unsigned int i, in_cur = 0, in_prev = 0;

	for (i = 0; i < BURST; i++)
		lens[i] = LEN;
	assert_int_equal(npool_napi_alloc_pkt_bulk(pkts, lens, BURST),
			BURST);
	/* The last chunk carved and the one before it. */
	assert_non_null(nc->chunk);
	assert_non_null(nc->prev);
	for (i = 0; i < BURST; i++) {
		struct npool_chunk *c = ut_chunk_of(pkts[i]->buf_addr);

		in_cur += c == nc->chunk;
		in_prev += c == nc->prev;
	}
	assert_true(in_cur > 0 && in_prev > 0 && in_cur + in_prev < BURST);
	bias = npool_frag_cache_bias_pvt(nc);
	prev_bias = nc->prev_bias;
	npool_napi_consume_bulk(pkts, BURST);
	/* Each bias up by exactly the fragments of its chunk. */
	assert_int_equal(npool_frag_cache_bias_pvt(nc) - bias, in_cur);
	assert_int_equal(nc->prev_bias - prev_bias, in_prev);
	assert_int_equal(npool_frags_outstanding(), 0);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_bursts_over_chunks_give_every_reference_back,
			setup_few_chunks),
		T(test_one_burst_credits_current_and_previous_chunk,
			setup_few_chunks),
	};

	/* Head + fragment packets at every size. */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_pkt_burst", tests);
}
