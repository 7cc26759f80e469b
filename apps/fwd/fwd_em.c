/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --lookup em (fwd_em.h): l3fwd's EM route files and default tables into
 * rte_hash tables of l3fwd's 5-tuple keys, one pair per socket.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash_crc.h>

#include "app_cli.h"
#include "fwd_em.h"
#include "fwd_vec.h"

/* l3fwd's default EM tables (l3fwd_em.c): UDP 9 -> 9 from 198.18.N.1 to
 * 198.18.N.0, and 2001:200:0:N::1 to 2001:200:0:N::, to port N. */
#define EM_DEFAULT_ROUTES 16

/* l3fwd's ipv4_hash_crc() / ipv6_hash_crc(): the protocol, the
 * addresses and the ports, 4 bytes at a time. */
static uint32_t
em_hash4(const void *key, uint32_t len __rte_unused, uint32_t init)
{
	const struct fwd_em_key4 *k = key;
	uint32_t p;

	memcpy(&p, &k->sport, 4);
	init = rte_hash_crc_4byte(k->proto, init);
	init = rte_hash_crc_4byte(k->src, init);
	init = rte_hash_crc_4byte(k->dst, init);
	return rte_hash_crc_4byte(p, init);
}

static uint32_t
em_hash6(const void *key, uint32_t len __rte_unused, uint32_t init)
{
	const struct fwd_em_key6 *k = key;
	uint32_t w[9];
	unsigned int i;

	memcpy(w, k->src, 32);
	memcpy(&w[8], &k->sport, 4);
	init = rte_hash_crc_4byte(k->proto, init);
	for (i = 0; i < 9; i++)
		init = rte_hash_crc_4byte(w[i], init);
	return init;
}

static int
set_add(struct fwd_em_set *s, const struct fwd_em_rule *r)
{
	return fwd_vec_push(&s->r, &s->n, &s->cap, sizeof(*r), r);
}

static int
default_table(struct fwd_em_set *s, bool v6)
{
	struct fwd_em_rule r;
	unsigned int i;

	for (i = 0; i < EM_DEFAULT_ROUTES; i++) {
		memset(&r, 0, sizeof(r));
		if (v6) {
			r.k6.proto = IPPROTO_UDP;
			r.k6.dst[0] = 0x20;
			r.k6.dst[1] = 0x01;
			r.k6.dst[2] = 0x02;
			r.k6.dst[7] = (uint8_t)i;
			memcpy(r.k6.src, r.k6.dst, 16);
			r.k6.src[15] = 1;
			r.k6.sport = r.k6.dport = RTE_BE16(9);
		} else {
			r.k4.proto = IPPROTO_UDP;
			/* Unsigned octets: 22.11's RTE_IPV4() shifts the
			 * first as an int (198 << 24 overflows: UBSan). */
			r.k4.dst = rte_cpu_to_be_32(RTE_IPV4(198u, 18u,
					(uint32_t)i, 0u));
			r.k4.src = rte_cpu_to_be_32(RTE_IPV4(198u, 18u,
					(uint32_t)i, 1u));
			r.k4.sport = r.k4.dport = RTE_BE16(9);
		}
		r.port = (uint16_t)i;
		if (set_add(s, &r) < 0)
			return -1;
	}
	return 0;
}

/* GET_CB_FIELD of l3fwd: strtoul() base 0, the whole token, at most
 * @p max. */
static int
field(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno != 0 || *end != '\0' || end == s || *v > max ? -1 : 0;
}

/* One "R<dst> <src> <dport> <sport> <proto> <port>" line (after 'R'). */
static const char *
parse_rule(char *line, bool v6, struct fwd_em_rule *r)
{
	char *tok[6], *save = NULL, *s = line;
	unsigned long dport, sport, proto, port;
	unsigned int i;

	for (i = 0; i < 6; i++, s = NULL) {
		tok[i] = strtok_r(s, " \t\r\n", &save);
		if (tok[i] == NULL)
			return "bad EM route line (not R<dst> <src> <dport> <sport> <proto> <port>)";
	}
	if (strtok_r(NULL, " \t\r\n", &save) != NULL)
		return "bad EM route line (more than 6 fields)";
	memset(r, 0, sizeof(*r));
	if (v6 ? inet_pton(AF_INET6, tok[0], r->k6.dst) != 1 ||
			inet_pton(AF_INET6, tok[1], r->k6.src) != 1 :
			inet_pton(AF_INET, tok[0], &r->k4.dst) != 1 ||
			inet_pton(AF_INET, tok[1], &r->k4.src) != 1)
		return v6 ? "bad EM route line (bad IPv6 address)" :
			"bad EM route line (bad IPv4 address)";
	if (field(tok[2], UINT16_MAX, &dport) || field(tok[3], UINT16_MAX,
				&sport) || field(tok[4], UINT8_MAX, &proto) ||
			field(tok[5], UINT8_MAX, &port))
		return "bad EM route line (bad port, protocol or interface)";
	if (v6) {
		r->k6.dport = rte_cpu_to_be_16((uint16_t)dport);
		r->k6.sport = rte_cpu_to_be_16((uint16_t)sport);
		r->k6.proto = (uint8_t)proto;
	} else {
		r->k4.dport = rte_cpu_to_be_16((uint16_t)dport);
		r->k4.sport = rte_cpu_to_be_16((uint16_t)sport);
		r->k4.proto = (uint8_t)proto;
	}
	r->port = (uint16_t)port;
	return NULL;
}

