/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_RX_RSS_H
#define NPOOL_RX_RSS_H

/**
 * @file
 * RSS over the polled RX queues of a port: which hash types to configure
 * (l3fwd's, masked by what the device offers), whether the port can do
 * without RSS, and a redirection table (RETA) that spreads the hash
 * buckets evenly over the polled queues only, so that a queue set up but
 * not polled (see the apps' TX-queue rule) never receives.
 *
 * npool_rx_rss_plan() is a pure function of the RX profile, the device's
 * rte_eth_dev_info and the queue counts, tested with the dev_info each
 * PMD reports; npool_rx_rss_conf() and npool_rx_rss_reta_apply() apply a
 * plan to a port. The kernel drivers do the same at probe time:
 * ixgbe_setup_reta(), igb_setup_mrqc() fill the RETA round-robin over
 * the RSS queues with ethtool_rxfh_indir_default().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rte_ethdev.h>

#include "npool_rx_profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Hash types a plan asks for by default: l3fwd's RTE_ETH_RSS_IP (its LPM
 * and EM modes) plus the TCP, UDP and SCTP ports it adds for ACL lookups,
 * so that the flows between two hosts spread too. The device's
 * flow_type_rss_offloads masks them.
 */
#define NPOOL_RX_RSS_HF (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | \
	RTE_ETH_RSS_TCP | RTE_ETH_RSS_SCTP)

/** Largest RETA a plan holds (ice's 2048 entries; ixgbe X550 and i40e
 * have 512, igb, ixgbe 82599 and fm10k 128). */
#define NPOOL_RX_RSS_RETA_MAX 2048

/** What a port wants from npool_rx_rss_plan(). */
struct npool_rx_rss_req {
	/** RX queues polled: 0 .. nb_rxq - 1, those the RETA spreads over;
	 * 0 when the app polls none (a generator). */
	uint16_t nb_rxq;
	/** RX queues set up, polled or not (at least @c nb_rxq). */
	uint16_t nb_rxq_dev;
	/** Hash types wanted (RTE_ETH_RSS_*), 0 = NPOOL_RX_RSS_HF. */
	uint64_t rss_hf;
};

/** How a port's RX queues are fed. */
struct npool_rx_rss_plan {
	/** rxmode.mq_mode RTE_ETH_MQ_RX_RSS; else RTE_ETH_MQ_RX_NONE. */
	bool on;
	/** rx_adv_conf.rss_conf.rss_hf: wanted and offered types (0 off). */
	uint64_t rss_hf;
	/** Wanted types the device does not offer (each worth a log line
	 * when RSS is on). */
	uint64_t rss_hf_lacking;
	/** RX queues the hash spreads over (0 when off). */
	uint16_t nb_queues;
	/** RETA entries to write (dev_info.reta_size); 0 when RSS is off or
	 * the device has no RETA (its own spread over every queue set up). */
	uint16_t reta_size;
	/** Fewest and most RETA entries a queue gets (they differ by at
	 * most one: an even spread); 0 when @c reta_size is 0. */
	uint16_t reta_min;
	uint16_t reta_max;     /**< see @c reta_min */
	/** Queue of each RETA entry: entry i to queue i % nb_queues. */
	uint16_t reta[NPOOL_RX_RSS_RETA_MAX];
	/** Why RSS is off (the plan succeeded), or why the plan failed
	 * (English, static); NULL when RSS is on. */
	const char *reason;
};

