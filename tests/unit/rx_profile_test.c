/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RX profiles and copy-break (drivers/net/npool_rx.h): profile lookup by
 * driver name with the generic fallback, profiles of a port (a net_null
 * vdev), fitting a port configuration, npool_rx_copybreak() on mixed
 * bursts, and the ethdev RX callback that installs it.
 */
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "npool_rx.h"
#include "rte_mempool_npool.h"
#include "unit_common.h"

#define STOCK_SIZE 127
#define BURST 9

static struct rte_mempool *stock;

/* The RX pool of the bursts (stock ops), then npool with @nb_chunks. */
static int
setup_with(uint32_t nb_chunks, uint32_t nb_small)
{
	stock = rte_pktmbuf_pool_create("ut_rx", STOCK_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (stock == NULL)
		return -1;
	return ut_npool_init(nb_chunks, nb_small, 0, 0) == 0 ? 0 : -1;
}

static int
setup(void **state __rte_unused)
{
	return setup_with(0, 256);
}

static int
setup_one_chunk(void **state __rte_unused)
{
	return setup_with(1, 0);
}

static int
teardown(void **state)
{
	assert_int_equal(rte_mempool_avail_count(stock), STOCK_SIZE);
	rte_mempool_free(stock);
	return ut_teardown_check(state);
}

static void
check_profile(const char *driver, const char *kernel, uint16_t nb_desc,
		uint16_t data_room)
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
	assert_int_equal(p->data_room, data_room);
}

static void
test_profile_found_by_driver_name(void **state __rte_unused)
{
	check_profile("net_ixgbe", "ixgbe", 512, 2048 + RTE_PKTMBUF_HEADROOM);
	check_profile("net_e1000_igb", "igb", 256,
			2048 + RTE_PKTMBUF_HEADROOM);
	check_profile("net_fm10k", "fm10k", 256, 2048 + RTE_PKTMBUF_HEADROOM);
	assert_int_equal(NPOOL_RX_HDR_LEN, 256);
}

