/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_FUZZ_COMMON_H
#define NPOOL_FUZZ_COMMON_H

/*
 * Shared by the fuzz targets: EAL started once per process from
 * LLVMFuzzerInitialize() (and torn down at exit), invariant checks that
 * abort (libFuzzer keeps the input as a crash), and a reader that takes
 * the fuzz input a few bytes at a time. The same targets run under
 * libFuzzer (-Dfuzz=true, clang) and under fuzz_replay.c's main() in
 * every build, which replays the seed corpus and the regressions.
 */

#include <stddef.h>
#include <stdint.h>

#include "unit_common.h"

/* libFuzzer's entry points, defined by each target. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Start EAL (ut_eal_init(): --no-huge -m 1024 --no-pci --no-shconf
 * --no-telemetry -l 0-1, logs at error level) with the file prefix
 * np-fz-<target>-<pid>, plus @p extra_argc arguments; rte_eal_cleanup()
 * and the runtime folder's removal run at exit. Aborts on failure.
 */
void fz_eal_init(const char *target, int extra_argc, const char **extra_argv);

/* Print "fuzz check failed" with the place, the condition and a message,
 * then abort(). */
void fz_fail(const char *file, int line, const char *cond,
		const char *fmt, ...) __attribute__((noreturn, format(printf, 4, 5)));

/* Abort unless @p cond holds; the rest is a printf message. */
#define FZ_CHECK(cond, ...) do { \
	if (!(cond)) \
		fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
} while (0)

/* The fuzz input, consumed from the front. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

/* The next @p bytes (1..4) as a little-endian number; missing bytes
 * read as 0. */
static inline uint32_t
fz_take(struct fz_in *in, unsigned int bytes)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes && in->n != 0; i++, in->p++, in->n--)
		v |= (uint32_t)in->p[0] << (8 * i);
	return v;
}

#endif /* NPOOL_FUZZ_COMMON_H */
