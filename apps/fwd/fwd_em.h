/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_EM_H
#define FWD_EM_H

/**
 * @file
 * --lookup em, the control side: l3fwd's exact-match routes
 * (examples/l3fwd/l3fwd_em.c of DPDK 22.11). A route is a 5-tuple
 * (destination, source, destination port, source port, protocol) and a
 * port, from l3fwd's EM route files ("R<dst> <src> <dport> <sport>
 * <proto> <port>") or its default tables, into rte_hash tables of the
 * keys of core/fwd_em_key.h.
 */

#include <stdbool.h>

#include "fwd.h"
#include "fwd_em_key.h"

/** One EM route. */
struct fwd_em_rule {
	union {
		struct fwd_em_key4 k4;
		struct fwd_em_key6 k6;
	};
	uint16_t port;
	unsigned int line;   /**< of its file, 0 = l3fwd's table */
};

/** Load the EM routes and make the tables (fwd_routes_load() for
 * --lookup em). @return 0, -1 (bad file, app_err() done), -2 (setup). */
int fwd_em_load(struct fwd_conf *fc);

/** Tables of @p dst (a copy of @p src) on its socket. @return 0, -2. */
int fwd_em_fill(struct fwd_conf *dst);

/** Free the EM tables; the rules too unless shared. */
void fwd_em_free(struct fwd_conf *fc, bool tables_only);

#endif /* FWD_EM_H */
