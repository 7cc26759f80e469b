/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-gen: a packet generator with the kernel pktgen's clone_skb and
 * Brouer's refcount trick (one refcount store per packet instead of one
 * atomic increment per send). This file: its own options, setup and the
 * TX part of the report; apps/common does ports, pools, stats, run loop.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>

#include "npool.h"
#include "app_cli.h"
#include "app_json.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "gen_lcore.h"

static const char *const gen_reasons[] = { "tx_unsent" };

enum {
	OPT_SIZE = APP_OPT_APP_BASE,
	OPT_IMIX,
	OPT_FLOWS,
	OPT_RATE,
	OPT_COUNT,
	OPT_CLONE,
	OPT_REFCNT,
	OPT_PCAP,
	OPT_DST_MAC,
	OPT_SRC_IP,
	OPT_DST_IP,
};

static const struct option gen_long_opts[] = {
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "imix", no_argument, NULL, OPT_IMIX },
	{ "flows", required_argument, NULL, OPT_FLOWS },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "clone", required_argument, NULL, OPT_CLONE },
	{ "refcnt", required_argument, NULL, OPT_REFCNT },
	{ "pcap", required_argument, NULL, OPT_PCAP },
	{ "dst-mac", required_argument, NULL, OPT_DST_MAC },
	{ "src-ip", required_argument, NULL, OPT_SRC_IP },
	{ "dst-ip", required_argument, NULL, OPT_DST_IP },
	{ NULL, 0, NULL, 0 },
};

static const char gen_usage[] =
	"Generator options (a --config entry also names the TX queue its lcore\n"
	"sends on):\n"
	"  --size BYTES        frame size without FCS, 60..9000 (default 60)\n"
	"  --imix              the simple IMIX 7:4:1 of 60/590/1514 bytes, cycle\n"
	"                      60 590 60 60 590 60 60 590 60 60 590 1514\n"
	"  --flows N           flow i (packet number mod N) has source address\n"
	"                      --src-ip + i and UDP source port 1024 + i mod\n"
	"                      64512, 1..65536 (default 1); the addresses must\n"
	"                      not wrap past 255.255.255.255\n"
	"  --rate PPS          sends per second per port (split between its\n"
	"                      queues), 0 = line rate; stalls up to 100 ms are\n"
	"                      caught up, longer ones counted (rate_lost) and\n"
	"                      warned about at the end\n"
	"  --count N           sends per port, then stop (0 = no limit)\n"
	"  --clone N           send each allocated packet N + 1 times\n"
	"                      (pktgen clone_skb), 0..65534 (default 0)\n"
	"  --refcnt set|inc    set the refcount to N + 1 once per packet\n"
	"                      (default), or one rte_mbuf_refcnt_update() per\n"
	"                      extra send\n"
	"  --pcap FILE         replay the Ethernet frames of FILE (1..9018\n"
	"                      bytes, in a loop) instead of synthetic UDP\n"
	"  --dst-mac MAC       destination MAC (default 02:00:00:00:00:01)\n"
	"  --src-ip A.B.C.D    source address of flow 0 (default 198.18.0.1)\n"
	"  --dst-ip A.B.C.D    destination address (default 198.19.0.1)\n"
	"  npool-gen receives nothing: -P, --copybreak, --nb-mbufs, --mbuf-size,\n"
	"  --idle-exit and --rx-queue-size are refused.\n"
	"  Packets come from npool_napi_alloc_pkt() (--pool npool) or an\n"
	"  rte_pktmbuf pool (--pool mempool). Unsent slots of a partial TX\n"
	"  burst are dropped (tx_unsent), never retried.\n";

/* Note a synthetic-only option, for the --pcap conflict check. */
static void
synth_opt(struct gen_conf *c, const char *flag)
{
	if (c->synth_opts++ == 0)
		c->first_synth = flag;
}

