/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What live packets pin, in bytes, by class (npool_usage, npool.h): a
 * tiny packet its object, a small packet its 4 KiB small chunk, a big one
 * its NPOOL_CHUNK_SIZE chunk, each head + fragment packet its head; a
 * chunk a cache still carves with nothing out is held, not pinned.
 */
#include <rte_mbuf.h>

#include "unit_common.h"

/* Largest len of a small packet at the default headroom: a 1 KiB
 * fragment, four to a small chunk. */
#define SMALL_MAX (NPOOL_PKT_SMALL_FRAGSZ - RTE_PKTMBUF_HEADROOM - \
		NPOOL_SHINFO_SIZE)

static struct npool_usage
usage(void)
{
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	return u;
}

static struct rte_mbuf *
alloc(uint32_t len)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(len);

	assert_non_null(m);
	return m;
}

/* Three tiny, two small, one big packet kept: each class its bytes. */
static void
test_pinned_bytes_per_class(void **state __rte_unused)
{
	struct rte_mbuf *tiny[3], *small[2], *big;
	struct npool_usage u;
	unsigned int i;

	for (i = 0; i < RTE_DIM(tiny); i++)
		tiny[i] = alloc(60);
	for (i = 0; i < RTE_DIM(small); i++)
		small[i] = alloc(600);
	big = alloc(1500);
	u = usage();
	/* The default tiny object: 64 B header, 128 B mbuf, 64 + 256 B. */
	assert_int_equal(u.small_pkt_size, 512);
	assert_int_equal(u.small_pkts_out, 3);
	assert_int_equal(u.pinned_tiny, 3 * 512);
	/* Both small packets in one small chunk, the big one in a chunk. */
	assert_int_equal(u.small_pinned, 1);
	assert_int_equal(u.pinned_small, NPOOL_SMALL_CHUNK_SIZE);
	assert_int_equal(u.big_pinned, 1);
	assert_int_equal(u.pinned_big, NPOOL_CHUNK_SIZE);
	assert_int_equal(u.heads_out, 3);
	assert_int_equal(u.pinned_heads, 3 * u.head_size);
	assert_int_equal(u.head_size, 64 + sizeof(struct rte_mbuf));
	assert_int_equal(u.pinned, 3 * 512 + NPOOL_SMALL_CHUNK_SIZE +
			NPOOL_CHUNK_SIZE + 3 * u.head_size);
	/* The big packet goes: its cache still holds the chunk (in use),
	 * nothing pins it. */
	npool_napi_consume_pkt(big);
	u = usage();
	assert_int_equal(u.big_in_use, 1);
	assert_int_equal(u.big_pinned, 0);
	assert_int_equal(u.pinned_big, 0);
	assert_int_equal(u.pinned, 3 * 512 + NPOOL_SMALL_CHUNK_SIZE +
			2 * u.head_size);
	for (i = 0; i < RTE_DIM(small); i++)
		npool_napi_consume_pkt(small[i]);
	for (i = 0; i < RTE_DIM(tiny); i++)
		npool_napi_consume_pkt(tiny[i]);
	u = usage();
	assert_int_equal(u.small_in_use, 1);
	assert_int_equal(u.pinned, 0);
}

/* Five packets of four to a small chunk pin two chunks; the four of the
 * first back, one: the first is the cache's previous chunk then, held
 * with nothing out, the second pinned by the fifth. */
static void
test_small_chunks_pinned_by_what_is_out(void **state __rte_unused)
{
	struct rte_mbuf *m[5];
	struct npool_usage u;
	unsigned int i;

	for (i = 0; i < RTE_DIM(m); i++)
		m[i] = alloc(SMALL_MAX);
	u = usage();
	assert_int_equal(u.small_in_use, 2);
	assert_int_equal(u.small_pinned, 2);
	assert_int_equal(u.pinned_small, 2 * NPOOL_SMALL_CHUNK_SIZE);
	for (i = 0; i < 4; i++)
		npool_napi_consume_pkt(m[i]);
	u = usage();
	assert_int_equal(u.small_pinned, 1);
	assert_int_equal(u.pinned_small, NPOOL_SMALL_CHUNK_SIZE);
	assert_int_equal(u.pinned, NPOOL_SMALL_CHUNK_SIZE + u.head_size);
	npool_napi_consume_pkt(m[4]);
	assert_int_equal(usage().pinned, 0);
}

/* Kept on one lcore, counted the same from another: the cache of the
 * lcore that carved holds the chunk, the fragment out pins it. */
static int
keep_big(void *arg)
{
	*(struct rte_mbuf **)arg = npool_napi_alloc_pkt(1500);
	return *(struct rte_mbuf **)arg != NULL ? 0 : -1;
}

static void
test_pinned_seen_from_another_lcore(void **state __rte_unused)
{
	struct rte_mbuf *m = NULL;
	struct npool_usage u;

	assert_int_equal(ut_on_other_lcore(keep_big, &m), 0);
	u = usage();
	assert_int_equal(u.big_pinned, 1);
	assert_int_equal(u.pinned, NPOOL_CHUNK_SIZE + u.head_size);
	rte_pktmbuf_free(m);
	u = usage();
	assert_int_equal(u.big_pinned, 0);
	assert_int_equal(u.pinned, 0);
}

static void
test_usage_errors(void **state __rte_unused)
{
	rte_errno = 0;
	assert_int_equal(npool_usage_get(NULL), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_int_equal(npool_instance_usage_get(NULL, NULL), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
}

#define TD(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_pinned_bytes_per_class),
		TD(test_small_chunks_pinned_by_what_is_out),
		TD(test_pinned_seen_from_another_lcore),
		TD(test_usage_errors),
	};

	return UT_MAIN("npool_ut_usage", tests);
}
