/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_atomic.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "npool_frag.h"

void *
npool_frag_fail_pvt(unsigned int slot, int err)
{
	if (npool_g != NULL)
		NPOOL_STAT_ADD(slot, failures, 1);
	rte_errno = err;
	return NULL;
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
	struct npool_arena *a = &npool_g->arena;
	unsigned int slot = nc->lcore;
	struct npool_chunk *c = npool_arena_get(a, nc->small);

	if (likely(c != NULL))
		return c;
	if (nc->small) {
		/* Every small chunk is out: a big one keeps the packets
		 * coming, at the cost of the bound on what they pin. */
		c = npool_arena_get(a, 0);
		if (c != NULL)
			NPOOL_STAT_ADD(slot, big_fallbacks, 1);
		return c;
	}
	/* The order-0 fallback: one 4 KiB chunk, if it fits and its 4 KiB
	 * alignment is enough. */
	if (size > NPOOL_SMALL_CHUNK_SIZE ||
			(align_mask & NPOOL_SMALL_CHUNK_SIZE) == 0)
		return NULL;
	c = npool_arena_get(a, 1);
	if (c != NULL)
		NPOOL_STAT_ADD(slot, small_fallbacks, 1);
	return c;
}

/*
 * The current chunk cannot hold the request: the slow half of
 * __page_frag_alloc_align().
 */
void *
npool_frag_refill_pvt(struct npool_frag_cache *nc, uint32_t size,
		uint32_t align_mask)
{
	struct npool_arena *a = &npool_g->arena;
	struct npool_chunk *c = nc->chunk;
	unsigned int slot = nc->lcore;
	int32_t offset;

	if (c != NULL) {
		/*
		 * Give up the references not handed out. If that drops the
		 * count to zero every fragment is already back: reuse the
		 * chunk in place, no trip through the arena. A chunk of the
		 * other kind than the cache's (a fallback) goes back
		 * instead, so that one of the cache's kind is tried first.
		 */
		if (__atomic_sub_fetch(&c->refcnt, nc->pagecnt_bias,
				__ATOMIC_ACQ_REL) == 0) {
			if (!(c->flags & NPOOL_CHUNK_F_SMALL) == !nc->small) {
				NPOOL_STAT_ADD(slot, reuses, 1);
				goto reset;
			}
			npool_arena_put(a, c);
		}
		/* Else the last fragment freed gives the chunk back. */
		nc->chunk = NULL;
		nc->va = NULL;
		nc->offset = 0;
		nc->pagecnt_bias = 0;
	}

	c = frag_chunk_get(nc, size, align_mask);
	if (unlikely(c == NULL))
		return npool_frag_fail_pvt(slot, ENOMEM);
	NPOOL_STAT_ADD(slot, refills, 1);
	c->owner = (uint16_t)slot;
	nc->chunk = c;
	nc->va = c->va;

reset:
	/* Nobody else holds a reference: a plain store is enough. */
	__atomic_store_n(&c->refcnt, NPOOL_FRAG_BIAS_MAX, __ATOMIC_RELEASE);
	nc->pagecnt_bias = NPOOL_FRAG_BIAS_MAX;
	offset = (int32_t)(c->size - size) & (int32_t)align_mask;
	nc->pagecnt_bias--;
	nc->offset = offset;
	NPOOL_DEBUG_HOOK(npool_debug_chunk_reset_pvt(a, c));
	NPOOL_DEBUG_HOOK(npool_debug_frag_alloc_pvt(a, c, nc->va + offset,
			size));
	return nc->va + offset;
}

/* A guarded allocation from cache @p small (0: guarded, 1: its small-
 * packet sibling) of the calling thread's slot, under the slot's lock. */
static __rte_always_inline void *
guarded_alloc(uint32_t size, uint32_t align, int small)
{
	unsigned int slot = npool_slot();
	struct npool_lcore *lc;
	void *p;

	if (unlikely(npool_g == NULL))
		return npool_frag_fail_pvt(NPOOL_NON_EAL_SLOT, ENODEV);
	if (unlikely(npool_frag_args_bad_pvt(size, align)))
		return npool_frag_fail_pvt(slot, EINVAL);
	lc = &npool_g->lc[slot];
	rte_spinlock_lock(&lc->lock);
	p = npool_frag_cache_alloc_pvt(small ? &lc->guarded_small :
			&lc->guarded, size, -align);
	rte_spinlock_unlock(&lc->lock);
	if (likely(p != NULL))
		NPOOL_STAT_ADD(slot, guarded_allocs, 1);
	return p;
}

void *
npool_alloc_frag_guarded_pvt(uint32_t size, uint32_t align)
{
	return guarded_alloc(size, align, 0);
}

void *
npool_alloc_frag_guarded_small_pvt(uint32_t size, uint32_t align)
{
	return guarded_alloc(size, align, 1);
}

/* Give back what cache @p nc holds (page_frag_cache_drain()). */
static void
frag_cache_drain(struct npool_frag_cache *nc)
{
	struct npool_chunk *c = nc->chunk;

	if (c != NULL && __atomic_sub_fetch(&c->refcnt, nc->pagecnt_bias,
			__ATOMIC_ACQ_REL) == 0)
		npool_arena_put(&npool_g->arena, c);
	nc->chunk = NULL;
	nc->va = NULL;
	nc->offset = 0;
	nc->pagecnt_bias = 0;
}

/* The guarded caches of slot @p lc: any thread, under their lock. */
static void
frag_cache_drain_guarded(struct npool_lcore *lc)
{
	rte_spinlock_lock(&lc->lock);
	frag_cache_drain(&lc->guarded);
	frag_cache_drain(&lc->guarded_small);
	rte_spinlock_unlock(&lc->lock);
}

/* The napi caches of slot @p lc: its owner, or while the owner is idle. */
static void
frag_cache_drain_napi(struct npool_lcore *lc)
{
	frag_cache_drain(&lc->napi);
	frag_cache_drain(&lc->napi_small);
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
	unsigned int i, left = 0;

	if (npool_g == NULL)
		return 0;
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		struct npool_lcore *lc = &npool_g->lc[i];

		frag_cache_drain_guarded(lc);
		/* The non-EAL slot's napi cache is never used. */
		if (i == self || i == NPOOL_NON_EAL_SLOT ||
				(on_main && napi_owner_idle(i)))
			frag_cache_drain_napi(lc);
		else
			left++;
	}
	return left;
}

void
npool_frag_cache_drain_local(void)
{
	const unsigned int self = npool_slot();

	if (npool_g == NULL)
		return;
	frag_cache_drain_guarded(&npool_g->lc[self]);
	if (self != NPOOL_NON_EAL_SLOT) {
		NPOOL_DEBUG_CHECK(npool_debug_napi_owner_pvt(self));
		frag_cache_drain_napi(&npool_g->lc[self]);
	}
}

int64_t
npool_frags_outstanding(void)
{
	struct npool_stats s;

	if (npool_stats_sum(&s) != 0)
		return 0;
	return npool_g->frags_out_base +
		(int64_t)(s.allocs + s.guarded_allocs) - (int64_t)s.frees;
}
