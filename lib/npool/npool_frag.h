/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_FRAG_H
#define NPOOL_FRAG_H

/**
 * @file
 * Fragment allocation: the kernel's page_frag_cache (mm/page_frag_cache.c).
 *
 * Two flavors, named by calling context as in the kernel:
 * - npool_napi_alloc_frag*(): the calling lcore's own cache, no lock and
 *   no atomic operation (napi_alloc_frag(), softirq/NAPI context only).
 *   Only EAL lcores (or threads registered with rte_thread_register()).
 * - npool_alloc_frag*(): any thread, non-EAL threads included, under a
 *   spinlock (netdev_alloc_frag(), any context, irq-guarded).
 * Both carve fragments from the end of a chunk toward its start and keep a
 * pagecnt_bias so that one allocation costs no atomic operation. Each
 * flavor has a second cache per lcore for small packets (npool_pkt.h),
 * which carves 4 KiB small chunks first.
 * npool_free_frag() frees a fragment of either flavor from any thread.
 */

#include <stdint.h>
#include <stddef.h>
#include <rte_errno.h>
#include <rte_debug.h>

#include "npool_core.h"
#include "npool_debug.h"
#include "npool_frag_free.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @internal References a cache takes on a fresh chunk: more than the
 * number of fragments a chunk can ever give (one per byte), so the bias
 * never runs out before the chunk does (PAGE_FRAG_CACHE_MAX_SIZE + 1).
 */
#define NPOOL_FRAG_BIAS_MAX ((uint32_t)NPOOL_CHUNK_SIZE + 1)

/**
 * Refill a fragment cache and carve one fragment from its new chunk: the
 * out-of-line half of the allocators in this header and npool_pkt.h
 * (the slow half of the kernel's __page_frag_alloc_align()), which call
 * it when the current chunk cannot hold the request. Applications call
 * those allocators, not this.
 *
 * The used-up chunk is reused in place if every fragment is back; a napi
 * cache keeps it as its previous chunk (and gives up the one before);
 * else a chunk of the cache's kind comes from the arena, then one of the
 * other kind (npool_stats.small_fallbacks, big_fallbacks).
 *
 * Context: the cache's owner (a napi cache), or under its lock (a
 * guarded cache).
 *
 * @param nc
 *   The cache (npool_core.h).
 * @param size
 *   Fragment size in bytes, 1 .. NPOOL_CHUNK_SIZE.
 * @param align_mask
 *   -align, align a power of two up to NPOOL_CHUNK_SIZE.
 * @return
 *   The fragment, or NULL with rte_errno set to ENOMEM (no chunk), the
 *   failure counted.
 */
void *npool_frag_refill(struct npool_frag_cache *nc, uint32_t size,
		uint32_t align_mask);

/**
 * Count an allocation failure on slot @p slot (npool_stats.failures) and
 * set rte_errno: the out-of-line failure path of the allocators in this
 * header. Applications do not call it.
 *
 * @param slot
 *   The caller's slot (npool_slot()).
 * @param err
 *   The errno value for rte_errno.
 * @return
 *   NULL.
 */
void *npool_frag_fail(unsigned int slot, int err);

/** @internal Whether (size, align) is out of the documented range. */
static __rte_always_inline int
npool_frag_args_bad_pvt(uint32_t size, uint32_t align)
{
	return size - 1 >= NPOOL_CHUNK_SIZE || align == 0 ||
		(align & (align - 1)) != 0 || align > NPOOL_CHUNK_SIZE;
}

/**
 * @internal A fragment cache being carved, its chunk, offset and count
 * kept in registers: the one carve of every allocator (fragments,
 * packets, bursts of packets). Its writes to the cache wait for
 * npool_frag_carve_commit_pvt(), so that a burst's stores to its
 * packets, which could alias the cache, force no reloads; a single
 * allocation commits at once (and loads no IOVA it does not use).
 */
struct npool_frag_carve_pvt {
	struct npool_frag_cache *nc;
	char *va;            /**< nc->va */
	rte_iova_t iova;     /**< nc->iova */
	int32_t off;         /**< nc->offset after the fragments taken */
	uint32_t taken;      /**< fragments taken, not yet in the bias */
};

