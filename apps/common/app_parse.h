/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_PARSE_H
#define APP_PARSE_H

/**
 * @file
 * The apps' value parsers: numbers, decimal fractions, port masks, MAC
 * addresses and --config entries, each strict about its syntax and
 * naming the flag in its one error line (app_err()).
 */

#include <stdint.h>

#include <rte_ether.h>

#include "app_log.h"

/** Most (port, queue, lcore) entries in --config. */
#define APP_MAX_RXQ 256

/** One --config entry: RX queue @c queue of @c port polled by @c lcore. */
struct app_rxq_map {
	uint16_t port;
	uint16_t queue;
	uint16_t lcore;
};

/**
 * Parse an unsigned decimal (or 0x hex) number, all of @p s, within
 * [@p min, @p max]: no octal (a leading 0 is decimal), sign or blank. On
 * error prints "<flag>: ..." with app_err().
 *
 * @return 0, or -1.
 */
int app_parse_u64(const char *flag, const char *s, uint64_t min,
		uint64_t max, uint64_t *out);

/** As app_parse_u64() for a non-negative decimal fraction ("1.5"):
 * digits and one '.', no exponent, no hex float. */
int app_parse_double(const char *flag, const char *s, double min,
		double max, double *out);

/** Parse a hexadecimal port mask ("0x3" or "3"); not 0. */
int app_parse_portmask(const char *flag, const char *s, uint64_t *mask);

/** Parse a MAC address "xx:xx:xx:xx:xx:xx". */
int app_parse_mac(const char *flag, const char *s, struct rte_ether_addr *a);

/** Parse --config "(port,queue,lcore)[,...]" into @p map (APP_MAX_RXQ
 * entries), their number in @p n (not validated). */
int app_parse_config(const char *flag, const char *s,
		struct app_rxq_map *map, uint16_t *n);

#endif /* APP_PARSE_H */
