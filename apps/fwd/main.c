/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd: l3fwd-compatible LPM forwarding over npool's pools, with the
 * RFC 1812 router rules of docs/npool-fwd.md. This file: the command line
 * of its own (--lookup, --rule_ipv4/6, --eth-dest, --mtu), setup, run and
 * the report; apps/common does ports, pools, stats and the run loop.
 */
#include <string.h>

#include <rte_ethdev.h>

#include "app_cli.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "fwd.h"

const char *const fwd_reason_names[FWD_NB_REASONS] = {
	[FWD_TRUNCATED] = "truncated",
	[FWD_VLAN] = "vlan",
	[FWD_NOT_IP] = "not_ip",
	[FWD_IP_VERSION] = "ip_version",
	[FWD_IPV4_IHL] = "ipv4_ihl",
	[FWD_IPV4_LEN] = "ipv4_len",
	[FWD_IPV4_CSUM] = "ipv4_csum",
	[FWD_IPV6_LEN] = "ipv6_len",
	[FWD_MARTIAN_DST] = "martian_dst",
	[FWD_MARTIAN_SRC] = "martian_src",
	[FWD_NO_ROUTE] = "no_route",
	[FWD_BAD_PORT] = "bad_port",
	[FWD_TTL_EXCEEDED] = "ttl_exceeded",
	[FWD_MTU] = "mtu",
	[FWD_FRAG_FAIL] = "frag_fail",
	[FWD_TX_FULL] = "tx_full",
};

enum {
	OPT_LOOKUP = APP_OPT_APP_BASE,
	OPT_RULE_IPV4,
	OPT_RULE_IPV6,
	OPT_ETH_DEST,
	OPT_MTU,
};

static const struct option fwd_long_opts[] = {
	{ "lookup", required_argument, NULL, OPT_LOOKUP },
	{ "rule_ipv4", required_argument, NULL, OPT_RULE_IPV4 },
	{ "rule_ipv6", required_argument, NULL, OPT_RULE_IPV6 },
	{ "eth-dest", required_argument, NULL, OPT_ETH_DEST },
	{ "mtu", required_argument, NULL, OPT_MTU },
	{ NULL, 0, NULL, 0 },
};

static const char fwd_usage[] =
	"  --lookup lpm        route lookup: rte_lpm + rte_lpm6 (the only one)\n"
	"  --rule_ipv4 FILE    IPv4 routes, l3fwd syntax \"R<prefix>/<depth> <port>\"\n"
	"                      (depth 0: default route; default: l3fwd's table)\n"
	"  --rule_ipv6 FILE    IPv6 routes, same syntax\n"
	"  --eth-dest PORT,MAC destination MAC of packets leaving PORT (repeat;\n"
	"                      default 02:00:00:00:00:<port>)\n"
	"  --mtu BYTES         egress IP MTU of every port, 68..65535 (default\n"
	"                      1500); longer IPv4 with DF clear is fragmented\n";

/* Fragments of one packet at most in flight per lcore, for pool sizing. */
#define FRAG_POOL_MBUFS 8192u
/* Direct fragment mbufs hold one IPv4 header behind the headroom. */
#define FRAG_DIRECT_ROOM (RTE_PKTMBUF_HEADROOM + 64)

static int
parse_eth_dest(struct fwd_conf *fc, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char port_s[16];
	uint64_t port;

	if (comma == NULL || (size_t)(comma - arg) >= sizeof(port_s)) {
		app_err("--eth-dest: '%s' is not PORT,MAC", arg);
		return -1;
	}
	memcpy(port_s, arg, comma - arg);
	port_s[comma - arg] = '\0';
	if (app_parse_u64("--eth-dest", port_s, 0, RTE_MAX_ETHPORTS - 1,
			&port) < 0 ||
			app_parse_mac("--eth-dest", comma + 1,
				&fc->eth_dest[port]) < 0)
		return -1;
	if (!rte_eth_dev_is_valid_port((uint16_t)port)) {
		app_err("--eth-dest: port %u does not exist", (unsigned int)port);
		return -1;
	}
	fc->eth_dest_set |= UINT32_C(1) << port;
	return 0;
}

static int
fwd_parse_opt(int opt, const char *arg, void *ctx)
{
	struct fwd_conf *fc = ctx;
	uint64_t v;

	switch (opt) {
	case OPT_LOOKUP:
		if (strcmp(arg, "lpm") != 0) {
			app_err("--lookup: '%s' is not supported (only lpm)", arg);
			return -1;
		}
		return 0;
	case OPT_RULE_IPV4:
		fc->rule4 = arg;
		return 0;
	case OPT_RULE_IPV6:
		fc->rule6 = arg;
		return 0;
	case OPT_ETH_DEST:
		return parse_eth_dest(fc, arg);
	case OPT_MTU:
		if (app_parse_u64("--mtu", arg, RTE_ETHER_MIN_MTU, UINT16_MAX,
				&v) < 0)
			return -1;
		fc->mtu = (uint16_t)v;
		return 0;
	}
	app_err("unknown option");
	return -1;
}

/* Fragment pools and the Ethernet addresses of each port. */
static int
fwd_setup(struct fwd_conf *fc, const struct app_opts *o)
{
	unsigned int descs = app_ports_tx_descs();
	uint16_t p;

	fc->frag_direct = app_pool_create("frag_dir", FRAG_POOL_MBUFS + descs,
			FRAG_DIRECT_ROOM, SOCKET_ID_ANY, o->pool);
	fc->frag_indirect = app_pool_create("frag_ind",
			2 * FRAG_POOL_MBUFS + descs, 0, SOCKET_ID_ANY, o->pool);
	if (fc->frag_direct == NULL || fc->frag_indirect == NULL)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct fwd_l2 *l2 = &fc->l2[p];

		l2->src = app_port_mac[p];
		if (fc->eth_dest_set & (UINT32_C(1) << p)) {
			l2->dst = fc->eth_dest[p];
		} else {
			memset(&l2->dst, 0, sizeof(l2->dst));
			l2->dst.addr_bytes[0] = 0x02;
			l2->dst.addr_bytes[5] = (uint8_t)p;
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct app_stats_desc desc = {
		"npool-fwd", fwd_reason_names, FWD_NB_REASONS,
		.rx_bad = FWD_TRUNCATED,
	};
	static struct fwd_conf fc = { .mtu = RTE_ETHER_MTU };
	static struct app_opts o;
	const struct app_cli cli = {
		fwd_usage, NULL, fwd_long_opts, fwd_parse_opt, &fc,
	};
	struct app_port_params pp = { .tx = true };
	int ret, status;

	status = app_run_init(argc, argv, &o, "npool-fwd", &cli);
	if (status >= 0)
		goto out;
	fc.portmask = o.portmask;
	fc.copybreak = (uint16_t)o.copybreak;
	ret = fwd_routes_load(&fc);
	if (ret == -1)
		app_cli_usage(stderr, &o, &cli);
	if (ret != 0) {
		status = ret == -1 ? APP_EXIT_USAGE : APP_EXIT_SETUP;
		goto out;
	}
	pp.mtu = fc.mtu;
	if (app_pool_init(&o, 0) < 0 || app_ports_start(&o, &pp) < 0 ||
			fwd_setup(&fc, &o) < 0) {
		status = APP_EXIT_SETUP;
		goto out;
	}
	app_stats_init(&desc, &o);
	status = app_run_report(&o, app_run(&o, fwd_lcore_main, &fc));
out:
	fwd_routes_free(&fc);
	app_run_cleanup();
	return status;
}
