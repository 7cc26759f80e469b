/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hand-off (issue 35): packets made on one lcore, passed over an rte_ring
 * and freed on another, as DPDK pipeline apps do (an RX lcore, a ring,
 * worker lcores). The kernel sends such frees back to the CPU that
 * allocated (skb_attempt_defer_free()) for what they cost; this measures
 * what they cost npool against the stock mempool.
 *
 * The main lcore makes bursts of 32 and enqueues them on one ring (single
 * producer, multi-consumer); 1 or 2 worker lcores dequeue bursts, read
 * each packet's first byte and free the burst. What is made:
 *   pkt  the library's packet API: npool_napi_alloc_pkt_bulk(), freed by
 *        npool_napi_consume_bulk(); against rte_pktmbuf_alloc_bulk() and
 *        rte_pktmbuf_free_bulk() on a stock pool with the mempool cache
 *        of the npool pool that serves the size (256: the tiny and the
 *        mid-size packets' pools up to NPOOL_PKT_MID_LEN; 64: the heads
 *        of a head + fragment packet);
 *   rx   rte_eth_rx_burst() on a net_null port whose RX pool is on the
 *        "npool" ops (npool_pktmbuf_pool_create(), cache 64) or stock
 *        (cache 64);
 *   cb   rx on the npool RX pool, then npool_rx_copybreak(256): the tiny
 *        copies travel, the RX mbufs go back at once; against the same on
 *        stock pools, DPDK's way: rx on the stock pool, rte_pktmbuf_copy()
 *        of each packet into a stock pool of tiny packets' size (cache
 *        256, as npool's), rte_pktmbuf_free_bulk() of the RX mbufs.
 * The "work" case has the worker spend some 30 ns on each packet (a
 * dependent chain of HO_WORK multiply-adds) before freeing it, as the
 * workers of a pipeline do the heavy work: the worker is then the slower
 * stage, where the other cases leave both stages as light.
 * Variants: npool and stock through the ring to the worker(s) (the anchor:
 * stock); npool and stock on one lcore (the main lcore dequeues and frees
 * its own bursts: the same ring, no second core). Value: ns a packet over
 * the pipeline, from the first burst to the last packet freed (TSC);
 * Mpps and npool's remote_frees a packet as metric rows. With --instr,
 * "handoff-instr:" lines name the functions that make (ho_cg_make_v<i>)
 * and free (ho_cg_free_v<i>) the packets of variant i, for
 * tests/bench/handoff_callgrind.py (instructions and atomic operations a
 * packet; the ring's enqueue and dequeue are outside both). Counted runs
 * keep at most 64 packets in flight: callgrind runs one thread at a
 * time, for long stretches, which would otherwise let a worker free a
 * whole ring's worth while the lcore that made them waits.
 *
 * Lcores: --lcores 0@0,1@1,2@1. The 2-worker cases put both workers on
 * core 1 (a 2-core machine has no third), each yielding when the ring is
 * empty: they count the work of two freeing lcores (remote frees,
 * instructions, atomics), their time is that of one core.
 */
#include <inttypes.h>
#include <sched.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "npool.h"
#include "bench_common.h"

#define HO_RING_SIZE 1024
#define HO_MAX_WORKERS 2
#define HO_POOL_SIZE 8191
#define HO_SEED "skb_attempt_defer_free"
/* Packets in flight at most with --instr (callgrind). */
#define HO_INSTR_WINDOW 64
/* The "work" case: multiply-adds per packet on the freeing lcore. */
#define HO_WORK 32

enum ho_src { SRC_PKT, SRC_RX, SRC_CB };
enum ho_var { HV_NPOOL, HV_STOCK, HV_NPOOL_1LC, HV_STOCK_1LC, HV_NB };

static const char * const hv_name[] = {
	[HV_NPOOL] = "npool handoff",
	[HV_STOCK] = "stock handoff",
	[HV_NPOOL_1LC] = "npool one lcore",
	[HV_STOCK_1LC] = "stock one lcore",
};

struct ho_arg {
	enum ho_src src;
	int npool;
	int one_lcore;
	unsigned int workers;
	unsigned int work;          /* multiply-adds per packet freed */
	unsigned int slot;          /* variant index: its ho_cg_* functions */
	struct rte_mempool *mp;     /* SRC_PKT stock: the pool */
	uint16_t port;              /* SRC_RX, SRC_CB: the net_null port */
	uint32_t lens[BENCH_BURST]; /* SRC_PKT: len of each packet */
	/* Over every run, the warm-up included: */
	uint64_t made;              /* packets made */
	uint64_t remote_frees;      /* npool_stats.remote_frees */
};

/* What the workers do; written by the main lcore while nothing is in
 * flight, read by a worker after the dequeue that got its packets. */
static struct {
	struct rte_ring *ring;
	unsigned int active;   /* workers polling */
	unsigned int slot;     /* variant: ho_free_fn[slot] */
	unsigned int work;     /* ho_arg.work */
	int npool;
	int share;             /* the workers share a core: yield when idle */
	int stop;
} job;

static struct ho_worker {
	uint64_t freed;        /* packets freed, written by the worker */
	int polling;           /* 1 while it polls the ring */
	unsigned int lcore;
} __rte_cache_aligned wk[HO_MAX_WORKERS];

static volatile unsigned int ho_slot_seen;

/* Make one burst of @p a into @p pkts: the number made. */
static __rte_always_inline unsigned int
ho_make(const struct ho_arg *a, struct rte_mbuf **pkts)
{
	unsigned int i, n;

	if (a->src != SRC_PKT) {
		n = rte_eth_rx_burst(a->port, 0, pkts, BENCH_BURST);
		if (a->src == SRC_CB && a->npool) {
			npool_rx_copybreak(pkts, (uint16_t)n,
					NPOOL_PKT_SMALL_LEN);
		} else if (a->src == SRC_CB && n != 0) {
			struct rte_mbuf *rx[BENCH_BURST];

			memcpy(rx, pkts, n * sizeof(rx[0]));
			for (i = 0; i < n; i++) {
				pkts[i] = rte_pktmbuf_copy(rx[i], a->mp, 0,
						UINT32_MAX);
				if (unlikely(pkts[i] == NULL))
					rte_panic("bench handoff: copy\n");
			}
			rte_pktmbuf_free_bulk(rx, n);
		}
		return n;
	}
	if (a->npool) {
		n = npool_napi_alloc_pkt_bulk(pkts, a->lens, BENCH_BURST);
		if (unlikely(n != BENCH_BURST))
			rte_panic("bench handoff: npool packets: %s\n",
					rte_strerror(rte_errno));
	} else {
		if (unlikely(rte_pktmbuf_alloc_bulk(a->mp, pkts,
				BENCH_BURST) != 0))
			rte_panic("bench handoff: stock pool empty\n");
		n = BENCH_BURST;
	}
	/* What an app writes: a header. */
	for (i = 0; i < n; i++)
		memset(rte_pktmbuf_append(pkts[i], (uint16_t)a->lens[i]),
				0x5a, 64);
	return n;
}

/* Read each packet's first byte, as a worker reads its header, and work
 * @p work steps on it; then free the burst. */
static __rte_always_inline void
ho_free(int npool, unsigned int work, struct rte_mbuf **pkts,
		unsigned int n)
{
	unsigned int i, j, sum = 0;

	for (i = 0; i < n; i++) {
		sum += *rte_pktmbuf_mtod(pkts[i], volatile uint8_t *);
		for (j = 0; j < work; j++)
			sum = sum * 31 + j;
	}
	ho_slot_seen = sum;
	if (npool)
		npool_napi_consume_bulk(pkts, n);
	else
		rte_pktmbuf_free_bulk(pkts, n);
}

/* One function pair per variant slot, for callgrind's --toggle-collect
 * (the volatile store keeps the bodies apart: no identical-code
 * folding). */
#define HO_CG_FN(k) \
static __rte_noinline unsigned int \
ho_cg_make_v##k(const struct ho_arg *a, struct rte_mbuf **pkts) \
{ \
	ho_slot_seen = k; \
	return ho_make(a, pkts); \
} \
static __rte_noinline void \
ho_cg_free_v##k(int npool, unsigned int work, struct rte_mbuf **pkts, \
		unsigned int n) \
{ \
	ho_slot_seen = k; \
	ho_free(npool, work, pkts, n); \
}
HO_CG_FN(0)
HO_CG_FN(1)
HO_CG_FN(2)
HO_CG_FN(3)

