/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_CTR_H
#define APP_CTR_H

/**
 * @file
 * The apps' counters: the block each lcore writes (struct
 * app_lcore_ctr, an app's array of them handed to app_stats_init()), and
 * the table of what a port reports (key, where the value is, which
 * outputs show it, how), walked by every output: the --stats line, the
 * end-of-run table, --json and telemetry. As DPDK's
 * eth_dev_stats_strings[] (name and offset) drives the ethdev xstats; a
 * counter added to the table appears wherever its flags say.
 *
 * Each lcore writes only its own block with plain adds; the main thread
 * sums them (reads may lag by a burst while running). Invariant per port
 * and in total: rx == forwarded + dropped; per port, rx == the sum of its
 * polled RX queues' rx (each queue is counted by the one lcore that polls
 * it).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "npool_rx.h"
#include "app_cli.h"

struct app_json;

/** Most drop reasons an app may name. */
#define APP_MAX_REASONS 32u

/** Most event counters an app may name (app_stats_desc.events). */
#define APP_MAX_EVENTS 32u

/** Counters of one port on one lcore. */
struct app_port_ctr {
	uint64_t rx;   /**< packets received on the port */
	uint64_t tx;   /**< packets sent out of the port (fragments each) */
	uint64_t fwd;  /**< packets received here and forwarded */
	uint64_t drops[APP_MAX_REASONS]; /**< received here, dropped */
	/** The app's events on the port (app_stats_desc.events): what it
	 * said itself (npool-fwd's replies and ICMP errors), not packets
	 * received, so outside rx == forwarded + dropped. Slow path. */
	uint64_t ev[APP_MAX_EVENTS];
};

/** Non-empty bursts between two TSC reads while packets keep coming. */
#define APP_TSC_EVERY 16u

/** Counters of one lcore. */
struct app_lcore_ctr {
	uint64_t rx;        /**< packets received, all ports */
	uint64_t first_n;   /**< packets in the first non-empty burst */
	uint64_t first_tsc; /**< TSC at the first non-empty burst, 0 = none */
	uint64_t last_tsc;  /**< TSC read after a recent non-empty burst */
	uint64_t last_rx;   /**< rx when last_tsc was read */
	uint32_t stale;     /**< non-empty bursts since last_tsc was read */
	/** Set when the lcore's loop starts polling (app_ctr_start()):
	 * --idle-exit counts from the moment every polling lcore has. */
	uint32_t polling;
	/** RX polls that found a queue empty: --idle-exit takes a run as
	 * idle only once every lcore has polled empty since its last
	 * packet (an lcore kept off its CPU has not). */
	uint64_t empty;
	/** Packets received on each of the lcore's RX queues, in the order
	 * of app_lcores[lcore].rxq[]. */
	uint64_t rxq[APP_MAX_RXQ_PER_LCORE];
	struct app_port_ctr port[RTE_MAX_ETHPORTS];
} __rte_cache_aligned;

/** The lcore's loop starts polling. */
static inline void
app_ctr_start(struct app_lcore_ctr *c)
{
	__atomic_store_n(&c->polling, 1, __ATOMIC_RELEASE);
}

/** @internal Read the TSC for the lcore rate (with the rx it covers). */
static __rte_always_inline void
app_ctr_stamp_pvt(struct app_lcore_ctr *c)
{
	c->last_tsc = rte_rdtsc();
	c->last_rx = c->rx;
	c->stale = 0;
}

/**
 * Count a non-empty RX burst of @p n packets on @p port, received on the
 * lcore's RX queue number @p i (app_lcores[lcore].rxq[i]).
 * Inline: the lcore's fast path. The TSC (~25 cycles here) is read at
 * the first burst, then once every APP_TSC_EVERY bursts and at the first
 * empty poll after a burst (app_ctr_idle()): the rate covers the packets
 * counted up to the last read, exactly.
 */
static __rte_always_inline void
app_ctr_rx(struct app_lcore_ctr *c, uint16_t i, uint16_t port, uint16_t n)
{
	c->rx += n;
	c->rxq[i] += n;
	c->port[port].rx += n;
	if (unlikely(c->first_tsc == 0)) {
		c->first_n = n;
		app_ctr_stamp_pvt(c);
		c->first_tsc = c->last_tsc;
	} else if (unlikely(++c->stale == APP_TSC_EVERY)) {
		app_ctr_stamp_pvt(c);
	}
}

/** An empty poll: date the bursts counted since the last TSC read. */
static __rte_always_inline void
app_ctr_idle(struct app_lcore_ctr *c)
{
	c->empty++;
	if (unlikely(c->stale != 0))
		app_ctr_stamp_pvt(c);
}

/** How an app names itself and its drop reasons. */
struct app_stats_desc {
	const char *app;              /**< "npool-fwd" */
	const char *const *reasons;   /**< drop reason names, JSON keys */
	unsigned int nb_reasons;      /**< 1 .. APP_MAX_REASONS */
	/** Reason of the frames app_rx_burst_plain() drops as malformed: a
	 * chain whose segments do not add up to its pkt_len or nb_segs. */
	unsigned int rx_bad;
	/** JSON and telemetry key of the event counters (NULL: none). */
	const char *events_key;
	const char *const *events;    /**< event names, JSON keys */
	unsigned int nb_events;       /**< 0 .. APP_MAX_EVENTS */
};

