/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool_audit(): walk the arena, the fragment caches and the head pool
 * and check that they agree; the leak check at exit: every mbuf of the
 * given pools and of npool's own back once with refcnt 1, no fragment
 * and no chunk out (see npool_audit.h). Slow paths only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "npool_audit.h"
#include "npool_arena.h"
#include "npool_core.h"
#include "npool_frag.h"
#include "npool_head_cache.h"
#include "npool_instance.h"
#include "npool_stats.h"
#include "npool_asan.h"
#include "npool_core_pvt.h"
#include "npool_arena_pvt.h"
#include "npool_frag_pvt.h"
#include "npool_head_cache_pvt.h"
#include "npool_log.h"

/* Inconsistencies logged one by one; the rest are only counted. */
#define AUDIT_LOG_MAX 16

/* Per chunk: which cache holds it, and whether a free stack does. */
struct chunk_seen {
	const struct npool_frag_cache *cache;
	uint32_t bias;  /**< the cache's references: its pagecnt_bias, or
	                 *   prev_bias for the chunk it carved before */
	uint8_t free;
};

struct audit_ctx {
	struct npool *np;
	struct npool_audit *out;
	struct chunk_seen *seen;
};

#define AUDIT_ERR(ctx, fmt, ...) do { \
	if ((ctx)->out->errors++ < AUDIT_LOG_MAX) \
		NPOOL_LOG(ERR, "audit: " fmt, ##__VA_ARGS__); \
} while (0)

/* Record that cache @p nc holds chunk @p c with @p bias references. */
static int
audit_hold(struct audit_ctx *ctx, const struct npool_frag_cache *nc,
		const struct npool_chunk *c, uint32_t bias, const char *what,
		unsigned int slot)
{
	const struct npool_arena *a = &ctx->np->arena;

	if (c < a->chunks || c >= a->chunks + a->nb_chunks + a->nb_small) {
		AUDIT_ERR(ctx, "%s cache of slot %u holds %p, not a chunk",
				what, slot, (const void *)c);
		return -1;
	}
	if (ctx->seen[c->index].cache != NULL)
		AUDIT_ERR(ctx, "chunk %u held by two caches", c->index);
	ctx->seen[c->index].cache = nc;
	ctx->seen[c->index].bias = bias;
	return 0;
}

/* Record which cache holds each chunk (its current one, and a napi
 * cache's previous one); check the caches themselves. */
static void
audit_caches(struct audit_ctx *ctx)
{
	unsigned int i, k;

	static const char *const names[5] = {
		"napi", "napi small", "guarded", "guarded small", "keep",
	};

	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		const struct npool_frag_cache *caches[5] = {
			&ctx->np->lc[i].napi, &ctx->np->lc[i].napi_small,
			&ctx->np->lc[i].guarded, &ctx->np->lc[i].guarded_small,
			&ctx->np->lc[i].keep,
		};

		for (k = 0; k < RTE_DIM(caches); k++) {
			const struct npool_frag_cache *nc = caches[k];
			const struct npool_chunk *c = nc->chunk;

			if (nc->prev != NULL)
				audit_hold(ctx, nc, nc->prev, nc->prev_bias,
						names[k], i);
			if (c == NULL ||
					audit_hold(ctx, nc, c,
						npool_frag_cache_bias_pvt(nc),
						names[k], i) < 0)
				continue;
			if (nc->va != c->va || nc->offset < 0 ||
					(uint32_t)nc->offset > c->size)
				AUDIT_ERR(ctx, "%s cache of slot %u: va %p offset %d for chunk %u at %p",
						names[k], i, nc->va,
						nc->offset, c->index, c->va);
		}
	}
}

/* One free chunk @p c, in a free stack or kept by an lcore (@p where). */
static void
audit_free_chunk(struct audit_ctx *ctx, const struct npool_chunk *c,
		const char *where)
{
	const struct npool_arena *a = &ctx->np->arena;

	if (ctx->seen[c->index].free++ != 0)
		AUDIT_ERR(ctx, "chunk %u free twice (%s)", c->index, where);
	else
		ctx->out->chunks_free++;
	if (__atomic_load_n(&c->refcnt, __ATOMIC_RELAXED) != 0)
		AUDIT_ERR(ctx, "free chunk %u (%s) has refcount %u",
				c->index, where, c->refcnt);
	if (ctx->seen[c->index].cache != NULL)
		AUDIT_ERR(ctx, "free chunk %u (%s) held by a cache",
				c->index, where);
	if (NPOOL_DEBUG && npool_debug_chunk_live_pvt(a, c) != 0)
		AUDIT_ERR(ctx, "free chunk %u (%s) has %u live fragments",
				c->index, where,
				npool_debug_chunk_live_pvt(a, c));
}

