/* SPDX-License-Identifier: BSD-3-Clause */
#include <rte_common.h>

#include "npool_frag_free.h"
#include "npool_core_pvt.h"

void
npool_chunk_free(struct npool *np, unsigned int slot, struct npool_chunk *c)
{
	struct npool_lcore *lc = &np->lc[slot];
	uint8_t n = lc->pcp_n;

	/* Kept only by the lcore that carved it, which carves again: one
	 * that only frees (a pipeline's worker) would strand chunks. The
	 * stores relaxed: npool_usage() reads them from any thread. */
	if (slot != NPOOL_NON_EAL_SLOT && c->owner == slot &&
			n < NPOOL_PCP_MAX) {
		__atomic_store_n(&lc->pcp[n], c, __ATOMIC_RELAXED);
		__atomic_store_n(&lc->pcp_n, n + 1, __ATOMIC_RELAXED);
	} else {
		npool_arena_put(&np->arena, c);
	}
}

void
npool_free_frag_other(unsigned int slot, const void *p)
{
	struct npool_chunk *c;
	struct npool *np = npool_owner_pvt(p, &c);

	if (unlikely(np == NULL)) {
		NPOOL_DEBUG_PANIC("npool: free of %p, not an npool fragment\n",
				p);
		NPOOL_STAT_ADD(slot, failures, 1);
		return;
	}
	npool_free_frags_chunk_pvt(np, slot, c, p, 1);
}
