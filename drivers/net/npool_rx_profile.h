/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_RX_PROFILE_H
#define NPOOL_RX_PROFILE_H

/**
 * @file
 * RX profiles: how npool sits under a PMD's receive path, one table entry
 * per driver (net_ixgbe, net_e1000_igb, net_fm10k, net_e1000_em and a
 * generic one for every other PMD, vdevs included), chosen by
 * rte_eth_dev_info.driver_name.
 *
 * A profile holds the driver's figures (ring sizes, copy-break, default
 * data room) and its receive-buffer rules, as its rx_init function applies
 * them in DPDK 22.11: the granularity the data room is rounded down to,
 * what the PMD keeps back, the two VLAN tags it adds to a frame before
 * comparing, when it forces scattered RX. npool_rx_profile_plan() turns a
 * profile, the device's rte_eth_dev_info and the port MTU into the pool
 * and queue configuration: a pure function, so that every decision can be
 * tested with the dev_info a PMD reports, without the NIC.
 */

#include <stdbool.h>
#include <stdint.h>
#include <rte_ethdev.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Copy-break of the kernel drivers: RX_HDR_LEN / IXGBE_RX_HDR_SIZE. */
#define NPOOL_RX_HDR_LEN 256

/** How a PMD turns an RX pool's data room into the buffer size it
 * programs (after the headroom and @c buf_reserve are taken off). */
enum npool_rx_bufsz_rule {
	/** Rounded down to a multiple of @c buf_align (SRRCTL.BSIZEPKT of
	 * ixgbe, igb, fm10k); below one unit, the largest power of two
	 * (igb's RCTL.BSIZE 512 / 256). */
	NPOOL_RX_BUFSZ_ALIGN,
	/** The largest power of two from min_rx_bufsize to @c buf_max that
	 * fits (e1000 RCTL.BSIZE/BSEX: 256 .. 16384). */
	NPOOL_RX_BUFSZ_POW2,
};

/** Per-driver receive settings: one table entry per PMD. */
struct npool_rx_profile {
	const char *driver;        /**< DPDK driver name, "net_ixgbe" */
	const char *kernel_driver; /**< the kernel driver it mirrors */
	uint16_t nb_rxd;           /**< RX descriptors per queue (wanted) */
	uint16_t nb_txd;           /**< TX descriptors per queue (wanted) */
	uint16_t copybreak;        /**< copy packets up to this many bytes */
	uint16_t rx_free_thresh;   /**< descriptors refilled in one go */
	uint16_t burst;            /**< packets per rte_eth_rx_burst() */
	/** RX mbuf data room for a 1500-byte MTU, headroom included; the
	 * plan never picks less. */
	uint16_t data_room;
	enum npool_rx_bufsz_rule bufsz_rule; /**< buffer size rounding */
	uint16_t buf_align;   /**< granularity of @c NPOOL_RX_BUFSZ_ALIGN, bytes */
	/** Bytes of the data room, besides the headroom, that the PMD never
	 * fills (fm10k: 512 for its buffer alignment). */
	uint16_t buf_reserve;
	/** Largest RX buffer the hardware takes, bytes; 0 = no limit known. */
	uint32_t buf_max;
	/** MTU to frame size in the PMD's buffer check, bytes; 0 = ethdev's
	 * (max_rx_pktlen - max_mtu, else 18). */
	uint16_t frame_overhead;
	/** Bytes the PMD adds to a frame before comparing it with the
	 * buffer: 8 for two VLAN tags ("dual VLAN"). */
	uint16_t frame_slack;
	/** The PMD forces scattered RX with a buffer below this, bytes; 0 =
	 * never. */
	uint16_t scatter_below;
	/** The PMD forces scattered RX above this MTU; 0 = never. */
	uint16_t scatter_above_mtu;
	/** Without RSS the hardware puts every packet in RX queue 0: a port
	 * polled on several RX queues needs RSS (npool_rx_rss_plan()). */
	bool rss_needed;
	/** Most RX queues the hardware's RSS spreads over (the kernel
	 * driver's limit); 0 = as many as the RETA has entries. */
	uint16_t rss_max_queues;
};

