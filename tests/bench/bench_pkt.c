/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet alloc+free: npool_napi_alloc_pkt(len) with npool_napi_consume
 * (napi_alloc_skb + napi_consume_skb, seeds 3 and 7) vs rte_pktmbuf_alloc
 * and rte_pktmbuf_free on a stock pool with cache 256 (the anchor). Also
 * npool packets freed by plain rte_pktmbuf_free (through the mempool ops),
 * the guarded npool_alloc_pkt, and stock mbufs from a pool on the "npool"
 * ops (the head cache as a mempool cache). Per op and per burst of 32.
 * Targets (issue 10): napi alloc+consume <= 1.0x the anchor one at a time,
 * <= 0.8x per burst of 32; issue 17 asks <= 1.5x per burst at 1500 B (a
 * head + fragment packet against one stock mbuf). And a PMD's pattern,
 * rte_pktmbuf_alloc_bulk() of 32 as an RX refill does, then
 * rte_pktmbuf_free() one at a time as a consumer does, on an npool RX
 * pool (npool_pktmbuf_pool_create) against the stock pool: <= 0.9x.
 * And what keeping a packet costs: npool_pkt_condense() (issue 35) on
 * each, against the same alloc+consume without it, 512 to 9000 B.
 */
#include <string.h>

#include <rte_mbuf.h>

#include "npool.h"
#include "rte_mempool_npool.h"
#include "bench_common.h"

enum pv { PV_NAPI, PV_NAPI_FREE, PV_GUARDED, PV_MBUF256, PV_MBUF_NPOOL };

static const char * const pv_name[] = {
	[PV_NAPI] = "napi_alloc+consume",
	[PV_NAPI_FREE] = "napi_alloc+pktmbuf_free",
	[PV_GUARDED] = "npool_alloc_pkt+free",
	[PV_MBUF256] = "pktmbuf cache256",
	[PV_MBUF_NPOOL] = "pktmbuf npool-ops",
};

struct pkt_arg {
	int burst;
	uint32_t len;
	struct rte_mempool *mp;
};

static __rte_always_inline struct rte_mbuf *
pv_alloc(enum pv v, const struct pkt_arg *a)
{
	struct rte_mbuf *m;

	switch (v) {
	case PV_NAPI:
	case PV_NAPI_FREE:
		m = npool_napi_alloc_pkt(a->len);
		break;
	case PV_GUARDED:
		m = npool_alloc_pkt(a->len);
		break;
	default:
		m = rte_pktmbuf_alloc(a->mp);
	}
	if (unlikely(m == NULL))
		rte_panic("bench pkt: %s: %s\n", pv_name[v],
				rte_strerror(rte_errno));
	return m;
}

static __rte_always_inline void
pv_free(enum pv v, struct rte_mbuf *m)
{
	if (v == PV_NAPI)
		npool_napi_consume_pkt(m);
	else
		rte_pktmbuf_free(m);
}

static __rte_always_inline void
pv_burst(enum pv v, const struct pkt_arg *a)
{
	struct rte_mbuf *pkts[BENCH_BURST];
	unsigned int i;

	if (v == PV_MBUF256 || v == PV_MBUF_NPOOL) {
		if (rte_pktmbuf_alloc_bulk(a->mp, pkts, BENCH_BURST) != 0)
			rte_panic("bench pkt: pool empty\n");
	} else if (v == PV_NAPI) {
		/* A burst's API: napi_alloc_skb() on a burst, heads in one
		 * bulk get (npool_pkt_bulk.h). */
		uint32_t l[BENCH_BURST];

		for (i = 0; i < BENCH_BURST; i++)
			l[i] = a->len;
		if (npool_napi_alloc_pkt_bulk(pkts, l, BENCH_BURST) !=
				BENCH_BURST)
			rte_panic("bench pkt: napi bulk: %s\n",
					rte_strerror(rte_errno));
	} else {
		for (i = 0; i < BENCH_BURST; i++)
			pkts[i] = pv_alloc(v, a);
	}
	if (v == PV_NAPI)
		npool_napi_consume_bulk(pkts, BENCH_BURST);
	else
		rte_pktmbuf_free_bulk(pkts, BENCH_BURST);
}

