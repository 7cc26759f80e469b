/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_REPORT_H
#define FWD_CTL_REPORT_H

/**
 * @file
 * What npool-fwd's control side says of itself: routes by origin and
 * the RIB's counters, each neighbour with its state and queue, the
 * neighbour tables' counters; at the end of the report, in --json and
 * over DPDK telemetry while it runs.
 */

#include <stdio.h>

#include "app_json.h"
#include "fwd_ctl.h"

/** The control side's part of --json: "routes", "neighbours". */
void fwd_ctl_json(struct fwd_ctl *ctl, struct app_json *j);

/** Its lines at the end of the report. */
void fwd_ctl_print(struct fwd_ctl *ctl, FILE *f);

/**
 * Answer the telemetry commands /fwd/routes, /fwd/route,ADDR and
 * /fwd/neigh,4|6[,first] about @p ctl (registered once, the first time),
 * until fwd_ctl_tel_forget(). Main lcore.
 */
void fwd_ctl_tel_register(struct fwd_ctl *ctl);

/** Stop answering about @p ctl (before it is freed). */
void fwd_ctl_tel_forget(const struct fwd_ctl *ctl);

#endif /* FWD_CTL_REPORT_H */
