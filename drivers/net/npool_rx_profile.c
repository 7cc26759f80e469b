/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool_rx_profile.h"

/* Two VLAN tags: ixgbe, igb and fm10k add them to a frame ("dual VLAN")
 * before comparing it with the RX buffer. */
#define DUAL_VLAN (2 * RTE_VLAN_HLEN)
/* ethdev's MTU-to-frame overhead when the PMD reports no max_mtu. */
#define ETH_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)
/* e1000's E1000_ETH_OVERHEAD: header, CRC and one VLAN tag. */
#define E1000_OVERHEAD (ETH_OVERHEAD + RTE_VLAN_HLEN)

/*
 * Ring sizes and copy-break from the kernel drivers (IXGBE_DEFAULT_RXD
 * 512, IGB_DEFAULT_RXD, FM10K_DEFAULT_RXD, e1000e's E1000_DEFAULT_RXD: 256;
 * IXGBE_RX_HDR_SIZE, IGB_RX_HDR_LEN, FM10K_RX_HDR_LEN, e1000e's copybreak:
 * 256). Buffer rules from the DPDK 22.11 PMDs:
 *
 * net_ixgbe, drivers/net/ixgbe/ixgbe_rxtx.c ixgbe_dev_rx_init(): SRRCTL.
 *   BSIZEPKT = (data room - headroom) >> IXGBE_SRRCTL_BSIZEPKT_SHIFT (10),
 *   "1 KB to 16 KB"; scattered RX when mtu + IXGBE_ETH_OVERHEAD (18) +
 *   2 * RTE_VLAN_HLEN > buffer. ixgbe_ethdev.c ixgbe_dev_info_get():
 *   min_rx_bufsize 1024, max_rx_pktlen 15872, max_mtu 15872 - 18.
 * net_e1000_igb, drivers/net/e1000/igb_rxtx.c eth_igb_rx_init(): buffers
 *   of 1 KB and more go to SRRCTL.BSIZEPKT in 1 KB units ("from 1 KB to
 *   127 KB"); scattered RX when mtu + E1000_ETH_OVERHEAD (22) + 2 *
 *   VLAN_TAG_SIZE > buffer; below 1 KB, RCTL.BSIZE 512 or 256 and
 *   scattered RX always. igb_ethdev.c eth_igb_infos_get(): min_rx_bufsize
 *   256, max_rx_pktlen 0x3FFF, max_mtu 0x3FFF - 22.
 * net_fm10k, drivers/net/fm10k/fm10k_ethdev.c fm10k_dev_rx_init(): buffer
 *   = data room - headroom - FM10K_RX_DATABUF_ALIGN (512, the worst-case
 *   alignment), written >> FM10K_SRRCTL_BSIZEPKT_SHIFT (8: 256-byte
 *   units); scattered RX when mtu + 18 + 2 * RTE_VLAN_HLEN > buffer.
 *   fm10k_dev_infos_get(): min_rx_bufsize 256, max_rx_pktlen 15 * 1024,
 *   no max_mtu; no mtu_set op (rxmode.mtu is the way).
 * net_e1000_em, drivers/net/e1000/em_rxtx.c eth_em_rx_init() and
 *   em_rctl_bsize(): RCTL.BSIZE/BSEX, the largest of 16384, 8192, 4096,
 *   2048, 1024, 512, 256 that fits (data room - headroom), at most
 *   EM_MAX_BUF_SIZE 16384 (FLXBUF unused: broken on VMware's 82574L);
 *   scattered RX always above a 1500 MTU ("EM devices not having any sort
 *   of hardware limit for packet length") or with a buffer below
 *   RTE_ETHER_MAX_LEN (1518). em_ethdev.c eth_em_infos_get():
 *   min_rx_bufsize 256, max_rx_pktlen em_get_max_pktlen(): 0x2412 (9234)
 *   for 82571/2, 82574 (QEMU's e1000e), 82583, ich9/10, pch2/lpt/spt/cnp,
 *   80003es2lan; 0x1000 for pchlan; 1518 for ich8lan; else
 *   MAX_JUMBO_FRAME_SIZE 0x3F00 (82540EM, QEMU's e1000); no max_mtu.
 * RSS (npool_rx_rss_plan()): without it the four NICs put every packet in
 *   RX queue 0 (MRQC off), so several polled queues need it. ixgbe spreads
 *   over 16 queues at most (the kernel's IXGBE_MAX_RSS_INDICES, 4-bit RETA
 *   entries of 82599/X540; an X550's 512-entry RETA reaches 63, not
 *   modelled), igb over 8 (IGB_MAX_RX_QUEUES; dev_info caps i210/i211 at
 *   4/2), fm10k over its 128 RETA entries; em has no RSS at all in 22.11
 *   (flow_type_rss_offloads 0, "we support just one RX queue for now (no
 *   RSS)" in eth_em_infos_get(), which reports two queues since 22.11.3).
 * Descriptors: ixgbe 64..4096, align 8 (IXGBE_MIN/MAX_RING_DESC,
 *   IXGBE_RXD_ALIGN); igb and em 32..4096, align 8 (E1000_MIN/MAX_RING_DESC,
 *   IGB_RXD_ALIGN, EM_RXD_ALIGN); fm10k 32..16384 RX / 32768 TX, align 8:
 *   the PMD's own limits come from dev_info at run time.
 */
