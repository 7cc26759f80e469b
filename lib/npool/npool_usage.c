/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool_usage_get() and npool_instance_usage_get() (npool.h): what an
 * instance has, what is out, and what the live packets and fragments pin,
 * in bytes, by class: big chunks, small chunks, tiny objects, heads.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "npool_usage.h"
#include "npool_arena.h"
#include "npool_core.h"
#include "npool_frag.h"
#include "npool_stats.h"
#include "npool_core_pvt.h"
#include "npool_log.h"

/* Bytes of one object of @p mp: header, element and trailer. */
static uint32_t
obj_size(const struct rte_mempool *mp)
{
	return mp->header_size + mp->elt_size + mp->trailer_size;
}

/*
 * Chunk @p c held by a cache with @p bias references and no fragment out
 * (refcount equal to the bias): held, not pinned. Counted off the
 * pinned chunks of its size.
 */
static void
unpin_if_held(struct npool_usage *u, const struct npool_chunk *c,
		uint32_t bias)
{
	if (c == NULL || __atomic_load_n(&c->refcnt, __ATOMIC_ACQUIRE) != bias)
		return;
	if (c->flags & NPOOL_CHUNK_F_SMALL)
		u->small_pinned--;
	else
		u->big_pinned--;
}

/*
 * The chunks that live fragments pin: every chunk not free, less those a
 * fragment cache holds with no fragment out (a chunk is held by one cache
 * at most, as its current or its previous chunk).
 */
static void
usage_pinned(const struct npool *np, struct npool_usage *u)
{
	const struct npool_arena *a = &np->arena;
	unsigned int i, k;

	u->big_in_use = a->nb_chunks - npool_arena_free_count(a, 0);
	u->small_in_use = a->nb_small - npool_arena_free_count(a, 1);
	u->big_pinned = u->big_in_use;
	u->small_pinned = u->small_in_use;
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		const struct npool_lcore *lc = &np->lc[i];
		const struct npool_frag_cache *caches[] = {
			&lc->napi, &lc->napi_small, &lc->guarded,
			&lc->guarded_small, &lc->keep,
		};

		for (k = 0; k < RTE_DIM(caches); k++) {
			unpin_if_held(u, caches[k]->chunk,
					npool_frag_cache_bias_pvt(caches[k]));
			unpin_if_held(u, caches[k]->prev,
					caches[k]->prev_bias);
		}
	}
	/* Chunks an lcore keeps for its next refill: free, not pinned. */
	for (i = 0; i < NPOOL_NON_EAL_SLOT; i++) {
		const struct npool_lcore *lc = &np->lc[i];
		unsigned int n = RTE_MIN(__atomic_load_n(&lc->pcp_n,
				__ATOMIC_RELAXED), (uint8_t)NPOOL_PCP_MAX);

		for (k = 0; k < n; k++) {
			const struct npool_chunk *c =
				__atomic_load_n(&lc->pcp[k], __ATOMIC_RELAXED);

			/* By its index, never written: its owner may be
			 * installing it (c->flags). */
			if (c == NULL)
				continue;
			if (c->index >= a->nb_chunks)
				u->small_pinned--;
			else
				u->big_pinned--;
		}
	}
	/* Read while others run: never below zero. */
	if ((int32_t)u->big_pinned < 0)
		u->big_pinned = 0;
	if ((int32_t)u->small_pinned < 0)
		u->small_pinned = 0;
	u->pinned_big = (uint64_t)u->big_pinned * NPOOL_CHUNK_SIZE;
	u->pinned_small = (uint64_t)u->small_pinned * NPOOL_SMALL_CHUNK_SIZE;
}

int
npool_instance_usage_get(const struct npool *np, struct npool_usage *u)
{
	if (u == NULL || np == NULL)
		return npool_err_pvt(EINVAL);
	memset(u, 0, sizeof(*u));
	u->socket_id = np->socket_id;
	u->chunks = np->arena.nb_chunks;
	u->small_chunks = np->arena.nb_small;
	u->chunks_in_use = npool_arena_in_use(&np->arena);
	u->frags_out = npool_instance_frags_outstanding(np);
	u->heads = np->head_pool->size;
	u->heads_out = rte_mempool_in_use_count(np->head_pool);
	u->head_size = obj_size(np->head_pool);
	if (np->small_pool != NULL) {
		u->small_pkts = np->small_pool->size;
		u->small_pkts_out = rte_mempool_in_use_count(np->small_pool);
		u->small_pkt_size = obj_size(np->small_pool);
	}
	if (np->mid_pool != NULL) {
		u->mid_pkts = np->mid_pool->size;
		u->mid_pkts_out = rte_mempool_in_use_count(np->mid_pool);
		u->mid_pkt_size = obj_size(np->mid_pool);
	}
	usage_pinned(np, u);
	u->pinned_tiny = (uint64_t)u->small_pkts_out * u->small_pkt_size;
	u->pinned_mid = (uint64_t)u->mid_pkts_out * u->mid_pkt_size;
	u->pinned_heads = (uint64_t)u->heads_out * u->head_size;
	u->pinned = u->pinned_big + u->pinned_small + u->pinned_tiny +
		u->pinned_mid + u->pinned_heads;
	return 0;
}

int
npool_usage_get(struct npool_usage *u)
{
	struct npool_usage one;
	unsigned int k;

	if (u == NULL || npool_nb_instances_pvt == 0) {
		rte_errno = u == NULL ? EINVAL : ENODEV;
		return -rte_errno;
	}
	memset(u, 0, sizeof(*u));
	u->socket_id = npool_nb_instances_pvt == 1 ?
		npool_instances_pvt[0]->socket_id : SOCKET_ID_ANY;
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		npool_instance_usage_get(npool_instances_pvt[k], &one);
#define NPOOL_USAGE_SUM(f) u->f += one.f
		NPOOL_USAGE_SUM(chunks);
		NPOOL_USAGE_SUM(small_chunks);
		NPOOL_USAGE_SUM(chunks_in_use);
		NPOOL_USAGE_SUM(frags_out);
		NPOOL_USAGE_SUM(heads);
		NPOOL_USAGE_SUM(heads_out);
		NPOOL_USAGE_SUM(small_pkts);
		NPOOL_USAGE_SUM(small_pkts_out);
		NPOOL_USAGE_SUM(big_in_use);
		NPOOL_USAGE_SUM(small_in_use);
		NPOOL_USAGE_SUM(big_pinned);
		NPOOL_USAGE_SUM(small_pinned);
		NPOOL_USAGE_SUM(pinned_big);
		NPOOL_USAGE_SUM(pinned_small);
		NPOOL_USAGE_SUM(pinned_tiny);
		NPOOL_USAGE_SUM(pinned_heads);
		NPOOL_USAGE_SUM(pinned);
		NPOOL_USAGE_SUM(mid_pkts);
		NPOOL_USAGE_SUM(mid_pkts_out);
		NPOOL_USAGE_SUM(pinned_mid);
#undef NPOOL_USAGE_SUM
		u->small_pkt_size = RTE_MAX(u->small_pkt_size,
				one.small_pkt_size);
		u->mid_pkt_size = RTE_MAX(u->mid_pkt_size, one.mid_pkt_size);
		u->head_size = RTE_MAX(u->head_size, one.head_size);
	}
	return 0;
}
