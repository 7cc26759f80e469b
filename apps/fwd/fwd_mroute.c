/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's multicast routes, the control side (fwd_mcast.h): the route
 * file (--mroute), the (family, source, group) hash, the per-lcore
 * counters and what the report, --json and telemetry say of them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_malloc.h>
#include <rte_telemetry.h>

#include "app_cli.h"
#include "app_compat.h"
#include "app_json.h"
#include "fwd_mroute.h"
#include "fwd_vec.h"

/* A port of -p @p portmask: 0, or -1 with @p why. */
static int
port_of(const char *s, uint64_t portmask, uint16_t *port, const char **why)
{
	unsigned long v;

	if (fwd_parse_dec(s, RTE_MIN(RTE_MAX_ETHPORTS, 64) - 1, &v) < 0) {
		*why = "bad port";
		return -1;
	}
	if (!((portmask >> v) & 1)) {
		*why = "port not enabled in -p";
		return -1;
	}
	*port = (uint16_t)v;
	return 0;
}

/* An address of the route's family (the first one sets it). */
static int
addr_of(const char *s, struct fwd_mroute *r, bool *fam_set, uint8_t *ip,
		const char **why)
{
	const bool v6 = strchr(s, ':') != NULL;

	if (*fam_set && v6 != r->v6) {
		*why = "source and group of different families";
		return -1;
	}
	if (inet_pton(v6 ? AF_INET6 : AF_INET, s, ip) != 1) {
		*why = "bad address";
		return -1;
	}
	r->v6 = v6;
	*fam_set = true;
	return 0;
}

/* The output ports "PORT[:TTL]..." from @p sp on. */
static int
oifs_of(char **sp, uint64_t portmask, struct fwd_mroute *r,
		const char **why)
{
	unsigned long ttl;
	char *tok, *colon;
	uint16_t p;

	while ((tok = strtok_r(NULL, " \t\r\n", sp)) != NULL) {
		colon = strchr(tok, ':');
		ttl = 1;
		if (colon != NULL) {
			*colon = '\0';
			if (fwd_parse_dec(colon + 1, 254, &ttl) < 0 || ttl == 0) {
				*why = "bad TTL threshold (1..254)";
				return -1;
			}
		}
		if (port_of(tok, portmask, &p, why) < 0)
			return -1;
		if (p == r->in_port || ((r->oifs >> p) & 1)) {
			*why = p == r->in_port ?
				"output port is the input port" :
				"output port given twice";
			return -1;
		}
		r->oifs |= UINT64_C(1) << p;
		r->ttl[p] = (uint8_t)ttl;
	}
	if (r->oifs == 0) {
		*why = "no output port";
		return -1;
	}
	return 0;
}

/* Whether the route's group is routable and its source a unicast one. */
static int
check_addrs(const struct fwd_mroute *r, const char **why)
{
	static const uint8_t zero[16];
	const uint8_t *g = r->grp, *s = r->src;

	if (r->v6 ? g[0] != 0xff || (g[1] & 0x0f) <= 2 :
			(g[0] & 0xf0) != 0xe0 ||
			(g[0] == 224 && g[1] == 0 && g[2] == 0)) {
		*why = r->v6 ? "not a routable group (ff00::/8, scope above link-local)" :
			"not a routable group (224.0.0.0/4 but 224.0.0.0/24)";
		return -1;
	}
	if (!r->any_src && (r->v6 ?
			s[0] == 0xff || (memcmp(s, zero, 15) == 0 && s[15] <= 1) :
			s[0] == 0 || s[0] == 127 || s[0] >= 224)) {
		*why = "not a unicast source";
		return -1;
	}
	return 0;
}

/* One line: 1 when it holds no route, 0 for a route in @p r, -1. */
static int
parse_line(char *line, uint64_t portmask, struct fwd_mroute *r,
		const char **why)
{
	char *p, *tok, *sp;
	bool fam = false;

	p = strchr(line, '#');
	if (p != NULL)
		*p = '\0';
	memset(r, 0, sizeof(*r));
	*why = "bad route line (want mroute from PORT [source ADDR] group GROUP to PORT[:TTL]...)";
	tok = strtok_r(line, " \t\r\n", &sp);
	if (tok == NULL)
		return 1;
	if (strcmp(tok, "mroute") != 0 ||
			(tok = strtok_r(NULL, " \t\r\n", &sp)) == NULL ||
			strcmp(tok, "from") != 0 ||
			(tok = strtok_r(NULL, " \t\r\n", &sp)) == NULL)
		return -1;
	if (port_of(tok, portmask, &r->in_port, why) < 0)
		return -1;
	tok = strtok_r(NULL, " \t\r\n", &sp);
	r->any_src = true;
	if (tok != NULL && strcmp(tok, "source") == 0) {
		tok = strtok_r(NULL, " \t\r\n", &sp);
		if (tok == NULL || addr_of(tok, r, &fam, r->src, why) < 0)
			return -1;
		r->any_src = false;
		tok = strtok_r(NULL, " \t\r\n", &sp);
	}
	if (tok == NULL || strcmp(tok, "group") != 0 ||
			(tok = strtok_r(NULL, " \t\r\n", &sp)) == NULL ||
			addr_of(tok, r, &fam, r->grp, why) < 0)
		return -1;
	tok = strtok_r(NULL, " \t\r\n", &sp);
	if (tok == NULL || strcmp(tok, "to") != 0)
		return -1;
	if (oifs_of(&sp, portmask, r, why) < 0)
		return -1;
	return check_addrs(r, why);
}

