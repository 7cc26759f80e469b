/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_atomic.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include "npool_frag.h"
#include "npool_core_pvt.h"
#include "npool_frag_pvt.h"
#include "npool_arena_pvt.h"

void *
npool_frag_fail(unsigned int slot, int err)
{
	if (npool_lcore_np[slot] != NULL)
		NPOOL_STAT_ADD(slot, failures, 1);
	rte_errno = err;
	return NULL;
}

/* A chunk of cache @p nc's kind that its lcore kept (npool_chunk_free()),
 * the last kept first; NULL if none. napi caches only: the guarded ones
 * refill on any thread. */
static struct npool_chunk *
pcp_get(struct npool_frag_cache *nc)
{
	struct npool_lcore *lc = &nc->np->lc[nc->lcore];
	struct npool_chunk *c;
	unsigned int i;
	uint8_t n;

	if (nc->guarded || nc->lcore == NPOOL_NON_EAL_SLOT)
		return NULL;
	for (i = lc->pcp_n; i-- > 0; ) {
		c = lc->pcp[i];
		if (!(c->flags & NPOOL_CHUNK_F_SMALL) == !nc->small) {
			n = lc->pcp_n - 1;
			__atomic_store_n(&lc->pcp[i], lc->pcp[n],
					__ATOMIC_RELAXED);
			__atomic_store_n(&lc->pcp_n, n, __ATOMIC_RELAXED);
			return c;
		}
	}
	return NULL;
}

/* Give every chunk slot @p slot of @p np kept back to the arena: its
 * owner, or while the owner is idle. */
static void
pcp_drain(struct npool *np, unsigned int slot)
{
	struct npool_lcore *lc = &np->lc[slot];
	uint8_t n;

	while ((n = lc->pcp_n) != 0) {
		__atomic_store_n(&lc->pcp_n, n - 1, __ATOMIC_RELAXED);
		npool_arena_put(&np->arena, lc->pcp[n - 1]);
	}
}

/*
 * Take a fresh chunk for cache @p nc: one of its own kind (big for a
 * frag/packet cache, small for a small-packet cache), else one of the
 * other kind if the request fits it, counted. NULL if none.
 */
static struct npool_chunk *
frag_chunk_get(struct npool_frag_cache *nc, uint32_t size,
		uint32_t align_mask)
{
	struct npool_arena *a = &nc->np->arena;
	unsigned int slot = nc->lcore;
	struct npool_chunk *c = npool_arena_get(a, nc->small);

	if (likely(c != NULL))
		return c;
	if (nc->small) {
		/* Every small chunk is out: a big one keeps the packets
		 * coming, at the cost of the bound on what they pin. */
		c = npool_arena_get(a, 0);
		if (c != NULL)
			NPOOL_STAT_ADD_NP(nc->np, slot, big_fallbacks, 1);
		return c;
	}
	/* The order-0 fallback: one 4 KiB chunk, if it fits and its 4 KiB
	 * alignment is enough. */
	if (size > NPOOL_SMALL_CHUNK_SIZE ||
			(align_mask & NPOOL_SMALL_CHUNK_SIZE) == 0)
		return NULL;
	c = npool_arena_get(a, 1);
	if (c != NULL)
		NPOOL_STAT_ADD_NP(nc->np, slot, small_fallbacks, 1);
	return c;
}

/* No current chunk in @p nc (its references given up or moved). */
static void
frag_cache_clear(struct npool_frag_cache *nc)
{
	nc->chunk = NULL;
	nc->va = NULL;
	nc->iova = 0;
	nc->len = 0;
	nc->offset = 0;
	nc->pagecnt_bias = 0;
	nc->returned = 0;
}

/* Whether chunk @p c is of cache @p nc's own kind (small or big). */
static inline int
kind_ok(const struct npool_frag_cache *nc, const struct npool_chunk *c)
{
	return !(c->flags & NPOOL_CHUNK_F_SMALL) == !nc->small;
}

