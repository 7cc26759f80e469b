/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_AUDIT_H
#define NPOOL_AUDIT_H

/**
 * @file
 * A full consistency check of the process's npool instances, for tests, stress runs
 * and leak hunts: the arena walked chunk by chunk against the fragment
 * caches, the counters and (debug builds) the fragment maps, and the head
 * pool walked object by object. The kernel's nearest counterpart is SLUB's
 * validate_slab_cache() (slabinfo -v); rte_mempool_audit() is DPDK's.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What npool_audit() found. Counts of chunks cover both sizes. */
struct npool_audit {
	/** Chunks in the arena (big + small). */
	uint32_t chunks;
	/** Chunks in the arena's free stacks. */
	uint32_t chunks_free;
	/** Chunks a fragment cache (napi or guarded, small-packet caches
	 * included) carves from. */
	uint32_t chunks_cached;
	/** Chunks held only by outstanding fragments (no cache). */
	uint32_t chunks_pinned;
	/** Fragments out according to the chunks: the sum over chunks in
	 * use of refcount minus the bias of the cache holding it. */
	int64_t frags_out;
	/** Fragments out according to the lifetime counters (allocs +
	 * guarded_allocs - frees since the instance was made, which
	 * npool_stats_reset() does not move); equal to @c frags_out when
	 * sound. */
	int64_t frags_counted;
	/** Heads the head pool was created with. */
	uint32_t heads;
	/** Distinct heads free in the head pool (store and lcore caches). */
	uint32_t heads_free;
	/** Inconsistencies found; each is logged (lib.npool, ERR). */
	uint32_t errors;
};

/**
 * Check that the arena, the fragment caches, the counters and the head
 * pool agree, and report how many chunks, fragments and heads are out.
 *
 * Checked, each inconsistency counted in @c errors:
 * - every entry of the free stacks is a chunk of this arena, of the
 *   stack's size, there once, with refcount 0, held by no cache (and, in
 *   debug builds, with no live fragment in its map);
 * - every chunk not free is held by one cache at most; held, its bias is
 *   1 .. NPOOL_CHUNK_SIZE + 1 and its refcount at least the bias; not
 *   held, its refcount is at least 1 (else it would never come back);
 * - refcount minus bias summed over chunks equals the lifetime counters'
 *   fragments out; debug builds: per chunk, equals its live fragments;
 * - every free head is an object of the head pool, there once, and their
 *   number is what rte_mempool_avail_count() says.
 * The free stacks and the head pool's store are emptied and refilled in
 * their order: the audit changes nothing a later allocation could see.
 *
 * Context: any thread, while no thread allocates or frees fragments or
 * packets (e.g. on the main lcore after rte_eal_mp_wait_lcore()). Slow:
 * it walks every chunk and every free head.
 *
 * @param out
 *   Where to write the findings (also on -EUCLEAN).
 * @return
 *   0 if everything is consistent; a negative errno, also in rte_errno:
 *   -EUCLEAN (an inconsistency: see @c out->errors and the log), -EINVAL
 *   (@p out is NULL), -ENODEV (no instance), -ENOMEM (no memory
 *   for the walk: @p out holds only what was counted before).
 */
int npool_audit(struct npool_audit *out);

struct npool;

/**
 * npool_audit() of one instance (npool_create()); npool_audit() sums
 * this over every instance.
 *
 * @param np
 *   An instance.
 * @param out
 *   Where to write the findings (also on -EUCLEAN).
 * @return As npool_audit(), with -EINVAL also for @p np NULL.
 */
int npool_instance_audit(struct npool *np, struct npool_audit *out);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_AUDIT_H */
