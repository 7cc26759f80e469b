/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_STATS_H
#define NPOOL_STATS_H

/**
 * @file
 * Per-lcore counters of the fragment and packet allocators, read out:
 * per slot, per instance, summed, and reset. The counters themselves
 * (struct npool_stats) are in npool_stats_fields.h, which this header
 * includes: each instance's per-lcore state embeds them (npool_core.h).
 *
 * Each EAL lcore writes only its own slot with plain stores (no atomic);
 * threads without an lcore id (non-EAL) share slot NPOOL_NON_EAL_SLOT,
 * updated atomically. Reading is allowed from any thread at any time; a
 * reader may see a slot in the middle of an update (counters are 64-bit
 * and never torn on 64-bit targets).
 */

#include <stdint.h>

#include "npool_stats_fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Read the counters of one slot, summed over the instances.
 *
 * @param slot
 *   An lcore id (0 .. RTE_MAX_LCORE-1) or NPOOL_NON_EAL_SLOT.
 * @param out
 *   Where to copy them.
 * @return
 *   0, or -EINVAL, also in rte_errno (slot out of range, @p out NULL, or
 *   npool not initialised). Any thread.
 */
int npool_stats_get(unsigned int slot, struct npool_stats *out);

struct npool;

/**
 * Sum the counters of every slot of instance @p np into @p out.
 * Any thread.
 *
 * @param np
 *   An instance.
 * @param out
 *   Where to write the sums.
 * @return 0, or -EINVAL, also in rte_errno (@p np or @p out NULL).
 */
int npool_instance_stats_sum(const struct npool *np, struct npool_stats *out);

/**
 * Sum the counters of every slot of every instance into @p out.
 * Any thread.
 *
 * @param out
 *   Where to write the sums.
 * @return 0, or -EINVAL, also in rte_errno (@p out NULL or npool not
 *   initialised).
 */
int npool_stats_sum(struct npool_stats *out);

/**
 * Zero every slot of every instance, as npool_stats_get() and
 * npool_stats_sum() see them: the counters run on and a base is taken
 * (a PMD's stats offset). npool_frags_outstanding() reads the counters
 * whole (allocs + guarded_allocs - frees since each instance was made)
 * and npool_audit() checks them against the chunks' reference counts:
 * neither moves. Call only while no thread allocates or frees, or counts
 * will be lost.
 */
void npool_stats_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_STATS_H */
