/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool instances per socket (npool_create()): which instance each thread
 * allocates from, frees going back to the owning instance from any
 * thread, per-instance usage, counters and audit, destroy and fallback to
 * the default instance, and the errors of create. The test machine has
 * one socket, so the two instances are socket 0's (lcores 0 and 1) and
 * SOCKET_ID_ANY's (the default one: non-EAL threads); a two-socket run is
 * make vm-test's numa guest.
 */
#include <pthread.h>

#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "unit_common.h"

#define CHUNKS 64
#define SMALL 32
#define HEADS 512

static struct npool *s0, *any;

static struct npool *
make(int socket)
{
	struct npool_conf c;
	struct npool *np;

	npool_conf_defaults(&c);
	c.tiny_len = ut_tiny_len;
	c.mid_len = ut_mid_len;
	c.nb_chunks = CHUNKS;
	c.nb_small_chunks = SMALL;
	c.nb_heads = HEADS;
	c.socket_id = socket;
	np = npool_create(&c);
	assert_non_null(np);
	return np;
}

static int
setup_two(void **state __rte_unused)
{
	s0 = make(0);
	any = make(SOCKET_ID_ANY);
	return 0;
}

static void
usage_zero(const struct npool *np)
{
	struct npool_usage u;

	assert_int_equal(npool_instance_usage_get(np, &u), 0);
	assert_int_equal(u.frags_out, 0);
	assert_int_equal(u.heads_out, 0);
}

/* Nothing out in either instance; both destroyed; no instance left. */
static int
teardown_two(void **state __rte_unused)
{
	struct npool_audit a;

	usage_zero(s0);
	usage_zero(any);
	assert_int_equal(npool_audit(&a), 0);
	assert_int_equal(a.chunks, 2 * (CHUNKS + SMALL));
	assert_int_equal(npool_destroy(s0), 0);
	assert_ptr_equal(npool_default(), any);
	assert_int_equal(npool_destroy(any), 0);
	assert_null(npool_default());
	assert_null(npool_local());
	assert_int_equal(npool_instance_list(NULL, 0), 0);
	return 0;
}

static int
local_is(void *arg)
{
	return npool_local() == arg ? 0 : -1;
}

