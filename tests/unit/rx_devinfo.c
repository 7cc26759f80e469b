/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_eth_dev_info of the PMDs the RX profile and RSS tests plan for, as
 * DPDK 22.11 reports them: each fixture cites the function and constants
 * it comes from.
 */
#include <string.h>

#include <rte_ethdev.h>

#include "rx_devinfo.h"

/* What rte_eth_dev_info_get() (lib/ethdev/rte_ethdev.c) sets before it
 * calls the PMD: zeroes, desc limits { UINT16_MAX, 0, 1 }, min_mtu 46,
 * max_mtu UINT16_MAX. */
void
info_init(struct rte_eth_dev_info *d, const char *driver)
{
	const struct rte_eth_desc_lim lim = {
		.nb_max = UINT16_MAX, .nb_min = 0, .nb_align = 1,
	};

	memset(d, 0, sizeof(*d));
	d->driver_name = driver;
	d->rx_desc_lim = lim;
	d->tx_desc_lim = lim;
	d->min_mtu = RTE_ETHER_MIN_LEN - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
	d->max_mtu = UINT16_MAX;
}

void
desc_lim(struct rte_eth_desc_lim *l, uint16_t min, uint16_t max,
		uint16_t align)
{
	l->nb_min = min;
	l->nb_max = max;
	l->nb_align = align;
}

/* A PCI PMD's figures over info_init(): queues, min_rx_bufsize,
 * max_rx_pktlen, max_mtu and min_mtu (0: left to ethdev's defaults),
 * descriptor limits (align 8 for all four Intel PMDs). */
void
info_hw(struct rte_eth_dev_info *d, const char *driver, uint16_t queues,
		uint32_t min_buf, uint32_t pktlen, uint16_t max_mtu,
		uint16_t desc_min, uint16_t rx_max, uint16_t tx_max)
{
	info_init(d, driver);
	d->max_rx_queues = queues;
	d->max_tx_queues = queues;
	d->min_rx_bufsize = min_buf;
	d->max_rx_pktlen = pktlen;
	if (max_mtu != 0) {
		d->max_mtu = max_mtu;
		d->min_mtu = RTE_ETHER_MIN_MTU;
	}
	desc_lim(&d->rx_desc_lim, desc_min, rx_max, 8);
	desc_lim(&d->tx_desc_lim, desc_min, tx_max, 8);
}

/* 82599: drivers/net/ixgbe/ixgbe_ethdev.c ixgbe_dev_info_get() (queues:
 * IXGBE_82599_MAX_RX_QUEUES, IXGBE_NONE_MODE_TX_NB_QUEUES; limits:
 * rx/tx_desc_lim from ixgbe_rxtx.h IXGBE_MIN/MAX_RING_DESC, IXGBE_RXD_ALIGN);
 * offloads: ixgbe_rxtx.c ixgbe_get_rx/tx_port_offloads(). */
void
info_ixgbe(struct rte_eth_dev_info *d)
{
	/* max_mtu: minus IXGBE_ETH_OVERHEAD 18 */
	info_hw(d, "net_ixgbe", 128, 1024, 15872, 15872 - 18, 64, 4096, 4096);
	d->max_tx_queues = 64;
	/* IXGBE_HKEY_MAX_INDEX 10 words, ixgbe_reta_size_get() 128. */
	d->hash_key_size = 40;
	d->reta_size = RTE_ETH_RSS_RETA_SIZE_128;
	d->flow_type_rss_offloads = RX_DEVINFO_RSS_INTEL;
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_RX_OFFLOAD_KEEP_CRC | RTE_ETH_RX_OFFLOAD_VLAN_FILTER |
		RTE_ETH_RX_OFFLOAD_SCATTER | RTE_ETH_RX_OFFLOAD_RSS_HASH |
		RTE_ETH_RX_OFFLOAD_VLAN_STRIP | RTE_ETH_RX_OFFLOAD_TCP_LRO;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_VLAN_INSERT |
		RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_SCTP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
}

