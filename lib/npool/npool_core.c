/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The instance registry that npool's fast paths read (npool_core.h): the
 * default instance, each slot's instance and the list of instances, which
 * npool_instance.c writes as instances are made and destroyed; and the
 * instance that owns an address. Every other file of libnpool reads it; this file
 * calls none of them.
 */
#include <rte_common.h>

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