/** @internal Start carving from @p nc. @p start_mask: -1, or for a
 * burst of fragments that are all multiples of an alignment, its mask
 * (the start is aligned once, each carve then needs no mask). */
static __rte_always_inline void
npool_frag_carve_init_pvt(struct npool_frag_carve_pvt *k,
		struct npool_frag_cache *nc, int32_t start_mask)
{
	k->nc = nc;
	k->va = nc->va;
	k->iova = nc->iova;
	/* No chunk: offset 0, so the first carve refills. */
	k->off = nc->offset & start_mask;
	k->taken = 0;
}

/**
 * @internal Carve @p nc's current chunk from its end again when every
 * fragment of it is back (refcount equals the cache's references): the
 * in-place reuse of a refill, taken before a burst so that the burst
 * starts on a whole chunk instead of spreading over a third one. One
 * load of the chunk's count per burst. The owner lcore only. Not in
 * debug and ASan builds, whose fragment maps start afresh only at a
 * refill.
 */
static __rte_always_inline void
npool_frag_cache_rewind_pvt(struct npool_frag_cache *nc)
{
	const struct npool_chunk *c = nc->chunk;

	if (NPOOL_DEBUG_HOOKS || c == NULL ||
			(uint32_t)nc->offset == nc->len ||
			__atomic_load_n(&c->refcnt, __ATOMIC_ACQUIRE) !=
			npool_frag_cache_bias_pvt(nc))
		return;
	nc->pagecnt_bias += nc->returned;
	nc->returned = 0;
	nc->offset = (int32_t)nc->len;
}

/** @internal Write back what @p k took: offset and bias. */
static __rte_always_inline void
npool_frag_carve_commit_pvt(struct npool_frag_carve_pvt *k)
{
	if (k->taken == 0)
		return;
	k->nc->offset = k->off;
	k->nc->pagecnt_bias -= k->taken;
	k->taken = 0;
}

/**
 * @internal Carve @p size bytes through @p k, the start aligned by
 * @p align_mask (-align); @p *iova is the fragment's. The whole
 * page_frag_alloc_align() fast path: a subtraction, a mask and a count
 * (the bias is taken at the commit). NULL with rte_errno set (ENOMEM)
 * when no chunk can be had.
 */
static __rte_always_inline char *
npool_frag_carve_pvt(struct npool_frag_carve_pvt *k, uint32_t size,
		uint32_t align_mask, rte_iova_t *iova)
{
	/* Counting down, alignment is a mask of the start offset. */
	int32_t o = (k->off - (int32_t)size) & (int32_t)align_mask;
	char *frag;

	/*
	 * A small chunk is only aligned to its 4 KiB: a larger alignment
	 * needs a big chunk (the test folds away for a constant align).
	 */
	if (likely(o >= 0 && ((align_mask & NPOOL_SMALL_CHUNK_SIZE) != 0 ||
			!(k->nc->chunk->flags & NPOOL_CHUNK_F_SMALL)))) {
		k->off = o;
		k->taken++;
		frag = k->va + o;
		NPOOL_DEBUG_HOOK(npool_debug_frag_alloc(&k->nc->np->arena,
				k->nc->chunk, frag, size));
		*iova = k->iova + (uint32_t)o;
		return frag;
	}
	/* The chunk cannot hold it: one refill for this fragment. */
	npool_frag_carve_commit_pvt(k);
	frag = (char *)npool_frag_refill(k->nc, size, align_mask);
	npool_frag_carve_init_pvt(k, k->nc, -1);
	*iova = k->iova + (uint32_t)k->off;
	return frag;
}

/** @internal Carve one fragment of @p size bytes from @p nc, its IOVA
 * in @p *iova: the carve of a burst, with a burst of one. */
static __rte_always_inline char *
npool_frag_cache_alloc_pvt(struct npool_frag_cache *nc, uint32_t size,
		uint32_t align_mask, rte_iova_t *iova)
{
	struct npool_frag_carve_pvt k;
	char *p;

	npool_frag_carve_init_pvt(&k, nc, -1);
	p = npool_frag_carve_pvt(&k, size, align_mask, iova);
	npool_frag_carve_commit_pvt(&k);
	return p;
}

