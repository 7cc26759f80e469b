/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The leak check at exit (npool_audit.h): every mbuf of the given pools
 * and of npool's own back once with refcnt 1, no fragment and no chunk
 * out.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "npool_arena.h"
#include "npool_audit.h"
#include "npool_core.h"
#include "npool_frag.h"
#include "npool_asan.h"
#include "npool_core_pvt.h"
#include "npool_log.h"

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
		out->frags_out += npool_instance_frags_outstanding(np);
		out->chunks_in_use += npool_arena_in_use(&np->arena);
	}
	if (out->mbufs_out != 0 || out->double_free != 0 ||
			out->bad_refcnt != 0 || out->frags_out != 0 ||
			out->chunks_in_use != 0)
		return npool_err_pvt(EUCLEAN);
	return 0;
}
