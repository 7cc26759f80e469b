/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_FRAG_PVT_H
#define NPOOL_FRAG_PVT_H

/**
 * @file
 * @internal What npool_frag.c defines for libnpool's other files beyond
 * the fragment API: the defer rings' flush and the fragments counted out.
 * Private: not installed, not exported.
 */

#include <stdint.h>

#include "npool_core.h"

/** Free the packets waiting in the defer ring of slot @p slot of @p np
 * (npool_napi_consume_bulk()), by rte_pktmbuf_free_bulk(): the ring's
 * only consumer, its lcore, or the main lcore while that lcore is idle
 * (npool_frag_cache_drain_all(), npool_fini()). */
void npool_defer_ring_flush_pvt(struct npool *np, unsigned int slot);

/** Fragments out of @p np by its lifetime counters (allocs +
 * guarded_allocs - frees of every slot), for npool_audit(). */
int64_t npool_instance_frags_counted_pvt(const struct npool *np);

#endif /* NPOOL_FRAG_PVT_H */
