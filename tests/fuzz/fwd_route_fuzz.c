/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: npool-fwd's route files. The input is parsed as an IPv4 and
 * as an IPv6 route file (fwd_routes_parse(), -p 0x0000ffff0000ffff), and a
 * file that parses is added to LPM tables (fwd_routes_add()).
 *
 * Checked: the result and line number agree with the file (a bad line is
 * bad alone, the lines before it parse to the same routes); every route is
 * in range; the routes printed back as a route file re-parse to the same
 * routes; the LPM answers for each route's first, last and written address
 * are the longest-prefix match among the routes (the last of equal
 * prefixes winning; an IPv4 route inside a martian destination range holds
 * FWD_HOP_MARTIAN), the default route is the last depth-0 one; deleting
 * every route empties the tables again. The input is also parsed as a
 * multicast route file (fwd_mroutes_parse()): a file that parses holds
 * only routes the file's rules allow (docs/apps/npool-fwd.md), a bad one
 * says why.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lpm.h>
#include <rte_lpm6.h>

#include "app_compat.h"
#include "fwd.h"
#include "fwd_route.h"
#include "fwd_route_fill.h"
#include "fwd_mroute.h"
#include "fuzz_common.h"

#define FZ_PORTMASK UINT64_C(0x0000ffff0000ffff)
#define FZ_MAX_ROUTES 1024

static struct fwd_conf fz_fc;

/* Routes fwd_routes_parse() skipped (ports outside FZ_PORTMASK). */
struct fz_skips {
	unsigned int n;
	unsigned int last_line;
};

static void
fz_skip(void *ctx, unsigned int lineno, const struct fwd_route *r)
{
	struct fz_skips *k = ctx;

	FZ_CHECK(lineno > k->last_line, "skipped line %u after line %u",
			lineno, k->last_line);
	FZ_CHECK(r->port >= 64 || !((FZ_PORTMASK >> r->port) & 1),
			"line %u skipped with port %u, which is enabled",
			lineno, r->port);
	k->last_line = lineno;
	k->n++;
}

static int
fz_parse(const void *text, size_t len, bool v6, struct fwd_route_set *s,
		unsigned int *lineno, const char **why)
{
	/* fmemopen() wants a size above 0. */
	FILE *f = len != 0 ? fmemopen((void *)(uintptr_t)text, len, "r") :
		fopen("/dev/null", "r");
	struct fz_skips k = { 0, 0 };
	int rc;

	FZ_CHECK(f != NULL, "fmemopen");
	rc = fwd_routes_parse(f, v6, FZ_PORTMASK, s, lineno, why, fz_skip,
			&k);
	/* A line gives a route, a skip, or neither. */
	FZ_CHECK(s->n + k.n <= *lineno, "%u routes and %u skipped from %u lines",
			s->n, k.n, *lineno);
	fclose(f);
	return rc;
}

/* The same routes in the same order (their line numbers aside: a
 * re-printed file has no comments or blank lines). */
static void
fz_same_routes(const struct fwd_route_set *a, const struct fwd_route_set *b,
		const char *what)
{
	unsigned int i;

	FZ_CHECK(a->n == b->n, "%s: %u routes, then %u", what, a->n, b->n);
	for (i = 0; i < a->n; i++)
		FZ_CHECK(memcmp(a->r[i].ip, b->r[i].ip, sizeof(a->r[i].ip)) ==
				0 && a->r[i].depth == b->r[i].depth &&
				a->r[i].port == b->r[i].port,
				"%s: route %u differs", what, i);
}

/* Start of line @p lineno (1-based) in @p p. */
static size_t
fz_line_start(const uint8_t *p, size_t len, unsigned int lineno)
{
	size_t i = 0;

	while (--lineno > 0) {
		const uint8_t *nl = memchr(p + i, '\n', len - i);

		FZ_CHECK(nl != NULL, "line %u is not there", lineno);
		i = nl - p + 1;
	}
	return i;
}

