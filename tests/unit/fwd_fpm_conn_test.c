/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's FPM reader (apps/fwd/ctl/fwd_fpm.h), its next hops and its
 * connection: next-hop ids and groups as zebra 8.4 sends them by default,
 * the bounded next-hop table against a model, the sync timing, the
 * listener over TCP (a new connection replacing the old), the options,
 * the counters' JSON and the rate-limited lines. The route messages:
 * fwd_fpm_test.c.
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

#include "app_json.h"
#include "fwd_fpm_unit.h"

static void
test_nexthop_ids_and_groups(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct nexthop_grp g[2] = { { .id = 21 }, { .id = 23 } };
	struct fwd_fpm_stats s;
	struct fb b = { .len = 0 };

	fb_nh(&b, 19, "198.18.1.2", lo);
	fb_nh(&b, 20, "fe80::2", lo);
	fb_nh(&b, 16, NULL, 0);
	/* zebra sent this group before its second member. */
	fb_nh(&b, 21, "198.18.1.2", 9999);
	fb_frame(&b);
	fb_msg(&b, RTM_NEWNEXTHOP);
	fb_nhmsg(&b, AF_UNSPEC);
	fb_attr32(&b, NHA_ID, 22);
	fb_attr(&b, NHA_GROUP, g, sizeof(g));
	fb_msg_end(&b);
	fb_frame_end(&b);
	fb_nh(&b, 23, "198.18.1.3", lo);
	fb_nh(&b, 4, NULL, lo);
	fb_nh_route(&b, "198.18.10.0/24", 19);
	fb_nh_route(&b, "2001:2:0:12::/64", 20);
	fb_nh_route(&b, "198.18.15.0/24", 22);
	fb_nh_route(&b, "198.18.1.0/24", 4);
	fb_nh_route(&b, "198.18.16.0/24", 16);
	fb_nh_route(&b, "198.18.17.0/24", 99);
	fb_nh_route(&b, "2001:2:0:13::/64", 19);
	feed(f, &b);
	assert_int_equal(sl.n, 5);
	rec_is(0, FWD_FPM_ADD, "198.18.10.0/24", FWD_RT_UNICAST, "198.18.1.2", 3);
	rec_is(1, FWD_FPM_ADD, "2001:2:0:12::/64", FWD_RT_UNICAST, "fe80::2", 3);
	rec_is(2, FWD_FPM_ADD, "198.18.15.0/24", FWD_RT_UNICAST, "198.18.1.2",
			FWD_RT_PORT_ANY);
	rec_is(3, FWD_FPM_ADD, "198.18.1.0/24", FWD_RT_UNICAST, NULL, 3);
	rec_is(4, FWD_FPM_ADD, "198.18.16.0/24", FWD_RT_BLACKHOLE, NULL,
			FWD_RT_PORT_ANY);
	assert_int_equal(err(f, FWD_FPM_ERR_nh_unknown), 1);
	assert_int_equal(err(f, FWD_FPM_ERR_via), 1);
	fwd_fpm_stats_get(f, &s);
	assert_int_equal(s.nexthops, 7);
	assert_int_equal(s.multipath, 1);
	assert_int_equal(s.oif_unmapped, 1);
	/* Deleted: the routes naming it are refused. */
	b.len = 0;
	fb_frame(&b);
	fb_msg(&b, RTM_DELNEXTHOP);
	fb_nhmsg(&b, AF_INET);
	fb_attr32(&b, NHA_ID, 19);
	fb_msg_end(&b);
	fb_frame_end(&b);
	fb_nh_route(&b, "198.18.10.0/24", 19);
	feed(f, &b);
	assert_int_equal(err(f, FWD_FPM_ERR_nh_unknown), 2);
	fwd_fpm_stats_get(f, &s);
	assert_int_equal(s.nexthops, 6);
	assert_int_equal(s.nexthops_deleted, 1);
	fwd_fpm_free(f);
}

/* The table against a model: bounded, every id found until deleted. */
static void
test_nexthop_table_bounded(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 100);
	static uint8_t held[1000];
	struct fwd_fpm_stats s;
	struct fb b;
	unsigned int i, id, n = 0, full = 0;

	srand(7);
	memset(held, 0, sizeof(held));
	for (i = 0; i < 3000; i++) {
		id = 1 + (unsigned int)rand() % 999;
		b.len = 0;
		if (rand() % 3 == 0) {
			fb_frame(&b);
			fb_msg(&b, RTM_DELNEXTHOP);
			fb_nhmsg(&b, AF_INET);
			fb_attr32(&b, NHA_ID, id);
			fb_msg_end(&b);
			fb_frame_end(&b);
			n -= held[id];
			held[id] = 0;
		} else {
			fb_nh(&b, id, NULL, 0);
			if (!held[id] && n == 100)
				full++;
			else if (!held[id]) {
				held[id] = 1;
				n++;
			}
		}
		feed(f, &b);
		fwd_fpm_stats_get(f, &s);
		assert_int_equal(s.nexthops, n);
	}
	assert_int_equal(err(f, FWD_FPM_ERR_nh_full), full);
	/* Every id held is found: a route naming it is a blackhole. */
	for (id = 1; id < 1000; id++) {
		sl.n = 0;
		b.len = 0;
		fb_nh_route(&b, "198.18.0.0/16", id);
		feed(f, &b);
		assert_int_equal(sl.n, held[id]);
	}
	fwd_fpm_free(f);
}

