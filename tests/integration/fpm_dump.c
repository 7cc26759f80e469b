/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fpm-dump: npool-fwd's FPM reader (apps/fwd/ctl/fwd_fpm.h) alone, for
 * the tests with the real zebra (fpm_zebra.py) and by hand: it listens
 * as npool-fwd would and prints each change its sink is told, one line
 * each, flushed:
 *   listening 127.0.0.1:2620
 *   sync begin
 *   add 198.18.10.0/24 unicast via 198.18.1.2 port 1
 *   replace 2001:2:0:10::/64 blackhole
 *   del 198.18.10.0/24
 *   sync done
 * ("port any": the gateway's connected prefix will say), and the reader's
 * own lines on stderr. SIGINT / SIGTERM end it; --json FILE then gets
 * the counters (the "fpm" object npool-fwd's --json will have).
 *
 *   fpm-dump [--fpm [ADDR][:PORT]] [--fpm-if PORT,IFNAME]...
 *            [--fpm-sync-ms MS] [--json FILE]
 * Exit 0, or 2 for a bad command line, 1 when it cannot listen.
 *
 * Functions: d_route(), d_begin(), d_done() (the sink), on_signal(),
 * parse_args(), write_json(), main().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "app_json.h"
#include "app_log.h"
#include "fwd_fpm_conn.h"
#include "fwd_fpm_stats.h"

static volatile sig_atomic_t stop;

static int
d_route(void *ctx __attribute__((unused)), enum fwd_fpm_op op,
		const struct fwd_rt *rt)
{
	static const char *const ops[] = { "add", "del", "replace" };
	static const char *const types[] = {
		"unicast", "blackhole", "unreachable", "prohibit",
	};
	char dst[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	int af = rt->v6 ? AF_INET6 : AF_INET;

	inet_ntop(af, rt->dst, dst, sizeof(dst));
	printf("%s %s/%u", ops[op], dst, rt->depth);
	if (op != FWD_FPM_DEL) {
		printf(" %s", rt->type < 4 ? types[rt->type] : "?");
		if (rt->has_gw)
			printf(" via %s", inet_ntop(af, rt->gw, gw, sizeof(gw)));
		if (rt->type == FWD_RT_UNICAST && rt->port == FWD_RT_PORT_ANY)
			printf(" port any");
		else if (rt->type == FWD_RT_UNICAST)
			printf(" port %u", rt->port);
	}
	printf("\n");
	return 0;
}

static void
d_begin(void *ctx __attribute__((unused)))
{
	printf("sync begin\n");
}

static void
d_done(void *ctx __attribute__((unused)))
{
	printf("sync done\n");
}

static void
on_signal(int sig __attribute__((unused)))
{
	stop = 1;
}

/* The options into @p p and @p json. @return 0, or -1 after a line. */
static int
parse_args(int argc, char **argv, struct fwd_fpm_params *p,
		const char **json)
{
	static const struct option opts[] = {
		{ "fpm", required_argument, NULL, 'f' },
		{ "fpm-if", required_argument, NULL, 'i' },
		{ "fpm-sync-ms", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *why = NULL;
	char *end;
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (fwd_fpm_parse_addr(p, optarg, &why) < 0)
				goto bad;
			break;
		case 'i':
			if (fwd_fpm_parse_if(p, optarg, &why) < 0)
				goto bad;
			break;
		case 's':
			v = strtol(optarg, &end, 10);
			why = "not 1..60000";
			if (*end != '\0' || v < 1 || v > 60000)
				goto bad;
			p->sync_ms = (uint32_t)v;
			break;
		case 'j':
			*json = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind == argc)
		return 0;
	app_err("unexpected argument '%s'", argv[optind]);
	return -1;
bad:
	app_err("%s: '%s': %s", argv[optind - 1], optarg, why);
	return -1;
}

/* The counters into @p path. */
static void
write_json(const char *path, const struct fwd_fpm *f)
{
	struct app_json j;
	FILE *out = fopen(path, "w");

	if (out == NULL) {
		app_err("--json: %s: %s", path, strerror(errno));
		return;
	}
	app_json_init(&j, out);
	app_json_obj_begin(&j, NULL);
	fwd_fpm_json(&j, f);
	app_json_obj_end(&j);
	fputc('\n', out);
	fclose(out);
}

int
main(int argc, char **argv)
{
	const struct fwd_fpm_sink sink = {
		.route = d_route, .sync_begin = d_begin, .sync_done = d_done,
	};
	struct fwd_fpm_params p;
	struct epoll_event ev;
	const char *json = NULL;
	struct fwd_fpm *f;
	char addr[64];
	int rc, wait;

	app_err_set_prog("fpm-dump");
	setvbuf(stdout, NULL, _IOLBF, 0);
	fwd_fpm_params_init(&p);
	if (parse_args(argc, argv, &p, &json) < 0)
		return 2;
	f = fwd_fpm_create(&p, &sink);
	rc = f != NULL ? fwd_fpm_listen(f) : -errno;
	if (rc < 0) {
		app_err("cannot listen on %s: %s",
				fwd_fpm_addr_text(&p.addr, addr, sizeof(addr)),
				strerror(-rc));
		fwd_fpm_free(f);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("listening %s\n", fwd_fpm_addr_text(&p.addr, addr,
				sizeof(addr)));
	wait = -1;
	while (!stop) {
		/* Wake at least every 100 ms to see a signal. */
		if (wait < 0 || wait > 100)
			wait = 100;
		epoll_wait(fwd_fpm_fd(f), &ev, 1, wait);
		wait = fwd_fpm_poll(f, fwd_fpm_now_ms());
	}
	if (json != NULL)
		write_json(json, f);
	fwd_fpm_free(f);
	return 0;
}