static void
test_unknown_driver_gets_generic_profile(void **state __rte_unused)
{
	static const char *const names[] = { "net_null", "", "net_ixgbe_vf",
		"NET_IXGBE", "net_ixgb", "ixgbe" };
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
test_profile_fit_clears_fast_free_only(void **state __rte_unused)
{
	struct rte_eth_conf conf;
	uint16_t port, rxd = 0, txd = 0;

	assert_int_equal(rte_eth_dev_get_port_by_name("net_null0", &port), 0);
	memset(&conf, 0, sizeof(conf));
	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	assert_int_equal(npool_rx_profile_fit(port,
			npool_rx_profile_find("net_ixgbe"), &conf, &rxd, &txd),
			0);
	assert_int_equal(conf.txmode.offloads, RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	/* net_null takes any ring size: the profile's stays. */
	assert_int_equal(rxd, 512);
	assert_int_equal(txd, 512);
	assert_int_equal(npool_rx_profile_fit(RTE_MAX_ETHPORTS,
			npool_rx_profile_find(NULL), &conf, &rxd, &txd),
			-ENODEV);
}

/* A stock-pool packet of @len bytes (@nseg segments) with metadata. */
static struct rte_mbuf *
rx_pkt(uint16_t len, unsigned int nseg, uint8_t seed)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(stock);
	uint8_t *d;
	unsigned int i;

	assert_non_null(m);
	d = (uint8_t *)rte_pktmbuf_append(m, len);
	for (i = 0; i < len; i++)
		d[i] = (uint8_t)(seed + i);
	m->port = 3;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4;
	m->ol_flags = RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_IP_CKSUM_GOOD |
		RTE_MBUF_F_RX_VLAN;
	m->hash.rss = 0x12345678u + seed;
	m->vlan_tci = 100 + seed;
	m->vlan_tci_outer = 200 + seed;
	for (i = 1; i < nseg; i++)
		assert_int_equal(rte_pktmbuf_chain(m, rx_pkt(len, 1, seed)),
				0);
	return m;
}

static void
assert_same_packet(const struct rte_mbuf *c, const struct rte_mbuf *o)
{
	assert_int_equal(c->pkt_len, o->pkt_len);
	assert_int_equal(c->data_len, o->data_len);
	assert_memory_equal(rte_pktmbuf_mtod(c, void *),
			rte_pktmbuf_mtod(o, void *), o->data_len);
	assert_int_equal(c->port, o->port);
	assert_int_equal(c->packet_type, o->packet_type);
	assert_int_equal(c->ol_flags & ~RTE_MBUF_F_EXTERNAL, o->ol_flags);
	assert_int_equal(c->hash.rss, o->hash.rss);
	assert_int_equal(c->vlan_tci, o->vlan_tci);
	assert_int_equal(c->vlan_tci_outer, o->vlan_tci_outer);
}

static void
test_copybreak_copies_small_packets_only(void **state __rte_unused)
{
	static const uint16_t lens[BURST] = { 60, 256, 257, 1500, 64, 0,
		100, 255, 1514 };
	struct rte_mbuf *pkts[BURST], *orig[BURST], *ref[BURST];
	unsigned int i, copied = 0;

	for (i = 0; i < BURST; i++) {
		/* Packet 6 is a 2-segment chain of 200 bytes: never copied. */
		orig[i] = pkts[i] = rx_pkt(lens[i], i == 6 ? 2 : 1,
				(uint8_t)i);
		/* The same packet again, to compare with after the
		 * originals went back to their pool. */
		ref[i] = rx_pkt(lens[i], i == 6 ? 2 : 1, (uint8_t)i);
	}
	assert_int_equal(npool_rx_copybreak(pkts, BURST, 256), 5);
	for (i = 0; i < BURST; i++) {
		int small = lens[i] <= 256 && i != 6;

		if (!small) {
			assert_ptr_equal(pkts[i], orig[i]);
			continue;
		}
		copied++;
		assert_ptr_not_equal(pkts[i], orig[i]);
		assert_true(npool_pkt_is_npool(pkts[i]));
		assert_ptr_equal(pkts[i]->pool, npool_head_pool());
		assert_int_equal(rte_pktmbuf_headroom(pkts[i]),
				npool_g->headroom);
		assert_same_packet(pkts[i], ref[i]);
	}
	assert_int_equal(copied, 5);
	/* The copied originals are back in the RX pool at once. */
	assert_int_equal(rte_mempool_in_use_count(stock),
			BURST + 1 /* ref */ + (BURST - 5) + 1 /* not copied */);
	rte_pktmbuf_free_bulk(pkts, BURST);
	rte_pktmbuf_free_bulk(ref, BURST);
}

static void
test_copybreak_zero_copies_nothing(void **state __rte_unused)
{
	struct rte_mbuf *pkts[2] = { rx_pkt(60, 1, 1), rx_pkt(1, 1, 2) };
	struct rte_mbuf *o0 = pkts[0], *o1 = pkts[1];

	assert_int_equal(npool_rx_copybreak(pkts, 2, 0), 0);
	assert_ptr_equal(pkts[0], o0);
	assert_ptr_equal(pkts[1], o1);
	assert_int_equal(npool_rx_copybreak(pkts, 0, 256), 0);
	rte_pktmbuf_free_bulk(pkts, 2);
}

static void
test_copybreak_of_npool_packets(void **state __rte_unused)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(100), *o;
	struct npool_usage u;

	memset(rte_pktmbuf_append(m, 100), 0xab, 100);
	o = m;
	assert_int_equal(npool_rx_copybreak(&m, 1, 256), 1);
	assert_ptr_not_equal(m, o);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[99], 0xab);
	assert_true(npool_pkt_is_npool(m));
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.frags_out, 1);
	assert_int_equal(u.heads_out, 1);
	rte_pktmbuf_free(m);
}

static void
test_copybreak_keeps_original_without_memory(void **state __rte_unused)
{
	char *all = npool_napi_alloc_frag(NPOOL_CHUNK_SIZE);
	struct rte_mbuf *pkts[2] = { rx_pkt(60, 1, 1), rx_pkt(70, 1, 2) };
	struct rte_mbuf *o0 = pkts[0], *o1 = pkts[1];
	struct npool_usage u;

	/* The only chunk is taken: no npool packet can be had. */
	assert_int_equal(npool_rx_copybreak(pkts, 2, 256), 0);
	assert_ptr_equal(pkts[0], o0);
	assert_ptr_equal(pkts[1], o1);
	assert_int_equal(pkts[1]->pkt_len, 70);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads_out, 0);
	npool_free_frag(all);
	/* With memory back, the same burst is copied. */
	assert_int_equal(npool_rx_copybreak(pkts, 2, 256), 2);
	assert_int_equal(rte_mempool_in_use_count(stock), 0);
	rte_pktmbuf_free_bulk(pkts, 2);
}