static void
test_sync_after_a_quiet_period(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct fwd_fpm_stats s;
	struct fb b = { .len = 0 };

	assert_int_equal(sl.begins, 1);
	assert_int_equal(fwd_fpm_poll(f, 100), 200);
	fb_route(&b, 0, "198.18.70.0/24", RTN_BLACKHOLE, NULL, 0);
	assert_int_equal(fwd_fpm_input(f, b.b, b.len, 250), 0);
	assert_int_equal(fwd_fpm_poll(f, 500), 50);
	assert_int_equal(sl.dones, 0);
	/* Half a frame is no message. */
	assert_int_equal(fwd_fpm_input(f, b.b, 6, 520), 0);
	assert_int_equal(fwd_fpm_poll(f, 550), -1);
	assert_int_equal(sl.dones, 1);
	assert_int_equal(fwd_fpm_poll(f, 5000), -1);
	assert_int_equal(sl.dones, 1);
	/* A new connection: sync again; cut by a bad header: no done. */
	fwd_fpm_attach(f, -1, 6000);
	assert_int_equal(sl.begins, 2);
	assert_int_equal(fwd_fpm_input(f, "\x07\x07\x00\x04", 4, 6100), -1);
	assert_int_equal(fwd_fpm_poll(f, 7000), -1);
	assert_int_equal(sl.dones, 1);
	fwd_fpm_stats_get(f, &s);
	assert_int_equal(s.syncs, 1);
	assert_int_equal(s.syncs_aborted, 1);
	assert_int_equal(s.connects, 2);
	assert_int_equal(s.reconnects, 1);
	assert_int_equal(s.last_update_ms, 250);
	/* The new connection's start; the sync that ended, the first. */
	assert_int_equal(s.connect_ms, 6000);
	assert_int_equal(s.sync_ms, 550);
	fwd_fpm_free(f);
}

/* Connect to @p port of 127.0.0.1. */
static int
dial(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* Poll until @p n routes came or 2 s passed. */
static void
poll_for(struct fwd_fpm *f, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < 2000 && sl.n < n; i++) {
		fwd_fpm_poll(f, fwd_fpm_now_ms());
		usleep(1000);
	}
	assert_int_equal(sl.n, n);
}

static void
test_listener_over_tcp(void **state __rte_unused)
{
	struct fwd_fpm_params p;
	struct fwd_fpm_stats s;
	struct fb b = { .len = 0 };
	const char *why;
	struct fwd_fpm *f;
	int c1, c2, i;

	memset(&sl, 0, sizeof(sl));
	fwd_fpm_params_init(&p);
	assert_int_equal(fwd_fpm_parse_addr(&p, "127.0.0.1", &why), 0);
	((struct sockaddr_in *)&p.addr)->sin_port = 0;
	p.log = s_line;
	p.log_ctx = &sl;
	f = fwd_fpm_create(&p, &sink);
	assert_non_null(f);
	assert_int_equal(fwd_fpm_fd(f), -1);
	assert_int_equal(fwd_fpm_listen(f), 0);
	assert_true(fwd_fpm_fd(f) >= 0);
	assert_true(fwd_fpm_port(f) != 0);
	fb_route(&b, 0, "198.18.80.0/24", RTN_BLACKHOLE, NULL, 0);
	fb_route(&b, 0, "198.18.81.0/24", RTN_BLACKHOLE, NULL, 0);
	c1 = dial(fwd_fpm_port(f));
	/* In two writes, cut inside the second frame. */
	assert_int_equal(write(c1, b.b, b.len - 10), (ssize_t)b.len - 10);
	poll_for(f, 1);
	assert_int_equal(write(c1, b.b + b.len - 10, 10), 10);
	poll_for(f, 2);
	/* zebra restarted: the new connection replaces the old. */
	c2 = dial(fwd_fpm_port(f));
	assert_int_equal(write(c2, b.b, b.len), (ssize_t)b.len);
	poll_for(f, 4);
	assert_int_equal(sl.begins, 2);
	close(c2);
	for (i = 0; i < 1000; i++) {
		fwd_fpm_poll(f, fwd_fpm_now_ms());
		fwd_fpm_stats_get(f, &s);
		if (!s.connected)
			break;
		usleep(1000);
	}
	assert_int_equal(s.connects, 2);
	assert_int_equal(s.reconnects, 1);
	assert_int_equal(s.replaced, 1);
	assert_int_equal(s.disconnects, 1);
	assert_false(s.connected);
	close(c1);
	fwd_fpm_free(f);
}

