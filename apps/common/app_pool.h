/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_POOL_H
#define APP_POOL_H

/**
 * @file
 * Packet pools of the apps (--pool npool|mempool) and the leak check at
 * exit: every mbuf back in every pool, no npool fragment and no chunk out.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "npool.h"
#include "app_cli.h"

/** State of the pools after a run. */
struct app_leak {
	struct npool_leak n;    /**< npool_leak_check()'s totals */
	bool ok;                /**< all of them are 0 */
};

/**
 * Remember the options (--mbcache, --pool, --copybreak, the npool sizes,
 * --no-numa: app_numa_init()) for the pools made later. npool comes up
 * once the rings are known (app_pool_npool_up()).
 * Context: main lcore, after the command line, before app_ports_start().
 *
 * @param pkts
 *   Packets the app keeps in flight beyond its RX rings (npool-gen: its
 *   TX rings), 0 for none.
 */
void app_pool_init(const struct app_opts *o, uint32_t pkts);

/**
 * Initialise npool when the run needs it (--pool npool or --copybreak),
 * one instance per socket of an lcore (one with --no-numa), sized from
 * the rings it serves: npool_conf.nb_pkts the larger of @p ring_pkts and
 * app_pool_init()'s, every size following from it unless --nb-chunks,
 * --nb-small-chunks or --nb-heads set one (npool.h). app_ports_start()
 * calls it once the rings are sized, before it makes the RX pools.
 *
 * @param ring_pkts
 *   Packets the RX and TX rings, bursts and lcore caches hold (the RX
 *   pools' size, as l3fwd's NB_MBUF).
 * @return 0, or -1 after app_err().
 */
int app_pool_npool_up(uint32_t ring_pkts);

/**
 * Create a packet mbuf pool of the kind chosen by --pool and remember it
 * for app_pool_leak_check() and app_pool_fini(). A stock pool gets the
 * --mbcache per-lcore cache (at most what the mempool library allows for
 * @p n); an npool pool has its own caches in the "npool" ops.
 *
 * @param name
 *   Pool name (unique), short: at most RTE_MEMPOOL_NAMESIZE - 4 chars.
 * @param n
 *   Number of mbufs.
 * @param data_room
 *   Data room in bytes, headroom included; 0 for indirect mbufs only.
 * @param socket
 *   NUMA socket or SOCKET_ID_ANY.
 * @return
 *   The pool, or NULL after app_err().
 */
struct rte_mempool *app_pool_create(const char *name, unsigned int n,
		uint16_t data_room, int socket, enum app_pool_kind kind);

/**
 * Leak check, after the ports are closed and the lcores stopped:
 * npool_leak_check() of every pool created here (npool's own pools
 * included), its totals in @p lk, and the pools' state printed to @p f.
 */
void app_pool_leak_check(FILE *f, struct app_leak *lk);

struct app_json;

/** Who app_pool_stats_print() and app_pool_stats_json() report on: the
 * sum of npool's counters over every slot. */
#define APP_POOL_STATS_ALL UINT_MAX

/**
 * Print npool's counters (every field of struct npool_stats, in
 * NPOOL_STATS_FIELDS order) of lcore @p lcore, or their sum
 * (APP_POOL_STATS_ALL), to @p f as one line "<who>: npool <name> <value>,
 * ...". Nothing when npool does not run or @p lcore is out of range.
 * Main lcore.
 */
void app_pool_stats_print(FILE *f, unsigned int lcore);

/**
 * Write npool's counters of lcore @p lcore, or their sum
 * (APP_POOL_STATS_ALL), into the open JSON object of @p j as the object
 * "npool" (one key per field of struct npool_stats). Nothing when npool
 * does not run. Main lcore.
 */
void app_pool_stats_json(struct app_json *j, unsigned int lcore);

struct rte_tel_data;

/**
 * Add to telemetry dict @p d, while the lcores run: each pool's mbufs out
 * (key: the pool's name; free = its ops count plus every lcore's mempool
 * cache, as the leak check counts), then, when npool runs, npool_heads,
 * npool_frags and npool_chunks out (chunks held by the lcores' fragment
 * caches included: the leak check drains those first). Any thread; the
 * pools cannot be freed meanwhile.
 *
 * @return 0.
 */
int app_pool_usage_to_dict(struct rte_tel_data *d);

/** Free every pool created here, then npool_fini(). Main lcore. */
void app_pool_fini(void);

#endif /* APP_POOL_H */
