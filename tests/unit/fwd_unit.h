/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_UNIT_H
#define FWD_UNIT_H

/*
 * What npool-fwd's unit tests share: a forwarding configuration made as
 * the app makes it (route files through fwd_routes_load(), the MACs
 * through fwd_tables_l2_prepare()), and the pipeline run on a burst as an
 * lcore runs it (fwd_burst.h), observed through its context, the
 * counters and what leaves each port: ports 0 .. FU_PORTS - 1 are rings
 * (rte_eth_from_rings()), each TX queue looped into its RX queue.
 */

#include <stdint.h>

#include <rte_mbuf.h>

#include "app_stats.h"
#include "fwd.h"
#include "fwd_route.h"
#include "fwd_route_fill.h"
#include "fwd_burst.h"

/* Ports the tests send to. */
#define FU_PORTS 4

/*
 * Fill @p fc for --lookup @p lookup and -p @p portmask from route file
 * texts @p r4 and @p r6 (written to temporary files, removed again),
 * MTU 1500, destination MAC 02:00:00:00:00:<port> and source MAC
 * 02:00:00:00:01:<port>. Fails the test when the routes do not load.
 * Free with fwd_routes_free().
 */
void fu_conf_init(struct fwd_conf *fc, enum fwd_lookup lookup,
		uint64_t portmask, const char *r4, const char *r6);

/* fu_conf_init() with the router's addresses @p addrs (fc->addrs; their
 * host routes loaded with the others). */
void fu_conf_init_addrs(struct fwd_conf *fc, enum fwd_lookup lookup,
		uint64_t portmask, const char *r4, const char *r6,
		struct fwd_addrs *addrs);

/* Load multicast routes of text @p text (--mroute) into @p fc after
 * fu_conf_init(); free with fwd_mroutes_free(). */
void fu_conf_mroutes(struct fwd_conf *fc, const char *text);

/*
 * Set -p to @p portmask after fu_conf_init() and fill the tables again
 * from the same routes, as the app would have: a route to a port left
 * out now looks up as FWD_HOP_BAD (fwd_routes_add()).
 */
void fu_conf_portmask(struct fwd_conf *fc, uint64_t portmask);

/* The MAC of port @p port in fu_conf_init()'s tables (02:00:00:00:01:
 * <port>): a frame to it is for the router. */
void fu_port_mac(uint16_t port, uint8_t mac[6]);

/*
 * The control side's end of the hold buffers as fwd_ctl_create() makes it,
 * without its thread: fc->t.hold a ring of exactly @p slots packets
 * (multi-producer, single consumer), fc->t.gate a zeroed gate
 * (struct fwd_hold_gate), its lock initialised. What the test takes off
 * the ring is the test's (the gate's counts stay as the lcores left them).
 * Free with fu_hold_free(), before fwd_routes_free().
 */
void fu_hold_init(struct fwd_conf *fc, unsigned int slots);

/* Free fu_hold_init()'s ring, the packets left on it and the gate;
 * fc->t.hold and fc->t.gate NULL again. @return The packets left. */
unsigned int fu_hold_free(struct fwd_conf *fc);

/* Ports 0 .. FU_PORTS - 1 as rings, started (once a process). */
void fu_ports_start(void);

/* A burst through the pipeline, with TX buffers and counters of its
 * own. */
struct fu_run {
	struct fwd_ctx c;
	struct fwd_tx tx;
	struct app_lcore_ctr ctr;
};

/* A run on @p fc's tables (counters zeroed), the ports started. */
void fu_run_init(struct fu_run *r, const struct fwd_conf *fc);

/*
 * fwd_burst_decide() of @p n packets received on @p in_port: the dropped
 * in r->c.drop / r->c.why (left there: fu_drops() or free them), what is
 * forwarded on the TX buffers (fu_out()).
 */
void fu_decide(struct fu_run *r, uint16_t in_port, struct rte_mbuf **pkts,
		uint16_t n);

/* fwd_burst_drops() of the last fu_decide(). */
void fu_drops(struct fu_run *r);

/*
 * What left port @p port since the last call, in order: the TX buffer
 * sent, and everything the port sent taken back (at most @p max, the
 * test fails past it). Returns how many.
 */
uint16_t fu_out(struct fu_run *r, uint16_t port, struct rte_mbuf **out,
		uint16_t max);

/*
 * One packet through the pipeline, received on @p in_port: its verdict, a
 * drop reason (the packet in r->c.drop[0] when fwd_classify() dropped it,
 * else freed: truncated chains, frag_fail), FWD_PASS (the packet that
 * left in *@p out, for the caller to free; its port in *@p port) or
 * FWD_FRAGMENT (the fragments freed; the port in *@p port). @p port and
 * @p out may be NULL.
 */
int fu_decide1(struct fu_run *r, uint16_t in_port, struct rte_mbuf *m,
		uint16_t *port, struct rte_mbuf **out);

#endif /* FWD_UNIT_H */
