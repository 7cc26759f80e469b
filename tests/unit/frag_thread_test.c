/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fragments across threads: remote frees from another lcore (counted,
 * chunk reuse and return still exact), the guarded flavor from a non-EAL
 * pthread, the napi flavor refused there (EPERM), cache drains while
 * other threads run (a running lcore's napi cache is left to its owner),
 * and a concurrent alloc/free run over lcore 0, lcore 1 and a non-EAL
 * thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_pause.h>
#include <rte_ring.h>

#include "unit_common.h"

#define NB 32

struct frag_set {
	void *p[NB];
	unsigned int n;
	uint32_t size;
	struct npool_stats before, after; /* of the thread's own slot */
};

static int
free_set(void *arg)
{
	struct frag_set *s = arg;
	unsigned int i;

	s->before = ut_stats_self();
	for (i = 0; i < s->n; i++)
		npool_free_frag((char *)s->p[i] + i % 7);
	s->after = ut_stats_self();
	return 0;
}

static int
guarded_alloc_set(void *arg)
{
	struct frag_set *s = arg;
	unsigned int i;

	s->before = ut_stats_self();
	for (i = 0; i < s->n; i++) {
		s->p[i] = npool_alloc_frag(s->size);
		if (s->p[i] == NULL)
			return -rte_errno;
		memset(s->p[i], 0xa5, s->size);
	}
	s->after = ut_stats_self();
	return 0;
}

static void
napi_alloc_set(struct frag_set *s, uint32_t size)
{
	unsigned int i;

	s->n = NB;
	s->size = size;
	for (i = 0; i < NB; i++) {
		s->p[i] = npool_napi_alloc_frag(size);
		assert_non_null(s->p[i]);
	}
}

static void
test_remote_free_from_another_lcore_counted(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct frag_set s;

	napi_alloc_set(&s, 512);
	assert_int_equal(ut_on_other_lcore(free_set, &s), 0);
	assert_int_equal(s.after.frees - s.before.frees, NB);
	assert_int_equal(s.after.remote_frees - s.before.remote_frees, NB);
	/* The allocating lcore saw none of it. */
	s1 = ut_stats_self();
	assert_int_equal(s1.frees, s0.frees);
	assert_int_equal(s1.remote_frees, s0.remote_frees);
	assert_int_equal(s1.allocs - s0.allocs, NB);
	assert_int_equal(npool_frags_outstanding(), 0);
}

static void
test_local_free_not_counted_remote(void **state __rte_unused)
{
	struct frag_set s;

	napi_alloc_set(&s, 512);
	free_set(&s);
	assert_int_equal(s.after.frees - s.before.frees, NB);
	assert_int_equal(s.after.remote_frees, s.before.remote_frees);
}

static void
test_reuse_after_frags_freed_on_another_lcore(void **state __rte_unused)
{
	struct npool_stats s0 = ut_stats_self(), s1;
	struct frag_set s;
	char *q;

	napi_alloc_set(&s, NPOOL_CHUNK_SIZE / NB);
	assert_ptr_equal(s.p[NB - 1], ut_chunk_of(s.p[0])->va);
	assert_int_equal(ut_on_other_lcore(free_set, &s), 0);
	q = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE / NB);
	assert_ptr_equal(q, s.p[0]);
	s1 = ut_stats_self();
	assert_int_equal(s1.reuses - s0.reuses, 1);
	assert_int_equal(s1.refills - s0.refills, 1);
	npool_free_frag(q);
}

