/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTLQ_H
#define FWD_CTLQ_H

/**
 * @file
 * The pipeline's side of the control rings (fwd_ctlmsg.h): what an lcore
 * hands the control thread and what it does for it.
 */

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fwd_ctx.h"

/** Bursts of commands fwd_cmd_poll() carries out at most: a queue that
 * resolution sent (up to a few hundred packets) leaves in a loop turn
 * or two, the RX bursts of the turn not delayed by more than that. */
#define FWD_CMD_POLL_BURSTS 8

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

/**
 * Send @p m, a packet the router made (its Ethernet and IP headers
 * written), by the route to its IP destination, as Linux's
 * ip_local_out(): the next hop's MACs, its TX buffer (the hold buffer
 * when its neighbour is not resolved). Without a route (or with --lookup
 * em) it is freed, counted no_route_back on c->in_port.
 */
void fwd_route_out(struct fwd_ctx *c, struct rte_mbuf *m);

/** Carry out what the control side asks (t->cmd), up to
 * FWD_CMD_POLL_BURSTS bursts of it, and count them in t->cmd_done: on
 * lcore t->cmd_lcore, once a loop turn, after its RX bursts. */
void fwd_cmd_poll(struct fwd_ctx *c);

#endif /* FWD_CTLQ_H */