static void
start_null_port(uint16_t *port, struct rte_mempool *rx_pool)
{
	struct rte_eth_conf conf;
	uint16_t rxd, txd;

	assert_int_equal(rte_eth_dev_get_port_by_name("net_null0", port), 0);
	memset(&conf, 0, sizeof(conf));
	assert_int_equal(npool_rx_profile_fit(*port,
			npool_rx_profile_of_port(*port), &conf, &rxd, &txd), 0);
	assert_int_equal(rte_eth_dev_configure(*port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(*port, 0, rxd, SOCKET_ID_ANY,
			NULL, rx_pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(*port, 0, txd, SOCKET_ID_ANY,
			NULL), 0);
	assert_int_equal(rte_eth_dev_start(*port), 0);
}

static void
test_copybreak_callback_on_a_port(void **state __rte_unused)
{
	struct rte_mempool *rx_pool = npool_pktmbuf_pool_create("ut_rxq", 255,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	const struct rte_eth_rxtx_callback *cb;
	struct rte_mbuf *pkts[32];
	uint16_t port, n, i;

	assert_non_null(rx_pool);
	start_null_port(&port, rx_pool);
	cb = npool_rx_copybreak_install(port, 0, 256);
	assert_non_null(cb);
	n = rte_eth_rx_burst(port, 0, pkts, 32);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		/* net_null's packets are 64 bytes: all copied. */
		assert_int_equal(pkts[i]->pkt_len, 64);
		assert_true(npool_pkt_is_npool(pkts[i]));
		assert_int_equal(pkts[i]->port, port);
	}
	/* The RX mbufs went straight back to the RX pool. */
	assert_int_equal(rte_mempool_avail_count(rx_pool), 255);
	npool_napi_consume_bulk(pkts, n);
	/* Without the callback the RX mbufs come through. */
	assert_int_equal(rte_eth_remove_rx_callback(port, 0, cb), 0);
	n = rte_eth_rx_burst(port, 0, pkts, 32);
	assert_true(n > 0);
	assert_ptr_equal(pkts[0]->pool, rx_pool);
	assert_false(npool_pkt_is_npool(pkts[0]));
	rte_pktmbuf_free_bulk(pkts, n);
	assert_int_equal(rte_eth_dev_stop(port), 0);
	assert_int_equal(rte_eth_dev_close(port), 0);
	/* The removed callback is freed by ethdev only at close; then the
	 * pool can go. */
	assert_int_equal(rte_mempool_avail_count(rx_pool), 255);
	rte_mempool_free(rx_pool);
}

static void
test_copybreak_install_rejects_bad_arguments(void **state __rte_unused)
{
	rte_errno = 0;
	assert_null(npool_rx_copybreak_install(0, 0, 0));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(npool_rx_copybreak_install(0, 0, NPOOL_PKT_MAX_LEN + 1));
	assert_int_equal(rte_errno, EINVAL);
	rte_errno = 0;
	assert_null(npool_rx_copybreak_install(RTE_MAX_ETHPORTS, 0, 256));
	assert_int_equal(rte_errno, EINVAL);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	static const char *vdev[] = { "--vdev=net_null0" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_found_by_driver_name),
		cmocka_unit_test(test_unknown_driver_gets_generic_profile),
		cmocka_unit_test(test_profile_of_port_by_its_driver),
		cmocka_unit_test(test_profile_fit_clears_fast_free_only),
		T(test_copybreak_copies_small_packets_only),
		T(test_copybreak_zero_copies_nothing),
		T(test_copybreak_of_npool_packets),
		cmocka_unit_test_setup_teardown(
			test_copybreak_keeps_original_without_memory,
			setup_one_chunk, teardown),
		T(test_copybreak_callback_on_a_port),
		T(test_copybreak_install_rejects_bad_arguments),
	};

	return ut_main("npool_ut_rx_profile", 1, vdev, "tests", tests,
			RTE_DIM(tests));
}