static const struct npool_rx_profile profiles[] = {
	{ .driver = "net_ixgbe", .kernel_driver = "ixgbe",
		.nb_rxd = 512, .nb_txd = 512, .copybreak = NPOOL_RX_HDR_LEN,
		.rx_free_thresh = 32, .burst = 32,
		.data_room = 2048 + RTE_PKTMBUF_HEADROOM,
		.bufsz_rule = NPOOL_RX_BUFSZ_ALIGN, .buf_align = 1024,
		.buf_max = 16384, .frame_overhead = ETH_OVERHEAD,
		.frame_slack = DUAL_VLAN,
		.rss_needed = true, .rss_max_queues = 16 },
	{ .driver = "net_e1000_igb", .kernel_driver = "igb",
		.nb_rxd = 256, .nb_txd = 256, .copybreak = NPOOL_RX_HDR_LEN,
		.rx_free_thresh = 32, .burst = 32,
		.data_room = 2048 + RTE_PKTMBUF_HEADROOM,
		.bufsz_rule = NPOOL_RX_BUFSZ_ALIGN, .buf_align = 1024,
		.buf_max = 127 * 1024, .frame_overhead = E1000_OVERHEAD,
		.frame_slack = DUAL_VLAN, .scatter_below = 1024,
		.rss_needed = true, .rss_max_queues = 8 },
	{ .driver = "net_fm10k", .kernel_driver = "fm10k",
		.nb_rxd = 256, .nb_txd = 256, .copybreak = NPOOL_RX_HDR_LEN,
		.rx_free_thresh = 32, .burst = 32,
		.data_room = 2048 + RTE_PKTMBUF_HEADROOM,
		.bufsz_rule = NPOOL_RX_BUFSZ_ALIGN, .buf_align = 256,
		.buf_reserve = 512, .frame_overhead = ETH_OVERHEAD,
		.frame_slack = DUAL_VLAN,
		.rss_needed = true },
	{ .driver = "net_e1000_em", .kernel_driver = "e1000e",
		.nb_rxd = 256, .nb_txd = 256, .copybreak = NPOOL_RX_HDR_LEN,
		.rx_free_thresh = 32, .burst = 32,
		.data_room = 2048 + RTE_PKTMBUF_HEADROOM,
		.bufsz_rule = NPOOL_RX_BUFSZ_POW2, .buf_max = 16384,
		.frame_overhead = E1000_OVERHEAD,
		.scatter_below = RTE_ETHER_MAX_LEN,
		.scatter_above_mtu = RTE_ETHER_MTU,
		.rss_needed = true },
	/* Any other PMD, virtual devices included: the data room as is. */
	{ .driver = "generic", .kernel_driver = "-",
		.nb_rxd = 1024, .nb_txd = 1024, .copybreak = NPOOL_RX_HDR_LEN,
		.rx_free_thresh = 32, .burst = 32,
		.data_room = RTE_MBUF_DEFAULT_BUF_SIZE,
		.bufsz_rule = NPOOL_RX_BUFSZ_ALIGN, .buf_align = 1 },
};

const struct npool_rx_profile *
npool_rx_profile_find(const char *driver_name)
{
	unsigned int i;

	for (i = 0; driver_name != NULL && i < RTE_DIM(profiles) - 1; i++)
		if (strcmp(profiles[i].driver, driver_name) == 0)
			return &profiles[i];
	return &profiles[RTE_DIM(profiles) - 1];
}

const struct npool_rx_profile *
npool_rx_profile_of_port(uint16_t port_id)
{
	struct rte_eth_dev_info info;

	if (!rte_eth_dev_is_valid_port(port_id) ||
			rte_eth_dev_info_get(port_id, &info) != 0) {
		rte_errno = ENODEV;
		return NULL;
	}
	return npool_rx_profile_find(info.driver_name);
}

