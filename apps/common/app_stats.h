/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_STATS_H
#define APP_STATS_H

/**
 * @file
 * The report of an app's counters (app_ctr.h): the periodic line
 * (--stats), the end-of-run table and the JSON file (--json); live
 * snapshots for telemetry and the run's --idle-exit.
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_ethdev.h>

#include "app_cli.h"
#include "app_ctr.h"
#include "app_pool.h"

struct app_json;

/** What an app adds to the report; either member may be NULL. */
struct app_stats_extra {
	/** Print the app's own lines after the end-of-run table. */
	void (*print)(FILE *f, double duration_s);
	/** Write the app's own keys into the JSON top-level object. */
	void (*json)(struct app_json *j, double duration_s);
};

/** @internal The app's rx_bad drop reason (app_stats_desc.rx_bad), for
 * the RX checks (app_rx.c). */
extern unsigned int app_stats_rx_bad_pvt;

/**
 * Reset the counters @p ctr (RTE_MAX_LCORE blocks, indexed by lcore id)
 * and report them from now on, with the app's names @p d. Main lcore.
 */
void app_stats_init(const struct app_stats_desc *d, const struct app_opts *o,
		struct app_lcore_ctr *ctr);

/** Add @p x (kept by pointer; NULL: none) to the report. After
 * app_stats_init(). Main lcore. */
void app_stats_set_extra(const struct app_stats_extra *x);

/**
 * For --idle-exit, at each check: whether the @p nb_loops polling lcores
 * are idle. They are not while one has yet to start polling
 * (app_ctr_start()) or while packets were received since the last check;
 * they are once no packet came and every lcore has polled an empty queue
 * since the last packet (an lcore kept off its CPU mid-stream has not).
 * Control thread only.
 */
bool app_stats_idle(unsigned int nb_loops);

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
