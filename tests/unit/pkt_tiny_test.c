/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tiny packets (lib/npool/npool_pkt.h, "Tiny packets"): up to
 * npool_conf.tiny_len bytes of room a packet of npool_napi_alloc_pkt(),
 * npool_alloc_pkt(), their bulk flavour and copy-break is one direct
 * mbuf of the small-packet pool: freed by DPDK's plain path
 * (rte_pktmbuf_free()), cloned, chained with head + fragment packets,
 * its truesize exactly what it pins (at most 1 KiB), counted in
 * npool_usage; above tiny_len the head + fragment packet stays. Each
 * test ends with the leak check (ut_teardown_check()).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "npool_pkt_bulk.h"
#include "npool_rx.h"
#include "unit_common.h"

static struct npool_usage
usage(void)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	return u;
}

static void
assert_tiny(const struct rte_mbuf *m)
{
	assert_non_null(m);
	assert_true(RTE_MBUF_DIRECT(m));
	assert_false(npool_pkt_is_npool(m));
	assert_ptr_equal(m->pool, npool_default()->small_pool);
	/* The kernel's NET_SKB_PAD, not the 128 B of other packets. */
	assert_int_equal(m->data_off, NPOOL_PKT_TINY_HEADROOM);
	assert_int_equal(m->data_off, 64);
	assert_int_equal(m->data_len, 0);
	assert_int_equal(m->pkt_len, 0);
	assert_int_equal(m->nb_segs, 1);
	assert_null(m->next);
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_int_equal(m->ol_flags, 0);
	assert_true(rte_pktmbuf_tailroom(m) >= NPOOL_PKT_SMALL_LEN);
}

static void
test_tiny_pkt_is_one_direct_mbuf(void **state __rte_unused)
{
	struct rte_mbuf *t = npool_napi_alloc_pkt(64);
	struct rte_mbuf *g = npool_alloc_pkt(NPOOL_PKT_SMALL_LEN);
	struct rte_mbuf *b = npool_napi_alloc_pkt(NPOOL_PKT_SMALL_LEN + 1);
	struct npool_usage u = usage();

	assert_tiny(t);
	assert_tiny(g);
	/* Above tiny_len: a head and a fragment. */
	assert_true(npool_pkt_is_npool(b));
	assert_int_equal(u.small_pkts_out, 2);
	assert_int_equal(u.heads_out, 1);
	/* Truesize is the object, and the object is all a kept one pins. */
	assert_int_equal(npool_pkt_truesize(t), u.small_pkt_size);
	/* 64 B mempool header + 128 B mbuf + 64 B headroom + 256 B. */
	assert_int_equal(u.small_pkt_size, 512);
	assert_true(u.small_pkts >= 8);
	rte_pktmbuf_free(t);
	rte_pktmbuf_free(g);
	rte_pktmbuf_free(b);
	assert_int_equal(usage().small_pkts_out, 0);
}

/* DPDK's plain free path, as any PMD's TX completion takes it. */
static void
test_tiny_pkt_freed_by_stock_path(void **state __rte_unused)
{
	struct rte_mbuf *m[32];
	unsigned int i;

	for (i = 0; i < RTE_DIM(m); i++) {
		m[i] = npool_napi_alloc_pkt(60);
		assert_tiny(m[i]);
		memset(rte_pktmbuf_append(m[i], 60), (int)i, 60);
	}
	rte_pktmbuf_free_bulk(m, 16);
	for (i = 16; i < RTE_DIM(m); i++)
		rte_pktmbuf_free(m[i]);
	assert_int_equal(usage().small_pkts_out, 0);
}

