/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's FPM reader (apps/fwd/ctl/fwd_fpm.h) on frames built by hand
 * as zebra's dplane_fpm_nl writes them (fpm_build.h): each route type and
 * family, gateways and interfaces to ports, RTA_MULTIPATH, a delete and
 * an add in one frame as one replace, frames split across reads, several
 * messages a frame, bad lengths and headers, unknown types and
 * interfaces. Next hops, the connection and the counters:
 * fwd_fpm_conn_test.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <cmocka.h>

#include <rte_common.h>

#include "fwd_fpm_unit.h"

static void
test_route_types_both_families(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct fb b = { .len = 0 };

	fb_route(&b, 0, "198.18.10.0/24", RTN_UNICAST, "198.18.1.2", lo);
	fb_route(&b, 0, "198.18.11.0/24", RTN_UNICAST, "198.18.1.2", 0);
	fb_route(&b, 0, "198.18.12.0/24", RTN_BLACKHOLE, NULL, 0);
	fb_route(&b, 0, "198.18.13.0/24", RTN_UNREACHABLE, NULL, 0);
	fb_route(&b, 0, "198.18.14.0/24", RTN_PROHIBIT, NULL, 0);
	fb_route(&b, 0, "198.18.15.0/24", RTN_UNICAST, NULL, lo);
	fb_route(&b, 0, "0.0.0.0/0", RTN_UNICAST, "198.18.1.9", lo);
	fb_route(&b, 0, "2001:2:0:10::/64", RTN_UNICAST, "fe80::2", lo);
	fb_route(&b, 0, "2001:2:0:11::/64", RTN_UNICAST, "2001:2:0:1::2", 0);
	fb_route(&b, 0, "2001:2:0:12::/64", RTN_BLACKHOLE, NULL, 0);
	fb_route(&b, 0, "2001:2:0:13::/64", RTN_UNREACHABLE, NULL, 0);
	fb_route(&b, 0, "2001:2:0:14::/64", RTN_PROHIBIT, NULL, 0);
	feed(f, &b);
	assert_int_equal(sl.n, 12);
	assert_int_equal(sl.frames, 12);
	rec_is(0, FWD_FPM_ADD, "198.18.10.0/24", FWD_RT_UNICAST, "198.18.1.2", 3);
	rec_is(1, FWD_FPM_ADD, "198.18.11.0/24", FWD_RT_UNICAST, "198.18.1.2",
			FWD_RT_PORT_ANY);
	rec_is(2, FWD_FPM_ADD, "198.18.12.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(3, FWD_FPM_ADD, "198.18.13.0/24", FWD_RT_UNREACHABLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(4, FWD_FPM_ADD, "198.18.14.0/24", FWD_RT_PROHIBIT, NULL,
			FWD_RT_PORT_ANY);
	rec_is(5, FWD_FPM_ADD, "198.18.15.0/24", FWD_RT_UNICAST, NULL, 3);
	rec_is(6, FWD_FPM_ADD, "0.0.0.0/0", FWD_RT_UNICAST, "198.18.1.9", 3);
	rec_is(7, FWD_FPM_ADD, "2001:2:0:10::/64", FWD_RT_UNICAST, "fe80::2", 3);
	rec_is(8, FWD_FPM_ADD, "2001:2:0:11::/64", FWD_RT_UNICAST,
			"2001:2:0:1::2", FWD_RT_PORT_ANY);
	rec_is(9, FWD_FPM_ADD, "2001:2:0:12::/64", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(10, FWD_FPM_ADD, "2001:2:0:13::/64", FWD_RT_UNREACHABLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(11, FWD_FPM_ADD, "2001:2:0:14::/64", FWD_RT_PROHIBIT, NULL,
			FWD_RT_PORT_ANY);
	fwd_fpm_free(f);
}

static void
test_refused_routes_counted(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct fb b = { .len = 0 };

	fb_route(&b, 0, "198.18.0.1/32", RTN_LOCAL, NULL, lo);
	fb_route(&b, 0, "198.18.0.255/32", RTN_BROADCAST, NULL, lo);
	fb_route(&b, 0, "198.18.0.0/24", RTN_UNICAST, NULL, 0);
	fb_route(&b, 0, "198.18.0.0/24", RTN_UNICAST, NULL, 9999);
	fb_route(&b, 0, "2001:2::/64", RTN_UNICAST, "fe80::1", 9999);
	/* Another table, a source prefix, MPLS, a long prefix. */
	fb_frame(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET, 24, 10, RTN_UNICAST);
	fb_addr(&b, RTA_DST, "198.18.0.0");
	fb_addr(&b, RTA_GATEWAY, "198.18.1.2");
	fb_msg_end(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET, 24, 0, RTN_UNICAST);
	fb_attr32(&b, RTA_TABLE, 1000);
	fb_addr(&b, RTA_GATEWAY, "198.18.1.2");
	fb_msg_end(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET6, 64, RT_TABLE_MAIN, RTN_UNICAST);
	b.b[b.len - 12 + 2] = 56; /* rtm_src_len */
	fb_addr(&b, RTA_GATEWAY, "2001:2::1");
	fb_msg_end(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, 28 /* AF_MPLS */, 20, RT_TABLE_MAIN, RTN_UNICAST);
	fb_msg_end(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET, 33, RT_TABLE_MAIN, RTN_UNICAST);
	fb_msg_end(&b);
	/* RTA_TABLE main: taken; a 5-byte RTA_OIF: refused. */
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET, 8, 0, RTN_BLACKHOLE);
	fb_attr32(&b, RTA_TABLE, RT_TABLE_MAIN);
	fb_addr(&b, RTA_DST, "10.1.2.3");
	fb_msg_end(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET, 8, RT_TABLE_MAIN, RTN_UNICAST);
	fb_attr(&b, RTA_OIF, "12345", 5);
	fb_msg_end(&b);
	/* Something else zebra might send: ignored. */
	fb_msg(&b, RTM_NEWLINK);
	fb_msg_end(&b);
	fb_msg(&b, RTM_NEWNEIGH);
	fb_msg_end(&b);
	fb_frame_end(&b);
	feed(f, &b);
	assert_int_equal(err(f, FWD_FPM_ERR_route_type), 2);
	assert_int_equal(err(f, FWD_FPM_ERR_no_nexthop), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_no_port), 2);
	assert_int_equal(err(f, FWD_FPM_ERR_table), 2);
	assert_int_equal(err(f, FWD_FPM_ERR_src_prefix), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_family), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_prefix_len), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_attr_len), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_msg_type), 2);
	/* Only the masked blackhole 10.0.0.0/8 made it. */
	assert_int_equal(sl.n, 1);
	rec_is(0, FWD_FPM_ADD, "10.0.0.0/8", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	/* One line per reason, the first time. */
	assert_int_equal(sl.lines, 9);
	fwd_fpm_free(f);
}