/* i350: drivers/net/e1000/igb_ethdev.c eth_igb_infos_get() (max_rx_pktlen
 * 0x3FFF "See RLPML register", max_mtu minus E1000_ETH_OVERHEAD 22;
 * rx/tx_desc_lim E1000_MIN/MAX_RING_DESC 32/4096, IGB_RXD_ALIGN 8);
 * offloads: igb_rxtx.c igb_get_rx/tx_port_offloads_capa(). */
void
info_igb(struct rte_eth_dev_info *d)
{
	info_hw(d, "net_e1000_igb", 8, 256, 0x3FFF, 0x3FFF - 22, 32, 4096,
			4096);
	/* IGB_HKEY_MAX_INDEX 10 words, RTE_ETH_RSS_RETA_SIZE_128. */
	d->hash_key_size = 40;
	d->reta_size = RTE_ETH_RSS_RETA_SIZE_128;
	d->flow_type_rss_offloads = RX_DEVINFO_RSS_INTEL;
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_VLAN_STRIP |
		RTE_ETH_RX_OFFLOAD_VLAN_FILTER | RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_RX_OFFLOAD_KEEP_CRC | RTE_ETH_RX_OFFLOAD_SCATTER |
		RTE_ETH_RX_OFFLOAD_RSS_HASH | RTE_ETH_RX_OFFLOAD_VLAN_EXTEND;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_VLAN_INSERT |
		RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_SCTP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
}

/* PF: drivers/net/fm10k/fm10k_ethdev.c fm10k_dev_infos_get()
 * (FM10K_MIN_RX_BUF_SIZE 256, FM10K_MAX_PKT_SIZE 15 * 1024, no max_mtu;
 * fm10k.h FM10K_MIN/MAX_RX_DESC 32 / 512 KiB over 32-byte descriptors,
 * TX over 16-byte ones, FM10K_MULT_RX/TX_DESC 8); offloads:
 * fm10k_get_rx_queue/port_offloads_capa(), fm10k_get_tx_port_offloads_capa(). */
void
info_fm10k(struct rte_eth_dev_info *d)
{
	info_hw(d, "net_fm10k", 128, 256, 15 * 1024, 0, 32, 16384, 32768);
	/* FM10K_RSSRK_SIZE 10 words, FM10K_MAX_RSS_INDICES 128; the same
	 * nine types as ixgbe and igb, listed one by one. */
	d->hash_key_size = 40;
	d->reta_size = 128;
	d->flow_type_rss_offloads = RX_DEVINFO_RSS_INTEL;
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER |
		RTE_ETH_RX_OFFLOAD_VLAN_STRIP | RTE_ETH_RX_OFFLOAD_VLAN_FILTER |
		RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
		RTE_ETH_RX_OFFLOAD_TCP_CKSUM | RTE_ETH_RX_OFFLOAD_RSS_HASH;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_VLAN_INSERT |
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_TSO;
}

/* 82574L (QEMU -device e1000e) or 82540EM (QEMU e1000):
 * drivers/net/e1000/em_ethdev.c eth_em_infos_get() (min_rx_bufsize 256;
 * max_rx_pktlen em_get_max_pktlen(): 0x2412 for e1000_82574,
 * MAX_JUMBO_FRAME_SIZE 0x3F00 for the rest; no max_mtu, no min_mtu; two
 * queues since 22.11.3 ("fix queue number initialization"), yet no RSS:
 * no flow_type_rss_offloads, no RETA; E1000_MIN/MAX_RING_DESC 32/4096,
 * EM_RXD/TXD_ALIGN 8); offloads: em_rxtx.c em_get_rx/tx_port_offloads_capa(). */
void
info_em(struct rte_eth_dev_info *d, uint32_t max_rx_pktlen)
{
	info_hw(d, "net_e1000_em", 2, 256, max_rx_pktlen, 0, 32, 4096, 4096);
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_VLAN_STRIP |
		RTE_ETH_RX_OFFLOAD_VLAN_FILTER | RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_RX_OFFLOAD_KEEP_CRC | RTE_ETH_RX_OFFLOAD_SCATTER;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		RTE_ETH_TX_OFFLOAD_VLAN_INSERT | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
}

