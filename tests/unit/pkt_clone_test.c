/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool packets shared and linked: rte_pktmbuf_clone (the shared-info
 * refcount; the fragment goes only with the last reference), a refcount
 * set once for N sends (pktgen's clone_skb), rte_pktmbuf_chain, and
 * npool_napi_consume_bulk over packets of several pools at once.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "rte_mempool_npool.h"
#include "unit_common.h"

#define STOCK_SIZE 255

static struct rte_mempool *stock;        /* mempool cache 32 */
static struct rte_mempool *stock_nocache; /* mempool cache 0 */

static int
setup(void **state __rte_unused)
{
	stock = rte_pktmbuf_pool_create("ut_stock", STOCK_SIZE, 32, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	stock_nocache = rte_pktmbuf_pool_create("ut_stock0", STOCK_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (stock == NULL || stock_nocache == NULL)
		return -1;
	return ut_setup_default(state);
}

static int
teardown(void **state)
{
	/* Every stock mbuf is back too. */
	assert_int_equal(rte_mempool_avail_count(stock), STOCK_SIZE);
	assert_int_equal(rte_mempool_avail_count(stock_nocache), STOCK_SIZE);
	rte_mempool_free(stock);
	rte_mempool_free(stock_nocache);
	return ut_teardown_check(state);
}

/* An npool packet holding @len bytes of @byte. */
static struct rte_mbuf *
npool_pkt_with(uint16_t len, uint8_t byte)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(len);

	assert_non_null(m);
	memset(rte_pktmbuf_append(m, len), byte, len);
	return m;
}

static struct rte_mbuf *
stock_pkt_with(struct rte_mempool *mp, uint16_t len, uint8_t byte)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

	assert_non_null(m);
	memset(rte_pktmbuf_append(m, len), byte, len);
	return m;
}

static void
assert_out(int64_t frags, uint32_t heads)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, frags);
	assert_int_equal(u.heads_out, heads);
}

static void
test_clone_bumps_shared_refcount_and_shares_data(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_pkt_with(300, 0x42);
	struct rte_mbuf *c = rte_pktmbuf_clone(m, npool_head_pool());

	assert_non_null(c);
	assert_int_equal(rte_mbuf_ext_refcnt_read(m->shinfo), 2);
	assert_ptr_equal(c->shinfo, m->shinfo);
	assert_ptr_equal(c->buf_addr, m->buf_addr);
	assert_ptr_equal(rte_pktmbuf_mtod(c, void *),
			rte_pktmbuf_mtod(m, void *));
	assert_int_equal(c->pkt_len, 300);
	assert_true(npool_pkt_is_npool(c));
	/* The clone's own head refcount is 1: the sharing is in shinfo. */
	assert_int_equal(rte_mbuf_refcnt_read(c), 1);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_out(1, 2);
	rte_pktmbuf_free(m);
	assert_out(1, 1);
	rte_pktmbuf_free(c);
	assert_out(0, 0);
}

static void
test_fragment_freed_only_with_last_clone(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_pkt_with(1000, 0x10), *c[4];
	struct npool_stats s0 = ut_stats_self(), s1;
	unsigned int i;

	for (i = 0; i < 4; i++)
		c[i] = rte_pktmbuf_clone(m, npool_head_pool());
	/* A clone of a clone shares the same fragment. */
	rte_pktmbuf_free(c[3]);
	c[3] = rte_pktmbuf_clone(c[2], npool_head_pool());
	assert_ptr_equal(c[3]->shinfo, m->shinfo);
	assert_int_equal(rte_mbuf_ext_refcnt_read(m->shinfo), 5);
	rte_pktmbuf_free(m);
	for (i = 0; i < 4; i++) {
		assert_int_equal(rte_pktmbuf_mtod(c[i], uint8_t *)[999], 0x10);
		s1 = ut_stats_self();
		assert_int_equal(s1.frees - s0.frees, 0);
		rte_pktmbuf_free(c[i]);
	}
	s1 = ut_stats_self();
	assert_int_equal(s1.frees - s0.frees, 1);
	assert_out(0, 0);
}

