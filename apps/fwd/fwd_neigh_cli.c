/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Permanent neighbours of the command line (--neigh PORT,ADDR,MAC) and of
 * a file (--neigh-file: `ip neigh` lines, "ADDR lladdr MAC dev PORT
 * [nud permanent]"), for the control side (fwd_ctl.h).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_cli.h"
#include "fwd_neigh_cli.h"
#include "fwd_vec.h"

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

int
fwd_neigh_load(struct fwd_conf *fc)
{
	const char *why = NULL;
	unsigned int lineno, i;
	FILE *f;
	int rc = 0;

	if (fc->neigh_file != NULL) {
		f = fopen(fc->neigh_file, "r");
		if (f == NULL) {
			app_err("--neigh-file: %s: %s", fc->neigh_file,
					strerror(errno));
			return -1;
		}
		rc = fwd_read_lines(f, neigh_line, fc, &lineno, &why);
		if (rc == -1)
			app_err("%s:%u: %s", fc->neigh_file, lineno, why);
		else if (rc == -2)
			app_err("--neigh-file: %s: %s", fc->neigh_file,
					strerror(errno));
		fclose(f);
		if (rc != 0)
			return -1;
	}
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
	if (fc->nb_neigh != 0)
		fc->live = true;
	return 0;
}
