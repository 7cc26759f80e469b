/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * In-place chunk reuse (seeds 2 and 6, Dumazet's question: does reuse
 * really happen?). The napi flavor allocates under three free patterns:
 * each fragment freed right away (TCP-like), freed after N further
 * allocations (a queue of depth 64 or 1024), freed on lcore 1; each
 * fragment's first cache line is written, as a driver or a copy would.
 * For each,
 * the reuse ratio from npool's stats (reuses / (reuses + refills): of the
 * times a chunk ran out, how often every fragment was already back) and
 * what reuse is worth in ns/op:
 *
 *  - "napi": the library as it is, default arena of 1024 chunks (anchor);
 *  - "napi no-reuse": the same, but one fragment of each chunk is held
 *    until the next chunk starts, so that no chunk can be reused in place
 *    (every exhausted chunk goes through the arena);
 *  - "napi hot-arena": an arena just big enough for the pattern, so that
 *    chunks coming back from the arena are still in the CPU caches (what
 *    a LIFO free list would give; the library's FIFO ring hands out the
 *    coldest chunk).
 *
 * npool is created anew for every run (its arena size is the variant).
 */
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>

#include "npool.h"
#include "bench_common.h"

enum rpat { P_ATONCE, P_Q64, P_Q1024, P_REMOTE, P_NB };
enum rv { RV_NAPI, RV_NOREUSE, RV_HOT, RV_NB };

#define QMAX 1024

static const char * const pat_name[] = {
	[P_ATONCE] = "free at once", [P_Q64] = "queue 64",
	[P_Q1024] = "queue 1024", [P_REMOTE] = "free lcore1",
};
static const char * const rv_name[] = {
	[RV_NAPI] = "napi", [RV_NOREUSE] = "napi no-reuse",
	[RV_HOT] = "napi hot-arena",
};

struct reuse_arg {
	enum rpat pat;
	enum rv v;
	uint32_t size;
	uint64_t reuses, refills, small; /* summed over the runs */
};

/* The chunk of the last fragment, and the fragment held from it. */
struct pin {
	uintptr_t chunk;
	void *p;
};

static void *queue[QMAX];

static __rte_always_inline void *
reuse_alloc(struct pin *pin, uint32_t size, int noreuse)
{
	void *p = npool_napi_alloc_frag(size);
	uintptr_t ck = (uintptr_t)p >> NPOOL_CHUNK_SHIFT;

	if (unlikely(p == NULL))
		rte_panic("bench reuse: %s\n", rte_strerror(rte_errno));
	/* A driver or a copy writes the buffer: a cold chunk costs here. */
	*(volatile uintptr_t *)p = ck;
	/* A chunk change costs the same compare in every variant. */
	if (unlikely(ck != pin->chunk)) {
		pin->chunk = ck;
		if (noreuse) {
			/* Hold one fragment of the new chunk until the next. */
			void *old = pin->p;

			pin->p = npool_napi_alloc_frag(RTE_CACHE_LINE_SIZE);
			npool_free_frag(old);
		}
	}
	return p;
}

static __rte_always_inline uint64_t
reuse_loop(const struct reuse_arg *a, unsigned int n, int noreuse)
{
	struct pin pin = { 0, NULL };
	unsigned int i, j, depth;
	void *objs[BENCH_BURST];
	uint64_t t0;

	t0 = rte_rdtsc_precise();
	switch (a->pat) {
	case P_ATONCE:
		for (i = 0; i < n; i++)
			npool_free_frag(reuse_alloc(&pin, a->size, noreuse));
		break;
	case P_Q64:
	case P_Q1024:
		depth = a->pat == P_Q64 ? 64 : QMAX;
		for (i = 0; i < n; i++) {
			void *p = reuse_alloc(&pin, a->size, noreuse);

			if (i >= depth)
				npool_free_frag(queue[i & (depth - 1)]);
			queue[i & (depth - 1)] = p;
		}
		for (j = 0; j < RTE_MIN(n, depth); j++)
			npool_free_frag(queue[j]);
		break;
	case P_REMOTE:
		for (i = 0; i < n; i += BENCH_BURST) {
			for (j = 0; j < BENCH_BURST; j++)
				objs[j] = reuse_alloc(&pin, a->size, noreuse);
			bench_remote_send(objs, BENCH_BURST);
		}
		bench_remote_drain();
		break;
	default:
		break;
	}
	npool_free_frag(pin.p);
	return rte_rdtsc_precise() - t0;
}

