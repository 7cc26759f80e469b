/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_AUDIT_H
#define NPOOL_AUDIT_H

/**
 * @file
 * What an application checks at exit, and a full consistency check.
 *
 * The leak check (npool_leak_check()): after the ports are closed and the
 * lcores stopped, every mbuf of the application's pools and of npool's
 * own pools is back, once, with refcnt 1, and no fragment and no chunk is
 * out. The apps print it at exit and the tests assert it.
 *
 * The audit (npool_audit()): the process's npool instances checked
 * through, for tests, stress runs and leak hunts: the arena walked chunk
 * by chunk against the fragment caches, the counters and (debug builds)
 * the fragment maps, and the head pool walked object by object. The
 * kernel's nearest counterpart is SLUB's validate_slab_cache() (slabinfo
 * -v); rte_mempool_audit() is DPDK's.
 */

#include <stdint.h>

struct rte_mempool;

#ifdef __cplusplus
extern "C" {
#endif

/** What npool_audit() found. Counts of chunks cover both sizes. */
struct npool_audit {
	/** Chunks in the arena (big + small). */
	uint32_t chunks;
	/** Free chunks: in the arena's free stacks, or kept by the lcore
	 * that freed their last fragment for its next refill. */
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

/** The state of one mbuf pool after a run (npool_pool_check()). */
struct npool_pool_state {
	uint32_t size;        /**< mbufs the pool was created with */
	/** mbufs back: in the pool's ops and in every lcore's mempool
	 * cache, not clamped to @c size as rte_mempool_avail_count() is */
	uint32_t free;
	uint32_t out;         /**< @c size - @c free when positive */
	/** @c free - @c size when positive: objects put back twice */
	uint32_t double_free;
	uint32_t bad_refcnt;  /**< mbufs whose refcnt is not 1 */
};

/**
 * Free objects of @p mp: its ops' count plus what every lcore's mempool
 * cache holds, not clamped to its size (more than the size is a double
 * free). Any thread; exact only while no thread gets or puts.
 *
 * @param mp
 *   A mempool (any ops).
 * @return
 *   The number of free objects.
 */
unsigned int npool_mempool_free_count(const struct rte_mempool *mp);

/**
 * Check one mbuf pool (any ops: stock, "npool", npool's own): how many
 * mbufs are out or back twice (npool_mempool_free_count() against its
 * size), and how many have a refcnt other than 1, every mbuf walked
 * (AddressSanitizer builds unpoison a free one for the read).
 *
 * Context: any thread, while no thread uses the pool (the walk reads
 * every mbuf).
 *
 * @param mp
 *   An mbuf pool.
 * @param st
 *   Where to write its state.
 * @return
 *   0 if every mbuf is back once with refcnt 1; -EUCLEAN if not (see
 *   @p st), -EINVAL if @p mp or @p st is NULL; also in rte_errno.
 */
int npool_pool_check(const struct rte_mempool *mp,
		struct npool_pool_state *st);

/** What npool_leak_check() found: every field 0 when nothing leaked. */
struct npool_leak {
	uint64_t mbufs_out;     /**< mbufs not back (heads, tiny and
	                         *   mid-size packets and RX mbufs alike) */
	uint64_t double_free;   /**< objects back beyond a pool's size */
	uint64_t bad_refcnt;    /**< mbufs whose refcnt is not 1 */
	int64_t frags_out;      /**< npool fragments not freed */
	uint32_t chunks_in_use; /**< npool chunks not back in an arena */
};

/**
 * The leak check at exit: give back the fragment caches' chunks
 * (npool_frag_cache_drain_all()), then check every pool of @p pools and
 * every npool instance's head pool, tiny and mid-size packets' pools
 * (npool_pool_check()), and read each instance's fragments out and
 * chunks in use. Without an npool instance only @p pools are checked.
 *
 * Context: main lcore, after the ports are stopped and
 * rte_eal_mp_wait_lcore(), with every registered thread unregistered
 * (else a napi cache still running keeps its chunk: chunks_in_use).
 *
 * @param pools
 *   The application's mbuf pools (RX pools and others), or NULL.
 * @param n
 *   Entries of @p pools.
 * @param out
 *   Where to write the totals.
 * @return
 *   0 if nothing leaked; -EUCLEAN if something did (see @p out), -EINVAL
 *   if @p out is NULL or @p pools is NULL with @p n > 0; also in
 *   rte_errno.
 */
int npool_leak_check(struct rte_mempool * const *pools, unsigned int n,
		struct npool_leak *out);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_AUDIT_H */
