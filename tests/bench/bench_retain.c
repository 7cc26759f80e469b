/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Worst-case retention (kernel 3226b158e67c, "avoid 32 x truesize
 * under-estimation for tiny skbs"; issues 17 and 35): P packets of L
 * bytes are allocated with the library's packet API, one of every N is
 * kept, the others freed, the fragment caches drained; then what the
 * kept packets pin is what stays out, over the number kept: npool's
 * figure is npool_usage's pinned bytes (checked against the arena's
 * chunks in use, the heads and the tiny packets out, counted here), the
 * stock one the mbufs in use times their object.
 *
 * Per L (64 and 256 B: tiny packets, every copy-break packet; 512 B: a
 * small packet, from 4 KiB chunks; 1024, 1500 and 2048 B: big packets of
 * 32 KiB chunks; 9000 B: a jumbo frame): truesize per packet, npool and
 * stock (npool_pkt_truesize()); for N = 1, 2, 4, ..., 64 the bytes pinned
 * per kept packet by npool's packets as built, by the same packets
 * condensed as they are kept (npool_pkt_condense(), what an application
 * that keeps packets calls), and by stock mbufs: of a pool of
 * RTE_MBUF_DEFAULT_BUF_SIZE up to 2048 B, of a jumbo pool (data room
 * RTE_PKTMBUF_HEADROOM + 9000) at 9000 B; and the worst over N of
 * both npool figures, the condensed one checked against issue 35's bound
 * (at most 1.25 times the stock mbuf's, or the packet's own truesize
 * where that is larger), the one as built at 64 and 256 B against issue
 * 17's (1 KiB). No timing: the figures are exact and the same in
 * --quick mode.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "npool.h"
#include "bench_common.h"

#define NB_PKTS 4096      /* allocated per case */
#define NB_N 7            /* keep 1 of N, N = 1, 2, 4, .., 64 */
#define JUMBO 9000
#define SEED "3226b158e67c truesize"

static const uint32_t lens[] = { 64, 256, 512, 1024, 1500, 2048, JUMBO };
static struct rte_mbuf *pkts[NB_PKTS];
static struct rte_mempool *stock, *stock_jumbo;

enum rv { RV_BUILT, RV_CONDENSED, RV_STOCK, RV_NB };

static const char * const rv_name[] = {
	[RV_BUILT] = "npool as built",
	[RV_CONDENSED] = "npool condensed",
	[RV_STOCK] = "stock",
};

static double
obj_size(const struct rte_mempool *mp)
{
	return mp->header_size + mp->elt_size + mp->trailer_size;
}

/* What npool's live packets pin, counted here: the arena's chunks in
 * use, the heads, the tiny and the mid-size packets out. */
static double
npool_counted(const struct npool_usage *u)
{
	const struct npool_arena *a = &npool_default()->arena;

	return (double)(a->nb_chunks - npool_arena_free_count(a, 0)) *
		NPOOL_CHUNK_SIZE +
		(double)(a->nb_small - npool_arena_free_count(a, 1)) *
		NPOOL_SMALL_CHUNK_SIZE +
		(double)rte_mempool_in_use_count(npool_head_pool()) *
		obj_size(npool_head_pool()) +
		(double)u->small_pkts_out * u->small_pkt_size +
		(double)u->mid_pkts_out * u->mid_pkt_size;
}

/*
 * Allocate NB_PKTS packets of @p len (variant @p v), write them, keep one
 * of @p n (condensed as kept for RV_CONDENSED), free the rest, drain the
 * caches. Fills @p truesize with the first packet's; returns the bytes
 * pinned per kept packet.
 */
static double
retain(enum rv v, uint32_t len, unsigned int n, double *truesize)
{
	struct rte_mempool *mp = len > RTE_MBUF_DEFAULT_DATAROOM ?
		stock_jumbo : stock;
	unsigned int i, kept = 0;
	struct npool_usage u;
	double pinned;

	for (i = 0; i < NB_PKTS; i++) {
		struct rte_mbuf *m = v != RV_STOCK ? npool_napi_alloc_pkt(len) :
			rte_pktmbuf_alloc(mp);

		if (m == NULL)
			rte_exit(1, "bench retain: packet %u of %u B: %s\n",
					i, len, rte_strerror(rte_errno));
		memset(rte_pktmbuf_append(m, (uint16_t)len), 0x5a, len);
		pkts[i] = m;
	}
	*truesize = npool_pkt_truesize(pkts[0]);
	for (i = 0; i < NB_PKTS; i++) {
		if (i % n == 0) {
			if (v == RV_CONDENSED && npool_pkt_condense(pkts[i]) < 0)
				rte_exit(1, "bench retain: condense: %s\n",
						rte_strerror(rte_errno));
			pkts[kept++] = pkts[i];
		} else if (v != RV_STOCK) {
			npool_napi_consume_pkt(pkts[i]);
		} else {
			rte_pktmbuf_free(pkts[i]);
		}
	}
	if (v == RV_STOCK) {
		pinned = (double)rte_mempool_in_use_count(mp) * obj_size(mp);
	} else {
		if (npool_frag_cache_drain_all() != 0)
			rte_exit(1, "bench retain: a cache was not drained\n");
		if (npool_usage_get(&u) != 0)
			rte_exit(1, "bench retain: npool_usage_get failed\n");
		pinned = (double)u.pinned;
		if (pinned != npool_counted(&u))
			rte_exit(1, "bench retain: npool_usage says %.0f B pinned, the arena and pools %.0f B\n",
					pinned, npool_counted(&u));
	}
	rte_pktmbuf_free_bulk(pkts, kept);
	return pinned / kept;
}

