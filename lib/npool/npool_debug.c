/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Debug-build misuse checks and ASan-build poisoning (see npool_debug.h).
 * Only builds with -Dnpool_debug=true or -Db_sanitize=address call into
 * this file, never from a release fast path.
 */
#include <errno.h>
#include <string.h>

/* ASan builds call rte_mempool_event_callback_register(), DPDK-internal
 * (npool_debug_hc_arm_pvt() below says why): libnpool is built with
 * ALLOW_INTERNAL_API, as DPDK builds its own libraries. */
#include <rte_debug.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "npool_debug.h"
#include "npool_arena.h"
#include "npool_core.h"
#include "npool_head_cache.h"
#include "rte_mempool_npool.h"
#include "npool_asan.h"
#include "npool_debug_pvt.h"
#include "npool_head_cache_pvt.h"

/* One bit per byte of a chunk, 64 to a word. */
#define MAP_WORDS_BIG (NPOOL_CHUNK_SIZE / 64)
#define MAP_WORDS_SMALL (NPOOL_SMALL_CHUNK_SIZE / 64)

/* "Free" mark of a mempool object, in the spare header bytes. */
#define HC_FREE_MARK 0x6e706f6f6c465245ULL /* "npoolFRE" */

int
npool_debug_arena_init_pvt(struct npool_arena *a, int socket_id)
{
	size_t words = 2 * ((size_t)a->nb_chunks * MAP_WORDS_BIG +
			(size_t)a->nb_small * MAP_WORDS_SMALL);

	a->dbg_frags = rte_zmalloc_socket("npool_dbg_frags",
			words * sizeof(uint64_t), RTE_CACHE_LINE_SIZE,
			socket_id);
	return a->dbg_frags != NULL ? 0 : -ENOMEM;
}

void
npool_debug_arena_fini_pvt(struct npool_arena *a)
{
	/* The memzone's memory goes back to DPDK's heap, which writes it. */
	NPOOL_ASAN_UNPOISON(a->mz->addr, a->mz->len);
	rte_free(a->dbg_frags);
	a->dbg_frags = NULL;
}

/* Words of one of the chunk's two maps (starts, then live). */
static inline uint32_t
map_words(const struct npool_chunk *c)
{
	return c->size / 64;
}

/* The chunk's start map; its live map follows it. */
static uint64_t *
chunk_map(const struct npool_arena *a, const struct npool_chunk *c)
{
	size_t w;

	if (c->index < a->nb_chunks)
		w = (size_t)c->index * 2 * MAP_WORDS_BIG;
	else
		w = (size_t)a->nb_chunks * 2 * MAP_WORDS_BIG +
			(size_t)(c->index - a->nb_chunks) * 2 *
			MAP_WORDS_SMALL;
	return &a->dbg_frags[w];
}

void
npool_debug_chunk_reset_pvt(const struct npool_arena *a,
		const struct npool_chunk *c)
{
	uint64_t *m = chunk_map(a, c);
	uint32_t i;

	/* No reference is left: nobody else may touch the map now. */
	for (i = 0; i < 2 * map_words(c); i++)
		__atomic_store_n(&m[i], 0, __ATOMIC_RELAXED);
	NPOOL_ASAN_POISON(c->va, c->size);
}

void
npool_debug_frag_alloc(const struct npool_arena *a,
		const struct npool_chunk *c, const void *p, uint32_t size)
{
	uint64_t *starts = chunk_map(a, c), *live = starts + map_words(c);
	uint32_t off = (uint32_t)((const char *)p - c->va);
	uint64_t bit = 1ULL << (off & 63);

	if ((__atomic_fetch_or(&live[off >> 6], bit, __ATOMIC_RELAXED) &
			bit) && NPOOL_DEBUG)
		rte_panic("npool: fragment %p handed out while live (chunk %u at %p)\n",
				p, c->index, c->va);
	__atomic_fetch_or(&starts[off >> 6], bit, __ATOMIC_RELAXED);
	NPOOL_ASAN_UNPOISON(p, size);
}

#if NPOOL_ASAN
/* Offset where the fragment at @p start ends: the next start above it,
 * or the chunk's end. */
static uint32_t
frag_end(const uint64_t *starts, const struct npool_chunk *c, uint32_t start)
{
	uint32_t w = (start + 1) >> 6;
	uint64_t bits;

	if (start + 1 >= c->size)
		return c->size;
	bits = __atomic_load_n(&starts[w], __ATOMIC_RELAXED) &
		(~0ULL << ((start + 1) & 63));
	while (bits == 0) {
		if (++w >= map_words(c))
			return c->size;
		bits = __atomic_load_n(&starts[w], __ATOMIC_RELAXED);
	}
	return w * 64 + (uint32_t)__builtin_ctzll(bits);
}
#endif

