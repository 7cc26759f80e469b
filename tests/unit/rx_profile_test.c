/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RX profiles (drivers/net/npool_rx_profile.h): lookup by driver name with
 * the generic fallback, and npool_rx_profile_plan() fed the dev_info each
 * PMD of DPDK 22.11 reports (fixtures below, each citing the source it
 * comes from) -> data room, RX buffer, scattered RX, offloads, descriptors,
 * and the errors for an impossible MTU or data room; fitting a live port
 * (a net_null vdev).
 */
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool_rx_profile.h"
#include "unit_common.h"

#define ROOM_1500 (2048 + RTE_PKTMBUF_HEADROOM)

/* What rte_eth_dev_info_get() (lib/ethdev/rte_ethdev.c) sets before it
 * calls the PMD: zeroes, desc limits { UINT16_MAX, 0, 1 }, min_mtu 46,
 * max_mtu UINT16_MAX. */
static void
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

static void
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
static void
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
static void
info_ixgbe(struct rte_eth_dev_info *d)
{
	/* max_mtu: minus IXGBE_ETH_OVERHEAD 18 */
	info_hw(d, "net_ixgbe", 128, 1024, 15872, 15872 - 18, 64, 4096, 4096);
	d->max_tx_queues = 64;
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
static void
info_igb(struct rte_eth_dev_info *d)
{
	info_hw(d, "net_e1000_igb", 8, 256, 0x3FFF, 0x3FFF - 22, 32, 4096,
			4096);
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
static void
info_fm10k(struct rte_eth_dev_info *d)
{
	info_hw(d, "net_fm10k", 128, 256, 15 * 1024, 0, 32, 16384, 32768);
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
 * queues; E1000_MIN/MAX_RING_DESC 32/4096, EM_RXD/TXD_ALIGN 8); offloads:
 * em_rxtx.c em_get_rx/tx_port_offloads_capa(). */
static void
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

#define EM_82574_PKTLEN 0x2412  /* 9234 */
#define EM_82540_PKTLEN 0x3F00  /* 16128 */

/* drivers/net/pcap/pcap_ethdev.c eth_dev_info(): no frame limit, no
 * offloads, as many queues as rx_pcap= / tx_pcap= devargs (two here);
 * eth_pcap_rx_jumbo() chains what does not fit an mbuf. */
static void
info_pcap(struct rte_eth_dev_info *d)
{
	info_init(d, "net_pcap");
	d->max_rx_pktlen = (uint32_t)-1;
	d->max_rx_queues = 2;
	d->max_tx_queues = 2;
}

/* drivers/net/af_packet/rte_eth_af_packet.c eth_dev_info(): 1518-byte
 * frames, copied whole into one mbuf by eth_af_packet_rx(); qpairs=2. */
static void
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
 * I40E_ETH_OVERHEAD 26; I40E_MIN/MAX_RING_DESC 64/4096, align 32. */
static void
info_i40e(struct rte_eth_dev_info *d)
{
	info_hw(d, "net_i40e", 64, 1024, 9728, 9728 - 26, 64, 4096, 4096);
	d->rx_offload_capa = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_SCATTER;
	d->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
	desc_lim(&d->rx_desc_lim, 64, 4096, 32);
	desc_lim(&d->tx_desc_lim, 64, 4096, 32);
}

/* What the apps ask for: IPv4 checksum on RX, chains and (as l3fwd when
 * offered) fast free on TX, one RX queue, two TX queues. */
static struct npool_rx_req
req_of(uint16_t mtu, uint16_t data_room)
{
	struct npool_rx_req r = {
		.mtu = mtu, .data_room = data_room, .nb_rxq = 1, .nb_txq = 2,
		.rx_offloads = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM,
		.tx_offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
			RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE,
	};

	return r;
}

/* Plan @d for @mtu / @room (0 = the plan's); assert success. */
static struct npool_rx_plan
plan_ok(const struct rte_eth_dev_info *d, uint16_t mtu, uint16_t room)
{
	const struct npool_rx_req r = req_of(mtu, room);
	struct npool_rx_plan pl;

	assert_int_equal(npool_rx_profile_plan(
			npool_rx_profile_find(d->driver_name), d, &r, &pl), 0);
	assert_null(pl.reason);
	return pl;
}

/* Plan @d for @mtu / @room; assert it fails with -@err and rte_errno. */
static struct npool_rx_plan
plan_fails(const struct rte_eth_dev_info *d, uint16_t mtu, uint16_t room,
		int err)
{
	const struct npool_rx_req r = req_of(mtu, room);
	struct npool_rx_plan pl;

	rte_errno = 0;
	assert_int_equal(npool_rx_profile_plan(
			npool_rx_profile_find(d->driver_name), d, &r, &pl), -err);
	assert_int_equal(rte_errno, err);
	assert_non_null(pl.reason);
	return pl;
}

/* The buffer figures of a plan. */
static void
assert_buf(const struct npool_rx_plan *pl, uint16_t room, uint32_t buf,
		bool scatter, uint16_t segs)
{
	assert_int_equal(pl->data_room, room);
	assert_int_equal(pl->rx_buf_size, buf);
	assert_int_equal(pl->scatter, scatter);
	assert_int_equal(pl->segs_per_frame, segs);
}

static void
check_profile(const char *driver, const char *kernel, uint16_t nb_desc)
{
	const struct npool_rx_profile *p = npool_rx_profile_find(driver);

	assert_non_null(p);
	assert_string_equal(p->driver, driver);
	assert_string_equal(p->kernel_driver, kernel);
	assert_int_equal(p->nb_rxd, nb_desc);
	assert_int_equal(p->nb_txd, nb_desc);
	assert_int_equal(p->copybreak, NPOOL_RX_HDR_LEN);
	assert_int_equal(p->rx_free_thresh, 32);
	assert_int_equal(p->burst, 32);
	assert_int_equal(p->data_room, ROOM_1500);
}

static void
test_profile_found_by_driver_name(void **state __rte_unused)
{
	check_profile("net_ixgbe", "ixgbe", 512);
	check_profile("net_e1000_igb", "igb", 256);
	check_profile("net_fm10k", "fm10k", 256);
	check_profile("net_e1000_em", "e1000e", 256);
	assert_int_equal(NPOOL_RX_HDR_LEN, 256);
}

static void
test_unknown_driver_gets_generic_profile(void **state __rte_unused)
{
	static const char *const names[] = { "net_null", "", "net_ixgbe_vf",
		"NET_IXGBE", "net_ixgb", "ixgbe", "net_e1000_igb_vf",
		"net_e1000" };
	const struct npool_rx_profile *g = npool_rx_profile_find(NULL);
	unsigned int i;

	assert_non_null(g);
	assert_string_equal(g->driver, "generic");
	assert_int_equal(g->data_room, RTE_MBUF_DEFAULT_BUF_SIZE);
	assert_int_equal(g->nb_rxd, 1024);
	assert_int_equal(g->copybreak, NPOOL_RX_HDR_LEN);
	for (i = 0; i < RTE_DIM(names); i++)
		assert_ptr_equal(npool_rx_profile_find(names[i]), g);
}

static void
test_profile_of_port_by_its_driver(void **state __rte_unused)
{
	uint16_t port;

	assert_int_equal(rte_eth_dev_get_port_by_name("net_null0", &port), 0);
	assert_ptr_equal(npool_rx_profile_of_port(port),
			npool_rx_profile_find("net_null"));
	rte_errno = 0;
	assert_null(npool_rx_profile_of_port(RTE_MAX_ETHPORTS));
	assert_int_equal(rte_errno, ENODEV);
}

static void
test_plan_ixgbe(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_ixgbe(&d);
	/* 1500: 1518 + 8 (dual VLAN) in a 2 KiB buffer. */
	pl = plan_ok(&d, 0, 0);
	assert_int_equal(pl.mtu, 1500);
	assert_int_equal(pl.max_mtu, 15854);
	assert_int_equal(pl.max_frame, 1518);
	assert_int_equal(pl.whole_room, ROOM_1500);
	assert_buf(&pl, ROOM_1500, 2048, false, 1);
	assert_int_equal(pl.nb_rxd, 512);
	assert_int_equal(pl.nb_txd, 512);
	assert_int_equal(pl.nb_mbufs, 512 + 2 * 512);
	assert_int_equal(pl.rx_free_thresh, 32);
	assert_int_equal(pl.rx_offloads, RTE_ETH_RX_OFFLOAD_IPV4_CKSUM);
	/* ixgbe offers no fast free: nothing to switch off. */
	assert_int_equal(pl.tx_offloads, RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	assert_int_equal(pl.tx_offloads_off, 0);
	/* 9000: 9026 bytes rounded up to 9 KiB of BSIZEPKT. */
	pl = plan_ok(&d, 9000, 0);
	assert_buf(&pl, 9216 + RTE_PKTMBUF_HEADROOM, 9216, false, 1);
	/* 3000 bytes of data room look like enough for a 2100 MTU, but
	 * BSIZEPKT rounds 2872 down to 2048: chains, scattered RX. */
	pl = plan_ok(&d, 2100, 3000);
	assert_buf(&pl, 3000, 2048, true, 2);
	assert_int_equal(pl.whole_room, 3072 + RTE_PKTMBUF_HEADROOM);
	assert_int_equal(pl.rx_offloads, RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_RX_OFFLOAD_SCATTER);
	/* A jumbo MTU in the default mbufs: five segments. */
	pl = plan_ok(&d, 9000, ROOM_1500);
	assert_buf(&pl, ROOM_1500, 2048, true, 5);
	/* The largest MTU fits the largest buffer, 16 KiB. */
	pl = plan_ok(&d, 15854, 0);
	assert_buf(&pl, 16384 + RTE_PKTMBUF_HEADROOM, 16384, false, 1);
	pl = plan_fails(&d, 15855, 0, EINVAL);
	assert_int_equal(pl.max_mtu, 15854);
	plan_fails(&d, RTE_ETHER_MIN_MTU - 1, 0, EINVAL);
	/* Below min_rx_bufsize (1024) after the headroom. */
	plan_fails(&d, 1500, 1023 + RTE_PKTMBUF_HEADROOM, EINVAL);
}

static void
test_plan_igb(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_igb(&d);
	/* E1000_ETH_OVERHEAD 22 + dual VLAN 8: 1530 in 2 KiB. */
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.max_mtu, 16361);
	assert_int_equal(pl.max_frame, 1522);
	assert_buf(&pl, ROOM_1500, 2048, false, 1);
	assert_int_equal(pl.nb_rxd, 256);
	assert_int_equal(pl.nb_mbufs, 256 + 2 * 256);
	pl = plan_ok(&d, 9000, 0);
	assert_buf(&pl, 9216 + RTE_PKTMBUF_HEADROOM, 9216, false, 1);
	/* 1025 + 8 + 22 = 1055 bytes: 2 KiB, since BSIZEPKT is in KiB. */
	pl = plan_ok(&d, 1025, 0);
	assert_buf(&pl, ROOM_1500, 2048, false, 1);
	/* Below 1 KiB igb uses RCTL.BSIZE 512 and always scatters. */
	pl = plan_ok(&d, 1500, 900);
	assert_buf(&pl, 900, 512, true, 3);
	assert_true(pl.rx_offloads & RTE_ETH_RX_OFFLOAD_SCATTER);
	pl = plan_ok(&d, 16361, 0);
	assert_buf(&pl, 17408 + RTE_PKTMBUF_HEADROOM, 17408, false, 1);
	plan_fails(&d, 16362, 0, EINVAL);
}

static void
test_plan_fm10k(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_fm10k(&d);
	/* 512 bytes kept for alignment, 256-byte units: 1526 in 1536. */
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.max_mtu, 15360 - 18);
	assert_buf(&pl, ROOM_1500, 1536, false, 1);
	assert_int_equal(pl.nb_rxd, 256);
	assert_int_equal(pl.nb_txd, 256);
	/* 9026 -> 9216, + 512 + headroom. */
	pl = plan_ok(&d, 9000, 0);
	assert_buf(&pl, 9216 + 512 + RTE_PKTMBUF_HEADROOM, 9216, false, 1);
	/* 1600 needs 1626 > 1536: the default mbufs scatter. */
	pl = plan_ok(&d, 1600, ROOM_1500);
	assert_buf(&pl, ROOM_1500, 1536, true, 2);
	assert_int_equal(pl.tx_offloads, RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	plan_fails(&d, 15343, 0, EINVAL);
	/* Data room that leaves nothing past the 512 reserved bytes. */
	plan_fails(&d, 1500, 512 + RTE_PKTMBUF_HEADROOM + 255, EINVAL);
}

static void
test_plan_em_82574(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_em(&d, EM_82574_PKTLEN);
	/* RCTL.BSIZE 2048 holds 1522 (one VLAN tag): no scatter. */
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.max_mtu, 9234 - 18);
	assert_buf(&pl, ROOM_1500, 2048, false, 1);
	assert_int_equal(pl.rx_offloads, RTE_ETH_RX_OFFLOAD_IPV4_CKSUM);
	assert_int_equal(pl.nb_rxd, 256);
	/* Above 1500 em always scatters (eth_em_rx_init()); a whole 9234
	 * frame needs BSIZE 16384. */
	pl = plan_ok(&d, 9216, 0);
	assert_int_equal(pl.max_frame, 9234);
	assert_buf(&pl, 16384 + RTE_PKTMBUF_HEADROOM, 16384, true, 1);
	assert_int_equal(pl.rx_offloads, RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_RX_OFFLOAD_SCATTER);
	/* 9600 is beyond what the 82574L takes (9234-byte frames). */
	pl = plan_fails(&d, 9600, 0, EINVAL);
	assert_int_equal(pl.max_mtu, 9216);
	plan_fails(&d, 9217, 0, EINVAL);
	/* 3872 bytes of buffer: BSIZE 2048, the largest power of two. */
	pl = plan_ok(&d, 1500, 4000);
	assert_buf(&pl, 4000, 2048, false, 1);
	/* A buffer below 1518: forced scatter, two segments. */
	pl = plan_ok(&d, 1500, 1500);
	assert_buf(&pl, 1500, 1024, true, 2);
	/* Queues: em has two. */
	{
		struct npool_rx_req r = req_of(1500, 0);

		r.nb_rxq = 3;
		rte_errno = 0;
		assert_int_equal(npool_rx_profile_plan(
				npool_rx_profile_find("net_e1000_em"), &d, &r,
				&pl), -ENOTSUP);
		assert_int_equal(rte_errno, ENOTSUP);
	}
}

static void
test_plan_em_82540(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_em(&d, EM_82540_PKTLEN);
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.max_mtu, 16128 - 18);
	assert_buf(&pl, ROOM_1500, 2048, false, 1);
	pl = plan_ok(&d, 16110, 0);
	assert_buf(&pl, 16384 + RTE_PKTMBUF_HEADROOM, 16384, true, 1);
	plan_fails(&d, 16111, 0, EINVAL);
}

