/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool packets (lib/npool/npool_pkt.h): npool_build_pkt (build_skb),
 * npool_napi_alloc_pkt / npool_alloc_pkt (napi_/netdev_alloc_skb) and
 * their errors, buf_len, truesize, npool_pkt_is_npool, and the release
 * paths rte_pktmbuf_free / npool_napi_consume_pkt for single packets.
 * (rte_vlan_insert and the way around it: pkt_vlan_test.c.)
 * Clones, chains and mixed bulks: pkt_clone_test.c.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "npool_asan.h"
#include "npool_head_cache.h"
#include "unit_common.h"

static int
setup_big_headroom(void **state __rte_unused)
{
	return ut_npool_init(0, 0, 0, 1024) == 0 ? 0 : -1;
}

static int
setup_64_heads(void **state __rte_unused)
{
	return ut_npool_init(0, 0, 64, 0) == 0 ? 0 : -1;
}

static int
setup_one_chunk(void **state __rte_unused)
{
	return ut_npool_init(1, 0, 0, 0) == 0 ? 0 : -1;
}

static uint32_t
head_truesize(void)
{
	const struct rte_mempool *mp = npool_head_pool();

	return mp->header_size + mp->elt_size + mp->trailer_size;
}

static void
assert_out_zero(void)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads_out, 0);
	assert_int_equal(u.frags_out, 0);
}

static void
assert_fresh_npool_pkt(const struct rte_mbuf *m, const char *frag,
		uint32_t fragsz)
{
	const struct rte_mbuf_ext_shared_info *sh;

	assert_non_null(m);
	sh = (const void *)RTE_PTR_ALIGN_FLOOR(frag + fragsz - sizeof(*sh), 8);
	assert_ptr_equal(m->buf_addr, frag);
	assert_ptr_equal(m->shinfo, sh);
	assert_int_equal(m->buf_len, (const char *)sh - frag);
	assert_int_equal(m->buf_iova, npool_frag_iova(frag));
	assert_int_equal(m->data_off, RTE_MIN(npool_default()->headroom, m->buf_len));
	assert_int_equal(m->data_len, 0);
	assert_int_equal(m->pkt_len, 0);
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_true(RTE_MBUF_HAS_EXTBUF(m));
	assert_false(RTE_MBUF_CLONED(m));
	assert_int_equal(rte_mbuf_ext_refcnt_read(sh), 1);
	assert_ptr_equal(m->pool, npool_head_pool());
	assert_true(npool_pkt_is_npool(m));
	/* The shared info is inside the fragment, at its very end. */
	assert_true((const char *)(sh + 1) <= frag + fragsz);
	assert_true((const char *)(sh + 1) > frag + fragsz - 8);
}

static void
test_build_pkt_puts_shinfo_at_fragment_tail(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *frag = npool_napi_alloc_frag_align(2048, 64);
	struct rte_mbuf *m = npool_build_pkt(frag, 2048);
	struct npool_usage u;

	assert_fresh_npool_pkt(m, frag, 2048);
	assert_int_equal(m->buf_len, 2048 - NPOOL_SHINFO_SIZE);
	assert_int_equal(m->data_off, RTE_PKTMBUF_HEADROOM);
	assert_int_equal(rte_pktmbuf_tailroom(m),
			2048 - NPOOL_SHINFO_SIZE - RTE_PKTMBUF_HEADROOM);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_builds - s0.pkt_builds, 1);
	assert_int_equal(s1.pkt_allocs, s0.pkt_allocs);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads_out, 1);
	assert_int_equal(u.frags_out, 1);
	/* The packet owns the fragment: one free releases both. */
	rte_pktmbuf_free(m);
	assert_out_zero();
}