/* ethdev's eth_dev_get_overhead_len(): MTU to frame, CRC included. */
static uint32_t
eth_overhead(const struct rte_eth_dev_info *info)
{
	if (info->max_mtu != UINT16_MAX && info->max_rx_pktlen > info->max_mtu)
		return info->max_rx_pktlen - info->max_mtu;
	return ETH_OVERHEAD;
}

/* The buffer the PMD programs for a data room of @room bytes. */
static uint32_t
rx_buf_size(const struct npool_rx_profile *p, uint32_t room)
{
	uint32_t b, r;

	if (room <= (uint32_t)RTE_PKTMBUF_HEADROOM + p->buf_reserve)
		return 0;
	b = room - RTE_PKTMBUF_HEADROOM - p->buf_reserve;
	if (p->bufsz_rule == NPOOL_RX_BUFSZ_POW2) {
		r = rte_align32prevpow2(b);
	} else {
		r = b - b % RTE_MAX(p->buf_align, (uint16_t)1);
		if (r == 0)
			r = rte_align32prevpow2(b);
	}
	return p->buf_max != 0 ? RTE_MIN(r, p->buf_max) : r;
}

/* Smallest data room whose buffer holds @need bytes; 0 when none does. */
static uint32_t
whole_frame_room(const struct npool_rx_profile *p,
		const struct rte_eth_dev_info *info, uint32_t need)
{
	uint32_t buf, room;

	need = RTE_MAX(need, info->min_rx_bufsize);
	if (p->bufsz_rule == NPOOL_RX_BUFSZ_POW2)
		buf = rte_align32pow2(need);
	else
		buf = RTE_ALIGN_CEIL(need, RTE_MAX(p->buf_align, (uint16_t)1));
	if (p->buf_max != 0 && buf > p->buf_max)
		return 0;
	room = buf + p->buf_reserve + RTE_PKTMBUF_HEADROOM;
	return room <= UINT16_MAX ? room : 0;
}

/* ethdev's eth_dev_adjust_nb_desc(): align up, then clamp. */
static uint16_t
adjust_nb_desc(uint16_t nb, const struct rte_eth_desc_lim *lim)
{
	uint32_t n = nb;

	if (lim->nb_align != 0)
		n = RTE_ALIGN_CEIL(n, lim->nb_align);
	if (lim->nb_max != 0)
		n = RTE_MIN(n, lim->nb_max);
	return (uint16_t)RTE_MAX(n, lim->nb_min);
}

static int
plan_fail(struct npool_rx_plan *plan, int err, const char *reason)
{
	plan->reason = reason;
	rte_errno = err;
	return -err;
}

/* MTU range as rte_eth_dev_configure() checks it; fills mtu, max_mtu,
 * max_frame. */
static int
plan_mtu(const struct rte_eth_dev_info *info, uint16_t mtu,
		struct npool_rx_plan *plan)
{
	uint32_t overhead = eth_overhead(info);

	plan->mtu = mtu != 0 ? mtu : RTE_ETHER_MTU;
	plan->max_frame = plan->mtu + overhead;
	plan->max_mtu = info->max_mtu;
	if (info->max_rx_pktlen < overhead + plan->max_mtu)
		plan->max_mtu = info->max_rx_pktlen > overhead ?
			(uint16_t)(info->max_rx_pktlen - overhead) : 0;
	if (plan->mtu < info->min_mtu)
		return plan_fail(plan, EINVAL, "MTU below the device's minimum");
	if (plan->mtu > plan->max_mtu)
		return plan_fail(plan, EINVAL,
				"MTU above the device's maximum (max_rx_pktlen)");
	return 0;
}

