/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_UNIT_H
#define FWD_FPM_UNIT_H

/*
 * The FPM reader's unit tests (fwd_fpm_test.c, fwd_fpm_conn_test.c):
 * a sink recording what it is told, a reader to feed, checks.
 */

#include <stdint.h>

#include "fpm_build.h"
#include "fwd_fpm_conn.h"
#include "fwd_fpm_stats.h"

/* What the sink was told. */
struct rec {
	enum fwd_fpm_op op;
	struct fwd_rt rt;
};

/* The recording sink's state (mk() clears it). */
struct sink_log {
	struct rec r[64];
	unsigned int n, frames, begins, dones, lines;
	int refuse;        /* route() answers this */
	char last_line[256];
};

extern struct sink_log sl;
/* The sink writing into sl. */
extern const struct fwd_fpm_sink sink;
/* The ifindex of lo, port 3 of mk()'s readers (set by main()). */
extern unsigned int lo;

/* A log callback counting the lines into sl. */
void s_line(void *ctx, const char *line);

/* A reader with lo as port 3, @p buf bytes of buffer, @p nh_max next
 * hops, a connection for input open at time 0; sl cleared. */
struct fwd_fpm *mk(uint32_t buf, uint32_t nh_max);

/* Feed @p b whole at time 1: the connection stays open. */
void feed(struct fwd_fpm *f, const struct fb *b);

/* The count of reason @p e. */
uint64_t err(struct fwd_fpm *f, enum fwd_fpm_error e);

/* Record @p i is @p op of @p dst (text) of type @p type, via @p gw
 * (NULL: none), port @p port. */
void rec_is(unsigned int i, enum fwd_fpm_op op, const char *dst, int type,
		const char *gw, uint16_t port);

#endif /* FWD_FPM_UNIT_H */
