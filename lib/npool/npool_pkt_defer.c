/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets handed back to the lcore that carved their fragments
 * (npool_pkt_defer.h): the consume burst of another lcore that sends
 * them, and the lcore's own burst that takes them.
 */
#include <rte_ring.h>

#include "npool_pkt.h"
#include "npool_pkt_bulk.h"
#include "npool_pkt_defer.h"

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

/* The lcore that carved the fragment of @p m, a lone packet of @p np's
 * head pool, when it is another EAL lcore with a defer ring; else
 * RTE_MAX_LCORE. */
static unsigned int
defer_owner(const struct npool *np, unsigned int slot,
		const struct rte_mbuf *m)
{
	const struct npool_chunk *c;

	if (m->next != NULL || !npool_pkt_lone_pvt(m) ||
			!RTE_MBUF_HAS_EXTBUF(m))
		return RTE_MAX_LCORE;
	c = npool_arena_chunk(&np->arena, m->buf_addr);
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
	struct npool_frag_free_batch_pvt b;

	npool_frag_free_batch_init_pvt(&b, np, slot);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		unsigned int o;

		if (m == NULL || m->pool != np->head_pool)
			break;
		/* Back to the lcore that carved it (the first such lcore
		 * of the burst), untouched: it checks the fragment. */
		o = slot < RTE_MAX_LCORE ? defer_owner(np, slot, m) :
			RTE_MAX_LCORE;
		if (o != RTE_MAX_LCORE && (owner == RTE_MAX_LCORE ||
				o == owner)) {
			owner = o;
			defer[nd++] = m;
			continue;
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
	struct rte_mbuf *pkts[NPOOL_PKT_BULK_MAX];
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

