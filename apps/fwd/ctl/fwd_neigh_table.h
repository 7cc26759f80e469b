/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_NEIGH_TABLE_H
#define FWD_NEIGH_TABLE_H

/**
 * @file
 * npool-fwd's neighbour tables (fwd_neigh.h has the entries, their
 * states and what a table's owner gives it): one per family, made with
 * Linux's defaults, found by (port, address) or next hop, fed what the
 * lcores heard, ticked for timers and garbage collection. Control thread
 * only.
 */

#include <stdbool.h>
#include <stdint.h>

#include "fwd_neigh.h"

/** Fill @p p with Linux's defaults (ARP's, or NDP's with @p v6). */
void fwd_neigh_parms_default(struct fwd_neigh_parms *p, bool v6);

/**
 * Make a table of (port, address) entries of one family, at most
 * p->gc_thresh3 of them past the permanent ones.
 *
 * @param v6
 *   NDP (IPv6) rather than ARP (IPv4).
 * @param nh_of
 *   Called to take a next-hop id for a new entry (its object is the
 *   caller's business: ops->publish); returns FWD_NH_MAX when none is
 *   left. @p nh_put gives one back.
 * @return The table, or NULL (no memory).
 */
struct fwd_neigh_tbl *fwd_neigh_tbl_create(const struct fwd_neigh_parms *p,
		bool v6, const struct fwd_neigh_ops *ops, void *ctx,
		uint32_t (*nh_get)(void *ctx), void (*nh_put)(void *ctx,
			uint32_t nh));

/** Remove every entry (their queued packets dropped, nothing
 * answered), free the table. NULL is nothing. */
void fwd_neigh_tbl_free(struct fwd_neigh_tbl *tbl);

/** The entry of @p ip on @p port, or NULL. */
struct fwd_neigh *fwd_neigh_lookup(struct fwd_neigh_tbl *tbl, uint16_t port,
		const uint8_t *ip);

/**
 * The entry of @p ip on @p port, made (NONE, nothing sent) when there is
 * none, after a forced garbage collection when the table is full (Linux's
 * neigh_create()).
 * @return The entry, or NULL when the table is full of entries that may
 *   not go (counted table_fulls) or no next hop is left.
 */
struct fwd_neigh *fwd_neigh_get(struct fwd_neigh_tbl *tbl, uint16_t port,
		const uint8_t *ip, uint64_t now);

/** The entry whose next hop is @p nh, or NULL. */
struct fwd_neigh *fwd_neigh_of_nh(struct fwd_neigh_tbl *tbl, uint32_t nh);

/** What an lcore heard (fwd_ctlmsg.h) applied as arp_process(),
 * ndisc_recv_ns() and ndisc_recv_na() apply it. */
void fwd_neigh_event(struct fwd_neigh_tbl *tbl, const struct fwd_nev *ev,
		uint64_t now);

/**
 * Set a permanent entry (ip neigh replace ... nud permanent): its
 * address @p mac, never solicited nor collected.
 * @return 0, or -ENOSPC when no entry can be made or the table holds
 *   FWD_NEIGH_PERM_MAX permanent ones already.
 */
int fwd_neigh_set_permanent(struct fwd_neigh_tbl *tbl, uint16_t port,
		const uint8_t *ip, const struct rte_ether_addr *mac,
		uint64_t now);

/** Run the timers due at @p now and the periodic garbage collection.
 * @return When to call it next (ms). */
uint64_t fwd_neigh_tick(struct fwd_neigh_tbl *tbl, uint64_t now);

/** The entries of the table, in no order: from @p *i = 0, the next one,
 * @p *i set past it; NULL after the last. */
struct fwd_neigh *fwd_neigh_next(struct fwd_neigh_tbl *tbl, uint32_t *i);

/** Entries in the table now. */
uint32_t fwd_neigh_count(const struct fwd_neigh_tbl *tbl);

/** The table's counters. */
const struct fwd_neigh_stats *fwd_neigh_stats(const struct fwd_neigh_tbl *tbl);

#endif /* FWD_NEIGH_TABLE_H */
