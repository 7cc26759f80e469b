/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-stress: multi-lcore allocator stress (see stress.h). EAL runs on
 * lcores 0 and 1; a third worker is a plain pthread (no lcore id). At the
 * end every object has been released, and the run passes only if npool
 * agrees: npool_audit() finds no inconsistency and no fragment or head
 * out, every chunk is back in the arena after the caches are drained,
 * npool's counters match the events the workers counted, npool_fini()
 * succeeds, and no worker saw a damaged buffer.
 *
 *   npool-stress [--ops N] [--seed S] [--chunks N] [--small N]
 *                [--heads N] [--ring N] [--progress SEC]
 *                [--inject scribble|leak]
 * Exit: 0 pass, 1 inconsistency, 2 bad command line, 3 set-up failure.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_ring_elem.h>

#include <npool.h>

#include "test_eal.h"
#include "stress.h"

#define ST_ERRORS_SHOWN 20

struct st_shared st_g;

const char * const st_ev_names[EV_NB] = {
	[EV_FRAG_NAPI] = "frag_napi_alloc",
	[EV_FRAG_GUARDED] = "frag_guarded_alloc",
	[EV_PKT_NAPI] = "pkt_napi_alloc",
	[EV_PKT_GUARDED] = "pkt_guarded_alloc",
	[EV_PKT_BUILD] = "pkt_build",
	[EV_CLONE] = "pkt_clone",
	[EV_REF] = "pkt_refcnt_inc",
	[EV_FREE_FRAG] = "frag_free",
	[EV_FREE_PKT] = "pkt_free",
	[EV_CONSUME] = "pkt_consume",
	[EV_CONSUME_BULK] = "pkt_consume_bulk",
	[EV_REMOTE] = "released_remotely",
	[EV_RING_FULL] = "ring_full_local",
	[EV_NOMEM] = "refused_enomem",
	[EV_NOBUFS] = "refused_enobufs",
	[EV_CONDENSE] = "pkt_condensed",
	[EV_DEFER_DRAIN] = "defer_drained",
	[EV_PKT_MID] = "pkt_mid_size",
};

void
st_error(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&st_g.errors, 1, __ATOMIC_RELAXED) >=
			ST_ERRORS_SHOWN)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "npool-stress: ERROR: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

/* Events of every worker summed (relaxed reads: the run may go on). */
static void
ev_sum(uint64_t ev[EV_NB])
{
	unsigned int i, e;

	memset(ev, 0, sizeof(uint64_t) * EV_NB);
	for (i = 0; i < ST_WORKERS; i++)
		for (e = 0; e < EV_NB; e++)
			ev[e] += __atomic_load_n(&st_g.w[i].ev[e],
					__ATOMIC_RELAXED);
}

static uint64_t
ops_of(const uint64_t ev[EV_NB])
{
	uint64_t n = 0;
	unsigned int e;

	for (e = 0; e < EV_NB_OPS; e++)
		n += ev[e];
	return n;
}

void
st_progress(void)
{
	static uint64_t calls, next;
	uint64_t ev[EV_NB], now, hz = rte_get_tsc_hz();
	double s;

	if (st_g.conf->progress == 0 || (++calls & 1023) != 0)
		return;
	now = rte_get_tsc_cycles();
	if (next == 0)
		next = st_g.start_tsc + st_g.conf->progress * hz;
	if (now < next)
		return;
	next = now + st_g.conf->progress * hz;
	ev_sum(ev);
	s = (double)(now - st_g.start_tsc) / hz;
	printf("progress: %.0f s, ops %" PRIu64 " (%.1f %%), %.2f Mops/s\n",
			s, ops_of(ev), 100.0 * ops_of(ev) / st_g.conf->ops,
			ops_of(ev) / s / 1e6);
	fflush(stdout);
}

