/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The apps' value parsers (app_parse.h); app_cli.c has the options and
 * the checks against the probed ports and lcores.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "app_parse.h"

/*
 * All of @p s as an unsigned number: decimal (hexadecimal with @p hex), or
 * hexadecimal after "0x". No octal, no sign, no blank.
 */
static int
to_ull(const char *s, bool hex, unsigned long long *v)
{
	char *end;

	if (s == NULL)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		hex = true;
	}
	/* strtoull() takes "-1", blanks and (base 16) a second "0x". */
	if (s[0] == '\0' || strspn(s, hex ? "0123456789abcdefABCDEF" :
			"0123456789") != strlen(s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, hex ? 16 : 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

int
app_parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max,
		uint64_t *out)
{
	unsigned long long v;

	if (to_ull(s, false, &v) < 0) {
		app_err("%s: '%s' is not a number (decimal, or hexadecimal after 0x)",
				flag, s ? s : "");
		return -1;
	}
	if (v < min || v > max) {
		app_err("%s: %llu is out of range %" PRIu64 "..%" PRIu64,
				flag, v, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int
app_parse_double(const char *flag, const char *s, double min, double max,
		double *out)
{
	char *end = NULL;
	double v = 0;

	/* Decimal only: strtod() also takes hex floats, exponents, inf. */
	if (s != NULL && s[0] != '\0' &&
			strspn(s, "0123456789.") == strlen(s)) {
		errno = 0;
		v = strtod(s, &end);
	}
	if (end == NULL || errno != 0 || *end != '\0' || !isfinite(v)) {
		app_err("%s: '%s' is not a number", flag, s ? s : "");
		return -1;
	}
	if (v < min || v > max) {
		app_err("%s: %s is out of range %g..%g", flag, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int
app_parse_portmask(const char *flag, const char *s, uint64_t *mask)
{
	unsigned long long v;

	if (to_ull(s, true, &v) < 0) {
		app_err("%s: '%s' is not a hexadecimal port mask", flag,
				s ? s : "");
		return -1;
	}
	if (v == 0) {
		app_err("%s: the port mask selects no port", flag);
		return -1;
	}
	*mask = v;
	return 0;
}

int
app_parse_mac(const char *flag, const char *s, struct rte_ether_addr *a)
{
	if (s == NULL || strlen(s) != 17 || rte_ether_unformat_addr(s, a) != 0) {
		app_err("%s: '%s' is not a MAC address xx:xx:xx:xx:xx:xx",
				flag, s ? s : "");
		return -1;
	}
	return 0;
}

/* One "(port,queue,lcore)" at *p; advances *p past it. */
static int
parse_config_entry(const char *flag, const char **p, struct app_rxq_map *m)
{
	unsigned long v[3];
	const char *s = *p;
	char *end;
	int i;

	while (isspace((unsigned char)*s))
		s++;
	if (*s++ != '(')
		return -1;
	for (i = 0; i < 3; i++) {
		while (isspace((unsigned char)*s))
			s++;
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		v[i] = strtoul(s, &end, 10);
		if (errno != 0 || v[i] > UINT16_MAX)
			return -1;
		s = end;
		while (isspace((unsigned char)*s))
			s++;
		if (*s++ != (i < 2 ? ',' : ')'))
			return -1;
	}
	if (v[0] >= RTE_MAX_ETHPORTS || v[2] >= RTE_MAX_LCORE) {
		app_err("%s: port %lu or lcore %lu out of range", flag,
				v[0], v[2]);
		return -2;
	}
	m->port = (uint16_t)v[0];
	m->queue = (uint16_t)v[1];
	m->lcore = (uint16_t)v[2];
	*p = s;
	return 0;
}

int
app_parse_config(const char *flag, const char *s, struct app_rxq_map *map,
		uint16_t *n)
{
	const char *p = s;
	int rc;

	*n = 0;
	for (;;) {
		if (*n == APP_MAX_RXQ) {
			app_err("%s: more than %d entries", flag, APP_MAX_RXQ);
			return -1;
		}
		rc = parse_config_entry(flag, &p, &map[*n]);
		if (rc == -2)
			return -1;
		if (rc < 0) {
			app_err("%s: bad entry at '%s' (want \"(port,queue,lcore)[,...]\")",
					flag, p);
			return -1;
		}
		(*n)++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p++ != ',') {
			app_err("%s: bad entry at '%s' (want \"(port,queue,lcore)[,...]\")",
					flag, p - 1);
			return -1;
		}
	}
}
