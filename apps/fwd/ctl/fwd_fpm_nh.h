/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_NH_H
#define FWD_FPM_NH_H

/**
 * @file
 * The FPM reader's next hops: the table by id, and zebra's
 * RTM_NEWNEXTHOP / RTM_DELNEXTHOP into it.
 */

#include <stdint.h>
#include <linux/netlink.h>

#include "fwd_fpm_pvt.h"

/* RTM_NEWNEXTHOP / RTM_DELNEXTHOP into the table. */
void fpm_nl_nexthop(struct fwd_fpm *f, const struct nlmsghdr *h);

/* Make the table (empty, bound @p max). */
void fpm_nh_init(struct fpm_nh_tab *t, uint32_t max);

/* Free its memory. */
void fpm_nh_fini(struct fpm_nh_tab *t);

/* The next hop @p id, or NULL. */
const struct fpm_nh *fpm_nh_find(const struct fpm_nh_tab *t, uint32_t id);

/* Add or replace @p nh (by its id, not 0).
 * @return 0 added, 1 replaced, -ENOSPC (bound) or -ENOMEM. */
int fpm_nh_put(struct fpm_nh_tab *t, const struct fpm_nh *nh);

/* Remove @p id. @return 0, or -ENOENT. */
int fpm_nh_del(struct fpm_nh_tab *t, uint32_t id);

#endif /* FWD_FPM_NH_H */