static int
gen_parse_opt(struct gen_conf *c, int opt, const char *arg)
{
	uint64_t v;

	switch (opt) {
	case OPT_SIZE:
		if (app_parse_u64("--size", arg, GEN_MIN_SIZE, GEN_MAX_SIZE,
				&v) < 0)
			return -1;
		c->size = (uint32_t)v;
		c->size_set = true;
		synth_opt(c, "--size");
		return 0;
	case OPT_IMIX:
		c->imix = true;
		synth_opt(c, "--imix");
		return 0;
	case OPT_FLOWS:
		if (app_parse_u64("--flows", arg, 1, GEN_MAX_FLOWS, &v) < 0)
			return -1;
		c->flows = (uint32_t)v;
		synth_opt(c, "--flows");
		return 0;
	case OPT_RATE:
		return app_parse_u64("--rate", arg, 0, 1000000000, &c->rate);
	case OPT_COUNT:
		return app_parse_u64("--count", arg, 0, UINT64_MAX / 2,
				&c->count);
	case OPT_CLONE:
		if (app_parse_u64("--clone", arg, 0, GEN_MAX_CLONE, &v) < 0)
			return -1;
		c->clone = (uint32_t)v;
		return 0;
	case OPT_REFCNT:
		if (strcmp(arg, "set") == 0) {
			c->refcnt = GEN_REFCNT_SET;
		} else if (strcmp(arg, "inc") == 0) {
			c->refcnt = GEN_REFCNT_INC;
		} else {
			app_err("--refcnt: '%s' is not set or inc", arg);
			return -1;
		}
		return 0;
	case OPT_PCAP:
		c->pcap = arg;
		return 0;
	case OPT_DST_MAC:
		synth_opt(c, "--dst-mac");
		return app_parse_mac("--dst-mac", arg, &c->dst_mac);
	case OPT_SRC_IP:
		synth_opt(c, "--src-ip");
		return gen_parse_ipv4("--src-ip", arg, &c->src_ip);
	case OPT_DST_IP:
		synth_opt(c, "--dst-ip");
		return gen_parse_ipv4("--dst-ip", arg, &c->dst_ip);
	}
	app_err("unknown option");
	return -1;
}

static void
gen_conf_defaults(struct gen_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->size = GEN_MIN_SIZE;
	c->flows = 1;
	c->refcnt = GEN_REFCNT_SET;
	c->dst_mac = (struct rte_ether_addr){ { 0x02, 0, 0, 0, 0, 0x01 } };
	/* Unsigned octets: DPDK 22.11's RTE_IPV4() shifts its first one as
	 * an int, and 198 << 24 overflows (UBSan). */
	c->src_ip = RTE_BE32(RTE_IPV4(198u, 18u, 0u, 1u));
	c->dst_ip = RTE_BE32(RTE_IPV4(198u, 19u, 0u, 1u));
}

/* Options that exclude each other. 0, or -1 after app_err(). */
static int
gen_conf_check(const struct gen_conf *c)
{
	if (c->imix && c->size_set) {
		app_err("--imix: cannot be combined with --size");
		return -1;
	}
	if ((uint64_t)rte_be_to_cpu_32(c->src_ip) + c->flows - 1 > UINT32_MAX) {
		app_err("--flows: %u source addresses from --src-ip would wrap past 255.255.255.255",
				c->flows);
		return -1;
	}
	if (c->pcap != NULL && c->synth_opts != 0) {
		app_err("--pcap: cannot be combined with %s (captured frames are sent as they are)",
				c->first_synth);
		return -1;
	}
	return 0;
}

/* Frames shared by every queue (--pcap), else built per queue. */
static struct gen_frames pcap_frames;

/* The command line after EAL's: 0, or -1 with the exit status in
 * cli->status. */
static int
gen_cli(struct app_cli *cli, struct app_opts *o, int argc, char **argv)
{
	int opt, ret;

	while ((opt = app_cli_next(cli, o, argc, argv)) > 0)
		if (gen_parse_opt(&gen.c, opt, cli->arg) < 0)
			return app_cli_fail(cli, o);
	if (opt != 0)
		return opt;
	if (gen_conf_check(&gen.c) < 0)
		return app_cli_fail(cli, o);
	ret = gen.c.pcap != NULL ?
		gen_frames_load_pcap(&pcap_frames, gen.c.pcap) : 0;
	if (ret == -2)
		cli->status = APP_EXIT_SETUP;
	else if (ret < 0)
		return app_cli_fail(cli, o);
	return ret < 0 ? -1 : 0;
}

/* Longest frame of the run. */
static uint16_t
gen_max_frame(void)
{
	if (gen.c.pcap != NULL)
		return pcap_frames.max_len;
	return gen.c.imix ? 1514 : (uint16_t)gen.c.size;
}

/* Rate of queue @p j of the @p k queues of a port: @p rate split. */
static uint64_t
share(uint64_t total, unsigned int j, unsigned int k)
{
	return total / k + (j < total % k ? 1 : 0);
}

