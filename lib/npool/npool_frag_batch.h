/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_FRAG_BATCH_H
#define NPOOL_FRAG_BATCH_H

/**
 * @file
 * Fragment frees in batches, for npool's consume bursts
 * (npool_pkt_consume.h): the @internal helpers that credit an lcore's
 * napi cache once a burst instead of once a fragment. Installed because
 * the consume inlines include it; not to be included directly.
 */

#include <stdint.h>

#include "npool_frag_free.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @internal A burst of fragment frees on one lcore (a consume burst,
 * npool_pkt_consume.h, or a defer ring's packets, npool_pkt_defer.h):
 * the frees of a run of fragments of one chunk given back at once, the
 * kernel's pagecnt_bias trick on the freeing side. A fragment inside the
 * run's chunk (one subtraction and compare) is counted; one outside it
 * ends the run and starts the next: in the lcore's napi cache's current
 * or previous chunk, its references go back to that cache, by the count,
 * without an atomic operation; in any other chunk of the lcore's
 * instance (a burst carved on another lcore, or long before), one atomic
 * subtraction of the run's count (npool_free_frags_chunk_pvt()). A burst
 * carved in order thus costs a compare a fragment and an update a chunk.
 * Fragments of other instances take npool_free_frag_pvt() at once.
 *
 * Between init and commit the lcore must not allocate from its napi
 * cache (no refill moves its chunks); frees in between (a callback) are
 * fine: a bias only ever adds. Debug and AddressSanitizer builds
 * (NPOOL_DEBUG_HOOKS) start no run: each fragment is freed with its
 * checks.
 */
struct npool_frag_free_batch_pvt {
	uintptr_t cur_va, prev_va;   /**< chunk starts (0: none) */
	uint32_t cur_len, prev_len;  /**< chunk sizes (0: none) */
	uintptr_t run_va;            /**< start of the run's chunk */
	uint32_t run_len;            /**< its size (0: no run) */
	uint32_t nb_run;             /**< fragments in the run */
	/** The napi cache's count the run goes to (its returned or
	 * prev_bias), or NULL: the chunk's reference count. */
	uint32_t *run_credit;
	struct npool_chunk *run;     /**< the run's chunk */
};

/** @internal Start a batch on slot @p slot of @p np. */
static __rte_always_inline void
npool_frag_free_batch_init_pvt(struct npool_frag_free_batch_pvt *b,
		const struct npool *np, unsigned int slot)
{
	const struct npool_frag_cache *nc = &np->lc[slot].napi;
	const struct npool_chunk *prev = nc->prev;

	/* Non-EAL threads share their slot's caches: no credit. */
	if (slot == NPOOL_NON_EAL_SLOT) {
		nc = &np->lc[slot].guarded;
		prev = NULL;
	}
	/* A cache without a chunk has va NULL and len 0: nothing matches. */
	b->cur_va = (uintptr_t)nc->va;
	b->cur_len = slot == NPOOL_NON_EAL_SLOT ? 0 : nc->len;
	b->prev_va = prev != NULL ? (uintptr_t)prev->va : 0;
	b->prev_len = prev != NULL ? prev->size : 0;
	b->run_va = 0;
	b->run_len = 0;
	b->nb_run = 0;
	b->run_credit = NULL;
	b->run = NULL;
}

/** @internal Free the run of batch @p b, if any. */
static __rte_always_inline void
npool_frag_free_batch_run_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot)
{
	if (b->nb_run == 0)
		return;
	if (b->run_credit != NULL) {
		*b->run_credit += b->nb_run;
		np->lc[slot].stats.frees += b->nb_run;
	} else {
		npool_free_frags_chunk_pvt(np, slot, b->run, NULL, b->nb_run);
	}
	b->nb_run = 0;
}

/**
 * @internal Whether fragment @p p (any address inside it) is in the
 * lcore's current or previous napi chunk of batch @p b: freed by a
 * credit (always 0 in debug and ASan builds).
 */
static __rte_always_inline int
npool_frag_free_batch_own_pvt(const struct npool_frag_free_batch_pvt *b,
		const void *p)
{
	uintptr_t a = (uintptr_t)p;

	return !NPOOL_DEBUG_HOOKS && (a - b->cur_va < b->cur_len ||
			a - b->prev_va < b->prev_len);
}

/** @internal Free fragment @p p of batch @p b, outside the run's chunk:
 * the run freed, a run of @p p's chunk started. */
static __rte_always_inline void
npool_frag_free_batch_start_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot, const void *p)
{
	struct npool_lcore *lc = &np->lc[slot];
	uintptr_t a = (uintptr_t)p;
	struct npool_chunk *c;

	npool_frag_free_batch_run_pvt(b, np, slot);
	if (NPOOL_DEBUG_HOOKS) {
		npool_free_frag_pvt(np, slot, p);
		return;
	}
	if (likely(a - b->cur_va < b->cur_len)) {
		b->run_va = b->cur_va;
		b->run_len = b->cur_len;
		b->run_credit = &lc->napi.returned;
	} else if (a - b->prev_va < b->prev_len) {
		b->run_va = b->prev_va;
		b->run_len = b->prev_len;
		b->run_credit = &lc->napi.prev_bias;
	} else {
		c = npool_arena_chunk(&np->arena, p);
		if (unlikely(c == NULL)) {
			npool_free_frag_pvt(np, slot, p);
			return;
		}
		b->run_va = (uintptr_t)c->va;
		b->run_len = c->size;
		b->run_credit = NULL;
		b->run = c;
	}
	b->nb_run = 1;
}

/**
 * @internal Free fragment @p p (any address inside it) in batch @p b; a
 * NULL @p b (a constant: one packet, where setting a batch up costs more
 * than it saves) is npool_free_frag_pvt().
 */
static __rte_always_inline void
npool_frag_free_batch_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot, const void *p)
{
	if (b == NULL) {
		npool_free_frag_pvt(np, slot, p);
		return;
	}
	if (likely((uintptr_t)p - b->run_va < b->run_len))
		b->nb_run++;
	else
		npool_frag_free_batch_start_pvt(b, np, slot, p);
}

/** @internal End batch @p b: the run freed. */
static __rte_always_inline void
npool_frag_free_batch_commit_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot)
{
	npool_frag_free_batch_run_pvt(b, np, slot);
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_FRAG_BATCH_H */