/** What a port wants from npool_rx_profile_plan(). */
struct npool_rx_req {
	/** Port MTU (rxmode.mtu: the largest L3 packet a frame carries),
	 * 0 = RTE_ETHER_MTU. */
	uint16_t mtu;
	/** RX pool data room, headroom included (--mbuf-size); 0 = the plan
	 * picks one that holds a whole frame in one buffer. */
	uint16_t data_room;
	uint16_t nb_rxq;       /**< RX queues to set up */
	uint16_t nb_txq;       /**< TX queues to set up */
	/** RX / TX descriptors per queue (--rx-queue-size, --tx-queue-size),
	 * adjusted to the device's limits; 0 = the profile's. */
	uint16_t nb_rxd;
	uint16_t nb_txd;       /**< as @c nb_rxd, for TX */
	/** Largest frame, CRC included (l3fwd's --max-pkt-len); when not 0
	 * the MTU is this minus the device's overhead (ethdev's
	 * max_rx_pktlen - max_mtu, else 18), as l3fwd's
	 * config_port_max_pkt_len(), or @c mtu when that is larger. */
	uint32_t max_pkt_len;
	uint64_t rx_offloads;  /**< RTE_ETH_RX_OFFLOAD_* wanted */
	uint64_t tx_offloads;  /**< RTE_ETH_TX_OFFLOAD_* wanted */
};

/** TX offloads npool packets cannot take: switched off by the plan.
 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE puts every sent mbuf straight back
 * into one pool with no refcount check: npool packets (extbuf heads) and
 * clones (refcnt > 1) would be corrupted. */
#define NPOOL_RX_TX_OFFLOADS_OFF RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE

/** The pool and queue configuration of a port. */
struct npool_rx_plan {
	uint16_t mtu;            /**< rxmode.mtu to configure */
	uint16_t max_mtu;        /**< largest MTU the device takes */
	uint32_t max_frame;      /**< largest frame at @c mtu, CRC included */
	uint16_t data_room;      /**< RX pool data room, headroom included */
	/** Smallest data room with which a whole frame fits one buffer;
	 * 0 when none does (frames above the hardware's largest buffer). */
	uint16_t whole_room;
	uint32_t rx_buf_size;    /**< bytes of each RX buffer the PMD programs */
	uint16_t segs_per_frame; /**< RX buffers a max_frame takes */
	/** Frames may arrive as mbuf chains: scattered RX (the offload, or a
	 * software device that chains on its own). */
	bool scatter;
	uint16_t nb_rxd;         /**< RX descriptors, within rx_desc_lim */
	uint16_t nb_txd;         /**< TX descriptors, within tx_desc_lim */
	uint16_t rx_free_thresh; /**< for rte_eth_rxconf */
	uint64_t rx_offloads;    /**< for rxmode.offloads */
	uint64_t tx_offloads;    /**< for txmode.offloads */
	/** Wanted TX offloads that the device offers and the plan switched
	 * off (NPOOL_RX_TX_OFFLOADS_OFF). */
	uint64_t tx_offloads_off;
	/** RX mbufs the port's rings hold: nb_rxq x nb_rxd + nb_txq x nb_txd
	 * (a chain takes one TX descriptor per segment). */
	uint32_t nb_mbufs;
	/** Why the plan failed (English, static), NULL on success. */
	const char *reason;
};

/**
 * Profile of a DPDK driver.
 *
 * @param driver_name
 *   rte_eth_dev_info.driver_name, e.g. "net_ixgbe", "net_e1000_igb",
 *   "net_fm10k", "net_e1000_em"; NULL or any other name gives the generic
 *   profile.
 * @return
 *   The profile; never NULL. Any thread.
 */
const struct npool_rx_profile *npool_rx_profile_find(const char *driver_name);