/* The TX queues of every lcore, from --config. */
static int
gen_setup_txqs(void)
{
	unsigned int per_port[RTE_MAX_ETHPORTS] = { 0 };
	unsigned int seen[RTE_MAX_ETHPORTS] = { 0 };
	uint64_t hz = rte_get_tsc_hz();
	unsigned int l, i, nb_lcores = 0;

	RTE_LCORE_FOREACH(l)
		for (i = 0; i < app_lcores[l].nb_rxq; i++)
			per_port[app_lcores[l].rxq[i].port]++;
	RTE_LCORE_FOREACH(l) {
		const struct app_lcore_conf *lc = &app_lcores[l];
		struct gen_lcore *gl = &gen.lc[l];

		if (lc->nb_rxq == 0)
			continue;
		nb_lcores++;
		for (i = 0; i < lc->nb_rxq; i++) {
			struct gen_txq *t = &gl->txq[gl->nb_txq++];
			uint16_t p = lc->rxq[i].port;
			unsigned int j = seen[p]++, k = per_port[p];

			t->port = p;
			t->queue = lc->rxq[i].queue;
			t->quota = gen.c.count != 0 ?
				share(gen.c.count, j, k) : UINT64_MAX;
			t->done = t->quota == 0;
			if (gen.c.rate != 0) {
				/* Each of the k queues sends rate / k per
				 * second, a fraction (the port's --rate holds
				 * below k pps too); queue j starts (k - j) / k
				 * of a send short: the port's first sends are
				 * 1 / rate apart, one packet of credit in all. */
				t->cost = RTE_MAX((hz << 16) * k / gen.c.rate,
						1u);
				t->credit = t->cost - t->cost / k * j;
				/* Depth: a burst, or GEN_RATE_DEPTH_MS of
				 * sends, so that a preempted lcore catches up
				 * that much (1 ms lost a quarter of the rate
				 * on a shared 2-core machine). */
				t->credit_max = RTE_MAX(gen.c.rate / k *
						GEN_RATE_DEPTH_MS / 1000,
						(uint64_t)APP_BURST) * t->cost;
			}
			if (gen.c.pcap != NULL) {
				t->fr = &pcap_frames;
				continue;
			}
			t->fr = calloc(1, sizeof(*t->fr));
			if (t->fr == NULL) {
				app_err("out of memory for the frames");
				return -1;
			}
			if (gen_frames_build(t->fr, &gen.c, p, t->queue) < 0)
				return -1;
		}
	}
	gen.active = nb_lcores;
	return 0;
}

/* Packet pool for --pool mempool: TX rings, caches and bursts. */
static int
gen_setup_pool(const struct app_opts *o)
{
	unsigned int n;

	if (o->pool != APP_POOL_MEMPOOL)
		return 0;
	n = app_ports_tx_descs() + app_fwd_lcore_count() *
		(APP_MEMPOOL_CACHE + 2 * APP_BURST) + 1024;
	gen.tx_pool = app_pool_create("gen_tx", RTE_MAX(n, 8192u),
			(uint16_t)(RTE_PKTMBUF_HEADROOM + gen_max_frame()),
			SOCKET_ID_ANY, APP_POOL_MEMPOOL);
	return gen.tx_pool != NULL ? 0 : -1;
}

static void
gen_free(void)
{
	unsigned int l, i;

	for (l = 0; l < RTE_MAX_LCORE; l++) {
		for (i = 0; i < gen.lc[l].nb_txq; i++) {
			struct gen_frames *fr = gen.lc[l].txq[i].fr;

			if (fr != NULL && fr != &pcap_frames) {
				gen_frames_free(fr);
				free(fr);
			}
			gen.lc[l].txq[i].fr = NULL;
		}
		gen.lc[l].nb_txq = 0;
	}
	gen_frames_free(&pcap_frames);
}

/* Per-port TX figures, summed over the port's queues. */
struct port_tx {
	uint64_t tx, bytes, unsent, slots, allocs, alloc_fail;
	uint64_t rate_lost;     /* sends the --rate bucket lost to stalls */
	uint64_t tsc_first, tsc_last;
};

static struct port_tx ports_tx[RTE_MAX_ETHPORTS];
static uint64_t gen_portmask;
static uint64_t run_t0;         /* TSC at the run's start */

/* After the run: sum the queues of each port. */
static void
gen_collect(const struct app_opts *o)
{
	unsigned int l, i;

	memset(ports_tx, 0, sizeof(ports_tx));
	gen_portmask = o->portmask;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		for (i = 0; i < gen.lc[l].nb_txq; i++) {
			const struct gen_txq *t = &gen.lc[l].txq[i];
			struct port_tx *pt = &ports_tx[t->port];

			pt->tx += t->tx;
			pt->bytes += t->tx_bytes;
			pt->unsent += t->unsent;
			pt->slots += t->slots;
			pt->allocs += t->allocs;
			pt->alloc_fail += t->alloc_fail;
			if (t->cost != 0)
				pt->rate_lost += t->credit_lost / t->cost;
			if (t->tsc_first != 0 && (pt->tsc_first == 0 ||
					t->tsc_first < pt->tsc_first))
				pt->tsc_first = t->tsc_first;
			pt->tsc_last = RTE_MAX(pt->tsc_last, t->tsc_last);
		}
	}
}