static void
usage(const char *prog)
{
	printf("usage: %s [--ops N] [--seed S] [--chunks N] [--small N] [--heads N]\n"
		"          [--ring N] [--progress SEC] [--inject scribble|leak]\n"
		"  --ops N        operations in all, at least (default 1e6; 1e9 accepted)\n"
		"  --seed S       PRNG seed (default: from the clock, printed)\n"
		"  --chunks N     arena big chunks (default 4096)\n"
		"  --small N      arena 4 KiB chunks (default 256)\n"
		"  --heads N      head pool size (default 65535)\n"
		"  --ring N       elements per inbound ring, power of two (default 4096)\n"
		"  --progress SEC progress line every SEC seconds (default 0: none)\n"
		"  --inject F     plant one fault to see the run fail: scribble (a byte\n"
		"                 of a live fragment) or leak (a fragment never freed)\n",
		prog);
}

/* A positive number, decimal, 0x hex or with an exponent (1e9). */
static int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	double d;

	errno = 0;
	if (strncmp(s, "0x", 2) == 0 || strpbrk(s, "eE.") == NULL) {
		*out = strtoull(s, &end, 0);
	} else {
		d = strtod(s, &end);
		if (!(d >= 0 && d <= (double)max))
			return -1;
		*out = (uint64_t)d;
	}
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' ||
			*out > max)
		return -1;
	return 0;
}

static int
parse_args(int argc, char **argv, struct st_conf *c)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "chunks", required_argument, NULL, 'c' },
		{ "small", required_argument, NULL, 'm' },
		{ "heads", required_argument, NULL, 'H' },
		{ "ring", required_argument, NULL, 'r' },
		{ "progress", required_argument, NULL, 'p' },
		{ "inject", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v, max;
	int opt;

	*c = (struct st_conf){ .ops = 1000000, .chunks = 4096, .small = 256,
		.heads = 65535, .ring_size = 4096 };
	c->seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(argv[0]);
			exit(0);
		}
		if (opt == 'i') {
			if (strcmp(optarg, "scribble") == 0)
				c->inject = ST_INJECT_SCRIBBLE;
			else if (strcmp(optarg, "leak") == 0)
				c->inject = ST_INJECT_LEAK;
			else
				return -1;
			continue;
		}
		max = opt == 's' ? UINT64_MAX : opt == 'o' ? (uint64_t)1e15 :
			1u << 24;
		if (opt == '?' || parse_u64(optarg, max, &v) != 0 ||
				(v == 0 && opt != 's' && opt != 'p' &&
				 opt != 'm')) {
			if (opt != '?')
				fprintf(stderr, "bad value for option: %s\n",
						optarg);
			usage(argv[0]);
			return -1;
		}
		switch (opt) {
		case 'o': c->ops = v; break;
		case 's': c->seed = v; break;
		case 'c': c->chunks = (uint32_t)v; break;
		case 'm': c->small = (uint32_t)v; break;
		case 'H': c->heads = (uint32_t)v; break;
		case 'r': c->ring_size = (uint32_t)v; break;
		default: c->progress = (unsigned int)v; break;
		}
	}
	if (optind != argc || !rte_is_power_of_2(c->ring_size) ||
			c->heads < 64) {
		fprintf(stderr, "bad arguments (--ring a power of two, --heads >= 64)\n");
		usage(argv[0]);
		return -1;
	}
	return 0;
}

static char eal_prefix[32];

static void
remove_runtime_dir(void)
{
	test_eal_remove_runtime_dir(eal_prefix);
}

static int
eal_start(const char *prog)
{
	const struct test_eal e = { .prog = prog, .prefix = eal_prefix };

	snprintf(eal_prefix, sizeof(eal_prefix), "np-st-%d", (int)getpid());
	if (test_eal_init(&e, 0, NULL) != 0)
		return -1;
	if (rte_lcore_count() != 2) {
		fprintf(stderr, "need lcores 0 and 1\n");
		return -1;
	}
	return 0;
}