/** @internal The fragment cache of slot @p lc: napi or guarded
 * (@p guarded), for fragments and big packets or for small packets
 * (@p small). Both are constants where it is inlined. */
static __rte_always_inline struct npool_frag_cache *
npool_frag_cache_of_pvt(struct npool_lcore *lc, int guarded, int small)
{
	if (guarded)
		return small ? &lc->guarded_small : &lc->guarded;
	return small ? &lc->napi_small : &lc->napi;
}

/**
 * @internal The allocation of both flavors: the checks, one carve and
 * the count; the guarded flavor (@p guarded, a constant) is the same
 * with the slot's lock around the carve (the kernel's local_irq_save()
 * around __page_frag_alloc_align()). Packets share the carve, not
 * this (npool_pkt.h). @p slot: npool_slot() for the guarded flavor,
 * rte_lcore_id() for the napi one (a thread without one fails).
 */
static __rte_always_inline void *
npool_frag_alloc_pvt(unsigned int slot, uint32_t size, uint32_t align,
		int guarded)
{
	struct npool_frag_cache *nc;
	struct npool_lcore *lc;
	struct npool *np;
	rte_iova_t iova;
	void *p;

	if (!guarded && unlikely(slot >= RTE_MAX_LCORE)) {
		if (npool_lcore_np[NPOOL_NON_EAL_SLOT] == NULL)
			return npool_frag_fail(NPOOL_NON_EAL_SLOT, ENODEV);
		NPOOL_DEBUG_PANIC("npool: napi flavor called from a non-EAL thread\n");
		return npool_frag_fail(NPOOL_NON_EAL_SLOT, EPERM);
	}
	np = npool_lcore_np[slot];
	if (unlikely(np == NULL))
		return npool_frag_fail(NPOOL_NON_EAL_SLOT, ENODEV);
	if (!guarded)
		NPOOL_DEBUG_CHECK(npool_debug_napi_owner(slot));
	if (unlikely(npool_frag_args_bad_pvt(size, align)))
		return npool_frag_fail(slot, EINVAL);
	lc = &np->lc[slot];
	nc = npool_frag_cache_of_pvt(lc, guarded, 0);
	if (guarded)
		rte_spinlock_lock(&lc->lock);
	p = npool_frag_cache_alloc_pvt(nc, size, -align, &iova);
	if (!guarded) {
		lc->stats.allocs += (p != NULL);
		return p;
	}
	rte_spinlock_unlock(&lc->lock);
	if (likely(p != NULL))
		NPOOL_STAT_ADD_NP(np, slot, guarded_allocs, 1);
	return p;
}

/**
 * Allocate a fragment from the calling lcore's napi cache, aligned.
 * Kernel: napi_alloc_frag_align() / __napi_alloc_frag_align().
 * The memory comes from the instance of the lcore's socket
 * (npool_create()), or from the default instance if its socket has none.
 *
 * Context: the owner lcore only, i.e. an EAL lcore (or a registered
 * non-EAL thread) allocating from its own cache; never two threads with
 * one lcore id. From a thread without an lcore id it fails with EPERM (a
 * build with -Dnpool_debug=true panics instead; it also panics when a
 * second thread uses one lcore id's cache). Lock-free, atomic-free.
 *
 * @param size
 *   Fragment size in bytes, 1 .. NPOOL_CHUNK_SIZE.
 * @param align
 *   Alignment in bytes, a power of two, 1 .. NPOOL_CHUNK_SIZE.
 * @return
 *   The fragment, or NULL with rte_errno set: EINVAL (size 0 or above
 *   NPOOL_CHUNK_SIZE, or align not a power of two), EPERM (no lcore id),
 *   ENOMEM (no chunk free in the arena; also when only small chunks are
 *   left and @p size or @p align is above NPOOL_SMALL_CHUNK_SIZE), ENODEV
 *   (npool not initialised).
 */
static __rte_always_inline void *
npool_napi_alloc_frag_align(uint32_t size, uint32_t align)
{
	return npool_frag_alloc_pvt(rte_lcore_id(), size, align, 0);
}

