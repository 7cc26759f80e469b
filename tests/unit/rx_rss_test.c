/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RSS plan (drivers/net/npool_rx_rss.h): npool_rx_rss_plan() fed the
 * dev_info of each PMD of DPDK 22.11 (rx_devinfo.c) -> on or off, hash
 * types configured and lacking, RETA contents and spread, and the
 * refusals (a NIC that needs RSS and cannot have it, more queues than its
 * RSS or RETA spreads over, no RETA with unpolled queues); the conf it
 * writes; the type names; the RETA written into a live port (net_null
 * has a 128-entry RETA) and read back.
 */
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool_rx_rss.h"
#include "rx_devinfo.h"
#include "unit_common.h"

/* NPOOL_RX_RSS_HF less what the Intel NICs offer: fragments, "other"
 * protocols and SCTP have no bit of their own there. */
#define INTEL_LACKING (RTE_ETH_RSS_FRAG_IPV4 | RTE_ETH_RSS_FRAG_IPV6 | \
	RTE_ETH_RSS_NONFRAG_IPV4_OTHER | RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
	RTE_ETH_RSS_NONFRAG_IPV4_SCTP | RTE_ETH_RSS_NONFRAG_IPV6_SCTP)

static struct npool_rx_rss_plan pl;

/* Plan @d for @nb_rxq polled of @nb_dev set up queues, default types. */
static int
plan(const struct rte_eth_dev_info *d, uint16_t nb_rxq, uint16_t nb_dev)
{
	const struct npool_rx_rss_req r = {
		.nb_rxq = nb_rxq, .nb_rxq_dev = nb_dev,
	};

	rte_errno = 0;
	return npool_rx_rss_plan(npool_rx_profile_find(d->driver_name), d,
			&r, &pl);
}

/* RSS on over @n queues with a RETA of @size entries spread evenly: each
 * queue 0..n-1 holds reta_min or reta_max entries, entry i queue i % n,
 * no entry beyond the polled queues. */
static void
assert_spread(uint16_t n, uint16_t size)
{
	unsigned int count[NPOOL_RX_RSS_RETA_MAX] = { 0 };
	unsigned int i;

	assert_true(pl.on);
	assert_null(pl.reason);
	assert_int_equal(pl.nb_queues, n);
	assert_int_equal(pl.reta_size, size);
	assert_int_equal(pl.reta_min, size / n);
	assert_int_equal(pl.reta_max, size / n + (size % n != 0));
	for (i = 0; i < size; i++) {
		assert_int_equal(pl.reta[i], i % n);
		count[pl.reta[i]]++;
	}
	for (i = 0; i < n; i++)
		/* assert_in_range() is deprecated in sid's cmocka 2. */
		assert_true(count[i] >= pl.reta_min &&
				count[i] <= pl.reta_max);
	for (; i < NPOOL_RX_RSS_RETA_MAX; i++)
		assert_int_equal(count[i], 0);
}

static void
assert_refused(int ret, const char *why)
{
	assert_int_equal(ret, -ENOTSUP);
	assert_int_equal(rte_errno, ENOTSUP);
	assert_false(pl.on);
	assert_int_equal(pl.reta_size, 0);
	assert_non_null(pl.reason);
	assert_non_null(strstr(pl.reason, why));
}

static void
test_rss_off_with_one_or_no_polled_queue(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	info_ixgbe(&d);
	/* One polled of two set up (a second forwarding lcore's TX queue):
	 * no RSS, queue 0 takes everything, the unpolled one nothing. */
	assert_int_equal(plan(&d, 1, 2), 0);
	assert_false(pl.on);
	assert_int_equal(pl.rss_hf, 0);
	assert_int_equal(pl.reta_size, 0);
	assert_int_equal(pl.nb_queues, 0);
	assert_string_equal(pl.reason, "one RX queue polled");
	/* A generator polls none. */
	assert_int_equal(plan(&d, 0, 4), 0);
	assert_false(pl.on);
	assert_string_equal(pl.reason, "no RX queue polled");
	/* Even em, which has no RSS, is fine with one queue. */
	info_em(&d, EM_82574_PKTLEN);
	assert_int_equal(plan(&d, 1, 1), 0);
	assert_false(pl.on);
}

