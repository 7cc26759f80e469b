/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_stack.h>

#include "npool_arena.h"
#include "npool_debug_pvt.h"
#include "npool_log.h"
#include "npool_tsan.h"

#define NPOOL_ARENA_MAX_CHUNKS (1u << 20)

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
	if (NPOOL_DEBUG_HOOKS && npool_debug_arena_init_pvt(a, socket_id) != 0)
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
	npool_debug_arena_fini_pvt(a);
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
	npool_debug_arena_fini_pvt(a);
	rte_stack_free(a->free_big);
	rte_stack_free(a->free_small);
	rte_free(a->chunks);
	rte_memzone_free(a->mz);
	memset(a, 0, sizeof(*a));
	return 0;
}
