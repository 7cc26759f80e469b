/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Refcount per send (seed 8, Brouer's pktgen clone_skb: -8.18 ns, one
 * LOCK-prefixed instruction). One packet is sent N times; each send puts
 * it on a simulated TX queue whose completion frees it (rte_pktmbuf_free,
 * one atomic decrement while other references remain).
 *
 *  - "refcnt_update per send" (anchor): rte_mbuf_refcnt_update(m, 1)
 *    before each send;
 *  - "refcnt_set once N+1": rte_mbuf_refcnt_set(m, N + 1) once.
 *
 * With a TX queue of depth 1 every completion comes before the next send,
 * the refcount is 1 at each update and DPDK's update takes its non-atomic
 * shortcut: the two are equal. With depth 32 (a burst in flight) every
 * update but the first is a LOCK add, as in the kernel.
 */
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "npool.h"
#include "bench_common.h"

#define SENDS 64

enum rcv { RC_INC, RC_SET, RC_NB };

static const char * const rc_name[] = {
	[RC_INC] = "refcnt_update per send",
	[RC_SET] = "refcnt_set once N+1",
};

struct rc_arg {
	unsigned int depth;   /* TX queue depth: completions per batch */
	int npool;            /* npool packet instead of a stock mbuf */
	struct rte_mempool *mp;
};

static __rte_always_inline uint64_t
rc_loop(enum rcv v, const void *arg, unsigned int n)
{
	const struct rc_arg *a = arg;
	struct rte_mbuf *txq[BENCH_BURST];
	unsigned int i, s, k, q = 0;
	struct rte_mbuf *m;
	uint64_t t0;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i += SENDS) {
		m = a->npool ? npool_napi_alloc_pkt(64) :
			rte_pktmbuf_alloc(a->mp);
		if (unlikely(m == NULL))
			rte_panic("bench refcnt: %s\n", rte_strerror(rte_errno));
		if (v == RC_SET)
			rte_mbuf_refcnt_set(m, SENDS + 1);
		for (s = 0; s < SENDS; s++) {
			if (v == RC_INC)
				rte_mbuf_refcnt_update(m, 1);
			txq[q++] = m;
			/* TX completion of a full queue. */
			if (q == a->depth) {
				for (k = 0; k < q; k++)
					rte_pktmbuf_free(txq[k]);
				q = 0;
			}
		}
		for (k = 0; k < q; k++)
			rte_pktmbuf_free(txq[k]);
		q = 0;
		/* The sender's own reference. */
		rte_pktmbuf_free(m);
	}
	return rte_rdtsc_precise() - t0;
}

BENCH_RUN_FN(rc_loop, RC_INC)
BENCH_RUN_FN(rc_loop, RC_SET)

static struct rte_mempool *mp256;

static void
rc_case(unsigned int depth, int npool)
{
	struct rc_arg arg = { depth, npool, mp256 };
	struct bench_case bc;
	double delta;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "refcnt";
	snprintf(bc.name, sizeof(bc.name), "%s txq %u x%u",
			npool ? "npool pkt" : "mbuf", depth, SENDS);
	if (!bench_selected(bc.name))
		return;
	bc.seed = "8 Brouer -8.18ns";
	bc.n = bench_scale(1u << 20);
	bc.ops_per_call = 1;
	bench_add(&bc, rc_name[RC_INC], run_RC_INC, &arg);
	bench_add(&bc, rc_name[RC_SET], run_RC_SET, &arg);
	bc.anchor = RC_INC;
	bench_case_run(&bc);
	bench_case_print(&bc);
	delta = bench_ns(bench_paired_delta(&bc, RC_SET, RC_INC));
	/* The seed's figure: -8.18 ns per send (no target). */
	bench_metric_row(bc.bench, bc.name, "set - update", delta,
			"ns/send", bc.v[RC_SET].ratio, rc_name[RC_INC], NULL,
			bc.seed);
}

int
main(int argc, char **argv)
{
	bench_init(argc, argv, "refcnt", 256, 1);
	if (npool_init(NULL) != 0)
		rte_exit(1, "npool_init: %s\n", rte_strerror(rte_errno));
	mp256 = rte_pktmbuf_pool_create("bench_mb256", 4095, 256, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp256 == NULL)
		rte_exit(1, "mbuf pool: %s\n", rte_strerror(rte_errno));
	bench_table_header();
	rc_case(1, 0);
	rc_case(BENCH_BURST, 0);
	rc_case(BENCH_BURST, 1);
	rte_mempool_free(mp256);
	if (npool_fini() != 0)
		fprintf(stderr, "bench refcnt: npool_fini: leak\n");
	return bench_fini(0);
}
