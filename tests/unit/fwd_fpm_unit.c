/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the FPM reader's unit tests share (fwd_fpm_unit.h): a sink that
 * records what it is told, a reader made with lo as port 3, and checks
 * of the records.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fwd_fpm_unit.h"

struct sink_log sl;

static int
s_route(void *ctx, enum fwd_fpm_op op, const struct fwd_rt *rt)
{
	struct sink_log *s = ctx;

	if (s->refuse)
		return s->refuse;
	assert_true(s->n < 64);
	s->r[s->n].op = op;
	s->r[s->n++].rt = *rt;
	return 0;
}

static void
s_frame(void *ctx)
{
	((struct sink_log *)ctx)->frames++;
}

static void
s_begin(void *ctx)
{
	((struct sink_log *)ctx)->begins++;
}

static void
s_done(void *ctx)
{
	((struct sink_log *)ctx)->dones++;
}

void
s_line(void *ctx, const char *line)
{
	struct sink_log *s = ctx;

	s->lines++;
	snprintf(s->last_line, sizeof(s->last_line), "%s", line);
}

const struct fwd_fpm_sink sink = {
	s_route, s_frame, s_begin, s_done, &sl,
};

unsigned int lo;

/* A reader with lo as port 3, @p buf bytes of buffer, @p nh_max next
 * hops, a connection for input open at time 0. */
struct fwd_fpm *
mk(uint32_t buf, uint32_t nh_max)
{
	struct fwd_fpm_params p;
	const char *why;
	struct fwd_fpm *f;

	memset(&sl, 0, sizeof(sl));
	fwd_fpm_params_init(&p);
	assert_int_equal(fwd_fpm_parse_if(&p, "3,lo", &why), 0);
	p.buf_size = buf;
	p.nh_max = nh_max;
	p.log = s_line;
	p.log_ctx = &sl;
	f = fwd_fpm_create(&p, &sink);
	assert_non_null(f);
	fwd_fpm_attach(f, -1, 0);
	return f;
}

void
feed(struct fwd_fpm *f, const struct fb *b)
{
	assert_int_equal(fwd_fpm_input(f, b->b, b->len, 1), 0);
}

uint64_t
err(struct fwd_fpm *f, enum fwd_fpm_error e)
{
	struct fwd_fpm_stats s;

	fwd_fpm_stats_get(f, &s);
	return s.err[e];
}

/* Record @p i is @p op of @p dst (text) of type @p type, via @p gw
 * (NULL: none), port @p port. */
void
rec_is(unsigned int i, enum fwd_fpm_op op, const char *dst, int type,
		const char *gw, uint16_t port)
{
	const struct fwd_rt *rt = &sl.r[i].rt;
	char pfx[64], *slash;
	uint8_t a[16] = { 0 };
	int v6 = strchr(dst, ':') != NULL;

	assert_true(i < sl.n);
	assert_int_equal(sl.r[i].op, op);
	snprintf(pfx, sizeof(pfx), "%s", dst);
	slash = strchr(pfx, '/');
	*slash = '\0';
	assert_int_equal(inet_pton(v6 ? AF_INET6 : AF_INET, pfx, a), 1);
	assert_int_equal(rt->v6, v6);
	assert_int_equal(rt->depth, atoi(slash + 1));
	assert_memory_equal(rt->dst, a, 16);
	if (op == FWD_FPM_DEL)
		return;
	assert_int_equal(rt->type, type);
	assert_int_equal(rt->has_gw, gw != NULL);
	if (gw != NULL) {
		memset(a, 0, sizeof(a));
		assert_int_equal(inet_pton(v6 ? AF_INET6 : AF_INET, gw, a), 1);
		assert_memory_equal(rt->gw, a, 16);
	}
	assert_int_equal(rt->port, port);
}

