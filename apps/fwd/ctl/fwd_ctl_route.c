/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Routes through the control thread (fwd_ctl_route.h): a route placed in
 * the RIB with its gateway's neighbour (a next hop of its own), removed,
 * the router's own held against replacement, the host routes of the
 * neighbours on a link kept as the routes say; FPM's routes and
 * resynchronisations (the FPM reader's sink).
 */
#include <errno.h>
#include <string.h>

#include "fwd_ctl_pvt.h"
#include "fwd_ctl_route.h"

/* Whether port @p p resolves its neighbours. */
static bool
resolving(const struct fwd_ctl *ctl, uint16_t p)
{
	return p < 64 && ((ctl->c.resolve >> p) & 1);
}

bool
fwd_ctl_host_ok(const struct fwd_ctl *ctl, const struct fwd_neigh *n)
{
	const struct fwd_rib_rec *r;

	if (!resolving(ctl, n->port))
		return false;
	r = fwd_rib_match(ctl->rib, n->v6, n->ip);
	return r != NULL && r->rt.type == FWD_RT_UNICAST && !r->rt.has_gw &&
		r->hop == n->port;
}

/* The neighbours of the family inside @p ip / @p depth: their host
 * routes as the routes now say. */
static void
recheck_hosts(struct fwd_ctl *ctl, bool v6, const uint8_t *ip, uint8_t depth)
{
	struct fwd_neigh_tbl *tbl = ctl->nb[v6];
	uint8_t a[16];
	struct fwd_neigh *n;
	uint32_t i = 0;
	bool ok;

	while ((n = fwd_neigh_next(tbl, &i)) != NULL) {
		memcpy(a, n->ip, 16);
		fwd_rt_mask(a, depth);
		if (memcmp(a, ip, 16) != 0)
			continue;
		ok = fwd_ctl_host_ok(ctl, n);
		if (ok == n->host_route)
			continue;
		n->host_route = fwd_rib_host(ctl->rib, v6, n->ip,
				ok ? n->nh : UINT32_MAX) == 0 && ok;
	}
}

/* A route's hop is no longer held: its gateway's reference. */
static void
unref(struct fwd_ctl *ctl, uint32_t hop)
{
	struct fwd_neigh *n;
	int v6;

	if (hop < RTE_MAX_ETHPORTS || hop >= FWD_NH_MAX)
		return;
	for (v6 = 0; v6 < 2; v6++) {
		n = fwd_neigh_of_nh(ctl->nb[v6], hop);
		if (n != NULL && n->refs != 0) {
			n->refs--;
			return;
		}
	}
}

/* The port whose link holds gateway @p gw: the route holding it is on a
 * link (a connected prefix, or a route file's to a port). */
static int
gw_port(const struct fwd_ctl *ctl, bool v6, const uint8_t *gw)
{
	const struct fwd_rib_rec *r = fwd_rib_match(ctl->rib, v6, gw);

	return r != NULL && r->rt.type == FWD_RT_UNICAST && !r->rt.has_gw &&
		r->hop < RTE_MAX_ETHPORTS ? (int)r->hop : -1;
}

/* The hop of unicast route @p rt, its gateway's neighbour in @p nb. */
static int
unicast_hop(struct fwd_ctl *ctl, const struct fwd_rt *rt, uint32_t *hop,
		struct fwd_neigh **nb, const char **why)
{
	const uint64_t mask = ctl->c.tabs[0]->portmask;
	int port = rt->port == FWD_RT_PORT_ANY ? -1 : rt->port;

	/* On a link: as the tables hold it at start, a port not enabled
	 * is FWD_HOP_BAD (l3fwd's default table has such routes). */
	if (!rt->has_gw && port >= 0) {
		*hop = fwd_hop_of_port(mask, (uint32_t)port);
		return 0;
	}
	if (rt->has_gw && port < 0)
		port = gw_port(ctl, rt->v6, rt->gw);
	if (port < 0 || port >= 64 || !((mask >> port) & 1)) {
		*why = rt->has_gw && rt->port == FWD_RT_PORT_ANY ?
			"gateway on no enabled port's link" :
			"port not enabled (-p)";
		return -EINVAL;
	}
	*hop = (uint32_t)port;
	if (!rt->has_gw || !resolving(ctl, (uint16_t)port))
		return 0;
	*nb = fwd_neigh_get(ctl->nb[rt->v6], (uint16_t)port, rt->gw,
			fwd_ctl_now_ms());
	if (*nb == NULL) {
		*why = "neighbour table full";
		return -ENOSPC;
	}
	*hop = (*nb)->nh;
	return 0;
}

int
fwd_ctl_add(struct fwd_ctl *ctl, const struct fwd_rt *rt, uint8_t origin,
		const char **why)
{
	struct fwd_neigh *n = NULL;
	uint32_t hop, old;
	int ret;

	switch (rt->type) {
	case FWD_RT_BLACKHOLE:
		hop = FWD_HOP_BLACKHOLE;
		break;
	case FWD_RT_UNREACHABLE:
		hop = FWD_HOP_UNREACH;
		break;
	case FWD_RT_PROHIBIT:
		hop = FWD_HOP_PROHIBIT;
		break;
	default:
		ret = unicast_hop(ctl, rt, &hop, &n, why);
		if (ret != 0)
			return ret;
	}
	ret = fwd_rib_set(ctl->rib, rt, origin, hop, &old);
	if (ret == 1)
		return 0;
	if (ret != 0) {
		*why = ret == -EEXIST ? "the router's own address" :
			ret == -EINVAL ? "martian destination" : "table full";
		return ret;
	}
	if (n != NULL)
		n->refs++;
	unref(ctl, old);
	recheck_hosts(ctl, rt->v6, rt->dst, rt->depth);
	ctl->last_update = fwd_ctl_now_ms();
	return 0;
}

int
fwd_ctl_add_own(struct fwd_ctl *ctl, const struct fwd_rt *rt, uint32_t hop)
{
	uint32_t old;

	return fwd_rib_set(ctl->rib, rt, FWD_RIB_OWN, hop, &old);
}

int
fwd_ctl_del(struct fwd_ctl *ctl, const struct fwd_rt *rt, uint8_t origin)
{
	uint8_t ip[16];
	uint32_t old;
	int ret;

	ret = fwd_rib_del(ctl->rib, rt, origin, &old);
	if (ret != 0)
		return ret;
	unref(ctl, old);
	memcpy(ip, rt->dst, 16);
	fwd_rt_mask(ip, rt->depth);
	recheck_hosts(ctl, rt->v6, ip, rt->depth);
	ctl->last_update = fwd_ctl_now_ms();
	return 0;
}

/* FPM's route changes (fwd_fpm_sink.route): an add or a replace places
 * the route (and takes it off the stale ones), a delete removes an FPM
 * route of the prefix. */
static int
fpm_route(void *ctx, enum fwd_fpm_op op, const struct fwd_rt *rt)
{
	struct fwd_ctl *ctl = ctx;
	const char *why = NULL;

	/* A delete of a route not held (one refused, a connected prefix
	 * kept) is counted by the RIB (not_found), no error of FPM's. */
	if (op == FWD_FPM_DEL) {
		fwd_ctl_del(ctl, rt, FWD_RT_FPM);
		return 0;
	}
	return fwd_ctl_add(ctl, rt, FWD_RT_FPM, &why);
}

/* zebra (re)connected: what it does not send again goes at the end. */
static void
fpm_sync_begin(void *ctx)
{
	struct fwd_ctl *ctl = ctx;

	fwd_rib_mark_stale(ctl->rib, FWD_RT_FPM);
}

static void
fpm_gone(void *ctx, uint32_t hop)
{
	unref(ctx, hop);
}

/* The sync's quiet period is over: the FPM routes not sent again go, and
 * the neighbours' host routes follow. */
static void
fpm_sync_done(void *ctx)
{
	static const uint8_t any[16];
	struct fwd_ctl *ctl = ctx;

	if (fwd_rib_sweep(ctl->rib, FWD_RT_FPM, fpm_gone, ctl) == 0)
		return;
	recheck_hosts(ctl, false, any, 0);
	recheck_hosts(ctl, true, any, 0);
	ctl->last_update = fwd_ctl_now_ms();
}

const struct fwd_fpm_sink fwd_ctl_fpm_sink = {
	.route = fpm_route,
	.sync_begin = fpm_sync_begin,
	.sync_done = fpm_sync_done,
};
