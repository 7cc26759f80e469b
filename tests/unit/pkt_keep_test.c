/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets kept for long (npool_pkt_keep.h): npool_pkt_condense() moves a
 * head + fragment segment into a fragment of its own size from the
 * lcore's cache of kept packets, keeps everything else of the packet,
 * leaves direct and shared segments alone, moves a kept packet again
 * only when its chunk of kept packets has become sparse, and never
 * loses a packet for lack of memory. What kept packets pin is then their
 * size, whatever is freed around them (npool_usage).
 */
#include <string.h>

#include <rte_mbuf.h>

#include "unit_common.h"

#define LEN 1500

static struct rte_mbuf *
alloc(uint32_t len, uint8_t tag)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(len);

	assert_non_null(m);
	memset(rte_pktmbuf_append(m, (uint16_t)len), tag, len);
	return m;
}

static void
assert_data(const struct rte_mbuf *m, uint32_t len, uint8_t tag)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t i;

	assert_int_equal(m->data_len, len);
	for (i = 0; i < len; i++)
		if (p[i] != tag)
			fail_msg("byte %u is %u, not %u", i, p[i], tag);
}

static void
test_condense_moves_a_packet_into_its_own_size(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *m = alloc(LEN, 0xa5);
	void *old = m->buf_addr;
	struct npool_chunk *c;

	m->port = 3;
	m->packet_type = RTE_PTYPE_L3_IPV4;
	m->hash.rss = 0x12345678;
	m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
	assert_int_equal(npool_pkt_condense(m), 1);
	assert_ptr_not_equal(m->buf_addr, old);
	assert_data(m, LEN, 0xa5);
	assert_int_equal(m->pkt_len, LEN);
	assert_int_equal(m->port, 3);
	assert_int_equal(m->packet_type, RTE_PTYPE_L3_IPV4);
	assert_int_equal(m->hash.rss, 0x12345678);
	assert_true(m->ol_flags & RTE_MBUF_F_RX_RSS_HASH);
	assert_true(npool_pkt_is_npool(m));
	/* Its own size: the headroom, the data, the shared info. */
	assert_int_equal(m->data_off, RTE_PKTMBUF_HEADROOM);
	assert_int_equal(m->buf_len + NPOOL_SHINFO_SIZE, npool_pkt_fragsz(LEN));
	assert_int_equal(rte_mbuf_iova_get(m), npool_frag_iova(m->buf_addr));
	c = ut_chunk_of(m->buf_addr);
	assert_true(c->flags & NPOOL_CHUNK_F_KEEP);
	assert_ptr_equal(c, npool_default()->lc[rte_lcore_id()].keep.chunk);
	s1 = ut_stats_self();
	assert_int_equal(s1.condensed - s0.condensed, 1);
	assert_int_equal(s1.guarded_allocs - s0.guarded_allocs, 1);
	assert_int_equal(s1.frees - s0.frees, 1);
	assert_int_equal(npool_frags_outstanding(), 1);
	/* Already where it belongs: it stays. */
	assert_int_equal(npool_pkt_condense(m), 0);
	npool_napi_consume_pkt(m);
}

/* One of 16 kept, the others freed: a kept packet pins its own size and
 * its head, not the 32 KiB chunk it was carved from. */
static void
test_kept_packets_pin_their_size(void **state __rte_unused)
{
	struct rte_mbuf *m[64], *kept[RTE_DIM(m)];
	struct npool_usage u;
	unsigned int i, k = 0;

	for (i = 0; i < RTE_DIM(m); i++) {
		m[i] = alloc(LEN, (uint8_t)i);
		if (i % 16 == 0) {
			assert_int_equal(npool_pkt_condense(m[i]), 1);
			kept[k++] = m[i];
		} else {
			npool_napi_consume_pkt(m[i]);
		}
	}
	assert_int_equal(npool_frag_cache_drain_all(), 0);
	assert_int_equal(npool_usage_get(&u), 0);
	/* Four fragments in one chunk of kept packets, four heads. */
	assert_int_equal(u.big_pinned, 1);
	assert_int_equal(u.pinned, NPOOL_CHUNK_SIZE + 4 * u.head_size);
	for (i = 0; i < k; i++)
		assert_data(kept[i], LEN, (uint8_t)(16 * i));
	npool_napi_consume_bulk(kept, k);
}

