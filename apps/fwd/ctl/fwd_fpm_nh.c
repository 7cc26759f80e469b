/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader's next hops: zebra's RTM_NEWNEXTHOP / RTM_DELNEXTHOP
 * (zebra/rt_netlink.c netlink_nexthop_msg_encode(): a gateway with its
 * interface, an interface alone, a blackhole, or a group of other ids),
 * kept by id for the routes' RTA_NH_ID. A table of open addressing with
 * linear probing, grown by doubling up to its bound (memory stays
 * bounded whatever zebra sends), deletes by backward shift.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/nexthop.h>

#include "fwd_fpm_nh.h"
#include "fwd_fpm_stats.h"

/* Slots of a new table. */
#define NH_SIZE0 64

void
fpm_nh_init(struct fpm_nh_tab *t, uint32_t max)
{
	memset(t, 0, sizeof(*t));
	t->max = max;
}

void
fpm_nh_fini(struct fpm_nh_tab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->size = t->n = 0;
}

/* The slot of @p id, or the free one where it would go. */
static uint32_t
nh_slot(const struct fpm_nh_tab *t, uint32_t id)
{
	uint32_t i = (id * 2654435761u) & (t->size - 1);

	while (t->slot[i].id != 0 && t->slot[i].id != id)
		i = (i + 1) & (t->size - 1);
	return i;
}

/* Twice the slots (kept at most half full). @return 0, or -ENOMEM. */
static int
nh_grow(struct fpm_nh_tab *t)
{
	uint32_t size = t->size == 0 ? NH_SIZE0 : t->size * 2, i;
	struct fpm_nh_tab nt = { .size = size, .n = t->n, .max = t->max };

	nt.slot = calloc(size, sizeof(*nt.slot));
	if (nt.slot == NULL)
		return -ENOMEM;
	for (i = 0; i < t->size; i++)
		if (t->slot[i].id != 0)
			nt.slot[nh_slot(&nt, t->slot[i].id)] = t->slot[i];
	free(t->slot);
	*t = nt;
	return 0;
}

const struct fpm_nh *
fpm_nh_find(const struct fpm_nh_tab *t, uint32_t id)
{
	uint32_t i;

	if (t->size == 0 || id == 0)
		return NULL;
	i = nh_slot(t, id);
	return t->slot[i].id == id ? &t->slot[i] : NULL;
}

int
fpm_nh_put(struct fpm_nh_tab *t, const struct fpm_nh *nh)
{
	uint32_t i;

	if (t->size != 0) {
		i = nh_slot(t, nh->id);
		if (t->slot[i].id == nh->id) {
			t->slot[i] = *nh;
			return 1;
		}
	}
	if (t->n >= t->max)
		return -ENOSPC;
	if ((t->n + 1) * 2 > t->size && nh_grow(t) < 0)
		return -ENOMEM;
	t->slot[nh_slot(t, nh->id)] = *nh;
	t->n++;
	return 0;
}

int
fpm_nh_del(struct fpm_nh_tab *t, uint32_t id)
{
	uint32_t i, j, home;

	if (fpm_nh_find(t, id) == NULL)
		return -ENOENT;
	i = nh_slot(t, id);
	t->slot[i].id = 0;
	t->n--;
	/* Backward shift: move up each following entry whose home slot
	 * is not between the hole and it. */
	for (j = (i + 1) & (t->size - 1); t->slot[j].id != 0;
			j = (j + 1) & (t->size - 1)) {
		home = (t->slot[j].id * 2654435761u) & (t->size - 1);
		if (((j - home) & (t->size - 1)) < ((j - i) & (t->size - 1)))
			continue;
		t->slot[i] = t->slot[j];
		t->slot[j].id = 0;
		i = j;
	}
	return 0;
}
/* RTM_NEWNEXTHOP's attributes into @p nh. @return 0, or -1 after
 * fpm_err(). */
