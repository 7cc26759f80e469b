/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd: l3fwd-compatible LPM/FIB forwarding over npool's pools,
 * with the RFC 1812 router rules of docs/apps/npool-fwd.md. This file:
 * set-up in order, the launch of the lcores' loop (core/fwd_lcore.h),
 * the report; fwd_cli.c has its own options, core/ the pipeline the
 * lcores run, ctl/ the control thread, apps/common the ports, pools,
 * stats and the run's control duties.
 */
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "app_cli.h"
#include "app_json.h"
#include "app_numa.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "fwd.h"
#include "fwd_addr_cli.h"
#include "fwd_cli.h"
#include "fwd_ctl.h"
#include "fwd_ctl_report.h"
#include "fwd_ctl_route.h"
#include "fwd_ctl_setup.h"
#include "fwd_lcore.h"
#include "fwd_mroute.h"
#include "fwd_route.h"
#include "fwd_route_fill.h"

/* The configuration the report describes (main lcore, after setup). */
static const struct fwd_conf *fwd_report;
/* The control side, when the tables change while running. */
static struct fwd_ctl *fwd_control;

/* The tables of each socket of a forwarding lcore (l3fwd's
 * ipv4_l3fwd_lookup_struct[socketid]): the loaded ones for their own
 * socket, copies for the others. */
static struct fwd_conf fc_copies[RTE_MAX_NUMA_NODES];
static struct fwd_conf *fc_socket[RTE_MAX_NUMA_NODES];

/* The JSON report's "lookup": which route tables the run used; the
 * multicast routes and their counters. */
static void
fwd_json(struct app_json *j, double duration_s __rte_unused)
{
	app_json_str(j, "lookup", fwd_report->t.lookup == FWD_LOOKUP_FIB ?
			"fib" : fwd_report->t.lookup == FWD_LOOKUP_EM ? "em" :
			"lpm");
	fwd_mroutes_json(j, fwd_report->t.mroutes);
	fwd_ctl_json(fwd_control, j);
}

/* The report's lines after the table: the multicast routes. */
static void
fwd_print(FILE *f, double duration_s __rte_unused)
{
	fwd_mroutes_print(f, fwd_report->t.mroutes);
	fwd_ctl_print(fwd_control, f);
}

/* The tables of socket @p s: @p fc's own, or a copy made there; noted
 * for --json. */
static int
fwd_socket_tables(struct fwd_conf *fc, unsigned int s)
{
	char name[32];

	if ((int)s == fc->socket_id)
		fc_socket[s] = fc;
	else if (fwd_routes_copy(&fc_copies[s], fc, (int)s) != 0)
		return -1;
	else
		fc_socket[s] = &fc_copies[s];
	snprintf(name, sizeof(name), "routes_s%u", s);
	app_numa_note(APP_NUMA_ROUTES, name, (int)s,
			fc->t.lookup == FWD_LOOKUP_FIB ?
			(const void *)fc_socket[s]->t.fib4 :
			fc->t.lookup == FWD_LOOKUP_EM ?
			(const void *)fc_socket[s]->t.em4 :
			(const void *)fc_socket[s]->t.lpm4);
	return 0;
}

/* What each forwarding lcore forwards with (fwd_lcore.h): its queues,
 * its socket's tables. */
static int
fwd_lcores_set(struct fwd_conf *fc)
{
	unsigned int lcore, s, i;

	RTE_LCORE_FOREACH(lcore) {
		const struct app_lcore_conf *lc = &app_lcores[lcore];
		struct fwd_lcore *l = &fwd_lcores[lcore];

		if (lc->nb_rxq == 0)
			continue;
		s = app_numa_lcore_socket(lcore);
		if (fc_socket[s] == NULL && fwd_socket_tables(fc, s) < 0)
			return -1;
		l->t = &fc_socket[s]->t;
		l->quit = &app_quit;
		l->txq = lc->txq;
		l->nb_rxq = lc->nb_rxq;
		for (i = 0; i < lc->nb_rxq; i++) {
			l->rxq[i].port = lc->rxq[i].port;
			l->rxq[i].queue = lc->rxq[i].queue;
		}
	}
	/* Loaded on a socket that no forwarding lcore is on. */
	if ((unsigned int)fc->socket_id < RTE_MAX_NUMA_NODES &&
			fc_socket[fc->socket_id] == NULL)
		fwd_routes_free_tables(fc);
	return 0;
}

static void
fwd_free_tables(struct fwd_conf *fc)
{
	unsigned int s;

	app_numa_forget(APP_NUMA_ROUTES);
	/* One multicast table: the copies share it. */
	fwd_mroutes_free(fc);
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		if (fc_socket[s] == &fc_copies[s])
			fwd_routes_free(&fc_copies[s]);
		fc_socket[s] = NULL;
	}
	fwd_routes_free(fc);
}