/* Whether route @p r covers address @p a (both network order). */
static bool
fz_covers(const struct fwd_route *r, const uint8_t *a)
{
	unsigned int full = r->depth / 8, bits = r->depth % 8;

	if (memcmp(r->ip, a, full) != 0)
		return false;
	return bits == 0 || ((r->ip[full] ^ a[full]) & (0xff00 >> bits)) == 0;
}

/* Whether IPv4 route @p r lies inside a martian destination range (0/8,
 * 127/8, 224/4, 255.255.255.255): its next hop is FWD_HOP_MARTIAN. */
static bool
fz_martian4(const struct fwd_route *r)
{
	const uint8_t o = r->ip[0];

	return (r->depth >= 8 && (o == 0 || o == 127)) ||
		(r->depth >= 4 && (o & 0xf0) == 0xe0) ||
		(r->depth == 32 && memcmp(r->ip, "\xff\xff\xff\xff", 4) == 0);
}

/* Longest match among the routes, the last one of a depth: its next hop
 * (FWD_HOP_MARTIAN inside a martian range), -1 for none. */
static int
fz_expected_hop(const struct fwd_route_set *s, const uint8_t *a, bool v6)
{
	const struct fwd_route *best = NULL;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->r[i].depth > 0 &&
				(best == NULL || s->r[i].depth >= best->depth) &&
				fz_covers(&s->r[i], a))
			best = &s->r[i];
	if (best == NULL)
		return -1;
	return !v6 && fz_martian4(best) ? FWD_HOP_MARTIAN : best->port;
}

static int
fz_lookup(bool v6, const uint8_t *a)
{
	uint32_t nh, ip;
	int ret;

	memcpy(&ip, a, sizeof(ip));
	ret = v6 ? app_lpm6_lookup(fz_fc.t.lpm6, a, &nh) :
		rte_lpm_lookup(fz_fc.t.lpm4, rte_be_to_cpu_32(ip), &nh);
	return ret == 0 ? (int)nh : -1;
}

/* Route @p r's first (network), last and written address in @p a. */
static void
fz_probes(const struct fwd_route *r, bool v6, uint8_t a[3][16])
{
	unsigned int i, bytes = v6 ? 16 : 4;

	memset(a, 0, 3 * 16);
	for (i = 0; i < bytes; i++) {
		uint8_t mask = i * 8 >= r->depth ? 0 : i * 8 + 8 <= r->depth ?
			0xff : (uint8_t)(0xff00 >> (r->depth - i * 8));

		a[0][i] = r->ip[i] & mask;
		a[1][i] = r->ip[i] | (uint8_t)~mask;
		a[2][i] = r->ip[i];
	}
}

static void
fz_check_lpm(const struct fwd_route_set *s, bool v6)
{
	int32_t def = -1, *got_def = v6 ? &fz_fc.t.def6 : &fz_fc.t.def4;
	uint8_t a[3][16];
	unsigned int i, k, failed;
	uint32_t ip;
	int ret;

	*got_def = -1;
	ret = fwd_routes_add(&fz_fc, s, v6, &failed);
	FZ_CHECK(ret == 0, "LPM add of route %u: %d", failed, ret);
	for (i = 0; i < s->n; i++)
		if (s->r[i].depth == 0)
			def = s->r[i].port;
	FZ_CHECK(*got_def == def, "default route %d, expected %d", *got_def,
			def);
	for (i = 0; i < s->n; i++) {
		fz_probes(&s->r[i], v6, a);
		for (k = 0; k < 3; k++)
			FZ_CHECK(fz_lookup(v6, a[k]) == fz_expected_hop(s, a[k], v6),
					"route %u probe %u: LPM %d, expected %d",
					i, k, fz_lookup(v6, a[k]),
					fz_expected_hop(s, a[k], v6));
	}
	for (i = 0; i < s->n; i++) {
		if (s->r[i].depth == 0)
			continue;
		fz_probes(&s->r[i], v6, a);
		memcpy(&ip, a[0], sizeof(ip));
		/* A prefix given twice is gone after the first delete. */
		ret = v6 ? app_lpm6_delete(fz_fc.t.lpm6, a[0], s->r[i].depth) :
			rte_lpm_delete(fz_fc.t.lpm4, rte_be_to_cpu_32(ip),
					s->r[i].depth);
		FZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOENT,
				"LPM delete: %d", ret);
	}
	for (i = 0; i < s->n; i++) {
		fz_probes(&s->r[i], v6, a);
		for (k = 0; k < 3; k++)
			FZ_CHECK(fz_lookup(v6, a[k]) == -1,
					"route %u still there after delete", i);
	}
}