static __rte_always_inline uint64_t
pkt_loop(enum pv v, const void *arg, unsigned int n)
{
	const struct pkt_arg *a = arg;
	uint64_t t0 = rte_rdtsc_precise();
	unsigned int i;

	if (a->burst) {
		for (i = 0; i < n; i += BENCH_BURST)
			pv_burst(v, a);
	} else {
		for (i = 0; i < n; i++)
			pv_free(v, pv_alloc(v, a));
	}
	return rte_rdtsc_precise() - t0;
}

BENCH_RUN_FN(pkt_loop, PV_NAPI)
BENCH_RUN_FN(pkt_loop, PV_NAPI_FREE)
BENCH_RUN_FN(pkt_loop, PV_GUARDED)
BENCH_RUN_FN(pkt_loop, PV_MBUF256)
BENCH_RUN_FN(pkt_loop, PV_MBUF_NPOOL)

static uint64_t (* const pv_run[])(void *, unsigned int) = {
	[PV_NAPI] = run_PV_NAPI, [PV_NAPI_FREE] = run_PV_NAPI_FREE,
	[PV_GUARDED] = run_PV_GUARDED, [PV_MBUF256] = run_PV_MBUF256,
	[PV_MBUF_NPOOL] = run_PV_MBUF_NPOOL,
};

static struct rte_mempool *mp256, *mpnp;

static void
pkt_case(int burst, uint32_t len)
{
	struct pkt_arg args[RTE_DIM(pv_name)];
	struct bench_case bc;
	unsigned int v;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "pkt";
	snprintf(bc.name, sizeof(bc.name), "%s len %u",
			burst ? "burst32" : "op", len);
	if (!bench_selected(bc.name))
		return;
	bc.seed = "3/7 napi_alloc_skb";
	bc.n = bench_scale(1u << 19);
	bc.ops_per_call = 1;
	for (v = 0; v < RTE_DIM(pv_name); v++) {
		args[v].burst = burst;
		args[v].len = len;
		args[v].mp = v == PV_MBUF_NPOOL ? mpnp : mp256;
		bench_add(&bc, pv_name[v], pv_run[v], &args[v]);
	}
	bc.anchor = PV_MBUF256;
	bench_case_run(&bc);
	if (burst && len > NPOOL_PKT_SMALL_LEN)
		bench_target(bc.v[PV_NAPI].target, sizeof(bc.v[0].target),
				bc.v[PV_NAPI].ratio <= 1.5, "<=1.50x");
	else
		bench_target(bc.v[PV_NAPI].target, sizeof(bc.v[0].target),
				bc.v[PV_NAPI].ratio <= (burst ? 0.8 : 1.0),
				burst ? "<=0.80x" : "<=1.00x");
	bench_case_print(&bc);
}

/* A PMD's pattern: refill a burst in bulk, free the packets one by one. */
static __rte_always_inline uint64_t
pmd_loop(struct rte_mempool *mp, unsigned int n)
{
	struct rte_mbuf *pkts[BENCH_BURST];
	uint64_t t0 = rte_rdtsc_precise();
	unsigned int i, j;

	for (i = 0; i < n; i += BENCH_BURST) {
		if (rte_pktmbuf_alloc_bulk(mp, pkts, BENCH_BURST) != 0)
			rte_panic("bench pkt: pool %s empty\n", mp->name);
		for (j = 0; j < BENCH_BURST; j++)
			rte_pktmbuf_free(pkts[j]);
	}
	return rte_rdtsc_precise() - t0;
}

static uint64_t
run_pmd(void *arg, unsigned int n)
{
	return pmd_loop(arg, n);
}

