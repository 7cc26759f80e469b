/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's own addresses and neighbours, the control side: --port-addr
 * and its checks, the link-local addresses, and the host routes that make
 * packets to them "local" (fwd.h); the permanent neighbours of the
 * command line (--neigh PORT,ADDR,MAC) and of a file (--neigh-file: `ip
 * neigh` lines, "ADDR lladdr MAC dev PORT [nud permanent]") for the
 * control side (fwd_ctl.h). What the pipeline asks of the addresses is
 * in core/fwd_addr.c.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include "app_cli.h"
#include "fwd_addr_cli.h"
#include "fwd_neigh.h"
#include "fwd_vec.h"

void
fwd_addr_init(struct fwd_addrs *a)
{
	memset(a, 0, sizeof(*a));
	a->ratelimit_ms = FWD_ICMP_RATELIMIT_MS;
	a->msgs_per_sec = FWD_ICMP_MSGS_PER_SEC;
	a->msgs_burst = FWD_ICMP_MSGS_BURST;
	a->echo_ignore_bcast = true;
}

/* Whether @p ip (family @p v6) is already an address of some port. */
static int
addr_port(const struct fwd_addrs *a, bool v6, const void *ip)
{
	unsigned int p, i;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct fwd_port_addr *pa = &a->p[p];

		for (i = 0; !v6 && i < pa->n4; i++)
			if (memcmp(&pa->v4[i], ip, 4) == 0)
				return (int)p;
		for (i = 0; v6 && i < pa->n6; i++)
			if (memcmp(pa->v6[i], ip, 16) == 0)
				return (int)p;
	}
	return -1;
}

/* One ADDR/LEN of port @p port. */
static int
parse_one(struct fwd_addrs *a, uint16_t port, char *s)
{
	struct fwd_port_addr *pa = &a->p[port];
	char *slash = strchr(s, '/');
	uint8_t ip[16];
	uint64_t len;
	bool v6;
	int other;

	if (slash == NULL) {
		app_err("--port-addr: '%s' is not ADDR/LEN", s);
		return -1;
	}
	*slash = '\0';
	v6 = strchr(s, ':') != NULL;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, s, ip) != 1) {
		app_err("--port-addr: '%s' is not an IPv%c address", s,
				v6 ? '6' : '4');
		return -1;
	}
	if (app_parse_u64("--port-addr", slash + 1, 1, v6 ? 128 : 32,
				&len) < 0)
		return -1;
	if (v6 ? ip[0] == 0xff || (ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80) ||
			(memcmp(ip, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 15) == 0 &&
			 ip[15] <= 1) :
			ip[0] == 0 || ip[0] == 127 || ip[0] >= 224) {
		app_err("--port-addr: %s is not a unicast address a port can have%s",
				s, v6 && ip[0] == 0xfe ?
				" (the link-local one is the MAC's EUI-64)" :
				"");
		return -1;
	}
	other = addr_port(a, v6, ip);
	if (other >= 0) {
		app_err("--port-addr: %s given twice (port %d and port %u)", s,
				other, port);
		return -1;
	}
	if ((v6 ? pa->n6 : pa->n4) == FWD_ADDR_MAX) {
		app_err("--port-addr: port %u has %d IPv%c addresses already (the most)",
				port, FWD_ADDR_MAX, v6 ? '6' : '4');
		return -1;
	}
	if (v6) {
		memcpy(pa->v6[pa->n6], ip, 16);
		pa->len6[pa->n6++] = (uint8_t)len;
	} else {
		memcpy(&pa->v4[pa->n4], ip, 4);
		pa->len4[pa->n4++] = (uint8_t)len;
	}
	return 0;
}