static void
test_clone_into_stock_pool(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_pkt_with(64, 0x5);
	struct rte_mbuf *c = rte_pktmbuf_clone(m, stock);

	assert_non_null(c);
	assert_ptr_equal(c->pool, stock);
	assert_true(npool_pkt_is_npool(c));
	rte_pktmbuf_free(m);
	assert_out(1, 0);
	/* The stock head goes home, the fragment to npool. */
	npool_napi_consume_pkt(c);
	assert_out(0, 0);
}

static void
test_clones_consumed_in_one_bulk(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *b[9];
	unsigned int i;

	b[4] = npool_pkt_with(1500, 0x33);
	for (i = 0; i < 9; i++)
		if (i != 4)
			b[i] = rte_pktmbuf_clone(b[4], i % 2 ? stock :
					npool_head_pool());
	npool_napi_consume_bulk(b, 9);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_consumes - s0.pkt_consumes, 9);
	assert_int_equal(s1.frees - s0.frees, 1);
	assert_out(0, 0);
}

static void
test_refcount_set_once_for_n_sends(void **state __rte_unused)
{
	const unsigned int n = 16;
	struct rte_mbuf *m = npool_pkt_with(60, 0x1);
	unsigned int i;

	/* pktgen clone_skb: one store instead of n increments. */
	rte_mbuf_refcnt_set(m, n + 1);
	for (i = 0; i < n; i++) {
		if (i % 2)
			rte_pktmbuf_free(m);
		else
			npool_napi_consume_pkt(m);
		assert_out(1, 1);
	}
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	rte_pktmbuf_free(m);
	assert_out(0, 0);
}

static struct rte_mbuf *
npool_chain_of(unsigned int nseg, uint16_t seglen)
{
	struct rte_mbuf *head = npool_pkt_with(seglen, 0);
	unsigned int i;

	for (i = 1; i < nseg; i++)
		assert_int_equal(rte_pktmbuf_chain(head,
				npool_pkt_with(seglen, (uint8_t)i)), 0);
	assert_int_equal(head->nb_segs, nseg);
	assert_int_equal(head->pkt_len, nseg * seglen);
	return head;
}

static void
test_chain_of_npool_packets_freed_whole(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_chain_of(3, 1000);
	uint8_t buf[3000];
	const uint8_t *d;

	assert_out(3, 3);
	d = rte_pktmbuf_read(m, 0, sizeof(buf), buf);
	assert_int_equal(d[999], 0);
	assert_int_equal(d[1000], 1);
	assert_int_equal(d[2999], 2);
	rte_pktmbuf_free(m);
	assert_out(0, 0);
}

static void
test_chain_consumed_whole_counts_segments(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;

	npool_napi_consume_pkt(npool_chain_of(5, 200));
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_consumes - s0.pkt_consumes, 5);
	assert_int_equal(s1.frees - s0.frees, 5);
	assert_out(0, 0);
}

static void
test_chain_mixing_npool_and_stock_segments(void **state __rte_unused)
{
	struct rte_mbuf *a = stock_pkt_with(stock, 100, 1);
	struct rte_mbuf *b = npool_pkt_with(100, 2);
	struct rte_mbuf *c = stock_pkt_with(stock_nocache, 100, 3);
	struct rte_mbuf *d = npool_pkt_with(100, 4);

	assert_int_equal(rte_pktmbuf_chain(a, b), 0);
	assert_int_equal(rte_pktmbuf_chain(a, c), 0);
	assert_int_equal(rte_pktmbuf_chain(d, a), 0);
	assert_int_equal(d->nb_segs, 4);
	assert_int_equal(rte_pktmbuf_mtod_offset(d->next->next->next,
			uint8_t *, 99)[0], 3);
	npool_napi_consume_pkt(d);
	assert_out(0, 0);
}

