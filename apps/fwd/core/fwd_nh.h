/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_NH_H
#define FWD_NH_H

/**
 * @file
 * npool-fwd's next hops, as the pipeline reads them. A route table (LPM,
 * FIB, EM) names a next hop by its index below FWD_NH_MAX; the next-hop
 * table turns the index into an object holding what a packet leaving by
 * it gets: its two MACs (the 12 bytes the one pass stores) and the TX
 * buffer it goes on. Indexes below RTE_MAX_ETHPORTS are the ports' own
 * next hops (l3fwd's: every packet out of port p to --eth-dest p, or to
 * the neighbour the control side resolves for a port with --port-addr);
 * the others are neighbours the control side made (a gateway, or a host
 * on a connected prefix, reached by a host route).
 *
 * An object never changes while a lookup may read it: the control thread
 * writes a new one and swaps the table's pointer (one aligned store), and
 * frees the old one after every forwarding lcore has passed a quiescent
 * state (rte_rcu_qsbr). A next hop whose neighbour is not resolved (or is
 * stale: the control side sees its first use) sends its packets to the
 * hold buffer (FWD_TX_HOLD), which the lcore hands to the control side:
 * the same store, no test in the pass. Its destination MAC then carries
 * the object's index (fwd_nh_hold_id()), so that the control side knows
 * which neighbour a held packet waits for.
 */

#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>

/** Next hops a route table can name: indexes 0 .. FWD_NH_MAX - 1. A power
 * of two below every special next hop of fwd_tables.h (FWD_HOP_*), so
 * that one mask tells a next hop from them. */
#define FWD_NH_MAX 0x4000u

/** The TX buffer of packets waiting for a neighbour: handed to the
 * control side, not to a port. */
#define FWD_TX_HOLD RTE_MAX_ETHPORTS

/** TX buffers of an lcore: one per port and the hold buffer. */
#define FWD_TX_NB (RTE_MAX_ETHPORTS + 1)

/** A next hop: what a packet sent by it gets and where it goes. */
struct fwd_nh {
	/** Destination and source MAC, then 4 zero bytes: the one pass
	 * copies the first 12. */
	uint8_t eth16[16];
	/** The TX buffer: the egress port, or FWD_TX_HOLD. */
	uint16_t tx;
	/** The egress port (its MTU, its MAC), whatever @c tx is. */
	uint16_t port;
	/** The object's index in the table. */
	uint32_t id;
	uint64_t pad;
} __rte_aligned(32);

/** The next-hop table: the object of each index, and the ports' own. */
struct fwd_nht {
	/** Read with fwd_nh_get(); swapped by the control side. */
	const struct fwd_nh *nh[FWD_NH_MAX];
	/** The l3fwd next hop of each port (fwd_tables_l2_prepare()). */
	struct fwd_nh port[RTE_MAX_ETHPORTS];
};

/** The object of next hop @p hop (below FWD_NH_MAX). Any lcore. */
static __rte_always_inline const struct fwd_nh *
fwd_nh_get(const struct fwd_nht *h, uint32_t hop)
{
	return __atomic_load_n(&h->nh[hop], __ATOMIC_ACQUIRE);
}

/** Publish @p nh as next hop @p hop (control side): lookups from now on
 * read it, the ones under way may still read the object it replaces. */
static inline void
fwd_nh_set(struct fwd_nht *h, uint32_t hop, const struct fwd_nh *nh)
{
	__atomic_store_n(&h->nh[hop], nh, __ATOMIC_RELEASE);
}

/** The destination MAC of a holding next hop's packets: 00:00 and its
 * index, big-endian (never a station's: the OUI 00:00:00 of the first
 * 3 bytes is Xerox's, unused on Ethernet since). */
static inline void
fwd_nh_hold_mac(uint32_t id, struct rte_ether_addr *mac)
{
	mac->addr_bytes[0] = 0;
	mac->addr_bytes[1] = 0;
	mac->addr_bytes[2] = (uint8_t)(id >> 24);
	mac->addr_bytes[3] = (uint8_t)(id >> 16);
	mac->addr_bytes[4] = (uint8_t)(id >> 8);
	mac->addr_bytes[5] = (uint8_t)id;
}

/** The next hop a held frame waits for, from its destination MAC. */
static inline uint32_t
fwd_nh_hold_id(const uint8_t *frame)
{
	return (uint32_t)frame[2] << 24 | (uint32_t)frame[3] << 16 |
		(uint32_t)frame[4] << 8 | frame[5];
}

/** Fill @p nh: MACs @p dst and @p src, TX buffer @p tx, port @p port,
 * index @p id. */
static inline void
fwd_nh_fill(struct fwd_nh *nh, const struct rte_ether_addr *dst,
		const struct rte_ether_addr *src, uint16_t tx, uint16_t port,
		uint32_t id)
{
	memset(nh, 0, sizeof(*nh));
	memcpy(nh->eth16, dst, RTE_ETHER_ADDR_LEN);
	memcpy(nh->eth16 + RTE_ETHER_ADDR_LEN, src, RTE_ETHER_ADDR_LEN);
	nh->tx = tx;
	nh->port = port;
	nh->id = id;
}

#endif /* FWD_NH_H */