int
fwd_addr_parse(struct fwd_addrs *a, const char *arg)
{
	char *buf = strdup(arg), *tok, *save = NULL;
	uint64_t port;
	int rc = -1;

	if (buf == NULL) {
		app_err("--port-addr: out of memory");
		return -1;
	}
	/* strtok_r() would skip empty entries: "0,", "0,,A", ",0,A". */
	tok = strtok_r(buf, ",", &save);
	if (tok == NULL || strchr(arg, ',') == NULL || arg[0] == ',' ||
			strstr(arg, ",,") != NULL ||
			arg[strlen(arg) - 1] == ',') {
		app_err("--port-addr: '%s' is not PORT,ADDR/LEN[,ADDR/LEN...]",
				arg);
		goto out;
	}
	if (app_parse_u64("--port-addr", tok, 0,
			RTE_MIN(RTE_MAX_ETHPORTS, 64) - 1, &port) < 0)
		goto out;
	while ((tok = strtok_r(NULL, ",", &save)) != NULL)
		if (parse_one(a, (uint16_t)port, tok) < 0)
			goto out;
	a->ports |= UINT64_C(1) << port;
	rc = 0;
out:
	free(buf);
	return rc;
}

int
fwd_addr_check(const struct fwd_addrs *a, uint64_t portmask)
{
	uint64_t out = a->ports & ~portmask;

	if (out != 0) {
		app_err("--port-addr: port %d is not enabled in -p",
				__builtin_ctzll(out));
		return -1;
	}
	return 0;
}

void
fwd_addr_link_local(struct fwd_addrs *a, const struct rte_ether_addr *mac)
{
	uint64_t ports = a->ports;

	while (ports != 0) {
		const unsigned int p = (unsigned int)__builtin_ctzll(ports);
		const uint8_t *m = mac[p].addr_bytes;
		uint8_t *ll = a->p[p].ll6;

		ports &= ports - 1;
		memset(ll, 0, 16);
		ll[0] = 0xfe;
		ll[1] = 0x80;
		/* Modified EUI-64: the U/L bit flipped, ff:fe inside. */
		ll[8] = m[0] ^ 0x02;
		ll[9] = m[1];
		ll[10] = m[2];
		ll[11] = 0xff;
		ll[12] = 0xfe;
		ll[13] = m[3];
		ll[14] = m[4];
		ll[15] = m[5];
	}
}

/* Host-order mask of an IPv4 prefix length 1..32. */
static uint32_t
mask4(uint8_t len)
{
	return len == 0 ? 0 : UINT32_MAX << (32 - len);
}

/* Append one host route of @p ip (@p v6: 16 bytes, else 4) to @p hop. */
static int
host_route(struct fwd_route_set *s, bool v6, const void *ip, uint16_t hop)
{
	struct fwd_route r;

	memset(&r, 0, sizeof(r));
	memcpy(r.ip, ip, v6 ? 16 : 4);
	r.depth = v6 ? 128 : 32;
	r.port = hop;
	r.origin = FWD_RIB_OWN;
	return fwd_vec_push(&s->r, &s->n, &s->cap, sizeof(r), &r);
}

int
fwd_addr_connected(const struct fwd_addrs *a, uint64_t portmask,
		struct fwd_route_set *s, bool v6)
{
	unsigned int p, i, n;
	struct fwd_route r;
	int added = 0;

	for (p = 0; p < RTE_MAX_ETHPORTS && p < 64; p++) {
		const struct fwd_port_addr *pa = &a->p[p];

		n = v6 ? pa->n6 : pa->n4;
		if (!((portmask >> p) & 1))
			continue;
		for (i = 0; i < n; i++) {
			memset(&r, 0, sizeof(r));
			r.depth = v6 ? pa->len6[i] : pa->len4[i];
			/* A host prefix is the address alone: no link. */
			if (r.depth == (v6 ? 128 : 32))
				continue;
			memcpy(r.ip, v6 ? (const void *)pa->v6[i] :
					(const void *)&pa->v4[i], v6 ? 16 : 4);
			fwd_rt_mask(r.ip, r.depth);
			r.port = (uint16_t)p;
			r.origin = FWD_RT_CONNECTED;
			if (fwd_vec_push(&s->r, &s->n, &s->cap, sizeof(r),
					&r) < 0)
				return -1;
			added++;
		}
	}
	return added;
}

