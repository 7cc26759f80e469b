/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The apps' counter table (apps/common/app_ctr.h): each output walks the
 * counters it shows, in the order users and tests read them; the table's
 * total is the sum of its columns; groups open only where they apply.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app_ctr.h"
#include "app_stats.h"
#include "unit_common.h"

static const char *const reasons[] = { "bad", "worse" };
static const char *const events[] = { "said", "shouted" };

/* What a walk visited, one word per counter, braces around groups. */
struct rec {
	char s[1024];
	uint64_t last[3];    /* the last counter's values */
	uint64_t dropped[3]; /* "dropped"'s */
};

static int
rec_open(void *arg, const char *key)
{
	struct rec *r = arg;

	snprintf(r->s + strlen(r->s), sizeof(r->s) - strlen(r->s), "%s{ ",
			key);
	return 0;
}

static void
rec_close(void *arg)
{
	struct rec *r = arg;

	strcat(r->s, "} ");
}

static void
rec_value(void *arg, const struct app_ctr_def *d __rte_unused,
		const char *key, const char *label, const uint64_t *v)
{
	struct rec *r = arg;

	snprintf(r->s + strlen(r->s), sizeof(r->s) - strlen(r->s), "%s ",
			key != NULL ? key : label);
	memcpy(r->last, v, sizeof(r->last));
	if (key != NULL && strcmp(key, "dropped") == 0)
		memcpy(r->dropped, v, sizeof(r->dropped));
}

/* Walk @p cols for output @p out into @p r. */
static int
walk(unsigned int out, unsigned int sec, const struct app_ctr_col *cols,
		unsigned int n, bool total, struct rec *r)
{
	const struct app_ctr_visit vis = {
		out, rec_open, rec_close, rec_value, r,
	};

	memset(r, 0, sizeof(*r));
	return app_ctr_walk(&vis, sec, cols, n, total);
}

static int
setup(void **state __rte_unused)
{
	static const struct app_stats_desc d = {
		"ut", reasons, RTE_DIM(reasons), .rx_bad = 0,
		.events_key = "router", .events = events,
		.nb_events = RTE_DIM(events),
	};
	static struct app_lcore_ctr ctr[RTE_MAX_LCORE];
	static struct app_opts o = { .portmask = 0x3 };

	app_stats_init(&d, &o, ctr);
	return 0;
}

static void
test_port_walk_needs_the_app_names(void **state __rte_unused)
{
	struct app_port_ctr c = { .rx = 1 };
	struct npool_rx_stats s = { 1, 2 };
	struct app_ctr_col col = { &c, NULL, &s };
	struct rec r;

	/* Before app_stats_init(): no names for the drops. */
	assert_int_equal(walk(APP_CTR_JSON, APP_CTR_SEC_PORT, &col, 1, false,
			&r), -ENODEV);
	assert_int_equal(walk(APP_CTR_TEL, APP_CTR_SEC_RX, &col, 1, false,
			&r), 0);
	assert_string_equal(r.s, "copybreak_copied copybreak_nomem ");
}

static void
test_each_output_in_its_order(void **state __rte_unused)
{
	struct app_port_ctr c = { .rx = 10, .tx = 4, .fwd = 5,
		.drops = { 2, 1 } };
	struct rte_eth_stats e = { .ipackets = 10 };
	struct app_ctr_col col = { &c, &e, NULL };
	struct rec r;

	assert_int_equal(walk(APP_CTR_JSON, APP_CTR_SEC_PORT, &col, 1, false,
			&r), 0);
	assert_string_equal(r.s, "rx tx forwarded dropped drops{ bad worse } "
			"router{ said shouted } eth{ ipackets imissed ierrors "
			"rx_nombuf opackets oerrors } ");
	assert_int_equal(walk(APP_CTR_TEL, APP_CTR_SEC_PORT, &col, 1, false,
			&r), 0);
	assert_string_equal(r.s, "rx tx forwarded dropped in_flight "
			"drops{ bad worse } router{ said shouted } ");
	assert_int_equal(walk(APP_CTR_LINE, APP_CTR_SEC_PORT, &col, 1, false,
			&r), 0);
	assert_string_equal(r.s, "rx tx forwarded dropped in_flight ");
	/* in flight: 10 received, 5 forwarded, 3 dropped. */
	assert_int_equal(r.last[0], 2);
	/* The total's JSON: no ethdev counters. */
	col.eth = NULL;
	assert_int_equal(walk(APP_CTR_JSON, APP_CTR_SEC_PORT, &col, 1, false,
			&r), 0);
	assert_null(strstr(r.s, "eth{"));
}

static void
test_table_total_sums_the_columns(void **state __rte_unused)
{
	struct app_port_ctr c[2] = { { .rx = 3, .drops = { 1, 2 } },
		{ .rx = 4, .drops = { 0, 4 } } };
	struct rte_eth_stats e[2] = { { .oerrors = 7 }, { .oerrors = 1 } };
	struct app_ctr_col col[2] = { { &c[0], &e[0], NULL },
		{ &c[1], &e[1], NULL } };
	struct rec r;

	assert_int_equal(walk(APP_CTR_TABLE, APP_CTR_SEC_PORT, col, 2, true,
			&r), 0);
	/* Last row visited: eth oerrors, 7 + 1. */
	assert_int_equal(r.last[0], 7);
	assert_int_equal(r.last[1], 1);
	assert_int_equal(r.last[2], 8);
	/* An ethdev group needs every column's counters. */
	col[1].eth = NULL;
	assert_int_equal(walk(APP_CTR_TABLE, APP_CTR_SEC_PORT, col, 2, true,
			&r), 0);
	assert_null(strstr(r.s, "ipackets"));
	/* Dropped is the sum of the reasons, column by column. */
	assert_int_equal(r.dropped[0], 3);
	assert_int_equal(r.dropped[1], 4);
	assert_int_equal(r.dropped[2], 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_walk_needs_the_app_names),
		cmocka_unit_test_setup(test_each_output_in_its_order, setup),
		cmocka_unit_test_setup(test_table_total_sums_the_columns,
				setup),
	};

	return UT_MAIN("npool_ut_app_ctr", tests);
}