/**
 * Allocate a fragment from the calling lcore's napi cache.
 * Kernel: napi_alloc_frag(). No alignment beyond what @p size gives:
 * round sizes up (e.g. to RTE_CACHE_LINE_SIZE) to keep fragments aligned.
 *
 * Context, parameters and errors as npool_napi_alloc_frag_align() with
 * align 1.
 *
 * @param size
 *   Fragment size in bytes, 1 .. NPOOL_CHUNK_SIZE.
 * @return
 *   The fragment, or NULL with rte_errno set as for
 *   npool_napi_alloc_frag_align().
 */
static __rte_always_inline void *
npool_napi_alloc_frag(uint32_t size)
{
	return npool_napi_alloc_frag_align(size, 1);
}

/**
 * Allocate a fragment from any thread, aligned.
 * Kernel: netdev_alloc_frag_align(): the per-lcore guarded cache of the
 * calling lcore, or for threads without an lcore id one shared cache,
 * each under an rte_spinlock (the kernel's local_irq_save()).
 *
 * Context: any thread, non-EAL threads included. Multi-thread safe.
 *
 * @param size
 *   Fragment size in bytes, 1 .. NPOOL_CHUNK_SIZE.
 * @param align
 *   Alignment in bytes, a power of two, 1 .. NPOOL_CHUNK_SIZE.
 * @return
 *   The fragment, or NULL with rte_errno set: EINVAL, ENOMEM, ENODEV as
 *   for npool_napi_alloc_frag_align().
 */
void *npool_alloc_frag_align(uint32_t size, uint32_t align);

/**
 * Allocate a fragment from any thread. Kernel: netdev_alloc_frag().
 * As npool_alloc_frag_align() with align 1.
 *
 * @param size
 *   Fragment size in bytes, 1 .. NPOOL_CHUNK_SIZE.
 * @return
 *   The fragment, or NULL with rte_errno set as for
 *   npool_alloc_frag_align().
 */
static inline void *
npool_alloc_frag(uint32_t size)
{
	return npool_alloc_frag_align(size, 1);
}

/**
 * Free a fragment of either flavor, given any address inside it.
 * Kernel: page_frag_free() (formerly skb_free_frag()).
 *
 * The fragment goes back to the instance that owns it, whichever lcore
 * frees it: one of the chunk the caller's napi cache carves is found by
 * a subtraction and a compare against that chunk, any other of the
 * caller's own instance by a subtraction and a shift, one of another
 * socket's instance after a lookup over the instances (out of line).
 *
 * A fragment freed on the lcore whose napi cache (or napi small-packet
 * cache, npool_pkt.h) is still carving its chunk, or carved it just
 * before the current one, costs no atomic operation: the reference goes
 * back to that cache (refcount - the cache's references stays the
 * number of fragments out). This is why a
 * napi cache is only ever drained by its owner or while its owner is
 * idle (npool_frag_cache_drain_all()). Any other free is one atomic
 * decrement of the chunk's reference count; the last reference gives
 * the chunk back to the arena, unless a cache still holds it (its bias
 * keeps the count above zero).
 *
 * Context: any thread, non-EAL threads included. Multi-thread safe.
 *
 * @param p
 *   Any address inside a fragment from this npool. NULL is ignored, and
 *   so is any address before npool_init() or after npool_fini(). An
 *   address outside the arena is ignored and counted as a failure (debug
 *   builds panic); freeing a fragment twice is undefined. Debug builds
 *   panic, naming the fragment and its chunk, on a second free of a
 *   fragment (even while its chunk has other live fragments), on a free
 *   of an address where no fragment was carved, and when the napi cache
 *   the free would credit is owned by another thread (npool_debug.h).
 */