int
fwd_addr_routes(const struct fwd_addrs *a, struct fwd_route_set *s, bool v6)
{
	unsigned int p, i, n;
	uint32_t b;
	int added = 0;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct fwd_port_addr *pa = &a->p[p];

		n = v6 ? pa->n6 : pa->n4;
		for (i = 0; i < n; i++) {
			if (host_route(s, v6, v6 ? (const void *)pa->v6[i] :
					(const void *)&pa->v4[i],
					FWD_HOP_LOCAL) < 0)
				return -1;
			added++;
			/* Linux's local table: the prefix's broadcast. */
			if (v6 || pa->len4[i] >= 31)
				continue;
			b = rte_cpu_to_be_32(rte_be_to_cpu_32(pa->v4[i]) |
					~mask4(pa->len4[i]));
			if (host_route(s, false, &b, FWD_HOP_BCAST) < 0)
				return -1;
			added++;
		}
	}
	return added;
}

/* ADDR (IPv4 or IPv6) into @p n; -1 when it is neither. */
static int
parse_ip(const char *s, struct fwd_static_neigh *n)
{
	memset(n->ip, 0, sizeof(n->ip));
	n->v6 = strchr(s, ':') != NULL;
	return inet_pton(n->v6 ? AF_INET6 : AF_INET, s, n->ip) == 1 ? 0 : -1;
}

static int
neigh_add(struct fwd_conf *fc, const struct fwd_static_neigh *n)
{
	return fwd_vec_push(&fc->neigh, &fc->nb_neigh, &fc->neigh_cap,
			sizeof(*n), n);
}

int
fwd_neigh_parse(struct fwd_conf *fc, const char *arg)
{
	char buf[128], *port, *ip, *mac, *sp;
	struct fwd_static_neigh n;
	unsigned long p;

	memset(&n, 0, sizeof(n));
	if (strlen(arg) >= sizeof(buf)) {
		app_err("--neigh: '%s': too long (want PORT,ADDR,MAC)", arg);
		return -1;
	}
	strcpy(buf, arg);
	port = strtok_r(buf, ",", &sp);
	ip = strtok_r(NULL, ",", &sp);
	mac = strtok_r(NULL, ",", &sp);
	if (port == NULL || ip == NULL || mac == NULL ||
			strtok_r(NULL, ",", &sp) != NULL) {
		app_err("--neigh: '%s': want PORT,ADDR,MAC", arg);
		return -1;
	}
	if (fwd_parse_dec(port, RTE_MAX_ETHPORTS - 1, &p) < 0) {
		app_err("--neigh: '%s': bad port (0..%d)", arg,
				RTE_MAX_ETHPORTS - 1);
		return -1;
	}
	n.port = (uint16_t)p;
	if (parse_ip(ip, &n) < 0) {
		app_err("--neigh: '%s': bad address '%s'", arg, ip);
		return -1;
	}
	if (rte_ether_unformat_addr(mac, &n.mac) < 0 ||
			!rte_is_unicast_ether_addr(&n.mac) ||
			rte_is_zero_ether_addr(&n.mac)) {
		app_err("--neigh: '%s': bad MAC '%s' (a unicast one)", arg,
				mac);
		return -1;
	}
	if (neigh_add(fc, &n) < 0) {
		app_err("--neigh: out of memory");
		return -1;
	}
	return 0;
}