static void
test_remote_last_free_returns_chunk_once(void **state __rte_unused)
{
	const unsigned int nb = npool_default()->arena.nb_chunks;
	struct frag_set s;
	struct npool_chunk *c;
	char *q;

	napi_alloc_set(&s, NPOOL_CHUNK_SIZE / NB);
	c = ut_chunk_of(s.p[0]);
	/* The cache moves on, keeping the old chunk as its previous one
	 * with its bias, its fragments out. */
	q = npool_napi_alloc_frag(64);
	assert_ptr_not_equal(ut_chunk_of(q), c);
	assert_ptr_equal(ut_napi_cache()->prev, c);
	assert_int_equal(c->refcnt - ut_napi_cache()->prev_bias, NB);
	assert_int_equal(ut_free_big(), nb - 2);
	/* Freed on another lcore: one atomic decrement each. */
	assert_int_equal(ut_on_other_lcore(free_set, &s), 0);
	assert_int_equal(c->refcnt, ut_napi_cache()->prev_bias);
	assert_int_equal(ut_free_big(), nb - 2);
	/* The cache's references are the last: given up, the chunk goes
	 * back to the arena once. */
	npool_frag_cache_drain_local();
	assert_int_equal(c->refcnt, 0);
	assert_int_equal(ut_free_big(), nb - 1);
	npool_free_frag(q);
}

static void
test_guarded_alloc_from_non_eal_pthread(void **state __rte_unused)
{
	struct frag_set s = { .n = NB, .size = 100 };
	struct npool_stats t0, t1;
	struct npool_chunk *c;
	unsigned int i;

	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &t0), 0);
	assert_int_equal(ut_in_pthread(guarded_alloc_set, &s), 0);
	c = ut_chunk_of(s.p[0]);
	assert_ptr_equal(s.p[0], c->va + NPOOL_CHUNK_SIZE - 100);
	for (i = 1; i < NB; i++)
		assert_ptr_equal(s.p[i], (char *)s.p[i - 1] - 100);
	/* The shared non-EAL slot carved it and counted it. */
	assert_int_equal(c->owner, NPOOL_NON_EAL_SLOT);
	assert_ptr_equal(npool_default()->lc[NPOOL_NON_EAL_SLOT].guarded.chunk, c);
	assert_int_equal(s.after.guarded_allocs - s.before.guarded_allocs, NB);
	assert_int_equal(s.after.allocs, s.before.allocs);
	assert_int_equal(s.after.refills - s.before.refills, 1);
	assert_int_equal(npool_frags_outstanding(), NB);
	/* Freed by a non-EAL thread too: counted in its slot, not remote. */
	assert_int_equal(ut_in_pthread(free_set, &s), 0);
	assert_int_equal(s.after.frees - s.before.frees, NB);
	assert_int_equal(s.after.remote_frees, s.before.remote_frees);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &t1), 0);
	assert_int_equal(t1.guarded_allocs - t0.guarded_allocs, NB);
	assert_int_equal(t1.frees - t0.frees, NB);
}

static void
test_guarded_frag_from_pthread_freed_on_lcore(void **state __rte_unused)
{
	struct frag_set s = { .n = NB, .size = 1000 };
	struct npool_stats s0 = ut_stats_self(), s1;
	unsigned int i;

	assert_int_equal(ut_in_pthread(guarded_alloc_set, &s), 0);
	for (i = 0; i < NB; i++)
		npool_free_frag(s.p[i]);
	s1 = ut_stats_self();
	assert_int_equal(s1.frees - s0.frees, NB);
	assert_int_equal(s1.remote_frees - s0.remote_frees, NB);
}

static int
aligned_alloc_in_thread(void *arg)
{
	void **p = arg;

	p[0] = npool_alloc_frag_align(300, 256);
	p[1] = npool_alloc_frag_align(300, 4096);
	if (p[0] == NULL || p[1] == NULL)
		return -1;
	npool_free_frag(p[0]);
	npool_free_frag(p[1]);
	return 0;
}

static void
test_guarded_alignment_in_non_eal_pthread(void **state __rte_unused)
{
	void *p[2];

	assert_int_equal(ut_in_pthread(aligned_alloc_in_thread, p), 0);
	assert_int_equal((uintptr_t)p[0] % 256, 0);
	assert_int_equal((uintptr_t)p[1] % 4096, 0);
}