static double
span_s(const struct port_tx *pt)
{
	if (pt->tsc_first == 0 || pt->tsc_last <= pt->tsc_first)
		return 0;
	return (double)(pt->tsc_last - pt->tsc_first) / rte_get_tsc_hz();
}

/* From the run's start to the port's first burst; 0 without one. */
static double
first_s(const struct port_tx *pt)
{
	if (pt->tsc_first <= run_t0)
		return 0;
	return (double)(pt->tsc_first - run_t0) / rte_get_tsc_hz();
}

/* Rates over the port's own first..last burst; 0 without one. */
static void
rates(const struct port_tx *pt, double *mpps, double *gbps, double *wire)
{
	double s = span_s(pt);

	*mpps = s > 0 ? pt->tx / s / 1e6 : 0;
	*gbps = s > 0 ? pt->bytes * 8 / s / 1e9 : 0;
	/* On the wire: + FCS 4, preamble and start 8, gap 12 bytes. */
	*wire = s > 0 ? (pt->bytes + 24.0 * pt->tx) * 8 / s / 1e9 : 0;
}

/*
 * --rate not reached: say so and why, rather than let a user read a
 * lower rate as the one asked. Lost sends are stalls longer than the
 * bucket's GEN_RATE_DEPTH_MS; a shortfall without them is a TX path that
 * cannot go faster (or an lcore that never got the CPU).
 */
static void
rate_warn(FILE *f, uint16_t p, const struct port_tx *pt, double mpps)
{
	double want = (double)gen.c.rate, got = mpps * 1e6;

	if (gen.c.rate == 0 || span_s(pt) < 0.1)
		return;
	if (pt->rate_lost == 0 && got >= 0.98 * want)
		return;
	fprintf(f, "port %u: warning: %.0f pps sent, %.1f%% of --rate %" PRIu64 "; %" PRIu64 " sends owed beyond the %u ms bucket were lost: the TX path cannot go that fast, or the lcore was preempted (give the generator an isolated core)\n",
			p, got, 100.0 * got / want, gen.c.rate, pt->rate_lost,
			GEN_RATE_DEPTH_MS);
}

static const char *
refcnt_name(void)
{
	return gen.c.refcnt == GEN_REFCNT_SET ? "set" : "inc";
}

static void
gen_print(FILE *f, double duration_s __rte_unused)
{
	double mpps, gbps, wire;
	uint16_t p;

	fprintf(f, "npool-gen: %s, clone %u (refcnt %s), pool %s, %u flow(s), rate %" PRIu64 " pps/port, count %" PRIu64 "/port\n",
			gen.c.pcap != NULL ? gen.c.pcap :
			gen.c.imix ? "imix" : "udp", gen.c.clone,
			refcnt_name(), gen.pool == APP_POOL_NPOOL ?
			"npool" : "mempool", gen.c.flows, gen.c.rate,
			gen.c.count);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct port_tx *pt = &ports_tx[p];

		if (!(gen_portmask & (UINT64_C(1) << p)))
			continue;
		rates(pt, &mpps, &gbps, &wire);
		fprintf(f, "port %u: tx %" PRIu64 " packets %" PRIu64
				" bytes, unsent %" PRIu64 ", %.3f Mpps %.3f Gbit/s (%.3f on the wire) over %.6f s; %" PRIu64
				" packets allocated, %" PRIu64 " failed\n",
				p, pt->tx, pt->bytes, pt->unsent, mpps, gbps,
				wire, span_s(pt), pt->allocs, pt->alloc_fail);
		rate_warn(f, p, pt, mpps);
	}
	if (pcap_frames.pcap_skipped != 0)
		fprintf(f, "--pcap: %" PRIu64 " frames skipped (empty or longer than %u bytes)\n",
				pcap_frames.pcap_skipped, GEN_MAX_FRAME);
}

