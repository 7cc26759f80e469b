/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_H
#define FWD_CTL_H

/**
 * @file
 * npool-fwd's control thread: the one writer of the tables while the
 * lcores run. It owns the routing information base (fwd_rib.h), the
 * neighbour tables (fwd_neigh.h) and the next-hop objects (fwd_nh.h),
 * reads what the lcores hand it (held packets, neighbour events:
 * fwd_ctlmsg.h) and tells one lcore what to send. Every object a lookup
 * may read is freed after the forwarding lcores have each passed a
 * quiescent state (rte_rcu_qsbr). A plain pthread, not an lcore: it
 * sleeps (1 ms at most) when it has nothing to do.
 */

#include <stdint.h>

#include "fwd_ctl_conf.h"
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

/** Start the thread. @return 0, or -1 after app_err(). */
int fwd_ctl_start(struct fwd_ctl *ctl);

#endif /* FWD_CTL_H */
