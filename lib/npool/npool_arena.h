/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_ARENA_H
#define NPOOL_ARENA_H

/**
 * @file
 * npool chunk arena: the page allocator under the fragment caches.
 *
 * The arena is one memzone cut into big chunks of NPOOL_CHUNK_SIZE bytes
 * (the kernel's 32 KiB compound page, PAGE_FRAG_CACHE_MAX_SIZE) followed by
 * small chunks of NPOOL_SMALL_CHUNK_SIZE bytes (the order-0 page fallback).
 * Every chunk is aligned to its own size, so the chunk of any address is
 * found in O(1) by a shift, as virt_to_head_page() finds a struct page.
 * Free chunks wait in two lock-free rte_stacks: last freed, first reused,
 * so a refill gets the chunk most likely still in cache (the kernel's
 * per-CPU page lists are LIFO for the same reason).
 */

#include <stdint.h>
#include <rte_common.h>
#include <rte_memory.h>
#include <rte_branch_prediction.h>

#include "npool_build_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Big chunk size in bytes (meson option chunk_size, 32 KiB by default). */
#ifndef NPOOL_CHUNK_SIZE
#define NPOOL_CHUNK_SIZE 32768
#endif
/** log2(NPOOL_CHUNK_SIZE). */
#define NPOOL_CHUNK_SHIFT ((unsigned int)__builtin_ctz(NPOOL_CHUNK_SIZE))
/** Small (fallback) chunk size in bytes: one 4 KiB page, as order-0. */
#define NPOOL_SMALL_CHUNK_SIZE 4096
/** log2(NPOOL_SMALL_CHUNK_SIZE). */
#define NPOOL_SMALL_CHUNK_SHIFT 12

/** Chunk flag: the chunk is a small (4 KiB) fallback chunk. */
#define NPOOL_CHUNK_F_SMALL 0x1
/** Chunk flag: the cache of kept packets carved it last
 * (npool_pkt_condense()); set and cleared by the cache that takes the
 * chunk, while no fragment of it is out. */
#define NPOOL_CHUNK_F_KEEP 0x2

/**
 * Chunk header: npool's struct page. One per chunk, kept apart from the
 * chunk memory so that the allocation fast path never touches it.
 */
struct npool_chunk {
	/** Reference count (page->_refcount): atomic, see npool_frag.h. */
	uint32_t refcnt;
	/** Chunk size in bytes: NPOOL_CHUNK_SIZE or NPOOL_SMALL_CHUNK_SIZE. */
	uint32_t size;
	/** lcore whose cache carved this chunk last (RTE_MAX_LCORE: none). */
	uint16_t owner;
	/** NPOOL_CHUNK_F_* flags: NPOOL_CHUNK_F_SMALL fixed at arena
	 * creation, NPOOL_CHUNK_F_KEEP as the cache that took it is. */
	uint16_t flags;
	/** Index of this header in the arena's header array. */
	uint32_t index;
	/** Virtual address of the first byte of the chunk. */
	char *va;
	/** IO address of the first byte of the chunk. */
	rte_iova_t iova;
};

struct rte_stack;

/** The arena: fixed at creation, read-only afterwards except the stacks. */
struct npool_arena {
	char *base;            /**< first big chunk, NPOOL_CHUNK_SIZE aligned */
	uintptr_t big_len;     /**< bytes of big chunks */
	uintptr_t small_len;   /**< bytes of small chunks, right after */
	uint32_t nb_chunks;    /**< number of big chunks */
	uint32_t nb_small;     /**< number of small chunks */
	struct npool_chunk *chunks; /**< nb_chunks + nb_small headers */
	struct rte_stack *free_big;   /**< free big chunks (lock-free LIFO) */
	struct rte_stack *free_small; /**< free small chunks (lock-free LIFO) */
	const struct rte_memzone *mz; /**< backing memory */
	/** Fragment maps of debug and ASan builds (npool_debug_frag_alloc()),
	 * else NULL. */
	uint64_t *dbg_frags;
};

/**
 * Create an arena. Slow path; call from the main lcore before use.
 *
 * @param a
 *   Arena to fill in.
 * @param name
 *   Prefix for the memzone and ring names (at most 20 characters).
 * @param nb_chunks
 *   Number of big chunks, 1 .. 1048576.
 * @param nb_small
 *   Number of 4 KiB fallback chunks, 0 .. 1048576.
 * @param socket_id
 *   NUMA socket of the memory, or SOCKET_ID_ANY.
 * @return
 *   0 on success; a negative errno on failure, also set in rte_errno:
 *   -EINVAL (bad counts or name), -ENOMEM (no memory for the memzone,
 *   headers or rings; in debug builds also for the fragment maps, two
 *   bits per byte of chunk), -EEXIST (name already used).
 */
