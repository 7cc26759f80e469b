/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Worst-case retention (kernel 3226b158e67c, "avoid 32 x truesize
 * under-estimation for tiny skbs"): P packets of L bytes are allocated,
 * one of every N is kept, the others freed, the fragment caches drained;
 * then what the kept packets pin is what stays out: the chunks in use
 * (npool) or the mbufs in use (stock), plus their heads, over the number
 * kept. A tiny packet that pins a whole chunk shows up as a pinned/
 * truesize ratio far above 1.
 *
 * Per L (64 and 256 B: small packets, every copy-break packet; 1500 B:
 * a big one for contrast): truesize per packet, npool and a stock mbuf
 * (npool_pkt_truesize()); for N = 2, 4, ..., 64 the bytes pinned per
 * kept packet, npool (ratio to its truesize), npool with no small chunk
 * in its arena (nb_small_chunks 0: every packet on big chunks, as before
 * small packets had a cache of their own; same run, npool made again)
 * and stock; and the worst over N, checked for small packets against
 * issue 17's bound: a kept small packet pins at most 1 KiB (a tiny packet
 * pins exactly its small-packet pool object, npool_usage.small_pkt_size;
 * before tiny packets, a whole 4 KiB small chunk). No timing: the
 * figures are exact and the same in --quick mode.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "npool.h"
#include "bench_common.h"

#define NB_PKTS 4096      /* allocated per case */
#define NB_N 6            /* keep 1 of N, N = 2, 4, .., 64 */
#define SEED "3226b158e67c truesize"

static const uint32_t lens[] = { 64, 256, 1500 };
static struct rte_mbuf *pkts[NB_PKTS];
static struct rte_mempool *stock;

static double
elt_size(const struct rte_mempool *mp)
{
	return mp->header_size + mp->elt_size + mp->trailer_size;
}

/* Bytes of the arena's chunks in use. */
static double
chunk_bytes_in_use(void)
{
	const struct npool_arena *a = &npool_default()->arena;

	return (double)(a->nb_chunks - npool_arena_free_count(a, 0)) *
		NPOOL_CHUNK_SIZE +
		(double)(a->nb_small - npool_arena_free_count(a, 1)) *
		NPOOL_SMALL_CHUNK_SIZE;
}

/*
 * Allocate NB_PKTS packets of @p len (npool or stock), write them, keep
 * one of @p n, free the rest, drain the caches. Fills @p truesize with the
 * first packet's; returns the bytes pinned per kept packet.
 */
static double
retain(int npool, uint32_t len, unsigned int n, double *truesize)
{
	unsigned int i, kept = 0;
	double pinned;

	for (i = 0; i < NB_PKTS; i++) {
		struct rte_mbuf *m = npool ? npool_napi_alloc_pkt(len) :
			rte_pktmbuf_alloc(stock);

		if (m == NULL)
			rte_exit(1, "bench retain: packet %u of %u B: %s\n",
					i, len, rte_strerror(rte_errno));
		memset(rte_pktmbuf_append(m, len), 0x5a, len);
		pkts[i] = m;
	}
	*truesize = npool_pkt_truesize(pkts[0]);
	for (i = 0; i < NB_PKTS; i++) {
		if (i % n == 0)
			pkts[kept++] = pkts[i];
		else if (npool)
			npool_napi_consume_pkt(pkts[i]);
		else
			rte_pktmbuf_free(pkts[i]);
	}
	if (npool) {
		if (npool_frag_cache_drain_all() != 0)
			rte_exit(1, "bench retain: a cache was not drained\n");
		struct npool_usage u;

		if (npool_usage_get(&u) != 0)
			rte_exit(1, "bench retain: npool_usage_get failed\n");
		/* Chunks, heads, and the tiny packets' pool objects. */
		pinned = (chunk_bytes_in_use() +
			(double)rte_mempool_in_use_count(npool_head_pool()) *
			elt_size(npool_head_pool()) +
			(double)u.small_pkts_out * u.small_pkt_size) / kept;
	} else {
		pinned = (double)rte_mempool_in_use_count(stock) *
			elt_size(stock) / kept;
	}
	rte_pktmbuf_free_bulk(pkts, kept);
	return pinned;
}

/* One figure set per packet length: [0] small chunks, [1] none. */
struct figures {
	double ts_np[2], ts_st;
	double pin_np[2][NB_N], pin_st[NB_N];
	int small;
};

