/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RX pools on the "npool" mempool ops (npool_head_cache_ops.c, which
 * registers them): a thin layer over the head cache, whose internals (its
 * debug hook) it reaches, so part of libnpool; drivers/mempool/npool
 * builds the EAL plugin alone, on the public API.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_mempool_npool.h"
#include "npool_head_cache_pvt.h"

struct rte_mempool *
npool_pktmbuf_pool_create(const char *name, unsigned int n,
		uint16_t priv_size, uint16_t data_room_size, int socket_id)
{
	struct rte_mempool *mp;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (strlen(name) + 4 > RTE_RING_NAMESIZE) {
		rte_errno = ENAMETOOLONG;
		return NULL;
	}
	if (npool_mempool_ops_register() < 0)
		return NULL;
	/* DPDK's cache, reached inline; the ops are its backing store. */
	mp = rte_pktmbuf_pool_create_by_ops(name, n,
			npool_hc_mempool_cache_size(n), priv_size,
			data_room_size, socket_id, NPOOL_MEMPOOL_OPS_NAME);
	if (mp == NULL)
		return NULL;
	npool_hc_own_pool_pvt(mp);
	/* Initialised: ASan builds poison its free mbufs from now on. */
	NPOOL_DEBUG_HOOK(npool_debug_hc_arm_pvt(mp->pool_data));
	return mp;
}

int
npool_mempool_is_npool(const struct rte_mempool *mp)
{
	return mp != NULL &&
		strcmp(rte_mempool_get_ops(mp->ops_index)->name,
			NPOOL_MEMPOOL_OPS_NAME) == 0;
}
