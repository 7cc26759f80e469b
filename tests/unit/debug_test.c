/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Debug builds (-Dnpool_debug=true) catch misuse with rte_panic(): the
 * napi flavor from a thread without an lcore id or on a cache another
 * thread owns, a double free of a fragment (also while its chunk has
 * other live fragments, from any thread), a free where no fragment was
 * carved or outside the arena, a head put twice or into a pool it is not
 * of. Death tests: each case runs in a forked child with an EAL of its
 * own and must die of SIGABRT after its set-up, having printed the
 * expected panic message; correct use in the same build must not.
 *
 * AddressSanitizer builds (built there too, without the debug panics)
 * check instead that a write to npool memory no one may touch (a freed
 * fragment of a live chunk, a chunk's never carved bytes, a head in a
 * head cache, a freed mbuf of an npool RX pool) is reported as
 * use-after-poison, and that correct use is not.
 *
 * The parent never starts EAL: with --no-huge, DPDK memory is a shared
 * memfd mapping, so a child forked after rte_eal_init() would write into
 * the parent's npool.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <rte_mbuf.h>

#include "unit_common.h"
#include "rte_mempool_npool.h"

#if !NPOOL_DEBUG && !NPOOL_ASAN
#error "debug_test is built only with -Dnpool_debug=true or ASan"
#endif

/* Set up in the child, then misuse: never returns when caught. */
typedef void (misuse_fn)(void);

static void *
thread_call(void *arg)
{
	((misuse_fn *)(uintptr_t)arg)();
	return NULL;
}

/* Run @fn on a new non-EAL pthread. */
static void
in_pthread(misuse_fn *fn)
{
	pthread_t tid;

	if (pthread_create(&tid, NULL, thread_call, (void *)(uintptr_t)fn))
		_exit(3);
	pthread_join(tid, NULL);
}

/* Tell the parent the address the panic message must name. */
static void
expect_addr(const void *p)
{
	printf("EXPECT:%p\n", p);
	fflush(stdout);
}

static void
napi_frag(void)
{
	npool_free_frag(npool_napi_alloc_frag(64));
}

static void
napi_frag_align(void)
{
	npool_free_frag(npool_napi_alloc_frag_align(64, 64));
}

static void
napi_pkt(void)
{
	rte_pktmbuf_free(npool_napi_alloc_pkt(64));
}

static void
guarded_frag_and_pkt(void)
{
	npool_free_frag(npool_alloc_frag(64));
	rte_pktmbuf_free(npool_alloc_pkt(64));
}

static void
napi_frag_in_pthread(void)
{
	in_pthread(napi_frag);
}

static void
napi_frag_align_in_pthread(void)
{
	in_pthread(napi_frag_align);
}

static void
napi_pkt_in_pthread(void)
{
	in_pthread(napi_pkt);
}

static void
guarded_in_pthread(void)
{
	in_pthread(guarded_frag_and_pkt);
}

static void
double_free_of_released_chunk(void)
{
	char *p = npool_napi_alloc_frag(64);

	expect_addr(p);
	/* The cache lets go: the fragment alone holds the chunk. */
	npool_frag_cache_drain_all();
	npool_free_frag(p);
	npool_free_frag(p);
}

static void
double_free_in_cached_chunk(void)
{
	char *p = npool_napi_alloc_frag(64);

	expect_addr(p);
	/* The napi cache still carves this chunk. */
	npool_free_frag(p);
	npool_free_frag(p + 1);
}

static void
double_free_of_guarded_frag(void)
{
	char *p = npool_alloc_frag(64);
	char *q = npool_alloc_frag(NPOOL_CHUNK_SIZE);

	expect_addr(p);
	/* q moved the guarded cache to another chunk. */
	npool_free_frag(q);
	npool_free_frag(p);
	npool_free_frag(p);
}

static void
free_outside_arena(void)
{
	static char not_npool[64];

	npool_free_frag(not_npool);
}

static void
double_free_with_live_neighbour(void)
{
	char *p = npool_napi_alloc_frag(64);
	char *q = npool_napi_alloc_frag(64);

	expect_addr(p);
	/* q keeps the chunk's count up: only the fragment map sees it. */
	npool_free_frag(p);
	npool_free_frag(p + 63);
	npool_free_frag(q);
}

static void *free_target;

static int
free_target_twice(void *arg __rte_unused)
{
	npool_free_frag(free_target);
	npool_free_frag(free_target);
	return 0;
}