/**
 * Plan RSS for a port from its RX profile and dev_info. A pure function:
 * it reads @p info only.
 *
 * - One polled RX queue (or none): RSS off, queue 0 takes everything.
 * - Several, and the device offers some of the wanted hash types
 *   (flow_type_rss_offloads): RSS on with those; a RETA of reta_size
 *   entries, entry i to queue i % nb_rxq. A device with no RETA
 *   (reta_size 0) spreads over every queue set up itself: refused when
 *   some of those are not polled.
 * - Several, and the device offers none: a profile with @c rss_needed
 *   (the NICs, whose hardware puts everything in queue 0 without RSS)
 *   is refused; any other device (vdevs) keeps its queues without RSS,
 *   each getting what the device puts there (net_pcap: its own file,
 *   net_ring: its own ring, net_af_packet: the kernel's fanout hash).
 *
 * @param p
 *   The port's RX profile (rss_needed, rss_max_queues).
 * @param info
 *   The device's rte_eth_dev_info (rte_eth_dev_info_get(), or a test's).
 * @param req
 *   The queue counts and wanted hash types.
 * @param plan
 *   Out: the plan; on failure @c reason says why, @c rss_hf and
 *   @c rss_hf_lacking are set, the rest is zero.
 * @return
 *   0; -EINVAL with rte_errno = EINVAL (NULL argument, nb_rxq_dev below
 *   nb_rxq); -ENOTSUP with rte_errno = ENOTSUP (RSS needed and none of
 *   the wanted types offered, more queues than the hardware's RSS or the
 *   RETA spreads over, a RETA larger than NPOOL_RX_RSS_RETA_MAX, no RETA
 *   while unpolled queues would receive). Any thread.
 */
int npool_rx_rss_plan(const struct npool_rx_profile *p,
		const struct rte_eth_dev_info *info,
		const struct npool_rx_rss_req *req,
		struct npool_rx_rss_plan *plan);

/**
 * Write a plan into a port configuration before rte_eth_dev_configure():
 * rxmode.mq_mode, rx_adv_conf.rss_conf.rss_hf and a NULL rss_key (the
 * PMD's default key). The rest of @p conf is left as is. Any thread.
 *
 * @param plan
 *   A plan of npool_rx_rss_plan().
 * @param conf
 *   The port configuration to write into.
 */
void npool_rx_rss_conf(const struct npool_rx_rss_plan *plan,
		struct rte_eth_conf *conf);

/**
 * Write the plan's RETA into a started port (ixgbe takes a RETA only
 * once started, and its start would overwrite an earlier one with its
 * own spread over every queue set up) and read it back.
 *
 * @param port_id
 *   A started port configured with npool_rx_rss_conf() of @p plan.
 * @param plan
 *   The plan; nothing is done when @c reta_size is 0.
 * @param read_back
 *   Out, may be NULL: true when the RETA was read back
 *   (rte_eth_dev_rss_reta_query()) and equals the plan's; false when the
 *   PMD cannot be asked.
 * @return
 *   0; -EIO with rte_errno = EIO when the RETA read back differs; else
 *   the negative errno of rte_eth_dev_rss_reta_update() (-ENOTSUP: the
 *   PMD has no RETA update) with rte_errno set. Main lcore (slow path).
 */
int npool_rx_rss_reta_apply(uint16_t port_id,
		const struct npool_rx_rss_plan *plan, bool *read_back);

/**
 * Name of one RTE_ETH_RSS_* hash type bit, as testpmd's "port config all
 * rss" names it ("ipv4", "ipv4-tcp", "ipv6-udp-ex", ...).
 *
 * @param bit
 *   One RTE_ETH_RSS_* bit.
 * @return The name, or NULL for a bit without one here (or not one bit).
 */
const char *npool_rx_rss_type_name(uint64_t bit);

/**
 * The names of the hash types in @p rss_hf, in bit order, separated by
 * one blank ("none" for 0; a bit without a name as its 0x value).
 *
 * @param buf
 *   Where to write, NUL-terminated (cut at @p len - 1).
 * @param rss_hf
 *   RTE_ETH_RSS_* bits.
 * @param len
 *   Room at @p buf in bytes.
 * @return The length the whole string needs, as snprintf().
 */
int npool_rx_rss_types_str(uint64_t rss_hf, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_RX_RSS_H */
