/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Debug builds (-Dnpool_debug=true) catch misuse with rte_panic(): the
 * napi flavor from a thread without an lcore id, a double free, a free of
 * an address outside the arena. Death tests: each case runs in a forked
 * child with an EAL of its own and must die of SIGABRT after its set-up;
 * correct use in the same build must not.
 *
 * The parent never starts EAL: with --no-huge, DPDK memory is a shared
 * memfd mapping, so a child forked after rte_eal_init() would write into
 * the parent's npool.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "unit_common.h"

#if !NPOOL_DEBUG
#error "debug_test is built only with -Dnpool_debug=true"
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

	/* The cache lets go: the fragment alone holds the chunk. */
	npool_frag_cache_drain_all();
	npool_free_frag(p);
	npool_free_frag(p);
}

static void
double_free_in_cached_chunk(void)
{
	char *p = npool_napi_alloc_frag(64);

	/* The napi cache still carves this chunk. */
	npool_free_frag(p);
	npool_free_frag(p + 1);
}

static void
double_free_of_guarded_frag(void)
{
	char *p = npool_alloc_frag(64);
	char *q = npool_alloc_frag(NPOOL_CHUNK_SIZE);

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
correct_use(void)
{
	char *p = npool_napi_alloc_frag(64);
	struct rte_mbuf *m = npool_napi_alloc_pkt(100);

	npool_free_frag(p);
	npool_napi_consume_pkt(m);
	guarded_in_pthread();
	npool_free_frag(NULL);
}

/*
 * Fork; the child starts EAL and npool, tells the parent it got there,
 * then calls @fn and exits 0 if it returns. Return the child's wait
 * status; fail the test if the child did not reach @fn.
 */
static int
run_child(const char *name, misuse_fn *fn)
{
	char prefix[64];
	struct rlimit no_core = { 0, 0 };
	int status, fds[2];
	char reached = 0;
	pid_t pid;

	snprintf(prefix, sizeof(prefix), "npool_ut_debug_%s", name);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		setrlimit(RLIMIT_CORE, &no_core);
		if (ut_eal_init(prefix, 0, NULL) != 0 || npool_init(NULL) != 0)
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
	assert_int_equal(read(fds[0], &reached, 1), 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	ut_remove_runtime_dir(prefix);
	assert_int_equal(reached, '1');
	return status;
}

static void
expect_abort(const char *name, misuse_fn *fn)
{
	int status = run_child(name, fn);

	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void
test_napi_frag_from_non_eal_thread_panics(void **state __rte_unused)
{
	expect_abort("frag", napi_frag_in_pthread);
}

static void
test_napi_frag_align_from_non_eal_thread_panics(void **state __rte_unused)
{
	expect_abort("frag_align", napi_frag_align_in_pthread);
}

static void
test_napi_pkt_from_non_eal_thread_panics(void **state __rte_unused)
{
	expect_abort("pkt", napi_pkt_in_pthread);
}

static void
test_double_free_of_released_chunk_panics(void **state __rte_unused)
{
	expect_abort("df_released", double_free_of_released_chunk);
}

static void
test_double_free_in_cached_chunk_panics(void **state __rte_unused)
{
	expect_abort("df_cached", double_free_in_cached_chunk);
}

static void
test_double_free_of_guarded_frag_panics(void **state __rte_unused)
{
	expect_abort("df_guarded", double_free_of_guarded_frag);
}

static void
test_free_outside_arena_panics(void **state __rte_unused)
{
	expect_abort("outside", free_outside_arena);
}

static void
test_correct_use_does_not_panic(void **state __rte_unused)
{
	int status = run_child("ok", correct_use);

	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_napi_frag_from_non_eal_thread_panics),
		cmocka_unit_test(
			test_napi_frag_align_from_non_eal_thread_panics),
		cmocka_unit_test(test_napi_pkt_from_non_eal_thread_panics),
		cmocka_unit_test(test_double_free_of_released_chunk_panics),
		cmocka_unit_test(test_double_free_in_cached_chunk_panics),
		cmocka_unit_test(test_double_free_of_guarded_frag_panics),
		cmocka_unit_test(test_free_outside_arena_panics),
		cmocka_unit_test(test_correct_use_does_not_panic),
	};

	/* No EAL here: each child starts its own. */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
