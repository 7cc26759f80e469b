/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_CORE_PVT_H
#define NPOOL_CORE_PVT_H

/**
 * @file
 * @internal The instance registry as libnpool's own .c files see it: the
 * default instance, the list of instances and the owner of an address.
 * Private: not installed, not exported (npool_instance.c writes the registry,
 * npool_core.c defines it, the slow paths walk it).
 */

#include <stdint.h>
#include <rte_memory.h>

#include "npool_core.h"

/** The default instance: the one of SOCKET_ID_ANY if there is one,
 * else the first created; NULL while there is none (npool_default()). */
extern struct npool *npool_g_pvt;

/** Every instance, in creation order (slow paths walk it). */
extern struct npool *npool_instances_pvt[RTE_MAX_NUMA_NODES + 1];
/** Number of entries of npool_instances_pvt[]. */
extern unsigned int npool_nb_instances_pvt;

/** Instance owning address @p p and its chunk header in @p cp; NULL if no
 * instance does (a free of another socket's fragment, or of an address
 * outside every arena). */
struct npool *npool_owner_pvt(const void *p, struct npool_chunk **cp);

/** Debug builds: register the lcore callback that releases napi cache
 * ownership (npool_debug_napi_owner()) when an lcore id is unregistered.
 * 0 or -ENOMEM. */
int npool_debug_lcore_cb_register_pvt(void);

/** Unregister what npool_debug_lcore_cb_register_pvt() did. */
void npool_debug_lcore_cb_unregister_pvt(void);

#endif /* NPOOL_CORE_PVT_H */