/* fwd_line_t of fwd_mroutes_parse(). */
struct parse_ctx {
	uint64_t portmask;
	struct fwd_mroute_set *s;
};

static int
mroute_line(void *arg, char *line, unsigned int lineno, const char **why)
{
	struct parse_ctx *c = arg;
	struct fwd_mroute r;
	int rc = parse_line(line, c->portmask, &r, why);

	r.line = lineno;
	if (rc == 0 && c->s->n == FWD_MROUTE_MAX) {
		*why = "too many routes";
		rc = -1;
	} else if (rc == 0 && fwd_vec_push(&c->s->r, &c->s->n, &c->s->cap,
			sizeof(r), &r) < 0) {
		*why = "out of memory";
		rc = -1;
	}
	return rc > 0 ? 0 : rc;
}

int
fwd_mroutes_parse(FILE *f, uint64_t portmask, struct fwd_mroute_set *s,
		unsigned int *lineno, const char **why)
{
	struct parse_ctx c = { portmask, s };

	return fwd_read_lines(f, mroute_line, &c, lineno, why);
}

/* The hash of the routes; -1 naming the line of a route given twice. */
static int
make_hash(struct fwd_mroutes *mr)
{
	static unsigned int seq;
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.entries = RTE_MAX(2 * mr->s.n, 8u),
		.key_len = sizeof(struct fwd_mroute_key),
		.socket_id = SOCKET_ID_ANY,
	};
	struct fwd_mroute_key k;
	unsigned int i;
	void *prev;

	snprintf(name, sizeof(name), "fwd_mroute%u", seq++);
	mr->h = rte_hash_create(&hp);
	if (mr->h == NULL) {
		app_err("--mroute: no memory for the route table: %s",
				rte_strerror(rte_errno));
		return -2;
	}
	for (i = 0; i < mr->s.n; i++) {
		const struct fwd_mroute *r = &mr->s.r[i];

		fwd_mroute_key(&k, r->v6, r->src, r->grp);
		if (rte_hash_lookup_data(mr->h, &k, &prev) >= 0) {
			app_err("%s:%u: route given again (before at line %u)",
					mr->path, r->line,
					mr->s.r[(uintptr_t)prev].line);
			return -1;
		}
		if (rte_hash_add_key_data(mr->h, &k,
				(void *)(uintptr_t)i) < 0) {
			app_err("--mroute: no memory for the route table");
			return -2;
		}
	}
	return 0;
}

/* The counters of each lcore EAL runs, and of other threads. */
static int
make_ctrs(struct fwd_mroutes *mr)
{
	const size_t sz = sizeof(struct fwd_mroute_ctr) * RTE_MAX(mr->s.n, 1u);
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore) {
		mr->ctr[lcore] = rte_zmalloc("fwd_mroute_ctr", sz,
				RTE_CACHE_LINE_SIZE);
		if (mr->ctr[lcore] == NULL)
			return -2;
	}
	mr->ctr[RTE_MAX_LCORE] = rte_zmalloc("fwd_mroute_ctr", sz,
			RTE_CACHE_LINE_SIZE);
	return mr->ctr[RTE_MAX_LCORE] == NULL ? -2 : 0;
}

/* The table telemetry reads (the run's; one at a time). */
static const struct fwd_mroutes *tel_mr;

static int tel_mroutes(const char *cmd, const char *params,
		struct rte_tel_data *d);
static int tel_mroute(const char *cmd, const char *params,
		struct rte_tel_data *d);

