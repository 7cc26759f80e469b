/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_NUMA_H
#define APP_NUMA_H

/**
 * @file
 * Where the apps' memory lives, socket by socket (l3fwd's numa_on): the
 * socket an lcore's RX pool, npool instance and route tables are on, and
 * the record of those for --json ("numa": RX pools, npool instances,
 * route tables, each with the socket of the memseg actually holding it).
 */

#include <stdbool.h>

#include "app_cli.h"

struct app_json;
struct rte_mempool;

/** Most memory objects app_numa_note() records. */
#define APP_NUMA_MAX_NOTES 64

/** Kinds of object app_numa_note() records. */
enum app_numa_kind {
	APP_NUMA_RX_POOL,   /**< an RX mbuf pool */
	APP_NUMA_ROUTES,    /**< a route table (npool-fwd) */
};

/**
 * Remember the options (--no-numa). Main lcore, after the command line
 * is parsed, before any other call here.
 */
void app_numa_init(const struct app_opts *o);

/**
 * Socket of @p lcore's RX pool, npool instance and route tables: the
 * lcore's own, or 0 for every lcore with --no-numa (as l3fwd), or when
 * EAL does not know it.
 */
unsigned int app_numa_lcore_socket(unsigned int lcore);

/**
 * Socket of the memseg holding @p p (rte_mem_virt2memseg()), or -1 if
 * @p p is not in DPDK memory.
 */
int app_numa_memseg_socket(const void *p);

/**
 * Record an object for the "numa" JSON: @p name, the socket it was
 * asked on, and @p mem, an address inside it (its memseg's socket is
 * read at JSON time). Main lcore; beyond APP_NUMA_MAX_NOTES it is left
 * out, with a warning.
 */
void app_numa_note(enum app_numa_kind kind, const char *name, int socket,
		const void *mem);

/**
 * Forget every object of @p kind (before they are freed). Main lcore.
 */
void app_numa_forget(enum app_numa_kind kind);

/**
 * Write the "numa" object: no_numa, rx_pools [{name, socket,
 * memseg_socket}], npool [{socket, arena_memseg_socket,
 * heads_memseg_socket, refills, pkt_allocs, chunks_in_use, frags_out,
 * heads_out, pinned_big, pinned_small, pinned_tiny, pinned_heads,
 * pinned}] (one per instance, read now: after the leak check's
 * drain at exit), routes [{name, socket, memseg_socket}]. Main lcore.
 */
void app_numa_json(struct app_json *j);

#endif /* APP_NUMA_H */