/* Every fragment of @p c is back, @p bias being the references its
 * cache still holds: nobody else can touch the count then (none is
 * out), and the acquire orders the frees' accesses before the reuse. */
static inline int
chunk_all_back(const struct npool_chunk *c, uint32_t bias)
{
	return __atomic_load_n(&c->refcnt, __ATOMIC_ACQUIRE) == bias;
}

/* Give up @p bias references of @p c: 1 if they were its last (every
 * fragment is back), else the last fragment freed gives it back. */
static inline int
chunk_release(struct npool_chunk *c, uint32_t bias)
{
	return __atomic_sub_fetch(&c->refcnt, bias, __ATOMIC_ACQ_REL) == 0;
}

/*
 * The current chunk cannot hold the request: the slow half of
 * __page_frag_alloc_align().
 *
 * A napi cache keeps the chunk it used up as @c prev, with its bias, so
 * that the fragments of a burst larger than a chunk (32 small packets
 * over 4 KiB chunks of 16) still come back without an atomic operation
 * (npool_free_frag()); the chunk before it is given up now, and reused
 * at once if every fragment of it is back. A burst then alternates
 * between two chunks with one atomic operation per chunk and no trip
 * through the arena, where giving the chunk up at once cost an atomic
 * decrement per fragment and two stack operations per chunk.
 */
void *
npool_frag_refill(struct npool_frag_cache *nc, uint32_t size,
		uint32_t align_mask)
{
	struct npool_arena *a = &nc->np->arena;
	struct npool_chunk *c = nc->chunk, *old = NULL;
	unsigned int slot = nc->lcore;
	uint32_t old_bias = 0;
	int32_t offset;

	if (c != NULL) {
		/* Every fragment back: reuse the chunk in place, no atomic
		 * and no trip through the arena. */
		if (kind_ok(nc, c) &&
				chunk_all_back(c, npool_frag_cache_bias_pvt(nc))) {
			NPOOL_STAT_ADD_NP(nc->np, slot, reuses, 1);
			goto reset;
		}
		if (!nc->guarded && kind_ok(nc, c)) {
			old = nc->prev;
			old_bias = nc->prev_bias;
			nc->prev = c;
			nc->prev_bias = npool_frag_cache_bias_pvt(nc);
		} else {
			/* A fallback chunk of the other kind goes back, so
			 * that one of the cache's kind is tried first. */
			old = c;
			old_bias = npool_frag_cache_bias_pvt(nc);
		}
		frag_cache_clear(nc);
		if (old != NULL && chunk_release(old, old_bias)) {
			if (kind_ok(nc, old)) {
				c = old;
				NPOOL_STAT_ADD_NP(nc->np, slot, reuses, 1);
				goto install;
			}
			npool_arena_put(a, old);
		}
	}
	if (nc->prev != NULL && chunk_all_back(nc->prev, nc->prev_bias)) {
		/* The chunk carved before has everything back (the current
		 * one was of the other kind, or there was none: a failed
		 * refill or a drain): carve it again. */
		c = nc->prev;
		nc->prev = NULL;
		NPOOL_STAT_ADD_NP(nc->np, slot, reuses, 1);
		goto install;
	}

	c = pcp_get(nc);
	if (c != NULL) {
		NPOOL_STAT_ADD_NP(nc->np, slot, reuses, 1);
		goto owned;
	}
	c = frag_chunk_get(nc, size, align_mask);
	if (unlikely(c == NULL) && !nc->guarded &&
			nc->lcore != NPOOL_NON_EAL_SLOT &&
			nc->np->lc[nc->lcore].pcp_n != 0) {
		/* The arena is dry, and what this lcore keeps is of the
		 * other kind: back to the arena, for the fallbacks. */
		pcp_drain(nc->np, nc->lcore);
		c = frag_chunk_get(nc, size, align_mask);
	}
	if (unlikely(c == NULL)) {
		/* The arena is dry: give up the previous chunk's bias too,
		 * so that its last fragment gives it back (now, if it was
		 * already back). */
		old = nc->prev;
		nc->prev = NULL;
		if (old == NULL || !chunk_release(old, nc->prev_bias))
			return npool_frag_fail(slot, ENOMEM);
		c = old;
		NPOOL_STAT_ADD_NP(nc->np, slot, reuses, 1);
		goto install;
	}
	NPOOL_STAT_ADD_NP(nc->np, slot, refills, 1);
owned:
	c->owner = (uint16_t)slot;
install:
	/* No fragment of it is out and no other cache holds it. */
	c->flags = (c->flags & NPOOL_CHUNK_F_SMALL) |
		(nc->guarded == NPOOL_CACHE_KEEP ? NPOOL_CHUNK_F_KEEP : 0);
	nc->chunk = c;
	nc->va = c->va;
	nc->iova = c->iova;
	nc->len = c->size;

reset:
	/* Nobody else holds a reference: a plain store is enough. */
	__atomic_store_n(&c->refcnt, NPOOL_FRAG_BIAS_MAX, __ATOMIC_RELEASE);
	offset = (int32_t)(c->size - size) & (int32_t)align_mask;
	nc->pagecnt_bias = NPOOL_FRAG_BIAS_MAX - 1;
	nc->returned = 0;
	nc->offset = offset;
	NPOOL_DEBUG_HOOK(npool_debug_chunk_reset_pvt(a, c));
	NPOOL_DEBUG_HOOK(npool_debug_frag_alloc(a, c, nc->va + offset,
			size));
	return nc->va + offset;
}

