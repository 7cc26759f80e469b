/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_errno.h>

#include "npool_pkt.h"
#include "npool_pkt_bulk.h"
#include "npool_core_pvt.h"

/* Heads released in one batch by the consume path. */
#define NPOOL_CONSUME_BATCH 64

void
npool_pkt_free_cb(void *addr, void *opaque __rte_unused)
{
	npool_free_frag(addr);
}

struct rte_mbuf *
npool_pkt_fail(unsigned int slot, int err)
{
	if (npool_lcore_np[slot] != NULL)
		NPOOL_STAT_ADD(slot, pkt_failures, 1);
	rte_errno = err;
	return NULL;
}

static struct rte_mbuf *
pkt_head_get(struct npool *np, unsigned int slot)
{
	struct rte_mbuf *m;

	if (rte_mempool_get(np->head_pool, (void **)&m) != 0)
		return npool_pkt_fail(slot, ENOBUFS);
	return m;
}

struct rte_mbuf *
npool_alloc_pkt(uint32_t len)
{
	unsigned int slot = npool_slot();
	struct npool *np = npool_lcore_np[slot];

	if (np == NULL)
		return npool_pkt_fail(slot, ENODEV);
	return npool_pkt_alloc_pvt(np, slot, len, 1);
}

struct rte_mbuf *
npool_build_pkt(void *frag, uint32_t fragsz)
{
	unsigned int slot = npool_slot();
	struct npool *np = npool_lcore_np[slot];
	struct npool_chunk *c;
	struct rte_mbuf *m;
	uintptr_t off, buf_len;

	if (np == NULL)
		return npool_pkt_fail(slot, ENODEV);
	/* The head from the caller's instance, whichever owns the frag. */
	c = npool_arena_chunk(&np->arena, frag);
	if (c == NULL)
		npool_owner_pvt(frag, &c);
	if (c == NULL || ((uintptr_t)frag & (sizeof(uintptr_t) - 1)) != 0 ||
			fragsz <= NPOOL_SHINFO_SIZE ||
			fragsz > UINT16_MAX + NPOOL_SHINFO_SIZE)
		return npool_pkt_fail(slot, EINVAL);
	/* A fragment never straddles two chunks. */
	off = (uintptr_t)((char *)frag - c->va);
	if (off + fragsz > c->size)
		return npool_pkt_fail(slot, EINVAL);
	m = pkt_head_get(np, slot);
	if (m == NULL)
		return NULL;
	NPOOL_STAT_ADD_NP(np, slot, pkt_builds, 1);
	/* The headroom, or all the buffer before the shinfo if that is
	 * less (npool_pkt_attach_pvt() places it so). */
	buf_len = (uintptr_t)RTE_PTR_ALIGN_FLOOR((char *)frag + fragsz -
			NPOOL_SHINFO_SIZE, 8) - (uintptr_t)frag;
	npool_pkt_attach_pvt(m, frag, fragsz, c->iova + off,
			(uint16_t)RTE_MIN(np->headroom, buf_len));
	return m;
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

uint32_t
npool_pkt_truesize(const struct rte_mbuf *m)
{
	uint32_t head = m->pool != NULL ?
		m->pool->header_size + m->pool->elt_size +
		m->pool->trailer_size : sizeof(*m);

	if (npool_pkt_is_npool(m))
		return head + RTE_ALIGN_CEIL((uint32_t)m->buf_len +
				NPOOL_SHINFO_SIZE, RTE_CACHE_LINE_SIZE);
	return head;
}

unsigned int
npool_napi_alloc_pkt_bulk_slow(struct rte_mbuf **pkts, const uint32_t *lens,
		unsigned int n)
{
	unsigned int i, got = 0;

	if (n > NPOOL_PKT_BULK_MAX) {
		for (i = 0; i < n; i++)
			pkts[i] = npool_pkt_fail(npool_slot(), EINVAL);
		return 0;
	}
	/* No lens: tiny packets (npool_napi_alloc_tiny_bulk_pvt()). */
	for (i = 0; i < n; i++) {
		pkts[i] = npool_napi_alloc_pkt(lens != NULL ? lens[i] : 0);
		got += pkts[i] != NULL;
	}
	return got;
}
