/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "npool.h"
#include "app_cli.h"

enum {
	OPT_CONFIG = 256,
	OPT_POOL,
	OPT_COPYBREAK,
	OPT_NB_MBUFS,
	OPT_NB_CHUNKS,
	OPT_NB_SMALL_CHUNKS,
	OPT_NB_HEADS,
	OPT_NB_MID,
	OPT_MBUF_SIZE,
	OPT_MBCACHE,
	OPT_STATS,
	OPT_DURATION,
	OPT_IDLE_EXIT,
	OPT_JSON,
	OPT_RX_QUEUE_SIZE,
	OPT_TX_QUEUE_SIZE,
	OPT_NO_NUMA,
	OPT_HELP,
};

static const struct option common_long_opts[] = {
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "pool", required_argument, NULL, OPT_POOL },
	{ "copybreak", required_argument, NULL, OPT_COPYBREAK },
	{ "nb-mbufs", required_argument, NULL, OPT_NB_MBUFS },
	{ "nb-chunks", required_argument, NULL, OPT_NB_CHUNKS },
	{ "nb-small-chunks", required_argument, NULL, OPT_NB_SMALL_CHUNKS },
	{ "nb-heads", required_argument, NULL, OPT_NB_HEADS },
	{ "nb-mid", required_argument, NULL, OPT_NB_MID },
	{ "mbuf-size", required_argument, NULL, OPT_MBUF_SIZE },
	{ "mbcache", required_argument, NULL, OPT_MBCACHE },
	{ "stats", required_argument, NULL, OPT_STATS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "idle-exit", required_argument, NULL, OPT_IDLE_EXIT },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "rx-queue-size", required_argument, NULL, OPT_RX_QUEUE_SIZE },
	{ "tx-queue-size", required_argument, NULL, OPT_TX_QUEUE_SIZE },
	{ "no-numa", no_argument, NULL, OPT_NO_NUMA },
	{ "help", no_argument, NULL, OPT_HELP },
};

#define COMMON_SHORT_OPTS "p:Ph"
#define MAX_LONG_OPTS 64

/*
 * The shared options in the order --help lists them; RX-side ones are left
 * out of (and refused by) an app that receives nothing (app_cli.tx_only),
 * which prints tx_text instead of text where the two differ.
 */
