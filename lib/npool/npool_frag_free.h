/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_FRAG_FREE_H
#define NPOOL_FRAG_FREE_H

/**
 * @file
 * The fragment free path below npool_free_frag() (npool_frag.h) and the
 * packet frees (npool_frag_batch.h): the inline credit or atomic
 * subtraction of a chunk's references, and its out-of-line halves, the
 * chunk's return and the free of another instance's fragment. The
 * kernel's page_frag_free() and free_the_page().
 *
 * An indirect header: installed because the API's inline frees call
 * what it declares; programs include npool_frag.h, not this.
 */

#include <stdint.h>
#include <rte_atomic.h>
#include <rte_common.h>

#include "npool_core.h"
#include "npool_debug.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A chunk's last fragment came back on the thread of slot @p slot: keep
 * the chunk for that lcore's next refill if that lcore carved it and has
 * room (npool_lcore.pcp, the kernel's per-CPU page lists), else give it
 * back to the arena (free_the_page()). The out-of-line half of the
 * fragment frees, once a chunk; applications do not call it.
 *
 * @param np
 *   The instance whose arena holds @p c.
 * @param slot
 *   The caller's slot (npool_slot()); NPOOL_NON_EAL_SLOT keeps nothing.
 * @param c
 *   The chunk, its reference count 0.
 */
void npool_chunk_free(struct npool *np, unsigned int slot,
		struct npool_chunk *c);

/** @internal Free of @p k fragments of instance @p np in the chunk of
 * header @p c by the thread of slot @p slot (npool_slot()), their
 * references back in one credit or one atomic subtraction. @p p: the
 * fragment when @p k is 1; more only without NPOOL_DEBUG_HOOKS, whose
 * checks are per fragment. */
static __rte_always_inline void
npool_free_frags_chunk_pvt(struct npool *np, unsigned int slot,
		struct npool_chunk *c, const void *p, uint32_t k)
{
	RTE_SET_USED(p);
	/* Before the reference goes: the chunk may be reused right after. */
	NPOOL_DEBUG_HOOK(npool_debug_frag_free(&np->arena, c, p));
	if (likely(slot != NPOOL_NON_EAL_SLOT)) {
		struct npool_lcore *lc = &np->lc[slot];
		uint32_t *credit = NULL, bias = 0;

		lc->stats.frees += k;
		/* The chunk of one of our own napi caches (frags and big
		 * packets, or small packets), or the one each carved before
		 * it: no one else touches their references. */
		if (likely(lc->napi.chunk == c)) {
			credit = &lc->napi.returned;
			bias = npool_frag_cache_bias_pvt(&lc->napi);
		} else if (lc->napi_small.chunk == c) {
			credit = &lc->napi_small.returned;
			bias = npool_frag_cache_bias_pvt(&lc->napi_small);
		} else if (lc->napi_small.prev == c) {
			credit = &lc->napi_small.prev_bias;
			bias = *credit;
		} else if (lc->napi.prev == c) {
			credit = &lc->napi.prev_bias;
			bias = *credit;
		}
		if (credit != NULL) {
			NPOOL_DEBUG_CHECK(npool_debug_napi_owner(slot));
			NPOOL_DEBUG_PANIC_IF(bias >=
					__atomic_load_n(&c->refcnt,
						__ATOMIC_RELAXED),
					"npool: double free of fragment %p\n", p);
			RTE_SET_USED(bias);
			*credit += k;
			return;
		}
		if (c->owner != slot)
			lc->stats.remote_frees += k;
	} else {
		NPOOL_STAT_ADD_NP(np, slot, frees, k);
		if (c->owner != slot)
			NPOOL_STAT_ADD_NP(np, slot, remote_frees, k);
	}
	NPOOL_DEBUG_PANIC_IF(__atomic_load_n(&c->refcnt, __ATOMIC_RELAXED) == 0,
			"npool: double free of fragment %p\n", p);
	if (__atomic_sub_fetch(&c->refcnt, k, __ATOMIC_ACQ_REL) == 0)
		npool_chunk_free(np, slot, c);
}

/**
 * npool_free_frag() of a fragment @p p that is not of the caller's
 * instance: it goes back to the instance that owns it, found by a walk
 * over the instances; an address in no instance's arena is counted as a
 * failure (debug builds panic). The out-of-line half of npool_free_frag();
 * applications call that.
 *
 * Context: any thread.
 *
 * @param slot
 *   The caller's slot (npool_slot()).
 * @param p
 *   Any address inside a fragment, not NULL.
 */
void npool_free_frag_other(unsigned int slot, const void *p);

/** @internal npool_free_frag() of a non-NULL @p p by the thread of slot
 * @p slot (npool_slot()), whose instance is @p np (non-NULL): a
 * fragment of @p np is freed inline, any other goes to its owner. */
static __rte_always_inline void
npool_free_frag_pvt(struct npool *np, unsigned int slot, const void *p)
{
	struct npool_chunk *c = npool_arena_chunk(&np->arena, p);

	if (likely(c != NULL))
		npool_free_frags_chunk_pvt(np, slot, c, p, 1);
	else
		npool_free_frag_other(slot, p);
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_FRAG_FREE_H */