static int
guarded_on_lcore(void *arg)
{
	struct frag_set *s = arg;
	int ret = guarded_alloc_set(s);

	/* Free them here, from the cache's own lcore. */
	free_set(s);
	return ret;
}

static void
test_guarded_alloc_on_another_lcore_uses_its_slot(void **state __rte_unused)
{
	struct frag_set s = { .n = NB, .size = 64 };
	struct npool_stats o;

	assert_int_equal(ut_on_other_lcore(guarded_on_lcore, &s), 0);
	assert_ptr_equal(ut_chunk_of(s.p[0]),
			npool_default()->lc[UT_OTHER_LCORE].guarded.chunk);
	assert_int_equal(ut_chunk_of(s.p[0])->owner, UT_OTHER_LCORE);
	assert_int_equal(npool_stats_get(UT_OTHER_LCORE, &o), 0);
	assert_int_equal(o.guarded_allocs, NB);
	assert_int_equal(o.frees, NB);
	assert_int_equal(o.remote_frees, 0);
}

#if !NPOOL_DEBUG
struct eperm_result {
	void *frag, *frag_align, *pkt;
	int err_frag, err_frag_align, err_pkt;
};

static int
napi_in_pthread(void *arg)
{
	struct eperm_result *r = arg;

	rte_errno = 0;
	r->frag = npool_napi_alloc_frag(64);
	r->err_frag = rte_errno;
	rte_errno = 0;
	r->frag_align = npool_napi_alloc_frag_align(64, 64);
	r->err_frag_align = rte_errno;
	rte_errno = 0;
	r->pkt = npool_napi_alloc_pkt(64);
	r->err_pkt = rte_errno;
	return 0;
}

static void
test_napi_flavor_from_non_eal_pthread_eperm(void **state __rte_unused)
{
	struct eperm_result r;
	struct npool_stats t0, t1;

	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &t0), 0);
	assert_int_equal(ut_in_pthread(napi_in_pthread, &r), 0);
	assert_null(r.frag);
	assert_null(r.frag_align);
	assert_null(r.pkt);
	assert_int_equal(r.err_frag, EPERM);
	assert_int_equal(r.err_frag_align, EPERM);
	assert_int_equal(r.err_pkt, EPERM);
	assert_int_equal(npool_stats_get(NPOOL_NON_EAL_SLOT, &t1), 0);
	assert_int_equal(t1.failures - t0.failures, 2);
	assert_int_equal(t1.pkt_failures - t0.pkt_failures, 1);
	assert_int_equal(t1.allocs, 0);
	/* Nothing was taken: no chunk, no head. */
	assert_int_equal(ut_in_use(), 0);
	assert_null(npool_default()->lc[NPOOL_NON_EAL_SLOT].napi.chunk);
}
#endif

/*
 * npool_frag_cache_drain_all() on the main lcore while lcore 1 frees the
 * fragments of its own napi cache. Those frees credit the cache's bias
 * without an atomic operation: a drain of that cache from here would
 * race them (lost references: chunks never coming back, the audit's
 * counts disagreeing, a false double free in debug builds). The drain
 * must leave a running lcore's napi cache to its owner.
 */
#define RACE_ROUNDS 100
#define RACE_FRAGS 64

struct drain_race {
	int allocated; /* lcore 1: round n's fragments are out */
	int go;        /* main: round n's drain starts now */
	int freed;     /* lcore 1: round n's fragments are back */
	void *p[RACE_FRAGS];
};

static int
drain_race_worker(void *arg)
{
	struct drain_race *d = arg;
	int r, i;

	for (r = 1; r <= RACE_ROUNDS; r++) {
		for (i = 0; i < RACE_FRAGS; i++) {
			d->p[i] = npool_napi_alloc_frag(256);
			if (d->p[i] == NULL)
				return -rte_errno;
		}
		__atomic_store_n(&d->allocated, r, __ATOMIC_RELEASE);
		while (__atomic_load_n(&d->go, __ATOMIC_ACQUIRE) != r)
			rte_pause();
		for (i = 0; i < RACE_FRAGS; i++)
			npool_free_frag(d->p[i]);
		__atomic_store_n(&d->freed, r, __ATOMIC_RELEASE);
	}
	return 0;
}

