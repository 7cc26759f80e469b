/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The netlink inside an FPM frame, as zebra's dplane_fpm_nl encodes it
 * (zebra/rt_netlink.c netlink_route_multipath_msg_encode() and
 * netlink_nexthop_msg_encode()): RTM_NEWROUTE / RTM_DELROUTE become
 * route records for the sink, RTM_NEWNEXTHOP / RTM_DELNEXTHOP fill the
 * next-hop table the routes' RTA_NH_ID name (zebra 8.4's default, `fpm
 * use-next-hop-groups`). A delete held back meets an add of the same
 * prefix in the same frame as one replace. Interfaces become ports by
 * the --fpm-if name table.
 */
#include <errno.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "fwd_fpm_nh.h"
#include "fwd_fpm_nl.h"
#include "fwd_fpm_stats.h"

/* What a route message says, before it is a route record. */
struct nl_rt {
	struct fwd_rt rt;
	uint32_t oif;     /* 0: none */
	uint32_t nh_id;   /* RTA_NH_ID, 0: none */
	unsigned int hops; /* next hops named (RTA_MULTIPATH: its count) */
};

void
fpm_if_resolve(struct fwd_fpm *f)
{
	unsigned int i;

	for (i = 0; i < f->p.nb_ifs; i++)
		f->ifindex[i] = if_nametoindex(f->p.ifs[i].name);
	f->resolved_ms = f->now;
	f->resolved = true;
}

/* The port of @p ifindex, or -1; an unknown one re-reads the name table
 * (at most every FPM_RESOLVE_MS: an interface made after the start). */
static int
if_port(struct fwd_fpm *f, uint32_t ifindex)
{
	unsigned int i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < f->p.nb_ifs; i++)
			if (f->ifindex[i] == ifindex && ifindex != 0)
				return f->p.ifs[i].port;
		if (pass == 0 && (!f->resolved ||
				f->now - f->resolved_ms >= FPM_RESOLVE_MS))
			fpm_if_resolve(f);
		else
			break;
	}
	return -1;
}

/*
 * The gateway and port of a unicast route: @p n's gateway (already in
 * n->rt) and interface. An interface that maps to no port leaves the
 * port to the gateway (FWD_RT_PORT_ANY); without a gateway, or with an
 * IPv6 link-local one, the route has no port: refused.
 * @return 0, or -1 after fpm_err().
 */
static int
rt_nexthop(struct fwd_fpm *f, struct nl_rt *n)
{
	struct fwd_rt *rt = &n->rt;
	char text[64];
	int port = -1;

	if (!rt->has_gw && n->oif == 0) {
		fpm_err(f, FWD_FPM_ERR_no_nexthop, "route %s: unicast without a next hop: refused",
				fpm_rt_text(rt, text, sizeof(text)));
		return -1;
	}
	if (n->oif != 0)
		port = if_port(f, n->oif);
	if (port >= 0) {
		rt->port = (uint16_t)port;
		return 0;
	}
	if (!rt->has_gw || (rt->v6 && rt->gw[0] == 0xfe &&
			(rt->gw[1] & 0xc0) == 0x80)) {
		fpm_err(f, FWD_FPM_ERR_no_port, "route %s: interface %u maps to no port (--fpm-if)%s: refused",
				fpm_rt_text(rt, text, sizeof(text)), n->oif,
				rt->has_gw ? " and its gateway is link-local" :
				"");
		return -1;
	}
	if (n->oif != 0)
		FPM_INC(f->st.oif_unmapped);
	rt->port = FWD_RT_PORT_ANY;
	return 0;
}

/*
 * Fill @p n's next hop from next-hop @p n->nh_id (a group: its first
 * member). A blackhole next hop makes the route a blackhole.
 * @return 0, or -1 after fpm_err().
 */
