/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_PVT_H
#define FWD_FPM_PVT_H

/*
 * The FPM reader's state, shared by its files: fwd_fpm_conn.c (listener,
 * connection, frames, sync), fwd_fpm_nl.c (netlink route messages, the
 * delete + add pairs, interfaces to ports), fwd_fpm_nh.c (the next-hop
 * table and its messages), fwd_fpm_stats.c (counters, lines, JSON,
 * telemetry). Not for other callers.
 */

#include <stdarg.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "fwd_fpm.h"

/* Attributes kept by type (fpm_attrs_walk()); higher types ignored. */
#define ATTR_MAX 32

/* Deletes of a frame held back for an add of the same prefix. */
#define FPM_PENDING_MAX 32
/* An unknown ifindex re-reads the name table at most this often, ms. */
#define FPM_RESOLVE_MS 100
/* A reason is logged again at most this often, ms. */
#define FPM_LOG_MS 60000

/* What a next hop is (zebra's RTM_NEWNEXTHOP). */
enum fpm_nh_kind {
	FPM_NH_GW,        /* Via a gateway, maybe with an interface */
	FPM_NH_DEV,       /* On an interface's link */
	FPM_NH_BLACKHOLE, /* NHA_BLACKHOLE */
	FPM_NH_GROUP,     /* NHA_GROUP: the first member's */
};

/* One next hop of the table (id 0: a free slot). */
struct fpm_nh {
	uint32_t id;
	uint32_t oif;      /* Ifindex, 0: none */
	uint32_t first;    /* FPM_NH_GROUP: the first member's id */
	uint16_t nb;       /* FPM_NH_GROUP: members */
	uint8_t kind;      /* Enum fpm_nh_kind */
	uint8_t family;    /* Of @c gw: AF_INET, AF_INET6 */
	uint8_t gw[16];
};

/* Next hops by id: open addressing, linear probing, grown by doubling
 * up to a bound. */
struct fpm_nh_tab {
	struct fpm_nh *slot;
	uint32_t size;     /* Slots, a power of two (0: none yet) */
	uint32_t n;        /* Held */
	uint32_t max;      /* Held at most */
};

struct fwd_fpm {
	struct fwd_fpm_params p;
	struct fwd_fpm_sink sink;
	int lfd;           /* Listening socket, -1 */
	int cfd;           /* Connection, -1 (also for an fd-less one) */
	int efd;           /* Epoll over both, -1 */
	uint16_t port;     /* Bound port */
	bool open;         /* A connection is open (fd or input-only) */
	bool syncing;      /* Sync_begin told, sync_done not yet */
	uint64_t now;      /* The time of the current call */
	uint64_t quiet_since; /* Connection's start or its last frame */
	uint64_t resolved_ms; /* Last read of the name table */
	bool resolved;     /* Resolved_ms holds a time */
	uint8_t *buf;      /* P.buf_size bytes */
	uint32_t len;      /* Held in @c buf */
	uint32_t skip;     /* Bytes still to skip of a too long frame */
	unsigned int ifindex[FWD_FPM_IF_MAX]; /* Of p.ifs, 0: absent */
	struct fwd_rt pending[FPM_PENDING_MAX]; /* Deletes held back */
	unsigned int nb_pending;
	struct fpm_nh_tab nh;
	struct fwd_fpm_stats st;  /* Written here, read with atomics */
	uint64_t logged_ms[FWD_FPM_NB_ERRORS]; /* Last line per reason */
	uint64_t logged_n[FWD_FPM_NB_ERRORS];  /* Count at that line */
	bool logged[FWD_FPM_NB_ERRORS];
};

/* Add @p n to a counter other threads may read. */
#define FPM_ADD(var, n) \
	__atomic_store_n(&(var), (var) + (n), __ATOMIC_RELAXED)
#define FPM_INC(var) FPM_ADD(var, 1)

/*
 * Split the rtattrs at @p p (@p len bytes) into @p a
 * (ATTR_MAX entries) by type, the last of a type winning.
 * @return 0, or -1 for an attribute whose length leaves the message.
 */
static inline int
fpm_attrs_walk(const uint8_t *p, uint32_t len, const struct rtattr **a)
{
	const struct rtattr *r;

	memset(a, 0, ATTR_MAX * sizeof(*a));
	while (len >= sizeof(*r)) {
		r = (const struct rtattr *)p;
		if (r->rta_len < sizeof(*r) || r->rta_len > len)
			return -1;
		/* Zebra's nests carry NLA_F_NESTED (RTA_MULTIPATH). */
		if ((r->rta_type & NLA_TYPE_MASK) < ATTR_MAX)
			a[r->rta_type & NLA_TYPE_MASK] = r;
		if ((uint32_t)RTA_ALIGN(r->rta_len) >= len)
			return 0;
		p += RTA_ALIGN(r->rta_len);
		len -= (uint32_t)RTA_ALIGN(r->rta_len);
	}
	return len == 0 ? 0 : -1;
}

/* Payload bytes of @p r. */
static inline uint32_t
fpm_attr_len(const struct rtattr *r)
{
	return r->rta_len - (uint32_t)sizeof(*r);
}

/* A 4-byte attribute's value; @return 0, or -1 when not 4 bytes. */
static inline int
fpm_attr_u32(const struct rtattr *r, uint32_t *v)
{
	if (fpm_attr_len(r) != 4)
		return -1;
	memcpy(v, RTA_DATA(r), 4);
	return 0;
}

#endif /* FWD_FPM_PVT_H */