static int
npool_start(const struct st_conf *c)
{
	struct npool_conf nc;
	char name[RTE_RING_NAMESIZE];
	unsigned int i, j;

	npool_conf_defaults(&nc);
	nc.nb_chunks = c->chunks;
	nc.nb_small_chunks = c->small;
	nc.nb_heads = c->heads;
	/* The stress model is the head + fragment packet and the mid-size
	 * one (a whole object) below mid_len; tiny packets are covered by
	 * tests/unit/pkt_tiny_test.c. As many mid-size objects as heads,
	 * so that --heads runs both dry (at most 8192: 19 MiB). */
	nc.tiny_len = 0;
	nc.nb_mid = RTE_MIN(c->heads, 8192u);
#ifdef NPOOL_TSAN
	/* Not under ThreadSanitizer: the mid-size pool is on DPDK's stock
	 * ring, whose ordering on x86 (no RTE_USE_C11_MEM_MODEL: compiler
	 * barriers and an asm compare-and-set) TSan cannot see, so every
	 * object handed over through it reads as a race. The head + fragment
	 * packet's store is annotated (npool_tsan.h); unit test pkt_mid
	 * runs under make tsan. */
	nc.mid_len = 0;
#endif
	if (npool_init(&nc) != 0) {
		fprintf(stderr, "npool_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	for (i = 0; i < ST_WORKERS; i++) {
		for (j = 0; j < ST_WORKERS; j++) {
			snprintf(name, sizeof(name), "np_st_%u_%u", i, j);
			st_g.in[i][j] = rte_ring_create_elem(name,
					sizeof(struct st_msg), c->ring_size,
					SOCKET_ID_ANY,
					RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (st_g.in[i][j] == NULL) {
				fprintf(stderr, "ring: %s\n",
						rte_strerror(rte_errno));
				return -1;
			}
		}
		st_g.w[i].id = i;
		/* splitmix64 of seed + i: never a zero state. */
		st_g.w[i].rng = c->seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
		st_g.w[i].rng = (st_g.w[i].rng ^ (st_g.w[i].rng >> 30)) *
			0xBF58476D1CE4E5B9ULL;
		st_g.w[i].rng ^= st_g.w[i].rng >> 31;
		st_g.w[i].rng |= 1;
	}
	return 0;
}

static void *
thread_main(void *arg)
{
	st_worker_main(arg);
	return NULL;
}

/*
 * lcore 1's worker, and a flag set when it returns. rte_eal_wait_lcore()
 * learns that from an atomic inside librte_eal, which ThreadSanitizer
 * does not see (make tsan): acquiring the flag after the wait gives the
 * final checks the same edge from everything lcore 1 did.
 */
static uint32_t lcore1_returned;

static int
lcore1_main(void *arg)
{
	int ret = st_worker_main(arg);

	__atomic_store_n(&lcore1_returned, 1, __ATOMIC_RELEASE);
	return ret;
}

/* Run the three workers; return the elapsed seconds, or < 0. */
static double
run(void)
{
	pthread_attr_t attr;
	pthread_t tid;
	cpu_set_t all;
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);

	/* The non-EAL worker floats over every CPU, not lcore 0's. */
	CPU_ZERO(&all);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(all), &all);
	st_g.start_tsc = rte_get_tsc_cycles();
	if (pthread_create(&tid, &attr, thread_main, &st_g.w[ST_THREAD])) {
		fprintf(stderr, "pthread_create failed\n");
		return -1;
	}
	pthread_attr_destroy(&attr);
	if (rte_eal_remote_launch(lcore1_main, &st_g.w[1], 1) != 0) {
		fprintf(stderr, "lcore 1 launch failed\n");
		__atomic_store_n(&st_g.w[1].done, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&lcore1_returned, 1, __ATOMIC_RELEASE);
	}
	st_worker_main(&st_g.w[0]);
	rte_eal_wait_lcore(1);
	/* Set before lcore 1 went back to WAIT: no wait here. */
	while (!__atomic_load_n(&lcore1_returned, __ATOMIC_ACQUIRE))
		rte_pause();
	pthread_join(tid, NULL);
	return (double)(rte_get_tsc_cycles() - st_g.start_tsc) /
		rte_get_tsc_hz();
}

