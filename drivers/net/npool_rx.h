/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_RX_H
#define NPOOL_RX_H

/**
 * @file
 * RX profiles: how npool sits under a PMD's receive path, per driver.
 *
 * The kernel's ixgbe, igb and fm10k drivers receive into page halves and,
 * for a packet up to RX_HDR_LEN (256) bytes, copy it into a small buffer
 * from napi_alloc_skb() and give the page half straight back to the ring
 * (copy-break). A profile carries a driver's figures (ring sizes,
 * copy-break, data room, burst) and npool_rx_copybreak() does the copy
 * for any PMD: small packets become npool packets and their RX mbufs go
 * back to the RX pool at once, so the RX ring never waits for them.
 */

#include <stdint.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copy-break of the kernel drivers: RX_HDR_LEN / IXGBE_RX_HDR_SIZE. */
#define NPOOL_RX_HDR_LEN 256

/** Per-driver receive settings. */
struct npool_rx_profile {
	const char *driver;        /**< DPDK driver name, "net_ixgbe" */
	const char *kernel_driver; /**< the kernel driver it mirrors */
	uint16_t nb_rxd;           /**< RX descriptors per queue */
	uint16_t nb_txd;           /**< TX descriptors per queue */
	uint16_t copybreak;        /**< copy packets up to this many bytes */
	uint16_t rx_free_thresh;   /**< descriptors refilled in one go */
	uint16_t burst;            /**< packets per rte_eth_rx_burst() */
	uint16_t data_room;        /**< RX mbuf data room, headroom included */
};

/**
 * Profile of a DPDK driver.
 *
 * @param driver_name
 *   rte_eth_dev_info.driver_name, e.g. "net_ixgbe", "net_e1000_igb",
 *   "net_fm10k"; NULL or any other name gives the generic profile.
 * @return
 *   The profile; never NULL. Any thread.
 */
const struct npool_rx_profile *npool_rx_profile_find(const char *driver_name);

/**
 * Profile of an ethdev port (looked up by its driver name).
 *
 * @return
 *   The profile, or NULL with rte_errno = ENODEV for an invalid port.
 */
const struct npool_rx_profile *npool_rx_profile_of_port(uint16_t port_id);

/**
 * Fit a profile to a port before rte_eth_dev_configure(): clamp ring
 * sizes to the device's limits and clear RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE
 * (npool packets are external-buffer mbufs; fast free would leak them).
 *
 * @param port_id
 *   A valid port.
 * @param p
 *   The profile.
 * @param conf
 *   The port configuration to fix up (its txmode.offloads).
 * @param nb_rxd, nb_txd
 *   Out: descriptor counts to pass to the queue setup calls.
 * @return
 *   0, or a negative errno from rte_eth_dev_info_get() /
 *   rte_eth_dev_adjust_nb_rx_tx_desc(): -ENODEV, -EINVAL, -ENOTSUP.
 *   Main lcore (slow path).
 */
int npool_rx_profile_fit(uint16_t port_id, const struct npool_rx_profile *p,
		struct rte_eth_conf *conf, uint16_t *nb_rxd, uint16_t *nb_txd);

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
 * never lost for lack of memory here).
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