static unsigned int (* const ho_make_fn[HV_NB])(const struct ho_arg *,
		struct rte_mbuf **) = {
	ho_cg_make_v0, ho_cg_make_v1, ho_cg_make_v2, ho_cg_make_v3,
};
static void (* const ho_free_fn[HV_NB])(int, unsigned int,
		struct rte_mbuf **, unsigned int) = {
	ho_cg_free_v0, ho_cg_free_v1, ho_cg_free_v2, ho_cg_free_v3,
};

static int
ho_worker_main(void *arg)
{
	struct ho_worker *w = arg;
	const unsigned int idx = (unsigned int)(w - wk);
	struct rte_mbuf *objs[BENCH_BURST];
	uint64_t freed = 0;
	unsigned int n;

	while (!__atomic_load_n(&job.stop, __ATOMIC_ACQUIRE)) {
		if (idx >= __atomic_load_n(&job.active, __ATOMIC_ACQUIRE)) {
			/* Not in this variant: off the core. */
			__atomic_store_n(&w->polling, 0, __ATOMIC_RELEASE);
			rte_delay_us_sleep(100);
			continue;
		}
		__atomic_store_n(&w->polling, 1, __ATOMIC_RELEASE);
		n = rte_ring_mc_dequeue_burst(job.ring, (void **)objs,
				BENCH_BURST, NULL);
		if (n == 0) {
			if (__atomic_load_n(&job.share, __ATOMIC_RELAXED))
				sched_yield();
			else
				rte_pause();
			continue;
		}
		/* The variant's settings, published before its packets. */
		ho_free_fn[__atomic_load_n(&job.slot, __ATOMIC_ACQUIRE)](
				__atomic_load_n(&job.npool, __ATOMIC_RELAXED),
				__atomic_load_n(&job.work, __ATOMIC_RELAXED),
				objs, n);
		freed += n;
		__atomic_store_n(&w->freed, freed, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&w->polling, 0, __ATOMIC_RELEASE);
	return 0;
}

static uint64_t
ho_freed(void)
{
	uint64_t s = 0;
	unsigned int i;

	for (i = 0; i < HO_MAX_WORKERS; i++)
		s += __atomic_load_n(&wk[i].freed, __ATOMIC_ACQUIRE);
	return s;
}

/* Set the workers up for @p a and wait until those it uses poll. */
static void
ho_job_set(const struct ho_arg *a)
{
	unsigned int i, active = a->one_lcore ? 0 : a->workers;

	__atomic_store_n(&job.npool, a->npool, __ATOMIC_RELAXED);
	__atomic_store_n(&job.work, a->work, __ATOMIC_RELAXED);
	__atomic_store_n(&job.share, active > 1 &&
			rte_lcore_to_cpu_id((int)wk[0].lcore) ==
			rte_lcore_to_cpu_id((int)wk[1].lcore), __ATOMIC_RELAXED);
	__atomic_store_n(&job.slot, a->slot, __ATOMIC_RELEASE);
	__atomic_store_n(&job.active, active, __ATOMIC_RELEASE);
	for (i = 0; i < HO_MAX_WORKERS; i++)
		while (__atomic_load_n(&wk[i].polling, __ATOMIC_ACQUIRE) !=
				(i < active))
			rte_pause();
}

static uint64_t
ho_run(void *arg, unsigned int n)
{
	struct ho_arg *a = arg;
	struct rte_mbuf *pkts[BENCH_BURST];
	struct npool_stats s0, s1;
	uint64_t t0, t, sent = 0, base;

	ho_job_set(a);
	npool_stats_sum(&s0);
	base = ho_freed();
	t0 = rte_rdtsc_precise();
	while (sent < n) {
		unsigned int k, done = 0;

		/* Counted (--instr): at most HO_INSTR_WINDOW packets in
		 * flight (the file doc). */
		if (bench_opts.instr && !a->one_lcore)
			while (sent - (ho_freed() - base) > HO_INSTR_WINDOW -
					BENCH_BURST)
				rte_pause();
		k = ho_make_fn[a->slot](a, pkts);
		while (done < k) {
			done += rte_ring_sp_enqueue_burst(job.ring,
					(void **)pkts + done, k - done, NULL);
			if (done == k)
				break;
			/* The ring is full: an RX loop turn with nothing to
			 * send frees what the workers handed back. */
			if (a->npool)
				npool_napi_defer_drain();
			rte_pause();
		}
		sent += k;
		if (a->one_lcore) {
			k = rte_ring_mc_dequeue_burst(job.ring, (void **)pkts,
					BENCH_BURST, NULL);
			ho_free_fn[a->slot](a->npool, a->work, pkts, k);
		}
	}
	if (!a->one_lcore)
		while (ho_freed() - base != sent)
			rte_pause();
	t = rte_rdtsc_precise() - t0;
	npool_stats_sum(&s1);
	a->made += sent;
	a->remote_frees += s1.remote_frees - s0.remote_frees;
	return t;
}

static struct rte_mempool *stock64, *stock256, *stock_tiny, *rx_np, *rx_st;
static uint16_t port_of[2][2]; /* [npool][len 1500] */

static void
ho_case(enum ho_src src, uint32_t len, unsigned int workers,
		unsigned int work)
{
	static const char * const src_name[] = {
		[SRC_PKT] = "pkt", [SRC_RX] = "rx", [SRC_CB] = "cb",
	};
	struct ho_arg args[HV_NB];
	struct bench_case bc;
	char name[48];
	unsigned int v, i;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "handoff";
	snprintf(bc.name, sizeof(bc.name), "%s %uB%s %uw", src_name[src], len,
			work != 0 ? " work" : "", workers);
	if (!bench_selected(bc.name))
		return;
	bc.seed = HO_SEED;
	bc.n = RTE_ALIGN_FLOOR(bench_scale(1u << 18), BENCH_BURST);
	bc.ops_per_call = 1;
	memset(args, 0, sizeof(args));
	for (v = 0; v < HV_NB; v++) {
		struct ho_arg *a = &args[v];

		/* One lcore does not depend on the workers: once, at 1. */
		if (workers > 1 && (v == HV_NPOOL_1LC || v == HV_STOCK_1LC))
			continue;
		a->src = src;
		a->npool = v == HV_NPOOL || v == HV_NPOOL_1LC;
		a->one_lcore = v == HV_NPOOL_1LC || v == HV_STOCK_1LC;
		a->workers = workers;
		a->work = work;
		a->mp = len <= NPOOL_PKT_MID_LEN ? stock256 : stock64;
		a->port = port_of[a->npool][len > 64];
		if (src == SRC_CB && !a->npool)
			a->mp = stock_tiny;
		for (i = 0; i < BENCH_BURST; i++)
			a->lens[i] = len;
		a->slot = bench_add(&bc, hv_name[v], ho_run, a);
	}
	bc.anchor = args[HV_STOCK].slot;
	bench_case_run(&bc);
	if (workers == 1)
		bench_target(bc.v[args[HV_NPOOL].slot].target,
				sizeof(bc.v[0].target),
				bc.v[args[HV_NPOOL].slot].ratio <= 1.0,
				"<=1.00x");
	bench_case_print(&bc);
	for (v = 0; v < HV_NB; v++) {
		const struct ho_arg *a = &args[v];
		double ns;

		if (a->made == 0)
			continue;
		/* Every packet the variant made, the warm-up's included: what
		 * callgrind counted in its functions. */
		if (bench_opts.instr)
			fprintf(stderr, "handoff-instr: %u|%s|%s|%s|%" PRIu64
					"\n", a->slot, bc.bench, bc.name,
					hv_name[v], a->made);
		if (a->one_lcore)
			continue;
		/* The median round's rate; its ratio is the anchor's time
		 * over this one's (median of the rounds' ratios). */
		ns = bench_ns(bc.v[a->slot].med);
		snprintf(name, sizeof(name), "%s Mpps", hv_name[v]);
		bench_metric_row("handoff", bc.name, name, 1e3 / ns, "Mpps",
				1.0 / bc.v[a->slot].ratio, hv_name[HV_STOCK],
				NULL, HO_SEED);
		if (!a->npool)
			continue;
		snprintf(name, sizeof(name), "%s remote_frees", hv_name[v]);
		bench_metric_row("handoff", bc.name, name,
				(double)a->remote_frees / (double)a->made,
				"/pkt", 0, "-", NULL, HO_SEED);
	}
}

/* A net_null port (@p vdev, already probed) receiving into @p mp. */
static uint16_t
ho_port(const char *vdev, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	uint16_t port;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_get_port_by_name(vdev, &port) != 0 ||
			rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
			rte_eth_rx_queue_setup(port, 0, 512, SOCKET_ID_ANY, NULL,
				mp) != 0 ||
			rte_eth_tx_queue_setup(port, 0, 512, SOCKET_ID_ANY,
				NULL) != 0 ||
			rte_eth_dev_start(port) != 0)
		rte_exit(1, "bench handoff: port %s: %s\n", vdev,
				rte_strerror(rte_errno));
	return port;
}

