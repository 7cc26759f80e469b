/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's route lookups (apps/fwd/core/fwd_lookup.h): one route file
 * with overlapping prefixes (IPv4 /8 /16 /24 /25 /32, IPv6 /32 /48 /64 /65
 * /128) loaded for --lookup lpm and --lookup fib gives, address by
 * address, the port the longest match names (written out here), the
 * default route or -1 where nothing matches, FWD_HOP_MARTIAN for the
 * martian IPv4 destinations (0/8, 127/8, 224/4, 255.255.255.255, and a
 * route inside them), from fwd_lookup4() and fwd_lookup6() alike.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "fwd_lookup.h"
#include "fwd_unit.h"

static const char routes4[] =
	"R10.0.0.0/8 1\n"
	"R10.1.0.0/16 2\n"
	"R10.1.2.0/24 3\n"
	"R10.1.2.3/32 0\n"
	"R10.1.2.128/25 1\n"
	"R192.168.0.0/16 2\n"
	"R192.168.7.7/32 3\n"
	"R127.1.0.0/16 2\n"
	"R224.1.2.0/24 1\n";
static const char routes6[] =
	"R2001:db8::/32 1\n"
	"R2001:db8:1::/48 2\n"
	"R2001:db8:1:2::/64 3\n"
	"R2001:db8:1:2:8000::/65 1\n"
	"R2001:db8:1:2::5/128 0\n"
	"R2001:db8:1:2:ffff::9/128 2\n";
static const char default4[] = "R0.0.0.0/0 2\n";
static const char default6[] = "R::/0 3\n";

/* An address and its port without default routes (-1: no route). */
struct want {
	const char *addr;
	int32_t port;
};

static const struct want want4[] = {
	{ "10.0.0.1", 1 }, { "10.255.255.255", 1 }, { "10.1.0.0", 2 },
	{ "10.1.255.1", 2 }, { "10.1.1.255", 2 }, { "10.1.3.0", 2 },
	{ "10.1.2.0", 3 }, { "10.1.2.2", 3 }, { "10.1.2.3", 0 },
	{ "10.1.2.4", 3 }, { "10.1.2.127", 3 }, { "10.1.2.128", 1 },
	{ "10.1.2.255", 1 }, { "192.168.7.7", 3 }, { "192.168.7.6", 2 },
	{ "192.168.255.255", 2 }, { "9.255.255.255", -1 },
	{ "11.0.0.0", -1 }, { "192.169.0.1", -1 }, { "198.18.0.1", -1 },
	{ "0.0.0.0", FWD_HOP_MARTIAN }, { "0.1.2.3", FWD_HOP_MARTIAN },
	{ "127.0.0.1", FWD_HOP_MARTIAN }, { "127.1.2.3", FWD_HOP_MARTIAN },
	{ "224.0.0.1", FWD_HOP_MARTIAN }, { "224.1.2.3", FWD_HOP_MARTIAN },
	{ "239.255.255.255", FWD_HOP_MARTIAN },
	{ "255.255.255.255", FWD_HOP_MARTIAN },
	/* Class E is no martian (docs/apps/npool-fwd.md). */
	{ "240.0.0.1", -1 }, { "255.255.255.254", -1 },
	{ "1.0.0.0", -1 }, { "126.255.255.255", -1 },
	{ "128.0.0.0", -1 }, { "223.255.255.255", -1 },
};

static const struct want want6[] = {
	{ "2001:db8::1", 1 }, { "2001:db8:ffff::1", 1 },
	{ "2001:db8:1::", 2 }, { "2001:db8:1:1::1", 2 },
	{ "2001:db8:1:3::", 2 }, { "2001:db8:1:2::", 3 },
	{ "2001:db8:1:2::4", 3 }, { "2001:db8:1:2::5", 0 },
	{ "2001:db8:1:2::6", 3 }, { "2001:db8:1:2:7fff:ffff:ffff:ffff", 3 },
	{ "2001:db8:1:2:8000::", 1 }, { "2001:db8:1:2:ffff::8", 1 },
	{ "2001:db8:1:2:ffff::9", 2 }, { "2001:db8:1:2:ffff::a", 1 },
	{ "2001:db7:ffff:ffff::1", -1 }, { "2001:db9::", -1 },
	{ "::", -1 }, { "::1", -1 }, { "ff02::1", -1 },
};

static uint32_t
v4(const char *s)
{
	struct in_addr a;

	assert_int_equal(inet_pton(AF_INET, s, &a), 1);
	return rte_be_to_cpu_32(a.s_addr);
}

static void
v6(const char *s, uint8_t *out)
{
	assert_int_equal(inet_pton(AF_INET6, s, out), 1);
}

