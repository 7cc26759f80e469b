/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets freed on another lcore than the one whose cache carved their
 * fragments (npool_pkt_defer.h): a consume burst on the main lcore of
 * packets lcore 1 made hands them back to lcore 1's defer ring, and
 * lcore 1's next burst takes their heads (npool_napi_defer_take()) or
 * npool_napi_defer_drain() frees them; what the ring cannot hold, and
 * what no EAL lcore carved, is freed where it is, the fragments of one
 * chunk with one atomic operation (npool_frag_batch.h).
 */
#include <string.h>

#include <rte_mbuf.h>

#include "unit_common.h"

#define LEN 1500
#define BURST 32

struct made {
	struct rte_mbuf *pkts[NPOOL_DEFER_MAX + 2 * BURST];
	unsigned int n;
	unsigned int ret;
};

static struct npool_stats
stats_of(unsigned int slot)
{
	struct npool_stats s;

	assert_int_equal(npool_stats_get(slot, &s), 0);
	return s;
}

/* On lcore 1: m->n packets of LEN bytes, in bursts, each marked. */
static int
make_bursts(void *arg)
{
	struct made *m = arg;
	uint32_t lens[BURST];
	unsigned int i, k;

	for (i = 0; i < BURST; i++)
		lens[i] = LEN;
	for (i = 0; i < m->n; i += k) {
		k = RTE_MIN(m->n - i, (unsigned int)BURST);
		if (npool_napi_alloc_pkt_bulk(m->pkts + i, lens, k) != k)
			return -1;
	}
	for (i = 0; i < m->n; i++)
		memset(rte_pktmbuf_append(m->pkts[i], LEN), (int)i, LEN);
	return 0;
}

/* On lcore 1: one more burst of m->n, which takes the heads handed
 * back first; then frees it here. m->ret: the heads it took. */
static int
make_again_and_free(void *arg)
{
	struct made *m = arg;
	struct rte_mbuf *pkts[BURST];
	uint32_t lens[BURST];
	unsigned int i, j;

	for (i = 0; i < BURST; i++)
		lens[i] = LEN;
	if (npool_napi_alloc_pkt_bulk(pkts, lens, m->n) != m->n)
		return -1;
	m->ret = 0;
	for (i = 0; i < m->n; i++)
		for (j = 0; j < m->n; j++)
			m->ret += pkts[i] == m->pkts[j];
	npool_napi_consume_bulk(pkts, m->n);
	return 0;
}

static int
drain_here(void *arg)
{
	((struct made *)arg)->ret = npool_napi_defer_drain();
	return 0;
}

static void
test_consume_burst_hands_packets_back_to_their_lcore(
		void **state __rte_unused)
{
	struct npool_stats s0 = stats_of(rte_lcore_id()), s1;
	struct npool_stats o0 = stats_of(UT_OTHER_LCORE), o1;
	struct made m = { .n = BURST };

	assert_int_equal(ut_on_other_lcore(make_bursts, &m), 0);
	npool_napi_consume_bulk(m.pkts, m.n);
	s1 = stats_of(rte_lcore_id());
	/* Handed back, untouched: nothing freed here. */
	assert_int_equal(s1.defers - s0.defers, BURST);
	assert_int_equal(s1.frees - s0.frees, 0);
	assert_int_equal(s1.remote_frees - s0.remote_frees, 0);
	assert_int_equal(npool_frags_outstanding(), BURST);
	/* Lcore 1's next burst reuses those heads and frees the fragments
	 * there, none of them remotely. */
	assert_int_equal(ut_on_other_lcore(make_again_and_free, &m), 0);
	assert_int_equal(m.ret, BURST);
	o1 = stats_of(UT_OTHER_LCORE);
	assert_int_equal(o1.frees - o0.frees, 2 * BURST);
	assert_int_equal(o1.remote_frees - o0.remote_frees, 0);
	assert_int_equal(o1.pkt_consumes - o0.pkt_consumes, 2 * BURST);
	assert_int_equal(npool_frags_outstanding(), 0);
}

static void
test_drain_frees_what_was_handed_back(void **state __rte_unused)
{
	struct made m = { .n = BURST / 2 };

	assert_int_equal(ut_on_other_lcore(make_bursts, &m), 0);
	npool_napi_consume_bulk(m.pkts, m.n);
	assert_int_equal(npool_frags_outstanding(), BURST / 2);
	assert_int_equal(ut_on_other_lcore(drain_here, &m), 0);
	assert_int_equal(m.ret, BURST / 2);
	assert_int_equal(npool_frags_outstanding(), 0);
	/* Nothing left: the main lcore's own ring is empty too. */
	assert_int_equal(npool_napi_defer_drain(), 0);
}

/* More than the ring holds: the rest is freed here, a chunk's fragments
 * with one atomic operation each, and the main lcore drains the ring of
 * lcore 1 once it is idle. */
