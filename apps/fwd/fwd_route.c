/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route tables of npool-fwd: l3fwd's route files (--rule_ipv4/--rule_ipv6,
 * "R<prefix>/<depth> <port>" a line, '#' comments) or, per family without
 * a file, l3fwd's default tables; loaded into rte_lpm / rte_lpm6 or, with
 * --lookup fib, rte_fib / rte_fib6. Depth 0 is the default route, kept
 * apart: rte_lpm has no depth 0, and rte_fib's default next hop is set at
 * creation, where it stands for "no route" (FWD_FIB_MISS).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_malloc.h>

#include "app_cli.h"
#include "app_compat.h"
#include "fwd_addr.h"
#include "fwd_addr_cli.h"
#include "fwd_em.h"
#include "fwd_route.h"
#include "fwd_route_fill.h"
#include "fwd_vec.h"

/* l3fwd (examples/l3fwd/main.c, DPDK 22.11): 198.18.N.0/24 and
 * 2001:200:0:N::/64 -> port N for N = 0..15, no default route. */
#define L3FWD_DEFAULT_ROUTES 16

static int
set_add(struct fwd_route_set *s, const struct fwd_route *r)
{
	return fwd_vec_push(&s->r, &s->n, &s->cap, sizeof(*r), r);
}

static int
default_table(struct fwd_route_set *s, bool v6)
{
	struct fwd_route r;
	unsigned int i;

	for (i = 0; i < L3FWD_DEFAULT_ROUTES; i++) {
		memset(&r, 0, sizeof(r));
		if (v6) {
			r.ip[0] = 0x20;
			r.ip[1] = 0x01;
			r.ip[2] = 0x02;
			r.ip[7] = (uint8_t)i;
			r.depth = 64;
		} else {
			r.ip[0] = 198;
			r.ip[1] = 18;
			r.ip[2] = (uint8_t)i;
			r.depth = 24;
		}
		r.port = (uint16_t)i;
		r.origin = FWD_RT_FILE;
		if (set_add(s, &r) < 0)
			return -1;
	}
	return 0;
}

/* The route types a line may name in place of a port. */
static const struct {
	const char *name;
	uint8_t type;
} route_types[] = {
	{ "blackhole", FWD_RT_BLACKHOLE },
	{ "unreachable", FWD_RT_UNREACHABLE },
	{ "prohibit", FWD_RT_PROHIBIT },
};

/* What follows the prefix: "<port>", "<port> via <addr>", "via <addr>",
 * or a route type. 0, or -1 with @p why. */
static int
parse_target(char **tok, unsigned int ntok, bool v6, struct fwd_route *r,
		const char **why)
{
	unsigned long hop;
	unsigned int i = 0, k;

	r->port = FWD_RT_PORT_ANY;
	r->type = FWD_RT_UNICAST;
	for (k = 0; ntok == 1 && k < RTE_DIM(route_types); k++)
		if (strcmp(tok[0], route_types[k].name) == 0) {
			r->type = route_types[k].type;
			r->port = 0;
			return 0;
		}
	if (ntok == 1 || ntok == 3) {
		if (fwd_parse_dec(tok[0], UINT8_MAX, &hop) < 0) {
			*why = "bad port (0..255)";
			return -1;
		}
		r->port = (uint16_t)hop;
		i = 1;
	}
	if (i == ntok)
		return 0;
	if (ntok - i != 2 || strcmp(tok[i], "via") != 0)
		return -1;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, tok[i + 1], r->gw) != 1) {
		*why = v6 ? "bad IPv6 gateway" : "bad IPv4 gateway";
		return -1;
	}
	r->has_gw = true;
	return 0;
}

/*
 * One line without its newline: 1 when it holds no rule, 0 for a rule in
 * @p r, 2 for a rule in @p r to a port outside @p portmask, -1 with a
 * message in @p why.
 */