static void
test_rss_ixgbe(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	unsigned int i;

	info_ixgbe(&d);
	/* Two polled, a third set up for a TX queue: the RETA never names
	 * queue 2. */
	assert_int_equal(plan(&d, 2, 3), 0);
	assert_spread(2, 128);
	assert_int_equal(pl.reta_min, 64);
	assert_int_equal(pl.rss_hf, RX_DEVINFO_RSS_INTEL);
	assert_int_equal(pl.rss_hf_lacking, INTEL_LACKING);
	assert_int_equal(pl.rss_hf | pl.rss_hf_lacking, NPOOL_RX_RSS_HF);
	/* Three: 43, 43, 42. */
	assert_int_equal(plan(&d, 3, 3), 0);
	assert_spread(3, 128);
	assert_int_equal(pl.reta_min, 42);
	assert_int_equal(pl.reta_max, 43);
	/* 16 is the most its RSS spreads over, on an X550 too. */
	assert_int_equal(plan(&d, 16, 16), 0);
	assert_spread(16, 128);
	assert_refused(plan(&d, 17, 17), "hardware's RSS");
	assert_int_equal(pl.rss_hf, RX_DEVINFO_RSS_INTEL);
	info_ixgbe_x550(&d);
	assert_int_equal(plan(&d, 16, 20), 0);
	assert_spread(16, 512);
	assert_int_equal(pl.reta_min, 32);
	for (i = 0; i < 512; i++)
		assert_true(pl.reta[i] < 16);
	assert_refused(plan(&d, 17, 17), "hardware's RSS");
}

static void
test_rss_igb(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	info_igb(&d);
	assert_int_equal(plan(&d, 2, 2), 0);
	assert_spread(2, 128);
	assert_int_equal(pl.rss_hf, RX_DEVINFO_RSS_INTEL);
	assert_int_equal(pl.rss_hf_lacking, INTEL_LACKING);
	assert_int_equal(plan(&d, 8, 8), 0);
	assert_spread(8, 128);
	assert_int_equal(pl.reta_min, 16);
	/* The 82576 (QEMU's igb) has 16 queues, its RSS spreads over 8. */
	info_igb_82576(&d);
	assert_int_equal(plan(&d, 5, 16), 0);
	assert_spread(5, 128);
	assert_int_equal(pl.reta_min, 25);
	assert_int_equal(pl.reta_max, 26);
	assert_refused(plan(&d, 9, 16), "hardware's RSS");
}

static void
test_rss_fm10k(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	info_fm10k(&d);
	assert_int_equal(plan(&d, 4, 4), 0);
	assert_spread(4, 128);
	assert_int_equal(pl.rss_hf, RX_DEVINFO_RSS_INTEL);
	/* No limit but the RETA: one entry a queue. */
	assert_int_equal(plan(&d, 128, 128), 0);
	assert_spread(128, 128);
	assert_int_equal(pl.reta_max, 1);
	assert_refused(plan(&d, 129, 129), "redirection table entries");
}

static void
test_rss_em_refused(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	/* Two queues in dev_info, no RSS: queue 1 would never receive. */
	info_em(&d, EM_82574_PKTLEN);
	assert_refused(plan(&d, 2, 2), "none of the hash types");
	assert_int_equal(pl.rss_hf, 0);
	assert_int_equal(pl.rss_hf_lacking, NPOOL_RX_RSS_HF);
	/* A NIC that offers RSS, but none of the types wanted. */
	info_ixgbe(&d);
	{
		const struct npool_rx_rss_req r = {
			.nb_rxq = 2, .nb_rxq_dev = 2,
			.rss_hf = RTE_ETH_RSS_SCTP,
		};

		rte_errno = 0;
		assert_refused(npool_rx_rss_plan(npool_rx_profile_find(
				"net_ixgbe"), &d, &r, &pl), "none of the hash");
		assert_int_equal(pl.rss_hf_lacking, RTE_ETH_RSS_SCTP);
	}
}

static void
test_rss_generic_vdevs_keep_their_queues(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	/* net_pcap: each queue reads its own file, no RSS needed. */
	info_pcap(&d);
	assert_int_equal(plan(&d, 2, 2), 0);
	assert_false(pl.on);
	assert_int_equal(pl.rss_hf, 0);
	assert_int_equal(pl.rss_hf_lacking, NPOOL_RX_RSS_HF);
	assert_int_equal(pl.reta_size, 0);
	assert_non_null(strstr(pl.reason, "offers no RSS hash"));
	/* net_af_packet: the kernel's fanout hash spreads, not RSS. */
	info_af_packet(&d);
	assert_int_equal(plan(&d, 2, 2), 0);
	assert_false(pl.on);
}

static void
test_rss_generic_with_rss(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	/* i40e: types per packet class; no plain ipv4/ipv6 bits. */
	info_i40e(&d);
	assert_int_equal(plan(&d, 4, 6), 0);
	assert_spread(4, 512);
	assert_int_equal(pl.reta_min, 128);
	assert_int_equal(pl.rss_hf, NPOOL_RX_RSS_HF & ~(RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_IPV6_EX |
			RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX));
	assert_int_equal(pl.rss_hf_lacking, RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_IPV6_EX |
			RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX);
	/* Not wanted, so not configured. */
	assert_false(pl.rss_hf & RTE_ETH_RSS_L2_PAYLOAD);
	/* The generic profile has no RSS limit of its own. */
	assert_int_equal(plan(&d, 64, 64), 0);
	assert_spread(64, 512);
	/* A RETA beyond what a plan holds. */
	d.reta_size = 4096;
	assert_refused(plan(&d, 2, 2), "larger than npool handles");
}

