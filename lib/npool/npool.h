/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_H
#define NPOOL_H

/**
 * @file
 * libnpool: the Linux kernel's NAPI packet-buffer allocation for DPDK.
 *
 * Include this one header. Call npool_init() once after rte_eal_init(),
 * then allocate fragments (npool_frag.h) and packets (npool_pkt.h) from
 * any lcore; npool_fini() before rte_eal_cleanup().
 */

#include <stdint.h>

#include "npool_build_config.h"
#include "npool_arena.h"
#include "npool_audit.h"
#include "npool_core.h"
#include "npool_frag.h"
#include "npool_head_cache.h"
#include "npool_pkt.h"
#include "npool_pkt_bulk.h"
#include "npool_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Name of npool's rte_mempool ops (drivers/mempool/npool). */
#define NPOOL_MEMPOOL_OPS_NAME "npool"

/** Settings of npool_init(). Fill with npool_conf_defaults() first. */
struct npool_conf {
	/** Big chunks in the arena, 1 .. 2^20 (default 1024 = 32 MiB). */
	uint32_t nb_chunks;
	/** 4 KiB chunks, 0 .. 2^20 (default 256 = 1 MiB): the small
	 * packets' chunks (npool_pkt.h; 16 packets of 64 B each), and the
	 * order-0 fallback when no big chunk is free. With 0, small packets
	 * come from big chunks as others do. */
	uint32_t nb_small_chunks;
	/** Packet heads in the head pool, 64 .. 2^24 (default 16383). */
	uint32_t nb_heads;
	/** Headroom of npool packets in bytes, 0 .. 1024
	 * (default RTE_PKTMBUF_HEADROOM; the kernel's NET_SKB_PAD). */
	uint32_t headroom;
	/** NUMA socket of all memory, or SOCKET_ID_ANY (default). */
	int socket_id;
};

/** Fill @p conf with the defaults documented in struct npool_conf. */
void npool_conf_defaults(struct npool_conf *conf);

/**
 * Create the process's npool: chunk arena, per-lcore fragment caches and
 * the head pool (an rte_mempool with ops "npool" behind a mempool cache
 * of NPOOL_HC_SIZE per lcore).
 *
 * Context: main lcore, after rte_eal_init(), before any other npool call.
 *
 * @param conf
 *   Settings, or NULL for the defaults.
 * @return
 *   0 on success, or a negative errno (also in rte_errno): -EALREADY
 *   (already initialised), -EINVAL (a setting out of range), -ENOMEM (no
 *   memory), -ENOSPC (the "npool" mempool ops could not be registered:
 *   the ops table is full). Call it after rte_eal_init(): it registers
 *   the ops (npool_mempool_ops_register()).
 */
int npool_init(const struct npool_conf *conf);

/**
 * Destroy the process's npool. Every fragment and head must be back.
 *
 * Context: main lcore, when no other thread uses npool.
 *
 * @return
 *   0, or -EBUSY if fragments or heads are still out, or if a napi cache
 *   that npool_frag_cache_drain_all() must leave to its owner (an lcore
 *   still running a launched function, a thread still registered) holds
 *   a chunk (nothing is freed then; npool keeps working), -ENODEV if
 *   npool is not initialised.
 */
int npool_fini(void);

/** Memory state, for leak checks and monitoring. */
struct npool_usage {
	uint32_t chunks;          /**< big chunks in the arena */
	uint32_t small_chunks;    /**< small chunks in the arena */
	uint32_t chunks_in_use;   /**< chunks (both sizes) not free */
	int64_t frags_out;        /**< fragments handed out, not yet freed */
	uint32_t heads;           /**< heads in the head pool */
	uint32_t heads_out;       /**< heads handed out, not yet back */
};

/**
 * Read the memory state. Any thread; exact only when no thread allocates.
 *
 * @return 0, -EINVAL if @p u is NULL, or -ENODEV if npool is not
 *   initialised.
 */
int npool_usage_get(struct npool_usage *u);

/** The head pool (ops "npool"), or NULL before npool_init(). */
struct rte_mempool *npool_head_pool(void);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_H */
