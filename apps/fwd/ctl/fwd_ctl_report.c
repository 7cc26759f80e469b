/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the control side says of itself (fwd_ctl.h): routes by origin and
 * the RIB's counters, each neighbour with its state and queue, the
 * neighbour tables' counters; in --json and at the end of the report.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "app_json.h"
#include "fwd_ctl_pvt.h"

static const char *const origin_names[FWD_RIB_NB_ORIGINS] = {
	[FWD_RT_FILE] = "file",
	[FWD_RT_CONNECTED] = "connected",
	[FWD_RT_FPM] = "fpm",
	[FWD_RIB_OWN] = "own",
	[FWD_RIB_NEIGH] = "neighbour",
};

static void
routes_json(const struct fwd_ctl *ctl, struct app_json *j)
{
	const struct fwd_rib_stats *st = fwd_rib_stats(ctl->rib);
	unsigned int o;
	int v6;

	app_json_obj_begin(j, "routes");
	for (v6 = 0; v6 < 2; v6++) {
		app_json_obj_begin(j, v6 ? "ipv6" : "ipv4");
		for (o = 0; o < FWD_RIB_NB_ORIGINS; o++)
			app_json_u64(j, origin_names[o], st->routes[v6][o]);
		app_json_u64(j, "max", st->max_routes[v6]);
		app_json_obj_end(j);
	}
	app_json_u64(j, "adds", st->adds);
	app_json_u64(j, "replaces", st->replaces);
	app_json_u64(j, "dels", st->dels);
	app_json_u64(j, "refused_full", st->refused_full);
	app_json_u64(j, "refused_own", st->refused_own);
	app_json_u64(j, "refused_martian", st->refused_martian);
	app_json_u64(j, "not_found", st->not_found);
	app_json_u64(j, "kept_connected", st->kept_connected);
	app_json_u64(j, "rcu_syncs", st->syncs);
	app_json_obj_end(j);
}

/* "a.b.c.d" or an IPv6 text of @p n's address into @p buf. */
static const char *
ip_text(const struct fwd_neigh *n, char *buf, size_t len)
{
	if (inet_ntop(n->v6 ? AF_INET6 : AF_INET, n->ip, buf,
			(socklen_t)len) == NULL)
		snprintf(buf, len, "?");
	return buf;
}

static void
neigh_json(struct fwd_ctl *ctl, struct app_json *j)
{
	char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE];
	const struct fwd_neigh_stats *st;
	struct fwd_neigh *n;
	uint32_t i;
	int v6;

	app_json_obj_begin(j, "neighbours");
	for (v6 = 0; v6 < 2; v6++) {
		st = fwd_neigh_stats(ctl->nb[v6]);
		app_json_obj_begin(j, v6 ? "ndp" : "arp");
		app_json_u64(j, "entries", fwd_neigh_count(ctl->nb[v6]));
		app_json_u64(j, "allocs", st->allocs);
		app_json_u64(j, "destroys", st->destroys);
		app_json_u64(j, "res_failed", st->res_failed);
		app_json_u64(j, "unres_discards", st->unres_discards);
		app_json_u64(j, "table_fulls", st->table_fulls);
		app_json_u64(j, "rcv_probes", st->rcv_probes);
		app_json_u64(j, "periodic_gc_runs", st->periodic_gc_runs);
		app_json_u64(j, "forced_gc_runs", st->forced_gc_runs);
		app_json_u64(j, "ignored", st->ignored);
		app_json_arr_begin(j, "entries_list");
		for (i = 0; (n = fwd_neigh_next(ctl->nb[v6], &i)) != NULL;) {
			app_json_obj_begin(j, NULL);
			app_json_u64(j, "port", n->port);
			app_json_str(j, "ip", ip_text(n, ip, sizeof(ip)));
			app_json_str(j, "state", fwd_nud_name(n->state));
			rte_ether_format_addr(mac, sizeof(mac), &n->mac);
			app_json_str(j, "mac", (n->state & FWD_NUD_VALID) ?
					mac : "");
			app_json_u64(j, "queued", n->qlen);
			app_json_u64(j, "queued_bytes", n->qbytes);
			app_json_u64(j, "routes", n->refs);
			app_json_bool(j, "host_route", n->host_route);
			app_json_obj_end(j);
		}
		app_json_arr_end(j);
		app_json_obj_end(j);
	}
	app_json_u64(j, "held", ctl->held);
	app_json_u64(j, "events", ctl->events);
	app_json_u64(j, "cmd_lost", ctl->cmd_lost);
	app_json_obj_end(j);
}

void
fwd_ctl_json(struct fwd_ctl *ctl, struct app_json *j)
{
	if (ctl == NULL)
		return;
	routes_json(ctl, j);
	neigh_json(ctl, j);
	if (ctl->fpm != NULL)
		fwd_fpm_json(j, ctl->fpm);
}

void
fwd_ctl_print(struct fwd_ctl *ctl, FILE *f)
{
	const struct fwd_rib_stats *st;
	char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE];
	struct fwd_neigh *n;
	uint32_t i;
	int v6;

	if (ctl == NULL)
		return;
	st = fwd_rib_stats(ctl->rib);
	for (v6 = 0; v6 < 2; v6++)
		fprintf(f, "routes IPv%c: file %" PRIu64 ", connected %"
				PRIu64 ", fpm %" PRIu64 ", neighbour hosts %"
				PRIu64 "\n", v6 ? '6' : '4',
				st->routes[v6][FWD_RT_FILE],
				st->routes[v6][FWD_RT_CONNECTED],
				st->routes[v6][FWD_RT_FPM],
				st->routes[v6][FWD_RIB_NEIGH]);
	for (v6 = 0; v6 < 2; v6++)
		for (i = 0; (n = fwd_neigh_next(ctl->nb[v6], &i)) != NULL;) {
			rte_ether_format_addr(mac, sizeof(mac), &n->mac);
			fprintf(f, "neighbour %s port %u %s%s%s%s\n",
					ip_text(n, ip, sizeof(ip)), n->port,
					(n->state & FWD_NUD_VALID) ?
					"lladdr " : "",
					(n->state & FWD_NUD_VALID) ? mac : "",
					(n->state & FWD_NUD_VALID) ? " " : "",
					fwd_nud_name(n->state));
		}
}
