/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the control side says of itself (fwd_ctl_report.h): in --json, at
 * the end of the report, and in DPDK telemetry: /fwd/routes (routes by
 * origin and family, room left, the RIB's counters), /fwd/route,ADDR (the
 * route an address takes and its next hop), /fwd/neigh,4|6[,first] (the
 * neighbour table's counters and 64 entries from index first), read on
 * telemetry's thread under the control side's lock, which its thread
 * holds while it works.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "app_compat.h"
#include "fwd_ctl_pvt.h"
#include "fwd_ctl_report.h"
#include "fwd_fpm_stats.h"

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
	app_json_u64(j, "publish_forced", ctl->publish_forced);
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

/* Entries of a /fwd/neigh answer. */
#define TEL_NEIGH_PAGE 64

/* The control side telemetry reads (the run's; one at a time). */
static struct fwd_ctl *tel_ctl;

static int
tel_routes(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct fwd_rib_stats *st;
	struct rte_tel_data *fam;
	uint64_t used;
	unsigned int o;
	int v6;

	(void)cmd;
	(void)params;
	rte_spinlock_lock(&fwd_ctl_lock);
	if (tel_ctl == NULL) {
		rte_spinlock_unlock(&fwd_ctl_lock);
		return -ENODEV;
	}
	st = fwd_rib_stats(tel_ctl->rib);
	rte_tel_data_start_dict(d);
	for (v6 = 0; v6 < 2; v6++) {
		fam = rte_tel_data_alloc();
		if (fam == NULL)
			break;
		rte_tel_data_start_dict(fam);
		used = 0;
		for (o = 0; o < FWD_RIB_NB_ORIGINS; o++) {
			rte_tel_data_add_dict_uint(fam, origin_names[o],
					st->routes[v6][o]);
			if (o != FWD_RIB_NEIGH)
				used += st->routes[v6][o];
		}
		rte_tel_data_add_dict_uint(fam, "max", st->max_routes[v6]);
		rte_tel_data_add_dict_uint(fam, "free",
				st->max_routes[v6] - RTE_MIN(used,
					(uint64_t)st->max_routes[v6]));
		rte_tel_data_add_dict_container(d, v6 ? "ipv6" : "ipv4", fam,
				0);
	}
	rte_tel_data_add_dict_uint(d, "adds", st->adds);
	rte_tel_data_add_dict_uint(d, "replaces", st->replaces);
	rte_tel_data_add_dict_uint(d, "dels", st->dels);
	rte_tel_data_add_dict_uint(d, "refused_full", st->refused_full);
	rte_tel_data_add_dict_uint(d, "refused_own", st->refused_own);
	rte_tel_data_add_dict_uint(d, "refused_martian", st->refused_martian);
	rte_tel_data_add_dict_uint(d, "not_found", st->not_found);
	rte_tel_data_add_dict_uint(d, "kept_connected", st->kept_connected);
	rte_tel_data_add_dict_uint(d, "rcu_syncs", st->syncs);
	rte_tel_data_add_dict_uint(d, "last_update_ms", tel_ctl->last_update);
	rte_spinlock_unlock(&fwd_ctl_lock);
	return 0;
}

/* "ADDR" of @p n (or its prefix) into @p buf. */
static void
ip_str(bool v6, const uint8_t *ip, char *buf, size_t len)
{
	if (inet_ntop(v6 ? AF_INET6 : AF_INET, ip, buf, (socklen_t)len) ==
			NULL)
		snprintf(buf, len, "?");
}

/* The next hop @p hop of a route: a port's, a neighbour's, or none. */
static void
tel_hop(struct rte_tel_data *d, uint32_t hop)
{
	char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE];
	const struct fwd_neigh *n = NULL;
	int v6;

	rte_tel_data_add_dict_uint(d, "next_hop", hop);
	for (v6 = 0; n == NULL && v6 < 2; v6++)
		n = fwd_neigh_of_nh(tel_ctl->nb[v6], hop);
	if (hop < RTE_MAX_ETHPORTS)
		rte_tel_data_add_dict_uint(d, "port", hop);
	if (n == NULL)
		return;
	ip_str(n->v6, n->ip, ip, sizeof(ip));
	rte_ether_format_addr(mac, sizeof(mac), &n->mac);
	rte_tel_data_add_dict_uint(d, "port", n->port);
	rte_tel_data_add_dict_string(d, "neighbour", ip);
	rte_tel_data_add_dict_string(d, "state", fwd_nud_name(n->state));
	if (n->state & FWD_NUD_VALID)
		rte_tel_data_add_dict_string(d, "mac", mac);
}