static uint64_t
loop_keep(const struct reuse_arg *a, unsigned int n)
{
	return reuse_loop(a, n, 0);
}

static uint64_t
loop_noreuse(const struct reuse_arg *a, unsigned int n)
{
	return reuse_loop(a, n, 1);
}

/* Chunks a pattern keeps out at most, plus the cache's and a margin. */
static uint32_t
hot_chunks(const struct reuse_arg *a)
{
	uint32_t out = a->pat == P_Q64 ? 64 : a->pat == P_Q1024 ? QMAX :
		a->pat == P_REMOTE ? 1024 + 2 * BENCH_BURST : 1;

	return (uint32_t)(((uint64_t)out * a->size + NPOOL_CHUNK_SIZE - 1) /
			NPOOL_CHUNK_SIZE) + 8;
}

static uint64_t
run_reuse(void *arg, unsigned int n)
{
	struct reuse_arg *a = arg;
	struct npool_conf conf;
	struct npool_stats s;
	uint64_t t;

	npool_conf_defaults(&conf);
	conf.nb_heads = 64;
	if (a->v == RV_HOT)
		conf.nb_chunks = hot_chunks(a);
	if (npool_init(&conf) != 0)
		rte_panic("npool_init: %s\n", rte_strerror(rte_errno));
	if (a->pat == P_REMOTE)
		bench_remote_set(bench_free_frags);
	npool_stats_reset();
	t = a->v == RV_NOREUSE ? loop_noreuse(a, n) : loop_keep(a, n);
	npool_stats_sum(&s);
	a->reuses += s.reuses;
	a->refills += s.refills;
	a->small += s.small_fallbacks;
	if (npool_fini() != 0)
		rte_panic("bench reuse: npool_fini: fragments left\n");
	return t;
}

static double
reuse_pct(const struct reuse_arg *a)
{
	uint64_t ends = a->reuses + a->refills;

	return ends == 0 ? 0 : 100.0 * (double)a->reuses / (double)ends;
}

static void
reuse_case(enum rpat pat, uint32_t size)
{
	struct reuse_arg args[RV_NB];
	struct bench_case bc;
	char what[48];
	unsigned int v;
	double saved;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "reuse";
	snprintf(bc.name, sizeof(bc.name), "%s %uB", pat_name[pat], size);
	if (!bench_selected(bc.name))
		return;
	bc.seed = "2/6 Dumazet reuse";
	bc.n = bench_scale(1u << 19);
	bc.ops_per_call = 1;
	memset(args, 0, sizeof(args));
	for (v = 0; v < RV_NB; v++) {
		args[v].pat = pat;
		args[v].v = (enum rv)v;
		args[v].size = size;
		bench_add(&bc, rv_name[v], run_reuse, &args[v]);
	}
	bc.anchor = RV_NAPI;
	bench_case_run(&bc);
	for (v = 0; v < RV_NB; v++)
		snprintf(bc.v[v].note, sizeof(bc.v[v].note),
			"reuses %" PRIu64 " refills %" PRIu64 " small %" PRIu64,
			args[v].reuses, args[v].refills, args[v].small);
	bench_case_print(&bc);
	bench_metric_row(bc.bench, bc.name, "reuse % (napi)",
			reuse_pct(&args[RV_NAPI]), "%", 1.0, "-", NULL,
			bc.seed);
	saved = bench_ns(bench_paired_delta(&bc, RV_NOREUSE, RV_NAPI));
	snprintf(what, sizeof(what), "no-reuse - napi");
	bench_metric_row(bc.bench, bc.name, what, saved, "ns/op",
			bc.v[RV_NOREUSE].ratio, "napi", NULL, bc.seed);
}

int
main(int argc, char **argv)
{
	static const uint32_t sizes[] = { 256, 2048 };
	unsigned int p, i;

	bench_init(argc, argv, "reuse", 512, 1);
	bench_remote_start();
	bench_table_header();
	for (p = 0; p < P_NB; p++)
		for (i = 0; i < RTE_DIM(sizes); i++)
			reuse_case((enum rpat)p, sizes[i]);
	bench_remote_stop();
	return bench_fini(0);
}