static void
test_create_errors(void **state __rte_unused)
{
	struct npool_conf c;

	npool_conf_defaults(&c);
	c.tiny_len = ut_tiny_len;
	c.mid_len = ut_mid_len;
	c.nb_chunks = CHUNKS;
	c.nb_heads = HEADS;
	c.socket_id = RTE_MAX_NUMA_NODES;
	rte_errno = 0;
	assert_null(npool_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c.socket_id = -2;
	assert_null(npool_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	c.socket_id = 0;
	c.nb_heads = 10;
	assert_null(npool_create(&c));
	assert_int_equal(rte_errno, EINVAL);
	assert_int_equal(npool_instance_list(NULL, 0), 0);
	assert_int_equal(npool_destroy(NULL), -EINVAL);

	s0 = make(0);
	c.nb_heads = HEADS;
	rte_errno = 0;
	assert_null(npool_create(&c));
	assert_int_equal(rte_errno, EEXIST);
	/* One instance made by npool_create(): npool_init() refuses. */
	assert_int_equal(npool_init(NULL), -EALREADY);
	assert_int_equal(rte_errno, EALREADY);
	assert_int_equal(npool_destroy(s0), 0);
	assert_int_equal(npool_destroy(s0), -EINVAL);
}

static void
test_lcore_map(void **state __rte_unused)
{
	struct npool *list[4];

	assert_int_equal(npool_instance_list(list, RTE_DIM(list)), 2);
	assert_ptr_equal(list[0], s0);
	assert_ptr_equal(list[1], any);
	assert_ptr_equal(npool_lookup_socket(0), s0);
	assert_ptr_equal(npool_lookup_socket(SOCKET_ID_ANY), any);
	assert_null(npool_lookup_socket(1));
	assert_int_equal(npool_socket_id(s0), 0);
	assert_int_equal(npool_socket_id(any), SOCKET_ID_ANY);
	assert_string_equal(npool_name(s0), "s0");
	assert_string_equal(npool_name(any), "any");
	/* SOCKET_ID_ANY's is the default, made second or not. */
	assert_ptr_equal(npool_default(), any);
	assert_ptr_equal(npool_local(), s0);
	assert_int_equal(ut_on_other_lcore(local_is, s0), 0);
	assert_int_equal(ut_in_pthread(local_is, any), 0);
	assert_string_equal(npool_instance_head_pool(s0)->name,
			"npool_heads_s0");
	assert_string_equal(npool_head_pool()->name, "npool_heads");
	assert_int_equal(npool_instance_head_pool(s0)->socket_id, 0);
}

/* Memory socket of @p p, as rte_mem_virt2memseg() sees it. */
static int
memseg_socket(const void *p)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(p, NULL);

	return ms != NULL ? ms->socket_id : -99;
}

struct objs {
	void *frag[8];
	struct rte_mbuf *pkt[8];
};

static int
alloc_objs(void *arg)
{
	struct objs *o = arg;
	unsigned int i;

	for (i = 0; i < RTE_DIM(o->frag); i++) {
		o->frag[i] = rte_lcore_id() == LCORE_ID_ANY ?
			npool_alloc_frag(100) : npool_napi_alloc_frag(100);
		o->pkt[i] = rte_lcore_id() == LCORE_ID_ANY ?
			npool_alloc_pkt(64) : npool_napi_alloc_pkt(64);
		if (o->frag[i] == NULL || o->pkt[i] == NULL)
			return -1;
	}
	return 0;
}

static int
free_objs(void *arg)
{
	struct objs *o = arg;
	unsigned int i;

	for (i = 0; i < RTE_DIM(o->frag); i++) {
		npool_free_frag(o->frag[i]);
		npool_napi_consume_pkt(o->pkt[i]);
	}
	return 0;
}

static void
assert_all_of(const struct objs *o, struct npool *np)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(o->frag); i++) {
		assert_ptr_equal(npool_of_addr(o->frag[i]), np);
		assert_ptr_equal(npool_of_addr(o->pkt[i]->buf_addr), np);
		assert_ptr_equal(o->pkt[i]->pool, npool_instance_head_pool(np));
		assert_int_equal(memseg_socket(o->frag[i]),
				memseg_socket(np->arena.base));
		assert_int_not_equal(npool_frag_iova(o->frag[i]),
				RTE_BAD_IOVA);
	}
}

static void
test_alloc_local_free_remote(void **state __rte_unused)
{
	struct objs lc1, th;
	struct npool_usage u;
	struct npool_stats st;

	/* lcore 1 (socket 0) allocates from s0, a pthread from any. */
	assert_int_equal(ut_on_other_lcore(alloc_objs, &lc1), 0);
	assert_int_equal(ut_in_pthread(alloc_objs, &th), 0);
	assert_all_of(&lc1, s0);
	assert_all_of(&th, any);
	assert_int_equal(memseg_socket(s0->arena.base), 0);
	assert_int_equal(npool_instance_usage_get(s0, &u), 0);
	assert_int_equal(u.socket_id, 0);
	assert_int_equal(u.frags_out, 16);
	assert_int_equal(u.heads_out, 8);
	assert_int_equal(npool_instance_usage_get(any, &u), 0);
	assert_int_equal(u.frags_out, 16);
	assert_int_equal(u.heads_out, 8);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.socket_id, SOCKET_ID_ANY);
	assert_int_equal(u.frags_out, 32);
	assert_int_equal(u.heads_out, 16);
	assert_int_equal(npool_frags_outstanding(), 32);

	/* Each freed by the other side: back to its owner. */
	assert_int_equal(ut_in_pthread(free_objs, &lc1), 0);
	assert_int_equal(ut_on_other_lcore(free_objs, &th), 0);
	usage_zero(s0);
	usage_zero(any);
	/* The frees count in the owner's slots of the freeing thread. */
	assert_int_equal(npool_instance_stats_sum(s0, &st), 0);
	assert_int_equal(st.allocs + st.guarded_allocs, 16);
	assert_int_equal(st.frees, 16);
	assert_int_equal(st.remote_frees, 16);
	assert_int_equal(npool_instance_stats_sum(any, &st), 0);
	assert_int_equal(st.guarded_allocs, 16);
	assert_int_equal(st.frees, 16);
	assert_int_equal(npool_stats_sum(&st), 0);
	assert_int_equal(st.frees, 32);
}