static void
test_direct_and_shared_segments_stay(void **state __rte_unused)
{
	struct rte_mbuf *tiny = alloc(60, 1), *big = alloc(LEN, 2), *clone;
	void *at = big->buf_addr;

	/* A tiny packet pins its object alone. */
	assert_true(RTE_MBUF_DIRECT(tiny));
	assert_int_equal(npool_pkt_condense(tiny), 0);
	/* A fragment a clone shares is not the caller's to move. */
	clone = rte_pktmbuf_clone(big, npool_head_pool());
	assert_non_null(clone);
	assert_int_equal(npool_pkt_condense(big), 0);
	assert_int_equal(npool_pkt_condense(clone), 0);
	assert_ptr_equal(big->buf_addr, at);
	rte_pktmbuf_free(clone);
	/* Alone again: it moves. */
	assert_int_equal(npool_pkt_condense(big), 1);
	assert_data(big, LEN, 2);
	assert_int_equal(npool_pkt_condense(NULL), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	npool_napi_consume_pkt(tiny);
	npool_napi_consume_pkt(big);
}

static void
test_chain_moves_each_segment(void **state __rte_unused)
{
	struct rte_mbuf *m = alloc(1000, 7), *t = alloc(600, 8);

	assert_int_equal(rte_pktmbuf_chain(m, t), 0);
	assert_int_equal(npool_pkt_condense(m), 2);
	assert_int_equal(m->pkt_len, 1600);
	assert_int_equal(m->nb_segs, 2);
	assert_data(m, 1000, 7);
	assert_data(m->next, 600, 8);
	rte_pktmbuf_free(m);
}

/* A chunk of kept packets that most of them left: the others move on
 * the next npool_pkt_condense_bulk() over the queue, and the chunk goes
 * back to the arena. */
static void
test_sparse_chunk_of_kept_packets_is_reclaimed(void **state __rte_unused)
{
	const unsigned int per_chunk = NPOOL_CHUNK_SIZE / npool_pkt_fragsz(LEN);
	struct rte_mbuf *q[2 * 32];
	struct npool_chunk *first;
	unsigned int i, n = per_chunk + 2, left = 0;

	assert_true(n <= RTE_DIM(q));
	for (i = 0; i < n; i++) {
		q[i] = alloc(LEN, (uint8_t)i);
		assert_int_equal(npool_pkt_condense(q[i]), 1);
	}
	first = ut_chunk_of(q[0]->buf_addr);
	/* Dense, or being filled: nothing moves. */
	assert_int_equal(npool_pkt_condense_bulk(q, n), 0);
	/* All but two of the first chunk's packets go. */
	for (i = 2; i < per_chunk; i++) {
		npool_napi_consume_pkt(q[i]);
		q[i] = NULL;
	}
	assert_int_equal(npool_pkt_condense_bulk(q, n), 2);
	for (i = 0; i < n; i++) {
		if (q[i] == NULL)
			continue;
		assert_ptr_not_equal(ut_chunk_of(q[i]->buf_addr), first);
		assert_data(q[i], LEN, (uint8_t)i);
		q[left++] = q[i];
	}
	assert_int_equal(__atomic_load_n(&first->refcnt, __ATOMIC_RELAXED), 0);
	npool_napi_consume_bulk(q, left);
}

static int
condense_in_thread(void *arg)
{
	return npool_pkt_condense(arg) == 1 ? 0 : -1;
}

static void
test_condense_from_a_thread_without_lcore(void **state __rte_unused)
{
	struct rte_mbuf *m = alloc(LEN, 9);

	assert_int_equal(ut_in_pthread(condense_in_thread, m), 0);
	assert_data(m, LEN, 9);
	rte_pktmbuf_free(m);
}

/* No chunk for the copy: the packet stays as it was. */
static void
test_no_memory_keeps_the_packet(void **state __rte_unused)
{
	struct rte_mbuf *m[64];
	unsigned int i, n = 0;
	void *at;

	/* Every chunk carved: 2 chunks of 1500 B packets. */
	while (n < RTE_DIM(m) && (m[n] = npool_napi_alloc_pkt(LEN)) != NULL) {
		memset(rte_pktmbuf_append(m[n], LEN), 3, LEN);
		n++;
	}
	assert_true(n < RTE_DIM(m));
	at = m[0]->buf_addr;
	assert_int_equal(npool_pkt_condense(m[0]), -ENOMEM);
	assert_int_equal(rte_errno, ENOMEM);
	assert_ptr_equal(m[0]->buf_addr, at);
	assert_data(m[0], LEN, 3);
	assert_int_equal(npool_pkt_condense_bulk(m, 1), 0);
	assert_int_equal(rte_errno, ENOMEM);
	for (i = 0; i < n; i++)
		npool_napi_consume_pkt(m[i]);
}

static int
setup_two_chunks(void **state __rte_unused)
{
	return ut_npool_init(2, 0, 256, 0) == 0 ? 0 : -1;
}

#define T(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_condense_moves_a_packet_into_its_own_size),
		T(test_kept_packets_pin_their_size),
		T(test_direct_and_shared_segments_stay),
		T(test_chain_moves_each_segment),
		T(test_sparse_chunk_of_kept_packets_is_reclaimed),
		T(test_condense_from_a_thread_without_lcore),
		cmocka_unit_test_setup_teardown(test_no_memory_keeps_the_packet,
				setup_two_chunks, ut_teardown_check),
	};

	return UT_MAIN("npool_ut_pkt_keep", tests);
}