static void
test_chain_with_a_cloned_segment(void **state __rte_unused)
{
	struct rte_mbuf *shared = npool_pkt_with(500, 9);
	struct rte_mbuf *hdr = npool_pkt_with(40, 8);
	struct rte_mbuf *c = rte_pktmbuf_clone(shared, npool_head_pool());

	/* A header packet chained in front of a clone of the payload. */
	assert_int_equal(rte_pktmbuf_chain(hdr, c), 0);
	rte_pktmbuf_free(hdr);
	assert_out(1, 1);
	assert_int_equal(rte_mbuf_ext_refcnt_read(shared->shinfo), 1);
	rte_pktmbuf_free(shared);
	assert_out(0, 0);
}

/*
 * m0 -> m1 -> m2 where m1 headed the chain m1 -> m2 before it was
 * chained behind m0 (its nb_segs still says 2), split after m1.
 */
static struct rte_mbuf *
split_chain(struct rte_mbuf **m1, struct rte_mbuf **m2)
{
	struct rte_mbuf *m0 = npool_pkt_with(100, 1);

	*m1 = npool_pkt_with(100, 2);
	*m2 = npool_pkt_with(100, 3);
	assert_int_equal(rte_pktmbuf_chain(*m1, *m2), 0);
	assert_int_equal(rte_pktmbuf_chain(m0, *m1), 0);
	assert_int_equal(m0->nb_segs, 3);
	assert_int_equal((*m1)->nb_segs, 2);
	(*m1)->next = NULL;
	m0->nb_segs = 2;
	m0->pkt_len -= (*m2)->data_len;
	assert_int_equal(rte_mbuf_check(m0, 1, NULL), 0);
	return m0;
}

/* The next two heads out of the head pool are m0 and m1, both as DPDK
 * wants a pooled mbuf (rte_mbuf_raw_free()'s assertions): direct, refcnt
 * 1, next NULL, nb_segs 1, sane as a segment. */
static void
assert_next_heads_clean(const struct rte_mbuf *m0, const struct rte_mbuf *m1)
{
	struct rte_mbuf *got[2];
	const char *why;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(rte_mempool_get(npool_head_pool(),
				(void **)&got[i]), 0);
		assert_true(got[i] == m0 || got[i] == m1);
		why = NULL;
		if (rte_mbuf_check(got[i], 0, &why) != 0)
			fail_msg("head %u from the pool: %s", i, why);
		assert_true(RTE_MBUF_DIRECT(got[i]));
		assert_int_equal(got[i]->nb_segs, 1);
		assert_null(got[i]->next);
		assert_int_equal(rte_mbuf_refcnt_read(got[i]), 1);
	}
	assert_ptr_not_equal(got[0], got[1]);
	rte_mempool_put_bulk(npool_head_pool(), (void **)got, 2);
}

static void
test_consume_split_chain_resets_stale_nb_segs(void **state __rte_unused)
{
	struct rte_mbuf *m1, *m2, *m0 = split_chain(&m1, &m2);

	npool_napi_consume_pkt(m0);
	assert_out(1, 1);
	assert_next_heads_clean(m0, m1);
	npool_napi_consume_pkt(m2);
	assert_out(0, 0);
}

static void
test_consume_bulk_split_chain_resets_stale_nb_segs(void **state __rte_unused)
{
	struct rte_mbuf *m1, *m2, *m0 = split_chain(&m1, &m2);
	struct rte_mbuf *b[2] = { m0, NULL };

	npool_napi_consume_bulk(b, 2);
	assert_next_heads_clean(m0, m1);
	rte_pktmbuf_free(m2);
	assert_out(0, 0);
}

/* The reference: rte_pktmbuf_free() leaves the same. */
static void
test_free_split_chain_resets_stale_nb_segs(void **state __rte_unused)
{
	struct rte_mbuf *m1, *m2, *m0 = split_chain(&m1, &m2);

	rte_pktmbuf_free(m0);
	assert_next_heads_clean(m0, m1);
	rte_pktmbuf_free(m2);
	assert_out(0, 0);
}

