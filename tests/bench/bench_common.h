/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

/**
 * @file
 * Shared harness of the allocator microbenchmarks (tests/bench).
 *
 * A benchmark case holds variants (A, B, ... and one anchor). Each round
 * runs every variant once, in an order rotated per round, so that the
 * machine's drift hits all of them alike; per-op cycles come from
 * rte_rdtsc_precise() around a loop of n operations. A row reports the
 * median and min-max over the rounds and the median of the per-round
 * ratios to the anchor (paired, which cancels most of the noise).
 *
 * Output: one markdown table on stdout (bench_table_header() once, then a
 * row per variant) and, with --json FILE, one JSON object per row appended
 * to FILE (scripts/bench.sh wraps them into one document).
 */

#include <stdint.h>
#include <stdio.h>
#include <rte_common.h>
#include <rte_cycles.h>

#define BENCH_MAX_VARIANTS 8
#define BENCH_MAX_ROUNDS 64
/** Burst size of the "per burst of 32" cases. */
#define BENCH_BURST 32

/** Options common to every benchmark program. */
struct bench_opts {
	int quick;          /**< --quick: fewer operations, same rounds */
	unsigned int rounds;/**< --rounds N (>= 5) */
	int no_header;      /**< --no-header: rows only */
	const char *json;   /**< --json FILE: append JSON lines */
	const char *only;   /**< --only SUBSTR: cases whose name matches */
	/** --huge-dir DIR: EAL memory on the hugetlbfs at DIR; NULL: --no-huge */
	const char *huge_dir;
	/**
	 * --instr: one round, each variant called through a function of its
	 * own, bench_instr_v<i>, and "bench-instr: bench_instr_v<i>|bench|
	 * case|variant|ops" on stderr: for callgrind --toggle-collect
	 * (tests/bench/alloc_callgrind.py), instructions per op
	 */
	int instr;
};

extern struct bench_opts bench_opts;

/**
 * One measured variant. @c run performs @p n operations and returns the
 * TSC cycles they took (it times itself, so set-up stays outside).
 */
struct bench_variant {
	const char *name;
	uint64_t (*run)(void *arg, unsigned int n);
	void *arg;
	/* Filled by bench_case_run(): */
	double cyc[BENCH_MAX_ROUNDS];   /**< cycles per op, per round */
	double med, min, max;           /**< cycles per op */
	double ratio;                   /**< median of per-round ratios */
	/* Set by the benchmark after the run (may stay NULL): */
	char target[48];                /**< e.g. "PASS <=3ns" */
	char note[64];                  /**< extra, JSON only */
};

/** A case: variants measured side by side; one is the anchor. */
struct bench_case {
	const char *bench;   /**< program, e.g. "frag" */
	char name[64];       /**< case, e.g. "op 64B same-lcore" */
	const char *seed;    /**< what it reproduces, last column */
	unsigned int n;      /**< operations per variant per round */
	unsigned int ops_per_call; /**< ops counted per n (per-op figures) */
	unsigned int anchor; /**< index of the anchor variant */
	unsigned int nb;     /**< number of variants */
	struct bench_variant v[BENCH_MAX_VARIANTS];
};

/** Parse the common options into bench_opts (once; bench_init() too). */
void bench_parse(int argc, char **argv);

/**
 * Parse the common options, build the EAL arguments (-m @p mem_mb --no-pci
 * --no-shconf --no-telemetry --file-prefix <unique> -l 0-1, and
 * --huge-dir DIR with --huge-dir, else --no-huge) and initialise EAL.
 * With @p prefault and --no-huge, mlockall() pins and faults in all of
 * EAL's memory first, as hugepages would be. Without @p prefault (an RSS
 * probe) the memory is --no-huge whatever was asked. Exits on failure.
 */
void bench_init(int argc, char **argv, const char *prog,
		unsigned int mem_mb, int prefault);

/**
 * bench_init() with the lcores @p lcores ("-l" list, or an "--lcores"
 * map with '@': test_eal.h) and @p nb_extra more EAL arguments
 * (--vdev=...).
 */
void bench_init_eal(int argc, char **argv, const char *prog,
		unsigned int mem_mb, int prefault, const char *lcores,
		int nb_extra, const char **extra);

/** "hugepages" or "no-huge": the EAL memory of this run (after init). */
const char *bench_mem_mode(void);

/** rte_eal_cleanup() and remove the runtime folder. Returns @p rc. */
int bench_fini(int rc);

/** 1 if case @p name is selected by --only. */
int bench_selected(const char *name);

/** Add a variant; returns its index. */
unsigned int bench_add(struct bench_case *bc, const char *name,
		uint64_t (*run)(void *, unsigned int), void *arg);

/** One warm-up call per variant, then the alternating rounds. */
void bench_case_run(struct bench_case *bc);

/**
 * Median over the rounds of variant @p a minus variant @p b, in cycles per
 * op: paired by round, so a disturbed round does not skew the difference.
 */
double bench_paired_delta(const struct bench_case *bc, unsigned int a,
		unsigned int b);

/** Print the rows (and JSON lines) of a case. */
void bench_case_print(const struct bench_case *bc);

/**
 * Define run_<V>(arg, n), returning LOOP(V, arg, n): one out-of-line copy
 * of an always-inline loop per variant V, so that V is a constant and the
 * variant switches inside LOOP fold away.
 */
#define BENCH_RUN_FN(LOOP, V) \
static uint64_t run_##V(void *arg, unsigned int n) \
{ \
	return LOOP(V, arg, n); \
}

/** Nanoseconds of @p cyc TSC cycles. */
static inline double
bench_ns(double cyc)
{
	return cyc * 1e9 / (double)rte_get_tsc_hz();
}

/** Print the table header (unless --no-header). */
void bench_table_header(void);

/**
 * Print one row that is not a timing: a value with its unit (e.g. bytes
 * per packet, a reuse percentage), with its own ratio and target.
 */
void bench_metric_row(const char *bench, const char *name,
		const char *variant, double value, const char *unit,
		double ratio, const char *anchor, const char *target,
		const char *seed);

/** Write "PASS <what>" or "MISS <what>" into @p buf. */
void bench_target(char *buf, size_t len, int pass, const char *what);

/** Scale an operation count: @p full normally, @p full / 20 with --quick. */
unsigned int bench_scale(unsigned int full);

/* ---- Remote frees: lcore 1 frees what the main lcore hands over. ---- */

/** Frees @p n objects on the remote lcore. */
typedef void (*bench_free_bulk_t)(void **objs, unsigned int n);

/** A bench_free_bulk_t for npool fragments: npool_free_frag() each. */
void bench_free_frags(void **objs, unsigned int n);

/** Start the remote freer on lcore 1 (ring of 1024 pointers). */
void bench_remote_start(void);
/** Stop it and wait for lcore 1. */
void bench_remote_stop(void);
/** Set the free function; only while nothing is in flight. */
void bench_remote_set(bench_free_bulk_t fn);
/** Hand @p n objects to lcore 1 (spins while the ring is full). */
void bench_remote_send(void **objs, unsigned int n);
/** Wait until lcore 1 has freed everything sent so far. */
void bench_remote_drain(void);

#endif /* BENCH_COMMON_H */
