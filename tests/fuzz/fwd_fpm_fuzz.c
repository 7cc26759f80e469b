/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: npool-fwd's FPM reader (apps/fwd/ctl/fwd_fpm.h). The input
 * is a flags byte, then the TCP stream zebra would send (FPM frames of
 * netlink route and next-hop messages), fed in pieces whose size the
 * flags choose, the clock moving on between pieces and the reader polled;
 * a stream the reader closes (a bad FPM header) is taken up again on a
 * new connection, so that what follows is read too.
 *
 * Flags: bits 0-1 the piece size (1, 7, 300 bytes, all), bits 2-3 the
 * buffer (64, 200, 4096 bytes, FWD_FPM_BUF_SIZE), bit 4 a next-hop table
 * of 8 (else 4096), bits 5-6 the ms between pieces (0, 50, 400, 1000),
 * bit 7 the sink refuses every other route.
 *
 * Checked: every record the sink gets is one a route table can take (a
 * prefix masked to its length in range, IPv4 in the first 4 bytes, a
 * known type, a unicast route with a gateway or the port of --fpm-if, a
 * port "any" only with a gateway, no gateway on the others); sync_begin
 * and sync_done alternate, none left open after a quiet period; the
 * counters add up to what the sink was told (frames, routes added,
 * deleted, replaced, refused); the next hops held stay within the bound.
 * Memory: the reader holds nothing once freed (LeakSanitizer), and its
 * buffer and next-hop table are its only growth.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fwd_fpm_conn.h"
#include "fwd_fpm_stats.h"

/* What the sink saw of one input. */
struct fz_sink {
	uint64_t frames, added, deleted, replaced, refused, calls;
	unsigned int begins, dones;
	bool syncing;
	bool refuse;      /* every other route refused */
	uint64_t now;
};

static void
fz_check_rt(enum fwd_fpm_op op, const struct fwd_rt *rt)
{
	unsigned int alen = rt->v6 ? 16 : 4, i, bits;

	FZ_CHECK(op <= FWD_FPM_REPLACE, "op %d", op);
	FZ_CHECK(rt->depth <= alen * 8, "depth %u", rt->depth);
	for (i = alen; i < 16; i++)
		FZ_CHECK(rt->dst[i] == 0 && rt->gw[i] == 0,
				"IPv4 route with byte %u set", i);
	for (i = 0, bits = rt->depth; i < alen; i++, bits -= bits < 8 ? bits : 8)
		FZ_CHECK(bits >= 8 || (rt->dst[i] & (0xff >> bits)) == 0,
				"prefix /%u not masked at byte %u", rt->depth, i);
	if (op == FWD_FPM_DEL)
		return;
	FZ_CHECK(rt->type <= FWD_RT_PROHIBIT, "type %u", rt->type);
	if (rt->type != FWD_RT_UNICAST) {
		FZ_CHECK(!rt->has_gw, "a gateway on a type %u route",
				rt->type);
		return;
	}
	FZ_CHECK(rt->port == 3 || (rt->port == FWD_RT_PORT_ANY && rt->has_gw),
			"unicast route to port %u, gateway %d", rt->port,
			rt->has_gw);
}

static int
fz_route(void *ctx, enum fwd_fpm_op op, const struct fwd_rt *rt)
{
	struct fz_sink *s = ctx;

	fz_check_rt(op, rt);
	if (s->refuse && (s->calls++ & 1)) {
		s->refused++;
		return -ENOSPC;
	}
	if (op == FWD_FPM_ADD)
		s->added++;
	else if (op == FWD_FPM_DEL)
		s->deleted++;
	else
		s->replaced++;
	return 0;
}

static void
fz_frame_end(void *ctx)
{
	((struct fz_sink *)ctx)->frames++;
}

static void
fz_sync_begin(void *ctx)
{
	struct fz_sink *s = ctx;

	s->begins++;
	s->syncing = true;
}

static void
fz_sync_done(void *ctx)
{
	struct fz_sink *s = ctx;

	FZ_CHECK(s->syncing, "sync done without a sync begun");
	s->dones++;
	s->syncing = false;
}

static void
fz_log(void *ctx __attribute__((unused)), const char *line)
{
	FZ_CHECK(strlen(line) < 256, "a line of %zu bytes", strlen(line));
}

int
LLVMFuzzerInitialize(int *argc __attribute__((unused)),
		char ***argv __attribute__((unused)))
{
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t pieces[] = { 1, 7, 300, SIZE_MAX };
	static const uint32_t bufs[] = { 64, 200, 4096, FWD_FPM_BUF_SIZE };
	static const uint64_t steps[] = { 0, 50, 400, 1000 };
	struct fz_sink s = { .now = 1000 };
	struct fwd_fpm_sink sink = {
		fz_route, fz_frame_end, fz_sync_begin, fz_sync_done, &s,
	};
	struct fz_in in = { data, size };
	struct fwd_fpm_params p;
	struct fwd_fpm_stats st;
	uint32_t flags = fz_take(&in, 1);
	const char *why;
	struct fwd_fpm *f;
	size_t n;
	int rc;

	fwd_fpm_params_init(&p);
	FZ_CHECK(fwd_fpm_parse_if(&p, "3,lo", &why) == 0, "%s", why);
	p.buf_size = bufs[(flags >> 2) & 3];
	p.nh_max = flags & 16 ? 8 : 4096;
	p.log = fz_log;
	s.refuse = flags & 128;
	f = fwd_fpm_create(&p, &sink);
	FZ_CHECK(f != NULL, "fwd_fpm_create");
	fwd_fpm_attach(f, -1, s.now);
	while (in.n != 0) {
		n = pieces[flags & 3] < in.n ? pieces[flags & 3] : in.n;
		rc = fwd_fpm_input(f, in.p, n, s.now);
		in.p += n;
		in.n -= n;
		if (rc < 0) {
			/* zebra connects again. */
			fwd_fpm_attach(f, -1, s.now);
		}
		s.now += steps[(flags >> 5) & 3];
		fwd_fpm_poll(f, s.now);
		fwd_fpm_stats_get(f, &st);
		FZ_CHECK(st.nexthops <= p.nh_max, "%" PRIu64 " next hops held",
				st.nexthops);
	}
	fwd_fpm_poll(f, s.now + p.sync_ms);
	fwd_fpm_stats_get(f, &st);
	FZ_CHECK(!st.syncing && !s.syncing, "still syncing after the quiet");
	FZ_CHECK(st.frames == s.frames, "%" PRIu64 " frames, %" PRIu64
			" told", st.frames, s.frames);
	FZ_CHECK(st.routes_added == s.added && st.routes_deleted == s.deleted &&
			st.routes_replaced == s.replaced &&
			st.err[FWD_FPM_ERR_rib_refused] == s.refused,
			"counters %" PRIu64 "/%" PRIu64 "/%" PRIu64 " against %"
			PRIu64 "/%" PRIu64 "/%" PRIu64, st.routes_added,
			st.routes_deleted, st.routes_replaced, s.added,
			s.deleted, s.replaced);
	FZ_CHECK(st.connects == s.begins && st.syncs == s.dones,
			"%" PRIu64 " connects, %u begins; %" PRIu64 " syncs, %u done",
			st.connects, s.begins, st.syncs, s.dones);
	fwd_fpm_free(f);
	return 0;
}