static void
test_options_parse(void **state __rte_unused)
{
	struct fwd_fpm_params p;
	const char *why = NULL;
	char t[64];
	unsigned int i;
	static const char *const good[][2] = {
		{ "", "127.0.0.1:2620" }, { ":2621", "127.0.0.1:2621" },
		{ "10.0.0.1", "10.0.0.1:2620" }, { "0.0.0.0:1", "0.0.0.0:1" },
		{ "::1", "[::1]:2620" }, { "[::]:65535", "[::]:65535" },
		{ "[2001:2::1]", "[2001:2::1]:2620" },
	};
	static const char *const bad[] = {
		"1.2.3.4:0", "1.2.3.4:65536", "1.2.3.4:x", "host", "[::1",
		"[::1]x", "[]:1", "1.2.3.4:", "[1.2.3.4]:1",
	};
	static const char *const bad_if[] = {
		"0", ",eth0", "64,eth0", "x,eth0", "1,", "1,a/b",
		"1,0123456789abcdef", "2,lo", "5,eth1",
	};

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		fwd_fpm_params_init(&p);
		assert_int_equal(fwd_fpm_parse_addr(&p, good[i][0], &why), 0);
		assert_string_equal(fwd_fpm_addr_text(&p.addr, t, sizeof(t)),
				good[i][1]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		if (fwd_fpm_parse_addr(&p, bad[i], &why) != -1)
			fail_msg("--fpm %s taken", bad[i]);
		assert_non_null(why);
	}
	fwd_fpm_params_init(&p);
	assert_int_equal(fwd_fpm_parse_if(&p, "0,lo", &why), 0);
	assert_int_equal(fwd_fpm_parse_if(&p, "5,eth0", &why), 0);
	for (i = 0; i < sizeof(bad_if) / sizeof(bad_if[0]); i++)
		assert_int_equal(fwd_fpm_parse_if(&p, bad_if[i], &why), -1);
	assert_int_equal(p.nb_ifs, 2);
}

static void
test_counters_json_and_lines(void **state __rte_unused)
{
	struct fwd_fpm *f = mk(FWD_FPM_BUF_SIZE, 64);
	struct fb b = { .len = 0 };
	struct app_json j;
	char *text = NULL;
	size_t size = 0;
	unsigned int i;
	FILE *m;

	fb_route(&b, 0, "198.18.0.1/32", RTN_LOCAL, NULL, lo);
	for (i = 0; i < 100; i++)
		assert_int_equal(fwd_fpm_input(f, b.b, b.len, 1000), 0);
	assert_int_equal(sl.lines, 1);
	assert_int_equal(fwd_fpm_input(f, b.b, b.len, 61000), 0);
	assert_int_equal(sl.lines, 2);
	assert_non_null(strstr(sl.last_line, "route_type: "));
	assert_non_null(strstr(sl.last_line, "(99 more since the last line)"));
	/* The sink says no: counted. */
	sl.refuse = -ENOSPC;
	b.len = 0;
	fb_route(&b, 0, "198.18.0.0/24", RTN_BLACKHOLE, NULL, 0);
	feed(f, &b);
	assert_int_equal(err(f, FWD_FPM_ERR_rib_refused), 1);
	m = open_memstream(&text, &size);
	app_json_init(&j, m);
	app_json_obj_begin(&j, NULL);
	fwd_fpm_json(&j, f);
	app_json_obj_end(&j);
	fclose(m);
	assert_non_null(strstr(text, "\"fpm\": {"));
	assert_non_null(strstr(text, "\"listen\": \"127.0.0.1:2620\""));
	assert_non_null(strstr(text, "\"route_type\": 101"));
	assert_non_null(strstr(text, "\"rib_refused\": 1"));
	assert_non_null(strstr(text, "\"routes_added\": 0"));
	free(text);
	for (i = 0; i < FWD_FPM_NB_ERRORS; i++)
		assert_non_null(fwd_fpm_error_name(i));
	assert_null(fwd_fpm_error_name(FWD_FPM_NB_ERRORS));
	fwd_fpm_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nexthop_ids_and_groups),
		cmocka_unit_test(test_nexthop_table_bounded),
		cmocka_unit_test(test_sync_after_a_quiet_period),
		cmocka_unit_test(test_listener_over_tcp),
		cmocka_unit_test(test_options_parse),
		cmocka_unit_test(test_counters_json_and_lines),
	};

	lo = if_nametoindex("lo");
	if (lo == 0) {
		fprintf(stderr, "no lo interface\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