int
fwd_mroutes_load(struct fwd_conf *fc, const char *path)
{
	struct fwd_mroutes *mr = calloc(1, sizeof(*mr));
	static bool registered;
	struct parse_ctx c = { fc->t.portmask, NULL };
	unsigned int n4 = 0, i;
	int rc;

	if (mr == NULL || (mr->path = strdup(path)) == NULL) {
		free(mr);
		app_err("--mroute: out of memory");
		return -2;
	}
	fc->t.mroutes = mr;
	c.s = &mr->s;
	if (fwd_read_file("--mroute", path, mroute_line, &c) < 0)
		return -1;
	rc = make_hash(mr);
	if (rc == 0 && make_ctrs(mr) < 0) {
		app_err("--mroute: no memory for the route counters");
		rc = -2;
	}
	if (rc != 0)
		return rc;
	for (i = 0; i < mr->s.n; i++)
		n4 += !mr->s.r[i].v6;
	printf("multicast routes: %u from %s (%u IPv4, %u IPv6)\n", mr->s.n,
			path, n4, mr->s.n - n4);
	tel_mr = mr;
	if (!registered) {
		registered = true;
		rte_telemetry_register_cmd("/fwd/mroutes", tel_mroutes,
			"npool-fwd's multicast routes: their number; pkts, bytes, copies, wrong_if of 128 from index first. Parameters: first (0)");
		rte_telemetry_register_cmd("/fwd/mroute", tel_mroute,
			"One multicast route of npool-fwd: source, group, ports, thresholds, counters. Parameters: route index");
	}
	return 0;
}

void
fwd_mroutes_free(struct fwd_conf *fc)
{
	struct fwd_mroutes *mr = fc->t.mroutes;
	unsigned int i;

	if (mr == NULL)
		return;
	if (tel_mr == mr)
		tel_mr = NULL;
	rte_hash_free(mr->h);
	for (i = 0; i <= RTE_MAX_LCORE; i++)
		rte_free(mr->ctr[i]);
	free(mr->s.r);
	free(mr->path);
	free(mr);
	fc->t.mroutes = NULL;
}

/* The counters of a route, in the order every output shows them. */
static const struct {
	const char *name;
	size_t off;
} ctr_fields[] = {
	{ "pkts", offsetof(struct fwd_mroute_ctr, pkts) },
	{ "bytes", offsetof(struct fwd_mroute_ctr, bytes) },
	{ "copies", offsetof(struct fwd_mroute_ctr, copies) },
	{ "wrong_if", offsetof(struct fwd_mroute_ctr, wrong_if) },
};

static uint64_t
ctr_field(const struct fwd_mroute_ctr *c, unsigned int k)
{
	return *(const uint64_t *)((const char *)c + ctr_fields[k].off);
}

void
fwd_mroutes_sum(const struct fwd_mroutes *mr, unsigned int i,
		struct fwd_mroute_ctr *sum)
{
	const volatile struct fwd_mroute_ctr *c;
	unsigned int l;

	memset(sum, 0, sizeof(*sum));
	for (l = 0; l <= RTE_MAX_LCORE; l++) {
		if (mr->ctr[l] == NULL)
			continue;
		c = &mr->ctr[l][i];
		sum->pkts += c->pkts;
		sum->bytes += c->bytes;
		sum->copies += c->copies;
		sum->wrong_if += c->wrong_if;
	}
}

/* The source ("*" for (*,G)) or group of @p r as text into @p buf. */
static const char *
addr_text(const struct fwd_mroute *r, bool src, char *buf, size_t n)
{
	if (src && r->any_src)
		snprintf(buf, n, "*");
	else if (inet_ntop(r->v6 ? AF_INET6 : AF_INET, src ? r->src : r->grp,
			buf, (socklen_t)n) == NULL)
		snprintf(buf, n, "?");
	return buf;
}

/* The output ports "1 2:5" of @p r into @p buf. */
static const char *
oifs_name(const struct fwd_mroute *r, char *buf, size_t n)
{
	uint64_t o = r->oifs;
	size_t at = 0;
	unsigned int p;

	buf[0] = '\0';
	while (o != 0 && at < n) {
		p = (unsigned int)__builtin_ctzll(o);
		o &= o - 1;
		at += (size_t)snprintf(buf + at, n - at, r->ttl[p] > 1 ?
				"%s%u:%u" : "%s%u", at ? " " : "", p,
				r->ttl[p]);
	}
	return buf;
}

void
fwd_mroutes_print(FILE *f, const struct fwd_mroutes *mr)
{
	char s[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN];
	char oifs[RTE_MAX_ETHPORTS * 8];
	struct fwd_mroute_ctr c;
	unsigned int i, k;

	for (i = 0; mr != NULL && i < mr->s.n; i++) {
		fwd_mroutes_sum(mr, i, &c);
		fprintf(f, "mroute %u (%s, %s) from %u to %s:", i,
				addr_text(&mr->s.r[i], true, s, sizeof(s)),
				addr_text(&mr->s.r[i], false, g, sizeof(g)),
				mr->s.r[i].in_port,
				oifs_name(&mr->s.r[i], oifs, sizeof(oifs)));
		for (k = 0; k < RTE_DIM(ctr_fields); k++)
			fprintf(f, " %s %" PRIu64, ctr_fields[k].name,
					ctr_field(&c, k));
		fprintf(f, "\n");
	}
}

