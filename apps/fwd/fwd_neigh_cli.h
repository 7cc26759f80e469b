/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_NEIGH_CLI_H
#define FWD_NEIGH_CLI_H

/**
 * @file
 * npool-fwd's permanent neighbours: --neigh and --neigh-file.
 */

#include "fwd.h"

/**
 * Parse one --neigh argument "PORT,ADDR,MAC" into fc->neigh: a permanent
 * neighbour (ip neigh ... nud permanent).
 * @return 0, or -1 after app_err() naming --neigh.
 */
int fwd_neigh_parse(struct fwd_conf *fc, const char *arg);

/**
 * Read --neigh-file ("ADDR lladdr MAC dev PORT [nud permanent]" a line,
 * '#' comments) into fc->neigh, and check every permanent neighbour's
 * port against -p; any sets fc->live. After the command line, before
 * fwd_routes_load().
 * @return 0, or -1 after app_err() naming the file and line or --neigh.
 */
int fwd_neigh_load(struct fwd_conf *fc);

#endif /* FWD_NEIGH_CLI_H */
