/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A C++ program on libnpool: it includes npool.h, the one header an
 * application needs, builds with -Wall -Wextra -Werror -Wsign-conversion
 * (tests/chkincs in the tree; tests/install/pkgconfig_test.sh against the
 * installed .pc) and runs copy-break on a burst, as an RX loop would:
 * small frames become npool packets and their RX mbufs go back at once.
 *
 * Prints "copied 4", "tiny out 4, pinned 2048 B" (4 tiny packets of 512 B
 * each) and "leak check 0"; exits 0 when every figure is right.
 */
#include <cstdio>
#include <cstring>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <npool.h>

namespace {

const unsigned int burst = 4;
const uint16_t frame_len = 60;

int
run(struct rte_mempool *rx)
{
	struct rte_mbuf *pkts[burst];
	struct npool_usage u;
	unsigned int i;
	int bad = 0;

	/* Stand-in for rte_eth_rx_burst(): four received 60 B frames. */
	if (rte_pktmbuf_alloc_bulk(rx, pkts, burst) != 0)
		return 1;
	for (i = 0; i < burst; i++) {
		char *d = rte_pktmbuf_append(pkts[i], frame_len);

		if (d == nullptr)
			return 1;
		std::memset(d, static_cast<int>(i + 1), frame_len);
	}
	uint16_t copied = npool_rx_copybreak(pkts, burst, 256);
	std::printf("copied %u\n", copied);
	bad |= copied != burst;
	for (i = 0; i < burst; i++) {
		const char *d = rte_pktmbuf_mtod(pkts[i], const char *);

		bad |= pkts[i]->pool == rx || pkts[i]->pkt_len != frame_len ||
			d[0] != static_cast<char>(i + 1) ||
			d[frame_len - 1] != static_cast<char>(i + 1);
	}
	if (npool_usage_get(&u) != 0)
		return 1;
	std::printf("tiny out %u, pinned %llu B\n", u.small_pkts_out,
			static_cast<unsigned long long>(u.small_pkts_out) *
			u.small_pkt_size);
	bad |= u.small_pkts_out != burst;
	npool_napi_consume_bulk(pkts, burst);
	return bad;
}

} /* namespace */

int
main(int argc, char **argv)
{
	struct rte_mempool *rx;
	struct npool_leak leak;
	int bad, ret;

	if (rte_eal_init(argc, argv) < 0 || npool_init(nullptr) != 0)
		return 1;
	rx = npool_pktmbuf_pool_create("cpp_rx", 511, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (rx == nullptr)
		return 1;
	bad = run(rx);
	ret = npool_leak_check(&rx, 1, &leak);
	std::printf("leak check %d\n", ret);
	rte_mempool_free(rx);
	bad |= ret != 0 || npool_fini() != 0;
	rte_eal_cleanup();
	return bad;
}
