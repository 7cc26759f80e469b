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
#include "rx_devinfo.h"
#include "unit_common.h"

#define ROOM_1500 (2048 + RTE_PKTMBUF_HEADROOM)

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
test_plan_takes_queue_sizes(void **state __rte_unused)
{
	struct npool_rx_req r = req_of(0, 0);
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	/* --rx-queue-size 100 --tx-queue-size 10 on ixgbe: aligned up to
	 * 104 (IXGBE_RXD_ALIGN 8), raised to the minimum 64. */
	info_ixgbe(&d);
	r.nb_rxd = 100;
	r.nb_txd = 10;
	assert_int_equal(npool_rx_profile_plan(npool_rx_profile_find(
			d.driver_name), &d, &r, &pl), 0);
	assert_int_equal(pl.nb_rxd, 104);
	assert_int_equal(pl.nb_txd, 64);
	/* The pool is sized for the rings as adjusted. */
	assert_int_equal(pl.nb_mbufs, 104 + 2 * 64);
	r.nb_rxd = 8192;
	r.nb_txd = UINT16_MAX;
	assert_int_equal(npool_rx_profile_plan(npool_rx_profile_find(
			d.driver_name), &d, &r, &pl), 0);
	assert_int_equal(pl.nb_rxd, 4096);
	assert_int_equal(pl.nb_txd, 4096);
	/* A vdev without limits takes them as given. */
	info_pcap(&d);
	r.nb_rxd = 100;
	r.nb_txd = 3;
	assert_int_equal(npool_rx_profile_plan(npool_rx_profile_find(
			d.driver_name), &d, &r, &pl), 0);
	assert_int_equal(pl.nb_rxd, 100);
	assert_int_equal(pl.nb_txd, 3);
	assert_int_equal(pl.nb_mbufs, 100 + 2 * 3);
}

/* Plan @d for l3fwd's --max-pkt-len @len with an MTU floor of @mtu. */
static int
plan_pkt_len(const struct rte_eth_dev_info *d, uint32_t len, uint16_t mtu,
		struct npool_rx_plan *pl)
{
	struct npool_rx_req r = req_of(mtu, 0);

	r.max_pkt_len = len;
	rte_errno = 0;
	return npool_rx_profile_plan(npool_rx_profile_find(d->driver_name),
			d, &r, pl);
}

static void
test_plan_max_pkt_len_as_l3fwd(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct npool_rx_plan pl;

	/* ixgbe: max_rx_pktlen - max_mtu = 18. */
	info_ixgbe(&d);
	assert_int_equal(plan_pkt_len(&d, 9018, 0, &pl), 0);
	assert_int_equal(pl.mtu, 9000);
	assert_int_equal(pl.max_frame, 9018);
	/* igb counts a VLAN tag in its overhead: 22. */
	info_igb(&d);
	assert_int_equal(plan_pkt_len(&d, 9018, 0, &pl), 0);
	assert_int_equal(pl.mtu, 8996);
	/* em reports no max_mtu: ethdev's 18. */
	info_em(&d, EM_82574_PKTLEN);
	assert_int_equal(plan_pkt_len(&d, 1518, 0, &pl), 0);
	assert_int_equal(pl.mtu, 1500);
	/* A floor: the apps keep ports at 1500 at least. */
	assert_int_equal(plan_pkt_len(&d, 1000, 1500, &pl), 0);
	assert_int_equal(pl.mtu, 1500);
	assert_int_equal(plan_pkt_len(&d, 1000, 0, &pl), 0);
	assert_int_equal(pl.mtu, 982);
	/* Not above the overhead, or beyond the device. */
	assert_int_equal(plan_pkt_len(&d, 18, 0, &pl), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	assert_non_null(pl.reason);
	info_ixgbe(&d);
	assert_int_equal(plan_pkt_len(&d, 15873, 0, &pl), -EINVAL);
	assert_int_equal(pl.max_mtu, 15854);
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
		cmocka_unit_test(test_plan_takes_queue_sizes),
		cmocka_unit_test(test_plan_max_pkt_len_as_l3fwd),
		cmocka_unit_test(test_plan_rejects_null_arguments),
		cmocka_unit_test(test_fit_writes_the_plan_into_the_port_conf),
	};

	return ut_main("npool_ut_rx_profile", 1, vdev, "tests", tests,
			RTE_DIM(tests));
}