void
npool_debug_frag_free(const struct npool_arena *a,
		const struct npool_chunk *c, const void *p)
{
	uint64_t *starts = chunk_map(a, c), *live = starts + map_words(c);
	uint32_t off = (uint32_t)((const char *)p - c->va);
	int32_t w = (int32_t)(off >> 6);
	uint64_t bits, bit;
	uint32_t start;

	/* The fragment holding p starts at the nearest start at or below
	 * it: fragments are carved downward and never overlap. */
	bits = __atomic_load_n(&starts[w], __ATOMIC_RELAXED) &
		(~0ULL >> (63 - (off & 63)));
	while (bits == 0) {
		if (--w < 0 && !NPOOL_DEBUG)
			return; /* ASan builds: a bug the audit reports */
		if (w < 0)
			rte_panic("npool: free of %p: no fragment was carved there (chunk %u at %p)\n",
					p, c->index, c->va);
		bits = __atomic_load_n(&starts[w], __ATOMIC_RELAXED);
	}
	start = (uint32_t)w * 64 + 63 - (uint32_t)__builtin_clzll(bits);
	bit = 1ULL << (start & 63);
	if (!(__atomic_fetch_and(&live[start >> 6], ~bit, __ATOMIC_RELAXED) &
			bit)) {
		/* ASan builds: already poisoned; the audit reports it. */
		if (!NPOOL_DEBUG)
			return;
		rte_panic("npool: double free of fragment %p (freed through %p, chunk %u at %p, refcount %u)\n",
				c->va + start, p, c->index, c->va,
				__atomic_load_n(&c->refcnt, __ATOMIC_RELAXED));
	}
#if NPOOL_ASAN
	/* It ends where the one carved before it (above) starts. */
	NPOOL_ASAN_POISON(c->va + start, frag_end(starts, c, start) - start);
#endif
}

uint32_t
npool_debug_chunk_live_pvt(const struct npool_arena *a,
		const struct npool_chunk *c)
{
	const uint64_t *live = chunk_map(a, c) + map_words(c);
	uint32_t i, n = 0;

	for (i = 0; i < map_words(c); i++)
		n += (uint32_t)__builtin_popcountll(
				__atomic_load_n(&live[i], __ATOMIC_RELAXED));
	return n;
}

void
npool_debug_napi_owner(unsigned int slot)
{
	/* One owner per lcore id, kept in its own instance's slot. */
	int *owner = &npool_lcore_np[slot]->lc[slot].dbg_owner;
	int self = rte_gettid(), cur = 0;

	if (likely(__atomic_load_n(owner, __ATOMIC_RELAXED) == self))
		return;
	if (__atomic_compare_exchange_n(owner, &cur, self, 0,
			__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	rte_panic("npool: napi cache of lcore %u used by thread %d, owned by thread %d (two threads with one lcore id)\n",
			slot, self, cur);
}

static void *lcore_cb_handle;

/* An lcore id is released (rte_thread_unregister()): the next thread that
 * gets it owns its napi cache afresh. */
static void
lcore_uninit(unsigned int lcore_id, void *arg __rte_unused)
{
	struct npool *np = npool_lcore_np[lcore_id];

	if (np != NULL && lcore_id < RTE_MAX_LCORE)
		__atomic_store_n(&np->lc[lcore_id].dbg_owner, 0,
				__ATOMIC_RELAXED);
}

int
npool_debug_lcore_cb_register_pvt(void)
{
	lcore_cb_handle = rte_lcore_callback_register("npool_debug", NULL,
			lcore_uninit, NULL);
	return lcore_cb_handle != NULL ? 0 : -ENOMEM;
}

void
npool_debug_lcore_cb_unregister_pvt(void)
{
	if (lcore_cb_handle != NULL)
		rte_lcore_callback_unregister(lcore_cb_handle);
	lcore_cb_handle = NULL;
}

/* The mark of @obj, or NULL if its pool has no spare header bytes. */
static uint64_t *
hc_mark(const struct rte_mempool *mp, void *obj)
{
	const size_t hdr = sizeof(struct rte_mempool_objhdr);

	if (mp->header_size < hdr + sizeof(uint64_t))
		return NULL;
	return (uint64_t *)((char *)obj - hdr - sizeof(uint64_t));
}

void
npool_debug_hc_put_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n)
{
	struct rte_mempool *mp = hc->mp;
	unsigned int i;

	if (mp == NULL)
		return;
	for (i = 0; i < n; i++) {
		struct rte_mempool *owner = rte_mempool_from_obj(objs[i]);
		uint64_t *mark;

		if (owner != mp && NPOOL_DEBUG)
			rte_panic("npool: object %p put into pool %s belongs to pool %p (wrong pool)\n",
					objs[i], mp->name, owner);
		mark = hc_mark(mp, objs[i]);
		if (mark != NULL && __atomic_exchange_n(mark, HC_FREE_MARK,
				__ATOMIC_RELAXED) == HC_FREE_MARK && NPOOL_DEBUG)
			rte_panic("npool: double free of object %p into pool %s (already free)\n",
					objs[i], mp->name);
		if (hc->asan_armed)
			NPOOL_ASAN_POISON(objs[i], mp->elt_size);
	}
}

void
npool_debug_hc_store_full_pvt(const struct npool_hc *hc, unsigned int n)
{
	rte_panic("npool: store of pool %s refused %u objects (%u of %u in it): they would be lost\n",
			hc->mp != NULL ? hc->mp->name : "(none)", n,
			rte_ring_count(hc->store),
			rte_ring_get_capacity(hc->store));
}

void
npool_debug_hc_got_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n)
{
	unsigned int i;

	if (hc->mp == NULL)
		return;
	for (i = 0; i < n; i++) {
		uint64_t *mark = hc_mark(hc->mp, objs[i]);

		/* Unpoisoned whether armed or not: a disarm may have come
		 * between the put and this get. */
		NPOOL_ASAN_UNPOISON(objs[i], hc->mp->elt_size);
		if (mark != NULL)
			__atomic_store_n(mark, 0, __ATOMIC_RELAXED);
	}
}

