/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_LCORE_H
#define FWD_LCORE_H

/**
 * @file
 * The forwarding loop of one lcore, which main() launches on every lcore
 * (rte_eal_mp_remote_launch(), as l3fwd): RX bursts from its queues, each
 * through the pipeline (fwd_burst.h), every packet that leaves on its
 * per-port TX buffers (fwd_ctx.h), sent when one holds a burst and at the
 * end of each poll round. With a control thread (live routes,
 * neighbours), a quiescent state reported at the end of each round
 * (rte_rcu_qsbr), and on one lcore its commands carried out. The
 * pipeline owns what each lcore forwards with and counts in; main() sets
 * it up before the launch.
 */

#include <stdint.h>

#include <rte_lcore.h>

#include "app_ctr.h"
#include "fwd_ctx.h"

/** What one lcore forwards with. */
struct fwd_lcore {
	/** Its socket's tables; NULL: it forwards nothing. */
	const struct fwd_tables *t;
	/** The loop ends once this is set. */
	const volatile int *quit;
	uint16_t txq;     /**< its TX queue on every port */
	uint16_t nb_rxq;  /**< RX queues it polls, in this order */
	struct {
		uint16_t port;
		uint16_t queue;
	} rxq[APP_MAX_RXQ_PER_LCORE];
	struct fwd_tx tx; /**< its TX buffers, while it runs */
};

/** Each lcore's, by lcore id: main() fills t, quit, txq and rxq. */
extern struct fwd_lcore fwd_lcores[RTE_MAX_LCORE];

/** Each lcore's counters, by lcore id: received, forwarded, dropped by
 * reason, the router's events (the control thread counts in a slot no
 * lcore has). */
extern struct app_lcore_ctr fwd_ctr[RTE_MAX_LCORE];

/** The loop of the calling lcore (lcore_function_t, @p arg unused);
 * returns at once on an lcore that forwards nothing. */
int fwd_lcore_main(void *arg);

#endif /* FWD_LCORE_H */