static void
test_drain_all_races_no_free_of_running_lcore(void **state __rte_unused)
{
	static struct drain_race d;
	unsigned int left_ok = 0;
	struct npool_audit au;
	struct npool_usage u;
	int r;

	memset(&d, 0, sizeof(d));
	assert_int_equal(ut_remote_launch(drain_race_worker, &d,
			UT_OTHER_LCORE), 0);
	for (r = 1; r <= RACE_ROUNDS; r++) {
		while (__atomic_load_n(&d.allocated, __ATOMIC_ACQUIRE) != r)
			rte_pause();
		__atomic_store_n(&d.go, r, __ATOMIC_RELEASE);
		/* Lcore 1 frees right now: its napi cache is left alone
		 * (one cache left, its own). */
		left_ok += npool_frag_cache_drain_all() == 1;
		while (__atomic_load_n(&d.freed, __ATOMIC_ACQUIRE) != r)
			rte_pause();
	}
	assert_int_equal(ut_wait_lcore(UT_OTHER_LCORE), 0);
	assert_int_equal(left_ok, RACE_ROUNDS);
	assert_int_equal(npool_audit(&au), 0);
	assert_int_equal(au.frags_out, 0);
	assert_int_equal(au.frags_counted, 0);
	/* Lcore 1 kept carving one chunk: 64 x 256 B twice per chunk. */
	assert_int_equal(au.chunks_cached, 1);
	assert_int_equal(au.chunks_pinned, 0);
	assert_ptr_not_equal(npool_default()->lc[UT_OTHER_LCORE].napi.chunk, NULL);
	/* Lcore 1 waits now: everything is drained. */
	assert_int_equal(npool_frag_cache_drain_all(), 0);
	assert_null(npool_default()->lc[UT_OTHER_LCORE].napi.chunk);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, 0);
	assert_int_equal(u.chunks_in_use, 0);
}

/* On lcore 1: a drain there leaves the main lcore's napi cache alone. */
static int
drain_all_on_worker(void *arg)
{
	unsigned int *left = arg;
	void *p = npool_napi_alloc_frag(100);
	void *g = npool_alloc_frag(100);

	npool_free_frag(p);
	npool_free_frag(g);
	*left = npool_frag_cache_drain_all();
	return 0;
}

static void
test_drain_all_off_main_lcore_drains_only_own(void **state __rte_unused)
{
	char *mine = npool_napi_alloc_frag(100);
	struct npool_chunk *c = ut_chunk_of(mine);
	unsigned int left = 0;

	assert_int_equal(ut_on_other_lcore(drain_all_on_worker, &left), 0);
	/* Every napi cache but lcore 1's own and the non-EAL slot's. */
	assert_int_equal(left, RTE_MAX_LCORE - 1);
	assert_ptr_equal(ut_napi_cache()->chunk, c);
	assert_null(npool_default()->lc[UT_OTHER_LCORE].napi.chunk);
	assert_null(npool_default()->lc[UT_OTHER_LCORE].guarded.chunk);
	/* The main lcore's cache still works with its bias intact. */
	assert_ptr_equal(npool_napi_alloc_frag(100), mine - 100);
	npool_free_frag(mine - 100);
	npool_free_frag(mine);
	assert_int_equal(c->refcnt - npool_frag_cache_bias_pvt(ut_napi_cache()), 0);
}

/* On lcore 1: keep one fragment, drain its own caches, report. */
struct drain_local {
	void *kept, *freed;
	struct npool_chunk *c;
	uint32_t refcnt;
	int napi_empty;
};