static void
test_build_pkt_small_frag_clamps_data_off(void **state __rte_unused)
{
	char *a = npool_napi_alloc_frag_align(64, 64);
	char *b = npool_alloc_frag_align(100, 8);
	struct rte_mbuf *ma = npool_build_pkt(a, 64);
	struct rte_mbuf *mb = npool_build_pkt(b, 100);

	assert_fresh_npool_pkt(ma, a, 64);
	assert_int_equal(ma->buf_len, 64 - NPOOL_SHINFO_SIZE);
	assert_int_equal(ma->data_off, ma->buf_len);
	assert_int_equal(rte_pktmbuf_tailroom(ma), 0);
	/* 100 - 24 = 76, rounded down to 8 for the shared info: 72. */
	assert_fresh_npool_pkt(mb, b, 100);
	assert_int_equal(mb->buf_len, 72);
	rte_pktmbuf_free(ma);
	rte_pktmbuf_free(mb);
}

/*
 * buf_len is the room before the shared info, which sits 8-byte aligned
 * as high as it fits: RTE_ALIGN_FLOOR(fragsz - NPOOL_SHINFO_SIZE, 8).
 */
static void
test_build_pkt_buf_len_exact_values(void **state __rte_unused)
{
	static const struct { uint32_t fragsz, buf_len; } v[] = {
		{ 1655, 1624 }, { 1656, 1632 }, { 1649, 1624 }, { 1648, 1624 },
		{ 1647, 1616 }, { 2048, 2024 }, { 2047, 2016 }, { 153, 128 },
		{ 152, 128 }, { 151, 120 }, { 32, 8 }, { 31, 0 }, { 25, 0 },
	};
	unsigned int i;

	assert_int_equal(NPOOL_SHINFO_SIZE, 24);
	for (i = 0; i < RTE_DIM(v); i++) {
		char *frag = npool_napi_alloc_frag_align(v[i].fragsz, 64);
		struct rte_mbuf *m = npool_build_pkt(frag, v[i].fragsz);

		assert_non_null(m);
		assert_int_equal(m->buf_len, v[i].buf_len);
		assert_ptr_equal(m->shinfo, frag + v[i].buf_len);
		assert_int_equal(m->data_off,
				RTE_MIN((uint32_t)RTE_PKTMBUF_HEADROOM, v[i].buf_len));
		assert_int_equal(rte_pktmbuf_tailroom(m), v[i].buf_len -
				RTE_MIN((uint32_t)RTE_PKTMBUF_HEADROOM, v[i].buf_len));
		/* The shared info ends inside the fragment. */
		assert_true(v[i].buf_len + sizeof(*m->shinfo) <= v[i].fragsz);
		rte_pktmbuf_free(m);
	}
}

static void
expect_build_einval(void *frag, uint32_t fragsz)
{
	rte_errno = 0;
	assert_null(npool_build_pkt(frag, fragsz));
	assert_int_equal(rte_errno, EINVAL);
}

static void
test_build_pkt_rejects_bad_arguments(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *frag = npool_napi_alloc_frag_align(256, 64);
	uint64_t local[64];
	struct npool_usage u;

	expect_build_einval(local, sizeof(local));
	expect_build_einval(frag + 4, 200);
	expect_build_einval(frag, 0);
	expect_build_einval(frag, NPOOL_SHINFO_SIZE);
	expect_build_einval(frag, UINT16_MAX + NPOOL_SHINFO_SIZE + 1);
	/* The fragment is the chunk's last 256 bytes: 257 runs past it. */
	assert_ptr_equal(frag, ut_chunk_of(frag)->va + NPOOL_CHUNK_SIZE - 256);
	expect_build_einval(frag, 257);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, 6);
	assert_int_equal(s1.pkt_builds, s0.pkt_builds);
	/* No head was taken; the caller still owns the fragment. */
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads_out, 0);
	assert_int_equal(u.frags_out, 1);
	npool_free_frag(frag);
}

