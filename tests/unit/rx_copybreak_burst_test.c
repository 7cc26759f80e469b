/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Copy-break per burst (drivers/net/npool_rx.h, lib npool_pkt.h): a burst
 * of 32 mixed packets copied in one go, npool_napi_alloc_pkt_bulk() as n
 * calls of npool_napi_alloc_pkt(), and bursts where the heads or the
 * fragments run out part way.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "npool_rx.h"
#include "unit_common.h"

#define RX_SIZE 255
#define BURST 32
#define CB 200

static struct rte_mempool *rx, *foreign;

static int
setup_with(uint32_t nb_chunks, uint32_t nb_small, uint32_t nb_heads)
{
	rx = rte_pktmbuf_pool_create("ut_cbb_rx", RX_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	foreign = rte_pktmbuf_pool_create("ut_cbb_foreign", RX_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (rx == NULL || foreign == NULL)
		return -1;
	npool_rx_stats_reset();
	return ut_npool_init(nb_chunks, nb_small, nb_heads, 0) == 0 ? 0 : -1;
}

static int
setup(void **state __rte_unused)
{
	return setup_with(0, 256, 0);
}

/* One big chunk, one small chunk: the fragments run out part way. */
static int
setup_tiny_arena(void **state __rte_unused)
{
	return setup_with(1, 1, 0);
}

/* The fewest heads npool takes: they run out part way. */
static int
setup_few_heads(void **state __rte_unused)
{
	return setup_with(0, 256, 64);
}

static int
teardown(void **state)
{
	assert_int_equal(rte_mempool_avail_count(rx), RX_SIZE);
	assert_int_equal(rte_mempool_avail_count(foreign), RX_SIZE);
	rte_mempool_free(rx);
	rte_mempool_free(foreign);
	return ut_teardown_check(state);
}

static struct npool_rx_stats
rx_stats_self(void)
{
	struct npool_rx_stats s;

	assert_int_equal(npool_rx_stats_get(rte_lcore_id(), &s), 0);
	return s;
}

static void
fill(uint8_t *d, uint32_t len, uint8_t seed)
{
	uint32_t j;

	for (j = 0; j < len; j++)
		d[j] = (uint8_t)(seed * 7 + j);
}

/* A packet of pool @p mp, @p len bytes over @p nseg segments, with
 * metadata and the byte pattern of @p seed. */
static struct rte_mbuf *
mk(struct rte_mempool *mp, uint16_t len, unsigned int nseg, uint8_t seed)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp), *s;
	uint16_t first = nseg > 1 ? len / 2 : len;

	assert_non_null(m);
	fill((uint8_t *)rte_pktmbuf_append(m, first), first, seed);
	if (nseg > 1) {
		s = rte_pktmbuf_alloc(mp);
		assert_non_null(s);
		assert_non_null(rte_pktmbuf_append(s, len - first));
		assert_int_equal(rte_pktmbuf_chain(m, s), 0);
	}
	m->port = 5;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6;
	m->ol_flags = RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_VLAN;
	m->hash.rss = 0xabc00000u + seed;
	m->vlan_tci = seed;
	m->vlan_tci_outer = 1000 + seed;
	return m;
}

static void
assert_bytes(const struct rte_mbuf *m, uint32_t len, uint8_t seed)
{
	uint8_t want[RTE_MBUF_DEFAULT_DATAROOM];

	assert_int_equal(m->pkt_len, len);
	assert_int_equal(m->data_len, len);
	fill(want, len, seed);
	assert_memory_equal(rte_pktmbuf_mtod(m, const void *), want, len);
}

static void
assert_meta(const struct rte_mbuf *m, uint8_t seed)
{
	assert_int_equal(m->port, 5);
	assert_int_equal(m->packet_type, RTE_PTYPE_L2_ETHER |
			RTE_PTYPE_L3_IPV6);
	assert_int_equal(m->ol_flags & ~RTE_MBUF_F_EXTERNAL,
			RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_VLAN);
	assert_int_equal(m->hash.rss, 0xabc00000u + seed);
	assert_int_equal(m->vlan_tci, seed);
	assert_int_equal(m->vlan_tci_outer, 1000 + seed);
}

enum kind { K_RX, K_CHAIN, K_FOREIGN, K_NPOOL, K_BADLEN };

struct spec {
	uint16_t len;
	enum kind kind;
};

/* Below, at and above CB; chains; another pool; an npool packet; a
 * single segment whose data_len is not its pkt_len. */
