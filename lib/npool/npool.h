/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_H
#define NPOOL_H

/**
 * @file
 * libnpool: the Linux kernel's NAPI packet-buffer allocation for DPDK.
 *
 * Include this one header: it brings the whole API, from C and from C++.
 * After rte_eal_init(), create the instances: npool_init() for one
 * serving every lcore, or npool_create() once per NUMA socket (the
 * kernel's page_pool_create() with a .nid, l3fwd's pools per socket),
 * sized by npool_conf.nb_pkts. Then allocate fragments (npool_frag.h) and
 * packets (npool_pkt.h, npool_pkt_bulk.h) from any lcore, condense the
 * packets kept for long (npool_pkt_keep.h), copy-break
 * received bursts (npool_copybreak.h), or give any PMD an RX pool on the
 * "npool" mempool ops (rte_mempool_npool.h): each lcore allocates from
 * the instance of its socket, and every free goes back to the instance
 * owning the address, from any lcore. Read the counters (npool_stats.h)
 * and what live packets pin (npool_usage_get()); at exit, check that
 * everything came back (npool_leak_check(), npool_audit.h), then
 * npool_fini() before rte_eal_cleanup().
 */

#include "npool_build_config.h"
#include "npool_arena.h"
#include "npool_audit.h"
#include "npool_copybreak.h"
#include "npool_core.h"
#include "npool_frag.h"
#include "npool_instance.h"
#include "npool_mbuf.h"
#include "npool_pkt.h"
#include "npool_pkt_bulk.h"
#include "npool_pkt_defer.h"
#include "npool_pkt_keep.h"
#include "npool_stats.h"
#include "npool_usage.h"
#include "rte_mempool_npool.h"

#endif /* NPOOL_H */
