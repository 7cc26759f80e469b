/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_UNIT_H
#define FWD_UNIT_H

/*
 * What npool-fwd's unit tests share: a forwarding configuration made as
 * the app makes it (route files through fwd_routes_load(), the egress
 * MACs through fwd_conf_l2_prepare()).
 */

#include <stdint.h>

#include "fwd.h"

/*
 * Fill @p fc for --lookup @p lookup and -p @p portmask from route file
 * texts @p r4 and @p r6 (written to temporary files, removed again),
 * MTU 1500, destination MAC 02:00:00:00:00:<port> and source MAC
 * 02:00:00:00:01:<port>. Fails the test when the routes do not load.
 * Free with fwd_routes_free().
 */
void fu_conf_init(struct fwd_conf *fc, enum fwd_lookup lookup,
		uint64_t portmask, const char *r4, const char *r6);

/* fu_conf_init() with the router's addresses @p addrs (fc->addrs; their
 * host routes loaded with the others). */
void fu_conf_init_addrs(struct fwd_conf *fc, enum fwd_lookup lookup,
		uint64_t portmask, const char *r4, const char *r6,
		struct fwd_addrs *addrs);

/* Load multicast routes of text @p text (--mroute) into @p fc after
 * fu_conf_init(); free with fwd_mroutes_free(). */
void fu_conf_mroutes(struct fwd_conf *fc, const char *text);

/*
 * Set -p to @p portmask after fu_conf_init() and fill the tables again
 * from the same routes, as the app would have: a route to a port left
 * out now looks up as FWD_HOP_BAD (fwd_routes_add()).
 */
void fu_conf_portmask(struct fwd_conf *fc, uint64_t portmask);

#endif /* FWD_UNIT_H */