/* Every address of want4/want6 through every lookup of @p fc. */
static void
check_conf(const struct fwd_conf *fc, int32_t def4, int32_t def6)
{
	uint8_t ips[RTE_DIM(want6)][16];
	unsigned int i;
	int32_t expect;

	for (i = 0; i < RTE_DIM(want4); i++) {
		expect = want4[i].port >= 0 ? want4[i].port : def4;
		if (fwd_lookup4(&fc->t, v4(want4[i].addr)) != expect)
			fail_msg("lookup %d: %s gives %d, want %d", fc->t.lookup,
					want4[i].addr,
					fwd_lookup4(&fc->t, v4(want4[i].addr)),
					expect);
	}
	for (i = 0; i < RTE_DIM(want6); i++) {
		v6(want6[i].addr, ips[i]);
		expect = want6[i].port >= 0 ? want6[i].port : def6;
		if (fwd_lookup6(&fc->t, ips[i]) != expect)
			fail_msg("lookup %d: %s gives %d, want %d", fc->t.lookup,
					want6[i].addr, fwd_lookup6(&fc->t, ips[i]),
					expect);
	}
}

/* @p r4 / @p r6 into both kinds of table, each checked. */
static void
check_both(const char *r4, const char *r6, int32_t def4, int32_t def6)
{
	struct fwd_conf fc;

	fu_conf_init(&fc, FWD_LOOKUP_LPM, 0xf, r4, r6);
	assert_int_equal(fc.t.def4, def4);
	assert_int_equal(fc.t.def6, def6);
	check_conf(&fc, def4, def6);
	fwd_routes_free(&fc);
	fu_conf_init(&fc, FWD_LOOKUP_FIB, 0xf, r4, r6);
	assert_int_equal(fc.t.def4, def4);
	assert_int_equal(fc.t.def6, def6);
	check_conf(&fc, def4, def6);
	fwd_routes_free(&fc);
}

static void
test_longest_match_without_default_route(void **state __rte_unused)
{
	check_both(routes4, routes6, -1, -1);
}

static void
test_default_route_for_addresses_without_one(void **state __rte_unused)
{
	char r4[sizeof(routes4) + sizeof(default4)];
	char r6[sizeof(routes6) + sizeof(default6)];

	/* The default route first: later, longer routes still win. */
	snprintf(r4, sizeof(r4), "%s%s", default4, routes4);
	snprintf(r6, sizeof(r6), "%s%s", default6, routes6);
	check_both(r4, r6, 2, 3);
}

/*
 * Both tables agree on every address of a sweep across the prefixes'
 * edges (each byte of the last octets, a bit flipped at each depth).
 */
static void
test_lpm_and_fib_agree_across_prefix_edges(void **state __rte_unused)
{
	struct fwd_conf lpm, fib;
	uint8_t a6[16];
	uint32_t a, base;
	unsigned int i, b;

	fu_conf_init(&lpm, FWD_LOOKUP_LPM, 0xf, routes4, routes6);
	fu_conf_init(&fib, FWD_LOOKUP_FIB, 0xf, routes4, routes6);
	for (i = 0; i < RTE_DIM(want4); i++) {
		base = v4(want4[i].addr);
		for (b = 0; b < 32; b++) {
			a = base ^ (UINT32_C(1) << b);
			assert_int_equal(fwd_lookup4(&lpm.t, a),
					fwd_lookup4(&fib.t, a));
		}
		for (b = 0; b < 256; b++) {
			a = (base & ~UINT32_C(0xff)) | b;
			assert_int_equal(fwd_lookup4(&lpm.t, a),
					fwd_lookup4(&fib.t, a));
		}
	}
	for (i = 0; i < RTE_DIM(want6); i++) {
		for (b = 0; b < 128; b++) {
			v6(want6[i].addr, a6);
			a6[b / 8] ^= (uint8_t)(0x80 >> (b % 8));
			assert_int_equal(fwd_lookup6(&lpm.t, a6),
					fwd_lookup6(&fib.t, a6));
		}
	}
	fwd_routes_free(&lpm);
	fwd_routes_free(&fib);
}

/*
 * 40000 /32 routes in as many /24s need a tbl8 group each: more than
 * rte_fib's 2-byte next hops can index, so the tables take 4-byte ones;
 * both lookups still agree with the file.
 */
static void
test_many_host_routes_past_2_byte_next_hops(void **state __rte_unused)
{
	enum { N = 40000 };
	static const enum fwd_lookup lk[] = { FWD_LOOKUP_LPM, FWD_LOOKUP_FIB };
	char *text = malloc((size_t)N * 24 + 1), *p = text;
	struct fwd_conf fc;
	unsigned int i, j;
	uint32_t a;

	assert_non_null(text);
	for (i = 0; i < N; i++)
		p += sprintf(p, "R10.%u.%u.1/32 %u\n", i >> 8, i & 255, i % 4);
	for (j = 0; j < RTE_DIM(lk); j++) {
		fu_conf_init(&fc, lk[j], 0xf, text, routes6);
		for (i = 0; i < N; i += 97) {
			a = UINT32_C(10) << 24 | i << 8;
			assert_int_equal(fwd_lookup4(&fc.t, a | 1), (int32_t)(i % 4));
			assert_int_equal(fwd_lookup4(&fc.t, a | 2), -1);
		}
		fwd_routes_free(&fc);
	}
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_match_without_default_route),
		cmocka_unit_test(test_default_route_for_addresses_without_one),
		cmocka_unit_test(test_lpm_and_fib_agree_across_prefix_edges),
		cmocka_unit_test(test_many_host_routes_past_2_byte_next_hops),
	};

	return UT_MAIN("ut_fwd_lookup", tests);
}
