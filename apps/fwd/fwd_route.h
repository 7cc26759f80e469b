/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ROUTE_H
#define FWD_ROUTE_H

/**
 * @file
 * npool-fwd's route files (l3fwd's, or its default tables) loaded into
 * the tables of --lookup, a copy of them per socket, and their end.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fwd.h"

/**
 * Called for each route line fwd_routes_parse() skips because its port is
 * not enabled (l3fwd loads route files without those routes).
 *
 * @param ctx
 *   As given to fwd_routes_parse().
 * @param lineno
 *   The line (1-based).
 * @param r
 *   The route as written (port 0..255, outside the port mask).
 */
typedef void (*fwd_route_skip_t)(void *ctx, unsigned int lineno,
		const struct fwd_route *r);

/**
 * Parse an l3fwd route file, appending its routes to @p s: a line is
 * blank, a '#' comment, or "R<prefix>/<depth> <port>" (blanks around, a
 * comment after). Any NUL byte or a line of LINE_MAX bytes or more is an
 * error.
 *
 * @param f
 *   The file, read to its end (or to the first bad line).
 * @param v6
 *   IPv6 prefixes (inet_pton(AF_INET6)), else dotted-quad IPv4.
 * @param portmask
 *   Enabled ports (-p): a route to another port is skipped, as l3fwd
 *   does (@p skip is told), not added to @p s.
 * @param lineno
 *   Set to the number of the last line read (1-based; 0 for an empty
 *   file).
 * @param why
 *   Set to the reason of a bad line, else NULL.
 * @param skip
 *   Called for each skipped route, in file order; NULL: none is told.
 * @param ctx
 *   Passed to @p skip.
 * @return 0; -1 for a bad line (@p lineno, @p why); -2 when reading
 *   failed (errno set, e.g. EISDIR).
 */
int fwd_routes_parse(FILE *f, bool v6, uint64_t portmask,
		struct fwd_route_set *s, unsigned int *lineno, const char **why,
		fwd_route_skip_t skip, void *ctx);

/**
 * Load the routes (files or l3fwd's default tables) into new tables on
 * socket fc->socket_id of fc->t.lookup (rte_lpm and rte_lpm6, or rte_fib
 * and rte_fib6 with the fastest lookup function the CPU and EAL's SIMD
 * width allow); depth 0 becomes fc->t.def4 / fc->t.def6. Prints a line
 * per family and one naming the lookup. A file's routes to ports outside
 * fc->t.portmask are left out with a warning naming file:line each
 * (l3fwd leaves them out silently); l3fwd's default tables keep theirs
 * (packets matching them are dropped as bad_port).
 *
 * @return 0; -1 after app_err() naming file:line for a bad file (usage
 *   error); -2 after app_err() when the tables cannot be made (setup).
 */
int fwd_routes_load(struct fwd_conf *fc);

/**
 * Make @p dst a copy of @p src with tables of its own on @p socket,
 * filled from @p src's routes (which it shares: free @p dst first).
 * l3fwd's lookup struct per socket. Prints nothing on success.
 *
 * @return 0, or -2 after app_err() when the tables cannot be made.
 */
int fwd_routes_copy(struct fwd_conf *dst, const struct fwd_conf *src,
		int socket);

/** Free the route tables (any of them may be NULL), and the routes
 * unless shared. */
void fwd_routes_free(struct fwd_conf *fc);

#endif /* FWD_ROUTE_H */