/* Packets lcore 1's ring still holds, freed on lcore 1 (its ring's only
 * consumer), and a flag as lcore1_returned's. */
static unsigned int lcore1_drained;
static uint32_t lcore1_drain_done;

static int
lcore1_drain(void *arg __rte_unused)
{
	lcore1_drained = npool_napi_defer_drain();
	__atomic_store_n(&lcore1_drain_done, 1, __ATOMIC_RELEASE);
	return 0;
}

/*
 * The last consume bursts may have handed packets back to an lcore that
 * had stopped draining its defer ring: each EAL lcore frees what its
 * ring holds (the non-EAL thread has none). Counted as the workers'
 * releases were, before the checks.
 */
static void
drain_defer_rings(uint64_t ev[EV_NB])
{
	ev[EV_DEFER_DRAIN] += npool_napi_defer_drain();
	if (rte_eal_remote_launch(lcore1_drain, NULL, 1) != 0)
		return;
	rte_eal_wait_lcore(1);
	while (!__atomic_load_n(&lcore1_drain_done, __ATOMIC_ACQUIRE))
		rte_pause();
	ev[EV_DEFER_DRAIN] += lcore1_drained;
}

static void
print_audit(const char *when, int ret, const struct npool_audit *a)
{
	printf("audit %s: %s; chunks %u: free %u, cached %u, pinned %u; frags out %" PRId64 " (counters %" PRId64 "); heads %u, free %u; errors %u\n",
			when, ret == 0 ? "consistent" : rte_strerror(-ret),
			a->chunks, a->chunks_free, a->chunks_cached,
			a->chunks_pinned, a->frags_out, a->frags_counted,
			a->heads, a->heads_free, a->errors);
}

/* Compare one npool counter with what the workers counted. */
static unsigned int
expect(const char *what, uint64_t npool, uint64_t workers)
{
	printf("  %-34s npool %12" PRIu64 "  workers %12" PRIu64 "  %s\n",
			what, npool, workers, npool == workers ? "ok" : "MISMATCH");
	return npool != workers;
}