static void
test_rss_without_reta(void **state __rte_unused)
{
	struct rte_eth_dev_info d;

	/* net_tap: RSS types, no RETA: the PMD spreads over every queue. */
	info_tap(&d);
	assert_int_equal(plan(&d, 2, 2), 0);
	assert_true(pl.on);
	assert_int_equal(pl.nb_queues, 2);
	assert_int_equal(pl.reta_size, 0);
	assert_int_equal(pl.reta_min, 0);
	assert_int_equal(pl.rss_hf, RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP |
			RTE_ETH_RSS_TCP);
	assert_int_equal(pl.rss_hf_lacking, RTE_ETH_RSS_SCTP);
	/* ... which would fill a queue nobody polls. */
	assert_refused(plan(&d, 2, 3), "no redirection table");
}

static void
test_rss_wanted_types(void **state __rte_unused)
{
	const struct npool_rx_rss_req r = {
		.nb_rxq = 2, .nb_rxq_dev = 2, .rss_hf = RTE_ETH_RSS_IPV4,
	};
	struct rte_eth_dev_info d;

	info_igb(&d);
	assert_int_equal(npool_rx_rss_plan(npool_rx_profile_find(
			d.driver_name), &d, &r, &pl), 0);
	assert_int_equal(pl.rss_hf, RTE_ETH_RSS_IPV4);
	assert_int_equal(pl.rss_hf_lacking, 0);
	assert_spread(2, 128);
}

static void
test_rss_rejects_bad_arguments(void **state __rte_unused)
{
	const struct npool_rx_rss_req r = { .nb_rxq = 2, .nb_rxq_dev = 2 };
	const struct npool_rx_rss_req fewer = { .nb_rxq = 3, .nb_rxq_dev = 2 };
	const struct npool_rx_profile *p = npool_rx_profile_find(NULL);
	struct rte_eth_dev_info d;

	info_pcap(&d);
	rte_errno = 0;
	assert_int_equal(npool_rx_rss_plan(NULL, &d, &r, &pl), -EINVAL);
	assert_int_equal(rte_errno, EINVAL);
	assert_non_null(pl.reason);
	assert_int_equal(npool_rx_rss_plan(p, NULL, &r, &pl), -EINVAL);
	assert_int_equal(npool_rx_rss_plan(p, &d, NULL, &pl), -EINVAL);
	assert_int_equal(npool_rx_rss_plan(p, &d, &r, NULL), -EINVAL);
	assert_int_equal(npool_rx_rss_plan(p, &d, &fewer, &pl), -EINVAL);
}

static void
test_rss_conf_sets_mq_mode_and_types(void **state __rte_unused)
{
	struct rte_eth_dev_info d;
	struct rte_eth_conf conf;

	info_fm10k(&d);
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mtu = 9000;
	assert_int_equal(plan(&d, 2, 2), 0);
	npool_rx_rss_conf(&pl, &conf);
	assert_int_equal(conf.rxmode.mq_mode, RTE_ETH_MQ_RX_RSS);
	assert_int_equal(conf.rx_adv_conf.rss_conf.rss_hf,
			RX_DEVINFO_RSS_INTEL);
	assert_null(conf.rx_adv_conf.rss_conf.rss_key);
	assert_int_equal(conf.rxmode.mtu, 9000);
	assert_int_equal(plan(&d, 1, 2), 0);
	npool_rx_rss_conf(&pl, &conf);
	assert_int_equal(conf.rxmode.mq_mode, RTE_ETH_MQ_RX_NONE);
	assert_int_equal(conf.rx_adv_conf.rss_conf.rss_hf, 0);
}