/* Leave in @p s the routes with a port: one by a gateway alone
 * (FWD_RT_PORT_ANY) is placed by the control side, on the port whose
 * prefix holds its gateway (fwd_ctl_route.c; kernel-cast routes by one),
 * not by the tables this target checks. */
static void
fz_port_routes(struct fwd_route_set *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->n; i++)
		if (s->r[i].port != FWD_RT_PORT_ANY)
			s->r[n++] = s->r[i];
	s->n = n;
}

/* The routes printed back as a route file parse to the same routes. */
static void
fz_round_trip(const struct fwd_route_set *s, bool v6)
{
	struct fwd_route_set again = { NULL, 0, 0 };
	char addr[INET6_ADDRSTRLEN];
	const char *why;
	unsigned int i, lineno;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	FZ_CHECK(f != NULL, "open_memstream");
	for (i = 0; i < s->n; i++) {
		FZ_CHECK(inet_ntop(v6 ? AF_INET6 : AF_INET, s->r[i].ip, addr,
				sizeof(addr)) != NULL, "inet_ntop");
		fprintf(f, "R%s/%u %u\n", addr, s->r[i].depth, s->r[i].port);
	}
	fclose(f);
	FZ_CHECK(fz_parse(text, len, v6, &again, &lineno, &why) == 0,
			"printed routes do not parse: line %u: %s", lineno,
			why != NULL ? why : "read error");
	fz_same_routes(s, &again, "printed and parsed again");
	free(again.r);
	free(text);
}

static void
fz_family(const uint8_t *data, size_t size, bool v6)
{
	struct fwd_route_set s = { NULL, 0, 0 }, t = { NULL, 0, 0 };
	unsigned int lineno, lineno2, lines = 0, i;
	const char *why, *why2;
	size_t k, start;
	int rc;

	for (k = 0; k < size; k++)
		lines += data[k] == '\n';
	lines += size != 0 && data[size - 1] != '\n';
	rc = fz_parse(data, size, v6, &s, &lineno, &why);
	FZ_CHECK(rc == 0 || rc == -1, "parse: %d", rc);
	FZ_CHECK(rc == 0 ? why == NULL && lineno == lines :
			why != NULL && lineno >= 1 && lineno <= lines,
			"line %u of %u, why %s", lineno, lines,
			why != NULL ? why : "(none)");
	FZ_CHECK(s.n <= lineno, "%u routes from %u lines", s.n, lineno);
	for (i = 0; i < s.n; i++) {
		static const uint8_t zero[12];
		const struct fwd_route *r = &s.r[i];

		/* A port of the mask, or any by a gateway (the port whose
		 * prefix holds it, found when the routes are placed). */
		FZ_CHECK(r->depth <= (v6 ? 128 : 32) &&
				(r->port < 64 ? (FZ_PORTMASK >> r->port) & 1 :
				r->port == FWD_RT_PORT_ANY && r->has_gw) &&
				(v6 || memcmp(r->ip + 4, zero, 12) == 0),
				"route %u: depth %u port %u", i, r->depth,
				r->port);
	}
	if (rc == -1) {
		/* The lines before the bad one give the same routes... */
		start = fz_line_start(data, size, lineno);
		FZ_CHECK(fz_parse(data, start, v6, &t, &lineno2, &why2) == 0,
				"the lines before bad line %u fail at %u",
				lineno, lineno2);
		fz_same_routes(&s, &t, "lines before the bad one");
		/* ... and the bad line fails alone, for the same reason. */
		t.n = 0;
		FZ_CHECK(fz_parse(data + start, size - start, v6, &t, &lineno2,
				&why2) == -1 && lineno2 == 1 && why2 == why,
				"bad line %u alone: line %u, %s", lineno,
				lineno2, why2 != NULL ? why2 : "(passes)");
	}
	fz_port_routes(&s);
	fz_round_trip(&s, v6);
	if (rc == 0 && s.n <= FZ_MAX_ROUTES)
		fz_check_lpm(&s, v6);
	free(s.r);
	free(t.r);
}

