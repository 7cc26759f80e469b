/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FPM frames built by hand (fpm_build.h): what zebra's dplane_fpm_nl
 * writes, for the FPM reader's unit test and fuzz seeds.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "fpm_build.h"

/* Room for @p n more bytes, zeroed; aborts when the buffer is full. */
static uint8_t *
fb_put(struct fb *b, size_t n)
{
	uint8_t *p;

	if (b->len + n > sizeof(b->b))
		abort();
	p = b->b + b->len;
	memset(p, 0, n);
	b->len += n;
	return p;
}

void
fb_frame(struct fb *b)
{
	b->frame = b->len;
	fb_put(b, 4);
}

void
fb_frame_end(struct fb *b)
{
	size_t n = b->len - b->frame;

	b->b[b->frame] = 1;
	b->b[b->frame + 1] = 1;
	b->b[b->frame + 2] = (uint8_t)(n >> 8);
	b->b[b->frame + 3] = (uint8_t)n;
}

void
fb_msg(struct fb *b, uint16_t type)
{
	struct nlmsghdr *h;

	b->msg = b->len;
	h = (struct nlmsghdr *)fb_put(b, sizeof(*h));
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE;
}

void
fb_msg_end(struct fb *b)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(b->b + b->msg);

	h->nlmsg_len = (uint32_t)(b->len - b->msg);
	fb_put(b, NLMSG_ALIGN(b->len) - b->len);
}

void
fb_rtmsg(struct fb *b, uint8_t family, uint8_t dst_len, uint8_t table,
		uint8_t type)
{
	struct rtmsg *r = (struct rtmsg *)fb_put(b, sizeof(*r));

	r->rtm_family = family;
	r->rtm_dst_len = dst_len;
	r->rtm_table = table;
	r->rtm_protocol = 196;
	r->rtm_type = type;
}

void
fb_nhmsg(struct fb *b, uint8_t family)
{
	struct nhmsg *n = (struct nhmsg *)fb_put(b, sizeof(*n));

	n->nh_family = family;
	n->nh_protocol = 11;
}

void
fb_attr(struct fb *b, uint16_t type, const void *data, uint16_t len)
{
	struct rtattr *a = (struct rtattr *)fb_put(b, RTA_SPACE(len));

	a->rta_type = type;
	a->rta_len = (uint16_t)RTA_LENGTH(len);
	/* A flag attribute (NHA_BLACKHOLE) has no data. */
	if (len != 0)
		memcpy(RTA_DATA(a), data, len);
}

void
fb_attr32(struct fb *b, uint16_t type, uint32_t v)
{
	fb_attr(b, type, &v, 4);
}

void
fb_addr(struct fb *b, uint16_t type, const char *text)
{
	uint8_t a[16];
	int v6 = strchr(text, ':') != NULL;

	if (inet_pton(v6 ? AF_INET6 : AF_INET, text, a) != 1)
		abort();
	fb_attr(b, type, a, v6 ? 16 : 4);
}

void
fb_mp(struct fb *b)
{
	struct rtattr *a;

	b->nest = b->len;
	a = (struct rtattr *)fb_put(b, sizeof(*a));
	/* As zebra's nl_attr_nest() writes it. */
	a->rta_type = RTA_MULTIPATH | NLA_F_NESTED;
}

void
fb_mp_end(struct fb *b)
{
	struct rtattr *a = (struct rtattr *)(b->b + b->nest);

	a->rta_len = (uint16_t)(b->len - b->nest);
}

void
fb_hop(struct fb *b, uint32_t ifindex)
{
	struct rtnexthop *h;

	b->rtnh = b->len;
	h = (struct rtnexthop *)fb_put(b, sizeof(*h));
	h->rtnh_ifindex = (int)ifindex;
}

void
fb_hop_end(struct fb *b)
{
	struct rtnexthop *h = (struct rtnexthop *)(b->b + b->rtnh);

	h->rtnh_len = (uint16_t)(b->len - b->rtnh);
}

void
fb_route_msg(struct fb *b, int del, const char *dst, uint8_t type,
		const char *gw, uint32_t oif)
{
	char pfx[64];
	char *slash;
	int v6 = strchr(dst, ':') != NULL;

	snprintf(pfx, sizeof(pfx), "%s", dst);
	slash = strchr(pfx, '/');
	if (slash == NULL)
		abort();
	*slash = '\0';
	fb_msg(b, del ? RTM_DELROUTE : RTM_NEWROUTE);
	fb_rtmsg(b, v6 ? AF_INET6 : AF_INET, (uint8_t)atoi(slash + 1),
			RT_TABLE_MAIN, del ? 0 : type);
	fb_addr(b, RTA_DST, pfx);
	fb_attr32(b, RTA_PRIORITY, 20);
	if (gw != NULL)
		fb_addr(b, RTA_GATEWAY, gw);
	if (oif != 0)
		fb_attr32(b, RTA_OIF, oif);
	fb_msg_end(b);
}

void
fb_route(struct fb *b, int del, const char *dst, uint8_t type,
		const char *gw, uint32_t oif)
{
	fb_frame(b);
	fb_route_msg(b, del, dst, type, gw, oif);
	fb_frame_end(b);
}

/* A next hop as zebra sends it: id, gateway or blackhole, interface. */
void
fb_nh(struct fb *b, uint32_t id, const char *gw, uint32_t oif)
{
	fb_frame(b);
	fb_msg(b, RTM_NEWNEXTHOP);
	fb_nhmsg(b, gw == NULL ? AF_INET : strchr(gw, ':') ? AF_INET6 :
			AF_INET);
	fb_attr32(b, NHA_ID, id);
	if (gw != NULL)
		fb_addr(b, NHA_GATEWAY, gw);
	else if (oif == 0)
		fb_attr(b, NHA_BLACKHOLE, NULL, 0);
	if (oif != 0)
		fb_attr32(b, NHA_OIF, oif);
	fb_msg_end(b);
	fb_frame_end(b);
}

/* A route naming next hop @p id, as zebra 8.4 sends them by default. */
void
fb_nh_route(struct fb *b, const char *dst, uint32_t id)
{
	char pfx[64], *slash;
	int v6 = strchr(dst, ':') != NULL;

	snprintf(pfx, sizeof(pfx), "%s", dst);
	slash = strchr(pfx, '/');
	*slash = '\0';
	fb_frame(b);
	fb_msg(b, RTM_NEWROUTE);
	fb_rtmsg(b, v6 ? AF_INET6 : AF_INET, (uint8_t)atoi(slash + 1),
			RT_TABLE_MAIN, RTN_UNICAST);
	fb_addr(b, RTA_DST, pfx);
	fb_attr32(b, RTA_PRIORITY, 20);
	fb_attr32(b, RTA_NH_ID, id);
	fb_msg_end(b);
	fb_frame_end(b);
}