static void
test_consume_bulk_mixes_pools_and_nulls(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *b[12];
	unsigned int i, segs = 0;

	for (i = 0; i < 12; i++) {
		switch (i % 4) {
		case 0:
			b[i] = npool_pkt_with(64, 1);
			break;
		case 1:
			b[i] = stock_pkt_with(stock, 64, 2);
			break;
		case 2:
			b[i] = i == 6 ? NULL : stock_pkt_with(stock_nocache,
					64, 3);
			break;
		default:
			b[i] = npool_chain_of(2, 64);
			assert_int_equal(rte_pktmbuf_chain(b[i],
					stock_pkt_with(stock, 64, 4)), 0);
			break;
		}
		segs += b[i] != NULL ? b[i]->nb_segs : 0;
	}
	npool_napi_consume_bulk(b, 12);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_consumes - s0.pkt_consumes, segs);
	assert_int_equal(segs, 3 + 3 + 2 + 3 * 3);
	assert_out(0, 0);
	/* teardown() checks both stock pools are full again. */
}

static void
test_consume_bulk_larger_than_batch(void **state __rte_unused)
{
	static struct rte_mbuf *b[300];
	unsigned int i;

	for (i = 0; i < RTE_DIM(b); i++)
		b[i] = i % 5 == 0 ? stock_pkt_with(stock_nocache, 60, 0) :
			npool_pkt_with(60, 0);
	assert_out(240, 240);
	npool_napi_consume_bulk(b, RTE_DIM(b));
	assert_out(0, 0);
}

/*
 * A burst of plain RX mbufs (direct, refcnt 1, one segment, one pool)
 * takes the one-put fast case: an "npool"-ops pool gets them in this
 * lcore's head cache (the next allocation is the last one freed), a stock
 * pool in one rte_mempool_put_bulk(); each counts as one consume.
 */
static void
test_consume_bulk_plain_burst_one_put(void **state __rte_unused)
{
	struct rte_mempool *np = npool_pktmbuf_pool_create("ut_plain", 255,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *b[32], *m;
	unsigned int i;

	assert_non_null(np);
	for (i = 0; i < RTE_DIM(b); i++)
		b[i] = stock_pkt_with(np, 60, (uint8_t)i);
	npool_napi_consume_bulk(b, RTE_DIM(b));
	assert_int_equal(rte_mempool_avail_count(np), 255);
	m = rte_pktmbuf_alloc(np);
	assert_ptr_equal(m, b[RTE_DIM(b) - 1]);
	m = b[RTE_DIM(b) - 1];
	/* Back to the state rte_pktmbuf_alloc() gives. */
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	rte_pktmbuf_free(m);
	for (i = 0; i < RTE_DIM(b); i++)
		b[i] = stock_pkt_with(stock_nocache, 60, (uint8_t)i);
	npool_napi_consume_bulk(b, RTE_DIM(b));
	assert_int_equal(rte_mempool_avail_count(stock_nocache), STOCK_SIZE);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_consumes - s0.pkt_consumes, 2 * RTE_DIM(b));
	rte_mempool_free(np);
}

/*
 * One shared mbuf in an otherwise plain burst sends the whole burst down
 * the general path: the shared one loses a reference and stays valid.
 */
static void
test_consume_bulk_plain_burst_with_a_shared_mbuf(void **state __rte_unused)
{
	struct rte_mbuf *b[8];
	unsigned int i;

	for (i = 0; i < RTE_DIM(b); i++)
		b[i] = stock_pkt_with(stock_nocache, 60, (uint8_t)i);
	rte_mbuf_refcnt_update(b[5], 1);
	npool_napi_consume_bulk(b, RTE_DIM(b));
	assert_int_equal(rte_mempool_avail_count(stock_nocache),
			STOCK_SIZE - 1);
	assert_int_equal(rte_mbuf_refcnt_read(b[5]), 1);
	assert_int_equal(*rte_pktmbuf_mtod(b[5], uint8_t *), 5);
	rte_pktmbuf_free(b[5]);
}

#define SHARED 64