static int
rt_from_nh(struct fwd_fpm *f, struct nl_rt *n)
{
	const struct fpm_nh *nh = fpm_nh_find(&f->nh, n->nh_id);
	struct fwd_rt *rt = &n->rt;
	char text[64];

	if (nh != NULL && nh->kind == FPM_NH_GROUP) {
		if (nh->nb > 1)
			FPM_INC(f->st.multipath);
		nh = fpm_nh_find(&f->nh, nh->first);
	}
	if (nh == NULL || nh->kind == FPM_NH_GROUP) {
		fpm_err(f, FWD_FPM_ERR_nh_unknown, "route %s: next hop %u not known: refused",
				fpm_rt_text(rt, text, sizeof(text)), n->nh_id);
		return -1;
	}
	if (nh->kind == FPM_NH_BLACKHOLE) {
		rt->type = FWD_RT_BLACKHOLE;
		return 0;
	}
	if (nh->kind == FPM_NH_GW) {
		if ((nh->family == AF_INET6) != rt->v6) {
			fpm_err(f, FWD_FPM_ERR_via, "route %s: next hop %u is a gateway of the other family: refused",
					fpm_rt_text(rt, text, sizeof(text)),
					n->nh_id);
			return -1;
		}
		memcpy(rt->gw, nh->gw, 16);
		rt->has_gw = true;
	}
	n->oif = nh->oif;
	return 0;
}

/* Give one change to the sink and count it. */
static void
rt_emit(struct fwd_fpm *f, enum fwd_fpm_op op, const struct fwd_rt *rt)
{
	char text[64];
	int rc = f->sink.route(f->sink.ctx, op, rt);

	if (rc < 0) {
		fpm_err(f, FWD_FPM_ERR_rib_refused, "route %s: not placed (%s)",
				fpm_rt_text(rt, text, sizeof(text)),
				strerror(-rc));
		return;
	}
	if (op == FWD_FPM_ADD)
		FPM_INC(f->st.routes_added);
	else if (op == FWD_FPM_DEL)
		FPM_INC(f->st.routes_deleted);
	else
		FPM_INC(f->st.routes_replaced);
	__atomic_store_n(&f->st.last_update_ms, f->now, __ATOMIC_RELAXED);
}

/* The same prefix. */
static bool
rt_same(const struct fwd_rt *a, const struct fwd_rt *b)
{
	return a->v6 == b->v6 && a->depth == b->depth &&
		memcmp(a->dst, b->dst, 16) == 0;
}

/* A delete: held back until the frame's end, for an add of the prefix
 * to meet (one held per prefix; the oldest goes when full). */
static void
rt_del(struct fwd_fpm *f, const struct fwd_rt *rt)
{
	unsigned int i;

	for (i = 0; i < f->nb_pending; i++)
		if (rt_same(&f->pending[i], rt))
			return;
	if (f->nb_pending == FPM_PENDING_MAX) {
		rt_emit(f, FWD_FPM_DEL, &f->pending[0]);
		memmove(&f->pending[0], &f->pending[1],
				(FPM_PENDING_MAX - 1) * sizeof(f->pending[0]));
		f->nb_pending--;
	}
	f->pending[f->nb_pending++] = *rt;
}

/* An add: a replace when a delete of the prefix is held. */
static void
rt_add(struct fwd_fpm *f, const struct fwd_rt *rt)
{
	unsigned int i;

	for (i = 0; i < f->nb_pending; i++) {
		if (!rt_same(&f->pending[i], rt))
			continue;
		memmove(&f->pending[i], &f->pending[i + 1],
				(f->nb_pending - i - 1) * sizeof(f->pending[0]));
		f->nb_pending--;
		rt_emit(f, FWD_FPM_REPLACE, rt);
		return;
	}
	rt_emit(f, FWD_FPM_ADD, rt);
}

void
fpm_nl_flush(struct fwd_fpm *f)
{
	unsigned int i;

	for (i = 0; i < f->nb_pending; i++)
		rt_emit(f, FWD_FPM_DEL, &f->pending[i]);
	f->nb_pending = 0;
}

/* The first next hop of RTA_MULTIPATH @p mp into @p n.
 * @return 0, or -1 for a bad length. */
static int
multipath_first(const struct rtattr *mp, struct nl_rt *n)
{
	const struct rtnexthop *nh = RTA_DATA(mp);
	const struct rtattr *a[ATTR_MAX];
	uint32_t len = fpm_attr_len(mp), alen = n->rt.v6 ? 16 : 4, step;

	if (len < sizeof(*nh) || nh->rtnh_len < sizeof(*nh) ||
			nh->rtnh_len > len)
		return -1;
	/* Count them: the good ones from the first on. */
	for (n->hops = 0; len >= sizeof(*nh) && nh->rtnh_len >= sizeof(*nh) &&
			nh->rtnh_len <= len; ) {
		n->hops++;
		step = (uint32_t)RTNH_ALIGN(nh->rtnh_len);
		if (step >= len)
			break;
		len -= step;
		nh = (const struct rtnexthop *)((const uint8_t *)nh + step);
	}
	nh = RTA_DATA(mp);
	if (fpm_attrs_walk((const uint8_t *)RTNH_DATA(nh),
			nh->rtnh_len - (uint32_t)sizeof(*nh), a) < 0)
		return -1;
	n->oif = (uint32_t)nh->rtnh_ifindex;
	if (a[RTA_VIA] != NULL)
		return -2;
	if (a[RTA_GATEWAY] != NULL) {
		if (fpm_attr_len(a[RTA_GATEWAY]) != alen)
			return -1;
		memcpy(n->rt.gw, RTA_DATA(a[RTA_GATEWAY]), alen);
		n->rt.has_gw = true;
	}
	return 0;
}