static const struct {
	const char *text;
	bool rx;
	const char *tx_text;
} common_usage[] = {
	{ "  -p PORTMASK         hex mask of the ports to use (required)\n",
		false, NULL },
	{ "  -P                  put the ports in promiscuous mode\n",
		true, NULL },
	{ "  --config \"(port,queue,lcore)[,...]\"\n"
		"                      RX queues polled by each lcore, at most "
		RTE_STR(APP_MAX_RXQ_PER_LCORE) " per\n"
		"                      lcore and " RTE_STR(APP_MAX_RXQ) " in all (default: queue 0 of every\n"
		"                      port on the first worker lcore)\n",
		false,
		"  --config \"(port,queue,lcore)[,...]\"\n"
		"                      TX queue each lcore sends on, at most "
		RTE_STR(APP_MAX_RXQ_PER_LCORE) " per\n"
		"                      lcore and " RTE_STR(APP_MAX_RXQ) " in all (default: queue 0 of every\n"
		"                      port on the first worker lcore)\n" },
	{ "  --pool npool|mempool\n"
		"                      RX pools on the \"npool\" ops (default) or DPDK's\n"
		"                      rte_pktmbuf_pool_create()\n",
		false,
		"  --pool npool|mempool\n"
		"                      packets from npool_napi_alloc_pkt() (default) or\n"
		"                      from DPDK's rte_pktmbuf_pool_create()\n" },
	{ "  --copybreak BYTES   copy packets up to BYTES into npool packets and\n"
		"                      free the RX mbuf at once (0 = off, the default)\n",
		true, NULL },
	{ "  --nb-mbufs N        mbufs per RX pool, 1..16777216 (default: sized\n"
		"                      from the rings, at least 8192; fewer than the rings\n"
		"                      need is allowed with a warning: RX then runs out)\n",
		true, NULL },
	{ "  --nb-chunks N       npool arena chunks of " RTE_STR(NPOOL_CHUNK_SIZE)
		" bytes, 1..1048576\n"
		"                      (default: sized from the rings, as --nb-mbufs)\n",
		false, NULL },
	{ "  --nb-small-chunks N npool arena chunks of 4096 bytes (the fallback),\n"
		"                      0..1048576 (default: sized from the rings;\n"
		"                      0: no small and no tiny packets)\n",
		false, NULL },
	{ "  --nb-mid N          npool mid-size packets (one object of up to 2 KiB),\n"
		"                      0..16777216 (default: sized from the rings;\n"
		"                      0: a head and a fragment instead)\n",
		false, NULL },
	{ "  --nb-heads N        npool packet heads, 64..16777216 (default: sized\n"
		"                      from the rings); the four apply with --pool\n"
		"                      npool or --copybreak\n",
		false,
		"  --nb-heads N        npool packet heads, 64..16777216 (default: sized\n"
		"                      from the rings and the TX queues); the four\n"
		"                      apply with --pool npool\n" },
	{ "  --mbuf-size BYTES   RX mbuf data room, headroom included (default:\n"
		"                      the RX profile's plan: a whole frame of the port\n"
		"                      MTU in one buffer); refused where the PMD can\n"
		"                      neither scatter nor chain a longer frame\n",
		true, NULL },
	{ "  --mbcache N         per-lcore cache of the stock pools (--pool mempool),\n"
		"                      0..512 (default 256; 0 = every get/put on the\n"
		"                      ring, testpmd's --mbcache=0); npool pools keep\n"
		"                      their own per-lcore caches\n",
		false, NULL },
	{ "  --stats SEC         print the counters every SEC seconds (0 = off)\n",
		false, NULL },
	{ "  --duration SEC      stop after SEC seconds, a decimal fraction allowed\n"
		"                      (0 = no limit)\n",
		false, NULL },
	{ "  --idle-exit MS      stop when no packet arrived for MS milliseconds\n",
		true, NULL },
	{ "  --json FILE         write the final counters to FILE as JSON\n",
		false, NULL },
	{ "  --rx-queue-size N   RX descriptors per queue, 1..65535 (l3fwd's; default:\n"
		"                      the RX profile's, 256..1024), adjusted to the\n"
		"                      driver's limits (rte_eth_dev_adjust_nb_rx_tx_desc);\n"
		"                      the RX pool is sized for it\n",
		true, NULL },
	{ "  --tx-queue-size N   TX descriptors per queue, 1..65535, the same way\n",
		false, NULL },
	{ "  --no-numa           RX pools and queues on socket 0 (l3fwd's; default:\n"
		"                      one RX pool per socket of a polling lcore)\n",
		false, NULL },
	{ "  -h, --help          print this help\n",
		false, NULL },
};

void
app_opts_defaults(struct app_opts *o, const char *prog)
{
	memset(o, 0, sizeof(*o));
	o->prog = prog;
	o->pool = APP_POOL_NPOOL;
	o->mbcache = APP_MEMPOOL_CACHE;
	o->nb_small_chunks = APP_NPOOL_DEFAULT;
	o->nb_mid = APP_NPOOL_DEFAULT;
	app_err_set_prog(prog);
}

/* Every enabled port must exist. */
static int
check_portmask(const struct app_opts *o)
{
	unsigned int p;

	if (o->portmask == 0) {
		app_err("-p: a port mask is required");
		return -1;
	}
	for (p = 0; p < 64; p++) {
		if (!(o->portmask & (UINT64_C(1) << p)))
			continue;
		if (p >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port(p)) {
			app_err("-p: port %u does not exist (%u ports probed)",
					p, rte_eth_dev_count_avail());
			return -1;
		}
	}
	return 0;
}