/* Everything released: check npool agrees. Return inconsistencies. */
static unsigned int
final_checks(const uint64_t ev[EV_NB])
{
	struct rte_mempool *hp = npool_head_pool();
	uint64_t acq = 0, rel = 0, frags;
	struct npool_audit a;
	struct npool_stats s;
	unsigned int bad = 0, i, e;
	int ret;

	for (e = 0; e < EV_FIRST_RELEASE; e++)
		acq += ev[e];
	for (e = EV_FIRST_RELEASE; e < EV_NB_OPS; e++)
		rel += ev[e];
	for (i = 0; i < ST_WORKERS * ST_WORKERS; i++)
		bad += rte_ring_count(st_g.in[i / ST_WORKERS][i % ST_WORKERS]) !=
			0;
	/* A built packet's fragment is released with the packet. */
	printf("  %-34s %12" PRIu64 " of %12" PRIu64 "  %s\n",
			"released (acquired - builds)", rel,
			acq - ev[EV_PKT_BUILD],
			rel == acq - ev[EV_PKT_BUILD] ? "ok" : "MISMATCH");
	bad += rel != acq - ev[EV_PKT_BUILD];
	npool_stats_sum(&s);
	/* A mid-size packet takes no fragment. */
	frags = ev[EV_FRAG_NAPI] + ev[EV_FRAG_GUARDED] + ev[EV_PKT_NAPI] +
		ev[EV_PKT_GUARDED] - ev[EV_PKT_MID];
	/* A condensed packet's copy is one more fragment, its old one
	 * freed at once. */
	bad += expect("condensed", s.condensed, ev[EV_CONDENSE]);
	bad += expect("allocs + guarded_allocs - condensed",
			s.allocs + s.guarded_allocs - s.condensed, frags);
	bad += expect("frees - condensed (every fragment back)",
			s.frees - s.condensed, frags);
	bad += expect("pkt_allocs", s.pkt_allocs,
			ev[EV_PKT_NAPI] + ev[EV_PKT_GUARDED]);
	bad += expect("pkt_builds", s.pkt_builds, ev[EV_PKT_BUILD]);
	bad += expect("pkt_consumes", s.pkt_consumes,
			ev[EV_CONSUME] + ev[EV_CONSUME_BULK]);
	/* Every counter, from the one field list. */
	printf("  npool:");
#define PRINT(x) printf(" " #x " %" PRIu64, s.x);
	NPOOL_STATS_FIELDS(PRINT)
#undef PRINT
	printf("\n");

	ret = npool_audit(&a);
	print_audit("before drain", ret, &a);
	bad += ret != 0 || a.frags_out != 0 || a.frags_counted != 0 ||
		a.heads_free != a.heads;
	npool_frag_cache_drain_all();
	ret = npool_audit(&a);
	print_audit("after drain", ret, &a);
	bad += ret != 0 || a.chunks_free != a.chunks ||
		a.chunks_cached != 0 || a.chunks_pinned != 0;
	printf("head pool: %u of %u available\n", rte_mempool_avail_count(hp),
			hp->size);
	bad += rte_mempool_avail_count(hp) != hp->size;
	if (npool_default()->mid_pool != NULL) {
		bad += expect("mid-size objects back",
				rte_mempool_avail_count(
					npool_default()->mid_pool),
				npool_default()->mid_pool->size);
		bad += expect("mid-size packets made", ev[EV_PKT_MID] != 0,
				1);
	}
	ret = npool_fini();
	printf("npool_fini: %d\n", ret);
	bad += ret != 0;
	return bad;
}

int
main(int argc, char **argv)
{
	static struct st_conf conf;
	uint64_t ev[EV_NB];
	unsigned int bad, e;
	double secs;

	if (parse_args(argc, argv, &conf) != 0)
		return 2;
	st_g.conf = &conf;
	printf("npool-stress: seed %#" PRIx64 " (--seed to repeat), ops >= %" PRIu64 ", lcores 0-1 + 1 non-EAL thread, chunk %u B, arena %u + %u small chunks, %u heads, rings of %u\n",
			conf.seed, conf.ops, NPOOL_CHUNK_SIZE, conf.chunks,
			conf.small, conf.heads, conf.ring_size);
	printf("npool-stress: %s build\n", NPOOL_DEBUG ?
			"npool_debug (misuse checks on)" : "release");
	fflush(stdout);
	if (eal_start(argv[0]) != 0)
		return 3;
	if (npool_start(&conf) != 0) {
		rte_eal_cleanup();
		remove_runtime_dir();
		return 3;
	}
	secs = run();
	ev_sum(ev);
	drain_defer_rings(ev);
	printf("ops %" PRIu64 " in %.2f s: %.2f Mops/s\n", ops_of(ev), secs,
			ops_of(ev) / secs / 1e6);
	for (e = 0; e < EV_NB; e++)
		printf("  %-20s %14" PRIu64 "%s\n", st_ev_names[e], ev[e],
				e < EV_NB_OPS ? "" : "  (not an op)");
	bad = final_checks(ev);
	printf("buffer errors: %" PRIu64 "\n", st_g.errors);
	bad += st_g.errors != 0;
	for (e = 0; e < ST_WORKERS * ST_WORKERS; e++)
		rte_ring_free(st_g.in[e / ST_WORKERS][e % ST_WORKERS]);
	rte_eal_cleanup();
	remove_runtime_dir();
	printf("result: %s (seed %#" PRIx64 ")\n", bad == 0 ? "PASS" : "FAIL",
			conf.seed);
	return bad == 0 ? 0 : 1;
}
