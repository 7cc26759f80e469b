/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The instance registry that npool's fast paths read (npool_core.h): the
 * default instance, each slot's instance and the list of instances, which
 * npool_instance.c writes as instances are made and destroyed; the
 * instance that owns an address; and the debug builds' owner of each
 * lcore's napi caches (npool_debug_napi_owner()), kept in the per-lcore
 * state. Every other file of libnpool reads it; this file calls none of
 * them.
 */
#include <errno.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_eal.h>
#include <rte_lcore.h>

#include "npool_core.h"
#include "npool_core_pvt.h"

struct npool *npool_g_pvt;
struct npool *npool_lcore_np[NPOOL_NON_EAL_SLOT + 1];
struct npool *npool_instances_pvt[RTE_MAX_NUMA_NODES + 1];
unsigned int npool_nb_instances_pvt;

struct npool *
npool_owner_pvt(const void *p, struct npool_chunk **cp)
{
	unsigned int k;

	for (k = 0; k < npool_nb_instances_pvt; k++) {
		struct npool *np = npool_instances_pvt[k];
		struct npool_chunk *c = npool_arena_chunk(&np->arena, p);

		if (c != NULL) {
			*cp = c;
			return np;
		}
	}
	*cp = NULL;
	return NULL;
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