static void
test_reset_keeps_outstanding(void **state __rte_unused)
{
	struct npool_audit a;
	struct npool_stats st;
	void *p[3];
	unsigned int i;

	for (i = 0; i < RTE_DIM(p); i++)
		p[i] = npool_napi_alloc_frag(256);
	npool_stats_reset();
	assert_int_equal(npool_stats_sum(&st), 0);
	assert_int_equal(st.allocs, 0);
	assert_int_equal(npool_frags_outstanding(), 3);
	assert_int_equal(npool_instance_frags_outstanding(s0), 3);
	assert_int_equal(npool_instance_frags_outstanding(any), 0);
	/* The audit checks the refcounts against the counters whole. */
	assert_int_equal(npool_audit(&a), 0);
	assert_int_equal(a.frags_out, 3);
	assert_int_equal(a.frags_counted, 3);
	npool_free_frag(p[0]);
	assert_int_equal(npool_stats_sum(&st), 0);
	assert_int_equal(st.frees, 1);
	assert_int_equal(npool_frags_outstanding(), 2);
	npool_free_frag(p[1]);
	npool_free_frag(p[2]);
}

static void
test_destroy_busy_then_fallback(void **state __rte_unused)
{
	void *p = npool_napi_alloc_frag(64);
	struct rte_mbuf *m = npool_napi_alloc_pkt(64);

	assert_ptr_equal(npool_of_addr(p), s0);
	assert_int_equal(npool_destroy(s0), -EBUSY);
	npool_free_frag(p);
	assert_int_equal(npool_destroy(s0), -EBUSY);
	rte_pktmbuf_free(m);
	/* The chunk the main lcore's cache holds is drained by destroy. */
	assert_int_equal(npool_destroy(s0), 0);
	assert_null(npool_lookup_socket(0));
	assert_ptr_equal(npool_local(), any);
	assert_int_equal(ut_on_other_lcore(local_is, any), 0);
	p = npool_napi_alloc_frag(64);
	assert_ptr_equal(npool_of_addr(p), any);
	npool_free_frag(p);
	/* Made again, it serves socket 0's lcores again. */
	s0 = make(0);
	assert_ptr_equal(npool_local(), s0);
}

static void
test_free_of_unknown_address(void **state __rte_unused)
{
	static char not_npool[64];
	struct npool_stats before = ut_stats_sum(), after;

	assert_null(npool_of_addr(not_npool));
	assert_int_equal(npool_frag_iova(not_npool), RTE_BAD_IOVA);
	if (!NPOOL_DEBUG) {
		npool_free_frag(not_npool);
		after = ut_stats_sum();
		assert_int_equal(after.failures, before.failures + 1);
	}
}

static void
test_fini_frees_all(void **state __rte_unused)
{
	void *p;

	s0 = make(0);
	any = make(SOCKET_ID_ANY);
	p = npool_alloc_frag(64);
	assert_int_equal(npool_fini(), -EBUSY);
	assert_int_equal(npool_instance_list(NULL, 0), 2);
	npool_free_frag(p);
	assert_int_equal(npool_fini(), 0);
	assert_int_equal(npool_instance_list(NULL, 0), 0);
	assert_null(npool_default());
	assert_int_equal(npool_fini(), -ENODEV);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test_setup_teardown(test_lcore_map, setup_two,
				teardown_two),
		cmocka_unit_test_setup_teardown(test_alloc_local_free_remote,
				setup_two, teardown_two),
		cmocka_unit_test_setup_teardown(test_reset_keeps_outstanding,
				setup_two, teardown_two),
		cmocka_unit_test_setup_teardown(test_destroy_busy_then_fallback,
				setup_two, teardown_two),
		cmocka_unit_test_setup_teardown(test_free_of_unknown_address,
				setup_two, teardown_two),
		cmocka_unit_test(test_fini_frees_all),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return UT_MAIN("npool_instance", tests);
}
