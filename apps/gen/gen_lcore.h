/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef GEN_LCORE_H
#define GEN_LCORE_H

/**
 * @file
 * npool-gen's TX loop: each lcore sends the frames (gen_pkt.h) on its TX
 * queues with the kernel pktgen's clone_skb and Brouer's refcount trick
 * (one refcount store per packet instead of one atomic increment per
 * send), main.c setting up what the loop reads before the launch.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "app_cli.h"
#include "app_ctr.h"
#include "gen_pkt.h"

/** State of one TX queue, owned by one lcore. */
struct gen_txq {
	uint16_t port;
	uint16_t queue;
	bool done;                /**< quota sent */
	uint64_t quota;           /**< send slots to fill, UINT64_MAX = no end */
	/* Counters, read by the main lcore after the run. */
	uint64_t slots;           /**< send slots filled (tx + unsent) */
	uint64_t tx;              /**< accepted by rte_eth_tx_burst() */
	uint64_t tx_bytes;        /**< their bytes, without FCS */
	uint64_t unsent;          /**< refused slots: one reference freed each */
	uint64_t allocs;          /**< packets allocated */
	uint64_t alloc_fail;      /**< failed allocations (retried) */
	uint64_t tsc_first;       /**< TSC before the first TX burst */
	uint64_t tsc_last;        /**< TSC after the last TX burst */
	/* Packet being sent again: its references held by the generator. */
	struct rte_mbuf *cur;     /**< NULL: the next slot allocates */
	uint32_t cur_left;        /**< sends of @c cur not yet in a slot */
	/* Where the next allocated packet comes from. */
	uint64_t seq;
	uint32_t flow;
	uint32_t frame;           /**< index into the frames (mix or pcap) */
	/* Token bucket (--rate), 16.16 fixed point in TSC cycles. */
	uint64_t cost;            /**< cycles per send << 16, 0 = no limit */
	uint64_t credit;
	uint64_t credit_max;      /**< depth: GEN_RATE_DEPTH_MS of sends */
	uint64_t credit_lost;     /**< credit cut at the depth (stalls) */
	uint64_t tsc_prev;
	/* The run's frames with this queue's MACs, port and queue ids. */
	struct gen_frames *fr;
} __rte_cache_aligned;

/**
 * Depth of the --rate token bucket in milliseconds of sends: how long a
 * stall (a preempted lcore, a slow TX ring) the generator catches up on
 * at full speed afterwards. What a longer stall loses is counted and
 * reported (rate_lost), not silently dropped.
 */
#define GEN_RATE_DEPTH_MS 100

/** Most TX queues one lcore serves (as RX queues in apps/common). */
#define GEN_MAX_TXQ_PER_LCORE APP_MAX_RXQ_PER_LCORE

/** TX queues of one lcore. */
struct gen_lcore {
	uint16_t nb_txq;
	struct gen_txq txq[GEN_MAX_TXQ_PER_LCORE];
};

/** Everything the lcores read: filled by main.c, defined in gen_lcore.c. */
struct gen {
	struct gen_conf c;
	enum app_pool_kind pool;
	struct rte_mempool *tx_pool;   /**< --pool mempool: packets' pool */
	uint32_t src_ip_host;          /**< --src-ip in host order */
	/** Lcores still sending; the last to finish stops the run. */
	unsigned int active;
	struct gen_lcore lc[RTE_MAX_LCORE];
};

extern struct gen gen;

/** Each lcore's counters (app_stats.h reports them). */
extern struct app_lcore_ctr gen_ctr[RTE_MAX_LCORE];

/** The TX loop of one lcore (lcore_function_t); returns at once on an
 * lcore with no TX queue. */
int gen_lcore_main(void *arg);

#endif /* GEN_LCORE_H */