static const struct spec burst32[BURST] = {
	{ 60, K_RX }, { 200, K_RX }, { 201, K_RX }, { 1500, K_RX },
	{ 64, K_FOREIGN }, { 100, K_CHAIN }, { 0, K_RX }, { 199, K_RX },
	{ 150, K_NPOOL }, { 300, K_FOREIGN }, { 1, K_RX }, { 128, K_BADLEN },
	{ 200, K_FOREIGN }, { 64, K_RX }, { 64, K_RX }, { 1000, K_CHAIN },
	{ 90, K_RX }, { 202, K_RX }, { 180, K_NPOOL }, { 77, K_RX },
	{ 200, K_CHAIN }, { 33, K_FOREIGN }, { 64, K_RX }, { 65, K_RX },
	{ 1514, K_RX }, { 128, K_RX }, { 129, K_RX }, { 150, K_BADLEN },
	{ 60, K_RX }, { 200, K_RX }, { 250, K_RX }, { 61, K_RX },
};

static struct rte_mbuf *
mk_spec(const struct spec *s, uint8_t seed)
{
	struct rte_mbuf *m;

	switch (s->kind) {
	case K_CHAIN:
		return mk(rx, s->len, 2, seed);
	case K_FOREIGN:
		return mk(foreign, s->len, 1, seed);
	case K_NPOOL:
		m = npool_napi_alloc_pkt(s->len);
		assert_non_null(m);
		fill((uint8_t *)rte_pktmbuf_append(m, s->len), s->len, seed);
		m->port = 5;
		m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6;
		m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_VLAN;
		m->hash.rss = 0xabc00000u + seed;
		m->vlan_tci = seed;
		m->vlan_tci_outer = 1000 + seed;
		return m;
	case K_BADLEN:
		m = mk(rx, s->len, 1, seed);
		m->data_len = (uint16_t)(s->len - 20);
		return m;
	default:
		return mk(rx, s->len, 1, seed);
	}
}

static int
copied_by_rule(const struct spec *s)
{
	return s->len <= CB && s->kind != K_CHAIN && s->kind != K_BADLEN;
}

static void
test_copybreak_burst_of_32_mixed(void **state __rte_unused)
{
	struct rte_mbuf *pkts[BURST], *orig[BURST];
	unsigned int i, want = 0, rx_copied = 0, rx_out = 0, fo_copied = 0;
	unsigned int fo_out = 0;
	const struct rte_mempool *hp = npool_head_pool();
	struct npool_stats before, after;
	struct npool_usage u;

	for (i = 0; i < BURST; i++) {
		orig[i] = pkts[i] = mk_spec(&burst32[i], (uint8_t)i);
		want += copied_by_rule(&burst32[i]);
		if (burst32[i].kind == K_FOREIGN) {
			fo_out++;
			fo_copied += copied_by_rule(&burst32[i]);
		} else if (burst32[i].kind != K_NPOOL) {
			rx_out += burst32[i].kind == K_CHAIN ? 2 : 1;
			rx_copied += copied_by_rule(&burst32[i]);
		}
	}
	assert_int_equal(want, 21);
	assert_int_equal(rte_mempool_in_use_count(rx), rx_out);
	assert_int_equal(npool_stats_sum(&before), 0);
	assert_int_equal(npool_rx_copybreak(pkts, BURST, CB), want);
	assert_int_equal(npool_stats_sum(&after), 0);
	for (i = 0; i < BURST; i++) {
		const struct spec *s = &burst32[i];

		if (!copied_by_rule(s)) {
			assert_ptr_equal(pkts[i], orig[i]);
			if (s->kind == K_RX || s->kind == K_FOREIGN)
				assert_bytes(pkts[i], s->len, (uint8_t)i);
			else
				assert_int_equal(pkts[i]->pkt_len, s->len);
			continue;
		}
		assert_ptr_not_equal(pkts[i], orig[i]);
		assert_true(npool_pkt_is_npool(pkts[i]));
		assert_ptr_equal(pkts[i]->pool, npool_head_pool());
		assert_int_equal(rte_pktmbuf_headroom(pkts[i]),
				npool_default()->headroom);
		assert_int_equal(rte_mbuf_refcnt_read(pkts[i]), 1);
		assert_int_equal(pkts[i]->nb_segs, 1);
		assert_bytes(pkts[i], s->len, (uint8_t)i);
		assert_meta(pkts[i], (uint8_t)i);
		/* Truesize: the head's object and the fragment of len. */
		assert_int_equal(npool_pkt_truesize(pkts[i]), hp->header_size +
				hp->elt_size + hp->trailer_size +
				npool_pkt_fragsz(s->len));
	}
	assert_int_equal(rx_stats_self().copybreak_copied, want);
	assert_int_equal(rx_stats_self().copybreak_nomem, 0);
	/* Each pool got back exactly its copied mbufs; the two npool
	 * originals gave their fragments and heads back. */
	assert_int_equal(rte_mempool_in_use_count(rx), rx_out - rx_copied);
	assert_int_equal(rte_mempool_in_use_count(foreign),
			fo_out - fo_copied);
	assert_int_equal(after.pkt_allocs - before.pkt_allocs, want);
	assert_int_equal(after.allocs - before.allocs, want);
	assert_int_equal(after.pkt_consumes - before.pkt_consumes, want);
	assert_int_equal(after.pkt_failures, before.pkt_failures);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, want);
	assert_int_equal(u.heads_out, want);
	rte_pktmbuf_free_bulk(pkts, BURST);
}

