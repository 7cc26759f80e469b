/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Chunk arena (lib/npool/npool_arena.h): layout, alignment, O(1) lookup,
 * get/put through the free rings, in-use accounting, create/free errors.
 * A private arena is used; npool_init() is not needed.
 */
#include <string.h>

#include <rte_memzone.h>
#include <rte_stack.h>

#include "unit_common.h"

#define NB_BIG 8
#define NB_SMALL 5

static int
arena_setup(void **state)
{
	static struct npool_arena a;

	if (npool_arena_create(&a, "ut", NB_BIG, NB_SMALL, SOCKET_ID_ANY) != 0)
		return -1;
	*state = &a;
	return 0;
}

static int
arena_teardown(void **state)
{
	struct npool_arena *a = *state;

	assert_int_equal(npool_arena_in_use(a), 0);
	assert_int_equal(npool_arena_free(a), 0);
	return 0;
}

static void
test_create_rejects_bad_arguments(void **state __rte_unused)
{
	struct npool_arena a;

	rte_errno = 0;
	assert_int_equal(npool_arena_create(&a, "x", 0, 1, SOCKET_ID_ANY),
			-EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_int_equal(npool_arena_create(&a, "x", (1u << 20) + 1, 0,
			SOCKET_ID_ANY), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_int_equal(npool_arena_create(&a, "x", 1, (1u << 20) + 1,
			SOCKET_ID_ANY), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	assert_int_equal(npool_arena_create(&a, NULL, 1, 1, SOCKET_ID_ANY),
			-EINVAL);
	/* 21 characters: one more than the documented maximum. */
	assert_int_equal(npool_arena_create(&a, "abcdefghijklmnopqrstu", 1, 1,
			SOCKET_ID_ANY), -EINVAL);
	/* Nothing was left behind: the arena reads as empty. */
	assert_null(a.mz);
	assert_int_equal(npool_arena_in_use(&a), 0);
}

static void
test_create_accepts_longest_name_and_no_small_chunks(void **state __rte_unused)
{
	struct npool_arena a;

	assert_int_equal(npool_arena_create(&a, "abcdefghijklmnopqrst", 1, 0,
			SOCKET_ID_ANY), 0);
	assert_int_equal(a.nb_chunks, 1);
	assert_int_equal(a.nb_small, 0);
	assert_null(npool_arena_get(&a, 1));
	assert_int_equal(npool_arena_in_use(&a), 0);
	assert_int_equal(npool_arena_free(&a), 0);
}

static void
test_create_same_name_twice_eexist(void **state)
{
	struct npool_arena *a = *state, b;

	(void)a;
	rte_errno = 0;
	assert_int_equal(npool_arena_create(&b, "ut", 1, 0, SOCKET_ID_ANY),
			-EEXIST);
	assert_int_equal(rte_errno, EEXIST);
}

static void
test_chunks_aligned_to_their_size_and_laid_out_in_order(void **state)
{
	struct npool_arena *a = *state;
	unsigned int i;

	assert_int_equal((uintptr_t)a->base % NPOOL_CHUNK_SIZE, 0);
	assert_int_equal(a->big_len, (uintptr_t)NB_BIG * NPOOL_CHUNK_SIZE);
	assert_int_equal(a->small_len,
			(uintptr_t)NB_SMALL * NPOOL_SMALL_CHUNK_SIZE);
	for (i = 0; i < NB_BIG + NB_SMALL; i++) {
		const struct npool_chunk *c = &a->chunks[i];
		int small = i >= NB_BIG;

		assert_int_equal(c->index, i);
		assert_int_equal(c->refcnt, 0);
		assert_int_equal(c->owner, RTE_MAX_LCORE);
		assert_int_equal(c->flags, small ? NPOOL_CHUNK_F_SMALL : 0);
		assert_int_equal(c->size, small ? NPOOL_SMALL_CHUNK_SIZE :
				NPOOL_CHUNK_SIZE);
		assert_ptr_equal(c->va, small ?
				a->base + a->big_len +
				(i - NB_BIG) * NPOOL_SMALL_CHUNK_SIZE :
				a->base + (size_t)i * NPOOL_CHUNK_SIZE);
		assert_int_equal((uintptr_t)c->va % c->size, 0);
		assert_int_not_equal(c->iova, RTE_BAD_IOVA);
		assert_int_equal(c->iova, rte_mem_virt2iova(c->va));
	}
}

static void
test_chunk_lookup_from_any_inner_address(void **state)
{
	struct npool_arena *a = *state;
	unsigned int i;

	for (i = 0; i < NB_BIG + NB_SMALL; i++) {
		struct npool_chunk *c = &a->chunks[i];

		assert_ptr_equal(npool_arena_chunk(a, c->va), c);
		assert_ptr_equal(npool_arena_chunk(a, c->va + 1), c);
		assert_ptr_equal(npool_arena_chunk(a, c->va + c->size / 2), c);
		assert_ptr_equal(npool_arena_chunk(a, c->va + c->size - 1), c);
	}
	/* One byte either side of the arena is not in it. */
	assert_null(npool_arena_chunk(a, a->base - 1));
	assert_null(npool_arena_chunk(a, a->base + a->big_len + a->small_len));
	assert_null(npool_arena_chunk(a, &i));
}

static void
test_get_takes_each_chunk_once_and_put_returns_it(void **state)
{
	struct npool_arena *a = *state;
	struct npool_chunk *big[NB_BIG], *small[NB_SMALL];
	unsigned int i, j;

	assert_int_equal(npool_arena_in_use(a), 0);
	for (i = 0; i < NB_BIG; i++) {
		big[i] = npool_arena_get(a, 0);
		assert_non_null(big[i]);
		assert_int_equal(big[i]->flags & NPOOL_CHUNK_F_SMALL, 0);
		for (j = 0; j < i; j++)
			assert_ptr_not_equal(big[i], big[j]);
		assert_int_equal(npool_arena_in_use(a), i + 1);
	}
	/* No big chunk left: get says so; it does not hand a small one. */
	assert_null(npool_arena_get(a, 0));
	for (i = 0; i < NB_SMALL; i++) {
		small[i] = npool_arena_get(a, 1);
		assert_non_null(small[i]);
		assert_int_equal(small[i]->flags, NPOOL_CHUNK_F_SMALL);
		assert_int_equal(npool_arena_in_use(a), NB_BIG + i + 1);
	}
	assert_null(npool_arena_get(a, 1));

	/* A put goes to the ring of the chunk's own kind. */
	npool_arena_put(a, small[2]);
	assert_null(npool_arena_get(a, 0));
	assert_ptr_equal(npool_arena_get(a, 1), small[2]);
	npool_arena_put(a, big[5]);
	assert_null(npool_arena_get(a, 1));
	assert_ptr_equal(npool_arena_get(a, 0), big[5]);

	for (i = 0; i < NB_BIG; i++)
		npool_arena_put(a, big[i]);
	for (i = 0; i < NB_SMALL; i++)
		npool_arena_put(a, small[i]);
	assert_int_equal(npool_arena_in_use(a), 0);
	assert_int_equal(npool_arena_free_count(a, 0), NB_BIG);
	assert_int_equal(npool_arena_free_count(a, 1), NB_SMALL);
}

static void
test_get_returns_the_chunk_freed_last(void **state)
{
	struct npool_arena *a = *state;
	struct npool_chunk *c[3];
	unsigned int i;

	/* A fresh arena hands chunks out in address order... */
	for (i = 0; i < 3; i++) {
		c[i] = npool_arena_get(a, 0);
		assert_ptr_equal(c[i], &a->chunks[i]);
	}
	assert_ptr_equal(npool_arena_get(a, 1), &a->chunks[NB_BIG]);
	npool_arena_put(a, &a->chunks[NB_BIG]);
	/* ...and afterwards the one given back last (still warm) first. */
	npool_arena_put(a, c[0]);
	npool_arena_put(a, c[2]);
	npool_arena_put(a, c[1]);
	assert_ptr_equal(npool_arena_get(a, 0), c[1]);
	assert_ptr_equal(npool_arena_get(a, 0), c[2]);
	assert_ptr_equal(npool_arena_get(a, 0), c[0]);
	assert_ptr_equal(npool_arena_get(a, 0), &a->chunks[3]);
	npool_arena_put(a, &a->chunks[3]);
	for (i = 0; i < 3; i++)
		npool_arena_put(a, c[i]);
	assert_int_equal(npool_arena_free_count(a, 0), NB_BIG);
	assert_int_equal(npool_arena_free_count(a, 1), NB_SMALL);
}

static void
test_free_refused_while_a_chunk_is_out(void **state)
{
	struct npool_arena *a = *state;
	struct npool_chunk *c = npool_arena_get(a, 1);

	assert_non_null(c);
	assert_int_equal(npool_arena_free(a), -EBUSY);
	/* Nothing was freed: the memory and the rings are still there. */
	assert_non_null(rte_memzone_lookup("npa_ut"));
	assert_ptr_equal(npool_arena_chunk(a, c->va), c);
	npool_arena_put(a, c);
}

static void
test_free_releases_memzone_and_rings(void **state __rte_unused)
{
	struct npool_arena a;

	assert_int_equal(npool_arena_create(&a, "gone", 2, 2, SOCKET_ID_ANY),
			0);
	assert_non_null(rte_memzone_lookup("npa_gone"));
	assert_non_null(rte_stack_lookup("npb_gone"));
	assert_non_null(rte_stack_lookup("nps_gone"));
	assert_int_equal(npool_arena_free(&a), 0);
	assert_null(rte_memzone_lookup("npa_gone"));
	assert_null(rte_stack_lookup("npb_gone"));
	assert_null(rte_stack_lookup("nps_gone"));
	/* A freed arena is empty; freeing it again is harmless. */
	assert_int_equal(npool_arena_in_use(&a), 0);
	assert_int_equal(npool_arena_free(&a), 0);
	/* The name can be used again. */
	assert_int_equal(npool_arena_create(&a, "gone", 1, 0, SOCKET_ID_ANY),
			0);
	assert_int_equal(npool_arena_free(&a), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_rejects_bad_arguments),
		cmocka_unit_test(
			test_create_accepts_longest_name_and_no_small_chunks),
		cmocka_unit_test_setup_teardown(
			test_create_same_name_twice_eexist,
			arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(
			test_chunks_aligned_to_their_size_and_laid_out_in_order,
			arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(
			test_chunk_lookup_from_any_inner_address,
			arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(
			test_get_takes_each_chunk_once_and_put_returns_it,
			arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(
			test_get_returns_the_chunk_freed_last,
			arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(
			test_free_refused_while_a_chunk_is_out,
			arena_setup, arena_teardown),
		cmocka_unit_test(test_free_releases_memzone_and_rings),
	};

	return UT_MAIN("npool_ut_arena", tests);
}