/* Bursts of mbufs each shared by lcore 0 and lcore 1 (refcnt 2). */
struct shared_bursts {
	struct rte_mbuf *plain[SHARED];   /* stock, direct */
	struct rte_mbuf *npool[SHARED];   /* npool packets */
	struct rte_mbuf *on1[2 * SHARED]; /* lcore 1's references */
};

static int
consume_shared(void *arg)
{
	struct shared_bursts *s = arg;

	npool_napi_consume_bulk(s->on1, SHARED);
	npool_napi_consume_bulk(s->on1 + SHARED, SHARED);
	return 0;
}

/*
 * Both lcores consume the same shared bursts at once: whichever drops a
 * reference last frees each mbuf, once. (The plain-burst check reads the
 * refcounts the other lcore is decrementing: an atomic read, which a
 * ThreadSanitizer build checks here; npool-stress found the plain read.)
 */
static void
test_shared_bursts_consumed_on_two_lcores_at_once(void **state __rte_unused)
{
	static struct shared_bursts s;
	unsigned int i;

	for (i = 0; i < SHARED; i++) {
		s.plain[i] = stock_pkt_with(stock_nocache, 60, (uint8_t)i);
		s.npool[i] = npool_pkt_with(60, (uint8_t)i);
		rte_mbuf_refcnt_update(s.plain[i], 1);
		rte_mbuf_refcnt_update(s.npool[i], 1);
		s.on1[i] = s.plain[i];
		s.on1[SHARED + i] = s.npool[i];
	}
	assert_int_equal(ut_remote_launch(consume_shared, &s, UT_OTHER_LCORE),
			0);
	npool_napi_consume_bulk(s.plain, SHARED);
	npool_napi_consume_bulk(s.npool, SHARED);
	assert_int_equal(ut_wait_lcore(UT_OTHER_LCORE), 0);
	/* What lcore 1 freed last it handed back here (npool_pkt_defer.h):
	 * freed now. */
	npool_napi_defer_drain();
	assert_int_equal(rte_mempool_avail_count(stock_nocache), STOCK_SIZE);
	assert_out(0, 0);
	assert_int_equal(ut_stats_sum().frees, SHARED);
}

static int
free_on_lcore(void *arg)
{
	rte_pktmbuf_free(arg);
	return 0;
}

static void
test_last_clone_freed_on_another_lcore(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_pkt_with(128, 7);
	struct rte_mbuf *c = rte_pktmbuf_clone(m, npool_head_pool());
	struct npool_stats o;

	npool_napi_consume_pkt(m);
	assert_out(1, 1);
	assert_int_equal(ut_on_other_lcore(free_on_lcore, c), 0);
	assert_out(0, 0);
	assert_int_equal(npool_stats_get(UT_OTHER_LCORE, &o), 0);
	assert_int_equal(o.frees, 1);
	assert_int_equal(o.remote_frees, 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_clone_bumps_shared_refcount_and_shares_data),
		T(test_fragment_freed_only_with_last_clone),
		T(test_clone_into_stock_pool),
		T(test_clones_consumed_in_one_bulk),
		T(test_refcount_set_once_for_n_sends),
		T(test_chain_of_npool_packets_freed_whole),
		T(test_chain_consumed_whole_counts_segments),
		T(test_chain_mixing_npool_and_stock_segments),
		T(test_chain_with_a_cloned_segment),
		T(test_consume_split_chain_resets_stale_nb_segs),
		T(test_consume_bulk_split_chain_resets_stale_nb_segs),
		T(test_free_split_chain_resets_stale_nb_segs),
		T(test_consume_bulk_mixes_pools_and_nulls),
		T(test_consume_bulk_larger_than_batch),
		T(test_consume_bulk_plain_burst_one_put),
		T(test_consume_bulk_plain_burst_with_a_shared_mbuf),
		T(test_last_clone_freed_on_another_lcore),
		T(test_shared_bursts_consumed_on_two_lcores_at_once),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_pkt_clone", tests);
}
