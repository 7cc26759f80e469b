/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include "test_eal.h"
#include "npool.h"
#include "bench_common.h"

struct bench_opts bench_opts = { .rounds = 0 };

static char runtime_dir[PATH_MAX];
static FILE *json_fp;

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--quick] [--rounds N] [--no-header] [--json FILE] [--only SUBSTR]\n"
		"          [--huge-dir DIR | --no-huge] [--instr]\n"
		"  --quick       fewer operations per round (rounds stay >= 5)\n"
		"  --rounds N    rounds per variant, 5 .. %d (default 11, quick 5)\n"
		"  --no-header   print table rows only\n"
		"  --json FILE   append one JSON object per row to FILE\n"
		"  --only SUBSTR run only the cases whose name contains SUBSTR\n"
		"  --huge-dir DIR  EAL memory on the 2 MiB hugepages of the\n"
		"                hugetlbfs mounted at DIR (RSS probes stay --no-huge)\n"
		"  --no-huge     EAL memory from anonymous 4 KiB pages (default)\n"
		"  --instr       one round, for callgrind: each variant runs in a\n"
		"                function of its own, named on stderr\n",
		prog, BENCH_MAX_ROUNDS);
	exit(2);
}

void
bench_parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "no-header", no_argument, NULL, 'H' },
		{ "json", required_argument, NULL, 'j' },
		{ "only", required_argument, NULL, 'o' },
		{ "huge-dir", required_argument, NULL, 'g' },
		{ "no-huge", no_argument, NULL, 'n' },
		{ "instr", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static int parsed;
	int c;

	if (parsed++)
		return;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'q':
			bench_opts.quick = 1;
			break;
		case 'r':
			bench_opts.rounds = (unsigned int)atoi(optarg);
			if (bench_opts.rounds < 5 ||
					bench_opts.rounds > BENCH_MAX_ROUNDS)
				usage(argv[0]);
			break;
		case 'H':
			bench_opts.no_header = 1;
			break;
		case 'j':
			bench_opts.json = optarg;
			break;
		case 'o':
			bench_opts.only = optarg;
			break;
		case 'g':
			bench_opts.huge_dir = optarg;
			break;
		case 'n':
			bench_opts.huge_dir = NULL;
			break;
		case 'I':
			bench_opts.instr = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (bench_opts.rounds == 0)
		bench_opts.rounds = bench_opts.quick ? 5 : 11;
	if (bench_opts.instr)
		bench_opts.rounds = 1;
}

void
bench_init(int argc, char **argv, const char *prog, unsigned int mem_mb,
		int prefault)
{
	bench_init_eal(argc, argv, prog, mem_mb, prefault, NULL, 0, NULL);
}