static void
test_plan_generic_vdevs(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_pcap(&d);
	pl = plan_ok(&d, 1500, 0);
	assert_buf(&pl, RTE_MBUF_DEFAULT_BUF_SIZE, 2048, false, 1);
	assert_int_equal(pl.nb_rxd, 1024);
	assert_int_equal(pl.rx_offloads, 0);
	assert_int_equal(pl.tx_offloads, 0);
	/* The buffer as is: 9018 bytes. */
	pl = plan_ok(&d, 9000, 0);
	assert_buf(&pl, 9018 + RTE_PKTMBUF_HEADROOM, 9018, false, 1);
	/* No data room holds 65553 bytes: chains that net_pcap makes on its
	 * own (no frame limit), without the offload. */
	pl = plan_ok(&d, UINT16_MAX, 0);
	assert_int_equal(pl.whole_room, 0);
	assert_buf(&pl, RTE_MBUF_DEFAULT_BUF_SIZE, 2048, true, 33);
	assert_int_equal(pl.rx_offloads, 0);
	pl = plan_ok(&d, 1500, 192);
	assert_buf(&pl, 192, 64, true, 24);

	info_af_packet(&d);
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.max_mtu, 1500);
	assert_buf(&pl, RTE_MBUF_DEFAULT_BUF_SIZE, 2048, false, 1);
	assert_int_equal(pl.tx_offloads, RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	/* af_packet copies a frame into one mbuf: no chains possible. */
	pl = plan_fails(&d, 1500, 192, EINVAL);
	assert_int_equal(pl.whole_room, 1518 + RTE_PKTMBUF_HEADROOM);
	plan_fails(&d, 1501, 0, EINVAL);
}

