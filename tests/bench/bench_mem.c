/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory per buffered 64 B packet (seed 4, copy-break; skb->truesize):
 * npool packets made by copy-break (npool_napi_alloc_pkt(64) and a 64 B
 * copy, as npool_rx_copybreak() does: small packets, carved from 4 KiB
 * small chunks) vs stock mbufs of 2176 B data room.
 * P packets (1 M; 64 Ki with --quick) are held in an array.
 *
 * Two figures per kind:
 *  - truesize: npool_pkt_truesize(), the head's mempool element plus the
 *    fragment (npool) or the whole element (stock);
 *  - RSS: /proc/self/statm resident pages after the pool exists and P
 *    packets are held, minus before the pool was made, over P. With
 *    --no-huge, EAL maps all of -m up front but pages become resident
 *    only when first written, so RSS counts what the pool and the packets
 *    really touch: a mempool writes every element header when it is
 *    populated, npool's arena only where fragments are carved. No
 *    mlockall() here (it would fault in all of -m). npool stays alive
 *    while the stock pool is measured, so neither reuses the other's
 *    pages; -m is sized for both at once. The stock pool is made as
 *    rte_pktmbuf_pool_create() does but with RTE_MEMPOOL_F_NO_IOVA_CONTIG:
 *    on --no-huge's 4 KiB pages a default pool places one 2368 B mbuf per
 *    page (objects may not straddle a page), 4 KiB each, which hugepages
 *    would not; packed, its RSS is what it would be on hugepages.
 * Then fill+free time per packet, npool vs stock, alternating rounds.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>

#include "npool.h"
#include "bench_common.h"

#define PKT_LEN 64
/* npool_pkt_fragsz(PKT_LEN) with the default headroom. */
#define FRAGSZ RTE_ALIGN_CEIL(RTE_PKTMBUF_HEADROOM + PKT_LEN + \
		NPOOL_SHINFO_SIZE, RTE_CACHE_LINE_SIZE)

static struct rte_mbuf **held;
static unsigned int nb_pkts;
static struct rte_mempool *stock;
static const uint8_t frame[PKT_LEN] = { 0x02, 0, 0, 0, 0, 1, 0x02 };

/* rte_pktmbuf_pool_create(), objects packed across 4 KiB pages. */
static struct rte_mempool *
stock_pool_create(unsigned int n)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty("bench_stock", n,
			sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE, 256,
			sizeof(priv), SOCKET_ID_ANY,
			RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(),
			NULL) != 0)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	if (rte_mempool_populate_default(mp) < 0)
		goto fail;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
fail:
	rte_mempool_free(mp);
	return NULL;
}

static long
rss_bytes(void)
{
	long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL || fscanf(f, "%ld %ld", &size, &resident) != 2)
		rte_panic("bench mem: /proc/self/statm unreadable\n");
	fclose(f);
	return resident * sysconf(_SC_PAGESIZE);
}

/* Receive-and-hold: each packet gets its 64 bytes written. */
static __rte_always_inline void
fill(int npool)
{
	unsigned int i;

	for (i = 0; i < nb_pkts; i++) {
		struct rte_mbuf *m = npool ? npool_napi_alloc_pkt(PKT_LEN) :
			rte_pktmbuf_alloc(stock);

		if (unlikely(m == NULL))
			rte_panic("bench mem: packet %u: %s\n", i,
					rte_strerror(rte_errno));
		memcpy(rte_pktmbuf_mtod(m, void *), frame, PKT_LEN);
		m->data_len = PKT_LEN;
		m->pkt_len = PKT_LEN;
		held[i] = m;
	}
}

static void
drain(int npool)
{
	unsigned int i, n;

	for (i = 0; i < nb_pkts; i += n) {
		n = RTE_MIN(nb_pkts - i, 64u);
		if (npool)
			npool_napi_consume_bulk(&held[i], n);
		else
			rte_pktmbuf_free_bulk(&held[i], n);
	}
}