/* drivers/net/pcap/pcap_ethdev.c eth_dev_info(): no frame limit, no
 * offloads, as many queues as rx_pcap= / tx_pcap= devargs (two here);
 * eth_pcap_rx_jumbo() chains what does not fit an mbuf. */
void
info_pcap(struct rte_eth_dev_info *d)
{
	info_init(d, "net_pcap");
	d->max_rx_pktlen = (uint32_t)-1;
	d->max_rx_queues = 2;
	d->max_tx_queues = 2;
}

/* drivers/net/af_packet/rte_eth_af_packet.c eth_dev_info(): 1518-byte
 * frames, copied whole into one mbuf by eth_af_packet_rx(); qpairs=2. */
void
info_af_packet(struct rte_eth_dev_info *d)
{
	info_init(d, "net_af_packet");
	d->max_rx_pktlen = RTE_ETHER_MAX_LEN;
	d->max_rx_queues = 2;
	d->max_tx_queues = 2;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
}

/* drivers/net/i40e/i40e_ethdev.c i40e_dev_info_get(): a PMD that offers
 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE (as tx_queue_offload_capa, in
 * tx_offload_capa too); I40E_BUF_SIZE_MIN 1024, I40E_FRAME_SIZE_MAX 9728,
 * I40E_ETH_OVERHEAD 26; I40E_MIN/MAX_RING_DESC 64/4096, align 32; RSS:
 * I40E_RSS_OFFLOAD_ALL (no plain ipv4/ipv6/ipv6-ex bits: its types are
 * per packet class), a 512-entry LUT (hash_lut_size of an XL710 PF). */
void
info_i40e(struct rte_eth_dev_info *d)
{
	info_hw(d, "net_i40e", 64, 1024, 9728, 9728 - 26, 64, 4096, 4096);
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_SCATTER;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
	desc_lim(&d->rx_desc_lim, 64, 4096, 32);
	desc_lim(&d->tx_desc_lim, 64, 4096, 32);
	d->hash_key_size = 52;
	d->reta_size = RTE_ETH_RSS_RETA_SIZE_512;
	d->flow_type_rss_offloads = RTE_ETH_RSS_FRAG_IPV4 |
		RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP |
		RTE_ETH_RSS_NONFRAG_IPV4_SCTP | RTE_ETH_RSS_NONFRAG_IPV4_OTHER |
		RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP |
		RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_NONFRAG_IPV6_SCTP |
		RTE_ETH_RSS_NONFRAG_IPV6_OTHER | RTE_ETH_RSS_L2_PAYLOAD;
}

/* X550: as the 82599, with ixgbe_reta_size_get()'s 512 entries. */
void
info_ixgbe_x550(struct rte_eth_dev_info *d)
{
	info_ixgbe(d);
	d->reta_size = RTE_ETH_RSS_RETA_SIZE_512;
}

/* 82576 (QEMU -device igb): as the i350, with eth_igb_infos_get()'s 16
 * queues (e1000_82576: max_rx_queues 16, VMDq pools of 8). */
void
info_igb_82576(struct rte_eth_dev_info *d)
{
	info_igb(d);
	d->max_rx_queues = 16;
	d->max_tx_queues = 16;
}

/* drivers/net/tap/rte_eth_tap.c tap_dev_info(): RSS "of IP, UDP and TCP
 * together" (~TAP_RSS_HF_MASK), no RETA (reta_size left 0), 16 queues
 * (RTE_PMD_TAP_MAX_QUEUES), 1522-byte frames. */
void
info_tap(struct rte_eth_dev_info *d)
{
	info_init(d, "net_tap");
	d->max_rx_pktlen = RTE_ETHER_MAX_VLAN_FRAME_LEN;
	d->max_rx_queues = 16;
	d->max_tx_queues = 16;
	d->hash_key_size = 40;
	d->flow_type_rss_offloads = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP |
		RTE_ETH_RSS_TCP;
}
