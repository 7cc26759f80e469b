/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_MROUTE_H
#define FWD_MROUTE_H

/**
 * @file
 * npool-fwd's multicast routes, the control side: the route file
 * (--mroute), loading it into fwd_tables.mroutes, and what the report,
 * --json and telemetry say of them. The routes and what the pipeline does
 * with them: core/fwd_mcast.h.
 */

#include <stdint.h>
#include <stdio.h>

#include "fwd.h"
#include "fwd_mcast.h"

/**
 * Parse a route file (the file's comment), appending to @p s.
 *
 * @param portmask
 *   Enabled ports (-p): every port of a route must be one.
 * @param lineno
 *   Set to the number of the last line read (1-based).
 * @param why
 *   Set to the reason of a bad line, else NULL.
 * @return 0; -1 for a bad line (@p lineno, @p why): syntax, an address
 *   that is no unicast source or no routable group (224.0.0.0/24 and
 *   IPv6 scopes up to link-local are never routed), families that
 *   differ, a port out of -p, an output port given twice or equal to the
 *   input port, a TTL out of 1..254, more than FWD_MROUTE_MAX routes;
 *   -2 when reading failed (errno set).
 */
int fwd_mroutes_parse(FILE *f, uint64_t portmask, struct fwd_mroute_set *s,
		unsigned int *lineno, const char **why);

/**
 * Load --mroute @p path into fc->t.mroutes: parse, refuse a route given
 * twice (naming both lines), make the hash and the per-lcore counters of
 * the lcores EAL runs, register the telemetry commands. Prints a line
 * saying how many routes. Main lcore, after EAL.
 *
 * @return 0; -1 after app_err() naming --mroute and file:line (usage);
 *   -2 after app_err() when memory lacks (setup).
 */
int fwd_mroutes_load(struct fwd_conf *fc, const char *path);

/** Free fc->t.mroutes (NULL: nothing) and set it NULL. */
void fwd_mroutes_free(struct fwd_conf *fc);

/** The counters of route @p i over all lcores (relaxed reads). Any
 * thread. */
void fwd_mroutes_sum(const struct fwd_mroutes *mr, unsigned int i,
		struct fwd_mroute_ctr *sum);

struct app_json;

/** The report's lines: one per route with its counters. */
void fwd_mroutes_print(FILE *f, const struct fwd_mroutes *mr);

/** --json: "mroutes", one object per route (NULL: nothing). */
void fwd_mroutes_json(struct app_json *j, const struct fwd_mroutes *mr);

#endif /* FWD_MROUTE_H */