static uint64_t
run_fill(void *arg, unsigned int n __rte_unused)
{
	int npool = *(const int *)arg;
	uint64_t t0 = rte_rdtsc_precise();

	fill(npool);
	drain(npool);
	return rte_rdtsc_precise() - t0;
}

static void
row(const char *what, const char *variant, double v, const char *unit,
		double anchor_v, const char *target)
{
	bench_metric_row("mem", what, variant, v, unit, v / anchor_v,
			"stock mbuf 2176", target, "4 copy-break truesize");
}

int
main(int argc, char **argv)
{
	int is_npool[2] = { 1, 0 };
	long rss0, rss_np, rss_st;
	double ts_np, ts_st, r_np, r_st;
	struct npool_conf conf;
	struct bench_case bc;
	char tgt[48], name[32];

	bench_parse(argc, argv);
	nb_pkts = bench_opts.quick ? 1u << 16 : 1u << 20;
	/* Both pools at once, and a margin: per packet the stock mbuf, npool's
	 * head and fragment, and its tiny packet (one object of the tiny
	 * pool, 512 B at the default tiny_headroom) with its share of a 4 KiB
	 * small chunk (8 objects per chunk: see below), ~4 KiB in all. */
	bench_init(argc, argv, "mem", (unsigned int)(((uint64_t)nb_pkts *
			(RTE_MBUF_DEFAULT_BUF_SIZE + 3 * RTE_CACHE_LINE_SIZE +
			 192 + FRAGSZ + 32 + 640 + 4096 / 8)) >> 20) + 512, 0);
	held = calloc(nb_pkts, sizeof(*held));
	if (held == NULL)
		rte_exit(1, "no memory\n");
	memset(held, 0, nb_pkts * sizeof(*held));

	rss0 = rss_bytes();
	npool_conf_defaults(&conf);
	conf.nb_pkts = nb_pkts;
	conf.nb_heads = nb_pkts + 1024;
	/* Copy-break packets are tiny packets (npool_conf.tiny_len): one
	 * direct mbuf each from the instance's tiny pool. */
	conf.nb_tiny = nb_pkts + 1024;
	conf.nb_chunks = 16;
	conf.nb_small_chunks = 16;
	if (npool_init(&conf) != 0)
		rte_exit(1, "npool_init: %s\n", rte_strerror(rte_errno));
	fill(1);
	rss_np = rss_bytes() - rss0;
	ts_np = npool_pkt_truesize(held[0]);
	drain(1);

	rss0 = rss_bytes();
	stock = stock_pool_create(nb_pkts + 1024);
	if (stock == NULL)
		rte_exit(1, "stock pool: %s\n", rte_strerror(rte_errno));
	fill(0);
	rss_st = rss_bytes() - rss0;
	ts_st = npool_pkt_truesize(held[0]);
	drain(0);

	r_np = (double)rss_np / nb_pkts;
	r_st = (double)rss_st / nb_pkts;
	snprintf(name, sizeof(name), "hold %uK x 64B", nb_pkts >> 10);
	bench_table_header();
	bench_target(tgt, sizeof(tgt), ts_np <= 512, "<=512B");
	row(name, "npool truesize", ts_np, "B/pkt", ts_st, tgt);
	row(name, "stock truesize", ts_st, "B/pkt", ts_st, NULL);
	row(name, "npool RSS delta", r_np, "B/pkt", r_st, NULL);
	row(name, "stock RSS delta", r_st, "B/pkt", r_st, NULL);

	memset(&bc, 0, sizeof(bc));
	bc.bench = "mem";
	snprintf(bc.name, sizeof(bc.name), "%s fill+free", name);
	bc.seed = "4 copy-break truesize";
	bc.n = 1;
	bc.ops_per_call = nb_pkts;
	bench_add(&bc, "npool copy-break", run_fill, &is_npool[0]);
	bench_add(&bc, "stock mbuf 2176", run_fill, &is_npool[1]);
	bc.anchor = 1;
	bench_case_run(&bc);
	bench_case_print(&bc);

	free(held);
	rte_mempool_free(stock);
	if (npool_fini() != 0)
		fprintf(stderr, "bench mem: npool_fini: leak\n");
	return bench_fini(0);
}
