/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-line halves of npool_napi_consume_bulk() (npool_pkt_consume.h):
 * a burst the inline fast path does not free itself, and one another
 * lcore carved, handed back to it (npool_pkt_defer.h); and the free
 * callback of a head + fragment packet's shinfo.
 */
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

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

/* Hand @p nd packets to lcore @p owner's defer ring; free here what does
 * not fit. */
static void
defer_send(struct npool *np, unsigned int slot, unsigned int owner,
		struct rte_mbuf **pkts, unsigned int nd)
{
	unsigned int sent = rte_ring_mp_enqueue_burst(np->lc[owner].defer,
			(void * const *)pkts, nd, NULL);

	np->lc[slot].stats.defers += sent;
	if (sent != nd)
		npool_napi_consume_bulk_slow(pkts + sent, nd - sent);
}

/* The lcore that carved fragment @p p of @p np, when it is another EAL
 * lcore with a defer ring, else RTE_MAX_LCORE; @p *cp its chunk. A
 * chunk keeps its owner while a fragment of it is out. */
static unsigned int
defer_owner(const struct npool *np, unsigned int slot, const void *p,
		const struct npool_chunk **cp)
{
	const struct npool_chunk *c = npool_arena_chunk(&np->arena, p);

	*cp = c;
	if (c == NULL || c->owner == slot || c->owner >= RTE_MAX_LCORE ||
			np->lc[c->owner].defer == NULL)
		return RTE_MAX_LCORE;
	return c->owner;
}

void
npool_napi_consume_other(struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_mbuf *heads[NPOOL_CONSUME_FAST_MAX];
	struct rte_mbuf *defer[NPOOL_CONSUME_FAST_MAX];
	unsigned int slot = npool_slot(), i, nh = 0, nd = 0;
	unsigned int owner = RTE_MAX_LCORE;
	struct npool *np = npool_lcore_np[slot];
	const struct rte_mempool *hp = np->head_pool;
	struct npool_frag_free_batch_pvt b;
	/* The chunk last found to be owner's: its next fragments need no
	 * lookup (a burst carved in order spans two or three chunks). */
	uintptr_t own_va = 0, own_len = 0;

	npool_frag_free_batch_init_pvt(&b, np, slot);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const struct npool_chunk *c;
		unsigned int o;

		if (m == NULL || m->pool != hp)
			break;
		/* A lone packet back to the lcore that carved it (the first
		 * such lcore of the burst), untouched: it checks the
		 * fragment. */
		if (slot < RTE_MAX_LCORE && m->next == NULL &&
				npool_pkt_lone_pvt(m) &&
				RTE_MBUF_HAS_EXTBUF(m)) {
			if ((uintptr_t)m->buf_addr - own_va < own_len) {
				defer[nd++] = m;
				continue;
			}
			o = defer_owner(np, slot, m->buf_addr, &c);
			if (o != RTE_MAX_LCORE && (owner == RTE_MAX_LCORE ||
					o == owner)) {
				owner = o;
				own_va = (uintptr_t)c->va;
				own_len = c->size;
				defer[nd++] = m;
				continue;
			}
		}
		if (!npool_pkt_consume_fast_pvt(m, np, slot, &b))
			break;
		heads[nh++] = m;
	}
	npool_frag_free_batch_commit_pvt(&b, np, slot);
	if (nh != 0) {
		rte_mempool_put_bulk(np->head_pool, (void * const *)heads, nh);
		NPOOL_STAT_ADD_NP(np, slot, pkt_consumes, nh);
	}
	if (nd != 0)
		defer_send(np, slot, owner, defer, nd);
	if (i != n)
		npool_napi_consume_bulk_slow(pkts + i, n - i);
}