static void
json_port(struct app_json *j, uint16_t p)
{
	const struct rte_eth_stats *eth = app_stats_eth(p);
	const struct port_tx *pt = &ports_tx[p];
	double mpps, gbps, wire;

	rates(pt, &mpps, &gbps, &wire);
	app_json_u64(j, "tx", pt->tx);
	app_json_u64(j, "tx_bytes", pt->bytes);
	app_json_u64(j, "tx_unsent", pt->unsent);
	app_json_u64(j, "slots", pt->slots);
	app_json_u64(j, "allocs", pt->allocs);
	app_json_u64(j, "alloc_fail", pt->alloc_fail);
	app_json_u64(j, "rate_lost", pt->rate_lost);
	app_json_double(j, "first_s", first_s(pt));
	app_json_double(j, "seconds", span_s(pt));
	app_json_double(j, "mpps", mpps);
	app_json_double(j, "gbps", gbps);
	app_json_double(j, "gbps_wire", wire);
	if (eth != NULL) {
		app_json_u64(j, "eth_opackets", eth->opackets);
		app_json_u64(j, "eth_obytes", eth->obytes);
		app_json_u64(j, "eth_oerrors", eth->oerrors);
	}
}

static void
gen_json(struct app_json *j, double duration_s __rte_unused)
{
	uint16_t p;

	app_json_obj_begin(j, "gen");
	app_json_str(j, "frames", gen.c.pcap != NULL ? "pcap" :
			gen.c.imix ? "imix" : "udp");
	app_json_u64(j, "size", gen.c.pcap != NULL || gen.c.imix ?
			0 : gen.c.size);
	app_json_u64(j, "flows", gen.c.flows);
	app_json_u64(j, "clone", gen.c.clone);
	app_json_str(j, "refcnt", refcnt_name());
	app_json_u64(j, "rate_pps", gen.c.rate);
	app_json_u64(j, "count", gen.c.count);
	app_json_u64(j, "pcap_frames", gen.c.pcap != NULL ?
			pcap_frames.nb : 0);
	app_json_u64(j, "pcap_skipped", pcap_frames.pcap_skipped);
	app_json_arr_begin(j, "ports");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!(gen_portmask & (UINT64_C(1) << p)))
			continue;
		app_json_obj_begin(j, NULL);
		app_json_u64(j, "port", p);
		json_port(j, p);
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
	app_json_obj_end(j);
}

int
main(int argc, char **argv)
{
	static const struct app_stats_desc desc = {
		"npool-gen", gen_reasons, RTE_DIM(gen_reasons),
		.rx_bad = 0, /* npool-gen receives nothing */
	};
	static const struct app_stats_extra extra = { gen_print, gen_json };
	static struct app_opts o;
	struct app_cli cli = {
		gen_usage, NULL, gen_long_opts, .tx_only = true,
	};
	struct app_port_params pp = { .tx_per_rxq = true };
	struct app_run run;
	uint16_t max_frame;
	double duration;
	int ret, status;

	gen_conf_defaults(&gen.c);
	ret = app_run_init(argc, argv, &o, "npool-gen", &cli);
	if (ret < 0 || gen_cli(&cli, &o, argc - ret, argv + ret) < 0) {
		status = cli.status;
		goto out;
	}
	gen.pool = o.pool;
	gen.src_ip_host = rte_be_to_cpu_32(gen.c.src_ip);
	max_frame = gen_max_frame();
	if (o.pool == APP_POOL_NPOOL && max_frame > NPOOL_PKT_MAX_LEN) {
		app_err("--pool: npool packets hold at most %u bytes with this chunk size, not the %u-byte frames (--pool mempool does)",
				(unsigned int)NPOOL_PKT_MAX_LEN, max_frame);
		app_cli_fail(&cli, &o);
		status = cli.status;
		goto out;
	}
	if (max_frame > RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN)
		pp.mtu = max_frame - RTE_ETHER_HDR_LEN;
	/* npool heads: every TX descriptor may hold one, plus bursts. */
	app_pool_init(&o, o.nb_rxq * RTE_MAX(4096u, (unsigned int)o.nb_txd) +
			16384u);
	if (app_ports_start(&o, &pp) < 0 ||
			gen_setup_pool(&o) < 0 || gen_setup_txqs() < 0) {
		status = APP_EXIT_SETUP;
		goto out;
	}
	app_stats_init(&desc, &o, gen_ctr);
	app_stats_set_extra(&extra);
	app_run_start(&run, &o);
	run_t0 = run.t0;
	rte_eal_mp_remote_launch(gen_lcore_main, NULL, CALL_MAIN);
	duration = app_run_wait(&run);
	rte_eal_mp_wait_lcore();
	gen_collect(&o);
	status = app_run_report(&o, duration);
out:
	app_run_cleanup();
	gen_free();
	return status;
}