/* Fragments of one packet at most in flight per lcore, for pool sizing. */
#define FRAG_POOL_MBUFS 8192u
/* Direct fragment mbufs hold one IPv4 header behind the headroom. */
#define FRAG_DIRECT_ROOM (RTE_PKTMBUF_HEADROOM + 64)

/* Fragment pools and the Ethernet addresses of each port. */
static int
fwd_setup(struct fwd_conf *fc, const struct app_opts *o)
{
	unsigned int descs = app_ports_tx_descs();
	uint16_t p;

	fc->t.frag_direct = app_pool_create("frag_dir", FRAG_POOL_MBUFS + descs,
			FRAG_DIRECT_ROOM, SOCKET_ID_ANY, o->pool);
	fc->t.frag_indirect = app_pool_create("frag_ind",
			2 * FRAG_POOL_MBUFS + descs, 0, SOCKET_ID_ANY, o->pool);
	if (fc->t.frag_direct == NULL || fc->t.frag_indirect == NULL)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct fwd_l2 *l2 = &fc->t.l2[p];
		struct rte_eth_conf conf;

		/* The ports whose PMD checks IPv4 header checksums. */
		if ((fc->t.portmask >> p) & 1 &&
				rte_eth_dev_conf_get(p, &conf) == 0 &&
				(conf.rxmode.offloads &
				 RTE_ETH_RX_OFFLOAD_IPV4_CKSUM))
			fc->t.cksum_hw |= UINT64_C(1) << p;

		l2->src = app_port_mac[p];
		if (fc->eth_dest_set & (UINT32_C(1) << p)) {
			l2->dst = fc->eth_dest[p];
		} else {
			memset(&l2->dst, 0, sizeof(l2->dst));
			l2->dst.addr_bytes[0] = 0x02;
			l2->dst.addr_bytes[5] = (uint8_t)p;
		}
	}
	fwd_tables_l2_prepare(&fc->t);
	fwd_addr_link_local(fc->addrs, app_port_mac);
	return 0;
}

/* The routes the tables were filled from, held by the control side (a
 * route by a gateway placed there): 0, or -1 naming the route refused,
 * by its file's line where it has one. */
static int
fwd_ctl_routes(struct fwd_ctl *ctl, const struct fwd_conf *fc)
{
	const char *why = NULL;
	struct fwd_rt rt;
	unsigned int i;
	int v6, ret;

	for (v6 = 0; v6 < 2; v6++) {
		const struct fwd_route_set *s = &fc->routes[v6];

		for (i = 0; i < s->n; i++) {
			const struct fwd_route *r = &s->r[i];

			memset(&rt, 0, sizeof(rt));
			memcpy(rt.dst, r->ip, sizeof(rt.dst));
			fwd_rt_mask(rt.dst, r->depth);
			memcpy(rt.gw, r->gw, sizeof(rt.gw));
			rt.depth = r->depth;
			rt.v6 = v6;
			rt.has_gw = r->has_gw;
			rt.type = r->type;
			rt.port = r->port;
			ret = r->origin == FWD_RIB_OWN ?
				fwd_ctl_add_own(ctl, &rt, r->port) :
				fwd_ctl_add(ctl, &rt, r->origin, &why);
			if (ret == 0)
				continue;
			why = why != NULL ? why : "table full";
			if (r->origin == FWD_RT_FILE && r->line != 0)
				app_err("%s:%u: %s", v6 ? fc->rule6 : fc->rule4,
						r->line, why);
			else
				app_err("%s: IPv%c route %u: %s",
						r->origin == FWD_RT_CONNECTED ?
						"--port-addr" : v6 ? "--rule_ipv6" :
						"--rule_ipv4", v6 ? '6' : '4', i,
						why);
			return -1;
		}
	}
	return 0;
}

/* The first lcore that forwards: the control side's commands run there. */
static unsigned int
fwd_first_lcore(void)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
		if (app_lcores[lcore].nb_rxq != 0)
			return lcore;
	return rte_get_main_lcore();
}

/* The control side, when the tables change while running: its pool, the
 * quiescent-state variable, the routes; its thread started. 0, -1 for a
 * route refused (fwd_ctl_routes()), -2 for a set-up error. */
