/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_stack.h>

#include "npool_arena.h"
#include "npool_arena_pvt.h"
#include "npool_asan.h"
#include "npool_debug.h"
#include "npool_log.h"
#include "npool_tsan.h"

#define NPOOL_ARENA_MAX_CHUNKS (1u << 20)

/* Debug and ASan builds' fragment maps: one bit per byte of a chunk, 64
 * to a word, two maps a chunk (starts, then live). */
#define MAP_WORDS_BIG (NPOOL_CHUNK_SIZE / 64)
#define MAP_WORDS_SMALL (NPOOL_SMALL_CHUNK_SIZE / 64)

/* Allocate the fragment maps of arena @p a (every chunk): 0 or -ENOMEM. */
static int
dbg_maps_alloc(struct npool_arena *a, int socket_id)
{
	size_t words = 2 * ((size_t)a->nb_chunks * MAP_WORDS_BIG +
			(size_t)a->nb_small * MAP_WORDS_SMALL);

	a->dbg_frags = rte_zmalloc_socket("npool_dbg_frags",
			words * sizeof(uint64_t), RTE_CACHE_LINE_SIZE,
			socket_id);
	return a->dbg_frags != NULL ? 0 : -ENOMEM;
}

/* Free the fragment maps of arena @p a (none: nothing). */
static void
dbg_maps_free(struct npool_arena *a)
{
	/* The memzone's memory goes back to DPDK's heap, which writes it. */
	NPOOL_ASAN_UNPOISON(a->mz->addr, a->mz->len);
	rte_free(a->dbg_frags);
	a->dbg_frags = NULL;
}

/*
 * ThreadSanitizer builds: a chunk passes between threads through DPDK's
 * lock-free stack, whose 128-bit compare-and-swap of the list head TSan
 * cannot see. The acquire on the stack's length that TSan does see may
 * come from an earlier push than the one whose chunk the pop gets (the
 * length is added after the head swap), so TSan would take the chunk
 * header's owner, refcnt and the fragments' bytes as racing between the
 * thread that gave the chunk back and the one that carves it next. The
 * annotations in get/put state the ordering the compare-and-swap gives:
 * all before a put of chunk c happens before all after the get of c.
 */

