/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The apps' RX burst checks (apps/common/app_run.h): app_rx_odd_plain_pvt()
 * finds a burst all plain RX mbufs of one pool on the port, and anything
 * else at any position of a burst of any size (the four-at-a-time rounds
 * and the tail alike).
 */
#include <string.h>

#include <rte_mbuf.h>

#include "app_rx.h"
#include "unit_common.h"

#define POOL_SIZE 127
#define PORT 3

static struct rte_mempool *mp, *other;

static int
setup(void **state __rte_unused)
{
	mp = rte_pktmbuf_pool_create("ut_apprx", POOL_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	other = rte_pktmbuf_pool_create("ut_apprx_o", POOL_SIZE, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	return mp != NULL && other != NULL ? 0 : -1;
}

static int
teardown(void **state __rte_unused)
{
	assert_int_equal(rte_mempool_avail_count(mp), POOL_SIZE);
	assert_int_equal(rte_mempool_avail_count(other), POOL_SIZE);
	rte_mempool_free(mp);
	rte_mempool_free(other);
	return 0;
}

static void
mk_burst(struct rte_mbuf **pkts, unsigned int n)
{
	unsigned int i;

	assert_int_equal(rte_pktmbuf_alloc_bulk(mp, pkts, n), 0);
	for (i = 0; i < n; i++) {
		assert_non_null(rte_pktmbuf_append(pkts[i], 60 + i));
		pkts[i]->port = PORT;
		/* data_off is not checked: a PMD may place data anywhere. */
		pkts[i]->data_off = (uint16_t)(64 + i);
	}
}

enum odd { ODD_REFCNT, ODD_SEGS, ODD_PORT, ODD_LEN, ODD_POOL, ODD_EXT,
	ODD_INDIRECT, ODD_END };

/* Make @p m odd in way @p w; return what undoes it in @p keep. */
static void
make_odd(struct rte_mbuf *m, enum odd w, struct rte_mbuf *keep)
{
	*keep = *m;
	switch (w) {
	case ODD_REFCNT:
		rte_mbuf_refcnt_set(m, 2);
		break;
	case ODD_SEGS:
		m->nb_segs = 2;
		break;
	case ODD_PORT:
		m->port = PORT + 1;
		break;
	case ODD_LEN:
		m->pkt_len = m->data_len + 1u;
		break;
	case ODD_POOL:
		m->pool = other;
		break;
	case ODD_EXT:
		m->ol_flags |= RTE_MBUF_F_EXTERNAL;
		break;
	default:
		m->ol_flags |= RTE_MBUF_F_INDIRECT;
		break;
	}
}

static void
test_plain_check_finds_every_odd_packet(void **state __rte_unused)
{
	struct rte_mbuf *pkts[APP_BURST], keep;
	unsigned int n, pos, w;

	for (n = 1; n <= APP_BURST; n++) {
		mk_burst(pkts, n);
		assert_int_equal(app_rx_odd_plain_pvt(pkts, (uint16_t)n, PORT),
				0);
		/* The port of another queue makes every packet odd. */
		assert_int_not_equal(app_rx_odd_plain_pvt(pkts, (uint16_t)n,
				PORT + 1), 0);
		for (pos = 0; pos < n; pos++) {
			for (w = 0; w < ODD_END; w++) {
				make_odd(pkts[pos], (enum odd)w, &keep);
				/* The pool is pkts[0]'s: another pool at
				 * position 0 makes the others the odd ones,
				 * and a lone packet of any pool is plain. */
				if (w == ODD_POOL && n == 1)
					assert_int_equal(app_rx_odd_plain_pvt(
						pkts, 1, PORT), 0);
				else
					assert_int_not_equal(
						app_rx_odd_plain_pvt(pkts,
						(uint16_t)n, PORT), 0);
				*pkts[pos] = keep;
			}
		}
		assert_int_equal(app_rx_odd_plain_pvt(pkts, (uint16_t)n, PORT),
				0);
		rte_pktmbuf_free_bulk(pkts, n);
	}
}

static void
test_odd_check_finds_chains_and_ports(void **state __rte_unused)
{
	struct rte_mbuf *pkts[APP_BURST], keep;
	unsigned int pos;

	mk_burst(pkts, APP_BURST);
	assert_int_equal(app_rx_odd_pvt(pkts, APP_BURST, PORT), 0);
	for (pos = 0; pos < APP_BURST; pos++) {
		make_odd(pkts[pos], ODD_SEGS, &keep);
		assert_int_not_equal(app_rx_odd_pvt(pkts, APP_BURST, PORT), 0);
		*pkts[pos] = keep;
		make_odd(pkts[pos], ODD_LEN, &keep);
		assert_int_not_equal(app_rx_odd_pvt(pkts, APP_BURST, PORT), 0);
		*pkts[pos] = keep;
		make_odd(pkts[pos], ODD_PORT, &keep);
		assert_int_not_equal(app_rx_odd_pvt(pkts, APP_BURST, PORT), 0);
		*pkts[pos] = keep;
	}
	rte_pktmbuf_free_bulk(pkts, APP_BURST);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_plain_check_finds_every_odd_packet, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_odd_check_finds_chains_and_ports, setup,
			teardown),
	};

	return UT_MAIN("npool_ut_app_rx", tests);
}
