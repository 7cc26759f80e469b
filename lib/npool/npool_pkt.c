/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_errno.h>

#include "npool_pkt.h"
#include "npool_core_pvt.h"

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
