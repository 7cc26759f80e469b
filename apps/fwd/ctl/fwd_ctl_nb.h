/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_NB_H
#define FWD_CTL_NB_H

/**
 * @file
 * What the neighbour tables (fwd_neigh.h) do through npool-fwd's control
 * thread: send, solicit, drop or answer, publish a next hop, make or
 * remove a host route.
 */

#include "fwd_neigh_table.h"

/** The operations, their context the control side (struct fwd_ctl). */
extern const struct fwd_neigh_ops fwd_ctl_nb_ops;

#endif /* FWD_CTL_NB_H */
