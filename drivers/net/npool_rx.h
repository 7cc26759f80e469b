/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_RX_H
#define NPOOL_RX_H

/**
 * @file
 * Copy-break under any PMD, with its counters; the RX profiles are in
 * npool_rx_profile.h, the RSS plan in npool_rx_rss.h (both included).
 *
 * The kernel's ixgbe, igb and fm10k drivers receive into page halves and,
 * for a packet up to RX_HDR_LEN (256) bytes, copy it into a small buffer
 * from napi_alloc_skb() and give the page half straight back to the ring
 * (copy-break). npool_rx_copybreak() does the copy for any PMD: small
 * packets become npool packets and their RX mbufs go back to the RX pool
 * at once, so the RX ring never waits for them.
 */

#include <stdint.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool.h"
#include "npool_rx_profile.h"
#include "npool_rx_rss.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copy-break counters of one lcore. */
struct npool_rx_stats {
	/** Packets copied into npool packets (their RX mbufs released). */
	uint64_t copybreak_copied;
	/** Packets of at most the copy-break length left in their RX mbuf
	 * because no npool packet could be had (no head, no fragment).
	 * Kernel: rx_ring->rx_stats.alloc_rx_buff_failed (ixgbe, igb). */
	uint64_t copybreak_nomem;
};

/** Slot of the counters of threads without an lcore id. */
#define NPOOL_RX_NON_EAL_SLOT RTE_MAX_LCORE

/**
 * Read the copy-break counters of one lcore.
 *
 * @param slot
 *   An lcore id (0 .. RTE_MAX_LCORE - 1) or NPOOL_RX_NON_EAL_SLOT.
 * @param out
 *   Where to copy them.
 * @return
 *   0, or -EINVAL (slot out of range, @p out NULL). Any thread; a slot
 *   being updated may lag by one burst.
 */
int npool_rx_stats_get(unsigned int slot, struct npool_rx_stats *out);

/**
 * Sum the copy-break counters of every slot into @p out.
 *
 * @param out
 *   Where to write the sums.
 * @return 0, or -EINVAL (@p out NULL). Any thread.
 */
int npool_rx_stats_sum(struct npool_rx_stats *out);

/** Zero every slot. Main lcore, while no lcore copy-breaks. */
void npool_rx_stats_reset(void);

/**
 * Copy-break a received burst in place: each single-segment packet of at
 * most @p copybreak bytes is copied into a new npool packet (from the
 * calling lcore's napi caches) that takes its place in @p pkts, and the RX
 * mbuf is released at once. Metadata that the copy keeps: port,
 * packet_type, ol_flags, hash, vlan_tci(_outer) and every dynamic field
 * (the RX timestamp among them).
 * Kernel: ixgbe_fetch_rx_buffer()/igb_construct_skb() with RX_HDR_LEN.
 *
 * When no npool packet can be had the original mbuf is kept (a packet is
 * never lost for lack of memory here) and counted in the calling lcore's
 * npool_rx_stats.copybreak_nomem; each copy counts in copybreak_copied.
 *
 * Context: owner lcore (an EAL lcore), the RX loop.
 *
 * @param pkts
 *   The burst, as returned by rte_eth_rx_burst().
 * @param n
 *   Packets in @p pkts.
 * @param copybreak
 *   Largest packet to copy, bytes; 0 copies nothing.
 * @return
 *   Number of packets copied.
 */
uint16_t npool_rx_copybreak(struct rte_mbuf **pkts, uint16_t n,
		uint16_t copybreak);

/**
 * Install npool_rx_copybreak() under a port's RX queue as an ethdev RX
 * callback, so that an unchanged application receives npool packets.
 *
 * @param port_id, queue_id
 *   The RX queue (already set up).
 * @param copybreak
 *   Largest packet to copy, bytes, 1 .. NPOOL_PKT_MAX_LEN.
 * @return
 *   The callback handle (for rte_eth_remove_rx_callback()), or NULL with
 *   rte_errno set: EINVAL (bad copybreak, port or queue), ENOTSUP
 *   (callbacks compiled out), ENOMEM.
 *   Main lcore (slow path).
 */
const struct rte_eth_rxtx_callback *npool_rx_copybreak_install(
		uint16_t port_id, uint16_t queue_id, uint16_t copybreak);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_RX_H */