/* What em_line() reads a file into. */
struct em_ctx {
	struct fwd_em_set *s;
	const char *path;
	bool v6;
	uint64_t mask;
	unsigned int skipped;
};

/* One line of an l3fwd EM route file (fwd_line_t); a route to a port
 * outside -p is left out with a warning (l3fwd leaves it out silently). */
static int
em_line(void *arg, char *line, unsigned int lineno, const char **why)
{
	struct em_ctx *c = arg;
	struct fwd_em_rule r;
	char *p = line + strspn(line, " \t\r\n");

	if (*p == '\0' || *p == '#')
		return 0;
	*why = *p != 'R' ? "bad EM route line (should start with R)" :
		parse_rule(p + 1, c->v6, &r);
	if (*why != NULL)
		return -1;
	r.line = lineno;
	if (r.port >= 64 || !(c->mask & (UINT64_C(1) << r.port))) {
		app_err("warning: %s:%u: EM route to port %u skipped: port %u is not enabled in -p",
				c->path, lineno, r.port, r.port);
		c->skipped++;
		return 0;
	}
	if (set_add(c->s, &r) < 0) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

/* The hash table of one family from the rules, on fc->socket_id. */
static int
fill(struct fwd_conf *fc, const struct fwd_em_set *s, bool v6)
{
	static unsigned int seq;
	struct rte_hash_parameters hp = {
		.entries = RTE_MAX(2 * s->n, 1024u),
		.key_len = v6 ? sizeof(struct fwd_em_key6) :
			sizeof(struct fwd_em_key4),
		.hash_func = v6 ? em_hash6 : em_hash4,
		.socket_id = fc->socket_id,
	};
	struct rte_hash *h;
	char name[RTE_HASH_NAMESIZE];
	unsigned int i;
	int ret;

	snprintf(name, sizeof(name), "fwd_em%c_%u", v6 ? '6' : '4', seq++);
	hp.name = name;
	h = rte_hash_create(&hp);
	if (h == NULL) {
		app_err("%s: EM table for %u routes: %s (EAL memory: -m)",
				v6 ? "--rule_ipv6" : "--rule_ipv4", s->n,
				rte_strerror(rte_errno));
		return -2;
	}
	*(v6 ? &fc->t.em6 : &fc->t.em4) = h;
	for (i = 0; i < s->n; i++) {
		const uintptr_t hop = fwd_hop_of_port(fc->t.portmask,
				s->r[i].port);

		ret = rte_hash_add_key_data(h, &s->r[i].k4, (void *)hop);
		if (ret < 0) {
			app_err("IPv%c EM route %u: %s", v6 ? '6' : '4', i,
					rte_strerror(-ret));
			return -2;
		}
	}
	return 0;
}

int
fwd_em_fill(struct fwd_conf *fc)
{
	int rc = fill(fc, &fc->em_rules[0], false);

	if (rc == 0)
		rc = fill(fc, &fc->em_rules[1], true);
	if (rc != 0)
		fwd_em_free(fc, true);
	return rc;
}

int
fwd_em_load(struct fwd_conf *fc)
{
	const char *path;
	unsigned int v;
	int rc = 0;

	fc->t.def4 = fc->t.def6 = -1;
	for (v = 0; v < 2 && rc == 0; v++) {
		struct fwd_em_set *s = &fc->em_rules[v];
		struct em_ctx c = { s, v ? fc->rule6 : fc->rule4, v,
			fc->t.portmask, 0 };

		path = c.path;
		if (path != NULL)
			rc = fwd_read_file(v ? "--rule_ipv6" : "--rule_ipv4",
					path, em_line, &c);
		else if (default_table(s, v) < 0) {
			app_err("out of memory");
			rc = -2;
		}
		if (rc == 0 && c.skipped != 0)
			printf("routes IPv%c: %u EM from %s (%u skipped: ports not in -p)\n",
					v ? '6' : '4', s->n, path, c.skipped);
		else if (rc == 0)
			printf("routes IPv%c: %u EM from %s\n", v ? '6' : '4',
					s->n, path != NULL ? path :
					"l3fwd's default EM table");
	}
	if (rc == 0)
		rc = fwd_em_fill(fc);
	if (rc == 0)
		printf("route lookup: em (rte_hash of l3fwd's 5-tuple keys, bulk lookup; a miss goes back out of the receiving port, as l3fwd)\n");
	return rc;
}

void
fwd_em_free(struct fwd_conf *fc, bool tables_only)
{
	rte_hash_free(fc->t.em4);
	rte_hash_free(fc->t.em6);
	fc->t.em4 = NULL;
	fc->t.em6 = NULL;
	if (tables_only || fc->routes_shared)
		return;
	free(fc->em_rules[0].r);
	free(fc->em_rules[1].r);
	memset(fc->em_rules, 0, sizeof(fc->em_rules));
}