/* The chunks each lcore keeps (npool_lcore.pcp). */
static void
audit_pcp(struct audit_ctx *ctx)
{
	const struct npool_arena *a = &ctx->np->arena;
	const uint32_t total = a->nb_chunks + a->nb_small;
	unsigned int i, k;

	for (i = 0; i < NPOOL_NON_EAL_SLOT; i++) {
		const struct npool_lcore *lc = &ctx->np->lc[i];

		if (lc->pcp_n > NPOOL_PCP_MAX) {
			AUDIT_ERR(ctx, "slot %u keeps %u chunks, at most %u",
					i, lc->pcp_n, NPOOL_PCP_MAX);
			continue;
		}
		for (k = 0; k < lc->pcp_n; k++) {
			const struct npool_chunk *c = lc->pcp[k];

			if (c < a->chunks || c >= a->chunks + total)
				AUDIT_ERR(ctx, "slot %u keeps %p, not a chunk",
						i, (const void *)c);
			else
				audit_free_chunk(ctx, c, "kept by an lcore");
		}
	}
}

/* Empty one free stack, check each entry, push them back in order. */
static int
audit_free_stack(struct audit_ctx *ctx, int small)
{
	struct npool_arena *a = &ctx->np->arena;
	const uint32_t total = a->nb_chunks + a->nb_small;
	struct npool_chunk **got;
	uint32_t n = 0, i;

	got = calloc(total + 1, sizeof(*got));
	if (got == NULL)
		return -ENOMEM;
	/* One more than can exist: a chunk put twice shows up. */
	while (n <= total && (got[n] = npool_arena_get(a, small)) != NULL)
		n++;
	for (i = 0; i < n; i++) {
		const struct npool_chunk *c = got[i];

		if (c < a->chunks || c >= a->chunks + total) {
			AUDIT_ERR(ctx, "free stack holds %p, not a chunk",
					(const void *)c);
			continue;
		}
		if ((c->index >= a->nb_chunks) != small)
			AUDIT_ERR(ctx, "chunk %u in the wrong free stack",
					c->index);
		audit_free_chunk(ctx, c, "free stack");
	}
	for (i = n; i-- > 0; )
		npool_arena_put(a, got[i]);
	free(got);
	return 0;
}

/* Every chunk not free: who holds it, and how many fragments are out. */
static void
audit_chunks_in_use(struct audit_ctx *ctx)
{
	const struct npool_arena *a = &ctx->np->arena;
	const uint32_t total = a->nb_chunks + a->nb_small;
	uint32_t i;

	for (i = 0; i < total; i++) {
		const struct npool_chunk *c = &a->chunks[i];
		const struct npool_frag_cache *nc = ctx->seen[i].cache;
		uint32_t ref = __atomic_load_n(&c->refcnt, __ATOMIC_RELAXED);
		uint32_t bias = 0;

		if (ctx->seen[i].free != 0)
			continue;
		if (nc != NULL) {
			ctx->out->chunks_cached++;
			bias = ctx->seen[i].bias;
			if (bias == 0 || ref < bias ||
					ref > NPOOL_FRAG_BIAS_MAX) {
				AUDIT_ERR(ctx, "cached chunk %u: refcount %u, bias %u",
						i, ref, bias);
				continue;
			}
		} else {
			ctx->out->chunks_pinned++;
			if (ref == 0 || ref >= NPOOL_FRAG_BIAS_MAX) {
				AUDIT_ERR(ctx, "chunk %u in use, no cache, refcount %u",
						i, ref);
				continue;
			}
		}
		ctx->out->frags_out += ref - bias;
		if (NPOOL_DEBUG &&
				npool_debug_chunk_live_pvt(a, c) != ref - bias)
			AUDIT_ERR(ctx, "chunk %u: %u fragments out by refcount, %u live in its map",
					i, ref - bias,
					npool_debug_chunk_live_pvt(a, c));
	}
}

