/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_ROUTE_H
#define FWD_CTL_ROUTE_H

/**
 * @file
 * Routes through npool-fwd's control thread (fwd_ctl.h): placed in the
 * RIB (fwd_rib.h) with their gateways' neighbours, removed, FPM's routes
 * taken (fwd_fpm.h's sink).
 */

#include <stdbool.h>
#include <stdint.h>

#include "fwd_fpm.h"
#include "fwd_neigh_table.h"
#include "fwd_rt.h"

struct fwd_ctl;

/**
 * Add (or replace) a route: a unicast route by a gateway takes the
 * gateway's neighbour (made if need be; its port the one whose connected
 * prefix holds it when @p rt names none), one on a link its port's own
 * next hop, the others their FWD_HOP_*. Its prefix's neighbours get or
 * lose their host routes as it says. Control thread, or main before the
 * thread runs (the routes of the files).
 *
 * @param origin
 *   FWD_RT_FILE, FWD_RT_CONNECTED or FWD_RT_FPM.
 * @param why
 *   Set to the reason when the route is refused.
 * @return 0, or a negative errno with @p why: -EINVAL (a gateway on no
 *   port's prefix, a port not enabled, a martian prefix), -EEXIST (the
 *   router's own address), -ENOSPC (a table or the neighbour table is
 *   full).
 */
int fwd_ctl_add(struct fwd_ctl *ctl, const struct fwd_rt *rt, uint8_t origin,
		const char **why);

/** Hold a route of the router's own (@p hop FWD_HOP_LOCAL or
 * FWD_HOP_BCAST), already in the tables, so that no other replaces it.
 * @return 0, or -ENOSPC. */
int fwd_ctl_add_own(struct fwd_ctl *ctl, const struct fwd_rt *rt,
		uint32_t hop);

/** Delete the route of @p rt's prefix if it came from @p origin.
 * @return 0, or -ENOENT. */
int fwd_ctl_del(struct fwd_ctl *ctl, const struct fwd_rt *rt,
		uint8_t origin);

/** Whether neighbour @p n should have a host route: the route holding
 * its address is one on its port's link. Control thread. */
bool fwd_ctl_host_ok(const struct fwd_ctl *ctl, const struct fwd_neigh *n);

/** What the FPM reader gives the RIB: its routes and resynchronisations
 * (fwd_fpm.h). */
extern const struct fwd_fpm_sink fwd_ctl_fpm_sink;

#endif /* FWD_CTL_ROUTE_H */