/* Default --config: queue 0 of every port on the first worker lcore. */
static void
default_config(struct app_opts *o)
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	uint16_t p;

	if (lcore >= RTE_MAX_LCORE)
		lcore = rte_get_main_lcore();
	o->nb_rxq = 0;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (o->portmask & (UINT64_C(1) << p))
			o->rxq[o->nb_rxq++] = (struct app_rxq_map){ p, 0, lcore };
}

/* Ports enabled, lcores enabled, no duplicate, queues 0..n-1 per port. */
static int
check_config(const struct app_opts *o)
{
	uint32_t nq[RTE_MAX_ETHPORTS] = { 0 }, maxq[RTE_MAX_ETHPORTS] = { 0 };
	uint32_t per_lcore[RTE_MAX_LCORE] = { 0 };
	unsigned int i, j;
	uint16_t p;

	for (i = 0; i < o->nb_rxq; i++) {
		const struct app_rxq_map *m = &o->rxq[i];

		if (!(o->portmask & (UINT64_C(1) << m->port))) {
			app_err("--config: port %u is not enabled in -p", m->port);
			return -1;
		}
		if (!rte_lcore_is_enabled(m->lcore)) {
			app_err("--config: lcore %u is not enabled (EAL -l/-c)",
					m->lcore);
			return -1;
		}
		for (j = 0; j < i; j++)
			if (o->rxq[j].port == m->port &&
					o->rxq[j].queue == m->queue) {
				app_err("--config: queue %u of port %u is listed twice",
						m->queue, m->port);
				return -1;
			}
		if (++per_lcore[m->lcore] > APP_MAX_RXQ_PER_LCORE) {
			app_err("--config: lcore %u has more than %d queues (the limit per lcore)",
					m->lcore, APP_MAX_RXQ_PER_LCORE);
			return -1;
		}
		nq[m->port]++;
		maxq[m->port] = RTE_MAX(maxq[m->port], (uint32_t)m->queue + 1);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!(o->portmask & (UINT64_C(1) << p)))
			continue;
		if (nq[p] == 0) {
			app_err("--config: port %u is enabled but has no RX queue",
					p);
			return -1;
		}
		if (nq[p] != maxq[p]) {
			app_err("--config: the queues of port %u must be 0..%u",
					p, nq[p] - 1);
			return -1;
		}
	}
	return 0;
}

static int
check_opts(struct app_opts *o)
{
	if (check_portmask(o) < 0)
		return -1;
	if (o->nb_rxq == 0)
		default_config(o);
	return check_config(o);
}

/* Whether @p path can be created or appended to, leaving no trace. */
static bool
json_writable(const char *path)
{
	bool existed = access(path, F_OK) == 0;
	FILE *f = fopen(path, "a");
	int err;

	if (f == NULL)
		return false;
	fclose(f);
	if (!existed) {
		err = errno;
		unlink(path);
		errno = err;
	}
	return true;
}