void
bench_init_eal(int argc, char **argv, const char *prog, unsigned int mem_mb,
		int prefault, const char *lcores, int nb_extra,
		const char **extra)
{
	char prefix[64];
	struct test_eal e = {
		.prog = argv[0],
		.prefix = prefix,
		.lcores = lcores,
		.mem_mb = mem_mb,
		.log_level = "error",
	};

	bench_parse(argc, argv);
	/*
	 * An RSS probe (no prefault) counts 4 KiB pages as they are touched:
	 * on hugepages it would count whole 2 MiB pages, so it stays
	 * --no-huge whatever was asked.
	 */
	if (!prefault)
		bench_opts.huge_dir = NULL;
	e.huge_dir = bench_opts.huge_dir;
	snprintf(prefix, sizeof(prefix), "npbench-%s-%d", prog, (int)getpid());
	if (test_eal_init(&e, nb_extra, extra) != 0) {
		fprintf(stderr, "%s: EAL not started (memory: %s)\n", prog,
				bench_mem_mode());
		exit(1);
	}
	snprintf(runtime_dir, sizeof(runtime_dir), "%s",
			rte_eal_get_runtime_dir());
	/*
	 * --no-huge memory is faulted in lazily, 4 KiB at a time: the first
	 * touch of each page would be timed as the allocator's cost. Pin and
	 * fault everything now, as hugepages would be (not for RSS probes).
	 */
	if (prefault && bench_opts.huge_dir == NULL &&
			mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		fprintf(stderr, "%s: mlockall: %s (first touches are timed)\n",
				prog, strerror(errno));
	if (rte_lcore_count() < 2) {
		fprintf(stderr, "%s: needs 2 lcores (-l 0-1)\n", prog);
		exit(bench_fini(1));
	}
	if (bench_opts.json != NULL) {
		json_fp = fopen(bench_opts.json, "a");
		if (json_fp == NULL) {
			perror(bench_opts.json);
			exit(bench_fini(1));
		}
	}
}

static int
rm_entry(const char *path, const struct stat *sb __rte_unused,
		int flag __rte_unused, struct FTW *ftw __rte_unused)
{
	return remove(path);
}

int
bench_fini(int rc)
{
	if (json_fp != NULL)
		fclose(json_fp);
	json_fp = NULL;
	rte_eal_cleanup();
	if (runtime_dir[0] != '\0')
		nftw(runtime_dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return rc;
}

const char *
bench_mem_mode(void)
{
	return bench_opts.huge_dir != NULL ? "hugepages" : "no-huge";
}

int
bench_selected(const char *name)
{
	return bench_opts.only == NULL || strstr(name, bench_opts.only) != NULL;
}

unsigned int
bench_scale(unsigned int full)
{
	return bench_opts.quick ? RTE_MAX(full / 20, 64u) : full;
}

unsigned int
bench_add(struct bench_case *bc, const char *name,
		uint64_t (*run)(void *, unsigned int), void *arg)
{
	struct bench_variant *v = &bc->v[bc->nb];

	if (bc->nb == BENCH_MAX_VARIANTS)
		rte_panic("bench: too many variants in %s\n", bc->name);
	memset(v, 0, sizeof(*v));
	v->name = name;
	v->run = run;
	v->arg = arg;
	return bc->nb++;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(const double *x, unsigned int n)
{
	double s[BENCH_MAX_ROUNDS];

	memcpy(s, x, n * sizeof(*x));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * --instr: a function per variant slot, so that callgrind can count one
 * variant alone (--toggle-collect=bench_instr_v<i>). The volatile store
 * keeps the bodies apart (no identical-code folding).
 */
static volatile unsigned int instr_slot;

#define BENCH_INSTR_FN(k) \
static __rte_noinline uint64_t \
bench_instr_v##k(struct bench_variant *v, unsigned int n) \
{ \
	instr_slot = k; \
	return v->run(v->arg, n); \
}
BENCH_INSTR_FN(0)
BENCH_INSTR_FN(1)
BENCH_INSTR_FN(2)
BENCH_INSTR_FN(3)
BENCH_INSTR_FN(4)
BENCH_INSTR_FN(5)
BENCH_INSTR_FN(6)
BENCH_INSTR_FN(7)

static uint64_t (*const instr_fn[BENCH_MAX_VARIANTS])(struct bench_variant *,
		unsigned int) = {
	bench_instr_v0, bench_instr_v1, bench_instr_v2, bench_instr_v3,
	bench_instr_v4, bench_instr_v5, bench_instr_v6, bench_instr_v7,
};

static uint64_t
variant_run(struct bench_case *bc, unsigned int i)
{
	struct bench_variant *v = &bc->v[i];

	if (!bench_opts.instr)
		return v->run(v->arg, bc->n);
	fprintf(stderr, "bench-instr: bench_instr_v%u|%s|%s|%s|%.0f\n", i,
		bc->bench, bc->name, v->name,
		(double)bc->n * RTE_MAX(bc->ops_per_call, 1u));
	return instr_fn[i](v, bc->n);
}

void
bench_case_run(struct bench_case *bc)
{
	unsigned int r, i, k, rounds = bench_opts.rounds;
	double ops = (double)bc->n * RTE_MAX(bc->ops_per_call, 1u);
	double ratios[BENCH_MAX_ROUNDS];

	/* Warm-up: caches filled, chunks and mempool caches primed. */
	for (i = 0; i < bc->nb; i++)
		bc->v[i].run(bc->v[i].arg, bc->n);
	for (r = 0; r < rounds; r++) {
		/* Rotate the order so that no variant always runs first. */
		for (k = 0; k < bc->nb; k++) {
			unsigned int i = (r + k) % bc->nb;

			bc->v[i].cyc[r] = (double)variant_run(bc, i) / ops;
		}
	}
	for (i = 0; i < bc->nb; i++) {
		struct bench_variant *v = &bc->v[i];

		v->med = median(v->cyc, rounds);
		v->min = v->max = v->cyc[0];
		for (r = 0; r < rounds; r++) {
			v->min = RTE_MIN(v->min, v->cyc[r]);
			v->max = RTE_MAX(v->max, v->cyc[r]);
			ratios[r] = v->cyc[r] / bc->v[bc->anchor].cyc[r];
		}
		v->ratio = median(ratios, rounds);
	}
}

double
bench_paired_delta(const struct bench_case *bc, unsigned int a,
		unsigned int b)
{
	double d[BENCH_MAX_ROUNDS];
	unsigned int r;

	for (r = 0; r < bench_opts.rounds; r++)
		d[r] = bc->v[a].cyc[r] - bc->v[b].cyc[r];
	return median(d, bench_opts.rounds);
}

void
bench_table_header(void)
{
	if (bench_opts.no_header)
		return;
	printf("| %-6s | %-24s | %-22s | %8s | %9s | %-6s | %-17s | %6s | %-14s | %-14s | %s |\n",
		"bench", "case", "variant", "cyc/op", "value", "unit",
		"min-max", "ratio", "anchor", "target", "seed");
	printf("|--------|--------------------------|------------------------|---------:|----------:|--------|-------------------|-------:|----------------|----------------|------|\n");
}

void
bench_target(char *buf, size_t len, int pass, const char *what)
{
	snprintf(buf, len, "%s %s", pass ? "PASS" : "MISS", what);
}

/* One table row; also one JSON line with --json. */
struct row {
	const char *bench, *name, *variant, *unit, *anchor, *target, *seed;
	const char *note;
	double value, cyc, min, max, ratio; /* value, min, max in unit */
	const double *samples;              /* cycles per op, per round */
	unsigned int nb_samples, n;
};

static void
row_json(const struct row *r)
{
	unsigned int i;

	if (json_fp == NULL)
		return;
	fprintf(json_fp, "{\"bench\":\"%s\",\"case\":\"%s\",\"variant\":\"%s\","
		"\"unit\":\"%s\",\"value\":%.4f,\"cycles\":%.4f,"
		"\"min\":%.4f,\"max\":%.4f,\"ratio\":%.4f,\"anchor\":\"%s\","
		"\"target\":\"%s\",\"seed\":\"%s\",\"note\":\"%s\","
		"\"mem\":\"%s\",\"rounds\":%u,\"ops_per_round\":%u,"
		"\"tsc_hz\":%" PRIu64 ",\"samples_ns\":[",
		r->bench, r->name, r->variant, r->unit, r->value, r->cyc,
		r->min, r->max, r->ratio, r->anchor, r->target, r->seed,
		r->note, bench_mem_mode(), r->nb_samples, r->n,
		rte_get_tsc_hz());
	for (i = 0; i < r->nb_samples; i++)
		fprintf(json_fp, "%s%.4f", i ? "," : "",
				bench_ns(r->samples[i]));
	fprintf(json_fp, "]}\n");
	fflush(json_fp);
}

static void
row_print(const struct row *r)
{
	char cyc[16] = "-", range[32] = "-";

	if (r->nb_samples > 0) {
		snprintf(cyc, sizeof(cyc), "%.1f", r->cyc);
		snprintf(range, sizeof(range), "%.2f-%.2f", r->min, r->max);
	}
	printf("| %-6s | %-24s | %-22s | %8s | %9.2f | %-6s | %-17s | %6.2f | %-14s | %-14s | %s |\n",
		r->bench, r->name, r->variant, cyc, r->value, r->unit, range,
		r->ratio, r->anchor, r->target[0] ? r->target : "-", r->seed);
	fflush(stdout);
	row_json(r);
}

void
bench_case_print(const struct bench_case *bc)
{
	unsigned int i;

	for (i = 0; i < bc->nb; i++) {
		const struct bench_variant *v = &bc->v[i];
		struct row r = {
			.bench = bc->bench, .name = bc->name,
			.variant = v->name, .unit = "ns/op",
			.anchor = bc->v[bc->anchor].name,
			.target = v->target, .note = v->note,
			.seed = i == bc->anchor ? "(anchor)" : bc->seed,
			.value = bench_ns(v->med), .cyc = v->med,
			.min = bench_ns(v->min), .max = bench_ns(v->max),
			.ratio = v->ratio, .samples = v->cyc,
			.nb_samples = bench_opts.rounds, .n = bc->n,
		};

		row_print(&r);
	}
}

void
bench_metric_row(const char *bench, const char *name, const char *variant,
		double value, const char *unit, double ratio,
		const char *anchor, const char *target, const char *seed)
{
	struct row r = {
		.bench = bench, .name = name, .variant = variant,
		.unit = unit, .anchor = anchor,
		.target = target != NULL ? target : "", .seed = seed,
		.note = "", .value = value, .min = value, .max = value,
		.ratio = ratio,
	};

	row_print(&r);
}

/* ---- Remote freer ---- */

#define REMOTE_RING_SIZE 1024

static struct {
	struct rte_ring *ring;
	bench_free_bulk_t fn;
	uint64_t sent;        /* main lcore only */
	uint64_t freed;       /* written by lcore 1 */
	int stop;
	unsigned int lcore;
} remote;

static int
remote_loop(void *arg __rte_unused)
{
	void *objs[BENCH_BURST];
	uint64_t freed = 0;
	unsigned int n;

	while (!__atomic_load_n(&remote.stop, __ATOMIC_ACQUIRE)) {
		n = rte_ring_sc_dequeue_burst(remote.ring, objs, BENCH_BURST,
				NULL);
		if (n == 0) {
			rte_pause();
			continue;
		}
		__atomic_load_n(&remote.fn, __ATOMIC_ACQUIRE)(objs, n);
		freed += n;
		__atomic_store_n(&remote.freed, freed, __ATOMIC_RELEASE);
	}
	return 0;
}

void
bench_free_frags(void **objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		npool_free_frag(objs[i]);
}

void
bench_remote_start(void)
{
	remote.ring = rte_ring_create("bench_remote", REMOTE_RING_SIZE,
			SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (remote.ring == NULL)
		rte_panic("bench: remote ring: %s\n", rte_strerror(rte_errno));
	remote.lcore = rte_get_next_lcore(rte_get_main_lcore(), 1, 0);
	remote.stop = 0;
	remote.sent = remote.freed = 0;
	if (rte_eal_remote_launch(remote_loop, NULL, remote.lcore) != 0)
		rte_panic("bench: cannot launch lcore %u\n", remote.lcore);
}

void
bench_remote_stop(void)
{
	bench_remote_drain();
	__atomic_store_n(&remote.stop, 1, __ATOMIC_RELEASE);
	rte_eal_wait_lcore(remote.lcore);
	rte_ring_free(remote.ring);
	remote.ring = NULL;
}

void
bench_remote_set(bench_free_bulk_t fn)
{
	bench_remote_drain();
	__atomic_store_n(&remote.fn, fn, __ATOMIC_RELEASE);
}

void
bench_remote_send(void **objs, unsigned int n)
{
	unsigned int done = 0;

	while (done < n) {
		done += rte_ring_sp_enqueue_burst(remote.ring, objs + done,
				n - done, NULL);
		if (done < n)
			rte_pause();
	}
	remote.sent += n;
}

void
bench_remote_drain(void)
{
	while (__atomic_load_n(&remote.freed, __ATOMIC_ACQUIRE) != remote.sent)
		rte_pause();
}