#define BULK 20

/* Assert that @p m[0 .. n) are carved back to back, downward, right
 * below @p above (when not NULL), npool_pkt_fragsz(len) each. */
static void
assert_back_to_back(struct rte_mbuf **m, unsigned int n, uint32_t len,
		const char *above)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (above != NULL)
			assert_ptr_equal((char *)m[i]->buf_addr +
					npool_pkt_fragsz(len), above);
		assert_int_equal(rte_pktmbuf_headroom(m[i]),
				npool_default()->headroom);
		assert_true(rte_pktmbuf_tailroom(m[i]) >= len);
		above = m[i]->buf_addr;
	}
}

/* The bulk allocation carves as one call per packet would: fragments
 * back to back, downward, each npool_pkt_fragsz() of its length, the
 * counters per packet; a length out of range is a NULL entry and the
 * others are made. */
static void
test_alloc_pkt_bulk_as_one_by_one(void **state __rte_unused)
{
	struct rte_mbuf *a[4], *b[4], *m[BULK], *big[NPOOL_PKT_BULK_MAX + 1];
	uint32_t lens[BULK];
	struct npool_stats before, after;
	unsigned int i;

	for (i = 0; i < 4; i++)
		lens[i] = 64;
	assert_int_equal(npool_stats_sum(&before), 0);
	/* No chunk yet: the general path refills once, then carves. */
	assert_int_equal(npool_napi_alloc_pkt_bulk(a, lens, 4), 4);
	assert_back_to_back(a, 4, 64, NULL);
	/* Room for all four in that chunk: the one-check carve goes on
	 * right below. */
	assert_int_equal(npool_napi_alloc_pkt_bulk(b, lens, 4), 4);
	assert_back_to_back(b, 4, 64, a[3]->buf_addr);
	assert_ptr_equal(ut_chunk_of(b[3]->buf_addr),
			ut_chunk_of(a[0]->buf_addr));
	assert_int_equal(npool_stats_sum(&after), 0);
	assert_int_equal(after.pkt_allocs - before.pkt_allocs, 8);
	assert_int_equal(after.allocs - before.allocs, 8);
	assert_int_equal(after.refills - before.refills, 1);

	for (i = 0; i < BULK; i++)
		lens[i] = i == 7 ? NPOOL_PKT_MAX_LEN + 1 : 40 * i + 1;
	rte_errno = 0;
	before = after;
	assert_int_equal(npool_napi_alloc_pkt_bulk(m, lens, BULK), BULK - 1);
	assert_int_equal(rte_errno, EINVAL);
	assert_int_equal(npool_stats_sum(&after), 0);
	assert_int_equal(after.pkt_allocs - before.pkt_allocs, BULK - 1);
	assert_int_equal(after.pkt_failures - before.pkt_failures, 1);
	for (i = 0; i < BULK; i++) {
		if (i == 7) {
			assert_null(m[i]);
			continue;
		}
		assert_non_null(m[i]);
		assert_true(npool_pkt_is_npool(m[i]));
		assert_true(rte_pktmbuf_tailroom(m[i]) >= lens[i]);
		rte_pktmbuf_free(m[i]);
	}
	rte_pktmbuf_free_bulk(a, 4);
	rte_pktmbuf_free_bulk(b, 4);
	assert_int_equal(npool_napi_alloc_pkt_bulk(m, lens, 0), 0);
	/* Above NPOOL_PKT_BULK_MAX: refused whole. */
	big[0] = a[0];
	assert_int_equal(npool_napi_alloc_pkt_bulk(big, lens,
			NPOOL_PKT_BULK_MAX + 1), 0);
	assert_null(big[0]);
	assert_null(big[NPOOL_PKT_BULK_MAX]);
	assert_int_equal(rte_errno, EINVAL);
}