static int
parse_line(char *line, bool v6, uint64_t portmask, struct fwd_route *r,
		const char **why)
{
	char *p, *pfx, *tok[4], *slash, *sp;
	unsigned long depth;
	unsigned int n;

	p = strchr(line, '#');
	if (p != NULL)
		*p = '\0';
	for (p = line; isspace((unsigned char)*p); p++)
		;
	if (*p == '\0')
		return 1;
	*why = "bad route line (want R<prefix>/<depth> <port> [via <addr>], R<prefix>/<depth> via <addr>, or R<prefix>/<depth> blackhole|unreachable|prohibit)";
	if (*p++ != 'R')
		return -1;
	pfx = strtok_r(p, " \t\r\n", &sp);
	for (n = 0; n < RTE_DIM(tok); n++) {
		tok[n] = strtok_r(NULL, " \t\r\n", &sp);
		if (tok[n] == NULL)
			break;
	}
	if (pfx == NULL || n == 0 || n == RTE_DIM(tok))
		return -1;
	slash = strchr(pfx, '/');
	if (slash == NULL)
		return -1;
	*slash = '\0';
	memset(r, 0, sizeof(*r));
	if (inet_pton(v6 ? AF_INET6 : AF_INET, pfx, r->ip) != 1) {
		*why = v6 ? "bad IPv6 prefix" : "bad IPv4 prefix";
		return -1;
	}
	if (fwd_parse_dec(slash + 1, v6 ? 128 : 32, &depth) < 0) {
		*why = v6 ? "bad depth (0..128)" : "bad depth (0..32)";
		return -1;
	}
	r->depth = (uint8_t)depth;
	r->origin = FWD_RT_FILE;
	if (parse_target(tok, n, v6, r, why) < 0)
		return -1;
	return r->type != FWD_RT_UNICAST || r->port == FWD_RT_PORT_ANY ||
		(r->port < 64 && (portmask & (UINT64_C(1) << r->port))) ? 0 : 2;
}

/* What fwd_routes_parse() reads a file with. */
struct parse_ctx {
	bool v6;
	uint64_t portmask;
	struct fwd_route_set *s;
	fwd_route_skip_t skip;
	void *ctx;
};

/* fwd_line_t of fwd_routes_parse(). */
static int
route_line(void *arg, char *line, unsigned int lineno, const char **why)
{
	struct parse_ctx *c = arg;
	struct fwd_route r;
	int rc;

	rc = parse_line(line, c->v6, c->portmask, &r, why);
	r.line = lineno;
	if (rc == 0 && set_add(c->s, &r) < 0) {
		*why = "out of memory";
		rc = -1;
	}
	if (rc == 2 && c->skip != NULL)
		c->skip(c->ctx, lineno, &r);
	return rc > 0 ? 0 : rc;
}

int
fwd_routes_parse(FILE *f, bool v6, uint64_t portmask,
		struct fwd_route_set *s, unsigned int *lineno, const char **why,
		fwd_route_skip_t skip, void *ctx)
{
	struct parse_ctx c = { v6, portmask, s, skip, ctx };

	return fwd_read_lines(f, route_line, &c, lineno, why);
}

/* What load_file() tells of the routes it skips. */
struct skip_ctx {
	const char *path;
	bool v6;
	unsigned int n;
};

/* A warning per skipped route line, naming file:line. */
static void
warn_skip(void *arg, unsigned int lineno, const struct fwd_route *r)
{
	struct skip_ctx *c = arg;
	char addr[INET6_ADDRSTRLEN];

	if (inet_ntop(c->v6 ? AF_INET6 : AF_INET, r->ip, addr,
			sizeof(addr)) == NULL)
		snprintf(addr, sizeof(addr), "?");
	app_err("warning: %s:%u: route %s/%u to port %u skipped: port %u is not enabled in -p (its packets follow the other routes)",
			c->path, lineno, addr, r->depth, r->port, r->port);
	c->n++;
}

/* Hash key of a route: its prefix masked to its depth, and the depth. */
struct route_key {
	uint8_t ip[16];
	uint8_t depth;
};

static void
route_key(const struct fwd_route *r, struct route_key *k)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->ip, r->ip, sizeof(k->ip));
	fwd_rt_mask(k->ip, r->depth);
	k->depth = r->depth;
}

/*
 * A prefix given twice in a route file: rte_lpm_add() keeps the later
 * port, as l3fwd does, silently. Say so per line, naming the line it
 * replaces (the previous one with that prefix).
 * Returns how many lines repeat a prefix, or -1 (no memory for the
 * table: nothing checked).
 */