static void
test_build_pkt_shinfo_only_fragment(void **state __rte_unused)
{
	char *frag = npool_napi_alloc_frag_align(NPOOL_SHINFO_SIZE + 1, 8);
	struct rte_mbuf *m = npool_build_pkt(frag, NPOOL_SHINFO_SIZE + 1);

	assert_fresh_npool_pkt(m, frag, NPOOL_SHINFO_SIZE + 1);
	assert_int_equal(m->buf_len, 0);
	assert_int_equal(m->data_off, 0);
	rte_pktmbuf_free(m);
}

static int
build_in_thread(void *arg)
{
	struct rte_mbuf **m = arg;
	char *frag = npool_alloc_frag_align(512, 64);

	*m = npool_build_pkt(frag, 512);
	if (*m == NULL)
		return -rte_errno;
	memset(rte_pktmbuf_append(*m, 100), 0x11, 100);
	return 0;
}

static int
free_in_thread(void *arg)
{
	rte_pktmbuf_free(arg);
	return 0;
}

static void
test_build_pkt_in_non_eal_pthread(void **state __rte_unused)
{
	struct npool_stats t;
	struct rte_mbuf *m;

	assert_int_equal(ut_in_pthread(build_in_thread, &m), 0);
	assert_int_equal(m->data_len, 100);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[99], 0x11);
	assert_int_equal(ut_in_pthread(free_in_thread, m), 0);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &t), 0);
	assert_int_equal(t.pkt_builds, 1);
	assert_int_equal(t.guarded_allocs, 1);
	assert_int_equal(t.frees, 1);
}

static void
check_alloc_pkt(struct rte_mbuf *(*alloc)(uint32_t), uint32_t len)
{
	uint32_t fragsz = RTE_ALIGN_CEIL(npool_default()->headroom + len +
			NPOOL_SHINFO_SIZE, RTE_CACHE_LINE_SIZE);
	struct rte_mbuf *m = alloc(len);

	assert_non_null(m);
	assert_int_equal(npool_pkt_fragsz(len), fragsz);
	assert_fresh_npool_pkt(m, m->buf_addr, fragsz);
	assert_int_equal((uintptr_t)m->buf_addr % RTE_CACHE_LINE_SIZE, 0);
	assert_int_equal(rte_pktmbuf_headroom(m), npool_default()->headroom);
	assert_true(rte_pktmbuf_tailroom(m) >= len);
	assert_int_equal(m->buf_len, fragsz - NPOOL_SHINFO_SIZE);
	assert_int_equal(npool_pkt_truesize(m), head_truesize() + fragsz);
	assert_ptr_equal(ut_chunk_of(m->buf_addr),
			ut_chunk_of((char *)m->buf_addr + fragsz - 1));
	/* The room is really usable, up to the shared info. */
	memset(rte_pktmbuf_append(m, len), 0xee, len);
	assert_int_equal(rte_pktmbuf_iova(m),
			npool_frag_iova(rte_pktmbuf_mtod(m, void *)));
	assert_int_equal(rte_mbuf_ext_refcnt_read(m->shinfo), 1);
	rte_pktmbuf_free(m);
}

#define NB_LENS 9

/* Packets of every size class, up to the largest, and their counters. */
static void
check_alloc_pkt_lens(struct rte_mbuf *(*alloc)(uint32_t), int napi)
{
	const uint32_t lens[NB_LENS] = { 0, 1, 60, 64, 256, 1500, 1518,
		RTE_MIN(9000u, NPOOL_PKT_MAX_LEN), NPOOL_PKT_MAX_LEN };
	struct npool_stats s0 = ut_stats_self(), s1;
	unsigned int i;

	for (i = 0; i < NB_LENS; i++)
		check_alloc_pkt(alloc, lens[i]);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_allocs - s0.pkt_allocs, NB_LENS);
	assert_int_equal(s1.allocs - s0.allocs, napi ? NB_LENS : 0);
	assert_int_equal(s1.guarded_allocs - s0.guarded_allocs,
			napi ? 0 : NB_LENS);
}

static void
test_napi_alloc_pkt_room_headroom_truesize(void **state __rte_unused)
{
	check_alloc_pkt_lens(npool_napi_alloc_pkt, 1);
}