/* Clear @p rt's bits beyond its prefix length (zebra sends them
 * clear; Linux masks IPv6 and refuses such IPv4). */
static void
rt_mask(struct fwd_rt *rt)
{
	unsigned int i, bits = rt->depth;

	for (i = 0; i < 16; i++) {
		if (bits >= 8) {
			bits -= 8;
			continue;
		}
		rt->dst[i] &= (uint8_t)(0xff00 >> bits);
		bits = 0;
	}
}

/* rtm_type to enum fwd_rt_type; -1 for the others. */
static int
rt_type(uint8_t t)
{
	switch (t) {
	case RTN_UNICAST:
		return FWD_RT_UNICAST;
	case RTN_BLACKHOLE:
		return FWD_RT_BLACKHOLE;
	case RTN_UNREACHABLE:
		return FWD_RT_UNREACHABLE;
	case RTN_PROHIBIT:
		return FWD_RT_PROHIBIT;
	}
	return -1;
}

/* The checks every route message passes. @return 0, or -1 after
 * fpm_err(). */
static int
nl_route_head(struct fwd_fpm *f, const struct nlmsghdr *h,
		const struct rtattr **a, struct nl_rt *n)
{
	const struct rtmsg *rtm = NLMSG_DATA(h);
	uint32_t alen, table;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm))) {
		fpm_err(f, FWD_FPM_ERR_attr_len, "route message of %u bytes: refused",
				h->nlmsg_len);
		return -1;
	}
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6) {
		fpm_err(f, FWD_FPM_ERR_family, "route of family %u: refused",
				rtm->rtm_family);
		return -1;
	}
	n->rt.v6 = rtm->rtm_family == AF_INET6;
	alen = n->rt.v6 ? 16 : 4;
	if (rtm->rtm_dst_len > alen * 8) {
		fpm_err(f, FWD_FPM_ERR_prefix_len, "IPv%c route of prefix length %u: refused",
				n->rt.v6 ? '6' : '4', rtm->rtm_dst_len);
		return -1;
	}
	n->rt.depth = rtm->rtm_dst_len;
	if (fpm_attrs_walk((const uint8_t *)RTM_RTA(rtm),
			h->nlmsg_len - NLMSG_LENGTH(sizeof(*rtm)), a) < 0 ||
			(a[RTA_DST] != NULL && fpm_attr_len(a[RTA_DST]) != alen) ||
			(a[RTA_GATEWAY] != NULL &&
			 fpm_attr_len(a[RTA_GATEWAY]) != alen) ||
			(a[RTA_OIF] != NULL && fpm_attr_u32(a[RTA_OIF], &n->oif)) ||
			(a[RTA_NH_ID] != NULL &&
			 fpm_attr_u32(a[RTA_NH_ID], &n->nh_id)) ||
			(a[RTA_TABLE] != NULL && fpm_attr_len(a[RTA_TABLE]) != 4)) {
		fpm_err(f, FWD_FPM_ERR_attr_len, "route message with an attribute of a wrong length: refused");
		return -1;
	}
	if (a[RTA_DST] != NULL)
		memcpy(n->rt.dst, RTA_DATA(a[RTA_DST]), alen);
	rt_mask(&n->rt);
	/* Linux: RTA_TABLE over rtm_table; table 0 is main. */
	table = rtm->rtm_table;
	if (a[RTA_TABLE] != NULL)
		memcpy(&table, RTA_DATA(a[RTA_TABLE]), 4);
	if (table != RT_TABLE_MAIN && table != RT_TABLE_UNSPEC) {
		fpm_err(f, FWD_FPM_ERR_table, "route in table %u: refused (main table only)",
				table);
		return -1;
	}
	if (rtm->rtm_src_len != 0) {
		fpm_err(f, FWD_FPM_ERR_src_prefix, "source-specific route (from /%u): refused",
				rtm->rtm_src_len);
		return -1;
	}
	return 0;
}

