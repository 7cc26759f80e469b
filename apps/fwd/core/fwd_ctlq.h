/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTLQ_H
#define FWD_CTLQ_H

/**
 * @file
 * What an lcore hands npool-fwd's control thread over its rings
 * (fwd_ctlmsg.h): the packets waiting for a neighbour, and what it heard
 * of neighbours. The command lcore carries out what the thread asks back
 * (fwd_lcore.c).
 */

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "app_ctr.h"
#include "fwd_tables.h"

/** An lcore's hold buffer as fwd_hold_hand() hands it. */
struct fwd_hold_batch {
	/** In: the packets; out: m[0 .. @c held) those for the ring, each
	 * replaced by its copy. */
	struct rte_mbuf **m;
	uint16_t n;            /**< in: how many */
	uint16_t held;         /**< out: how many went for the ring */
	/** Out: those whose next hop resolved while they waited in the
	 * buffer, their MACs written, in order, and their ports: room for
	 * @c n each. */
	struct rte_mbuf **late;
	uint16_t *late_port;
	uint16_t nlate;        /**< out: how many */
};

/**
 * Hand an lcore's hold buffer @p b to the control side's ring
 * (t->hold), each packet first copied into a packet of its own size
 * (npool's napi flavour; kept as it is without npool), so that what
 * waits for a neighbour holds no RX buffer. Under the gate's lock
 * (struct fwd_hold_gate) each packet's next hop is looked at again (a
 * packet held by its port's own next hop routed again): a packet whose
 * next hop resolved since the pass held it goes to b->late, for the
 * caller to send before anything else by that next hop; the others go
 * on the ring, counted in the gate. Lcore context.
 *
 * @return How many of b->m[0 .. b->held) the ring took, in order: the
 *   caller drops the rest.
 */
uint16_t fwd_hold_hand(const struct fwd_tables *t, struct fwd_hold_batch *b);

/** Tell the control side what was heard of a neighbour (t->nev), or
 * count it lost (neigh_ev_lost in @p ic) when its ring is full. Any
 * lcore. */
void fwd_nev_put(const struct fwd_tables *t, struct app_port_ctr *ic,
		const struct fwd_nev *ev);

#endif /* FWD_CTLQ_H */