static void
test_alloc_pkt_room_headroom_truesize(void **state __rte_unused)
{
	check_alloc_pkt_lens(npool_alloc_pkt, 0);
}

static void
test_big_headroom_applies_to_both_flavors(void **state __rte_unused)
{
	check_alloc_pkt(npool_napi_alloc_pkt, 1500);
	check_alloc_pkt(npool_alloc_pkt, 1500);
	/* The largest room that fits a chunk with 1 KiB of headroom. */
	check_alloc_pkt(npool_napi_alloc_pkt,
			NPOOL_CHUNK_SIZE - 1024 - NPOOL_SHINFO_SIZE);
	check_alloc_pkt(npool_alloc_pkt,
			NPOOL_CHUNK_SIZE - 1024 - NPOOL_SHINFO_SIZE);
}

static void
test_napi_pkts_carved_downward_in_one_chunk(void **state __rte_unused)
{
	struct rte_mbuf *a = npool_napi_alloc_pkt(1500);
	struct rte_mbuf *b = npool_napi_alloc_pkt(1500);
	struct rte_mbuf *c = npool_napi_alloc_pkt(1200);

	assert_ptr_equal(a->buf_addr, ut_chunk_of(a->buf_addr)->va +
			NPOOL_CHUNK_SIZE - npool_pkt_fragsz(1500));
	assert_ptr_equal(b->buf_addr,
			(char *)a->buf_addr - npool_pkt_fragsz(1500));
	assert_ptr_equal(c->buf_addr,
			(char *)b->buf_addr - npool_pkt_fragsz(1200));
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
	rte_pktmbuf_free(c);
}

static void
expect_alloc_fail(uint32_t len, int err)
{
	struct npool_usage u0, u1;

	assert_int_equal(npool_usage_get(&u0), 0);
	rte_errno = 0;
	assert_null(npool_napi_alloc_pkt(len));
	assert_int_equal(rte_errno, err);
	rte_errno = 0;
	assert_null(npool_alloc_pkt(len));
	assert_int_equal(rte_errno, err);
	/* Nothing taken: no head, no fragment. */
	assert_int_equal(npool_usage_get(&u1), 0);
	assert_int_equal(u1.heads_out, u0.heads_out);
	assert_int_equal(u1.frags_out, u0.frags_out);
}

static void
test_alloc_pkt_above_max_len_einval(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;

	expect_alloc_fail(NPOOL_PKT_MAX_LEN + 1, EINVAL);
	expect_alloc_fail(UINT32_MAX, EINVAL);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, 4);
}

static void
test_len_past_chunk_with_big_headroom_einval(void **state __rte_unused)
{
	/* 1024 + NPOOL_PKT_MAX_LEN + shared info is more than a chunk. */
	expect_alloc_fail(NPOOL_PKT_MAX_LEN, EINVAL);
	expect_alloc_fail(NPOOL_CHUNK_SIZE - 1024 - NPOOL_SHINFO_SIZE + 1,
			EINVAL);
	assert_int_equal(ut_in_use(), 0);
}

static void
test_alloc_pkt_enobufs_when_heads_run_out(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	void *heads[64];
	char *frag = npool_napi_alloc_frag_align(512, 64);

	assert_int_equal(rte_mempool_get_bulk(npool_head_pool(), heads, 64),
			0);
	expect_alloc_fail(64, ENOBUFS);
	rte_errno = 0;
	assert_null(npool_build_pkt(frag, 512));
	assert_int_equal(rte_errno, ENOBUFS);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, 3);
	/* No fragment was carved for a packet that had no head. */
	assert_int_equal(s1.allocs - s0.allocs, 1);
	rte_mempool_put_bulk(npool_head_pool(), heads, 64);
	npool_free_frag(frag);
}

static void
test_alloc_pkt_enomem_gives_head_back(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	char *all = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);

	expect_alloc_fail(64, ENOMEM);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_failures - s0.pkt_failures, 2);
	assert_int_equal(s1.failures - s0.failures, 2);
	npool_free_frag(all);
	/* With the chunk back, packets come again. */
	rte_pktmbuf_free(npool_napi_alloc_pkt(64));
}