static void
pmd_case(void)
{
	struct bench_case bc;
	unsigned int np;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "pkt";
	snprintf(bc.name, sizeof(bc.name), "pmd bulk32+free1");
	if (!bench_selected(bc.name))
		return;
	bc.seed = "issue 10 PMD pattern";
	bc.n = bench_scale(1u << 19);
	bc.ops_per_call = 1;
	np = bench_add(&bc, "npool RX pool", run_pmd, mpnp);
	bc.anchor = bench_add(&bc, "pktmbuf cache256", run_pmd, mp256);
	bench_case_run(&bc);
	bench_target(bc.v[np].target, sizeof(bc.v[0].target),
			bc.v[np].ratio <= 0.9, "<=0.90x");
	bench_case_print(&bc);
}

/* Keeping a packet (issue 35): what npool_pkt_condense() adds to a
 * packet's alloc+consume, its data copied into a fragment of the cache
 * of kept packets. */
static __rte_always_inline uint64_t
keep_loop(int condense, uint32_t len, unsigned int n)
{
	uint64_t t0 = rte_rdtsc_precise();
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = npool_napi_alloc_pkt(len);

		if (unlikely(m == NULL ||
				rte_pktmbuf_append(m, (uint16_t)len) == NULL))
			rte_panic("bench pkt: keep %u B: %s\n", len,
					rte_strerror(rte_errno));
		if (condense && unlikely(npool_pkt_condense(m) < 0))
			rte_panic("bench pkt: condense: %s\n",
					rte_strerror(rte_errno));
		npool_napi_consume_pkt(m);
	}
	return rte_rdtsc_precise() - t0;
}

static uint64_t
run_keep(void *arg, unsigned int n)
{
	return keep_loop(1, *(const uint32_t *)arg, n);
}

static uint64_t
run_nokeep(void *arg, unsigned int n)
{
	return keep_loop(0, *(const uint32_t *)arg, n);
}

static void
keep_case(uint32_t len)
{
	struct bench_case bc;
	uint32_t arg = len;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "pkt";
	snprintf(bc.name, sizeof(bc.name), "keep len %u", len);
	if (!bench_selected(bc.name))
		return;
	bc.seed = "skb_condense";
	bc.n = bench_scale(1u << 17);
	bc.ops_per_call = 1;
	bench_add(&bc, "napi_alloc+condense+consume", run_keep, &arg);
	bc.anchor = bench_add(&bc, "napi_alloc+consume", run_nokeep, &arg);
	bench_case_run(&bc);
	bench_case_print(&bc);
}

int
main(int argc, char **argv)
{
	static const uint32_t lens[] = { 64, 256, 1500 };
	static const uint32_t keep_lens[] = { 512, 1500, 9000 };
	unsigned int i;

	bench_init(argc, argv, "pkt", 512, 1);
	if (npool_init(NULL) != 0)
		rte_exit(1, "npool_init: %s\n", rte_strerror(rte_errno));
	mp256 = rte_pktmbuf_pool_create("bench_mb256", 8191, 256, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	mpnp = npool_pktmbuf_pool_create("bench_mbnp", 8191, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp256 == NULL || mpnp == NULL)
		rte_exit(1, "mbuf pools: %s\n", rte_strerror(rte_errno));
	bench_table_header();
	for (i = 0; i < RTE_DIM(lens); i++)
		pkt_case(0, lens[i]);
	for (i = 0; i < RTE_DIM(lens); i++)
		pkt_case(1, lens[i]);
	pmd_case();
	for (i = 0; i < RTE_DIM(keep_lens); i++)
		keep_case(keep_lens[i]);
	rte_mempool_free(mp256);
	rte_mempool_free(mpnp);
	if (npool_fini() != 0)
		fprintf(stderr, "bench pkt: npool_fini: leak\n");
	return bench_fini(0);
}