static int
tel_route(const char *cmd, const char *params, struct rte_tel_data *d)
{
	static const char *const types[] = {
		"unicast", "blackhole", "unreachable", "prohibit",
	};
	const struct fwd_rib_rec *r;
	char buf[INET6_ADDRSTRLEN];
	uint8_t ip[16] = { 0 };
	bool v6;

	(void)cmd;
	if (params == NULL)
		return -EINVAL;
	v6 = strchr(params, ':') != NULL;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, params, ip) != 1)
		return -EINVAL;
	rte_spinlock_lock(&fwd_ctl_lock);
	if (tel_ctl == NULL) {
		rte_spinlock_unlock(&fwd_ctl_lock);
		return -ENODEV;
	}
	r = fwd_rib_match(tel_ctl->rib, v6, ip);
	rte_tel_data_start_dict(d);
	if (r == NULL) {
		rte_tel_data_add_dict_string(d, "route", "none");
		rte_spinlock_unlock(&fwd_ctl_lock);
		return 0;
	}
	ip_str(v6, r->rt.dst, buf, sizeof(buf));
	rte_tel_data_add_dict_string(d, "prefix", buf);
	rte_tel_data_add_dict_uint(d, "depth", r->rt.depth);
	rte_tel_data_add_dict_string(d, "origin", origin_names[r->origin]);
	rte_tel_data_add_dict_string(d, "type",
			types[r->rt.type < RTE_DIM(types) ? r->rt.type : 0]);
	if (r->rt.has_gw) {
		ip_str(v6, r->rt.gw, buf, sizeof(buf));
		rte_tel_data_add_dict_string(d, "via", buf);
	}
	tel_hop(d, r->hop);
	rte_spinlock_unlock(&fwd_ctl_lock);
	return 0;
}

static int
tel_neigh(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE], line[128];
	const struct fwd_neigh_stats *st;
	struct rte_tel_data *list;
	struct fwd_neigh_tbl *tbl;
	struct fwd_neigh *n;
	unsigned long first = 0;
	uint32_t i = 0, k = 0;
	char *end;
	int fam;

	(void)cmd;
	if (params == NULL || (params[0] != '4' && params[0] != '6') ||
			(params[1] != '\0' && params[1] != ','))
		return -EINVAL;
	fam = params[0] == '6';
	if (params[1] == ',') {
		first = strtoul(params + 2, &end, 10);
		if (*end != '\0')
			return -EINVAL;
	}
	list = rte_tel_data_alloc();
	if (list == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(list, RTE_TEL_STRING_VAL);
	rte_spinlock_lock(&fwd_ctl_lock);
	if (tel_ctl == NULL) {
		rte_spinlock_unlock(&fwd_ctl_lock);
		rte_tel_data_free(list);
		return -ENODEV;
	}
	tbl = tel_ctl->nb[fam];
	st = fwd_neigh_stats(tbl);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_uint(d, "entries", fwd_neigh_count(tbl));
	rte_tel_data_add_dict_uint(d, "allocs", st->allocs);
	rte_tel_data_add_dict_uint(d, "destroys", st->destroys);
	rte_tel_data_add_dict_uint(d, "res_failed", st->res_failed);
	rte_tel_data_add_dict_uint(d, "unres_discards", st->unres_discards);
	rte_tel_data_add_dict_uint(d, "table_fulls", st->table_fulls);
	rte_tel_data_add_dict_uint(d, "forced_gc_runs", st->forced_gc_runs);
	rte_tel_data_add_dict_uint(d, "first", first);
	while ((n = fwd_neigh_next(tbl, &i)) != NULL &&
			k < first + TEL_NEIGH_PAGE) {
		if (k++ < first)
			continue;
		ip_str(n->v6, n->ip, ip, sizeof(ip));
		rte_ether_format_addr(mac, sizeof(mac), &n->mac);
		snprintf(line, sizeof(line), "%s port %u %s %s queued %u %u B",
				ip, n->port, fwd_nud_name(n->state),
				(n->state & FWD_NUD_VALID) ? mac : "-",
				n->qlen, n->qbytes);
		rte_tel_data_add_array_string(list, line);
	}
	rte_spinlock_unlock(&fwd_ctl_lock);
	rte_tel_data_add_dict_container(d, "list", list, 0);
	return 0;
}

void
fwd_ctl_tel_register(struct fwd_ctl *ctl)
{
	static bool registered;

	rte_spinlock_lock(&fwd_ctl_lock);
	tel_ctl = ctl;
	rte_spinlock_unlock(&fwd_ctl_lock);
	if (registered)
		return;
	registered = true;
	rte_telemetry_register_cmd("/fwd/routes", tel_routes,
		"npool-fwd's routes: per family by origin, max and free; the RIB's counters");
	rte_telemetry_register_cmd("/fwd/route", tel_route,
		"The route an address takes and its next hop. Parameters: IPv4 or IPv6 address");
	rte_telemetry_register_cmd("/fwd/neigh", tel_neigh,
		"A neighbour table's counters and 64 entries from first. Parameters: 4 or 6[,first]");
}

void
fwd_ctl_tel_forget(const struct fwd_ctl *ctl)
{
	rte_spinlock_lock(&fwd_ctl_lock);
	if (tel_ctl == ctl)
		tel_ctl = NULL;
	rte_spinlock_unlock(&fwd_ctl_lock);
}
