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

struct fwd_ctl;

/** Start the thread. @return 0, or -1 after app_err(). */
int fwd_ctl_start(struct fwd_ctl *ctl);

/**
 * One turn of the thread's loop at @p now (ms, fwd_ctl_now_ms()'s
 * clock): the resolving objects that waited, the lcores' neighbour
 * events and held packets, the timers. The thread calls it under
 * fwd_ctl_lock; a test that never starts the thread calls it instead,
 * with a clock of its own. @return Work done (0: the thread may sleep).
 */
unsigned int fwd_ctl_poll(struct fwd_ctl *ctl, uint64_t now);

#endif /* FWD_CTL_H */
