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
 * npool_pkt_consume.h). A fragment of the lcore's napi cache's current
 * or previous chunk is recognised by its address (one subtraction and
 * compare against each) and counted; npool_frag_free_batch_commit_pvt()
 * then gives the cache its references back once, by the count, where
 * npool_free_frag_pvt() looks the chunk up and credits a reference per
 * fragment. Any other fragment of the lcore's instance joins a run of
 * fragments of one chunk, freed together (one atomic subtraction) when
 * a fragment of another chunk comes or the batch ends: a burst carved
 * from a chunk and freed on another lcore, or long after, costs an
 * atomic operation per run of fragments of one chunk, not per fragment.
 * Fragments of other instances take npool_free_frag_pvt() at once.
 *
 * Between init and commit the lcore must not allocate from its napi
 * cache (no refill moves its chunks); frees in between (a callback) are
 * fine: a bias only ever adds. Debug and AddressSanitizer builds
 * (NPOOL_DEBUG_HOOKS) free each fragment with its checks.
 */
struct npool_frag_free_batch_pvt {
	uintptr_t cur_va, prev_va;   /**< chunk starts (0: none) */
	uint32_t cur_len, prev_len;  /**< chunk sizes (0: none) */
	uint32_t nb_cur, nb_prev;    /**< fragments counted */
	struct npool_chunk *run;     /**< chunk of the run (NULL: none) */
	uint32_t nb_run;             /**< fragments in the run */
};

/** @internal Start a batch on slot @p slot of @p np. */
static __rte_always_inline void
npool_frag_free_batch_init_pvt(struct npool_frag_free_batch_pvt *b,
		const struct npool *np, unsigned int slot)
{
	const struct npool_frag_cache *nc = &np->lc[slot].napi;
	const struct npool_chunk *prev = nc->prev;

	/* Non-EAL threads share their slot's caches: no batch. */
	if (slot == NPOOL_NON_EAL_SLOT) {
		nc = &np->lc[slot].guarded;
		prev = NULL;
	}
	/* A cache without a chunk has va NULL and len 0: nothing matches. */
	b->cur_va = (uintptr_t)nc->va;
	b->cur_len = slot == NPOOL_NON_EAL_SLOT ? 0 : nc->len;
	b->prev_va = prev != NULL ? (uintptr_t)prev->va : 0;
	b->prev_len = prev != NULL ? prev->size : 0;
	b->nb_cur = 0;
	b->nb_prev = 0;
	b->run = NULL;
	b->nb_run = 0;
}

/** @internal Free the run of batch @p b, if any. */
static __rte_always_inline void
npool_frag_free_batch_run_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot)
{
	if (b->run == NULL)
		return;
	npool_free_frags_chunk_pvt(np, slot, b->run, NULL, b->nb_run);
	b->run = NULL;
}

/**
 * @internal The counter of batch @p b that fragment @p p (any address
 * inside it) goes to when it is in the lcore's current or previous napi
 * chunk, else NULL (always NULL in debug and ASan builds, which free
 * each fragment with its checks).
 */
static __rte_always_inline uint32_t *
npool_frag_free_batch_own_pvt(struct npool_frag_free_batch_pvt *b,
		const void *p)
{
	uintptr_t a = (uintptr_t)p;

	if (NPOOL_DEBUG_HOOKS)
		return NULL;
	if (likely(a - b->cur_va < b->cur_len))
		return &b->nb_cur;
	if (a - b->prev_va < b->prev_len)
		return &b->nb_prev;
	return NULL;
}

/** @internal Free fragment @p p of batch @p b that is in none of the
 * lcore's own chunks, @p c its chunk header (npool_arena_chunk() on
 * @p np: NULL for another instance's fragment). */
static __rte_always_inline void
npool_frag_free_batch_other_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot, const void *p,
		struct npool_chunk *c)
{
	if (NPOOL_DEBUG_HOOKS || unlikely(c == NULL)) {
		npool_free_frag_pvt(np, slot, p);
	} else if (c == b->run) {
		b->nb_run++;
	} else {
		npool_frag_free_batch_run_pvt(b, np, slot);
		b->run = c;
		b->nb_run = 1;
	}
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
	uint32_t *cnt;

	if (b == NULL) {
		npool_free_frag_pvt(np, slot, p);
		return;
	}
	cnt = npool_frag_free_batch_own_pvt(b, p);
	if (likely(cnt != NULL))
		(*cnt)++;
	else
		npool_frag_free_batch_other_pvt(b, np, slot, p,
				npool_arena_chunk(&np->arena, p));
}

/** @internal End batch @p b: the run freed, the counted references back
 * in the biases. */
static __rte_always_inline void
npool_frag_free_batch_commit_pvt(struct npool_frag_free_batch_pvt *b,
		struct npool *np, unsigned int slot)
{
	struct npool_lcore *lc = &np->lc[slot];

	npool_frag_free_batch_run_pvt(b, np, slot);
	if (b->nb_cur + b->nb_prev == 0)
		return;
	lc->napi.returned += b->nb_cur;
	lc->napi.prev_bias += b->nb_prev;
	lc->stats.frees += b->nb_cur + b->nb_prev;
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_FRAG_BATCH_H */