static void
test_tiny_pkt_clone_and_chain(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(64);
	struct rte_mbuf *b = npool_napi_alloc_pkt(1000);
	struct rte_mbuf *c;

	assert_tiny(m);
	memset(rte_pktmbuf_append(m, 64), 0x5a, 64);
	memset(rte_pktmbuf_append(b, 1000), 0xa5, 1000);
	/* A clone references the tiny object: it stays until both go. */
	c = rte_pktmbuf_clone(m, npool_head_pool());
	assert_non_null(c);
	assert_int_equal(rte_mbuf_refcnt_read(m), 2);
	assert_memory_equal(rte_pktmbuf_mtod(c, void *),
			rte_pktmbuf_mtod(m, void *), 64);
	npool_napi_consume_pkt(m);
	assert_int_equal(usage().small_pkts_out, 1);
	/* The clone chained in front of a head + fragment packet. */
	assert_int_equal(rte_pktmbuf_chain(c, b), 0);
	assert_int_equal(c->pkt_len, 1064);
	rte_pktmbuf_free(c);
	assert_int_equal(usage().small_pkts_out, 0);
	assert_int_equal(usage().heads_out, 0);
}

static void
test_tiny_bulk_and_consume(void **state __rte_unused)
{
	struct rte_mbuf *m[NPOOL_PKT_BULK_MAX];
	uint32_t lens[NPOOL_PKT_BULK_MAX];
	unsigned int i;

	for (i = 0; i < RTE_DIM(lens); i++)
		lens[i] = (i * 7) % (NPOOL_PKT_SMALL_LEN + 1);
	assert_int_equal(npool_napi_alloc_pkt_bulk(m, lens, RTE_DIM(m)),
			RTE_DIM(m));
	for (i = 0; i < RTE_DIM(m); i++)
		assert_tiny(m[i]);
	assert_int_equal(usage().small_pkts_out, RTE_DIM(m));
	npool_napi_consume_bulk(m, RTE_DIM(m));
	/* Mixed sizes: each its own shape, in order. */
	lens[3] = 2000;
	assert_int_equal(npool_napi_alloc_pkt_bulk(m, lens, 8), 8);
	assert_true(npool_pkt_is_npool(m[3]));
	assert_tiny(m[4]);
	npool_napi_consume_bulk(m, 8);
}

static int
alloc_in_thread(void *arg __rte_unused)
{
	struct rte_mbuf *m = npool_alloc_pkt(64);

	if (m == NULL || m->pool != npool_default()->small_pool)
		return -1;
	rte_pktmbuf_free(m);
	return 0;
}

static void
test_tiny_pkt_from_non_eal_thread(void **state __rte_unused)
{
	assert_int_equal(ut_in_pthread(alloc_in_thread, NULL), 0);
}