void *
npool_alloc_frag_align(uint32_t size, uint32_t align)
{
	return npool_frag_alloc_pvt(npool_slot(), size, align, 1);
}

rte_iova_t
npool_frag_iova(const void *p)
{
	struct npool_chunk *c;

	if (npool_owner_pvt(p, &c) == NULL)
		return RTE_BAD_IOVA;
	return c->iova + (uintptr_t)((const char *)p - c->va);
}

/* Give back what cache @p nc holds (page_frag_cache_drain()), its
 * previous chunk included. */
static void
frag_cache_drain(struct npool_frag_cache *nc)
{
	struct npool_chunk *c = nc->chunk;

	if (c != NULL && chunk_release(c, npool_frag_cache_bias_pvt(nc)))
		npool_arena_put(&nc->np->arena, c);
	c = nc->prev;
	if (c != NULL && chunk_release(c, nc->prev_bias))
		npool_arena_put(&nc->np->arena, c);
	nc->prev = NULL;
	nc->prev_bias = 0;
	frag_cache_clear(nc);
}

/* The guarded caches of slot @p lc (kept packets' included): any
 * thread, under their lock. */
static void
frag_cache_drain_guarded(struct npool_lcore *lc)
{
	rte_spinlock_lock(&lc->lock);
	frag_cache_drain(&lc->guarded);
	frag_cache_drain(&lc->guarded_small);
	frag_cache_drain(&lc->keep);
	rte_spinlock_unlock(&lc->lock);
}

void
npool_defer_ring_flush_pvt(struct npool *np, unsigned int slot)
{
	struct rte_ring *r = np->lc[slot].defer;
	struct rte_mbuf *pkts[32];
	unsigned int n;

	if (r == NULL)
		return;
	while ((n = rte_ring_sc_dequeue_burst(r, (void **)pkts, RTE_DIM(pkts),
			NULL)) != 0)
		rte_pktmbuf_free_bulk(pkts, n);
}

/* The napi caches of slot @p slot of @p np, and the packets handed back
 * to it: its owner, or while the owner is idle. */
