/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-line half of npool_napi_consume_bulk() (npool_pkt_consume.h):
 * a burst the inline fast path does not free itself, and the free
 * callback of a head + fragment packet's shinfo.
 */
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "npool_pkt_consume.h"
#include "npool_core.h"
#include "npool_frag.h"
#include "npool_frag_batch.h"

/* Heads released in one batch by the consume path. */
#define NPOOL_CONSUME_BATCH 64

void
npool_pkt_free_cb(void *addr, void *opaque __rte_unused)
{
	npool_free_frag(addr);
}

void
npool_napi_consume_bulk_slow(struct rte_mbuf **pkts, unsigned int n)
{
	void *pending[NPOOL_CONSUME_BATCH];
	struct rte_mempool *mp = NULL;
	unsigned int i, np = 0, slot = npool_slot();
	struct npool *inst = npool_lcore_np[slot];
	struct npool_frag_free_batch_pvt b;
	uint64_t segs = 0;

	if (inst == NULL) {
		rte_pktmbuf_free_bulk(pkts, n);
		return;
	}
	npool_frag_free_batch_init_pvt(&b, inst, slot);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *next;

		for (; m != NULL; m = next) {
			next = m->next;
			segs++;
			if (!npool_pkt_consume_fast_pvt(m, inst, slot, &b)) {
				/* Acquire before DPDK's relaxed refcnt check,
				 * as consume_fast(). */
				(void)__atomic_load_n(&m->refcnt,
						__ATOMIC_ACQUIRE);
				m = rte_pktmbuf_prefree_seg(m);
				if (m == NULL)
					continue;
			}
			if (m->pool != mp || np == NPOOL_CONSUME_BATCH) {
				if (np != 0)
					rte_mempool_put_bulk(mp, pending, np);
				mp = m->pool;
				np = 0;
			}
			pending[np++] = m;
		}
	}
	npool_frag_free_batch_commit_pvt(&b, inst, slot);
	if (np != 0)
		rte_mempool_put_bulk(mp, pending, np);
	NPOOL_STAT_ADD_NP(inst, slot, pkt_consumes, segs);
}
