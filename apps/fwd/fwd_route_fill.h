/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ROUTE_FILL_H
#define FWD_ROUTE_FILL_H

/**
 * @file
 * npool-fwd's route tables of one family made (rte_lpm, rte_lpm6,
 * rte_fib, rte_fib6) and filled from a route set.
 */

#include <stdbool.h>

#include "fwd.h"

/**
 * Add routes to the existing tables of fc->t.lookup, fc->t.lpm4 or fc->t.fib4
 * (fc->t.lpm6 or fc->t.fib6 with @p v6), in order: a later route of the same
 * prefix replaces the port, depth 0 sets fc->t.def4 (fc->t.def6). A route to
 * a port outside fc->t.portmask is added with next hop FWD_HOP_BAD, an IPv4
 * route inside a martian destination range with FWD_HOP_MARTIAN.
 *
 * @param failed
 *   Set to the index of the route that could not be added.
 * @return 0, or the negative errno of rte_lpm_add()/rte_lpm6_add()
 *   (-ENOSPC: no rule or tbl8 room left) or rte_fib_add()/rte_fib6_add()
 *   (-ENOSPC, -ENOMEM).
 */
int fwd_routes_add(struct fwd_conf *fc, const struct fwd_route_set *s,
		bool v6, unsigned int *failed);

/**
 * Make the tables of one family (@p v6) of fc->t.lookup (LPM or FIB, sized
 * for @p s), add the martian IPv4 ranges (0/8, 127/8, 224/4 and
 * 255.255.255.255 to FWD_HOP_MARTIAN) and @p s to them (fwd_routes_add()).
 *
 * @return 0; -2 after app_err() when a table cannot be made or a route
 *   not added (setup error).
 */
int fwd_routes_fill(struct fwd_conf *fc, const struct fwd_route_set *s,
		bool v6);

/** Free the route tables only (any of them may be NULL). */
void fwd_routes_free_tables(struct fwd_conf *fc);

#endif /* FWD_ROUTE_FILL_H */
