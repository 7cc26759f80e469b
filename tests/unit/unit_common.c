/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "test_eal.h"
#include "unit_common.h"

static char ut_prefix[64];

int
ut_eal_init(const char *prefix, int extra_argc, const char **extra_argv)
{
	const struct test_eal e = {
		.prog = "npool_unit",
		.prefix = ut_prefix,
	};

	snprintf(ut_prefix, sizeof(ut_prefix), "%s", prefix);
	if (test_eal_init(&e, extra_argc, extra_argv) != 0)
		return -1;
	if (rte_lcore_count() < 2) {
		fprintf(stderr, "need 2 lcores, have %u\n", rte_lcore_count());
		return -1;
	}
	return 0;
}

void
ut_remove_runtime_dir(const char *prefix)
{
	test_eal_remove_runtime_dir(prefix);
}

void
ut_eal_cleanup(void)
{
	rte_eal_cleanup();
	ut_remove_runtime_dir(ut_prefix);
}

int
ut_main(const char *prefix, int extra_argc, const char **extra_argv,
		const char *group, const struct CMUnitTest *tests, size_t n)
{
	int ret;

	if (ut_eal_init(prefix, extra_argc, extra_argv) != 0)
		return 1;
	ret = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
	ut_eal_cleanup();
	return ret;
}

/*
 * A launch on a worker lcore. DPDK's EAL tells rte_eal_wait_lcore() that
 * the function returned by an atomic store inside librte_eal, which
 * ThreadSanitizer does not see (the library is not instrumented): every
 * result the worker wrote would then be reported as racing with the
 * reads after the wait. The worker's release store of @c done after the
 * function and the waiter's acquire load after rte_eal_wait_lcore() make
 * the same edge in instrumented code. (The launch itself reaches the
 * worker through a pipe, which TSan sees.)
 */
struct ut_launch {
	int (*fn)(void *);
	void *arg;
	int done;
};

static struct ut_launch ut_launches[RTE_MAX_LCORE];

static int
ut_launch_main(void *p)
{
	struct ut_launch *l = p;
	int ret = l->fn(l->arg);

	__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	return ret;
}

int
ut_remote_launch(int (*fn)(void *), void *arg, unsigned int lcore)
{
	struct ut_launch *l = &ut_launches[lcore];

	l->fn = fn;
	l->arg = arg;
	__atomic_store_n(&l->done, 0, __ATOMIC_RELAXED);
	return rte_eal_remote_launch(ut_launch_main, l, lcore);
}

int
ut_wait_lcore(unsigned int lcore)
{
	int ret = rte_eal_wait_lcore(lcore);

	/* Set before the lcore went back to WAIT: no wait here. */
	while (!__atomic_load_n(&ut_launches[lcore].done, __ATOMIC_ACQUIRE))
		rte_pause();
	return ret;
}

int
ut_on_other_lcore(int (*fn)(void *), void *arg)
{
	if (ut_remote_launch(fn, arg, UT_OTHER_LCORE) != 0)
		return -EBUSY;
	return ut_wait_lcore(UT_OTHER_LCORE);
}

struct ut_thread {
	int (*fn)(void *);
	void *arg;
	int ret;
};

static void *
ut_thread_main(void *p)
{
	struct ut_thread *t = p;

	t->ret = t->fn(t->arg);
	return NULL;
}

int
ut_in_pthread(int (*fn)(void *), void *arg)
{
	struct ut_thread t = { .fn = fn, .arg = arg, .ret = -1 };
	pthread_t tid;

	if (pthread_create(&tid, NULL, ut_thread_main, &t) != 0)
		return -EAGAIN;
	pthread_join(tid, NULL);
	return t.ret;
}

uint32_t ut_tiny_len = NPOOL_PKT_SMALL_LEN;
uint32_t ut_mid_len;

int
ut_npool_init(uint32_t nb_chunks, uint32_t nb_small, uint32_t nb_heads,
		uint32_t headroom)
{
	struct npool_conf conf;

	npool_conf_defaults(&conf);
	if (nb_chunks != 0)
		conf.nb_chunks = nb_chunks;
	conf.nb_small_chunks = nb_small;
	if (nb_heads != 0)
		conf.nb_heads = nb_heads;
	if (headroom != 0)
		conf.headroom = headroom;
	conf.tiny_len = ut_tiny_len;
	conf.mid_len = ut_mid_len;
	return npool_init(&conf);
}