int
main(int argc, char **argv)
{
	static const char *vdevs[] = {
		"--vdev=net_null0,size=64", "--vdev=net_null1,size=64",
		"--vdev=net_null2,size=1500", "--vdev=net_null3,size=1500",
	};
	struct rte_ring *ring;
	unsigned int i, w;
	uint16_t p;

	bench_init_eal(argc, argv, "handoff", 1024, 1, "0@0,1@1,2@1",
			RTE_DIM(vdevs), vdevs);
	if (rte_lcore_count() < 1 + HO_MAX_WORKERS)
		rte_exit(1, "bench handoff: needs 3 lcores\n");
	if (npool_init(NULL) != 0)
		rte_exit(1, "npool_init: %s\n", rte_strerror(rte_errno));
	stock64 = rte_pktmbuf_pool_create("ho_st64", HO_POOL_SIZE, 64, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	stock256 = rte_pktmbuf_pool_create("ho_st256", HO_POOL_SIZE, 256, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	stock_tiny = rte_pktmbuf_pool_create("ho_st_tiny", HO_POOL_SIZE, 256,
			0, NPOOL_PKT_TINY_HEADROOM + NPOOL_PKT_SMALL_LEN,
			SOCKET_ID_ANY);
	rx_st = rte_pktmbuf_pool_create("ho_rx_st", HO_POOL_SIZE, 64, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	rx_np = npool_pktmbuf_pool_create("ho_rx_np", HO_POOL_SIZE, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ring = rte_ring_create("ho_ring", HO_RING_SIZE, SOCKET_ID_ANY,
			RING_F_SP_ENQ);
	if (stock64 == NULL || stock256 == NULL || stock_tiny == NULL ||
			rx_st == NULL ||
			rx_np == NULL || ring == NULL)
		rte_exit(1, "bench handoff: pools: %s\n",
				rte_strerror(rte_errno));
	port_of[1][0] = ho_port("net_null0", rx_np);
	port_of[0][0] = ho_port("net_null1", rx_st);
	port_of[1][1] = ho_port("net_null2", rx_np);
	port_of[0][1] = ho_port("net_null3", rx_st);
	job.ring = ring;
	w = 0;
	RTE_LCORE_FOREACH_WORKER(i) {
		if (w == HO_MAX_WORKERS)
			break;
		wk[w].lcore = i;
		if (rte_eal_remote_launch(ho_worker_main, &wk[w], i) != 0)
			rte_exit(1, "bench handoff: lcore %u\n", i);
		w++;
	}
	bench_table_header();
	for (w = 1; w <= HO_MAX_WORKERS; w++) {
		ho_case(SRC_PKT, 64, w, 0);
		ho_case(SRC_PKT, 1500, w, 0);
		ho_case(SRC_RX, 64, w, 0);
		ho_case(SRC_RX, 1500, w, 0);
		ho_case(SRC_CB, 64, w, 0);
	}
	ho_case(SRC_PKT, 1500, 1, HO_WORK);
	__atomic_store_n(&job.stop, 1, __ATOMIC_RELEASE);
	rte_eal_mp_wait_lcore();
	RTE_ETH_FOREACH_DEV(p) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	rte_ring_free(ring);
	rte_mempool_free(stock64);
	rte_mempool_free(stock256);
	rte_mempool_free(stock_tiny);
	rte_mempool_free(rx_st);
	rte_mempool_free(rx_np);
	if (npool_frag_cache_drain_all() != 0 || npool_fini() != 0)
		fprintf(stderr, "bench handoff: npool_fini: leak\n");
	return bench_fini(0);
}