/**
 * Whether a PMD makes its RX queues when it probes, each a source of its
 * own (net_af_packet: a fanout socket per qpairs, net_pcap: one capture or
 * interface per rx_pcap/rx_iface, net_af_xdp: one per queue_count), so
 * that dev_info.max_rx_queues is what the device already receives on,
 * not a capacity. An app that sets up fewer never reads the others.
 *
 * @param driver_name
 *   rte_eth_dev_info.driver_name.
 * @return
 *   true for those PMDs, false for any other (hardware PMDs report a
 *   capacity; net_null and net_ring make queues on demand).
 */
bool npool_rx_queues_made_at_probe(const char *driver_name);

/**
 * Profile of an ethdev port (looked up by its driver name).
 *
 * @param port_id
 *   An ethdev port.
 * @return
 *   The profile, or NULL with rte_errno = ENODEV for an invalid port.
 *   Any thread.
 */
const struct npool_rx_profile *npool_rx_profile_of_port(uint16_t port_id);

/**
 * Plan a port's RX pool and queues from its profile and dev_info, as the
 * PMD's rx_init will see them. A pure function: it reads @p info only.
 *
 * - MTU: checked as rte_eth_dev_configure() does (min_mtu, max_mtu,
 *   max_rx_pktlen with ethdev's overhead).
 * - Data room: @p req's, or the smallest one whose buffer, after the
 *   PMD's rounding, holds a whole frame (two VLAN tags included where the
 *   PMD counts them), never below the profile's; the profile's when no
 *   buffer can hold a frame (scattered RX then).
 * - Scattered RX: when a frame does not fit one buffer or the PMD forces
 *   it (em above a 1500 MTU, igb below 1 KiB buffers). It needs
 *   RTE_ETH_RX_OFFLOAD_SCATTER in rx_offload_capa, or a software device
 *   without a frame limit (max_rx_pktlen UINT32_MAX: net_pcap chains on
 *   its own); then RTE_ETH_TX_OFFLOAD_MULTI_SEGS is added when offered.
 * - Offloads: those wanted that the device offers, minus
 *   NPOOL_RX_TX_OFFLOADS_OFF (reported in tx_offloads_off).
 * - Descriptors: @p req's or the profile's, aligned and clamped to
 *   rx/tx_desc_lim as rte_eth_dev_adjust_nb_rx_tx_desc() does.
 *
 * @param p
 *   The profile.
 * @param info
 *   The device's rte_eth_dev_info (rte_eth_dev_info_get(), or a test's).
 * @param req
 *   What the port wants.
 * @param plan
 *   Out: the configuration; on failure only @c reason, @c mtu,
 *   @c max_mtu, @c max_frame and @c whole_room are meaningful.
 * @return
 *   0; -EINVAL with rte_errno = EINVAL (NULL argument, MTU outside the
 *   device's range, a max_pkt_len not above the device's overhead, data
 *   room below min_rx_bufsize, a frame larger than
 *   one buffer without scattered RX); -ENOTSUP with rte_errno = ENOTSUP
 *   (more queues than the device has). Any thread.
 */
int npool_rx_profile_plan(const struct npool_rx_profile *p,
		const struct rte_eth_dev_info *info,
		const struct npool_rx_req *req, struct npool_rx_plan *plan);

/**
 * Plan a port with its live dev_info (npool_rx_profile_plan()) and write
 * the result into @p conf before rte_eth_dev_configure(): rxmode.mtu,
 * rxmode.offloads, txmode.offloads. The rest of @p conf is left as is.
 *
 * @param port_id
 *   A valid port.
 * @param p
 *   The profile (npool_rx_profile_of_port()).
 * @param req
 *   What the port wants.
 * @param conf
 *   The port configuration to fill in.
 * @param plan
 *   Out: the plan (data room for the RX pool, descriptors, ...).
 * @return
 *   0, or a negative errno with rte_errno set: -ENODEV (bad port, or
 *   rte_eth_dev_info_get() failed), -EINVAL, -ENOTSUP (as
 *   npool_rx_profile_plan()). Main lcore (slow path).
 */
int npool_rx_profile_fit(uint16_t port_id, const struct npool_rx_profile *p,
		const struct npool_rx_req *req, struct rte_eth_conf *conf,
		struct npool_rx_plan *plan);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_RX_PROFILE_H */