static void
test_plan_switches_fast_free_off(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_i40e(&d);
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.tx_offloads_off, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
	assert_int_equal(pl.tx_offloads, RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	assert_int_equal(pl.max_mtu, 9702);
	/* Descriptors as rte_eth_dev_adjust_nb_rx_tx_desc(): 1024 is a
	 * multiple of 32; a 1000-descriptor maximum clamps it. */
	assert_int_equal(pl.nb_rxd, 1024);
	desc_lim(&d.rx_desc_lim, 64, 1000, 32);
	desc_lim(&d.tx_desc_lim, 2048, 4096, 32);
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.nb_rxd, 1000);
	assert_int_equal(pl.nb_txd, 2048);
	assert_int_equal(pl.nb_mbufs, 1000 + 2 * 2048);
	/* Aligned up (a power of two, as RTE_ALIGN_CEIL() wants). */
	desc_lim(&d.rx_desc_lim, 64, 4096, 2048);
	pl = plan_ok(&d, 1500, 0);
	assert_int_equal(pl.nb_rxd, 2048);
}

static void
test_plan_rejects_null_arguments(void **state __rte_unused)
{
	const struct npool_rx_profile *p = npool_rx_profile_find(NULL);
	const struct npool_rx_req r = req_of(1500, 0);
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	info_pcap(&d);
	rte_errno = 0;
	assert_int_equal(npool_rx_profile_plan(NULL, &d, &r, &pl), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	assert_int_equal(npool_rx_profile_plan(p, NULL, &r, &pl), -EINVAL);
	assert_int_equal(npool_rx_profile_plan(p, &d, NULL, &pl), -EINVAL);
	assert_int_equal(npool_rx_profile_plan(p, &d, &r, NULL), -EINVAL);
}

static void
test_fit_writes_the_plan_into_the_port_conf(void **state __rte_unused)
{
	struct npool_rx_req r = req_of(9000, 0);
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	struct npool_rx_plan pl;
	uint16_t port;

	assert_int_equal(rte_eth_dev_get_port_by_name("net_null0", &port), 0);
	assert_int_equal(rte_eth_dev_info_get(port, &info), 0);
	memset(&conf, 0, sizeof(conf));
	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	r.nb_txq = 1;
	assert_int_equal(npool_rx_profile_fit(port,
			npool_rx_profile_of_port(port), &r, &conf, &pl), 0);
	/* net_null: no frame limit, no RX offload; of the TX offloads
	 * asked for, those it offers (multi-segment TX from 25.07 on, none
	 * before), never fast free (the value set above is overwritten). */
	assert_int_equal(conf.rxmode.mtu, 9000);
	assert_int_equal(conf.rxmode.offloads, 0);
	assert_int_equal(conf.txmode.offloads, r.tx_offloads &
			info.tx_offload_capa &
			~RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
	assert_int_equal(pl.data_room, 9018 + RTE_PKTMBUF_HEADROOM);
	assert_int_equal(pl.nb_rxd, 1024);
	/* The configuration is one the port takes. */
	assert_int_equal(rte_eth_dev_configure(port, 1, 1, &conf), 0);
	rte_errno = 0;
	assert_int_equal(npool_rx_profile_fit(RTE_MAX_ETHPORTS,
			npool_rx_profile_find(NULL), &r, &conf, &pl), -ENODEV);
	assert_int_equal(rte_errno, ENODEV);
	assert_non_null(pl.reason);
}

int
main(void)
{
	static const char *vdev[] = { "--vdev=net_null0" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_found_by_driver_name),
		cmocka_unit_test(test_unknown_driver_gets_generic_profile),
		cmocka_unit_test(test_profile_of_port_by_its_driver),
		cmocka_unit_test(test_plan_ixgbe),
		cmocka_unit_test(test_plan_igb),
		cmocka_unit_test(test_plan_fm10k),
		cmocka_unit_test(test_plan_em_82574),
		cmocka_unit_test(test_plan_em_82540),
		cmocka_unit_test(test_plan_generic_vdevs),
		cmocka_unit_test(test_plan_switches_fast_free_off),
		cmocka_unit_test(test_plan_rejects_null_arguments),
		cmocka_unit_test(test_fit_writes_the_plan_into_the_port_conf),
	};

	return ut_main("npool_ut_rx_profile", 1, vdev, "tests", tests,
			RTE_DIM(tests));
}