/* The input as a --mroute file: each route within the rules. */
static void
fz_mroutes(const uint8_t *data, size_t size)
{
	static const uint8_t zero[15];
	FILE *f = size != 0 ? fmemopen((void *)(uintptr_t)data, size, "r") :
		fopen("/dev/null", "r");
	struct fwd_mroute_set s = { NULL, 0, 0 };
	const struct fwd_mroute *r;
	unsigned int lineno, i, p;
	const char *why;
	int rc;

	FZ_CHECK(f != NULL, "fmemopen");
	rc = fwd_mroutes_parse(f, FZ_PORTMASK, &s, &lineno, &why);
	fclose(f);
	FZ_CHECK(rc == 0 ? why == NULL : rc == -1 && why != NULL,
			"mroutes: rc %d, why %s", rc, why ? why : "(none)");
	FZ_CHECK(s.n <= FWD_MROUTE_MAX, "%u multicast routes", s.n);
	for (i = 0; i < s.n; i++) {
		r = &s.r[i];
		FZ_CHECK(r->line >= 1 && r->line <= lineno &&
				(i == 0 || r->line > s.r[i - 1].line),
				"mroute %u: line %u", i, r->line);
		FZ_CHECK(r->v6 ? r->grp[0] == 0xff && (r->grp[1] & 15) > 2 :
				(r->grp[0] & 0xf0) == 0xe0 &&
				!(r->grp[0] == 224 && r->grp[1] == 0 &&
				  r->grp[2] == 0),
				"mroute %u: group not routable", i);
		FZ_CHECK(r->any_src || (r->v6 ? r->src[0] != 0xff &&
				!(memcmp(r->src, zero, 15) == 0 &&
				  r->src[15] <= 1) :
				r->src[0] != 0 && r->src[0] != 127 &&
				r->src[0] < 224), "mroute %u: source", i);
		FZ_CHECK(r->oifs != 0 && (r->oifs & ~FZ_PORTMASK) == 0 &&
				!((r->oifs >> r->in_port) & 1) &&
				((FZ_PORTMASK >> r->in_port) & 1),
				"mroute %u: ports", i);
		for (p = 0; p < 64; p++)
			FZ_CHECK(!((r->oifs >> p) & 1) ||
					(r->ttl[p] >= 1 && r->ttl[p] <= 254),
					"mroute %u: port %u threshold %u", i, p,
					r->ttl[p]);
	}
	free(s.r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_family(data, size, false);
	fz_family(data, size, true);
	fz_mroutes(data, size);
	return 0;
}

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	const struct rte_lpm_config c4 = {
		.max_rules = FZ_MAX_ROUTES,
		.number_tbl8s = FZ_MAX_ROUTES,
	};
	/* A /128 takes up to 13 tbl8 groups. */
	const struct rte_lpm6_config c6 = {
		.max_rules = FZ_MAX_ROUTES,
		.number_tbl8s = 14 * FZ_MAX_ROUTES,
	};

	fz_eal_init("fwd_route", 0, NULL);
	fz_fc.t.lpm4 = rte_lpm_create("fz_lpm4", SOCKET_ID_ANY, &c4);
	fz_fc.t.lpm6 = rte_lpm6_create("fz_lpm6", SOCKET_ID_ANY, &c6);
	FZ_CHECK(fz_fc.t.lpm4 != NULL && fz_fc.t.lpm6 != NULL, "LPM tables");
	fz_fc.t.portmask = FZ_PORTMASK;
	return 0;
}
