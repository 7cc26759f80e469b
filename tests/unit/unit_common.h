/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_UNIT_COMMON_H
#define NPOOL_UNIT_COMMON_H

/*
 * Shared helpers of the cmocka unit tests: EAL start and clean-up, npool
 * set-up and leak-checked tear-down, running a function on lcore 1 or on a
 * plain (non-EAL) pthread. Include after <setjmp.h>/<cmocka.h>.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "npool.h"

/* The lcore used for "another lcore" tests (EAL runs with -l 0-1). */
#define UT_OTHER_LCORE 1

/*
 * Start EAL for a test binary: --no-huge -m 1024 --no-pci --no-shconf
 * --no-telemetry --file-prefix @p prefix -l 0-1, plus @p extra_argc
 * arguments from @p extra_argv (e.g. "--vdev=net_null0").
 * Return 0, or -1 after printing why.
 */
int ut_eal_init(const char *prefix, int extra_argc, const char **extra_argv);

/*
 * A test binary's main: ut_eal_init(), run the cmocka group @p tests,
 * ut_eal_cleanup(). Return the exit status (0: every test passed).
 */
int ut_main(const char *prefix, int extra_argc, const char **extra_argv,
		const char *group, const struct CMUnitTest *tests, size_t n);

#define UT_MAIN(prefix, tests) \
	ut_main(prefix, 0, NULL, #tests, tests, RTE_DIM(tests))

/* rte_eal_cleanup() and remove /var/run/dpdk/<prefix>. */
void ut_eal_cleanup(void);

/* Remove the runtime folder of @p prefix (for processes that died). */
void ut_remove_runtime_dir(const char *prefix);

/*
 * rte_eal_remote_launch() of @p fn(arg) on @p lcore, and
 * rte_eal_wait_lcore() for it: the same, plus an edge from the end of
 * fn to the return of the wait that ThreadSanitizer sees (it does not
 * see EAL's own). Use them in place of EAL's pair in tests.
 */
int ut_remote_launch(int (*fn)(void *), void *arg, unsigned int lcore);
int ut_wait_lcore(unsigned int lcore);

/* Run @p fn(arg) on UT_OTHER_LCORE and wait: its return value. */
int ut_on_other_lcore(int (*fn)(void *), void *arg);

/* Run @p fn(arg) on a new non-EAL pthread and join: its return value. */
int ut_in_pthread(int (*fn)(void *), void *arg);

/* npool_init() with these settings (0 keeps a default); 0 or -errno. */
/*
 * npool_conf.tiny_len of the instances ut_npool_init() and
 * ut_setup_default() make: NPOOL_PKT_SMALL_LEN, or 0 in the tests of
 * the head + fragment packet at every size (set it in main()).
 */
extern uint32_t ut_tiny_len;

/*
 * npool_conf.mid_len of the same instances: 0 (no mid-size class, so
 * that packets above tiny_len are head + fragment, which most tests
 * test), or NPOOL_PKT_MID_LEN in the tests of mid-size packets.
 */
extern uint32_t ut_mid_len;

int ut_npool_init(uint32_t nb_chunks, uint32_t nb_small, uint32_t nb_heads,
		uint32_t headroom);

/* cmocka setup: npool_init() with the defaults. */
int ut_setup_default(void **state);

/*
 * cmocka teardown: assert nothing leaked (no fragment or head out, arena
 * empty after draining the caches, counters consistent), then npool_fini().
 */
int ut_teardown_check(void **state);

/*
 * Assert that every chunk of the arena is free exactly once (take them
 * all out of the free lists, check, put them back in the same order).
 * Call only while no thread allocates.
 */
void ut_assert_each_chunk_free_once(void);

/* Counters summed over every slot. */
struct npool_stats ut_stats_sum(void);

/* Counters of the calling thread's slot. */
struct npool_stats ut_stats_self(void);

/* Chunk header of a fragment address. */
struct npool_chunk *ut_chunk_of(const void *p);

/* The calling lcore's napi / guarded fragment cache. */
struct npool_frag_cache *ut_napi_cache(void);
struct npool_frag_cache *ut_guarded_cache(void);

/* Free big / small chunks of the default instance: in the arena's free
 * stacks or kept by an lcore for its next refill (npool_lcore.pcp). */
unsigned int ut_free_big(void);
unsigned int ut_free_small(void);

/* Free chunks of kind @p small an allocation on this thread can take: the
 * arena's, and for a napi cache (@p napi) those this lcore keeps. */
unsigned int ut_free_for(int small, int napi);

/* Chunks of the default instance in use: out of the arena and not kept
 * by an lcore. */
unsigned int ut_in_use(void);

#endif /* NPOOL_UNIT_COMMON_H */