/* RTM_NEWROUTE / RTM_DELROUTE. */
static void
nl_route(struct fwd_fpm *f, const struct nlmsghdr *h)
{
	const struct rtmsg *rtm = NLMSG_DATA(h);
	const struct rtattr *a[ATTR_MAX];
	struct nl_rt n = { .rt.port = FWD_RT_PORT_ANY };
	char text[64];
	int type, rc;

	if (nl_route_head(f, h, a, &n) < 0)
		return;
	if (h->nlmsg_type == RTM_DELROUTE) {
		/* zebra's delete names the prefix only (no type). */
		rt_del(f, &n.rt);
		return;
	}
	type = rt_type(rtm->rtm_type);
	if (type < 0) {
		fpm_err(f, FWD_FPM_ERR_route_type, "route %s of type %u: refused",
				fpm_rt_text(&n.rt, text, sizeof(text)),
				rtm->rtm_type);
		return;
	}
	n.rt.type = (uint8_t)type;
	if (type != FWD_RT_UNICAST) {
		rt_add(f, &n.rt);
		return;
	}
	if (a[RTA_VIA] != NULL || a[RTA_ENCAP] != NULL ||
			a[RTA_ENCAP_TYPE] != NULL) {
		fpm_err(f, a[RTA_VIA] != NULL ? FWD_FPM_ERR_via :
				FWD_FPM_ERR_encap, "route %s: %s: refused",
				fpm_rt_text(&n.rt, text, sizeof(text)),
				a[RTA_VIA] != NULL ? "RTA_VIA gateway" :
				"encapsulated");
		return;
	}
	n.hops = 1;
	if (a[RTA_GATEWAY] != NULL) {
		memcpy(n.rt.gw, RTA_DATA(a[RTA_GATEWAY]), n.rt.v6 ? 16 : 4);
		n.rt.has_gw = true;
	} else if (a[RTA_MULTIPATH] != NULL) {
		rc = multipath_first(a[RTA_MULTIPATH], &n);
		if (rc < 0) {
			fpm_err(f, rc == -2 ? FWD_FPM_ERR_via :
					FWD_FPM_ERR_attr_len,
					"route %s: RTA_MULTIPATH %s: refused",
					fpm_rt_text(&n.rt, text, sizeof(text)),
					rc == -2 ? "with RTA_VIA" :
					"of a wrong length");
			return;
		}
	}
	if (!n.rt.has_gw && n.oif == 0 && n.nh_id != 0 &&
			rt_from_nh(f, &n) < 0)
		return;
	if (n.rt.type == FWD_RT_UNICAST && rt_nexthop(f, &n) < 0)
		return;
	if (n.hops > 1)
		FPM_INC(f->st.multipath);
	rt_add(f, &n.rt);
}

void
fpm_nl_frame(struct fwd_fpm *f, const uint8_t *p, uint32_t len)
{
	const struct nlmsghdr *h;

	while (len != 0) {
		h = (const struct nlmsghdr *)p;
		if (len < sizeof(*h) || h->nlmsg_len < sizeof(*h) ||
				h->nlmsg_len > len) {
			fpm_err(f, FWD_FPM_ERR_nl_len, "netlink message of %u bytes in the %u left of its frame: the rest skipped",
					len < sizeof(*h) ? len : h->nlmsg_len,
					len);
			break;
		}
		FPM_INC(f->st.messages);
		switch (h->nlmsg_type) {
		case RTM_NEWROUTE:
		case RTM_DELROUTE:
			nl_route(f, h);
			break;
		case RTM_NEWNEXTHOP:
		case RTM_DELNEXTHOP:
			fpm_nl_nexthop(f, h);
			break;
		case NLMSG_NOOP:
			break;
		default:
			fpm_err(f, FWD_FPM_ERR_msg_type, "netlink message type %u: ignored",
					h->nlmsg_type);
			break;
		}
		if ((uint32_t)NLMSG_ALIGN(h->nlmsg_len) >= len)
			break;
		p += NLMSG_ALIGN(h->nlmsg_len);
		len -= NLMSG_ALIGN(h->nlmsg_len);
	}
	fpm_nl_flush(f);
	if (f->sink.frame_end != NULL)
		f->sink.frame_end(f->sink.ctx);
}