static struct figures fig[RTE_DIM(lens)];

static void
npool_up(uint32_t nb_small)
{
	struct npool_conf conf;

	npool_conf_defaults(&conf);
	conf.nb_heads = NB_PKTS + 1024;
	conf.nb_chunks = NB_PKTS * 2048 / NPOOL_CHUNK_SIZE + 16;
	conf.nb_small_chunks = nb_small;
	if (npool_init(&conf) != 0)
		rte_exit(1, "npool_init: %s\n", rte_strerror(rte_errno));
}

/* Measure every length and N with the npool that is up (@p cfg). */
static void
measure(unsigned int cfg)
{
	double ts = 0;
	unsigned int i, k;

	for (i = 0; i < RTE_DIM(lens); i++) {
		struct figures *f = &fig[i];

		if (cfg == 0)
			f->small = npool_pkt_fragsz(lens[i]) <=
				npool_default()->small_fragsz;
		for (k = 0; k < NB_N; k++) {
			f->pin_np[cfg][k] = retain(1, lens[i], 2u << k,
					&f->ts_np[cfg]);
			if (cfg == 0)
				f->pin_st[k] = retain(0, lens[i], 2u << k,
						&ts);
		}
		if (cfg == 0)
			f->ts_st = ts;
	}
}

static void
rows(unsigned int i)
{
	const struct figures *f = &fig[i];
	double worst = 0;
	char name[32], tgt[48];
	unsigned int k;

	snprintf(name, sizeof(name), "retain %uB", lens[i]);
	bench_metric_row("retain", name, "npool truesize", f->ts_np[0],
			"B/pkt", f->ts_np[0] / f->ts_st, "stock truesize",
			NULL, SEED);
	bench_metric_row("retain", name, "stock truesize", f->ts_st, "B/pkt",
			1, "stock truesize", NULL, "(anchor)");
	for (k = 0; k < NB_N; k++) {
		snprintf(name, sizeof(name), "retain %uB keep 1/%u", lens[i],
				2u << k);
		bench_metric_row("retain", name, "npool pinned/kept",
				f->pin_np[0][k], "B/pkt",
				f->pin_np[0][k] / f->ts_np[0],
				"npool truesize", NULL, SEED);
		bench_metric_row("retain", name, "npool 0 small chunks",
				f->pin_np[1][k], "B/pkt",
				f->pin_np[1][k] / f->ts_np[1],
				"its truesize", NULL, SEED);
		bench_metric_row("retain", name, "stock pinned/kept",
				f->pin_st[k], "B/pkt", f->pin_st[k] / f->ts_st,
				"stock truesize", NULL, SEED);
		if (f->pin_np[0][k] > worst)
			worst = f->pin_np[0][k];
	}
	/* Issue 17's bound of small packets: 1 KiB pinned per kept one. */
	snprintf(name, sizeof(name), "retain %uB worst N<=%u", lens[i],
			2u << (NB_N - 1));
	if (f->small)
		bench_target(tgt, sizeof(tgt),
				worst <= 1024, "<=1KiB");
	bench_metric_row("retain", name, "npool pinned/kept", worst, "B/pkt",
			worst / f->ts_np[0], "npool truesize",
			f->small ? tgt : NULL, SEED);
}

int
main(int argc, char **argv)
{
	unsigned int i;

	/* Arena and stock pool for NB_PKTS of the largest at once. */
	bench_init(argc, argv, "retain", 256, 0);
	stock = rte_pktmbuf_pool_create("bench_retain_st", NB_PKTS + 1024,
			256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (stock == NULL)
		rte_exit(1, "stock pool: %s\n", rte_strerror(rte_errno));
	/* Small chunks for NB_PKTS of 256 B (9 per chunk); then none, the
	 * design before small packets had small chunks of their own. */
	npool_up(NB_PKTS / 8 + 64);
	measure(0);
	if (npool_fini() != 0)
		rte_exit(1, "bench retain: npool_fini: leak\n");
	npool_up(0);
	measure(1);
	if (npool_fini() != 0)
		rte_exit(1, "bench retain: npool_fini: leak\n");
	bench_table_header();
	for (i = 0; i < RTE_DIM(lens); i++) {
		char name[32];

		snprintf(name, sizeof(name), "retain %uB", lens[i]);
		if (bench_selected(name))
			rows(i);
	}
	rte_mempool_free(stock);
	return bench_fini(0);
}
