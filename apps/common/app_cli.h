/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_CLI_H
#define APP_CLI_H

/**
 * @file
 * Command line of the npool apps: the options every app shares (-p, -P,
 * --config, --pool, --copybreak, --nb-mbufs, --nb-chunks, --nb-small-chunks,
 * --nb-heads, --mbuf-size, --stats, --mbcache, --duration, --idle-exit,
 * --json, and l3fwd's --rx-queue-size, --tx-queue-size, --no-numa), their
 * values parsed strictly (app_parse.h), and one error line that names the
 * flag, then the usage.
 *
 * EAL options come first and end with "--"; app_cli_next() sees what
 * rte_eal_init() left and hands the app its own options one by one.
 */

#include <stdbool.h>
#include <stdint.h>
#include <getopt.h>

#include <rte_common.h>

#include "app_parse.h"

/** Exit status: success. */
#define APP_EXIT_OK 0
/** Exit status: setup or runtime error (EAL, ports, memory, JSON file). */
#define APP_EXIT_SETUP 1
/** Exit status: bad command line, route file or configuration. */
#define APP_EXIT_USAGE 2
/** Exit status: an mbuf or fragment was not back at the end. */
#define APP_EXIT_LEAK 3

/** Most RX queues (npool-gen: TX queues) one lcore serves in --config. */
#define APP_MAX_RXQ_PER_LCORE 16

/** Default cache size of the stock pools (--pool mempool), as l3fwd;
 * --mbcache changes it. */
#define APP_MEMPOOL_CACHE 256u

/** An npool setting left at npool's default (npool_conf_defaults()). */
#define APP_NPOOL_DEFAULT UINT32_MAX

/** Where the RX buffers come from (--pool). */
enum app_pool_kind {
	APP_POOL_NPOOL,   /**< npool_pktmbuf_pool_create(): "npool" ops */
	APP_POOL_MEMPOOL, /**< rte_pktmbuf_pool_create(): stock ring ops */
};

/** Options shared by the apps, after app_cli_next(). */
struct app_opts {
	const char *prog;        /**< app name, first word of every message */
	uint64_t portmask;       /**< -p (required) */
	bool promisc;            /**< -P */
	enum app_pool_kind pool; /**< --pool, default npool */
	uint32_t copybreak;      /**< --copybreak bytes, 0 = off */
	uint32_t nb_mbufs;       /**< --nb-mbufs, 0 = sized from the rings */
	uint32_t nb_chunks;      /**< --nb-chunks: npool arena big chunks,
	                          *   0 = npool's default */
	uint32_t nb_small_chunks; /**< --nb-small-chunks: 4 KiB chunks,
	                           *   APP_NPOOL_DEFAULT = npool's default */
	uint32_t nb_heads;       /**< --nb-heads: npool packet heads,
	                          *   0 = npool's default or the app's */
	uint32_t nb_mid;         /**< --nb-mid: npool mid-size packets,
	                          *   APP_NPOOL_DEFAULT = npool's default */
	uint16_t mbuf_size;      /**< --mbuf-size data room, 0 = profile's */
	uint16_t nb_rxd;         /**< --rx-queue-size descriptors per RX
	                          *   queue, 0 = the RX profile's */
	uint16_t nb_txd;         /**< --tx-queue-size, 0 = the profile's */
	/** --no-numa (l3fwd's): RX pools and queues on socket 0 whatever
	 * the lcores' sockets; without it, one RX pool per socket of a
	 * polling lcore. npool's own arena is one instance either way
	 * (npool_init()); per-socket instances are to come. */
	bool no_numa;
	uint16_t mbcache;        /**< --mbcache: per-lcore cache of the stock
	                          *   pools, default APP_MEMPOOL_CACHE */
	uint32_t stats_s;        /**< --stats period in seconds, 0 = off */
	double duration_s;       /**< --duration seconds, 0 = unlimited */
	uint64_t idle_ms;        /**< --idle-exit milliseconds, 0 = off */
	const char *json;        /**< --json file, NULL = none */
	uint16_t nb_rxq;         /**< entries in @c rxq */
	struct app_rxq_map rxq[APP_MAX_RXQ]; /**< --config, or the default */
};

/** First option id free for an app's own long options. */
#define APP_OPT_APP_BASE 512

/**
 * What an app adds to the shared command line, and where the parse of it
 * stands (app_cli_next()): zero it, then set the first four members.
 */
struct app_cli {
	/** Usage of the app's own options, lines ending in '\n', or NULL. */
	const char *usage;
	/** getopt short options of the app (no leading ':'), or NULL. */
	const char *short_opts;
	/** The app's long options (val >= APP_OPT_APP_BASE or a short
	 * option letter), ended by a zeroed entry; or NULL. */
	const struct option *long_opts;
	/** The app receives nothing (npool-gen): the RX-side options (-P,
	 * --copybreak, --nb-mbufs, --mbuf-size, --idle-exit,
	 * --rx-queue-size) are left out of its usage and refused. */
	bool tx_only;
	/** The argument of the app option app_cli_next() returned. */
	const char *arg;
	/** The exit status once a call returned -1: APP_EXIT_OK after the
	 * usage on stdout (-h), else APP_EXIT_USAGE or APP_EXIT_SETUP. */
	int status;
	bool started;  /**< app_cli_next() has begun */
};

/** Fill @p o with the defaults; @p prog names the app in messages. */
void app_opts_defaults(struct app_opts *o, const char *prog);

/**
 * The next app option of the command line (what follows "--", as
 * rte_eal_init() left it): each shared option on the way is taken into
 * @p o. At the end the options are checked against the probed ports and
 * the EAL lcores, and the default --config filled.
 *
 * @return
 *   An app option (its argument in cli->arg), for the app to take; 0 at
 *   the end, the options good; -1 after -h (the usage on stdout) or
 *   after one error line and the usage on stderr: the exit status is in
 *   cli->status.
 */
int app_cli_next(struct app_cli *cli, struct app_opts *o, int argc,
		char **argv);

/**
 * An app's option or setting is bad (its error line printed): the usage
 * on stderr.
 *
 * @return -1, with cli->status APP_EXIT_USAGE.
 */
int app_cli_fail(struct app_cli *cli, const struct app_opts *o);

/** Print the usage (shared options and the app's) to @p f. */
void app_cli_usage(FILE *f, const struct app_opts *o,
		const struct app_cli *cli);

#endif /* APP_CLI_H */