static int
fwd_ctl_setup(struct fwd_conf *fc, const struct app_opts *o)
{
	struct fwd_ctl_conf c;
	unsigned int s;
	size_t sz;
	int l;

	if (!fc->live)
		return 0;
	memset(&c, 0, sizeof(c));
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (fc_socket[s] != NULL)
			c.tabs[c.ntabs++] = &fc_socket[s]->t;
	c.resolve = fc->resolve;
	c.max_routes[0] = c.max_routes[1] = fc->route_max;
	c.cmd_lcore = fwd_first_lcore();
	c.neigh = fc->neigh;
	c.nb_neigh = fc->nb_neigh;
	c.fpm = fc->fpm_on ? &fc->fpm : NULL;
	/* It counts what it drops in a block of fwd_ctr no lcore has (the
	 * report sums them all). */
	for (l = RTE_MAX_LCORE - 1; l >= 0 && c.ctr == NULL; l--)
		if (!rte_lcore_is_enabled((unsigned int)l))
			c.ctr = &fwd_ctr[l];
	c.pool = app_pool_create("fwd_ctl", FWD_CTL_POOL_MBUFS,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, o->pool);
	sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	fc->qsv = rte_zmalloc("fwd_qsv", sz, RTE_CACHE_LINE_SIZE);
	if (c.pool == NULL || c.ntabs == 0 || fc->qsv == NULL ||
			rte_rcu_qsbr_init(fc->qsv, RTE_MAX_LCORE) != 0) {
		app_err("control side: %s (EAL memory: -m)",
				rte_strerror(rte_errno));
		return -2;
	}
	c.qsv = fc->qsv;
	fwd_control = fwd_ctl_create(&c);
	if (fwd_control == NULL)
		return -2;
	if (fwd_ctl_routes(fwd_control, fc) < 0)
		return -1;
	return fwd_ctl_start(fwd_control) < 0 ? -2 : 0;
}

int
main(int argc, char **argv)
{
	static const struct app_stats_desc desc = {
		"npool-fwd", fwd_reason_names, FWD_NB_REASONS,
		.rx_bad = FWD_TRUNCATED,
		.events_key = "router", .events = fwd_event_names,
		.nb_events = FWD_NB_EVENTS,
	};
	static const struct app_stats_extra extra = { fwd_print, fwd_json };
	static struct fwd_conf fc = { .t.mtu = RTE_ETHER_MTU };
	static struct app_opts o;
	struct app_port_params pp = { .tx = true };
	struct app_cli cli;
	struct app_run run;
	double duration;
	int ret, status;

	fwd_cli_init(&cli, &fc);
	ret = app_run_init(argc, argv, &o, "npool-fwd", &cli);
	if (ret < 0 || fwd_cli_parse(&cli, &o, &fc, argc - ret,
			argv + ret) < 0) {
		status = cli.status;
		goto out;
	}
	app_pool_init(&o, 0);
	fc.t.portmask = o.portmask;
	fc.t.copybreak = (uint16_t)o.copybreak;
	/* On the main lcore's socket; copies for the other sockets once
	 * the lcores' queues are known (fwd_lcores_set()). */
	fc.socket_id = (int)app_numa_lcore_socket(rte_get_main_lcore());
	/* Next hops on a port with an address and no --eth-dest are
	 * resolved by ARP / NDP: the tables change while running. */
	fc.resolve = fc.addrs->ports & o.portmask &
		~(uint64_t)fc.eth_dest_set;
	fc.live = fc.resolve != 0 || fc.fpm_on;
	ret = fwd_addr_check(fc.addrs, o.portmask) < 0 ||
		fwd_neigh_load(&fc) < 0 ? -1 : fwd_routes_load(&fc);
	if (ret == 0 && fc.mroute_file != NULL)
		ret = fwd_mroutes_load(&fc, fc.mroute_file);
	if (ret == 0)
		ret = fwd_fpm_conf_check(&fc);
	if (ret == 0 && fc.t.lookup == FWD_LOOKUP_EM && fc.addrs->ports) {
		/* An exact-match table has no host routes. */
		app_err("--port-addr: not with --lookup em (its 5-tuple table cannot hold the router's addresses)");
		ret = -1;
	}
	/* --max-pkt-len: the port MTU from the device's overhead, as
	 * l3fwd; fc.t.mtu (the frame less 18) is the egress limit. */
	pp.mtu = fc.max_pkt_len != 0 ? 0 : fc.t.mtu;
	pp.max_pkt_len = fc.max_pkt_len;
	/* After the ports' MTU is taken from --mtu. */
	if (ret == 0)
		ret = fwd_port_mtu_apply(&fc);
	if (ret == 0)
		ret = app_ports_start(&o, &pp) < 0 || fwd_setup(&fc, &o) < 0 ||
			fwd_lcores_set(&fc) < 0 ? -2 : fwd_ctl_setup(&fc, &o);
	/* -1: a bad option, file or line, its error line printed. */
	if (ret == -1)
		app_cli_fail(&cli, &o);
	if (ret != 0) {
		status = ret == -1 ? APP_EXIT_USAGE : APP_EXIT_SETUP;
		goto out;
	}
	app_stats_init(&desc, &o, fwd_ctr);
	fwd_report = &fc;
	app_stats_set_extra(&extra);
	app_run_start(&run, &o);
	rte_eal_mp_remote_launch(fwd_lcore_main, NULL, CALL_MAIN);
	duration = app_run_wait(&run);
	rte_eal_mp_wait_lcore();
	/* What the control side holds goes back before the leak check. */
	fwd_ctl_stop(fwd_control);
	status = app_run_report(&o, duration);
out:
	fwd_ctl_free(fwd_control);
	fwd_control = NULL;
	fwd_free_tables(&fc);
	rte_free(fc.qsv);
	app_run_cleanup();
	return status;
}