static void
test_consume_pkt_puts_head_in_lcore_cache(void **state __rte_unused)
{
	struct rte_mempool *hp = npool_head_pool();
	struct rte_mempool_cache *dc =
		rte_mempool_default_cache(hp, rte_lcore_id());
	struct npool_hc_lcore *oc =
		&((struct npool_hc *)hp->pool_data)->lc[rte_lcore_id()];
	/* DPDK's cache, or the ops' in debug and ASan builds. */
	uint32_t *len = dc != NULL ? &dc->len : &oc->len;
	void **objs = dc != NULL ? dc->objs : oc->objs;
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *m = npool_napi_alloc_pkt(100);
	uint32_t len0 = *len;

	npool_napi_consume_pkt(m);
	/* The head went straight to this lcore's cache, hottest on top. */
	assert_int_equal(*len, len0 + 1);
	assert_ptr_equal(objs[*len - 1], m);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_consumes - s0.pkt_consumes, 1);
	assert_int_equal(s1.frees - s0.frees, 1);
	assert_out_zero();
	/* The head is clean for its next use (a look inside a free head,
	 * which ASan builds poison). */
	NPOOL_ASAN_UNPOISON(m, sizeof(*m));
	assert_false(RTE_MBUF_HAS_EXTBUF(m));
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_null(m->next);
	assert_int_equal(m->nb_segs, 1);
	/* And the next packet reuses it: LIFO. */
	assert_ptr_equal(npool_napi_alloc_pkt(100), m);
	rte_pktmbuf_free(m);
}

/* What a head returned to its pool looks like, whichever path freed it. */
static void
assert_clean_head(const struct rte_mbuf *m)
{
	uint32_t own;

	/* A look inside a free head, which ASan builds poison. */
	NPOOL_ASAN_UNPOISON(m, sizeof(*m));
	own = sizeof(*m) + m->priv_size;

	assert_ptr_equal(m->buf_addr, (const char *)m + own);
	assert_int_equal(m->buf_iova, rte_mempool_virt2iova(m) + own);
	assert_int_equal(m->buf_len, 0);
	assert_int_equal(m->data_off, 0);
	assert_int_equal(m->data_len, 0);
	assert_int_equal(m->ol_flags, 0);
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
}

static void
test_consume_and_free_leave_the_same_clean_head(void **state __rte_unused)
{
	struct rte_mbuf *a = npool_napi_alloc_pkt(100);
	struct rte_mbuf *b = npool_alloc_pkt(100);
	struct rte_mbuf *c = npool_napi_alloc_pkt(100);
	struct rte_mbuf *bulk[2] = { c, NULL };

	rte_pktmbuf_append(a, 100);
	rte_pktmbuf_append(b, 100);
	rte_pktmbuf_append(c, 100);
	npool_napi_consume_pkt(a);
	rte_pktmbuf_free(b);
	npool_napi_consume_bulk(bulk, 2);
	assert_clean_head(a);
	assert_clean_head(b);
	assert_clean_head(c);
	assert_out_zero();
}

static void
test_consume_ignores_null_and_empty_bulk(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *none[2] = { NULL, NULL };

	npool_napi_consume_pkt(NULL);
	npool_napi_consume_bulk(none, 0);
	npool_napi_consume_bulk(none, 2);
	s1 = ut_stats_self();
	assert_int_equal(s1.pkt_consumes, s0.pkt_consumes);
	assert_int_equal(s1.frees, s0.frees);
}

static void
test_consume_keeps_packet_with_another_reference(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(100);
	struct npool_usage u;

	rte_mbuf_refcnt_update(m, 1);
	npool_napi_consume_pkt(m);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads_out, 1);
	assert_int_equal(u.frags_out, 1);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	npool_napi_consume_pkt(m);
	assert_out_zero();
}