/* Copy-break makes tiny packets; the RX mbufs go back at once. */
static void
test_copybreak_makes_tiny_pkts(void **state __rte_unused)
{
	struct rte_mempool *rx = rte_pktmbuf_pool_create("ut_tiny_rx", 127,
			0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_mbuf *m[32], *orig[32];
	unsigned int i;

	assert_non_null(rx);
	for (i = 0; i < RTE_DIM(m); i++) {
		m[i] = orig[i] = rte_pktmbuf_alloc(rx);
		assert_non_null(m[i]);
		memset(rte_pktmbuf_append(m[i], (uint16_t)(60 + i * 8)),
				(int)i, 60 + i * 8);
		m[i]->port = 3;
		m[i]->hash.rss = i;
		m[i]->ol_flags = RTE_MBUF_F_RX_RSS_HASH;
	}
	/* Up to 256 B copied (i < 25), the rest kept. */
	assert_int_equal(npool_rx_copybreak(m, RTE_DIM(m), 256), 25);
	for (i = 0; i < RTE_DIM(m); i++) {
		uint8_t want[320];

		memset(want, (int)i, sizeof(want));
		if (i >= 25) {
			assert_ptr_equal(m[i], orig[i]);
		} else {
			assert_true(RTE_MBUF_DIRECT(m[i]));
			assert_ptr_equal(m[i]->pool, npool_default()->small_pool);
			assert_int_equal(m[i]->port, 3);
			assert_int_equal(m[i]->hash.rss, i);
			assert_int_equal(m[i]->ol_flags,
					RTE_MBUF_F_RX_RSS_HASH);
		}
		assert_int_equal(m[i]->pkt_len, 60 + i * 8);
		assert_int_equal(m[i]->data_len, 60 + i * 8);
		assert_memory_equal(rte_pktmbuf_mtod(m[i], void *), want,
				60 + i * 8);
	}
	assert_int_equal(rte_mempool_avail_count(rx), 127 - 7);
	rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	assert_int_equal(rte_mempool_avail_count(rx), 127);
	rte_mempool_free(rx);
}

/*
 * Every length 1 .. 256 copied byte for byte into a tiny packet, and not
 * one byte written beyond it (the copy is in fixed 32-byte pieces, the
 * last one ending at the length): the bytes after it keep a canary. A
 * shared RX mbuf (refcnt 2) and a chained one are not copied.
 */
static void
test_copybreak_every_length_exact(void **state __rte_unused)
{
	struct rte_mempool *rx = rte_pktmbuf_pool_create("ut_tiny_rx2", 63,
			0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_mbuf *m[2], *keep;
	uint32_t len, j;

	assert_non_null(rx);
	for (len = 1; len <= NPOOL_PKT_SMALL_LEN; len++) {
		struct rte_mbuf *t = npool_napi_alloc_pkt(NPOOL_PKT_SMALL_LEN);
		uint8_t *d, *s;

		/* A used object: canary over all its room, then freed. */
		assert_non_null(t);
		memset(rte_pktmbuf_mtod(t, void *), 0xee,
				rte_pktmbuf_tailroom(t));
		rte_pktmbuf_free(t);
		m[0] = rte_pktmbuf_alloc(rx);
		assert_non_null(m[0]);
		s = (uint8_t *)rte_pktmbuf_append(m[0], (uint16_t)len);
		for (j = 0; j < len; j++)
			s[j] = (uint8_t)(j * 7 + len);
		/* A second, shared: it stays. */
		m[1] = keep = rte_pktmbuf_alloc(rx);
		assert_non_null(keep);
		rte_pktmbuf_append(keep, 60);
		rte_mbuf_refcnt_update(keep, 1);
		assert_int_equal(npool_rx_copybreak(m, 2, 256), 1);
		assert_ptr_equal(m[0]->pool, npool_default()->small_pool);
		assert_ptr_equal(m[1], keep);
		d = rte_pktmbuf_mtod(m[0], uint8_t *);
		assert_int_equal(m[0]->pkt_len, len);
		for (j = 0; j < len; j++)
			assert_int_equal(d[j], (uint8_t)(j * 7 + len));
		/* The same object again (LIFO cache): nothing past len. */
		for (j = len; j < NPOOL_PKT_SMALL_LEN; j++)
			assert_int_equal(d[j], 0xee);
		rte_pktmbuf_free(m[0]);
		rte_pktmbuf_free(keep);
		assert_int_equal(rte_mbuf_refcnt_read(keep), 1);
		rte_pktmbuf_free(keep);
	}
	assert_int_equal(rte_mempool_avail_count(rx), 63);
	rte_mempool_free(rx);
}

/* npool_rx_copybreak_begin() from a thread without an lcore id. */
static int
begin_in_thread(void *arg)
{
	struct npool_rx_cb cb;

	rte_errno = 0;
	if (npool_rx_copybreak_begin(&cb, arg, 1, 64) != -ENODEV)
		return -1;
	return rte_errno == ENODEV ? 0 : -1;
}

static void
expect_begin_fails(struct rte_mbuf *const *pkts, uint16_t n,
		uint16_t copybreak, int err)
{
	struct npool_rx_cb cb;

	rte_errno = 0;
	assert_int_equal(npool_rx_copybreak_begin(&cb, pkts, n, copybreak),
			-err);
	assert_int_equal(rte_errno, err);
}

/*
 * npool_rx_copybreak_begin() refuses a burst with a negative errno, also
 * in rte_errno: -EINVAL for a bad size or copy-break length, -ENODEV off
 * an lcore, -ENOBUFS when the tiny packets run out; nothing is taken.
 */
static void
test_copybreak_begin_errors(void **state __rte_unused)
{
	struct rte_mempool *sp = npool_default()->small_pool;
	unsigned int avail = rte_mempool_avail_count(sp), nb = 0;
	struct rte_mbuf *m = npool_alloc_pkt(64), **held;

	assert_non_null(m);
	expect_begin_fails(&m, 0, 64, EINVAL);
	expect_begin_fails(&m, NPOOL_PKT_BULK_MAX + 1, 64, EINVAL);
	expect_begin_fails(&m, 1, NPOOL_PKT_SMALL_LEN + 1, EINVAL);
	assert_int_equal(ut_in_pthread(begin_in_thread, &m), 0);
	held = calloc(avail, sizeof(*held));
	assert_non_null(held);
	while (nb < avail && rte_mempool_get(sp, (void **)&held[nb]) == 0)
		nb++;
	expect_begin_fails(&m, 1, 64, ENOBUFS);
	rte_mempool_put_bulk(sp, (void **)held, nb);
	free(held);
	rte_pktmbuf_free(m);
	assert_int_equal(rte_mempool_avail_count(sp), avail);
}

/* Copy-break @p n RX mbufs of @p rx of 60 + i bytes, each with @p v in
 * its dynamic field at @p off (when @p off >= 0) and 0xa5 in the rest of
 * the dynamic field area; @p out their copies. */
static void
copybreak_with_dynfield(struct rte_mempool *rx, int off, uint64_t v,
		struct rte_mbuf **out, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		out[i] = rte_pktmbuf_alloc(rx);
		assert_non_null(out[i]);
		memset(rte_pktmbuf_append(out[i], (uint16_t)(60 + i)),
				(int)i, 60 + i);
		memset(out[i]->dynfield1, 0xa5, sizeof(out[i]->dynfield1));
		if (off >= 0)
			*RTE_MBUF_DYNFIELD(out[i], off, uint64_t *) = v + i;
	}
	assert_int_equal(npool_rx_copybreak(out, (uint16_t)n, 256), n);
	for (i = 0; i < n; i++)
		assert_ptr_equal(out[i]->pool, npool_default()->small_pool);
}

/*
 * A dynamic field registered after copy-break has run (as dpdk-dumpcap
 * registers its own when it starts) is copied from then on: copy-break
 * looks at the registrations once a burst, not once a process.
 */
static void
test_copybreak_dynfield_registered_late(void **state __rte_unused)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "npool_ut_late_dynfield",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	struct rte_mempool *rx = rte_pktmbuf_pool_create("ut_tiny_rx3", 63,
			0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	const uint64_t v = UINT64_C(0x1122334455667788);
	struct rte_mbuf *m[8];
	unsigned int i;
	int off;

	assert_non_null(rx);
	/* Before: the tiny packets of the next burst are these again. */
	assert_true(rte_mbuf_dynfield_lookup(desc.name, NULL) < 0);
	copybreak_with_dynfield(rx, -1, 0, m, RTE_DIM(m));
	rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	off = rte_mbuf_dynfield_register(&desc);
	assert_true(off >= 0);
	copybreak_with_dynfield(rx, off, v, m, RTE_DIM(m));
	for (i = 0; i < RTE_DIM(m); i++) {
		struct rte_mbuf want;

		assert_int_equal(*RTE_MBUF_DYNFIELD(m[i], off, uint64_t *),
				v + i);
		/* The whole area, as rte_pktmbuf_copy() copies it. */
		memset(want.dynfield1, 0xa5, sizeof(want.dynfield1));
		*RTE_MBUF_DYNFIELD(&want, off, uint64_t *) = v + i;
		assert_memory_equal(m[i]->dynfield1, want.dynfield1,
				sizeof(want.dynfield1));
	}
	rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	assert_int_equal(rte_mempool_avail_count(rx), 63);
	rte_mempool_free(rx);
}

#define TD(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_tiny_pkt_is_one_direct_mbuf),
		TD(test_tiny_pkt_freed_by_stock_path),
		TD(test_tiny_pkt_clone_and_chain),
		TD(test_tiny_bulk_and_consume),
		TD(test_tiny_pkt_from_non_eal_thread),
		TD(test_copybreak_makes_tiny_pkts),
		TD(test_copybreak_every_length_exact),
		TD(test_copybreak_begin_errors),
		/* Last: the field it registers stays. */
		TD(test_copybreak_dynfield_registered_late),
	};

	return UT_MAIN("npool_ut_pkt_tiny", tests);
}