static void
remote_double_free_with_live_neighbour(void)
{
	char *q;

	free_target = npool_napi_alloc_frag(128);
	q = npool_napi_alloc_frag(128);
	expect_addr(free_target);
	ut_on_other_lcore(free_target_twice, NULL);
	npool_free_frag(q);
}

static void
guarded_double_free_with_live_neighbour(void)
{
	char *q = npool_alloc_frag(256);

	free_target = npool_alloc_frag(256);
	expect_addr(free_target);
	/* The guarded cache lets go: both fragments pin the chunk. */
	npool_frag_cache_drain_all();
	ut_in_pthread(free_target_twice, NULL);
	npool_free_frag(q);
}

static void
free_where_nothing_was_carved(void)
{
	char *p = npool_napi_alloc_frag(64);

	/* Same chunk, below every fragment carved so far. */
	expect_addr(p - 1024);
	npool_free_frag(p - 1024);
}

/* A pthread that claims lcore 0's id, as old DPDK apps did. */
static void
as_lcore0(misuse_fn *fn)
{
	RTE_PER_LCORE(_lcore_id) = 0;
	fn();
}

static void
napi_frag_as_lcore0(void)
{
	as_lcore0(napi_frag);
}

static void
napi_pkt_as_lcore0(void)
{
	as_lcore0(napi_pkt);
}

static void
napi_frag_on_owned_cache(void)
{
	napi_frag();
	in_pthread(napi_frag_as_lcore0);
}

static void
napi_pkt_on_owned_cache(void)
{
	napi_pkt();
	in_pthread(napi_pkt_as_lcore0);
}

static void
pkt_freed_twice(void)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(64);

	expect_addr(m);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(m);
}

static void
pkt_consumed_twice(void)
{
	struct rte_mbuf *m = npool_alloc_pkt(64);

	expect_addr(m);
	npool_napi_consume_pkt(m);
	npool_napi_consume_pkt(m);
}

static void
head_into_wrong_pool(void)
{
	struct rte_mempool *other = npool_pktmbuf_pool_create("ut_dbg_other",
			63, 0, 0, SOCKET_ID_ANY);
	struct rte_mbuf *m = rte_pktmbuf_alloc(npool_head_pool());

	if (other == NULL || m == NULL)
		_exit(5);
	expect_addr(m);
	rte_mempool_put(other, m);
}

/* A registered thread: gets a free lcore id, uses its napi cache. */
static void *
registered_napi_user(void *arg __rte_unused)
{
	if (rte_thread_register() != 0 || rte_lcore_id() != 2)
		_exit(6);
	napi_frag();
	napi_pkt();
	rte_thread_unregister();
	return NULL;
}

static void
registered_threads_reuse_lcore_id(void)
{
	pthread_t tid;
	int i;

	/* The second thread gets lcore id 2 again, and its cache. */
	for (i = 0; i < 2; i++) {
		if (pthread_create(&tid, NULL, registered_napi_user, NULL))
			_exit(3);
		pthread_join(tid, NULL);
	}
}

static int
free_live_set(void *arg)
{
	char **p = arg;
	int i;

	for (i = 0; i < 8; i++)
		npool_free_frag(p[i] + i);
	return 0;
}

static void
chunk_reuse_and_remote_frees(void)
{
	char *p[8];
	int i;

	/* Several lives of one chunk, reused in place. */
	for (i = 0; i < 3 * NPOOL_CHUNK_SIZE / 64; i++)
		npool_free_frag(npool_napi_alloc_frag(64));
	/* Fragments freed on lcore 1 and on a pthread while others live. */
	for (i = 0; i < 8; i++)
		p[i] = npool_napi_alloc_frag(200);
	ut_on_other_lcore(free_live_set, p);
	for (i = 0; i < 8; i++)
		p[i] = npool_alloc_frag(300);
	ut_in_pthread(free_live_set, p);
}

static void
correct_use(void)
{
	char *p = npool_napi_alloc_frag(64);
	struct rte_mbuf *m = npool_napi_alloc_pkt(100);
	struct rte_mbuf *c = rte_pktmbuf_clone(m, npool_head_pool());

	npool_free_frag(p);
	rte_pktmbuf_free(c);
	npool_napi_consume_pkt(m);
	guarded_in_pthread();
	npool_free_frag(NULL);
	registered_threads_reuse_lcore_id();
	chunk_reuse_and_remote_frees();
}

/* What a child printed (EAL logs go to stdout, rte_panic() too). */
static char child_out[16384];

/*
 * Fork; the child starts EAL and npool, tells the parent it got there,
 * then calls @fn and exits 0 if it returns. Return the child's wait
 * status, its output in child_out; fail the test if the child did not
 * reach @fn.
 */
