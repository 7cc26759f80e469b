/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_STATS_H
#define APP_STATS_H

/**
 * @file
 * Per-lcore, per-port packet counters with drops by reason; the periodic
 * line (--stats), the end-of-run table and the JSON file (--json).
 *
 * Each lcore writes only its own struct app_lcore_ctr with plain adds;
 * the main lcore sums them (reads may lag by a burst while running).
 * Invariant per port and in total: rx == forwarded + dropped; per port,
 * rx == the sum of its polled RX queues' rx (each queue is counted by the
 * one lcore that polls it).
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "app_cli.h"
#include "app_ctr.h"
#include "app_pool.h"

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
	/** Packets received on each of the lcore's RX queues, indexed as
	 * app_lcores[lcore].rxq[]. */
	uint64_t rxq[APP_MAX_RXQ_PER_LCORE];
	struct app_port_ctr port[RTE_MAX_ETHPORTS];
} __rte_cache_aligned;

/** Counters, indexed by lcore id. */
extern struct app_lcore_ctr app_ctr[RTE_MAX_LCORE];

struct app_json;

/** What an app adds to the report; either member may be NULL. */
struct app_stats_extra {
	/** Print the app's own lines after the end-of-run table. */
	void (*print)(FILE *f, double duration_s);
	/** Write the app's own keys into the JSON top-level object. */
	void (*json)(struct app_json *j, double duration_s);
};

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
	if (unlikely(c->stale != 0))
		app_ctr_stamp_pvt(c);
}

/** @internal The app's rx_bad drop reason (app_stats_desc.rx_bad), for
 * the RX checks (app_rx.c). */
extern unsigned int app_stats_rx_bad_pvt;

/** Reset the counters and remember the app's names. Main lcore. */
void app_stats_init(const struct app_stats_desc *d, const struct app_opts *o);

/** Add @p x (kept by pointer; NULL: none) to the report. After
 * app_stats_init(). Main lcore. */
void app_stats_set_extra(const struct app_stats_extra *x);

/** Packets received so far over all lcores (for --idle-exit). */
uint64_t app_stats_rx_total(void);

/**
 * Print one line per port while the lcores run: rx, tx (rates since the
 * last call), forwarded, dropped, and the packets in flight (received,
 * not yet forwarded or dropped), from one read of the counters that adds
 * up: rx == forwarded + dropped + in flight; for a port polled on several
 * RX queues, a second line with each queue's rx and rate.
 */
void app_stats_print_periodic(double elapsed_s);

/**
 * Read every enabled port's ethdev counters (rte_eth_stats_get()) and
 * socket (rte_eth_dev_socket_id(), --json "socket") for the report: main
 * lcore, after the lcores stopped, before the ports close (a closed port
 * has no socket).
 */
void app_stats_read_eth(void);

/** The ethdev counters app_stats_read_eth() read for @p port; NULL when
 * none were (port not enabled, not read, or the PMD failed). */
const struct rte_eth_stats *app_stats_eth(uint16_t port);

/** Print the end-of-run table: per port and total (with a row per RX
 * queue when a port polls several), then per lcore; with --copybreak,
 * each lcore's and the total copy-break counters (npool_rx_stats:
 * copied, copybreak_nomem). */
void app_stats_print_final(FILE *f, double duration_s);

/**
 * Write the final counters and the leak check to @p path as JSON; the
 * copy-break counters as "copybreak_copied" and "copybreak_nomem" in each
 * lcore's object and in "total"; per port, "rx_queues" (queue, lcore, rx
 * of each polled RX queue) and "rss" (on, hash types, lacking types,
 * RETA size and entries per queue, why it is off).
 * @return 0, or -1 after app_err().
 */
int app_stats_write_json(const char *path, double duration_s,
		const struct app_leak *lk);

/** The names app_stats_init() was given; NULL before it. Any thread. */
const struct app_stats_desc *app_stats_desc_get(void);

/** app_stats_port_snapshot(): every enabled port, summed. */
#define APP_STATS_ALL_PORTS UINT16_MAX

/**
 * Port @p port's counters over all lcores while they run, from one read
 * that adds up as the --stats line's (drops read before rx: rx >=
 * forwarded + dropped, the rest in flight); with APP_STATS_ALL_PORTS,
 * the sum of every enabled port's. Any thread (telemetry).
 *
 * @return 0, or -EINVAL (port not enabled, or before app_stats_init()).
 */
int app_stats_port_snapshot(uint16_t port, struct app_port_ctr *out);

/**
 * RX packets of each polled RX queue of port @p port while the lcores
 * run (relaxed reads; the sum may lag the port's rx by a burst).
 * Any thread (telemetry).
 *
 * @param rx
 *   Out: rx[q] for queue q.
 * @param n
 *   Room in @p rx.
 * @return Queues written (app_port_rxq_polled(), at most @p n).
 */
unsigned int app_stats_rxq_snapshot(uint16_t port, uint64_t *rx,
		unsigned int n);

#endif /* APP_STATS_H */