static void
test_full_ring_frees_the_rest_here(void **state __rte_unused)
{
	struct npool_stats s0 = stats_of(rte_lcore_id()), s1;
	struct made m = { .n = NPOOL_DEFER_MAX + 2 * BURST };
	unsigned int i;

	assert_int_equal(ut_on_other_lcore(make_bursts, &m), 0);
	for (i = 0; i < m.n; i += BURST)
		npool_napi_consume_bulk(m.pkts + i, BURST);
	s1 = stats_of(rte_lcore_id());
	assert_int_equal(s1.defers - s0.defers, NPOOL_DEFER_MAX);
	assert_int_equal(s1.frees - s0.frees, 2 * BURST);
	assert_int_equal(s1.remote_frees - s0.remote_frees, 2 * BURST);
	assert_int_equal(npool_frags_outstanding(), NPOOL_DEFER_MAX);
	assert_int_equal(npool_frag_cache_drain_all(), 0);
	assert_int_equal(npool_frags_outstanding(), 0);
}

/* A handed-back packet whose fragment a clone shares: its lcore frees
 * the head, the clone keeps the data until it goes too. */
static void
test_shared_fragment_lives_until_its_last_reference(
		void **state __rte_unused)
{
	struct made m = { .n = 1 };
	struct rte_mbuf *clone;
	unsigned int i;

	assert_int_equal(ut_on_other_lcore(make_bursts, &m), 0);
	clone = rte_pktmbuf_clone(m.pkts[0], npool_head_pool());
	assert_non_null(clone);
	npool_napi_consume_bulk(m.pkts, 1);
	assert_int_equal(ut_on_other_lcore(drain_here, &m), 0);
	assert_int_equal(m.ret, 1);
	assert_int_equal(npool_frags_outstanding(), 1);
	for (i = 0; i < LEN; i++)
		assert_int_equal(rte_pktmbuf_mtod(clone, uint8_t *)[i], 0);
	rte_pktmbuf_free(clone);
	assert_int_equal(npool_frags_outstanding(), 0);
}

/* Packets this lcore made long ago (their chunk no longer its current
 * or previous one) are its own: freed here, none handed anywhere. */
static void
test_own_old_packets_are_freed_here(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *old[BURST], *newer[3 * BURST];
	struct npool_chunk *c;
	unsigned int i;

	for (i = 0; i < BURST; i++)
		assert_non_null(old[i] = npool_napi_alloc_pkt(LEN));
	for (i = 0; i < RTE_DIM(newer); i++)
		assert_non_null(newer[i] = npool_napi_alloc_pkt(LEN));
	c = ut_chunk_of(old[0]->buf_addr);
	assert_ptr_not_equal(c, ut_napi_cache()->chunk);
	assert_ptr_not_equal(c, ut_napi_cache()->prev);
	npool_napi_consume_bulk(old, BURST);
	s1 = ut_stats_self();
	assert_int_equal(s1.defers - s0.defers, 0);
	assert_int_equal(s1.remote_frees - s0.remote_frees, 0);
	assert_int_equal(s1.frees - s0.frees, BURST);
	/* Every fragment of the first chunk was one of those: back. */
	assert_int_equal(__atomic_load_n(&c->refcnt, __ATOMIC_RELAXED), 0);
	npool_napi_consume_bulk(newer, RTE_DIM(newer));
}

static int
make_guarded(void *arg)
{
	struct made *m = arg;
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if ((m->pkts[i] = npool_alloc_pkt(LEN)) == NULL)
			return -1;
	return 0;
}

/* Made by a thread without an lcore id: no ring to go back to, freed
 * here, remotely. */
static void
test_non_eal_packets_are_freed_here(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct made m = { .n = BURST };

	assert_int_equal(ut_in_pthread(make_guarded, &m), 0);
	npool_napi_consume_bulk(m.pkts, m.n);
	s1 = ut_stats_self();
	assert_int_equal(s1.defers - s0.defers, 0);
	assert_int_equal(s1.remote_frees - s0.remote_frees, BURST);
	assert_int_equal(npool_frags_outstanding(), 0);
}

/* npool_fini() frees what still waits in a ring. */
static void
test_fini_frees_what_waits(void **state __rte_unused)
{
	struct made m = { .n = BURST };

	assert_int_equal(ut_on_other_lcore(make_bursts, &m), 0);
	npool_napi_consume_bulk(m.pkts, m.n);
	assert_int_equal(npool_frags_outstanding(), BURST);
	assert_int_equal(npool_fini(), 0);
	assert_int_equal(ut_setup_default(NULL), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_consume_burst_hands_packets_back_to_their_lcore),
		T(test_drain_frees_what_was_handed_back),
		T(test_full_ring_frees_the_rest_here),
		T(test_shared_fragment_lives_until_its_last_reference),
		T(test_own_old_packets_are_freed_here),
		T(test_non_eal_packets_are_freed_here),
		T(test_fini_frees_what_waits),
	};

	return UT_MAIN("npool_ut_pkt_defer", tests);
}
