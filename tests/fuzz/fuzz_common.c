/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_debug.h>

#include "fuzz_common.h"

#define FZ_MAX_EXTRA 8

static char fz_prefix[64];

static void
fz_eal_fini(void)
{
	ut_eal_cleanup();
}

void
fz_eal_init(const char *target, int extra_argc, const char **extra_argv)
{
	const char *argv[FZ_MAX_EXTRA + 1];
	int i;

	if (extra_argc > FZ_MAX_EXTRA)
		rte_panic("fz_eal_init: too many arguments\n");
	/* cmocka assertions of the shared helpers abort, not exit(). */
	setenv("CMOCKA_TEST_ABORT", "1", 1);
	argv[0] = "--log-level=error";
	for (i = 0; i < extra_argc; i++)
		argv[i + 1] = extra_argv[i];
	snprintf(fz_prefix, sizeof(fz_prefix), "np-fz-%s-%d", target,
			(int)getpid());
	if (ut_eal_init(fz_prefix, extra_argc + 1, argv) != 0)
		abort();
	atexit(fz_eal_fini);
}

void
fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz check failed at %s:%d: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	/* No clean-up runs after abort(): EAL's folder goes now. */
	ut_remove_runtime_dir(fz_prefix);
	abort();
}