static int
run_child(const char *name, misuse_fn *fn)
{
	char prefix[64];
	struct rlimit no_core = { 0, 0 };
	struct npool_conf conf;
	int status, fds[2], out[2];
	char reached = 0;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	snprintf(prefix, sizeof(prefix), "npool_ut_debug_%s", name);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pipe(out), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		close(out[0]);
		dup2(out[1], STDOUT_FILENO);
		dup2(out[1], STDERR_FILENO);
		setrlimit(RLIMIT_CORE, &no_core);
		/* Head + fragment packets at every size: their heads are
		 * the ones the debug hooks check and poison (a tiny or a
		 * mid-size packet is a stock mempool's mbuf). */
		npool_conf_defaults(&conf);
		conf.tiny_len = 0;
		conf.mid_len = 0;
		if (ut_eal_init(prefix, 0, NULL) != 0 || npool_init(&conf) != 0)
			_exit(2);
		if (write(fds[1], "1", 1) != 1)
			_exit(2);
		fn();
		if (npool_fini() != 0)
			_exit(4);
		ut_eal_cleanup();
		_exit(0);
	}
	close(fds[1]);
	close(out[1]);
	assert_int_equal(read(fds[0], &reached, 1), 1);
	close(fds[0]);
	while ((n = read(out[0], child_out + len,
			sizeof(child_out) - 1 - len)) > 0)
		len += (size_t)n;
	child_out[len] = '\0';
	close(out[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	ut_remove_runtime_dir(prefix);
	assert_int_equal(reached, '1');
	return status;
}

/*
 * The child must abort, saying @msg; a "%p" in @msg stands for the
 * address the child announced with expect_addr().
 */
static void
expect_abort(const char *name, misuse_fn *fn, const char *msg)
{
	int status = run_child(name, fn);
	char want[256], addr[32] = "";
	const char *e = strstr(child_out, "EXPECT:");

	if (e != NULL)
		sscanf(e, "EXPECT:%31s", addr);
	snprintf(want, sizeof(want), msg, addr);
	if (strstr(msg, "%s") != NULL && addr[0] == '\0')
		fail_msg("child %s announced no address", name);
	if (strstr(child_out, want) == NULL)
		fail_msg("child %s did not say \"%s\"; it said:\n%s", name,
				want, child_out);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

#define NON_EAL "napi flavor called from a non-EAL thread"
#define DOUBLE_FREE "double free of fragment %s "

/* One death test: child @child runs @fn and must abort saying @msg. */
#define DEATH_TEST(test, child, fn, msg) \
static void __rte_unused \
test(void **state __rte_unused) \
{ \
	expect_abort(child, fn, msg); \
}

DEATH_TEST(test_napi_frag_from_non_eal_thread_panics,
		"frag", napi_frag_in_pthread, NON_EAL)
DEATH_TEST(test_napi_frag_align_from_non_eal_thread_panics,
		"frag_align", napi_frag_align_in_pthread, NON_EAL)
DEATH_TEST(test_napi_pkt_from_non_eal_thread_panics,
		"pkt", napi_pkt_in_pthread, NON_EAL)
DEATH_TEST(test_napi_frag_on_cache_of_another_thread_panics,
		"owner_frag", napi_frag_on_owned_cache,
		"napi cache of lcore 0 used by thread")
DEATH_TEST(test_napi_pkt_on_cache_of_another_thread_panics,
		"owner_pkt", napi_pkt_on_owned_cache,
		"napi cache of lcore 0 used by thread")
DEATH_TEST(test_double_free_of_released_chunk_panics,
		"df_released", double_free_of_released_chunk, DOUBLE_FREE)
DEATH_TEST(test_double_free_in_cached_chunk_panics,
		"df_cached", double_free_in_cached_chunk, DOUBLE_FREE)
DEATH_TEST(test_double_free_of_guarded_frag_panics,
		"df_guarded", double_free_of_guarded_frag, DOUBLE_FREE)
DEATH_TEST(test_double_free_with_live_neighbour_panics,
		"df_live", double_free_with_live_neighbour, DOUBLE_FREE)
DEATH_TEST(test_remote_double_free_with_live_neighbour_panics,
		"df_remote", remote_double_free_with_live_neighbour,
		DOUBLE_FREE)
DEATH_TEST(test_non_eal_double_free_with_live_neighbour_panics,
		"df_non_eal", guarded_double_free_with_live_neighbour,
		DOUBLE_FREE)
DEATH_TEST(test_free_where_nothing_was_carved_panics,
		"uncarved", free_where_nothing_was_carved,
		"free of %s: no fragment was carved there")
DEATH_TEST(test_free_outside_arena_panics,
		"outside", free_outside_arena, "not an npool fragment")
DEATH_TEST(test_pkt_freed_twice_panics,
		"pkt_twice", pkt_freed_twice, "double free of object %s ")
DEATH_TEST(test_pkt_consumed_twice_panics,
		"consume_twice", pkt_consumed_twice,
		"double free of object %s ")
DEATH_TEST(test_head_put_into_wrong_pool_panics,
		"wrong_pool", head_into_wrong_pool,
		"object %s put into pool ut_dbg_other belongs to pool")

/*
 * AddressSanitizer builds: npool memory no one may touch is poisoned
 * (lib/npool/npool_asan.h), so that each of these accesses is reported
 * (abort_on_error=1 in the sanitize test setup: SIGABRT).
 */
static void
write_freed_frag_of_live_chunk(void)
{
	char *a = npool_napi_alloc_frag(256);
	char *b = npool_napi_alloc_frag(256);

	/* b and the cache's bias keep the chunk alive. */
	npool_free_frag(a);
	b[0] = 1;
	((volatile char *)a)[8] = 1;
}

static void
write_never_carved_bytes(void)
{
	/* Carving goes downward: below the first fragment nothing is. */
	char *a = npool_napi_alloc_frag(256);

	a[0] = 1;
	((volatile char *)a)[-64] = 1;
}

static void
write_consumed_head(void)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(64);

	npool_napi_consume_pkt(m);
	((volatile struct rte_mbuf *)m)->data_len = 1;
}

static void
write_freed_rx_mbuf(void)
{
	struct rte_mempool *mp = npool_pktmbuf_pool_create("ut_asan_rx", 64,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_mbuf *m;

	if (mp == NULL || (m = rte_pktmbuf_alloc(mp)) == NULL)
		_exit(3);
	rte_pktmbuf_free(m);
	rte_pktmbuf_mtod(m, volatile char *)[0] = 1;
}

#define POISON "AddressSanitizer: use-after-poison"

DEATH_TEST(test_asan_freed_frag_of_live_chunk, "asan_frag",
		write_freed_frag_of_live_chunk, POISON)
DEATH_TEST(test_asan_never_carved_bytes, "asan_uncarved",
		write_never_carved_bytes, POISON)
DEATH_TEST(test_asan_consumed_head, "asan_head", write_consumed_head,
		POISON)
DEATH_TEST(test_asan_freed_rx_mbuf, "asan_rx", write_freed_rx_mbuf, POISON)

static void
test_correct_use_does_not_panic(void **state __rte_unused)
{
	int status = run_child("ok", correct_use);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("correct use: status %#x; it said:\n%s", status,
				child_out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#if NPOOL_DEBUG
		cmocka_unit_test(test_napi_frag_from_non_eal_thread_panics),
		cmocka_unit_test(
			test_napi_frag_align_from_non_eal_thread_panics),
		cmocka_unit_test(test_napi_pkt_from_non_eal_thread_panics),
		cmocka_unit_test(
			test_napi_frag_on_cache_of_another_thread_panics),
		cmocka_unit_test(
			test_napi_pkt_on_cache_of_another_thread_panics),
		cmocka_unit_test(test_double_free_of_released_chunk_panics),
		cmocka_unit_test(test_double_free_in_cached_chunk_panics),
		cmocka_unit_test(test_double_free_of_guarded_frag_panics),
		cmocka_unit_test(test_double_free_with_live_neighbour_panics),
		cmocka_unit_test(
			test_remote_double_free_with_live_neighbour_panics),
		cmocka_unit_test(
			test_non_eal_double_free_with_live_neighbour_panics),
		cmocka_unit_test(test_free_where_nothing_was_carved_panics),
		cmocka_unit_test(test_free_outside_arena_panics),
		cmocka_unit_test(test_pkt_freed_twice_panics),
		cmocka_unit_test(test_pkt_consumed_twice_panics),
		cmocka_unit_test(test_head_put_into_wrong_pool_panics),
#endif
#if NPOOL_ASAN
		cmocka_unit_test(test_asan_freed_frag_of_live_chunk),
		cmocka_unit_test(test_asan_never_carved_bytes),
		cmocka_unit_test(test_asan_consumed_head),
		cmocka_unit_test(test_asan_freed_rx_mbuf),
#endif
		cmocka_unit_test(test_correct_use_does_not_panic),
	};

	/* No EAL here: each child starts its own. */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
