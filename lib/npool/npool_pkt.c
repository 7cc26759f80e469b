/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_errno.h>

#include "npool_pkt.h"
#include "npool_pkt_bulk.h"

/* Heads released in one batch by the consume path. */
#define NPOOL_CONSUME_BATCH 64

void
npool_pkt_free_cb_pvt(void *addr, void *opaque __rte_unused)
{
	npool_free_frag(addr);
}

struct rte_mbuf *
npool_pkt_fail_pvt(unsigned int slot, int err)
{
	if (npool_g != NULL)
		NPOOL_STAT_ADD(slot, pkt_failures, 1);
	rte_errno = err;
	return NULL;
}

static struct rte_mbuf *
pkt_head_get(unsigned int slot)
{
	struct rte_mbuf *m;

	if (rte_mempool_get(npool_g->head_pool, (void **)&m) != 0)
		return npool_pkt_fail_pvt(slot, ENOBUFS);
	return m;
}

struct rte_mbuf *
npool_alloc_pkt(uint32_t len)
{
	unsigned int slot = npool_slot();
	struct rte_mbuf *m;
	uint32_t fragsz;
	void *frag;

	if (npool_g == NULL)
		return npool_pkt_fail_pvt(slot, ENODEV);
	fragsz = npool_pkt_fragsz(len);
	if (len > NPOOL_PKT_MAX_LEN || fragsz > NPOOL_CHUNK_SIZE)
		return npool_pkt_fail_pvt(slot, EINVAL);
	m = pkt_head_get(slot);
	if (m == NULL)
		return NULL;
	/* Small packets pin at most a small chunk (npool_pkt.h). */
	frag = fragsz <= npool_g->small_fragsz ?
		npool_alloc_frag_guarded_small_pvt(fragsz,
				RTE_CACHE_LINE_SIZE) :
		npool_alloc_frag_guarded_pvt(fragsz, RTE_CACHE_LINE_SIZE);
	if (frag == NULL) {
		int err = rte_errno;

		rte_mempool_put(npool_g->head_pool, m);
		return npool_pkt_fail_pvt(slot, err);
	}
	NPOOL_STAT_ADD(slot, pkt_allocs, 1);
	npool_pkt_attach_pvt(m, frag, fragsz, npool_frag_iova(frag));
	return m;
}

struct rte_mbuf *
npool_build_pkt(void *frag, uint32_t fragsz)
{
	unsigned int slot = npool_slot();
	const struct npool_chunk *c;
	struct rte_mbuf *m;
	uintptr_t off;

	if (npool_g == NULL)
		return npool_pkt_fail_pvt(slot, ENODEV);
	c = npool_arena_chunk(&npool_g->arena, frag);
	if (c == NULL || ((uintptr_t)frag & (sizeof(uintptr_t) - 1)) != 0 ||
			fragsz <= NPOOL_SHINFO_SIZE ||
			fragsz > UINT16_MAX + NPOOL_SHINFO_SIZE)
		return npool_pkt_fail_pvt(slot, EINVAL);
	/* A fragment never straddles two chunks. */
	off = (uintptr_t)((char *)frag - c->va);
	if (off + fragsz > c->size)
		return npool_pkt_fail_pvt(slot, EINVAL);
	m = pkt_head_get(slot);
	if (m == NULL)
		return NULL;
	NPOOL_STAT_ADD(slot, pkt_builds, 1);
	npool_pkt_attach_pvt(m, frag, fragsz, c->iova + off);
	return m;
}

static inline void
consume_flush(struct rte_mempool *mp, void **objs, unsigned int n)
{
	if (mp->ops_index == npool_g->hc_ops_index)
		npool_hc_put_bulk(mp->pool_data, objs, n);
	else
		rte_mempool_put_bulk(mp, objs, n);
}

/*
 * The consume path's common case: a lone npool packet that nobody else
 * references (head refcnt 1, no next segment, nb_segs 1, fragment refcnt
 * 1) on a head of the head pool. Free the fragment directly and give the
 * head back the state rte_pktmbuf_detach() would (its own empty buffer),
 * skipping the generic prefree branches and the callback indirection.
 *
 * A head goes back with next NULL and nb_segs 1, DPDK's rule for a pooled
 * mbuf. next is NULL here by the check. nb_segs is 1 for every segment
 * but one whose stale count says otherwise: a segment that headed a chain
 * before it was chained behind another (rte_pktmbuf_chain() leaves the
 * tail's count) and then split off with next = NULL. The same load that
 * checks refcnt checks nb_segs, so such a segment takes the general path,
 * whose rte_pktmbuf_prefree_seg() resets it, at no cost to the others.
 */
static __rte_always_inline int
consume_fast(struct rte_mbuf *m, const struct rte_mempool *hp)
{
	uint32_t own = sizeof(*m) + m->priv_size;

	/*
	 * Seeing refcnt 1 means that any other holder has dropped its
	 * reference (an acq_rel decrement): acquire order puts what it did
	 * with the head and the data before the writes below and the reuse
	 * (refcount_dec_and_test()'s acquire on zero in the kernel). A
	 * relaxed read (rte_mbuf_refcnt_read()) is ordered only by the
	 * branch, which C11 does not count: ThreadSanitizer reported the
	 * writes below as racing with another holder's reads. On x86 the
	 * same mov.
	 */
	if (m->pool != hp || m->next != NULL ||
			npool_pkt_rc_segs_pvt(m) != NPOOL_PKT_RC_SEGS_ONE ||
			!npool_pkt_is_npool(m) ||
			__atomic_load_n(&m->shinfo->refcnt,
				__ATOMIC_ACQUIRE) != 1)
		return 0;
	npool_free_frag(m->buf_addr);
	m->buf_addr = (char *)m + own;
	rte_mbuf_iova_set(m, rte_mempool_virt2iova(m) + own);
	m->buf_len = 0;
	m->data_off = 0;
	m->data_len = 0;
	m->ol_flags = 0;
	return 1;
}

void
npool_napi_consume_bulk_pvt(struct rte_mbuf **pkts, unsigned int n)
{
	void *pending[NPOOL_CONSUME_BATCH];
	struct rte_mempool *mp = NULL, *hp;
	unsigned int i, np = 0;
	uint64_t segs = 0;

	if (npool_g == NULL) {
		rte_pktmbuf_free_bulk(pkts, n);
		return;
	}
	hp = npool_g->head_pool;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *next;

		for (; m != NULL; m = next) {
			next = m->next;
			segs++;
			if (!consume_fast(m, hp)) {
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
					consume_flush(mp, pending, np);
				mp = m->pool;
				np = 0;
			}
			pending[np++] = m;
		}
	}
	if (np != 0)
		consume_flush(mp, pending, np);
	NPOOL_STAT_ADD(npool_slot(), pkt_consumes, segs);
}

void
npool_napi_consume_pkt(struct rte_mbuf *m)
{
	if (m != NULL)
		npool_napi_consume_bulk(&m, 1);
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
npool_napi_alloc_pkt_each_pvt(struct rte_mbuf **pkts, const uint32_t *lens,
		unsigned int n)
{
	unsigned int i, got = 0;

	if (n > NPOOL_PKT_BULK_MAX) {
		for (i = 0; i < n; i++)
			pkts[i] = npool_pkt_fail_pvt(npool_slot(), EINVAL);
		return 0;
	}
	for (i = 0; i < n; i++) {
		pkts[i] = npool_napi_alloc_pkt(lens[i]);
		got += pkts[i] != NULL;
	}
	return got;
}