static int
ptr_cmp(const void *x, const void *y)
{
	uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;

	return (a > b) - (a < b);
}

/* Heads in lcore @p i's cache: DPDK's mempool cache when the pool has
 * one (npool_init() makes it so), else the ops' own (npool_hc). */
static unsigned int
audit_cache_len(const struct rte_mempool *mp, const struct npool_hc *hc,
		unsigned int i)
{
	return mp->cache_size != 0 ? mp->local_cache[i].len : hc->lc[i].len;
}

static void * const *
audit_cache_objs(const struct rte_mempool *mp, const struct npool_hc *hc,
		unsigned int i)
{
	return mp->cache_size != 0 ? mp->local_cache[i].objs : hc->lc[i].objs;
}

/* Every free head: of the head pool, there once; store order kept. */
static int
audit_heads(struct audit_ctx *ctx)
{
	struct rte_mempool *mp = ctx->np->head_pool;
	const struct npool_hc *hc = ctx->np->head_hc;
	unsigned int in_store, n, i, avail;
	void **objs, **sorted;

	in_store = rte_ring_count(hc->store);
	n = in_store;
	for (i = 0; i < RTE_MAX_LCORE; i++)
		n += audit_cache_len(mp, hc, i);
	objs = calloc(2 * (size_t)n + 1, sizeof(*objs));
	if (objs == NULL)
		return -ENOMEM;
	sorted = objs + n;
	/* FIFO: taking all and putting all back keeps the order. */
	if (rte_ring_dequeue_bulk(hc->store, objs, in_store, NULL) !=
			in_store ||
			rte_ring_enqueue_bulk(hc->store, objs, in_store,
				NULL) != in_store)
		AUDIT_ERR(ctx, "head store changed during the audit");
	n = in_store;
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		memcpy(&objs[n], audit_cache_objs(mp, hc, i),
				audit_cache_len(mp, hc, i) * sizeof(*objs));
		n += audit_cache_len(mp, hc, i);
	}
	memcpy(sorted, objs, n * sizeof(*objs));
	qsort(sorted, n, sizeof(*sorted), ptr_cmp);
	ctx->out->heads = mp->size;
	for (i = 0; i < n; i++) {
		if (i > 0 && sorted[i] == sorted[i - 1]) {
			AUDIT_ERR(ctx, "head %p free twice", sorted[i]);
			continue;
		}
		if (rte_mempool_from_obj(sorted[i]) != mp)
			AUDIT_ERR(ctx, "head %p is not of the head pool",
					sorted[i]);
		ctx->out->heads_free++;
	}
	/* With a mempool cache DPDK caps its count at the pool size: a
	 * head there twice is reported above already. */
	avail = rte_mempool_avail_count(mp);
	if (avail != (mp->cache_size != 0 ? RTE_MIN(n, mp->size) : n))
		AUDIT_ERR(ctx, "head pool: %u free by its count, %u found",
				avail, n);
	if (ctx->out->heads_free > mp->size)
		AUDIT_ERR(ctx, "head pool: %u free of %u",
				ctx->out->heads_free, mp->size);
	free(objs);
	return 0;
}