/* One --neigh-file line (fwd_line_t). */
static int
neigh_line(void *ctx, char *line, unsigned int lineno, const char **why)
{
	struct fwd_conf *fc = ctx;
	char *tok[8], *p, *sp;
	struct fwd_static_neigh n;
	unsigned long port;
	unsigned int k = 0;

	p = strchr(line, '#');
	if (p != NULL)
		*p = '\0';
	for (p = strtok_r(line, " \t\r\n", &sp); p != NULL && k < 8;
			p = strtok_r(NULL, " \t\r\n", &sp))
		tok[k++] = p;
	if (k == 0)
		return 0;
	memset(&n, 0, sizeof(n));
	n.line = lineno;
	*why = "bad line (want ADDR lladdr MAC dev PORT [nud permanent])";
	if ((k != 5 && k != 7) || strcmp(tok[1], "lladdr") != 0 ||
			strcmp(tok[3], "dev") != 0 ||
			(k == 7 && (strcmp(tok[5], "nud") != 0 ||
				    strcmp(tok[6], "permanent") != 0)))
		return -1;
	if (parse_ip(tok[0], &n) < 0) {
		*why = "bad address";
		return -1;
	}
	if (rte_ether_unformat_addr(tok[2], &n.mac) < 0 ||
			!rte_is_unicast_ether_addr(&n.mac) ||
			rte_is_zero_ether_addr(&n.mac)) {
		*why = "bad MAC (a unicast one)";
		return -1;
	}
	if (fwd_parse_dec(tok[4], RTE_MAX_ETHPORTS - 1, &port) < 0) {
		*why = "bad port";
		return -1;
	}
	n.port = (uint16_t)port;
	if (neigh_add(fc, &n) < 0) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

/* By family, port, address, then place in fc->neigh (qsort()). */
static int
neigh_cmp(const void *a, const void *b)
{
	const struct fwd_static_neigh *x = *(const struct fwd_static_neigh *
			const *)a;
	const struct fwd_static_neigh *y = *(const struct fwd_static_neigh *
			const *)b;
	int d = (int)x->v6 - (int)y->v6;

	if (d == 0)
		d = (int)x->port - (int)y->port;
	if (d == 0)
		d = memcmp(x->ip, y->ip, sizeof(x->ip));
	if (d == 0)
		d = x < y ? -1 : x > y;
	return d;
}

/*
 * At most FWD_NEIGH_PERM_MAX permanent neighbours a family, each (port,
 * address) counted once (a later one replaces its MAC), as the control
 * side sets them: in fc->neigh's order. The first one past it is named.
 */
static int
neigh_count_check(const struct fwd_conf *fc)
{
	const struct fwd_static_neigh **by;
	unsigned int i, nb[2] = { 0, 0 };
	bool *first;
	int ret = 0;

	if (fc->nb_neigh <= FWD_NEIGH_PERM_MAX)
		return 0;
	by = malloc(fc->nb_neigh * sizeof(*by));
	first = calloc(fc->nb_neigh, sizeof(*first));
	if (by == NULL || first == NULL) {
		app_err("--neigh: out of memory");
		ret = -1;
		goto out;
	}
	for (i = 0; i < fc->nb_neigh; i++)
		by[i] = &fc->neigh[i];
	qsort(by, fc->nb_neigh, sizeof(*by), neigh_cmp);
	for (i = 0; i < fc->nb_neigh; i++)
		first[by[i] - fc->neigh] = i == 0 ||
			by[i]->v6 != by[i - 1]->v6 ||
			by[i]->port != by[i - 1]->port ||
			memcmp(by[i]->ip, by[i - 1]->ip, sizeof(by[i]->ip)) != 0;
	for (i = 0; i < fc->nb_neigh && ret == 0; i++) {
		const struct fwd_static_neigh *n = &fc->neigh[i];

		if (!first[i] || ++nb[n->v6] <= FWD_NEIGH_PERM_MAX)
			continue;
		if (n->line != 0)
			app_err("%s:%u: more than the %u permanent %s neighbours a table holds",
					fc->neigh_file, n->line,
					FWD_NEIGH_PERM_MAX, n->v6 ? "NDP" :
					"ARP");
		else
			app_err("--neigh: more than the %u permanent %s neighbours a table holds",
					FWD_NEIGH_PERM_MAX, n->v6 ? "NDP" :
					"ARP");
		ret = -1;
	}
out:
	free(by);
	free(first);
	return ret;
}

int
fwd_neigh_load(struct fwd_conf *fc)
{
	unsigned int i;

	if (fc->neigh_file != NULL && fwd_read_file("--neigh-file",
			fc->neigh_file, neigh_line, fc) < 0)
		return -1;
	for (i = 0; i < fc->nb_neigh; i++) {
		const struct fwd_static_neigh *n = &fc->neigh[i];

		if (n->port < 64 && ((fc->t.portmask >> n->port) & 1))
			continue;
		if (n->line != 0)
			app_err("%s:%u: port %u is not enabled in -p",
					fc->neigh_file, n->line, n->port);
		else
			app_err("--neigh: port %u is not enabled in -p",
					n->port);
		return -1;
	}
	if (neigh_count_check(fc) < 0)
		return -1;
	if (fc->nb_neigh != 0)
		fc->live = true;
	return 0;
}
