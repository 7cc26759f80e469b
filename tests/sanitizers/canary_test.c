/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sanitizer liveness: each test commits one deliberate bug in a forked
 * child and asserts that the child died of it, by SIGABRT, with the
 * sanitizer's own report on its stderr, and went no further. A build
 * whose sanitizer is silently off (flags lost, runtime options that only
 * print, -fsanitize-recover) fails here instead of passing every other
 * suite for nothing. Built only in sanitizer builds (tests/sanitizers/
 * meson.build passes SAN_ADDRESS, SAN_UNDEFINED, SAN_THREAD).
 *
 * SIGABRT is what the runtime options of the test setup ask for
 * (abort_on_error=1 in ASAN/UBSAN/LSAN/TSAN_OPTIONS, meson.build beside
 * this file): the sanitizers' default is exit(1) (LSan: 23), so the
 * signal also proves that those options reach the processes under test.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <setjmp.h>
#include <cmocka.h>

/* What the child prints if it outlived its bug. */
#define SURVIVED "canary: survived the bug"

/* Enough for any of the reports below (a few KiB each). */
#define REPORT_MAX (256 * 1024)

/* The child's report; static: a heap buffer would leak on a failed
 * assertion (cmocka longjmps) and LeakSanitizer would say so. */
static char report[REPORT_MAX];

/* Opaque to the optimiser: the bugs must happen at run time. */
static volatile int opaque_one = 1;

/*
 * Run @p bug in a forked child whose stderr is a pipe; return its wait
 * status; what it wrote is in report[] (NUL-terminated).
 */
static int
run_child(void (*bug)(void))
{
	const size_t len = sizeof(report);
	int fds[2], status = 0;
	size_t used = 0;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		bug();
		fprintf(stderr, "%s\n", SURVIVED);
		/* exit(), not _exit(): LeakSanitizer runs at exit. */
		exit(0);
	}
	close(fds[1]);
	while (used + 1 < len &&
			(n = read(fds[0], report + used, len - 1 - used)) > 0)
		used += (size_t)n;
	report[used] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * The child must have been killed by SIGABRT after printing every string
 * of the NULL-terminated list, and not have gone on after the bug.
 */
static void
assert_caught(void (*bug)(void), ...)
{
	const char *want;
	va_list ap;
	int status;

	status = run_child(bug);
	print_message("child status 0x%x, report:\n%s", status, report);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_null(strstr(report, SURVIVED));
	va_start(ap, bug);
	while ((want = va_arg(ap, const char *)) != NULL) {
		if (strstr(report, want) == NULL)
			fail_msg("no \"%s\" in the child's report", want);
	}
	va_end(ap);
}

#ifdef SAN_ADDRESS
static volatile char sink;

/*
 * One byte past a 32-byte heap block. The size is opaque, or UBSan's
 * object-size check (which knows a constant malloc size) reports first.
 */
static void
heap_overflow(void)
{
	char *p = malloc(31 + opaque_one);

	memset(p, 0, 32);
	sink = p[31 + opaque_one];
	free(p);
}

static void
test_asan_catches_heap_overflow(void **state)
{
	(void)state;
	assert_caught(heap_overflow,
		"ERROR: AddressSanitizer: heap-buffer-overflow",
		"READ of size 1",
		"32-byte region",
		"heap_overflow", NULL);
}

static void
use_after_free(void)
{
	int *p = malloc(4 * sizeof(int));
	/* Laundered so that -Wuse-after-free does not stop the build. */
	int * volatile stale = p;

	p[0] = 7;
	free(p);
	sink = (char)stale[opaque_one];
}

static void
test_asan_catches_use_after_free(void **state)
{
	(void)state;
	assert_caught(use_after_free,
		"ERROR: AddressSanitizer: heap-use-after-free",
		"READ of size 4", "use_after_free", NULL);
}

/* Lost at exit: 40 bytes that nothing points to any more. */
static void * volatile leak_holder;

static void
leak(void)
{
	leak_holder = malloc(40);
	memset(leak_holder, 1, 40);
	leak_holder = NULL;
}