static int
warn_duplicates(const struct fwd_route_set *s, const char *path, bool v6)
{
	static unsigned int seq;
	char name[RTE_HASH_NAMESIZE], addr[INET6_ADDRSTRLEN];
	struct rte_hash_parameters hp = {
		.name = name,
		.entries = RTE_MAX(s->n, 8u),
		.key_len = sizeof(struct route_key),
		.socket_id = SOCKET_ID_ANY,
	};
	struct rte_hash *h;
	struct route_key k;
	unsigned int i, n = 0;
	void *prev;

	if (s->n < 2)
		return 0;
	snprintf(name, sizeof(name), "fwd_dup%u", seq++);
	h = rte_hash_create(&hp);
	if (h == NULL)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct fwd_route *r = &s->r[i], *before;

		route_key(r, &k);
		if (rte_hash_lookup_data(h, &k, &prev) >= 0) {
			before = &s->r[(uintptr_t)prev];
			if (inet_ntop(v6 ? AF_INET6 : AF_INET, k.ip, addr,
					sizeof(addr)) == NULL)
				snprintf(addr, sizeof(addr), "?");
			app_err("warning: %s:%u: route %s/%u given again (before at line %u): port %u replaces port %u",
					path, r->line, addr, r->depth,
					before->line, r->port, before->port);
			n++;
		}
		if (rte_hash_add_key_data(h, &k, (void *)(uintptr_t)i) < 0) {
			rte_hash_free(h);
			return -1;
		}
	}
	rte_hash_free(h);
	return (int)n;
}

static int
load_file(struct fwd_route_set *s, const char *path, bool v6,
		uint64_t portmask, unsigned int *skipped, int *repeated)
{
	struct skip_ctx sc = { path, v6, 0 };
	struct parse_ctx c = { v6, portmask, s, warn_skip, &sc };

	if (fwd_read_file(v6 ? "--rule_ipv6" : "--rule_ipv4", path,
			route_line, &c) < 0)
		return -1;
	*skipped = sc.n;
	if ((*repeated = warn_duplicates(s, path, v6)) < 0)
		app_err("warning: %s: no memory to look for repeated prefixes",
				path);
	return 0;
}

/* What load_family() counted of a family's routes, for its line. */
struct family_counts {
	unsigned int skipped;
	int repeated;
	int connected;
	int own;
};

/* Append @p from to @p s (freed); -1 out of memory. */
static int
set_cat(struct fwd_route_set *s, struct fwd_route_set *from)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; rc == 0 && i < from->n; i++)
		rc = set_add(s, &from->r[i]);
	free(from->r);
	memset(from, 0, sizeof(*from));
	return rc;
}

/* The routes of one family, in the order they go into the tables (a
 * later route of a prefix replaces an earlier one): a file's routes
 * after the connected prefixes (what the file says wins), l3fwd's table
 * without a file before them (a port's own prefix stays on its link, as
 * Linux has it), the router's own addresses last. */
static int
load_family(struct fwd_conf *fc, bool v6, struct fwd_route_set *s,
		struct family_counts *fcn)
{
	const char *path = v6 ? fc->rule6 : fc->rule4;
	struct fwd_route_set f = { NULL, 0, 0 }, c = { NULL, 0, 0 };
	int rc = 0;

	memset(fcn, 0, sizeof(*fcn));
	if (fc->addrs != NULL)
		fcn->connected = fwd_addr_connected(fc->addrs, fc->t.portmask,
				&c, v6);
	if (path != NULL)
		rc = load_file(&f, path, v6, fc->t.portmask, &fcn->skipped,
				&fcn->repeated);
	else if (default_table(&f, v6) < 0) {
		app_err("out of memory");
		rc = -2;
	}
	if (rc == 0 && (set_cat(s, path != NULL ? &c : &f) < 0 ||
			set_cat(s, path != NULL ? &f : &c) < 0)) {
		app_err("out of memory");
		rc = -2;
	}
	free(f.r);
	free(c.r);
	/* The router's own addresses: host routes to FWD_HOP_LOCAL. */
	if (rc == 0 && fc->addrs != NULL)
		fcn->own = fwd_addr_routes(fc->addrs, s, v6);
	if (rc == 0 && (fcn->connected < 0 || fcn->own < 0)) {
		app_err("out of memory");
		rc = -2;
	}
	return rc;
}

/* Whether @p s holds a default route (depth 0). */
static bool
fwd_route_set_has_default(const struct fwd_route_set *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->r[i].depth == 0)
			return true;
	return false;
}