int npool_arena_create(struct npool_arena *a, const char *name,
		uint32_t nb_chunks, uint32_t nb_small, int socket_id);

/**
 * Free an arena's memory. Every chunk must be free (npool_arena_in_use()
 * == 0) or the memory of chunks still in use would be freed under them.
 *
 * @param a
 *   The arena.
 * @return
 *   0, or -EBUSY, also in rte_errno (chunks still in use; nothing is
 *   freed).
 */
int npool_arena_free(struct npool_arena *a);

/**
 * Number of chunks (big and small) not in the arena's free rings: held by
 * a fragment cache or by outstanding fragments. Any thread.
 *
 * @param a
 *   The arena.
 * @return
 *   The number of chunks in use.
 */
unsigned int npool_arena_in_use(const struct npool_arena *a);

/**
 * Chunk header of any address inside the arena (virt_to_head_page()).
 *
 * @param a
 *   The arena.
 * @param p
 *   Any address inside a chunk.
 * @return
 *   The chunk header, or NULL if @p p is not inside the arena.
 *   Any thread, no side effect.
 */
static __rte_always_inline struct npool_chunk *
npool_arena_chunk(const struct npool_arena *a, const void *p)
{
	uintptr_t off = (uintptr_t)p - (uintptr_t)a->base;

	if (likely(off < a->big_len))
		return &a->chunks[off >> NPOOL_CHUNK_SHIFT];
	off -= a->big_len;
	if (off < a->small_len)
		return &a->chunks[a->nb_chunks +
				(off >> NPOOL_SMALL_CHUNK_SHIFT)];
	return NULL;
}

/**
 * Take a free chunk (alloc_pages()): the one freed last. Any thread,
 * lock-free. Slow path (a cache refill).
 *
 * @param a
 *   The arena.
 * @param small
 *   0 for a big chunk, 1 for a small chunk.
 * @return
 *   The chunk, or NULL if none is free of that kind.
 */
struct npool_chunk *npool_arena_get(struct npool_arena *a, int small);

/**
 * Give a chunk back (put_page() dropping the last reference).
 * Any thread, lock-free. Must be called exactly once per npool_arena_get().
 *
 * @param a
 *   The arena.
 * @param c
 *   A chunk of npool_arena_get() on @p a.
 */
void npool_arena_put(struct npool_arena *a, struct npool_chunk *c);

/**
 * Number of free chunks of one size. Any thread; exact only while no
 * thread takes or gives back chunks.
 *
 * @param a
 *   The arena.
 * @param small
 *   0 for big chunks, 1 for small chunks.
 *
 * @return
 *   The number of free chunks of that size.
 */
unsigned int npool_arena_free_count(const struct npool_arena *a, int small);

/**
 * Debug and AddressSanitizer builds (NPOOL_DEBUG_HOOKS, npool_debug.h):
 * fragment @p p of @p size bytes has just been carved from chunk @p c of
 * arena @p a.
 * Debug builds panic if a live fragment already starts there; ASan builds
 * unpoison it. The inline carve of npool_frag.h calls it (through
 * NPOOL_DEBUG_HOOK(), so never in other builds); applications do not.
 *
 * @param a
 *   The arena.
 * @param c
 *   The chunk carved.
 * @param p
 *   The fragment.
 * @param size
 *   Its size in bytes.
 */
void npool_debug_frag_alloc(const struct npool_arena *a,
		const struct npool_chunk *c, const void *p, uint32_t size);

/**
 * Debug and AddressSanitizer builds: a free through address @p p of
 * chunk @p c, before its reference is dropped. Debug builds panic unless
 * @p p is inside a live fragment, then mark that fragment freed; ASan
 * builds poison it, up to the next fragment or the chunk's end.
 * npool_free_frag() calls it (NPOOL_DEBUG_HOOK()); applications do not.
 *
 * @param a
 *   The arena.
 * @param c
 *   The chunk holding @p p.
 * @param p
 *   Any address inside the fragment freed.
 */
void npool_debug_frag_free(const struct npool_arena *a,
		const struct npool_chunk *c, const void *p);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_ARENA_H */
