/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_RX_DEVINFO_H
#define NPOOL_RX_DEVINFO_H

/*
 * dev_info fixtures of DPDK 22.11's PMDs for the RX profile and RSS plan
 * tests (rx_devinfo.c cites the source of every figure).
 */

#include <stdint.h>
#include <rte_ethdev.h>

/* IXGBE_RSS_OFFLOAD_ALL (ixgbe_ethdev.h), IGB_RSS_OFFLOAD_ALL
 * (e1000_ethdev.h) and fm10k_dev_infos_get()'s list: the same nine. */
#define RX_DEVINFO_RSS_INTEL (RTE_ETH_RSS_IPV4 | \
	RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
	RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
	RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_IPV6_EX | \
	RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX)

/* em_get_max_pktlen(): the 82574L and the 82540EM. */
#define EM_82574_PKTLEN 0x2412  /* 9234 */
#define EM_82540_PKTLEN 0x3F00  /* 16128 */

void info_init(struct rte_eth_dev_info *d, const char *driver);
void desc_lim(struct rte_eth_desc_lim *l, uint16_t min, uint16_t max,
		uint16_t align);
void info_hw(struct rte_eth_dev_info *d, const char *driver, uint16_t queues,
		uint32_t min_buf, uint32_t pktlen, uint16_t max_mtu,
		uint16_t desc_min, uint16_t rx_max, uint16_t tx_max);
void info_ixgbe(struct rte_eth_dev_info *d);
void info_ixgbe_x550(struct rte_eth_dev_info *d);
void info_igb(struct rte_eth_dev_info *d);
void info_igb_82576(struct rte_eth_dev_info *d);
void info_fm10k(struct rte_eth_dev_info *d);
void info_em(struct rte_eth_dev_info *d, uint32_t max_rx_pktlen);
void info_pcap(struct rte_eth_dev_info *d);
void info_af_packet(struct rte_eth_dev_info *d);
void info_i40e(struct rte_eth_dev_info *d);
void info_tap(struct rte_eth_dev_info *d);

#endif /* NPOOL_RX_DEVINFO_H */
