/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_TEST_EAL_H
#define NPOOL_TEST_EAL_H

/**
 * @file
 * One EAL start for every test program that runs without NICs (unit
 * tests, fuzz targets, the stress suite, the benchmarks): the arguments
 * of DESIGN's "Running without NICs" built in one place.
 */

/** How to start EAL; NULL or 0 fields take the defaults given. */
struct test_eal {
	const char *prog;      /**< argv[0] */
	const char *prefix;    /**< --file-prefix, unique per process */
	/** -l; "0-1". A map with '@' ("0@0,1@1,2@1": more lcores than
	 * CPUs) goes to --lcores instead. */
	const char *lcores;
	unsigned int mem_mb;   /**< -m; 1024 */
	/** --huge-dir DIR (hugepages), or NULL for --no-huge */
	const char *huge_dir;
	const char *log_level; /**< of lib.eal; "warning" */
};

/**
 * rte_eal_init() with: prog, -l (or --lcores), -m, --no-pci, --no-shconf,
 * --no-telemetry, --log-level=lib.eal:LEVEL, --file-prefix, --no-huge or
 * --huge-dir, then @p extra_argv.
 *
 * @return 0, or -1 after a line on stderr (the runtime folder EAL may
 *   have made is removed).
 */
int test_eal_init(const struct test_eal *e, int extra_argc,
		const char **extra_argv);

/**
 * Remove the runtime folder of EAL file prefix @p prefix (with
 * --no-shconf EAL still makes one, and leaves it behind).
 */
void test_eal_remove_runtime_dir(const char *prefix);

#endif /* NPOOL_TEST_EAL_H */
