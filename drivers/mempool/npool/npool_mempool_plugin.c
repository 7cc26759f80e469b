/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * librte_mempool_npool.so: the "npool" mempool ops for an unmodified DPDK
 * app, loaded as an EAL driver plugin:
 *   dpdk-testpmd -d <libdir>/librte_mempool_npool.so \
 *       --mbuf-pool-ops-name npool ...
 * EAL runs this constructor while it loads its plugins, before the app
 * creates its pools. libnpool itself registers the ops only once EAL is
 * up (npool_mempool_ops_register()).
 */
#include <rte_common.h>

#include "rte_mempool_npool.h"

RTE_INIT(npool_mempool_plugin_init)
{
	npool_mempool_ops_register();
}
