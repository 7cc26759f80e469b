/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTLMSG_H
#define FWD_CTLMSG_H

/**
 * @file
 * What npool-fwd's pipeline and its control thread (apps/fwd/ctl) tell
 * each other, over three rings the control side makes (fwd_tables.hold,
 * .nev, .cmd), as grout's datapath and control do:
 * - hold: the packets waiting for a neighbour (the lcores' hold buffers,
 *   fwd_nh.h), copied into packets of their own size first (the RX
 *   buffer goes back);
 * - nev: what the lcores heard of neighbours (ARP, NDP), for the
 *   neighbour table (Linux's arp_process(), ndisc_recv_ns(),
 *   ndisc_recv_na() feed neigh_update());
 * - cmd: what the control side asks one lcore (fwd_tables.cmd_lcore) to
 *   do: send a held packet, answer one it drops (ICMP unreachable), or
 *   solicit a neighbour (an ARP request, a neighbour solicitation). The
 *   pipeline builds every packet; the control side only decides.
 * Every packet the router sends itself leaves by its route
 * (fwd_route_out()), as Linux's ip_local_out().
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "fwd_nh.h"

/** What an lcore heard of a neighbour (fwd_nev.kind). */
enum fwd_nev_kind {
	/** An ARP request for one of the router's addresses: its sender
	 * is learnt (Linux: neigh_event_ns(), an entry made STALE). */
	FWD_NEV_ARP_REQ,
	/** Any other ARP (a reply, a request for another, gratuitous): an
	 * entry of its sender is updated, none made (arp_accept 0). */
	FWD_NEV_ARP,
	/** A neighbour solicitation for one of the router's addresses,
	 * with the source's link-layer address: learnt as STALE. */
	FWD_NEV_NS,
	/** A neighbour advertisement: an entry of its target updated. */
	FWD_NEV_NA,
};

/** fwd_nev.flags */
#define FWD_NEV_F_MAC       0x01 /**< @c mac is given */
#define FWD_NEV_F_HOST      0x02 /**< ARP: a reply unicast to the port */
#define FWD_NEV_F_GARP      0x04 /**< ARP: sender address = target's */
#define FWD_NEV_F_SOLICITED 0x08 /**< NA: S flag */
#define FWD_NEV_F_OVERRIDE  0x10 /**< NA: O flag */
#define FWD_NEV_F_ROUTER    0x20 /**< NA: R flag */

/** A neighbour event (the nev ring's element). */
struct fwd_nev {
	uint8_t ip[16];   /**< the neighbour: IPv4 in the first 4 bytes */
	struct rte_ether_addr mac;
	uint8_t kind;     /**< enum fwd_nev_kind */
	uint8_t flags;    /**< FWD_NEV_F_* */
	uint16_t port;    /**< received on */
	uint8_t v6;
	uint8_t pad[5];
};

/** What the control side asks (fwd_cmd.kind). */
enum fwd_cmd_kind {
	/** Send @c m out of @c port, its MACs from @c eth (a held packet
	 * whose neighbour is resolved). */
	FWD_CMD_SEND,
	/** Drop @c m as @c why (counted on the port it came in on, and
	 * taken off its forwarded count: the pass counted it), answered as
	 * the router answers that reason (fwd_local_input()). */
	FWD_CMD_ANSWER,
	/** Solicit @c ip on @c port from address @c src: an ARP request or
	 * a neighbour solicitation, to @c eth's destination MAC, or
	 * broadcast / the solicited-node group when it is zero. */
	FWD_CMD_SOLICIT,
};

/** A command (the cmd ring's element). */
struct fwd_cmd {
	struct rte_mbuf *m;  /**< SEND, ANSWER */
	uint8_t ip[16];      /**< SOLICIT: the target */
	uint8_t src[16];     /**< SOLICIT: the source of the packet
	                      *   waiting for the neighbour, or zero */
	uint8_t eth[12];     /**< SEND: destination and source MAC;
	                      *   SOLICIT: the destination MAC, or zero */
	uint16_t port;       /**< SEND, SOLICIT */
	uint8_t kind;        /**< enum fwd_cmd_kind */
	uint8_t why;         /**< ANSWER: enum fwd_reason */
	uint8_t v6;          /**< SOLICIT */
	uint8_t pad[7];
};

/**
 * The gate between the lcores' hold buffers and the control side's
 * resolving next hops (fwd_tables.gate), so that no packet held for a
 * neighbour leaves after one the fast path sends by it, as Linux's
 * neighbour lock orders __neigh_event_send()'s queueing and
 * neigh_update()'s flush. Under @c lock an lcore looks again at the next
 * hop of each packet of its hold buffer (fwd_hold_hand()): one resolved
 * meanwhile gets its packets sent at once, before the lcore's TX buffers
 * (what it sent by the new object); the others go on the hold ring and
 * are counted in @c inflight. Under the same lock the control side
 * publishes a resolving object only when none of its packets, nor of its
 * port's own next hop, is on the ring (fwd_ctl_publish_neigh()).
 */
struct fwd_hold_gate {
	rte_spinlock_t lock;
	/** Per next-hop id, its packets on the hold ring: added by the
	 * lcores under @c lock, taken off by the control side as it
	 * dequeues them. */
	uint32_t inflight[FWD_NH_MAX];
};

/** Elements of the nev ring: an lcore drops what does not fit (counted
 * neigh_ev_lost), as Linux drops ARP past its backlog. */
#define FWD_NEV_RING 1024
/** Packets of the hold ring. */
#define FWD_HOLD_RING 4096
/** Elements of the cmd ring. */
#define FWD_CMD_RING 4096

#endif /* FWD_CTLMSG_H */