static __rte_always_inline void
npool_free_frag(const void *p)
{
	unsigned int id = rte_lcore_id();
	struct npool *np;

	if (likely(id < RTE_MAX_LCORE)) {
		struct npool_lcore *lc;

		np = npool_lcore_np[id];
		if (unlikely(np == NULL))
			return;
		lc = &np->lc[id];
		/* The chunk this lcore's napi cache carves, by address alone
		 * (NULL never matches): its reference goes back to the cache,
		 * in a word no allocation writes. Debug builds check it
		 * below. */
		if (likely((uintptr_t)p - (uintptr_t)lc->napi.va <
				lc->napi.len) && !NPOOL_DEBUG_HOOKS) {
			lc->napi.returned++;
			lc->stats.frees++;
			return;
		}
	} else {
		id = NPOOL_NON_EAL_SLOT;
		np = npool_lcore_np[id];
		if (unlikely(np == NULL))
			return;
	}
	if (p != NULL)
		npool_free_frag_pvt(np, id, p);
}

/**
 * IO address of any byte of an npool fragment (for DMA descriptors).
 * Any thread.
 *
 * @param p
 *   Any address inside a fragment.
 * @return
 *   Its IOVA, or RTE_BAD_IOVA if @p p is not inside an instance's arena
 *   (or npool is not initialised).
 */
rte_iova_t npool_frag_iova(const void *p);

/**
 * Give back the chunks held by the fragment caches, as the kernel's
 * page_frag_cache_drain() on each. A chunk whose fragments have all come
 * back returns to the arena; the others return when their last fragment
 * is freed. Allocating afterwards is allowed: caches refill.
 *
 * Which caches: every guarded cache (under its lock); the caller's own
 * napi caches (fragments and big packets, small packets); and, when
 * called from the main lcore, the napi caches of every lcore whose owner
 * is idle: an EAL lcore (worker or service) waiting for work, not
 * running a function launched on it, or an lcore id that no thread holds
 * (its registered thread has called rte_thread_unregister()). The napi
 * caches of an lcore running a launched function, and of a thread
 * registered with rte_thread_register(), are left to their owner
 * (npool_frag_cache_drain_local()): a free on the owner lcore credits
 * such a cache's pagecnt_bias without an atomic operation
 * (npool_free_frag()), which another thread's drain would race and lose
 * references to. The kernel likewise never touches another CPU's
 * page_frag_cache while that CPU runs.
 *
 * Context: any thread (from another than the main lcore only the
 * guarded caches and the caller's own napi cache are drained). Other
 * threads may allocate and free meanwhile; no thread may launch a
 * function on an lcore (only the main lcore can) or register an lcore id
 * during the call. After rte_eal_mp_wait_lcore() and with every
 * registered thread unregistered, it drains everything.
 *
 * @return
 *   The number of lcores whose napi caches were left to their owner
 *   (whether or not they hold a chunk): 0 when every cache was drained
 *   (also before npool_init()).
 */
unsigned int npool_frag_cache_drain_all(void);

/**
 * Give back the chunks held by the calling thread's own fragment caches:
 * its lcore's napi and guarded caches, small-packet ones included (for a
 * thread without an lcore id, the guarded caches shared by such
 * threads). The kernel's page_frag_cache_drain() by the cache's owner.
 * Call it, for example, before a worker returns from its launched
 * function, or before a registered thread unregisters, so that its
 * current chunks do not stay held until the next
 * npool_frag_cache_drain_all() from the main lcore.
 *
 * Context: any thread, on its own caches only; other threads may
 * allocate and free meanwhile. Nothing happens before npool_init().
 */
void npool_frag_cache_drain_local(void);

/**
 * Fragments handed out and not yet freed, over all flavors, lcores and
 * instances: allocs + guarded_allocs - frees of every slot, counted from
 * each instance's creation. npool_stats_reset() does not move these
 * counters (it moves the base that npool_stats_get() subtracts), and
 * npool_audit() checks them against the chunks' reference counts. Any
 * thread; exact only when no thread allocates or frees (a slot being
 * updated may be read mid-way).
 *
 * @return
 *   The number of fragments out (0 before npool_init()).
 */
int64_t npool_frags_outstanding(void);

/**
 * npool_frags_outstanding() of one instance.
 *
 * @param np
 *   The instance (npool_create()), or NULL for 0.
 *
 * @return
 *   The number of fragments out of @p np.
 */
int64_t npool_instance_frags_outstanding(const struct npool *np);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_FRAG_H */