static int
drain_local_on_worker(void *arg)
{
	struct drain_local *d = arg;

	d->kept = npool_napi_alloc_frag(300);
	d->freed = npool_napi_alloc_frag(300);
	npool_free_frag(d->freed);
	d->c = ut_chunk_of(d->kept);
	npool_frag_cache_drain_local();
	d->napi_empty = ut_napi_cache()->chunk == NULL;
	d->refcnt = d->c->refcnt;
	return 0;
}

static void
test_drain_local_gives_back_own_chunk(void **state __rte_unused)
{
	const unsigned int nb = npool_default()->arena.nb_chunks;
	struct drain_local d;

	assert_int_equal(ut_on_other_lcore(drain_local_on_worker, &d), 0);
	assert_true(d.napi_empty);
	/* Only the kept fragment holds the chunk now. */
	assert_int_equal(d.refcnt, 1);
	assert_int_equal(ut_free_big(), nb - 1);
	npool_free_frag(d.kept);
	assert_int_equal(d.c->refcnt, 0);
	assert_int_equal(ut_free_big(), nb);
}

/*
 * A registered thread's napi cache is its own while it is registered;
 * once it unregisters, its lcore id is free and the main lcore drains
 * what it left.
 */
struct registered {
	int step;              /* 1: allocated; 2: main drained; 3: gone */
	unsigned int lcore;
	struct npool_chunk *c;
};

static void *
registered_user(void *arg)
{
	struct registered *t = arg;
	void *p;

	if (rte_thread_register() != 0)
		return NULL;
	t->lcore = rte_lcore_id();
	p = npool_napi_alloc_frag(500);
	npool_free_frag(p);
	t->c = p != NULL ? ut_chunk_of(p) : NULL;
	__atomic_store_n(&t->step, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&t->step, __ATOMIC_ACQUIRE) != 2)
		rte_pause();
	rte_thread_unregister();
	return NULL;
}