static void
test_lsan_catches_leak(void **state)
{
	int status;

	(void)state;
	/* LeakSanitizer reports at exit, after SURVIVED is printed; the
	 * 40 bytes are the only leak (lsan.supp must not hide ours). */
	status = run_child(leak);
	print_message("child status 0x%x, report:\n%s", status, report);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(report,
		"ERROR: LeakSanitizer: detected memory leaks"));
	assert_non_null(strstr(report,
		"Direct leak of 40 byte(s) in 1 object(s)"));
	assert_non_null(strstr(report,
		"SUMMARY: AddressSanitizer: 40 byte(s) leaked in 1 allocation(s)"));
}
#endif /* SAN_ADDRESS */

#ifdef SAN_UNDEFINED
static volatile int int_sink;

static void
signed_overflow(void)
{
	int big = INT32_MAX - 1 + opaque_one;

	int_sink = big + opaque_one;
}

static void
test_ubsan_catches_signed_overflow(void **state)
{
	(void)state;
	assert_caught(signed_overflow,
		"runtime error: signed integer overflow: ",
		"cannot be represented in type 'int'",
		"signed_overflow", NULL);
}

static void
shift_out_of_bounds(void)
{
	uint32_t v = (uint32_t)opaque_one;

	int_sink = (int)(v << (31 + opaque_one));
}

static void
test_ubsan_catches_shift_out_of_bounds(void **state)
{
	(void)state;
	assert_caught(shift_out_of_bounds,
		"runtime error: shift exponent 32 is too large", NULL);
}
#endif /* SAN_UNDEFINED */

#ifdef SAN_THREAD
static int racy;

static void *
racy_writer(void *arg)
{
	racy += (int)(uintptr_t)arg;
	return NULL;
}

/*
 * Two threads write one plain int with nothing ordering them: a race
 * whatever the timing (sibling threads share no happens-before edge).
 */
static void
data_race(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, racy_writer, (void *)(uintptr_t)1);
	pthread_create(&b, NULL, racy_writer, (void *)(uintptr_t)2);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
}

static void
test_tsan_catches_data_race(void **state)
{
	(void)state;
	assert_caught(data_race, "WARNING: ThreadSanitizer: data race",
		"racy_writer", NULL);
}
#endif /* SAN_THREAD */

/* The bugs by name, for `canary_test --bug NAME` (harness_check.py). */
static const struct {
	const char *name;
	void (*fn)(void);
} bugs[] = {
#ifdef SAN_ADDRESS
	{ "heap-overflow", heap_overflow },
#endif
#ifdef SAN_UNDEFINED
	{ "signed-overflow", signed_overflow },
#endif
#ifdef SAN_THREAD
	{ "data-race", data_race },
#endif
};

/*
 * canary_test: the cmocka group. canary_test --bug NAME: commit that bug
 * in this process and exit 0 if it survived (for the python harness).
 */
int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
#ifdef SAN_ADDRESS
		cmocka_unit_test(test_asan_catches_heap_overflow),
		cmocka_unit_test(test_asan_catches_use_after_free),
		cmocka_unit_test(test_lsan_catches_leak),
#endif
#ifdef SAN_UNDEFINED
		cmocka_unit_test(test_ubsan_catches_signed_overflow),
		cmocka_unit_test(test_ubsan_catches_shift_out_of_bounds),
#endif
#ifdef SAN_THREAD
		cmocka_unit_test(test_tsan_catches_data_race),
#endif
	};
	size_t i;

	if (argc == 3 && strcmp(argv[1], "--bug") == 0) {
		for (i = 0; i < sizeof(bugs) / sizeof(bugs[0]); i++) {
			if (strcmp(argv[2], bugs[i].name) == 0) {
				bugs[i].fn();
				printf("%s\n", SURVIVED);
				return 0;
			}
		}
		fprintf(stderr, "canary: no bug %s in this build\n", argv[2]);
		return 2;
	}
	/* A sanitizer build with none of the three compiled in is wrong. */
	if (sizeof(tests) == 0) {
		fprintf(stderr, "canary: no sanitizer compiled in\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