/* The figures of one packet length. */
struct figures {
	double ts[RV_NB];             /* truesize */
	double pin[RV_NB][NB_N];      /* pinned per kept packet */
	int tiny;                     /* a tiny packet: issue 17's bound */
};

static struct figures fig[RTE_DIM(lens)];

static void
npool_up(void)
{
	struct npool_conf conf;

	npool_conf_defaults(&conf);
	conf.nb_heads = NB_PKTS + 1024;
	/* NB_PKTS jumbo frames, 3 to a chunk, and as many condensed. */
	conf.nb_chunks = 2 * (NB_PKTS + 2) / 3 + 64;
	/* NB_PKTS small packets of 832 B, 4 to a small chunk. */
	conf.nb_small_chunks = NB_PKTS / 4 + 64;
	conf.nb_tiny = NB_PKTS + 1024;
	if (npool_init(&conf) != 0)
		rte_exit(1, "npool_init: %s\n", rte_strerror(rte_errno));
}

static void
measure(void)
{
	unsigned int i, k, v;

	for (i = 0; i < RTE_DIM(lens); i++) {
		struct figures *f = &fig[i];

		f->tiny = lens[i] <= NPOOL_PKT_SMALL_LEN;
		for (v = 0; v < RV_NB; v++)
			for (k = 0; k < NB_N; k++)
				f->pin[v][k] = retain(v, lens[i], 1u << k,
						&f->ts[v]);
	}
}

/* The bound of issue 35: 1.25 times the larger of the stock mbuf's pin
 * and the packet's own truesize. */
static double
bound(const struct figures *f)
{
	return RTE_MAX(f->pin[RV_STOCK][0], f->ts[RV_CONDENSED]);
}

static void
rows(unsigned int i)
{
	const struct figures *f = &fig[i];
	double worst[RV_NB] = { 0 };
	char name[40], tgt[48];
	unsigned int k, v;

	snprintf(name, sizeof(name), "retain %uB", lens[i]);
	bench_metric_row("retain", name, "npool truesize", f->ts[RV_BUILT],
			"B/pkt", f->ts[RV_BUILT] / f->ts[RV_STOCK],
			"stock truesize", NULL, SEED);
	bench_metric_row("retain", name, "stock truesize", f->ts[RV_STOCK],
			"B/pkt", 1, "stock truesize", NULL, "(anchor)");
	for (k = 0; k < NB_N; k++) {
		snprintf(name, sizeof(name), "retain %uB keep 1/%u", lens[i],
				1u << k);
		for (v = 0; v < RV_NB; v++) {
			bench_metric_row("retain", name, rv_name[v],
					f->pin[v][k], "B/pkt",
					f->pin[v][k] / f->pin[RV_STOCK][k],
					"stock", NULL, SEED);
			worst[v] = RTE_MAX(worst[v], f->pin[v][k]);
		}
	}
	snprintf(name, sizeof(name), "retain %uB worst N<=%u", lens[i],
			1u << (NB_N - 1));
	/* Issue 17's bound of tiny packets: 1 KiB pinned per kept one. */
	if (f->tiny)
		bench_target(tgt, sizeof(tgt), worst[RV_BUILT] <= 1024,
				"<=1KiB");
	bench_metric_row("retain", name, rv_name[RV_BUILT], worst[RV_BUILT],
			"B/pkt", worst[RV_BUILT] / bound(f), "bound",
			f->tiny ? tgt : NULL, SEED);
	bench_target(tgt, sizeof(tgt), worst[RV_CONDENSED] <= 1.25 * bound(f),
			"<=1.25x");
	bench_metric_row("retain", name, rv_name[RV_CONDENSED],
			worst[RV_CONDENSED], "B/pkt",
			worst[RV_CONDENSED] / bound(f), "bound", tgt, SEED);
	bench_metric_row("retain", name, "bound", bound(f), "B/pkt", 1,
			"bound", NULL, "max(stock, truesize)");
}

int
main(int argc, char **argv)
{
	unsigned int i;

	/* Arena and pools for NB_PKTS of the largest at once. */
	bench_init(argc, argv, "retain", 1024, 0);
	stock = rte_pktmbuf_pool_create("bench_retain_st", NB_PKTS + 1024,
			256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	stock_jumbo = rte_pktmbuf_pool_create("bench_retain_jumbo",
			NB_PKTS + 1024, 256, 0, RTE_PKTMBUF_HEADROOM + JUMBO,
			SOCKET_ID_ANY);
	if (stock == NULL || stock_jumbo == NULL)
		rte_exit(1, "stock pools: %s\n", rte_strerror(rte_errno));
	npool_up();
	measure();
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
	rte_mempool_free(stock_jumbo);
	return bench_fini(0);
}
