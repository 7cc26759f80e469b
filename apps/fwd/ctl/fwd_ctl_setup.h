/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_SETUP_H
#define FWD_CTL_SETUP_H

/**
 * @file
 * npool-fwd's control side made, stopped and taken down (fwd_ctl.h).
 */

#include "fwd_ctl.h"

/**
 * Make the control side: its rings, the quiescent-state variable and the
 * next-hop objects of the resolving ports, set in every table of @p c;
 * the RIB over the tables; the neighbour tables with the permanent
 * entries. Main lcore, before the lcores run.
 *
 * @return The control side, or NULL after app_err().
 */
struct fwd_ctl *fwd_ctl_create(const struct fwd_ctl_conf *c);

/**
 * Stop the thread (after the lcores: nothing is read any more) and give
 * back every packet it holds or its rings hold (counted unres_discard);
 * the routes and neighbours stay for the report. NULL is nothing.
 */
void fwd_ctl_stop(struct fwd_ctl *ctl);

/**
 * fwd_ctl_stop(), then free every object, the RIB and the neighbour
 * tables, and take the rings out of the tables (before they are freed).
 * NULL is nothing.
 */
void fwd_ctl_free(struct fwd_ctl *ctl);

#endif /* FWD_CTL_SETUP_H */