/* Apply @p fn to every object free in @p hc now: its store (taken and
 * put back in order) and every lcore's cache. */
static void
hc_each_free(struct npool_hc *hc, void (*fn)(void *obj, uint32_t size))
{
	const uint32_t size = hc->mp->elt_size;
	unsigned int i, k, n = rte_ring_count(hc->store);
	void *obj;

	for (k = 0; k < n; k++) {
		if (rte_ring_dequeue(hc->store, &obj) != 0)
			break;
		fn(obj, size);
		if (rte_ring_enqueue(hc->store, obj) != 0)
			rte_panic("npool: head store refused an object back\n");
	}
	for (i = 0; i < RTE_MAX_LCORE; i++)
		for (k = 0; k < hc->lc[i].len; k++)
			fn(hc->lc[i].objs[k], size);
}

static void
hc_poison(void *obj, uint32_t size)
{
	NPOOL_ASAN_POISON(obj, size);
}

#if NPOOL_ASAN
static void
hc_unpoison(void *obj, uint32_t size)
{
	NPOOL_ASAN_UNPOISON(obj, size);
}

/*
 * Before rte_mempool_free() of an armed pool: unpoison every free object.
 * DPDK takes them out through the ops one by one (which unpoisons them),
 * but not those in another lcore's cache, and then the heap writes all
 * of the pool's memory.
 */
static void
hc_destroy_cb(enum rte_mempool_event event, struct rte_mempool *mp,
		void *arg __rte_unused)
{
	struct npool_hc *hc;

	if (event != RTE_MEMPOOL_EVENT_DESTROY ||
			strcmp(rte_mempool_get_ops(mp->ops_index)->name,
				NPOOL_MEMPOOL_OPS_NAME) != 0)
		return;
	hc = mp->pool_data;
	if (hc == NULL || !hc->asan_armed)
		return;
	hc->asan_armed = 0;
	hc_each_free(hc, hc_unpoison);
}
#endif

void
npool_debug_hc_arm_pvt(struct npool_hc *hc)
{
#if NPOOL_ASAN
	static int cb_registered;

	if (hc == NULL || hc->mp == NULL || hc->asan_armed)
		return;
	if (!cb_registered &&
			rte_mempool_event_callback_register(hc_destroy_cb,
				NULL) == 0)
		cb_registered = 1;
	if (!cb_registered)
		return; /* without it, rte_mempool_free() would be reported */
	hc->asan_armed = 1;
	hc_each_free(hc, hc_poison);
#else
	RTE_SET_USED(hc);
	RTE_SET_USED(hc_each_free);
	RTE_SET_USED(hc_poison);
#endif
}
