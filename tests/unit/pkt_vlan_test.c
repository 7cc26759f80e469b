/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Writing a header in front of an npool packet (lib/npool/npool_pkt.h,
 * file doc): rte_vlan_insert() refuses a head + fragment packet (an
 * external buffer is never RTE_MBUF_DIRECT()), and the way the header
 * documents instead gives byte for byte what rte_vlan_insert() gives on
 * a direct mbuf; a tiny packet is a direct mbuf: rte_vlan_insert() works.
 */
#include <string.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "unit_common.h"

/* A 60 B frame: two addresses, IPv4 EtherType, a counting payload. */
static void
fill_frame(uint8_t *f)
{
	unsigned int i;

	for (i = 0; i < 60; i++)
		f[i] = (uint8_t)(i + 1);
	f[12] = 0x08;
	f[13] = 0x00;
}

/*
 * rte_vlan_insert() refuses an npool packet (an external buffer is not
 * direct); the way npool_pkt.h documents instead gives the same bytes as
 * rte_vlan_insert() on a stock mbuf.
 */
static void
test_vlan_insert_refused_and_documented_way(void **state __rte_unused)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("ut_vlan", 63, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	/* Above the tiny packets' room: a head and a fragment. */
	struct rte_mbuf *m = npool_napi_alloc_pkt(NPOOL_PKT_SMALL_LEN + 1), *s;
	struct rte_ether_hdr *nh;
	struct rte_vlan_hdr *vh;
	uint8_t frame[60];

	assert_non_null(mp);
	assert_non_null(m);
	fill_frame(frame);
	memcpy(rte_pktmbuf_append(m, 60), frame, 60);
	m->vlan_tci = 0x0123;
	assert_int_equal(rte_vlan_insert(&m), -EINVAL);
	/* Refused untouched. */
	assert_int_equal(m->data_len, 60);
	assert_int_equal(m->data_off, npool_default()->headroom);
	assert_memory_equal(rte_pktmbuf_mtod(m, void *), frame, 60);

	/* The reference: a direct mbuf. */
	s = rte_pktmbuf_alloc(mp);
	assert_non_null(s);
	memcpy(rte_pktmbuf_append(s, 60), frame, 60);
	s->vlan_tci = 0x0123;
	assert_int_equal(rte_vlan_insert(&s), 0);

	/* Unshared: write the tag in the headroom. */
	assert_int_equal(rte_mbuf_refcnt_read(m), 1);
	assert_int_equal(rte_mbuf_ext_refcnt_read(m->shinfo), 1);
	nh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(m, sizeof(*vh));
	if (nh == NULL) {
		fail_msg("no headroom");
		return;
	}
	vh = (struct rte_vlan_hdr *)(nh + 1);
	memmove(nh, (char *)nh + sizeof(*vh), 2 * RTE_ETHER_ADDR_LEN);
	nh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	vh->vlan_tci = rte_cpu_to_be_16(m->vlan_tci);

	assert_int_equal(m->data_len, 64);
	assert_int_equal(m->pkt_len, 64);
	assert_int_equal(s->data_len, 64);
	assert_memory_equal(rte_pktmbuf_mtod(m, void *),
			rte_pktmbuf_mtod(s, void *), 64);
	/* Tag 0x8100 0x0123, then the frame's own EtherType. */
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[12], 0x81);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[15], 0x23);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[16], 0x08);
	rte_pktmbuf_free(s);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
}

/* A tiny packet is direct: rte_vlan_insert() as on a stock mbuf. */
static void
test_vlan_insert_on_tiny_pkt(void **state __rte_unused)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("ut_vlan2", 63, 0,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_mbuf *m = npool_napi_alloc_pkt(64), *s;
	uint8_t frame[60];

	assert_non_null(mp);
	assert_non_null(m);
	assert_true(RTE_MBUF_DIRECT(m));
	assert_false(npool_pkt_is_npool(m));
	fill_frame(frame);
	memcpy(rte_pktmbuf_append(m, 60), frame, 60);
	m->vlan_tci = 0x0123;
	assert_int_equal(rte_vlan_insert(&m), 0);
	s = rte_pktmbuf_alloc(mp);
	assert_non_null(s);
	memcpy(rte_pktmbuf_append(s, 60), frame, 60);
	s->vlan_tci = 0x0123;
	assert_int_equal(rte_vlan_insert(&s), 0);
	assert_int_equal(m->data_len, 64);
	assert_memory_equal(rte_pktmbuf_mtod(m, void *),
			rte_pktmbuf_mtod(s, void *), 64);
	rte_pktmbuf_free(s);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_vlan_insert_refused_and_documented_way,
			ut_setup_default, ut_teardown_check),
		cmocka_unit_test_setup_teardown(test_vlan_insert_on_tiny_pkt,
			ut_setup_default, ut_teardown_check),
	};

	return UT_MAIN("npool_ut_pkt_vlan", tests);
}
