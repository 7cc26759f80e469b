/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-line half of npool_napi_alloc_pkt_bulk() (npool_pkt_bulk.h):
 * a burst larger than NPOOL_PKT_BULK_MAX, or one the inline path hands
 * over, made a packet at a time.
 */
#include <errno.h>

#include <rte_mbuf.h>

#include "npool_pkt_bulk.h"
#include "npool_core.h"
#include "npool_pkt.h"

unsigned int
npool_napi_alloc_pkt_bulk_slow(struct rte_mbuf **pkts, const uint32_t *lens,
		unsigned int n)
{
	unsigned int i, got = 0;

	if (n > NPOOL_PKT_BULK_MAX) {
		for (i = 0; i < n; i++)
			pkts[i] = npool_pkt_fail(npool_slot(), EINVAL);
		return 0;
	}
	/* No lens: tiny packets (npool_napi_alloc_tiny_bulk_pvt()). */
	for (i = 0; i < n; i++) {
		pkts[i] = npool_napi_alloc_pkt(lens != NULL ? lens[i] : 0);
		got += pkts[i] != NULL;
	}
	return got;
}