/* The family's line: what it loaded. */
static void
print_family(const struct fwd_conf *fc, bool v6,
		const struct fwd_route_set *s, const struct family_counts *fcn)
{
	const char *path = v6 ? fc->rule6 : fc->rule4;
	const int32_t def = v6 ? fc->t.def6 : fc->t.def4;
	char dflt[32] = "none", skip[64] = "", rep[48] = "";

	if (def == FWD_HOP_BAD)
		snprintf(dflt, sizeof(dflt), "to a port not in -p");
	else if (def >= 0)
		snprintf(dflt, sizeof(dflt), "to port %d", (int)def);
	else if (fc->live && fwd_route_set_has_default(s))
		snprintf(dflt, sizeof(dflt), "by a gateway");
	if (fcn->skipped != 0)
		snprintf(skip, sizeof(skip), " (%u skipped: ports not in -p)",
				fcn->skipped);
	if (fcn->repeated > 0)
		snprintf(rep, sizeof(rep), " (%d repeat an earlier prefix)",
				fcn->repeated);
	printf("routes IPv%c: %u from %s%s%s, default route %s",
			v6 ? '6' : '4', s->n - fcn->own - fcn->connected,
			path != NULL ? path : "l3fwd's default table", skip,
			rep, dflt);
	if (fcn->connected > 0)
		printf(", %d connected", fcn->connected);
	if (fcn->own > 0)
		printf(", %d of the router's own", fcn->own);
	printf("\n");
}

/* Whether the routes need the control side: a route by a gateway. */
static bool
set_has_gw(const struct fwd_route_set *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->r[i].has_gw)
			return true;
	return false;
}

int
fwd_routes_load(struct fwd_conf *fc)
{
	struct fwd_route_set s[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	struct family_counts fcn[2];
	int rc, v6;

	/* The next hops the routes below name (fwd_nh.h); the ports' own
	 * are filled with their MACs (fwd_tables_l2_prepare()). */
	if (fc->t.nht == NULL) {
		fc->t.nht = rte_zmalloc_socket("fwd_nht", sizeof(*fc->t.nht),
				RTE_CACHE_LINE_SIZE, fc->socket_id);
		if (fc->t.nht == NULL) {
			app_err("next-hop table: %s (EAL memory: -m)",
					rte_strerror(rte_errno));
			return -2;
		}
	}
	/* The addresses the routes below hold, as the pipeline reads them. */
	fc->t.addrs = fc->addrs;
	fwd_tables_octets_prepare(&fc->t);
	if (fc->t.lookup == FWD_LOOKUP_EM)
		return fwd_em_load(fc);
	fc->t.def4 = -1;
	fc->t.def6 = -1;
	rc = load_family(fc, false, &s[0], &fcn[0]);
	if (rc == 0)
		rc = load_family(fc, true, &s[1], &fcn[1]);
	/* Gateways placed by the control side: the tables change while
	 * running (so do they when ports resolve neighbours: main()). */
	fc->live = fc->live || set_has_gw(&s[0]) || set_has_gw(&s[1]);
	for (v6 = 0; rc == 0 && v6 < 2; v6++) {
		rc = fwd_routes_fill(fc, &s[v6], v6);
		if (rc == 0)
			print_family(fc, v6, &s[v6], &fcn[v6]);
	}
	/* Kept for the tables of other sockets (fwd_routes_copy()) and the
	 * control side. */
	for (v6 = 0; v6 < 2; v6++) {
		if (!fc->routes_shared)
			free(fc->routes[v6].r);
		fc->routes[v6] = s[v6];
	}
	fc->routes_shared = false;
	if (rc == 0 && fc->t.lookup == FWD_LOOKUP_FIB)
		printf("route lookup: fib (rte_fib DIR24_8 %s, rte_fib6 TRIE %s)\n",
				fc->fib_vec4 ? "AVX512" : "scalar",
				fc->fib_vec6 ? "AVX512" : "scalar");
	else if (rc == 0)
		printf("route lookup: lpm (rte_lpm, rte_lpm6)\n");
	return rc;
}

int
fwd_routes_copy(struct fwd_conf *dst, const struct fwd_conf *src,
		int socket)
{
	int rc;

	*dst = *src;
	dst->socket_id = socket;
	dst->routes_shared = true;
	dst->t.lpm4 = NULL;
	dst->t.lpm6 = NULL;
	dst->t.fib4 = NULL;
	dst->t.fib6 = NULL;
	dst->t.em4 = NULL;
	dst->t.em6 = NULL;
	if (dst->t.lookup == FWD_LOOKUP_EM)
		return fwd_em_fill(dst);
	rc = fwd_routes_fill(dst, &src->routes[0], false);
	if (rc == 0)
		rc = fwd_routes_fill(dst, &src->routes[1], true);
	if (rc != 0)
		fwd_routes_free_tables(dst);
	return rc;
}

void
fwd_routes_free(struct fwd_conf *fc)
{
	fwd_routes_free_tables(fc);
	fwd_em_free(fc, false);
	if (!fc->routes_shared) {
		free(fc->routes[0].r);
		free(fc->routes[1].r);
		rte_free(fc->t.nht);
	}
	fc->t.nht = NULL;
	memset(fc->routes, 0, sizeof(fc->routes));
}