int
ut_setup_default(void **state __rte_unused)
{
	struct npool_conf conf;

	npool_conf_defaults(&conf);
	conf.tiny_len = ut_tiny_len;
	conf.mid_len = ut_mid_len;
	return npool_init(&conf) == 0 ? 0 : -1;
}

void
ut_assert_each_chunk_free_once(void)
{
	struct npool_arena *a = &npool_default()->arena;
	const uint32_t total = a->nb_chunks + a->nb_small;
	struct npool_chunk **got = calloc(total + 1, sizeof(*got));
	uint8_t *seen = calloc(total, 1);
	uint32_t n = 0, i;
	int small;

	assert_non_null(got);
	assert_non_null(seen);
	/*
	 * Take every free chunk out: each one exactly once, of its own
	 * kind, with no reference left. A chunk put twice would come out
	 * twice (or push another one out of a full free list).
	 */
	for (small = 0; small <= 1; small++) {
		struct npool_chunk *c;

		while (n <= total && (c = npool_arena_get(a, small)) != NULL) {
			assert_true(n < total);
			assert_int_equal(c->index < a->nb_chunks, !small);
			assert_int_equal(seen[c->index], 0);
			assert_int_equal(c->refcnt, 0);
			seen[c->index] = 1;
			got[n++] = c;
		}
	}
	assert_int_equal(n, total);
	for (i = n; i-- > 0; )
		npool_arena_put(a, got[i]);
	free(got);
	free(seen);
}

int
ut_teardown_check(void **state __rte_unused)
{
	struct npool_arena *a = &npool_default()->arena;
	struct npool_usage u;

	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, 0);
	assert_int_equal(u.heads_out, 0);
	assert_int_equal(u.small_pkts_out, 0);
	assert_int_equal(rte_mempool_avail_count(npool_head_pool()), u.heads);
	npool_frag_cache_drain_all();
	assert_int_equal(npool_arena_in_use(a), 0);
	assert_int_equal(npool_arena_free_count(a, 0), a->nb_chunks);
	assert_int_equal(npool_arena_free_count(a, 1), a->nb_small);
	ut_assert_each_chunk_free_once();
	assert_int_equal(npool_fini(), 0);
	assert_null(npool_default());
	return 0;
}

struct npool_stats
ut_stats_sum(void)
{
	struct npool_stats s;

	assert_int_equal(npool_stats_sum(&s), 0);
	return s;
}

struct npool_stats
ut_stats_self(void)
{
	struct npool_stats s;

	assert_int_equal(npool_stats_get(npool_slot(), &s), 0);
	return s;
}

struct npool_chunk *
ut_chunk_of(const void *p)
{
	return npool_arena_chunk(&npool_default()->arena, p);
}

struct npool_frag_cache *
ut_napi_cache(void)
{
	return &npool_default()->lc[npool_slot()].napi;
}

struct npool_frag_cache *
ut_guarded_cache(void)
{
	return &npool_default()->lc[npool_slot()].guarded;
}

/* Chunks of kind @p small slot @p i keeps. */
static unsigned int
pcp_count_slot(unsigned int i, int small)
{
	const struct npool_lcore *lc = &npool_default()->lc[i];
	unsigned int k, n = 0;

	for (k = 0; k < lc->pcp_n; k++)
		n += !(lc->pcp[k]->flags & NPOOL_CHUNK_F_SMALL) == !small;
	return n;
}

/* Chunks of kind @p small the lcores keep. */
static unsigned int
pcp_count(int small)
{
	unsigned int i, n = 0;

	for (i = 0; i < NPOOL_NON_EAL_SLOT; i++)
		n += pcp_count_slot(i, small);
	return n;
}

unsigned int
ut_free_for(int small, int napi)
{
	unsigned int slot = npool_slot();

	return npool_arena_free_count(&npool_default()->arena, small) +
		(napi && slot != NPOOL_NON_EAL_SLOT ?
			pcp_count_slot(slot, small) : 0);
}

unsigned int
ut_free_big(void)
{
	return npool_arena_free_count(&npool_default()->arena, 0) +
		pcp_count(0);
}

unsigned int
ut_free_small(void)
{
	return npool_arena_free_count(&npool_default()->arena, 1) +
		pcp_count(1);
}

unsigned int
ut_in_use(void)
{
	return npool_arena_in_use(&npool_default()->arena) - pcp_count(0) -
		pcp_count(1);
}