static void
test_drain_all_leaves_registered_thread_cache(void **state __rte_unused)
{
	static struct registered t;
	unsigned int left;
	pthread_t tid;

	memset(&t, 0, sizeof(t));
	assert_int_equal(pthread_create(&tid, NULL, registered_user, &t), 0);
	while (__atomic_load_n(&t.step, __ATOMIC_ACQUIRE) != 1)
		rte_pause();
	left = npool_frag_cache_drain_all();
	__atomic_store_n(&t.step, 2, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
	assert_non_null(t.c);
	assert_true(t.lcore > UT_OTHER_LCORE && t.lcore < RTE_MAX_LCORE);
	assert_int_equal(left, 1);
	/* Left alone: the thread's cache still held its chunk. */
	assert_ptr_equal(npool_default()->lc[t.lcore].napi.chunk, t.c);
	assert_int_equal(npool_frag_cache_drain_all(), 0);
	assert_null(npool_default()->lc[t.lcore].napi.chunk);
	assert_int_equal(t.c->refcnt, 0);
}

/*
 * Concurrent run: each thread allocates (its own flavor), writes, hands
 * every third fragment to the next thread in a cycle (lcore 0 -> lcore 1
 * -> non-EAL -> non-EAL -> lcore 0) to free, frees the rest, and frees
 * what the previous thread handed it. The hand-off rings are single-
 * producer and single-consumer: four threads share two CPUs here, and a
 * preempted producer of a multi-producer ring would stall the others.
 * They are short, so that a thread off its CPU pins few chunks (4 KiB
 * chunks hold only a few fragments each).
 */
#define STRESS_ITERS 100000
#define NB_STRESS 4

struct stress {
	struct rte_ring *out, *in;
	int napi;
	int ret;
};

static int
stress_run(void *arg)
{
	struct stress *st = arg;
	unsigned int i, j, seed = (unsigned int)(uintptr_t)arg;

	for (i = 0; i < STRESS_ITERS; i++) {
		uint32_t size = 1 + (rand_r(&seed) % 2048);
		unsigned char *p = st->napi ? npool_napi_alloc_frag(size) :
			npool_alloc_frag(size);
		void *q;

		if (p == NULL)
			return -rte_errno;
		p[0] = 0x5a;
		p[size - 1] = 0x5a;
		if (i % 3 == 0 && rte_ring_enqueue(st->out, p) == 0)
			p = NULL;
		if (p != NULL)
			npool_free_frag(p);
		for (j = 0; j < 2 && rte_ring_dequeue(st->in, &q) == 0; j++) {
			if (((unsigned char *)q)[0] != 0x5a)
				return -EFAULT;
			npool_free_frag(q);
		}
	}
	return 0;
}

static void *
stress_in_thread(void *arg)
{
	struct stress *st = arg;

	st->ret = stress_run(st);
	return NULL;
}

static void
test_concurrent_alloc_and_cross_free_balance(void **state __rte_unused)
{
	struct rte_ring *r[NB_STRESS];
	/* lcore 0, lcore 1, then two non-EAL threads sharing one slot */
	struct stress st[NB_STRESS];
	pthread_t tid[NB_STRESS - 2];
	struct npool_stats s;
	unsigned int i;
	void *q;

	for (i = 0; i < NB_STRESS; i++) {
		char name[RTE_RING_NAMESIZE];

		snprintf(name, sizeof(name), "ut_handoff%u", i);
		r[i] = rte_ring_create(name, 128, SOCKET_ID_ANY,
				RING_F_SP_ENQ | RING_F_SC_DEQ);
		assert_non_null(r[i]);
	}
	for (i = 0; i < NB_STRESS; i++) {
		st[i].out = r[i];
		st[i].in = r[(i + NB_STRESS - 1) % NB_STRESS];
		st[i].napi = i < 2;
		st[i].ret = -1;
	}
	assert_int_equal(ut_remote_launch(stress_run, &st[1],
			UT_OTHER_LCORE), 0);
	for (i = 2; i < NB_STRESS; i++)
		assert_int_equal(pthread_create(&tid[i - 2], NULL,
				stress_in_thread, &st[i]), 0);
	st[0].ret = stress_run(&st[0]);
	for (i = 2; i < NB_STRESS; i++)
		pthread_join(tid[i - 2], NULL);
	st[1].ret = ut_wait_lcore(UT_OTHER_LCORE);
	for (i = 0; i < NB_STRESS; i++) {
		assert_int_equal(st[i].ret, 0);
		while (rte_ring_dequeue(r[i], &q) == 0)
			npool_free_frag(q);
		rte_ring_free(r[i]);
	}
	s = ut_stats_sum();
	assert_int_equal(s.allocs, 2 * STRESS_ITERS);
	assert_int_equal(s.guarded_allocs, 2 * STRESS_ITERS);
	assert_int_equal(s.frees, NB_STRESS * STRESS_ITERS);
	assert_int_equal(s.failures, 0);
	assert_int_equal(npool_frags_outstanding(), 0);
	/* ut_teardown_check() proves every chunk came back once. */
}

#define T(f) cmocka_unit_test_setup_teardown(f, ut_setup_default, \
		ut_teardown_check)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_remote_free_from_another_lcore_counted),
		T(test_local_free_not_counted_remote),
		T(test_reuse_after_frags_freed_on_another_lcore),
		T(test_remote_last_free_returns_chunk_once),
		T(test_guarded_alloc_from_non_eal_pthread),
		T(test_guarded_frag_from_pthread_freed_on_lcore),
		T(test_guarded_alignment_in_non_eal_pthread),
		T(test_guarded_alloc_on_another_lcore_uses_its_slot),
		T(test_drain_all_races_no_free_of_running_lcore),
		T(test_drain_all_off_main_lcore_drains_only_own),
		T(test_drain_local_gives_back_own_chunk),
		T(test_drain_all_leaves_registered_thread_cache),
#if !NPOOL_DEBUG
		T(test_napi_flavor_from_non_eal_pthread_eperm),
#endif
		T(test_concurrent_alloc_and_cross_free_balance),
	};

	return UT_MAIN("npool_ut_frag_thread", tests);
}
