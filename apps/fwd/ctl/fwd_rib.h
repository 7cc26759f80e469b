/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_RIB_H
#define FWD_RIB_H

/**
 * @file
 * npool-fwd's routing information base: every route the tables hold, one
 * record per prefix, with where it came from (a route file, a connected
 * prefix, FPM, the router's own addresses) and the next hop the tables
 * give it; beside them the host routes of neighbours on a link (Linux
 * resolves such a destination itself; here its neighbour's next hop
 * reaches the fast path through a /32 or /128). The RIB writes every
 * socket's copy of the route tables (and the default routes): rte_lpm
 * with RCU (rte_lpm_rcu_qsbr_add(), deferred tbl8 reuse); rte_lpm6, and
 * with --lookup fib rte_fib and rte_fib6, with a synchronize between a
 * delete that may free a tbl8 group and the next add (their groups have
 * no RCU in DPDK 22.11). Control thread only.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_rcu_qsbr.h>

#include "fwd_rt.h"
#include "fwd_tables.h"

/** 1: the control side waits for the lcores' quiescent states before it
 * reuses what a lookup may read (meson option fwd_rcu); 0 only in the
 * build that shows the churn test failing without. */
#ifndef FWD_RCU
#define FWD_RCU 1
#endif

/** Origins past fwd_rt_origin that only the control side makes. */
#define FWD_RIB_OWN   FWD_RT_NB_ORIGINS         /**< the router's addresses */
#define FWD_RIB_NEIGH (FWD_RT_NB_ORIGINS + 1)   /**< a neighbour's host route */
#define FWD_RIB_NB_ORIGINS (FWD_RT_NB_ORIGINS + 2)

/** A route the RIB holds. */
struct fwd_rib_rec {
	struct fwd_rt rt;   /**< as given, its prefix masked */
	uint32_t hop;       /**< its next hop in the tables (fwd_nh.h, or
	                     *   FWD_HOP_*) */
	uint8_t origin;     /**< enum fwd_rt_origin, or FWD_RIB_* */
	bool stale;         /**< FPM: not sent again since a reconnect */
};

/** What the RIB counts. */
struct fwd_rib_stats {
	uint64_t routes[2][FWD_RIB_NB_ORIGINS]; /**< held, [v6][origin] */
	uint64_t adds, replaces, dels;
	uint64_t refused_full;   /**< the table (or the RIB) is full */
	uint64_t refused_own;    /**< the prefix is the router's own */
	uint64_t refused_martian; /**< inside 0/8, 127/8, 224/4 */
	uint64_t not_found;      /**< a delete of a route not held */
	/** FPM routes of a connected prefix (--port-addr), not taken: the
	 * connected route stays. */
	uint64_t kept_connected;
	uint64_t syncs;          /**< rte_rcu_qsbr_synchronize() calls */
	uint32_t max_routes[2];  /**< room, [v6] */
};

struct fwd_rib;

/**
 * Make a RIB over the tables @p tabs (@p n of them: one per socket; the
 * first is the one routes are read back from), whose forwarding lcores
 * report to @p qsv (NULL: no lcore runs yet, nothing to wait for).
 * Attaches @p qsv to each rte_lpm (rte_lpm_rcu_qsbr_add()).
 *
 * @param max_routes
 *   Records of each family the RIB may hold ([0] IPv4, [1] IPv6).
 * @return The RIB, or NULL after app_err().
 */
struct fwd_rib *fwd_rib_create(struct fwd_tables *const *tabs, unsigned int n,
		struct rte_rcu_qsbr *qsv, const uint32_t max_routes[2]);

/** Free the RIB (not the tables). NULL is nothing. */
void fwd_rib_free(struct fwd_rib *rib);

/**
 * Add or replace the route of @p rt's prefix: @p hop into the tables.
 *
 * @param old
 *   Set to the hop of the record it replaced, or UINT32_MAX.
 * @return 0; 1 when an FPM route meets a connected prefix's route,
 *   which stays (nothing changed); -EEXIST when the prefix is the
 *   router's own (only FWD_RIB_OWN replaces it); -EINVAL inside a martian
 *   range (IPv4 0/8, 127/8, 224/4); -ENOSPC when the RIB or a table is
 *   full.
 */
int fwd_rib_set(struct fwd_rib *rib, const struct fwd_rt *rt, uint8_t origin,
		uint32_t hop, uint32_t *old);

/**
 * Delete the route of @p rt's prefix if it came from @p origin (the less
 * specific routes take its addresses again).
 *
 * @param old
 *   Set to the hop it had, or UINT32_MAX.
 * @return 0, or -ENOENT (no such route of that origin).
 */
int fwd_rib_del(struct fwd_rib *rib, const struct fwd_rt *rt, uint8_t origin,
		uint32_t *old);

/**
 * Set (@p hop below FWD_NH_MAX) or remove (@p hop UINT32_MAX) the host
 * route of a neighbour at @p ip: in the tables unless a route of the same
 * prefix is held, which wins.
 * @return 0, or -ENOSPC.
 */
int fwd_rib_host(struct fwd_rib *rib, bool v6, const uint8_t *ip,
		uint32_t hop);

/** The longest route holding @p ip, neighbours' host routes left out;
 * NULL for none (the default route included). */
const struct fwd_rib_rec *fwd_rib_match(const struct fwd_rib *rib, bool v6,
		const uint8_t *ip);

/** Mark every route of @p origin stale (an FPM peer reconnected). */
void fwd_rib_mark_stale(struct fwd_rib *rib, uint8_t origin);

/**
 * Delete every stale route of @p origin, telling @p gone the hop of each
 * (for its neighbour's reference).
 * @return How many went.
 */
unsigned int fwd_rib_sweep(struct fwd_rib *rib, uint8_t origin,
		void (*gone)(void *ctx, uint32_t hop), void *ctx);

/** Call @p fn for each route (no neighbour host route), in no order;
 * @p fn must not change the RIB. */
void fwd_rib_walk(const struct fwd_rib *rib,
		void (*fn)(void *ctx, const struct fwd_rib_rec *r), void *ctx);

/** The RIB's counters. */
const struct fwd_rib_stats *fwd_rib_stats(const struct fwd_rib *rib);

/** Mask @p ip (16 bytes, IPv4 in the first 4) to @p depth in place. */
void fwd_rt_mask(uint8_t *ip, uint8_t depth);

#endif /* FWD_RIB_H */