static void
test_multipath_takes_the_first(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct fwd_fpm_stats s;
	struct fb b = { .len = 0 };

	fb_frame(&b);
	fb_msg(&b, RTM_NEWROUTE);
	fb_rtmsg(&b, AF_INET, 24, RT_TABLE_MAIN, RTN_UNICAST);
	fb_addr(&b, RTA_DST, "198.18.20.0");
	fb_mp(&b);
	fb_hop(&b, lo);
	fb_addr(&b, RTA_GATEWAY, "198.18.1.2");
	fb_hop_end(&b);
	fb_hop(&b, lo);
	fb_addr(&b, RTA_GATEWAY, "198.18.1.3");
	fb_hop_end(&b);
	fb_mp_end(&b);
	fb_msg_end(&b);
	fb_frame_end(&b);
	feed(f, &b);
	assert_int_equal(sl.n, 1);
	rec_is(0, FWD_FPM_ADD, "198.18.20.0/24", FWD_RT_UNICAST, "198.18.1.2", 3);
	fwd_fpm_stats_get(f, &s);
	assert_int_equal(s.multipath, 1);
	fwd_fpm_free(f);
}

/* zebra's update: a delete and an add in one frame. */
static void
test_delete_add_in_one_frame_is_a_replace(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct fwd_fpm_stats s;
	struct fb b = { .len = 0 };

	fb_frame(&b);
	fb_route_msg(&b, 1, "198.18.30.0/24", 0, NULL, 0);
	fb_route_msg(&b, 0, "198.18.30.0/24", RTN_UNICAST, "198.18.1.3", lo);
	fb_frame_end(&b);
	/* A delete alone: given at the frame's end. */
	fb_frame(&b);
	fb_route_msg(&b, 1, "198.18.31.0/24", 0, NULL, 0);
	fb_route_msg(&b, 0, "198.18.32.0/24", RTN_BLACKHOLE, NULL, 0);
	fb_frame_end(&b);
	/* Not next to each other, twice deleted: one replace. */
	fb_frame(&b);
	fb_route_msg(&b, 1, "2001:2:0:30::/64", 0, NULL, 0);
	fb_route_msg(&b, 1, "2001:2:0:30::/64", 0, NULL, 0);
	fb_route_msg(&b, 0, "198.18.33.0/24", RTN_PROHIBIT, NULL, 0);
	fb_route_msg(&b, 0, "2001:2:0:30::/64", RTN_UNREACHABLE, NULL, 0);
	fb_frame_end(&b);
	/* An add then a delete: deleted in the end. */
	fb_frame(&b);
	fb_route_msg(&b, 0, "198.18.34.0/24", RTN_BLACKHOLE, NULL, 0);
	fb_route_msg(&b, 1, "198.18.34.0/24", 0, NULL, 0);
	fb_frame_end(&b);
	/* Across frames: no replace. */
	fb_route(&b, 1, "198.18.35.0/24", 0, NULL, 0);
	fb_route(&b, 0, "198.18.35.0/24", RTN_BLACKHOLE, NULL, 0);
	feed(f, &b);
	assert_int_equal(sl.n, 9);
	rec_is(0, FWD_FPM_REPLACE, "198.18.30.0/24", FWD_RT_UNICAST,
			"198.18.1.3", 3);
	rec_is(1, FWD_FPM_ADD, "198.18.32.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(2, FWD_FPM_DEL, "198.18.31.0/24", 0, NULL, 0);
	rec_is(3, FWD_FPM_ADD, "198.18.33.0/24", FWD_RT_PROHIBIT, NULL,
			FWD_RT_PORT_ANY);
	rec_is(4, FWD_FPM_REPLACE, "2001:2:0:30::/64", FWD_RT_UNREACHABLE,
			NULL, FWD_RT_PORT_ANY);
	rec_is(5, FWD_FPM_ADD, "198.18.34.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(6, FWD_FPM_DEL, "198.18.34.0/24", 0, NULL, 0);
	rec_is(7, FWD_FPM_DEL, "198.18.35.0/24", 0, NULL, 0);
	rec_is(8, FWD_FPM_ADD, "198.18.35.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	fwd_fpm_stats_get(f, &s);
	assert_int_equal(s.routes_replaced, 2);
	assert_int_equal(s.routes_deleted, 3);
	assert_int_equal(s.routes_added, 4);
	assert_int_equal(s.frames, 6);
	assert_int_equal(s.messages, 12);
	fwd_fpm_free(f);
}

/* The same stream whole, byte by byte and in odd pieces: the same. */
static void
test_frames_split_across_reads(void **state __rte_unused)
{
	static const size_t steps[] = { 1, 3, 5, 7, 64, 4096 };
	struct fb b = { .len = 0 };
	struct rec whole[64];
	unsigned int n, i;
	size_t off, k;
	struct fwd_fpm *f;

	for (i = 0; i < 20; i++) {
		char dst[32];

		snprintf(dst, sizeof(dst), "198.18.%u.0/24", 40 + i);
		if (i % 4 == 0)
			fb_frame(&b);
		fb_route_msg(&b, 0, dst, RTN_UNICAST, "198.18.1.2", lo);
		if (i % 4 == 3)
			fb_frame_end(&b);
	}
	f = mk(FWD_FPM_BUF_SIZE, 64);
	feed(f, &b);
	n = sl.n;
	assert_int_equal(n, 20);
	assert_int_equal(sl.frames, 5);
	memcpy(whole, sl.r, sizeof(whole));
	fwd_fpm_free(f);
	for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
		f = mk(FWD_FPM_BUF_SIZE, 64);
		for (off = 0; off < b.len; off += steps[k])
			assert_int_equal(fwd_fpm_input(f, b.b + off,
					b.len - off < steps[k] ? b.len - off :
					steps[k], 1), 0);
		assert_int_equal(sl.n, n);
		assert_int_equal(sl.frames, 5);
		assert_memory_equal(sl.r, whole, n * sizeof(whole[0]));
		fwd_fpm_free(f);
	}
}

static void
test_bad_header_closes_the_connection(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	static const uint8_t bad[][4] = {
		{ 2, 1, 0, 8 }, { 1, 2, 0, 8 }, { 1, 1, 0, 3 },
	};
	struct fwd_fpm_stats s;
	struct fb b = { .len = 0 };
	unsigned int i;

	fb_route(&b, 0, "198.18.50.0/24", RTN_BLACKHOLE, NULL, 0);
	for (i = 0; i < 3; i++) {
		fwd_fpm_attach(f, -1, 0);
		feed(f, &b);
		assert_int_equal(fwd_fpm_input(f, bad[i], 4, 1), -1);
		/* Closed: nothing more is taken. */
		assert_int_equal(fwd_fpm_input(f, b.b, b.len, 1), -1);
	}
	fwd_fpm_stats_get(f, &s);
	assert_int_equal(s.err[FWD_FPM_ERR_frame_header], 3);
	assert_int_equal(s.routes_added, 3);
	assert_false(s.connected);
	/* mk()'s connection, replaced by the first attach, and the three
	 * closed by their bad header. */
	assert_int_equal(s.syncs_aborted, 4);
	assert_int_equal(s.replaced, 1);
	fwd_fpm_free(f);
}

static void
test_long_frame_skipped_bad_lengths_refused(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(128, 64);
	struct fb b = { .len = 0 };
	unsigned int i;

	/* 180 bytes in a 128-byte buffer: skipped, the next one taken. */
	fb_frame(&b);
	for (i = 0; i < 4; i++)
		fb_route_msg(&b, 0, "198.18.60.0/24", RTN_BLACKHOLE, NULL, 0);
	fb_frame_end(&b);
	fb_route(&b, 0, "198.18.61.0/24", RTN_BLACKHOLE, NULL, 0);
	/* nlmsg_len beyond the frame, then below its header. */
	fb_frame(&b);
	fb_route_msg(&b, 0, "198.18.62.0/24", RTN_BLACKHOLE, NULL, 0);
	*(uint32_t *)(b.b + b.frame + 4) = 1000;
	fb_frame_end(&b);
	fb_frame(&b);
	fb_route_msg(&b, 0, "198.18.63.0/24", RTN_BLACKHOLE, NULL, 0);
	fb_route_msg(&b, 0, "198.18.64.0/24", RTN_BLACKHOLE, NULL, 0);
	*(uint32_t *)(b.b + b.msg) = 8;
	fb_frame_end(&b);
	/* An attribute longer than its message; a route message cut. */
	fb_frame(&b);
	fb_route_msg(&b, 0, "198.18.65.0/24", RTN_BLACKHOLE, NULL, 0);
	b.b[b.msg + 16 + 12] = 200;
	fb_msg(&b, RTM_NEWROUTE);
	fb_msg_end(&b);
	fb_frame_end(&b);
	feed(f, &b);
	assert_int_equal(err(f, FWD_FPM_ERR_frame_too_long), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_nl_len), 2);
	assert_int_equal(err(f, FWD_FPM_ERR_attr_len), 2);
	assert_int_equal(sl.n, 2);
	rec_is(0, FWD_FPM_ADD, "198.18.61.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	rec_is(1, FWD_FPM_ADD, "198.18.63.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	fwd_fpm_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_route_types_both_families),
		cmocka_unit_test(test_refused_routes_counted),
		cmocka_unit_test(test_multipath_takes_the_first),
		cmocka_unit_test(test_delete_add_in_one_frame_is_a_replace),
		cmocka_unit_test(test_frames_split_across_reads),
		cmocka_unit_test(test_bad_header_closes_the_connection),
		cmocka_unit_test(test_long_frame_skipped_bad_lengths_refused),
	};

	lo = if_nametoindex("lo");
	if (lo == 0) {
		fprintf(stderr, "no lo interface\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