static int
alloc_on_lcore(void *arg)
{
	struct rte_mbuf **m = arg;

	*m = npool_napi_alloc_pkt(200);
	return *m == NULL ? -rte_errno : 0;
}

static void
test_pkt_from_another_lcore_freed_here_is_remote(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct rte_mbuf *m;

	assert_int_equal(ut_on_other_lcore(alloc_on_lcore, &m), 0);
	assert_int_equal(ut_chunk_of(m->buf_addr)->owner, UT_OTHER_LCORE);
	rte_pktmbuf_free(m);
	s1 = ut_stats_self();
	assert_int_equal(s1.frees - s0.frees, 1);
	assert_int_equal(s1.remote_frees - s0.remote_frees, 1);
}

static int
alloc_pkt_in_thread(void *arg)
{
	struct rte_mbuf *m = npool_alloc_pkt(1500);

	*(int *)arg = rte_errno;
	if (m == NULL)
		return -1;
	memset(rte_pktmbuf_append(m, 1500), 0x77, 1500);
	rte_pktmbuf_free(m);
	return 0;
}

static void
test_alloc_pkt_from_non_eal_pthread(void **state __rte_unused)
{
	struct npool_stats t;
	int err;

	assert_int_equal(ut_in_pthread(alloc_pkt_in_thread, &err), 0);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &t), 0);
	assert_int_equal(t.pkt_allocs, 1);
	assert_int_equal(t.guarded_allocs, 1);
	assert_int_equal(t.allocs, 0);
	assert_int_equal(t.frees, 1);
}

static void
test_stock_mbuf_is_not_npool(void **state __rte_unused)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("ut_stock", 63, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_mbuf_ext_shared_info sh = { .free_cb = NULL };
	struct rte_mbuf *m;
	static char ext[256];

	assert_non_null(mp);
	m = rte_pktmbuf_alloc(mp);
	assert_false(npool_pkt_is_npool(m));
	assert_int_equal(npool_pkt_truesize(m),
			mp->header_size + mp->elt_size + mp->trailer_size);
	/* An external buffer with another free callback is not ours. */
	rte_mbuf_ext_refcnt_set(&sh, 2);
	rte_pktmbuf_attach_extbuf(m, ext, 0, sizeof(ext), &sh);
	assert_false(npool_pkt_is_npool(m));
	rte_pktmbuf_detach_extbuf(m);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, ut_teardown_check)
#define TD(f) T(f, ut_setup_default)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_build_pkt_puts_shinfo_at_fragment_tail),
		TD(test_build_pkt_small_frag_clamps_data_off),
		TD(test_build_pkt_buf_len_exact_values),
		TD(test_build_pkt_rejects_bad_arguments),
		TD(test_build_pkt_shinfo_only_fragment),
		TD(test_build_pkt_in_non_eal_pthread),
		TD(test_napi_alloc_pkt_room_headroom_truesize),
		TD(test_alloc_pkt_room_headroom_truesize),
		T(test_big_headroom_applies_to_both_flavors,
			setup_big_headroom),
		TD(test_napi_pkts_carved_downward_in_one_chunk),
		TD(test_alloc_pkt_above_max_len_einval),
		T(test_len_past_chunk_with_big_headroom_einval,
			setup_big_headroom),
		T(test_alloc_pkt_enobufs_when_heads_run_out, setup_64_heads),
		T(test_alloc_pkt_enomem_gives_head_back, setup_one_chunk),
		TD(test_consume_pkt_puts_head_in_lcore_cache),
		TD(test_consume_and_free_leave_the_same_clean_head),
		TD(test_consume_ignores_null_and_empty_bulk),
		TD(test_consume_keeps_packet_with_another_reference),
		TD(test_pkt_from_another_lcore_freed_here_is_remote),
		TD(test_alloc_pkt_from_non_eal_pthread),
		TD(test_stock_mbuf_is_not_npool),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_ut_pkt", tests);
}
