/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_HOLD_UNIT_H
#define FWD_HOLD_UNIT_H

/*
 * What the hold gate's tests (fwd_hold_test.c, fwd_hold_ctl.c) share:
 * npool-fwd's configuration of three ports (senders on port 0,
 * destinations on ports 1 and 2), the packets they make and send
 * through the pipeline, and the checks of what the ports and the hold
 * ring carry (fwd_hold_unit.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "fwd_unit.h"

/* Neighbours' next hops (above the ports' own) and their hosts (host
 * order; DPDK 22.11's RTE_IPV4() shifts an int: UB past 127). */
#define HOST4(c, d) ((uint32_t)198 << 24 | 18u << 16 | (c) << 8 | (d))
#define NH_X (RTE_MAX_ETHPORTS + 7)
#define NH_Y (RTE_MAX_ETHPORTS + 9)
#define NH_Z (RTE_MAX_ETHPORTS + 12)
#define HOST_X HOST4(1u, 5u)
#define HOST_Y HOST4(1u, 7u)
#define HOST_Z HOST4(2u, 5u)
/* On port 1's link, no host route: held by port 1's own next hop. */
#define HOST_LINK HOST4(1u, 6u)
#define ALL_PORTS ((1ull << FU_PORTS) - 1)
/* Packets port 0 counted hold_late. */
#define LATE (run.ctr.port[0].ev[FWD_EV_HOLD_LATE])

extern const uint8_t host6_x[16];
extern const struct rte_ether_addr sender_mac, mac_x, mac_z;
extern struct rte_mempool *pool;
extern struct fwd_conf fc;
extern struct fu_run run;
/* Objects the tests publish: the control side's would be malloc'd. */
extern struct fwd_nh obj[4];

/* Packets taken off a port or the ring: their numbers and first 12
 * bytes, the mbufs freed. */
struct taken {
	unsigned int n;
	uint8_t seq[16];
	uint8_t mac[16][2 * RTE_ETHER_ADDR_LEN];
};

/* A packet to @p dst (IPv6: to host6_x) received on port 0, numbered
 * @p seq. */
struct rte_mbuf *pkt(bool v6, uint32_t dst, uint8_t seq);
/* A packet's number (pkt()). */
uint8_t seq_of(const struct rte_mbuf *m);
/* @p n IPv4 packets to @p dst, numbered from @p seq, through the
 * pipeline on port 0. */
void send4(uint32_t dst, uint8_t seq, uint16_t n);
/* Next hop @p id's object as the control side publishes it, into
 * obj[@p k]: holding (@p mac NULL) or resolving to @p mac out of
 * @p port. */
void publish(unsigned int k, uint32_t id, const struct rte_ether_addr *mac,
		uint16_t port);
/* @p ip's host route pointed at next hop @p id. */
void host_route(uint32_t ip, uint32_t id);
/* The 12 bytes a packet held by @p id carries from @p port. */
void hold_eth(uint32_t id, uint16_t port,
		uint8_t eth[2 * RTE_ETHER_ADDR_LEN]);
void take(struct taken *t, struct rte_mbuf **m, unsigned int n);
/* The hold ring carries @p n packets numbered @p seqs held by @p ids
 * from @p port, and is then empty. */
void check_ring(unsigned int n, const uint8_t *seqs, const uint32_t *ids,
		uint16_t port);
/* @p port sent @p n packets numbered @p seqs by @p nh. */
void check_port(uint16_t port, unsigned int n, const uint8_t *seqs,
		const struct fwd_nh *nh);
/* No port sent anything. */
void check_no_port(void);
/* The gate counts @p n for @p id, @p n2 for @p id2, 0 for the others. */
void check_inflight(uint32_t id, uint32_t n, uint32_t id2, uint32_t n2);

/* The configuration and the test's pool; teardown_conf() frees them and
 * fails on a missing mbuf, a leak or @p bad. */
int setup_conf(void **state);
int teardown_conf(void **state, int bad);
/* setup_conf() and the hold ring; teardown() frees what a test left. */
int setup(void **state);
int teardown(void **state);

/* fwd_hold_ctl.c: the control thread's side of the gate. */
void test_ctl_gap_not_forced(void **state);
void test_ctl_stream_forced(void **state);
int setup_ctl(void **state);
int teardown_ctl(void **state);

#endif /* FWD_HOLD_UNIT_H */
