/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A user's first program against an installed libnpool, built with
 * `cc hello_npool.c $(pkg-config --cflags --libs libnpool)`.
 * Prints what it measured; the test script checks the figures.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_mbuf.h>
#include <npool.h>
#include <rte_mempool_npool.h>

int
main(int argc, char **argv)
{
	struct npool_usage u;
	struct rte_mbuf *m;
	struct rte_mempool *rx;
	char *a, *b;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	if (npool_init(NULL) != 0)
		return 2;
	a = npool_napi_alloc_frag(256);
	b = npool_napi_alloc_frag(256);
	m = npool_napi_alloc_pkt(64);
	rx = npool_pktmbuf_pool_create("hello_rx", 511, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (a == NULL || b == NULL || m == NULL || rx == NULL)
		return 3;
	printf("frag_step=%ld\n", (long)(a - b));
	printf("pkt_headroom=%u room>=64:%d\n", rte_pktmbuf_headroom(m),
			rte_pktmbuf_tailroom(m) >= 64);
	printf("rx_ops=%s\n", rte_mempool_get_ops(rx->ops_index)->name);
	npool_free_frag(a);
	npool_free_frag(b + 100);
	rte_pktmbuf_free(m);
	npool_usage_get(&u);
	printf("frags_out=%ld heads_out=%u\n", (long)u.frags_out, u.heads_out);
	rte_mempool_free(rx);
	printf("fini=%d\n", npool_fini());
	rte_eal_cleanup();
	return 0;
}