static void
frag_cache_drain_napi(struct npool *np, unsigned int slot)
{
	struct npool_lcore *lc = &np->lc[slot];

	npool_defer_ring_flush_pvt(np, slot);
	frag_cache_drain(&lc->napi);
	frag_cache_drain(&lc->napi_small);
	pcp_drain(np, slot);
}

/*
 * Whether nobody can be using the napi cache of lcore @p i while the
 * main lcore (the caller) drains it. Its owner credits frees to its
 * bias without an atomic (npool_free_frag()), so only the owner may
 * touch it while it runs, as the kernel never touches another CPU's
 * page_frag_cache (a dead CPU's caches are drained by the CPU hotplug
 * callback, when nothing runs there). Idle means: an EAL lcore waiting
 * for work (only the main lcore launches, so it stays waiting during
 * the drain; rte_eal_wait_lcore() orders its last writes before ours),
 * or an lcore id no thread holds (a registered thread unregistered).
 * A thread registered with rte_thread_register() runs as it likes:
 * never idle.
 */
static int
napi_owner_idle(unsigned int i)
{
	if (rte_lcore_has_role(i, ROLE_OFF)) {
		/* Pairs with the unregistering thread's release of the id. */
		rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
		return 1;
	}
	if (rte_lcore_has_role(i, ROLE_NON_EAL) ||
			rte_eal_get_lcore_state(i) != WAIT)
		return 0;
	rte_eal_wait_lcore(i);
	return 1;
}

unsigned int
npool_frag_cache_drain_all(void)
{
	const unsigned int self = npool_slot();
	const int on_main = rte_lcore_id() == rte_get_main_lcore();
	unsigned int i, k, left = 0;

	if (npool_nb_instances_pvt == 0)
		return 0;
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		/* The non-EAL slot's napi cache is never used. */
		int napi = i == self || i == NPOOL_NON_EAL_SLOT ||
			(on_main && napi_owner_idle(i));

		for (k = 0; k < npool_nb_instances_pvt; k++) {
			struct npool_lcore *lc = &npool_instances_pvt[k]->lc[i];

			frag_cache_drain_guarded(lc);
			if (napi)
				frag_cache_drain_napi(npool_instances_pvt[k],
						i);
		}
		left += !napi;
	}
	/* Another lcore's defer ring freed packets here. */
	if (self != NPOOL_NON_EAL_SLOT)
		for (k = 0; k < npool_nb_instances_pvt; k++)
			pcp_drain(npool_instances_pvt[k], self);
	return left;
}

void
npool_frag_cache_drain_local(void)
{
	const unsigned int self = npool_slot();
	unsigned int k;

	if (self != NPOOL_NON_EAL_SLOT && npool_nb_instances_pvt != 0)
		NPOOL_DEBUG_CHECK(npool_debug_napi_owner(self));
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		struct npool_lcore *lc = &npool_instances_pvt[k]->lc[self];

		frag_cache_drain_guarded(lc);
		if (self != NPOOL_NON_EAL_SLOT)
			frag_cache_drain_napi(npool_instances_pvt[k], self);
	}
}

int64_t
npool_instance_frags_counted_pvt(const struct npool *np)
{
	int64_t n = 0;
	unsigned int i;

	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		const struct npool_stats *s = &np->lc[i].stats;

		n += (int64_t)(__atomic_load_n(&s->allocs, __ATOMIC_RELAXED) +
			__atomic_load_n(&s->guarded_allocs, __ATOMIC_RELAXED)) -
			(int64_t)__atomic_load_n(&s->frees, __ATOMIC_RELAXED);
	}
	return n;
}

int64_t
npool_instance_frags_outstanding(const struct npool *np)
{
	return np != NULL ? npool_instance_frags_counted_pvt(np) : 0;
}

int64_t
npool_frags_outstanding(void)
{
	int64_t out = 0;
	unsigned int k;

	for (k = 0; k < npool_nb_instances_pvt; k++)
		out += npool_instance_frags_outstanding(npool_instances_pvt[k]);
	return out;
}
