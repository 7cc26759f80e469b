/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Copy-break (drivers/net/npool_rx.h): npool_rx_copybreak() on mixed
 * bursts, its counters (copybreak_copied, copybreak_nomem) when the arena
 * runs out, and the ethdev RX callback that installs it on a port.
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
	npool_rx_stats_reset();
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

/* The calling lcore's copy-break counters. */
static struct npool_rx_stats
rx_stats_self(void)
{
	struct npool_rx_stats s;

	assert_int_equal(npool_rx_stats_get(rte_lcore_id(), &s), 0);
	return s;
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
				npool_default()->headroom);
		assert_same_packet(pkts[i], ref[i]);
	}
	assert_int_equal(copied, 5);
	assert_int_equal(rx_stats_self().copybreak_copied, 5);
	assert_int_equal(rx_stats_self().copybreak_nomem, 0);
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
	/* Two small packets, one above the copy-break, one small chain. */
	struct rte_mbuf *pkts[4] = { rx_pkt(60, 1, 1), rx_pkt(70, 1, 2),
		rx_pkt(300, 1, 3), rx_pkt(50, 2, 4) };
	struct rte_mbuf *orig[4], *ref[4];
	struct npool_stats sum;
	struct npool_usage u;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		orig[i] = pkts[i];
		ref[i] = rx_pkt(pkts[i]->data_len, pkts[i]->nb_segs,
				(uint8_t)(i + 1));
	}
	/* The only chunk is taken: no npool packet can be had. */
	assert_non_null(all);
	assert_int_equal(npool_rx_copybreak(pkts, 4, 256), 0);
	for (i = 0; i < 4; i++) {
		assert_ptr_equal(pkts[i], orig[i]);
		assert_same_packet(pkts[i], ref[i]);
	}
	/* Only the two that were to be copied count as nomem. */
	assert_int_equal(rx_stats_self().copybreak_nomem, 2);
	assert_int_equal(rx_stats_self().copybreak_copied, 0);
	assert_int_equal(npool_usage_get(&u), 0);
	assert_int_equal(u.heads_out, 0);
	/* The failed allocations gave their heads back. */
	assert_int_equal(npool_stats_sum(&sum), 0);
	assert_int_equal(sum.pkt_allocs, 0);
	npool_free_frag(all);
	/* With memory back, the same burst is copied. */
	assert_int_equal(npool_rx_copybreak(pkts, 4, 256), 2);
	assert_int_equal(rx_stats_self().copybreak_copied, 2);
	assert_int_equal(rx_stats_self().copybreak_nomem, 2);
	for (i = 0; i < 4; i++)
		assert_same_packet(pkts[i], ref[i]);
	/* orig 2 and 3 and the four references are still out. */
	assert_int_equal(rte_mempool_in_use_count(stock), 2 + 1 + 4 + 1);
	rte_pktmbuf_free_bulk(pkts, 4);
	rte_pktmbuf_free_bulk(ref, 4);
}

#define NOMEM_BURST 100
#define NOMEM_LEN 200

/* One 32 KiB chunk for a burst of 100 small packets: the copies fill it
 * (fragments are carved down from its end, npool_pkt_fragsz() each), the
 * rest stay in their RX mbufs, counted one by one. */
static void
test_copybreak_nomem_counts_each_refused_packet(void **state __rte_unused)
{
	const uint32_t fit = NPOOL_CHUNK_SIZE / npool_pkt_fragsz(NOMEM_LEN);
	struct rte_mbuf *pkts[NOMEM_BURST], *orig[NOMEM_BURST];
	struct npool_rx_stats total;
	unsigned int i, j, npool = 0;
	const uint8_t *d;

	assert_true(fit > 0 && fit < NOMEM_BURST);
	for (i = 0; i < NOMEM_BURST; i++)
		orig[i] = pkts[i] = rx_pkt(NOMEM_LEN, 1, (uint8_t)i);
	assert_int_equal(npool_rx_copybreak(pkts, NOMEM_BURST, 256), fit);
	assert_int_equal(rx_stats_self().copybreak_copied, fit);
	assert_int_equal(rx_stats_self().copybreak_nomem, NOMEM_BURST - fit);
	assert_int_equal(npool_rx_stats_sum(&total), 0);
	assert_int_equal(total.copybreak_nomem, NOMEM_BURST - fit);
	/* Every packet is there, in order, with its bytes: the first ones
	 * as copies, the others as they came. */
	for (i = 0; i < NOMEM_BURST; i++) {
		assert_int_equal(pkts[i]->pkt_len, NOMEM_LEN);
		if (npool_pkt_is_npool(pkts[i])) {
			assert_true(i < fit);
			npool++;
		} else {
			assert_true(i >= fit);
			assert_ptr_equal(pkts[i], orig[i]);
		}
		d = rte_pktmbuf_mtod(pkts[i], const uint8_t *);
		for (j = 0; j < NOMEM_LEN; j++)
			assert_int_equal(d[j], (uint8_t)(i + j));
	}
	assert_int_equal(npool, fit);
	assert_int_equal(rte_mempool_in_use_count(stock), NOMEM_BURST - fit);
	rte_pktmbuf_free_bulk(pkts, NOMEM_BURST);
}

static void
test_copybreak_stats_reject_bad_arguments(void **state __rte_unused)
{
	struct npool_rx_stats s;

	assert_int_equal(npool_rx_stats_get(NPOOL_RX_NON_EAL_SLOT + 1, &s),
			-EINVAL);
	assert_int_equal(npool_rx_stats_get(0, NULL), -EINVAL);
	assert_int_equal(npool_rx_stats_sum(NULL), -EINVAL);
	assert_int_equal(npool_rx_stats_get(NPOOL_RX_NON_EAL_SLOT, &s), 0);
	assert_int_equal(s.copybreak_copied, 0);
	assert_int_equal(s.copybreak_nomem, 0);
}

static void
start_null_port(uint16_t *port, struct rte_mempool *rx_pool)
{
	const struct npool_rx_req req = { .nb_rxq = 1, .nb_txq = 1 };
	struct npool_rx_plan plan;
	struct rte_eth_conf conf;

	assert_int_equal(rte_eth_dev_get_port_by_name("net_null0", port), 0);
	memset(&conf, 0, sizeof(conf));
	assert_int_equal(npool_rx_profile_fit(*port,
			npool_rx_profile_of_port(*port), &req, &conf, &plan), 0);
	assert_int_equal(rte_eth_dev_configure(*port, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(*port, 0, plan.nb_rxd,
			SOCKET_ID_ANY, NULL, rx_pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(*port, 0, plan.nb_txd,
			SOCKET_ID_ANY, NULL), 0);
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
	assert_int_equal(rx_stats_self().copybreak_copied, n);
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
#define T1(f) cmocka_unit_test_setup_teardown(f, setup_one_chunk, teardown)

int
main(void)
{
	static const char *vdev[] = { "--vdev=net_null0" };
	const struct CMUnitTest tests[] = {
		T(test_copybreak_copies_small_packets_only),
		T(test_copybreak_zero_copies_nothing),
		T(test_copybreak_of_npool_packets),
		T1(test_copybreak_keeps_original_without_memory),
		T1(test_copybreak_nomem_counts_each_refused_packet),
		T(test_copybreak_stats_reject_bad_arguments),
		T(test_copybreak_callback_on_a_port),
		T(test_copybreak_install_rejects_bad_arguments),
	};

	/* The head + fragment packet at every size (npool_pkt.h). */
	ut_tiny_len = 0;
	return ut_main("npool_ut_rx_copybreak", 1, vdev, "tests", tests,
			RTE_DIM(tests));
}