static int
nh_parse(struct fwd_fpm *f, const struct nhmsg *nhm,
		const struct rtattr **a, struct fpm_nh *nh)
{
	const struct nexthop_grp *g;
	uint32_t glen;

	if (a[NHA_ENCAP] != NULL || a[NHA_ENCAP_TYPE] != NULL) {
		fpm_err(f, FWD_FPM_ERR_encap, "next hop %u: encapsulated: refused",
				nh->id);
		return -1;
	}
	if (a[NHA_GROUP] != NULL) {
		glen = fpm_attr_len(a[NHA_GROUP]);
		g = RTA_DATA(a[NHA_GROUP]);
		if (glen < sizeof(*g) || glen % sizeof(*g) != 0 ||
				g->id == 0) {
			fpm_err(f, FWD_FPM_ERR_nh_bad, "next hop %u: a group of %u bytes: refused",
					nh->id, glen);
			return -1;
		}
		nh->kind = FPM_NH_GROUP;
		nh->first = g->id;
		nh->nb = (uint16_t)(glen / sizeof(*g) > UINT16_MAX ?
				UINT16_MAX : glen / sizeof(*g));
		return 0;
	}
	if (a[NHA_BLACKHOLE] != NULL) {
		nh->kind = FPM_NH_BLACKHOLE;
		return 0;
	}
	if (a[NHA_OIF] != NULL && fpm_attr_u32(a[NHA_OIF], &nh->oif) < 0)
		goto bad_len;
	if (a[NHA_GATEWAY] == NULL) {
		if (nh->oif == 0) {
			fpm_err(f, FWD_FPM_ERR_nh_bad, "next hop %u: no gateway, interface, group or blackhole: refused",
					nh->id);
			return -1;
		}
		nh->kind = FPM_NH_DEV;
		return 0;
	}
	if (nhm->nh_family != AF_INET && nhm->nh_family != AF_INET6) {
		fpm_err(f, FWD_FPM_ERR_nh_bad, "next hop %u: a gateway of family %u: refused",
				nh->id, nhm->nh_family);
		return -1;
	}
	if (fpm_attr_len(a[NHA_GATEWAY]) != (nhm->nh_family == AF_INET6 ? 16u : 4u))
		goto bad_len;
	nh->kind = FPM_NH_GW;
	nh->family = nhm->nh_family;
	memcpy(nh->gw, RTA_DATA(a[NHA_GATEWAY]), fpm_attr_len(a[NHA_GATEWAY]));
	return 0;
bad_len:
	fpm_err(f, FWD_FPM_ERR_attr_len, "next hop %u: an attribute of a wrong length: refused",
			nh->id);
	return -1;
}

/*
 * fwd_fpm_pvt.h: RTM_NEWNEXTHOP / RTM_DELNEXTHOP: the table routes' RTA_NH_ID name. A
 * next hop given again replaces the old one for the routes given from
 * now on (zebra's ids name a next-hop set: a change makes a new id and
 * sends the routes again).
 */
void
fpm_nl_nexthop(struct fwd_fpm *f, const struct nlmsghdr *h)
{
	const struct nhmsg *nhm = NLMSG_DATA(h);
	const struct rtattr *a[ATTR_MAX];
	struct fpm_nh nh = { .id = 0 };
	int rc;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*nhm)) ||
			fpm_attrs_walk((const uint8_t *)nhm + NLMSG_ALIGN(sizeof(*nhm)),
				h->nlmsg_len - NLMSG_LENGTH(sizeof(*nhm)),
				a) < 0 ||
			a[NHA_ID] == NULL || fpm_attr_u32(a[NHA_ID], &nh.id) < 0) {
		fpm_err(f, FWD_FPM_ERR_attr_len, "next-hop message of %u bytes without a good NHA_ID: refused",
				h->nlmsg_len);
		return;
	}
	if (nh.id == 0) {
		fpm_err(f, FWD_FPM_ERR_nh_bad, "next hop of id 0: refused");
		return;
	}
	if (h->nlmsg_type == RTM_DELNEXTHOP) {
		if (fpm_nh_del(&f->nh, nh.id) == 0)
			FPM_INC(f->st.nexthops_deleted);
		__atomic_store_n(&f->st.nexthops, f->nh.n, __ATOMIC_RELAXED);
		return;
	}
	if (nh_parse(f, nhm, a, &nh) < 0) {
		/* Routes naming it must not take an older next hop. */
		fpm_nh_del(&f->nh, nh.id);
		return;
	}
	rc = fpm_nh_put(&f->nh, &nh);
	if (rc < 0) {
		fpm_err(f, FWD_FPM_ERR_nh_full, "next hop %u: the table holds %u already: refused",
				nh.id, f->nh.n);
		return;
	}
	FPM_INC(f->st.nexthops_added);
	__atomic_store_n(&f->st.nexthops, f->nh.n, __ATOMIC_RELAXED);
}