static int
parse_u32(const char *flag, const char *arg, uint32_t min, uint32_t max,
		uint32_t *out)
{
	uint64_t v;

	if (app_parse_u64(flag, arg, min, max, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* A shared option: 0, or -1 after app_err(); 1: not a shared one. */
static int
parse_common(struct app_opts *o, int opt, const char *arg)
{
	uint64_t v;

	switch (opt) {
	case 'p':
		return app_parse_portmask("-p", arg, &o->portmask);
	case 'P':
		o->promisc = true;
		return 0;
	case OPT_CONFIG:
		return app_parse_config("--config", arg, o->rxq, &o->nb_rxq);
	case OPT_POOL:
		if (strcmp(arg, "npool") == 0)
			o->pool = APP_POOL_NPOOL;
		else if (strcmp(arg, "mempool") == 0)
			o->pool = APP_POOL_MEMPOOL;
		else {
			app_err("--pool: '%s' is not npool or mempool", arg);
			return -1;
		}
		return 0;
	case OPT_COPYBREAK:
		if (app_parse_u64("--copybreak", arg, 0, NPOOL_PKT_MAX_LEN, &v))
			return -1;
		o->copybreak = (uint32_t)v;
		return 0;
	case OPT_NB_MBUFS:
		return parse_u32("--nb-mbufs", arg, 1, 1 << 24, &o->nb_mbufs);
	case OPT_NB_CHUNKS:
		return parse_u32("--nb-chunks", arg, 1, 1 << 20, &o->nb_chunks);
	case OPT_NB_SMALL_CHUNKS:
		return parse_u32("--nb-small-chunks", arg, 0, 1 << 20,
				&o->nb_small_chunks);
	case OPT_NB_HEADS:
		return parse_u32("--nb-heads", arg, 64, 1 << 24, &o->nb_heads);
	case OPT_NB_MID:
		return parse_u32("--nb-mid", arg, 0, 1 << 24, &o->nb_mid);
	case OPT_MBUF_SIZE:
		if (app_parse_u64("--mbuf-size", arg, RTE_PKTMBUF_HEADROOM + 64,
				UINT16_MAX, &v))
			return -1;
		o->mbuf_size = (uint16_t)v;
		return 0;
	case OPT_MBCACHE:
		if (app_parse_u64("--mbcache", arg, 0,
				RTE_MEMPOOL_CACHE_MAX_SIZE, &v))
			return -1;
		o->mbcache = (uint16_t)v;
		return 0;
	case OPT_STATS:
		if (app_parse_u64("--stats", arg, 0, 86400, &v))
			return -1;
		o->stats_s = (uint32_t)v;
		return 0;
	case OPT_DURATION:
		return app_parse_double("--duration", arg, 0, 1e9,
				&o->duration_s);
	case OPT_IDLE_EXIT:
		return app_parse_u64("--idle-exit", arg, 0, UINT32_MAX,
				&o->idle_ms);
	case OPT_RX_QUEUE_SIZE:
		if (app_parse_u64("--rx-queue-size", arg, 1, UINT16_MAX, &v))
			return -1;
		o->nb_rxd = (uint16_t)v;
		return 0;
	case OPT_TX_QUEUE_SIZE:
		if (app_parse_u64("--tx-queue-size", arg, 1, UINT16_MAX, &v))
			return -1;
		o->nb_txd = (uint16_t)v;
		return 0;
	case OPT_NO_NUMA:
		o->no_numa = true;
		return 0;
	case OPT_JSON:
		if (arg[0] == '\0') {
			app_err("--json: empty file name");
			return -1;
		}
		/* Fail now, not after the run: can the file be written? */
		if (!json_writable(arg)) {
			app_err("--json: cannot write '%s': %s", arg,
					strerror(errno));
			return -1;
		}
		o->json = arg;
		return 0;
	}
	return 1;
}

void
app_cli_usage(FILE *f, const struct app_opts *o, const struct app_cli *cli)
{
	unsigned int i;

	fprintf(f, "Usage: %s [EAL options] -- -p PORTMASK [options]\n"
			"Options:\n", o->prog);
	for (i = 0; i < RTE_DIM(common_usage); i++) {
		if (!cli->tx_only)
			fputs(common_usage[i].text, f);
		else if (!common_usage[i].rx)
			fputs(common_usage[i].tx_text != NULL ?
					common_usage[i].tx_text :
					common_usage[i].text, f);
	}
	fprintf(f, "%s"
			"Numbers are decimal, or hexadecimal after 0x (-p is hexadecimal).\n",
			cli->usage != NULL ? cli->usage : "");
}

/* Common and app long options in one getopt table. */
static int
build_long_opts(const struct app_cli *cli, struct option *lo)
{
	unsigned int n = 0, i;

	for (i = 0; i < RTE_DIM(common_long_opts); i++)
		lo[n++] = common_long_opts[i];
	for (i = 0; cli->long_opts != NULL && cli->long_opts[i].name != NULL;
			i++) {
		if (n == MAX_LONG_OPTS - 1)
			return -1;
		lo[n++] = cli->long_opts[i];
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	return 0;
}

/*
 * getopt_long() sets optopt to the short option's letter, to a long
 * option's id (> UCHAR_MAX) or to 0 for an unknown long option; the long
 * option itself is the argument just passed, up to its '='.
 */
static int
report_getopt_error(int opt, char **argv)
{
	const char *arg = argv[optind - 1];
	const int len = (int)strcspn(arg, "=");

	if (optopt > 0 && optopt <= UCHAR_MAX)
		app_err(opt == ':' ? "-%c: needs a value" :
				"-%c: unknown option", optopt);
	else if (opt == ':')
		app_err("%.*s: needs a value", len, arg);
	else if (optopt != 0)
		app_err("%.*s: takes no value", len, arg);
	else
		app_err("%.*s: unknown option", len, arg);
	return -1;
}

/* The receive side's options (common_usage[].rx). */
static bool
rx_only_opt(int opt)
{
	return opt == 'P' || opt == OPT_COPYBREAK || opt == OPT_NB_MBUFS ||
		opt == OPT_MBUF_SIZE || opt == OPT_IDLE_EXIT ||
		opt == OPT_RX_QUEUE_SIZE;
}

static int
report_rx_only(int opt, char **argv, const struct app_opts *o)
{
	const char *arg = argv[optind - 1];

	/* optarg may be the word after the flag: name the flag itself. */
	if (optarg != NULL && arg == optarg && optind >= 2)
		arg = argv[optind - 2];
	if (opt == 'P')
		app_err("-P: %s receives nothing (promiscuous mode is for RX)",
				o->prog);
	else
		app_err("%.*s: %s receives nothing, so it takes no RX option%s",
				(int)strcspn(arg, "="), arg, o->prog,
				opt == OPT_IDLE_EXIT ?
				" (it would always fire: use --duration or --count)" :
				"");
	return -1;
}

int
app_cli_fail(struct app_cli *cli, const struct app_opts *o)
{
	app_cli_usage(stderr, o, cli);
	cli->status = APP_EXIT_USAGE;
	return -1;
}

int
app_cli_next(struct app_cli *cli, struct app_opts *o, int argc, char **argv)
{
	struct option lo[MAX_LONG_OPTS];
	char so[64];
	int opt, rc;

	snprintf(so, sizeof(so), ":%s%s", COMMON_SHORT_OPTS,
			cli->short_opts != NULL ? cli->short_opts : "");
	if (build_long_opts(cli, lo) < 0) {
		app_err("too many options");
		return app_cli_fail(cli, o);
	}
	if (!cli->started) {
		cli->started = true;
		opterr = 0;
		/* 0, not 1: glibc then forgets the rest of a grouped
		 * option where an earlier parse stopped ("-hP"), which
		 * would point into that parse's arguments (found by
		 * tests/fuzz/app_cli_fuzz.c). */
		optind = 0;
	}
	while ((opt = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (opt == 'h' || opt == OPT_HELP) {
			app_cli_usage(stdout, o, cli);
			cli->status = APP_EXIT_OK;
			return -1;
		}
		if (opt == '?' || opt == ':')
			rc = report_getopt_error(opt, argv);
		else if (cli->tx_only && rx_only_opt(opt))
			rc = report_rx_only(opt, argv, o);
		else
			rc = parse_common(o, opt, optarg);
		if (rc < 0)
			return app_cli_fail(cli, o);
		if (rc > 0) {
			cli->arg = optarg;
			return opt;
		}
	}
	if (optind < argc) {
		app_err("%s: unexpected argument (not an option)",
				argv[optind]);
		return app_cli_fail(cli, o);
	}
	return check_opts(o) < 0 ? app_cli_fail(cli, o) : 0;
}
