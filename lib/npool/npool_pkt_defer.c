/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets handed back to the lcore that carved their fragments
 * (npool_pkt_defer.h): the lcore's own burst that takes them, and the
 * drain that frees them. Another lcore's consume burst sends them
 * (npool_napi_consume_other(), npool_pkt_consume.c).
 */
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "npool_pkt_defer.h"
#include "npool_core.h"
#include "npool_frag_batch.h"
#include "npool_pkt_consume.h"

unsigned int
npool_napi_defer_drain(void)
{
	struct rte_mbuf *pkts[NPOOL_CONSUME_FAST_MAX];
	unsigned int slot = rte_lcore_id(), n, total = 0;
	struct rte_ring *r;
	struct npool *np;

	if (slot >= RTE_MAX_LCORE || (np = npool_lcore_np[slot]) == NULL ||
			(r = np->lc[slot].defer) == NULL)
		return 0;
	while ((n = rte_ring_sc_dequeue_burst(r, (void **)pkts, RTE_DIM(pkts),
			NULL)) != 0) {
		struct npool_frag_free_batch_pvt b;
		unsigned int i;

		/* Lone heads of this instance's pool (the sender checked):
		 * their fragments, carved here, checked and freed here. */
		npool_frag_free_batch_init_pvt(&b, np, slot);
		for (i = 0; i < n; i++)
			if (!npool_pkt_consume_fast_pvt(pkts[i], np, slot, &b))
				break;
		npool_frag_free_batch_commit_pvt(&b, np, slot);
		if (i != 0) {
			rte_mempool_put_bulk(np->head_pool,
					(void * const *)pkts, i);
			np->lc[slot].stats.pkt_consumes += i;
		}
		if (i != n)
			npool_napi_consume_bulk_slow(pkts + i, n - i);
		total += n;
	}
	return total;
}

unsigned int
npool_napi_defer_take(struct rte_mbuf **heads, unsigned int n)
{
	/* n is at most NPOOL_PKT_BULK_MAX (npool_pkt_bulk.h), the same 64
	 * as a consume burst. */
	struct rte_mbuf *pkts[NPOOL_CONSUME_FAST_MAX];
	unsigned int slot = rte_lcore_id(), i, k = 0, got;
	struct npool_frag_free_batch_pvt b;
	struct npool *np;

	if (slot >= RTE_MAX_LCORE || (np = npool_lcore_np[slot]) == NULL ||
			np->lc[slot].defer == NULL)
		return 0;
	got = rte_ring_sc_dequeue_burst(np->lc[slot].defer, (void **)pkts,
			RTE_MIN(n, (unsigned int)RTE_DIM(pkts)), NULL);
	npool_frag_free_batch_init_pvt(&b, np, slot);
	for (i = 0; i < got; i++) {
		struct rte_mbuf *m = pkts[i];

		/* The sender saw a lone head; its fragment is checked here,
		 * where it was carved (a clone may share it). */
		if (unlikely(m->shinfo->free_cb != npool_pkt_free_cb ||
				__atomic_load_n(&m->shinfo->refcnt,
					__ATOMIC_ACQUIRE) != 1)) {
			npool_napi_consume_bulk_slow(&m, 1);
			continue;
		}
		npool_frag_free_batch_pvt(&b, np, slot, m->buf_addr);
		heads[k++] = m;
	}
	npool_frag_free_batch_commit_pvt(&b, np, slot);
	np->lc[slot].stats.pkt_consumes += k;
	return k;
}

void
npool_pkt_heads_put(struct rte_mbuf **heads, unsigned int n)
{
	unsigned int i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		npool_pkt_head_reset_pvt(heads[i]);
	rte_mempool_put_bulk(heads[0]->pool, (void * const *)heads, n);
}