int
npool_arena_create(struct npool_arena *a, const char *name,
		uint32_t nb_chunks, uint32_t nb_small, int socket_id)
{
	char mz_name[RTE_MEMZONE_NAMESIZE];
	char st_name[RTE_STACK_NAMESIZE];
	unsigned int mz_flags = 0;
	uint32_t total, i;
	size_t len;
	int ret;

	memset(a, 0, sizeof(*a));
	if (name == NULL || strlen(name) > 20 || nb_chunks == 0 ||
			nb_chunks > NPOOL_ARENA_MAX_CHUNKS ||
			nb_small > NPOOL_ARENA_MAX_CHUNKS) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	total = nb_chunks + nb_small;
	len = (size_t)nb_chunks * NPOOL_CHUNK_SIZE +
		(size_t)nb_small * NPOOL_SMALL_CHUNK_SIZE;

	/*
	 * Each chunk must be IOVA-contiguous for DMA, not the whole arena:
	 * with IOVA as VA every memzone is; with physical addresses (uio, or
	 * vfio without an IOMMU) a chunk-aligned chunk lies within one page
	 * when pages are at least a chunk long, and its IOVA is looked up
	 * chunk by chunk below. Only pages smaller than a chunk need an
	 * IOVA-contiguous memzone, which dynamic memory seldom has (its
	 * hugepages come in no physical order).
	 */
	snprintf(mz_name, sizeof(mz_name), "npa_%s", name);
	a->mz = rte_memzone_reserve_aligned(mz_name, len, socket_id,
			mz_flags, NPOOL_CHUNK_SIZE);
	if (a->mz != NULL && rte_eal_iova_mode() == RTE_IOVA_PA &&
			a->mz->hugepage_sz < NPOOL_CHUNK_SIZE) {
		rte_memzone_free(a->mz);
		mz_flags |= RTE_MEMZONE_IOVA_CONTIG;
		a->mz = rte_memzone_reserve_aligned(mz_name, len, socket_id,
				mz_flags, NPOOL_CHUNK_SIZE);
	}
	if (a->mz == NULL) {
		ret = -rte_errno;
		NPOOL_LOG(ERR, "arena %s: no memzone of %zu bytes: %s",
				name, len, rte_strerror(rte_errno));
		return ret;
	}
	a->base = a->mz->addr;
	a->big_len = (uintptr_t)nb_chunks * NPOOL_CHUNK_SIZE;
	a->small_len = (uintptr_t)nb_small * NPOOL_SMALL_CHUNK_SIZE;
	a->nb_chunks = nb_chunks;
	a->nb_small = nb_small;

	a->chunks = rte_zmalloc_socket("npool_chunks",
			sizeof(*a->chunks) * total, RTE_CACHE_LINE_SIZE,
			socket_id);
	if (a->chunks == NULL)
		goto nomem;

	snprintf(st_name, sizeof(st_name), "npb_%s", name);
	a->free_big = rte_stack_create(st_name, nb_chunks, socket_id,
			RTE_STACK_F_LF);
	snprintf(st_name, sizeof(st_name), "nps_%s", name);
	a->free_small = rte_stack_create(st_name, nb_small > 0 ? nb_small : 1,
			socket_id, RTE_STACK_F_LF);
	if (a->free_big == NULL || a->free_small == NULL)
		goto nomem;
	if (NPOOL_DEBUG_HOOKS && dbg_maps_alloc(a, socket_id) != 0)
		goto nomem;

	/* Pushed last to first, so that chunks are first used in address
	 * order (the stacks are LIFO). */
	for (i = total; i-- > 0; ) {
		struct npool_chunk *c = &a->chunks[i];

		c->index = i;
		c->owner = RTE_MAX_LCORE;
		if (i < nb_chunks) {
			c->size = NPOOL_CHUNK_SIZE;
			c->va = a->base + (size_t)i * NPOOL_CHUNK_SIZE;
		} else {
			c->size = NPOOL_SMALL_CHUNK_SIZE;
			c->flags = NPOOL_CHUNK_F_SMALL;
			c->va = a->base + a->big_len +
				(size_t)(i - nb_chunks) * NPOOL_SMALL_CHUNK_SIZE;
		}
		c->iova = rte_mem_virt2iova(c->va);
		npool_arena_put(a, c);
	}
	return 0;

nomem:
	dbg_maps_free(a);
	rte_stack_free(a->free_big);
	rte_stack_free(a->free_small);
	rte_free(a->chunks);
	rte_memzone_free(a->mz);
	memset(a, 0, sizeof(*a));
	rte_errno = ENOMEM;
	return -ENOMEM;
}

struct npool_chunk *
npool_arena_get(struct npool_arena *a, int small)
{
	void *c;

	if (rte_stack_pop(small ? a->free_small : a->free_big, &c, 1) != 1)
		return NULL;
	npool_tsan_acquire(c);
	return c;
}

void
npool_arena_put(struct npool_arena *a, struct npool_chunk *c)
{
	void *obj = c;

	npool_tsan_release(c);
	/* The stacks are sized for every chunk: a push cannot fail. */
	rte_stack_push((c->flags & NPOOL_CHUNK_F_SMALL) ?
			a->free_small : a->free_big, &obj, 1);
}

unsigned int
npool_arena_free_count(const struct npool_arena *a, int small)
{
	struct rte_stack *s = small ? a->free_small : a->free_big;

	return s != NULL ? rte_stack_count(s) : 0;
}

unsigned int
npool_arena_in_use(const struct npool_arena *a)
{
	if (a->mz == NULL)
		return 0;
	return a->nb_chunks - npool_arena_free_count(a, 0) +
		a->nb_small - npool_arena_free_count(a, 1);
}

int
npool_arena_free(struct npool_arena *a)
{
	if (a->mz == NULL)
		return 0;
	if (npool_arena_in_use(a) != 0)
		return npool_err_pvt(EBUSY);
	dbg_maps_free(a);
	rte_stack_free(a->free_big);
	rte_stack_free(a->free_small);
	rte_free(a->chunks);
	rte_memzone_free(a->mz);
	memset(a, 0, sizeof(*a));
	return 0;
}

/*
 * The fragment maps of debug and ASan builds (npool_arena.h): which
 * fragments each chunk's current life carved, and which are still out.
 */

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
