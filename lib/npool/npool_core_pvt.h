/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_CORE_PVT_H
#define NPOOL_CORE_PVT_H

/**
 * @file
 * @internal The instance registry as libnpool's own .c files see it: the
 * default instance, the list of instances and the owner of an address.
 * Private: not installed, not exported (npool.c writes the registry,
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

/** Free the packets waiting in the defer ring of slot @p slot of @p np
 * (npool_napi_consume_bulk()), by rte_pktmbuf_free_bulk(): the ring's
 * only consumer, its lcore, or the main lcore while that lcore is idle
 * (npool_frag_cache_drain_all(), npool_fini()). */
void npool_defer_ring_flush_pvt(struct npool *np, unsigned int slot);

/** Fragments out of @p np by its lifetime counters (allocs +
 * guarded_allocs - frees of every slot), for npool_audit(). */
int64_t npool_instance_frags_counted_pvt(const struct npool *np);

#endif /* NPOOL_CORE_PVT_H */