void
fwd_mroutes_json(struct app_json *j, const struct fwd_mroutes *mr)
{
	char a[INET6_ADDRSTRLEN];
	struct fwd_mroute_ctr c;
	const struct fwd_mroute *r;
	unsigned int i, k;
	uint64_t o;

	if (mr == NULL)
		return;
	app_json_arr_begin(j, "mroutes");
	for (i = 0; i < mr->s.n; i++) {
		r = &mr->s.r[i];
		fwd_mroutes_sum(mr, i, &c);
		app_json_obj_begin(j, NULL);
		app_json_str(j, "source", addr_text(r, true, a, sizeof(a)));
		app_json_str(j, "group", addr_text(r, false, a, sizeof(a)));
		app_json_u64(j, "in_port", r->in_port);
		app_json_arr_begin(j, "out_ports");
		for (o = r->oifs; o != 0; o &= o - 1)
			app_json_u64(j, NULL, (uint64_t)__builtin_ctzll(o));
		app_json_arr_end(j);
		app_json_arr_begin(j, "ttl");
		for (o = r->oifs; o != 0; o &= o - 1)
			app_json_u64(j, NULL, r->ttl[__builtin_ctzll(o)]);
		app_json_arr_end(j);
		for (k = 0; k < RTE_DIM(ctr_fields); k++)
			app_json_u64(j, ctr_fields[k].name, ctr_field(&c, k));
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
}

/* An array of @p r's output ports (@p ttl: their thresholds) under
 * @p key of dict @p d. */
static void
tel_oifs(struct rte_tel_data *d, const char *key,
		const struct fwd_mroute *r, bool ttl)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	uint64_t o;

	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_U64_VAL);
	for (o = r->oifs; o != 0; o &= o - 1)
		rte_tel_data_add_array_uint(a, ttl ?
				r->ttl[__builtin_ctzll(o)] :
				(uint64_t)__builtin_ctzll(o));
	rte_tel_data_add_dict_container(d, key, a, 0);
}

/*
 * Routes /fwd/mroutes answers for at a time: its 4 arrays of 20-digit
 * counters fit telemetry's 16 KiB answer (DPDK's MAX_OUTPUT_LEN, which
 * leaves out a container that does not fit) and its 512-entry arrays.
 */
#define TEL_MROUTES_PAGE 128u

static int
tel_mroutes(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	unsigned long first = 0;
	struct rte_tel_data *a;
	struct fwd_mroute_ctr c;
	unsigned int i, k, end;

	if (tel_mr == NULL)
		return -ENODEV;
	if (params != NULL && *params != '\0' &&
			fwd_parse_dec(params, tel_mr->s.n != 0 ?
				tel_mr->s.n - 1 : 0, &first) < 0)
		return -EINVAL;
	end = RTE_MIN((unsigned int)first + TEL_MROUTES_PAGE, tel_mr->s.n);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_uint(d, "routes", tel_mr->s.n);
	rte_tel_data_add_dict_uint(d, "first", first);
	for (k = 0; k < RTE_DIM(ctr_fields); k++) {
		a = rte_tel_data_alloc();
		if (a == NULL)
			return -ENOMEM;
		rte_tel_data_start_array(a, RTE_TEL_U64_VAL);
		for (i = (unsigned int)first; i < end; i++) {
			fwd_mroutes_sum(tel_mr, i, &c);
			rte_tel_data_add_array_uint(a, ctr_field(&c, k));
		}
		rte_tel_data_add_dict_container(d, ctr_fields[k].name, a, 0);
	}
	return 0;
}

static int
tel_mroute(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	char a[INET6_ADDRSTRLEN];
	const struct fwd_mroute *r;
	struct fwd_mroute_ctr c;
	unsigned long i;
	unsigned int k;

	if (tel_mr == NULL)
		return -ENODEV;
	if (params == NULL || tel_mr->s.n == 0 ||
			fwd_parse_dec(params, tel_mr->s.n - 1, &i) < 0)
		return -EINVAL;
	r = &tel_mr->s.r[i];
	fwd_mroutes_sum(tel_mr, (unsigned int)i, &c);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "source",
			addr_text(r, true, a, sizeof(a)));
	rte_tel_data_add_dict_string(d, "group",
			addr_text(r, false, a, sizeof(a)));
	rte_tel_data_add_dict_uint(d, "in_port", r->in_port);
	tel_oifs(d, "out_ports", r, false);
	tel_oifs(d, "ttl", r, true);
	for (k = 0; k < RTE_DIM(ctr_fields); k++)
		rte_tel_data_add_dict_uint(d, ctr_fields[k].name,
				ctr_field(&c, k));
	return 0;
}
