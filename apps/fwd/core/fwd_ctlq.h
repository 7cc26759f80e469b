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

/**
 * Hand the @p n packets of an lcore's hold buffer to the control side's
 * ring @p r, each first copied into a packet of its own size (npool's
 * napi flavour; kept as it is without npool), so that what waits for a
 * neighbour holds no RX buffer. Lcore context.
 *
 * @param m
 *   The packets; their entries are replaced by the copies.
 * @return How many the ring took, in order: the caller drops the rest.
 */
uint16_t fwd_hold_hand(struct rte_ring *r, struct rte_mbuf **m, uint16_t n);

/** Tell the control side what was heard of a neighbour (t->nev), or
 * count it lost (neigh_ev_lost in @p ic) when its ring is full. Any
 * lcore. */
void fwd_nev_put(const struct fwd_tables *t, struct app_port_ctr *ic,
		const struct fwd_nev *ev);

#endif /* FWD_CTLQ_H */