int
npool_rx_profile_plan(const struct npool_rx_profile *p,
		const struct rte_eth_dev_info *info,
		const struct npool_rx_req *req, struct npool_rx_plan *plan)
{
	uint32_t need, buf, room;
	uint16_t mtu;
	bool forced;
	int ret;

	if (plan == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memset(plan, 0, sizeof(*plan));
	if (p == NULL || info == NULL || req == NULL)
		return plan_fail(plan, EINVAL, "no profile, dev_info or request");
	mtu = req->mtu;
	if (req->max_pkt_len != 0) {
		/* l3fwd's --max-pkt-len: the frame, less the overhead. */
		if (req->max_pkt_len <= eth_overhead(info) ||
				req->max_pkt_len - eth_overhead(info) >
				UINT16_MAX) {
			plan->max_frame = req->max_pkt_len;
			return plan_fail(plan, EINVAL,
					"largest frame outside the device's range");
		}
		mtu = (uint16_t)RTE_MAX(req->max_pkt_len - eth_overhead(info),
				(uint32_t)mtu);
	}
	ret = plan_mtu(info, mtu, plan);
	need = plan->mtu + (p->frame_overhead != 0 ? p->frame_overhead :
			eth_overhead(info)) + p->frame_slack;
	plan->whole_room = (uint16_t)whole_frame_room(p, info, need);
	if (ret != 0)
		return ret;
	if (req->nb_rxq > info->max_rx_queues ||
			req->nb_txq > info->max_tx_queues)
		return plan_fail(plan, ENOTSUP,
				"more queues than the device has");
	/* A whole frame in one buffer when the hardware allows it; never
	 * less than the profile's data room. */
	room = req->data_room != 0 ? req->data_room :
		plan->whole_room != 0 ?
		RTE_MAX(plan->whole_room, p->data_room) : p->data_room;
	if (room < (uint32_t)RTE_PKTMBUF_HEADROOM + p->buf_reserve +
			RTE_MAX(info->min_rx_bufsize, 1u))
		return plan_fail(plan, EINVAL,
				"data room below the device's min_rx_bufsize");
	buf = rx_buf_size(p, room);
	plan->data_room = (uint16_t)room;
	plan->rx_buf_size = buf;
	plan->segs_per_frame = (uint16_t)((plan->max_frame + buf - 1) / buf);
	forced = (p->scatter_below != 0 && buf < p->scatter_below) ||
		(p->scatter_above_mtu != 0 &&
			plan->mtu > p->scatter_above_mtu);
	plan->scatter = need > buf || forced;
	plan->rx_offloads = req->rx_offloads & info->rx_offload_capa;
	if (plan->scatter && (info->rx_offload_capa &
			RTE_ETH_RX_OFFLOAD_SCATTER))
		plan->rx_offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	else if (need > buf && info->max_rx_pktlen != UINT32_MAX)
		/* The PMD would cut or drop the frame (or, as 22.11's
		 * net_af_packet, write past the buffer). */
		return plan_fail(plan, EINVAL,
				"a frame does not fit one RX buffer and the device has no scattered RX");
	plan->tx_offloads = req->tx_offloads & info->tx_offload_capa;
	plan->tx_offloads_off = plan->tx_offloads & NPOOL_RX_TX_OFFLOADS_OFF;
	plan->tx_offloads &= ~NPOOL_RX_TX_OFFLOADS_OFF;
	/* Chains in, chains out (forwarded as received). */
	if (plan->scatter)
		plan->tx_offloads |= info->tx_offload_capa &
			RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	plan->nb_rxd = adjust_nb_desc(req->nb_rxd != 0 ? req->nb_rxd :
			p->nb_rxd, &info->rx_desc_lim);
	plan->nb_txd = adjust_nb_desc(req->nb_txd != 0 ? req->nb_txd :
			p->nb_txd, &info->tx_desc_lim);
	plan->rx_free_thresh = RTE_MIN(p->rx_free_thresh, plan->nb_rxd);
	plan->nb_mbufs = (uint32_t)req->nb_rxq * plan->nb_rxd +
		(uint32_t)req->nb_txq * plan->nb_txd;
	return 0;
}

int
npool_rx_profile_fit(uint16_t port_id, const struct npool_rx_profile *p,
		const struct npool_rx_req *req, struct rte_eth_conf *conf,
		struct npool_rx_plan *plan)
{
	struct rte_eth_dev_info info;
	int ret;

	if (!rte_eth_dev_is_valid_port(port_id) ||
			rte_eth_dev_info_get(port_id, &info) != 0) {
		if (plan != NULL) {
			memset(plan, 0, sizeof(*plan));
			plan->reason = "no such port";
		}
		rte_errno = ENODEV;
		return -ENODEV;
	}
	if (conf == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = npool_rx_profile_plan(p, &info, req, plan);
	if (ret != 0)
		return ret;
	conf->rxmode.mtu = plan->mtu;
	conf->rxmode.offloads = plan->rx_offloads;
	conf->txmode.offloads = plan->tx_offloads;
	return 0;
}

bool
npool_rx_queues_made_at_probe(const char *driver_name)
{
	static const char *const made[] = {
		"net_af_packet", "net_pcap", "net_af_xdp",
	};
	unsigned int i;

	for (i = 0; driver_name != NULL && i < RTE_DIM(made); i++)
		if (strcmp(driver_name, made[i]) == 0)
			return true;
	return false;
}
