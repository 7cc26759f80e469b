/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_PVT_H
#define FWD_FPM_PVT_H

/*
 * The FPM reader's insides, shared by its files: fwd_fpm.c (listener,
 * connection, frames, sync), fwd_fpm_nl.c (netlink route and next-hop
 * messages, the delete + add pairs, interfaces to ports), fwd_fpm_nh.c
 * (the next-hop table), fwd_fpm_stats.c (counters, lines, JSON,
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
	FPM_NH_GW,        /* via a gateway, maybe with an interface */
	FPM_NH_DEV,       /* on an interface's link */
	FPM_NH_BLACKHOLE, /* NHA_BLACKHOLE */
	FPM_NH_GROUP,     /* NHA_GROUP: the first member's */
};

/* One next hop of the table (id 0: a free slot). */
struct fpm_nh {
	uint32_t id;
	uint32_t oif;      /* ifindex, 0: none */
	uint32_t first;    /* FPM_NH_GROUP: the first member's id */
	uint16_t nb;       /* FPM_NH_GROUP: members */
	uint8_t kind;      /* enum fpm_nh_kind */
	uint8_t family;    /* of @c gw: AF_INET, AF_INET6 */
	uint8_t gw[16];
};

/* Next hops by id: open addressing, linear probing, grown by doubling
 * up to a bound. */
struct fpm_nh_tab {
	struct fpm_nh *slot;
	uint32_t size;     /* slots, a power of two (0: none yet) */
	uint32_t n;        /* held */
	uint32_t max;      /* held at most */
};

struct fwd_fpm {
	struct fwd_fpm_params p;
	struct fwd_fpm_sink sink;
	int lfd;           /* listening socket, -1 */
	int cfd;           /* connection, -1 (also for an fd-less one) */
	int efd;           /* epoll over both, -1 */
	uint16_t port;     /* bound port */
	bool open;         /* a connection is open (fd or input-only) */
	bool syncing;      /* sync_begin told, sync_done not yet */
	uint64_t now;      /* the time of the current call */
	uint64_t quiet_since; /* connection's start or its last frame */
	uint64_t resolved_ms; /* last read of the name table */
	bool resolved;     /* resolved_ms holds a time */
	uint8_t *buf;      /* p.buf_size bytes */
	uint32_t len;      /* held in @c buf */
	uint32_t skip;     /* bytes still to skip of a too long frame */
	unsigned int ifindex[FWD_FPM_IF_MAX]; /* of p.ifs, 0: absent */
	struct fwd_rt pending[FPM_PENDING_MAX]; /* deletes held back */
	unsigned int nb_pending;
	struct fpm_nh_tab nh;
	struct fwd_fpm_stats st;  /* written here, read with atomics */
	uint64_t logged_ms[FWD_FPM_NB_ERRORS]; /* last line per reason */
	uint64_t logged_n[FWD_FPM_NB_ERRORS];  /* count at that line */
	bool logged[FWD_FPM_NB_ERRORS];
};

/* Add @p n to a counter other threads may read. */
#define FPM_ADD(var, n) \
	__atomic_store_n(&(var), (var) + (n), __ATOMIC_RELAXED)
#define FPM_INC(var) FPM_ADD(var, 1)

/*
 * fwd_fpm_nl.c: one frame's netlink messages (the FPM header taken
 * off), to the sink; the frame's held deletes flushed and frame_end()
 * told at its end.
 */
void fpm_nl_frame(struct fwd_fpm *f, const uint8_t *p, uint32_t len);

/* fwd_fpm_nl.c: give the held deletes to the sink (a frame's end, a
 * connection's). */
void fpm_nl_flush(struct fwd_fpm *f);

/*
 * fwd_fpm_nl.c: split the rtattrs at @p p (@p len bytes) into @p a
 * (ATTR_MAX entries) by type, the last of a type winning.
 * @return 0, or -1 for an attribute whose length leaves the message.
 */
int fpm_attrs_walk(const uint8_t *p, uint32_t len, const struct rtattr **a);

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

/* fwd_fpm_nh.c: RTM_NEWNEXTHOP / RTM_DELNEXTHOP into the table. */
void fpm_nl_nexthop(struct fwd_fpm *f, const struct nlmsghdr *h);

/* fwd_fpm_nl.c: re-read the name table now (if_nametoindex()). */
void fpm_if_resolve(struct fwd_fpm *f);

/* fwd_fpm_nh.c: make the table (empty, bound @p max). */
void fpm_nh_init(struct fpm_nh_tab *t, uint32_t max);
/* fwd_fpm_nh.c: free its memory. */
void fpm_nh_fini(struct fpm_nh_tab *t);
/* fwd_fpm_nh.c: the next hop @p id, or NULL. */
const struct fpm_nh *fpm_nh_find(const struct fpm_nh_tab *t, uint32_t id);
/* fwd_fpm_nh.c: add or replace @p nh (by its id, not 0).
 * @return 0 added, 1 replaced, -ENOSPC (bound) or -ENOMEM. */
int fpm_nh_put(struct fpm_nh_tab *t, const struct fpm_nh *nh);
/* fwd_fpm_nh.c: remove @p id. @return 0, or -ENOENT. */
int fpm_nh_del(struct fpm_nh_tab *t, uint32_t id);

/*
 * fwd_fpm_stats.c: count reason @p e and log it (the first time, then
 * at most once per FPM_LOG_MS with the count in between); the rest is
 * a printf message saying what was refused.
 */
void fpm_err(struct fwd_fpm *f, enum fwd_fpm_error e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* fwd_fpm_stats.c: one line through the parameters' log. */
void fpm_log(struct fwd_fpm *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* fwd_fpm_stats.c: @p rt's prefix as text, "198.18.0.0/24". */
const char *fpm_rt_text(const struct fwd_rt *rt, char *buf, size_t size);

#endif /* FWD_FPM_PVT_H */