/* Copy-break a burst of RX mbufs of @p lens while only @p fit npool
 * packets can be had (heads or fragments run dry): the first @p fit of
 * those to copy are copied, the others stay in their RX mbuf and count
 * as copybreak_nomem, and nothing of the failed ones stays out. */
static void
run_dry_burst(const uint16_t *lens, unsigned int n, unsigned int fit)
{
	struct rte_mbuf *pkts[BURST], *orig[BURST];
	unsigned int i, small = 0, copied = 0;
	struct npool_usage u0, u1;

	assert_int_equal(npool_usage_get(&u0), 0);
	for (i = 0; i < n; i++)
		orig[i] = pkts[i] = mk(rx, lens[i], 1, (uint8_t)i);
	assert_int_equal(npool_rx_copybreak(pkts, (uint16_t)n, CB), fit);
	for (i = 0; i < n; i++) {
		assert_bytes(pkts[i], lens[i], (uint8_t)i);
		if (lens[i] > CB) {
			assert_ptr_equal(pkts[i], orig[i]);
			continue;
		}
		if (small++ < fit) {
			assert_true(npool_pkt_is_npool(pkts[i]));
			assert_meta(pkts[i], (uint8_t)i);
			copied++;
		} else {
			assert_ptr_equal(pkts[i], orig[i]);
		}
	}
	assert_int_equal(copied, fit);
	assert_int_equal(rx_stats_self().copybreak_copied, fit);
	assert_int_equal(rx_stats_self().copybreak_nomem, small - fit);
	assert_int_equal(rte_mempool_in_use_count(rx), n - fit);
	/* Heads and fragments of the failed ones went back. */
	assert_int_equal(npool_usage_get(&u1), 0);
	assert_int_equal(u1.heads_out - u0.heads_out, fit);
	assert_int_equal(u1.frags_out - u0.frags_out, fit);
	rte_pktmbuf_free_bulk(pkts, n);
}

/* Mixed lengths, some above the copy-break, all small packets. */
static const uint16_t dry_lens[BURST] = {
	40, 200, 1500, 64, 120, 300, 64, 64, 180, 90, 60, 201,
	150, 64, 64, 100, 70, 64, 1000, 64, 64, 190, 64, 64,
	64, 110, 64, 64, 64, 1514, 64, 64,
};

static void
test_copybreak_burst_with_frags_running_out(void **state __rte_unused)
{
	/* The only big chunk is held: the small packets get the one small
	 * chunk, and nothing once it is full (no fallback left). */
	char *all = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
	uint32_t room = NPOOL_SMALL_CHUNK_SIZE;
	unsigned int i, fit = 0;

	assert_non_null(all);
	for (i = 0; i < BURST; i++) {
		if (dry_lens[i] > CB)
			continue;
		if (npool_pkt_fragsz(dry_lens[i]) > room)
			break;
		room -= npool_pkt_fragsz(dry_lens[i]);
		fit++;
	}
	assert_true(fit > 2 && fit < 20);
	run_dry_burst(dry_lens, BURST, fit);
	npool_free_frag(all);
}

static void
test_copybreak_burst_with_heads_running_out(void **state __rte_unused)
{
	const unsigned int left = 9;
	struct rte_mempool *hp = npool_head_pool();
	void *held[64];
	unsigned int out = rte_mempool_avail_count(hp) - left;

	assert_true(out <= RTE_DIM(held));
	assert_int_equal(rte_mempool_get_bulk(hp, held, out), 0);
	assert_int_equal(rte_mempool_avail_count(hp), left);
	run_dry_burst(dry_lens, BURST, left);
	rte_mempool_put_bulk(hp, held, out);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_copybreak_burst_of_32_mixed),
		T(test_alloc_pkt_bulk_as_one_by_one),
		cmocka_unit_test_setup_teardown(
			test_copybreak_burst_with_frags_running_out,
			setup_tiny_arena, teardown),
		cmocka_unit_test_setup_teardown(
			test_copybreak_burst_with_heads_running_out,
			setup_few_heads, teardown),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_rx_cb_burst", tests);
}