static void
test_rss_type_names(void **state __rte_unused)
{
	char buf[256];

	assert_string_equal(npool_rx_rss_type_name(RTE_ETH_RSS_IPV4), "ipv4");
	assert_string_equal(npool_rx_rss_type_name(
			RTE_ETH_RSS_NONFRAG_IPV6_UDP), "ipv6-udp");
	assert_string_equal(npool_rx_rss_type_name(RTE_ETH_RSS_IPV6_TCP_EX),
			"ipv6-tcp-ex");
	assert_null(npool_rx_rss_type_name(RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_IPV6));
	assert_null(npool_rx_rss_type_name(RTE_ETH_RSS_L3_SRC_ONLY));
	assert_int_equal(npool_rx_rss_types_str(RX_DEVINFO_RSS_INTEL, buf,
			sizeof(buf)), 77);
	assert_string_equal(buf, "ipv4 ipv4-tcp ipv4-udp ipv6 ipv6-tcp "
			"ipv6-udp ipv6-ex ipv6-tcp-ex ipv6-udp-ex");
	assert_int_equal(npool_rx_rss_types_str(0, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "none");
	assert_int_equal(npool_rx_rss_types_str(RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_L3_SRC_ONLY, buf, sizeof(buf)), 23);
	assert_string_equal(buf, "ipv4 0x8000000000000000");
	/* Cut, but the length it needs is returned. */
	assert_int_equal(npool_rx_rss_types_str(RTE_ETH_RSS_IPV4 |
			RTE_ETH_RSS_IPV6, buf, 6), 9);
	assert_string_equal(buf, "ipv4 ");
}

/* net_null: flow_type_rss_offloads RTE_ETH_RSS_PROTO_MASK, a 128-entry
 * RETA kept in software (rte_eth_null.c eth_rss_reta_update/query). */
static void
test_rss_reta_written_and_read_back(void **state __rte_unused)
{
	struct rte_eth_rss_reta_entry64 got[2];
	struct rte_eth_dev_info d;
	struct rte_eth_conf conf;
	struct rte_mempool *mp;
	bool back = true;
	uint16_t port, q;
	unsigned int i;

	assert_int_equal(rte_eth_dev_get_port_by_name("net_null0", &port), 0);
	assert_int_equal(rte_eth_dev_info_get(port, &d), 0);
	assert_int_equal(d.reta_size, 128);
	mp = rte_pktmbuf_pool_create("ut_rss", 1023, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	assert_non_null(mp);
	/* Three set up, two polled: the RETA must name 0 and 1 only. */
	assert_int_equal(plan(&d, 2, 3), 0);
	assert_spread(2, 128);
	memset(&conf, 0, sizeof(conf));
	npool_rx_rss_conf(&pl, &conf);
	assert_int_equal(rte_eth_dev_configure(port, 3, 1, &conf), 0);
	for (q = 0; q < 3; q++)
		assert_int_equal(rte_eth_rx_queue_setup(port, q, 64,
				SOCKET_ID_ANY, NULL, mp), 0);
	assert_int_equal(rte_eth_tx_queue_setup(port, 0, 64, SOCKET_ID_ANY,
			NULL), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	assert_int_equal(npool_rx_rss_reta_apply(port, &pl, &back), 0);
	assert_true(back);
	memset(got, 0, sizeof(got));
	got[0].mask = got[1].mask = UINT64_MAX;
	assert_int_equal(rte_eth_dev_rss_reta_query(port, got, 128), 0);
	for (i = 0; i < 128; i++)
		assert_int_equal(got[i / 64].reta[i % 64], i % 2);
	/* A plan without a RETA writes nothing. */
	assert_int_equal(plan(&d, 1, 3), 0);
	assert_int_equal(npool_rx_rss_reta_apply(port, &pl, &back), 0);
	assert_false(back);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	/* Without RTE_ETH_MQ_RX_RSS ethdev refuses a RETA. */
	memset(&conf, 0, sizeof(conf));
	assert_int_equal(rte_eth_dev_configure(port, 2, 1, &conf), 0);
	assert_int_equal(rte_eth_dev_start(port), 0);
	assert_int_equal(plan(&d, 2, 2), 0);
	rte_errno = 0;
	assert_int_equal(npool_rx_rss_reta_apply(port, &pl, &back), -ENOTSUP);
	assert_int_equal(rte_errno, ENOTSUP);
	assert_false(back);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	rte_mempool_free(mp);
}

int
main(void)
{
	static const char *vdev[] = { "--vdev=net_null0" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rss_off_with_one_or_no_polled_queue),
		cmocka_unit_test(test_rss_ixgbe),
		cmocka_unit_test(test_rss_igb),
		cmocka_unit_test(test_rss_fm10k),
		cmocka_unit_test(test_rss_em_refused),
		cmocka_unit_test(test_rss_generic_vdevs_keep_their_queues),
		cmocka_unit_test(test_rss_generic_with_rss),
		cmocka_unit_test(test_rss_without_reta),
		cmocka_unit_test(test_rss_wanted_types),
		cmocka_unit_test(test_rss_rejects_bad_arguments),
		cmocka_unit_test(test_rss_conf_sets_mq_mode_and_types),
		cmocka_unit_test(test_rss_type_names),
		cmocka_unit_test(test_rss_reta_written_and_read_back),
	};

	return ut_main("npool_ut_rx_rss", 1, vdev, "tests", tests,
			RTE_DIM(tests));
}