int
npool_instance_audit(struct npool *np, struct npool_audit *out)
{
	struct audit_ctx ctx;
	int ret;

	if (out == NULL || np == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	ctx.np = np;
	ctx.out = out;
	out->chunks = np->arena.nb_chunks + np->arena.nb_small;
	ctx.seen = calloc(out->chunks, sizeof(*ctx.seen));
	if (ctx.seen == NULL) {
		rte_errno = ENOMEM;
		return -ENOMEM;
	}
	audit_caches(&ctx);
	audit_pcp(&ctx);
	ret = audit_free_stack(&ctx, 0);
	if (ret == 0)
		ret = audit_free_stack(&ctx, 1);
	if (ret == 0) {
		audit_chunks_in_use(&ctx);
		ret = audit_heads(&ctx);
	}
	free(ctx.seen);
	if (ret != 0) {
		rte_errno = -ret;
		return ret;
	}
	out->frags_counted = npool_instance_frags_counted_pvt(np);
	if (out->frags_counted != out->frags_out)
		AUDIT_ERR(&ctx, "instance %s: fragments out: %" PRId64 " by the counters, %" PRId64 " by the refcounts",
				np->name, out->frags_counted, out->frags_out);
	if (out->errors != 0) {
		rte_errno = EUCLEAN;
		return -EUCLEAN;
	}
	return 0;
}

int
npool_audit(struct npool_audit *out)
{
	struct npool_audit one;
	unsigned int k;
	int ret, worst = 0;

	if (out == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (npool_nb_instances_pvt == 0) {
		rte_errno = ENODEV;
		return -ENODEV;
	}
	memset(out, 0, sizeof(*out));
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		ret = npool_instance_audit(npool_instances_pvt[k], &one);
		out->chunks += one.chunks;
		out->chunks_free += one.chunks_free;
		out->chunks_cached += one.chunks_cached;
		out->chunks_pinned += one.chunks_pinned;
		out->frags_out += one.frags_out;
		out->frags_counted += one.frags_counted;
		out->heads += one.heads;
		out->heads_free += one.heads_free;
		out->errors += one.errors;
		if (ret == -ENOMEM)
			return ret;
		if (ret != 0)
			worst = ret;
	}
	if (worst != 0)
		rte_errno = -worst;
	return worst;
}

unsigned int
npool_mempool_free_count(const struct rte_mempool *mp)
{
	const struct rte_mempool_ops *ops = rte_mempool_get_ops(mp->ops_index);
	unsigned int n = ops->get_count(mp), l;

	if (mp->cache_size != 0)
		for (l = 0; l < RTE_MAX_LCORE; l++)
			n += mp->local_cache[l].len;
	return n;
}

/* rte_mempool_obj_iter() callback: count mbufs whose refcnt is not 1. An
 * AddressSanitizer build poisons the free mbufs of "npool" pools: the
 * walk reads each on purpose. */
static void
count_bad_refcnt(struct rte_mempool *mp __rte_unused, void *arg, void *obj,
		unsigned int idx __rte_unused)
{
	const struct rte_mbuf *m = obj;
	int poisoned = npool_asan_peek(m, sizeof(*m));
	uint32_t *bad = arg;

	*bad += rte_mbuf_refcnt_read(m) != 1;
	npool_asan_unpeek(m, sizeof(*m), poisoned);
}

int
npool_pool_check(const struct rte_mempool *mp, struct npool_pool_state *st)
{
	if (mp == NULL || st == NULL)
		return npool_err_pvt(EINVAL);
	memset(st, 0, sizeof(*st));
	st->size = mp->size;
	st->free = npool_mempool_free_count(mp);
	st->out = st->free < st->size ? st->size - st->free : 0;
	st->double_free = st->free > st->size ? st->free - st->size : 0;
	rte_mempool_obj_iter((struct rte_mempool *)(uintptr_t)mp,
			count_bad_refcnt, &st->bad_refcnt);
	if (st->out != 0 || st->double_free != 0 || st->bad_refcnt != 0)
		return npool_err_pvt(EUCLEAN);
	return 0;
}

/* Add pool @p mp's state to @p out. */
static void
leak_add_pool(struct npool_leak *out, const struct rte_mempool *mp)
{
	struct npool_pool_state st;

	npool_pool_check(mp, &st);
	out->mbufs_out += st.out;
	out->double_free += st.double_free;
	out->bad_refcnt += st.bad_refcnt;
}

int
npool_leak_check(struct rte_mempool * const *pools, unsigned int n,
		struct npool_leak *out)
{
	unsigned int i, k;

	if (out == NULL || (pools == NULL && n != 0))
		return npool_err_pvt(EINVAL);
	memset(out, 0, sizeof(*out));
	/* Caches keep their current chunk: give them back first. */
	npool_frag_cache_drain_all();
	for (i = 0; i < n; i++)
		leak_add_pool(out, pools[i]);
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		const struct npool *np = npool_instances_pvt[k];

		leak_add_pool(out, np->head_pool);
		if (np->small_pool != NULL)
			leak_add_pool(out, np->small_pool);
		if (np->mid_pool != NULL)
			leak_add_pool(out, np->mid_pool);
		out->frags_out += npool_instance_frags_outstanding(np);
		out->chunks_in_use += npool_arena_in_use(&np->arena);
	}
	if (out->mbufs_out != 0 || out->double_free != 0 ||
			out->bad_refcnt != 0 || out->frags_out != 0 ||
			out->chunks_in_use != 0)
		return npool_err_pvt(EUCLEAN);
	return 0;
}
