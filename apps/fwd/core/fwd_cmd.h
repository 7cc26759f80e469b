/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CMD_H
#define FWD_CMD_H

/**
 * @file
 * What npool-fwd's control thread asks one lcore to do (fwd_ctlmsg.h's
 * commands: send, answer, solicit), and how every packet the router
 * sends itself leaves: by its route.
 */

#include <rte_mbuf.h>

#include "fwd_ctx.h"

/** Bursts of commands fwd_cmd_poll() carries out at most: a queue that
 * resolution sent (up to a few hundred packets) leaves in a loop turn
 * or two, the RX bursts of the turn not delayed by more than that. */
#define FWD_CMD_POLL_BURSTS 8

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

#endif /* FWD_CMD_H */