/** Outputs (app_ctr_def.out, app_ctr_visit.out). */
#define APP_CTR_LINE  (1u << 0) /**< the --stats line, one port */
#define APP_CTR_TABLE (1u << 1) /**< end-of-run table, ports and total */
#define APP_CTR_JSON  (1u << 2) /**< --json, a port or the total */
#define APP_CTR_TEL   (1u << 3) /**< telemetry /app/stats, /app/port */

/** Formatting hints (app_ctr_def.hint), each read by one output. */
#define APP_CTR_RATE    (1u << 0) /**< line: Mpps since the last line */
#define APP_CTR_RXQ     (1u << 1) /**< table: a row per RX queue follows */
#define APP_CTR_NONZERO (1u << 2) /**< table: only rows with a total */

/** What a counter belongs to (app_ctr_def.sec): the walk's columns. */
enum app_ctr_sec {
	APP_CTR_SEC_PORT, /**< a port (or all): app_ctr_col.c and .eth */
	APP_CTR_SEC_RX,   /**< an lcore (or all): app_ctr_col.rx */
};

/** Where a counter's value is (app_ctr_def.src). */
enum app_ctr_src {
	APP_CTR_PORT,      /**< uint64_t at off in struct app_port_ctr */
	APP_CTR_DROPPED,   /**< the sum of the drops by reason */
	APP_CTR_IN_FLIGHT, /**< rx - forwarded - dropped, at least 0 */
	APP_CTR_ETH,       /**< uint64_t at off in struct rte_eth_stats */
	APP_CTR_RX,        /**< uint64_t at off in struct npool_rx_stats */
	APP_CTR_REASONS,   /**< group: a counter per drop reason */
	APP_CTR_EVENTS,    /**< group: a counter per app event */
	APP_CTR_ETHDEV,    /**< group: the APP_CTR_ETH counters */
};

/** One counter, or a group of them (one JSON / telemetry object). */
struct app_ctr_def {
	/** JSON and telemetry key; of a group, its object's (events:
	 * NULL, app_stats_desc.events_key). */
	const char *key;
	/** Table and --stats line label; of a group, its rows' prefix. */
	const char *label;
	uint16_t off;  /**< byte offset of the value (APP_CTR_PORT, _ETH) */
	uint8_t src;   /**< enum app_ctr_src */
	uint8_t out;   /**< APP_CTR_LINE | APP_CTR_TABLE | ... */
	uint8_t hint;  /**< APP_CTR_RATE | APP_CTR_RXQ | ... */
	uint8_t sec;   /**< enum app_ctr_sec */
};

/** One column of values: a port, an lcore, or the total. */
struct app_ctr_col {
	const struct app_port_ctr *c;    /**< APP_CTR_SEC_PORT */
	const struct rte_eth_stats *eth; /**< NULL: no ethdev group */
	const struct npool_rx_stats *rx; /**< APP_CTR_SEC_RX: copy-break */
};

/** An output: what it does with the counters a walk visits. */
struct app_ctr_visit {
	unsigned int out; /**< one of APP_CTR_LINE, _TABLE, _JSON, _TEL */
	/** Open a group's object named @p key: 0 or a negative errno. */
	int (*open)(void *arg, const char *key);
	/** Close the object open() opened. */
	void (*close)(void *arg);
	/**
	 * One counter: @p d its definition (of a group's member: the
	 * group's), @p key and @p label its own, @p v its value in each
	 * column (and after them the total, when the walk sums one).
	 */
	void (*value)(void *arg, const struct app_ctr_def *d, const char *key,
			const char *label, const uint64_t *v);
	void *arg; /**< passed to each callback */
};

/**
 * Visit, in table order, every counter of section @p sec that @p vis->out
 * shows, with its value in each of @p n columns; with @p total, after
 * them the sum of the columns. The reasons and events are those of
 * app_ctr_set_desc(); the ethdev group only when every column has
 * @p eth. Any thread.
 *
 * @param sec
 *   enum app_ctr_sec: which member of @p cols the values are read from.
 * @param n
 *   1 .. RTE_MAX_ETHPORTS.
 * @return 0, -ENODEV before app_ctr_set_desc() (APP_CTR_SEC_PORT), or
 *   the first error of @p vis->open.
 */
/** The app's names of its drop reasons and events, kept by pointer
 * (app_stats_init() sets it; NULL: none yet). Main lcore. */
void app_ctr_set_desc(const struct app_stats_desc *d);

int app_ctr_walk(const struct app_ctr_visit *vis, unsigned int sec,
		const struct app_ctr_col *cols, unsigned int n, bool total);

/** Write the counters of section @p sec of one column into @p j's open
 * object (--json). */
void app_ctr_json(struct app_json *j, unsigned int sec,
		const struct app_ctr_col *col);

#endif /* APP_CTR_H */
