/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's own options (--lookup, -L, -E, --rule_ipv4/6, --eth-dest,
 * --mtu, --max-pkt-len, --parse-ptype, the router's addresses and ICMP
 * settings, --port-mtu, --mroute, --bc-forwarding, --forward-otherhost,
 * the FPM listener's --fpm, --fpm-if, --fpm-sync-ms), taken as
 * app_cli_next() hands them over beside the shared ones.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include <rte_ethdev.h>

#include "app_cli.h"
#include "fwd_addr.h"
#include "fwd_addr_cli.h"
#include "fwd_cli.h"
#include "fwd_fpm_conn.h"

enum {
	OPT_LOOKUP = APP_OPT_APP_BASE,
	OPT_RULE_IPV4,
	OPT_RULE_IPV6,
	OPT_ETH_DEST,
	OPT_MTU,
	OPT_MAX_PKT_LEN,
	OPT_PARSE_PTYPE,
	OPT_PORT_ADDR,
	OPT_PORT_MTU,
	OPT_ICMP_RATELIMIT,
	OPT_ICMP_MSGS_PER_SEC,
	OPT_ICMP_MSGS_BURST,
	OPT_FORWARD_OTHERHOST,
	OPT_BC_FORWARDING,
	OPT_ECHO_IGNORE_BCAST,
	OPT_MROUTE,
	OPT_ROUTE_MAX,
	OPT_NEIGH,
	OPT_NEIGH_FILE,
	OPT_FPM,
	OPT_FPM_IF,
	OPT_FPM_SYNC_MS,
};

/* The router's addresses and ICMP settings of the command line. */
static struct fwd_addrs fwd_cli_addrs;

/* l3fwd's --max-pkt-len range (MAX_JUMBO_PKT_LEN 9600) from the frame of
 * the smallest IP MTU --mtu takes (68, RFC 791) up. */
#define MIN_PKT_LEN (RTE_ETHER_MIN_MTU + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)
#define MAX_PKT_LEN 9600

static const struct option fwd_long_opts[] = {
	{ "lookup", required_argument, NULL, OPT_LOOKUP },
	{ "rule_ipv4", required_argument, NULL, OPT_RULE_IPV4 },
	{ "rule_ipv6", required_argument, NULL, OPT_RULE_IPV6 },
	{ "eth-dest", required_argument, NULL, OPT_ETH_DEST },
	{ "mtu", required_argument, NULL, OPT_MTU },
	{ "max-pkt-len", required_argument, NULL, OPT_MAX_PKT_LEN },
	{ "parse-ptype", no_argument, NULL, OPT_PARSE_PTYPE },
	{ "port-addr", required_argument, NULL, OPT_PORT_ADDR },
	{ "port-mtu", required_argument, NULL, OPT_PORT_MTU },
	{ "icmp-ratelimit", required_argument, NULL, OPT_ICMP_RATELIMIT },
	{ "icmp-msgs-per-sec", required_argument, NULL,
		OPT_ICMP_MSGS_PER_SEC },
	{ "icmp-msgs-burst", required_argument, NULL, OPT_ICMP_MSGS_BURST },
	{ "forward-otherhost", no_argument, NULL, OPT_FORWARD_OTHERHOST },
	{ "bc-forwarding", required_argument, NULL, OPT_BC_FORWARDING },
	{ "icmp-echo-ignore-broadcasts", required_argument, NULL,
		OPT_ECHO_IGNORE_BCAST },
	{ "mroute", required_argument, NULL, OPT_MROUTE },
	{ "route-max", required_argument, NULL, OPT_ROUTE_MAX },
	{ "neigh", required_argument, NULL, OPT_NEIGH },
	{ "neigh-file", required_argument, NULL, OPT_NEIGH_FILE },
	{ "fpm", required_argument, NULL, OPT_FPM },
	{ "fpm-if", required_argument, NULL, OPT_FPM_IF },
	{ "fpm-sync-ms", required_argument, NULL, OPT_FPM_SYNC_MS },
	{ NULL, 0, NULL, 0 },
};

static const char fwd_usage[] =
	"  --lookup lpm|fib|em route tables: rte_lpm + rte_lpm6 (lpm, the\n"
	"                      default) or rte_fib DIR24_8 + rte_fib6 TRIE (fib),\n"
	"                      same routes, same results; em: l3fwd's exact\n"
	"                      match of 5-tuples (its EM route files), a miss\n"
	"                      goes back out of the receiving port\n"
	"  -E                  --lookup em (l3fwd's flag)\n"
	"  --rule_ipv4 FILE    IPv4 routes, l3fwd syntax \"R<prefix>/<depth> <port>\"\n"
	"                      (depth 0: default route; default: l3fwd's table);\n"
	"                      as in l3fwd, a route to a port outside -p is left\n"
	"                      out (with a warning naming its line); also\n"
	"                      \"R<prefix>/<depth> [<port>] via <addr>\" (by a\n"
	"                      gateway; without a port, the one whose prefix\n"
	"                      holds it) and \"R<prefix>/<depth> blackhole|\n"
	"                      unreachable|prohibit\"\n"
	"  --rule_ipv6 FILE    IPv6 routes, same syntax\n"
	"  --eth-dest PORT,MAC destination MAC of packets leaving PORT (repeat;\n"
	"                      default 02:00:00:00:00:<port>)\n"
	"  --mtu BYTES         egress IP MTU of every port, 68..65535 (default\n"
	"                      1500); longer IPv4 with DF clear is fragmented;\n"
	"                      the ports' MTU is max(BYTES, 1500)\n"
	"  --max-pkt-len BYTES l3fwd's way to set the MTU: the largest frame, CRC\n"
	"                      included, 86..9600; egress MTU BYTES - 18, port\n"
	"                      MTU BYTES less the device's overhead (at least\n"
	"                      1500); not together with --mtu\n"
	"  -L                  --lookup lpm (l3fwd's legacy flag)\n"
	"  --parse-ptype       accepted: npool-fwd always parses headers in\n"
	"                      software (what l3fwd's flag asks for)\n"
	"  --port-addr PORT,ADDR/LEN[,ADDR/LEN...]\n"
	"                      the router's IPv4/IPv6 addresses on PORT (repeat);\n"
	"                      it then answers ARP, NDP and ping for them and\n"
	"                      sends ICMP errors (its IPv6 link-local address is\n"
	"                      the MAC's EUI-64); each prefix is a connected\n"
	"                      route; without --eth-dest for PORT, next hops\n"
	"                      on it are resolved by ARP / NDP\n"
	"  --neigh PORT,ADDR,MAC  a permanent neighbour (repeat)\n"
	"  --neigh-file FILE   permanent neighbours, a line each: \"ADDR lladdr\n"
	"                      MAC dev PORT [nud permanent]\"\n"
	"  --route-max N       routes of each family the tables make room for\n"
	"                      when they change while running (1024..16777216,\n"
	"                      default 262144)\n"
	"  --port-mtu PORT,BYTES  egress IP MTU of PORT, 68 .. the ports' MTU\n"
	"                      (repeat; default --mtu): what frag needed and\n"
	"                      packet too big then say\n"
	"  --icmp-ratelimit MS ICMP errors to one destination: one per MS, 6 at\n"
	"                      once (Linux icmp_ratelimit; default 1000, 0 = no\n"
	"                      limit); frag needed / packet too big unlimited\n"
	"  --icmp-msgs-per-sec N  ICMP errors per second per port and lcore\n"
	"                      (Linux icmp_msgs_per_sec; default 1000, 0 = no\n"
	"                      limit)\n"
	"  --icmp-msgs-burst N bucket depth of --icmp-msgs-per-sec (Linux\n"
	"                      icmp_msgs_burst; default 50)\n"
	"  --icmp-echo-ignore-broadcasts 0|1  1 (default, as Linux's sysctl):\n"
	"                      echo requests to a broadcast address go\n"
	"                      unanswered; 0: answered from the receiving port\n"
	"  --bc-forwarding 0|1 1: a directed broadcast to a port's prefix\n"
	"                      (--port-addr) leaves that port as a link\n"
	"                      broadcast (Linux bc_forwarding); 0 (default):\n"
	"                      it is for the router\n"
	"  --mroute FILE       static multicast routes, a line each:\n"
	"                      \"mroute from PORT [source ADDR] group GROUP to\n"
	"                      PORT[:TTL] ...\" (IPv4, IPv6; (S,G) or (*,G))\n"
	"  --forward-otherhost route frames sent to other stations' MACs as if\n"
	"                      sent to the port (as l3fwd, for replaying\n"
	"                      captures); default: dropped (l2_otherhost)\n"
	"  --fpm [ADDR][:PORT] listen for FRR zebra's FPM connection (zebra -M\n"
	"                      dplane_fpm_nl) on ADDR (default 127.0.0.1; IPv6\n"
	"                      as [ADDR]:PORT), PORT (default 2620), in\n"
	"                      zebra's network namespace\n"
	"  --fpm-if PORT,IFNAME  zebra's interface IFNAME is PORT (repeat):\n"
	"                      routes via it leave PORT\n"
	"  --fpm-sync-ms MS    after zebra (re)connects, the FPM routes it has\n"
	"                      not sent again after MS quiet go (default 300)\n"
	"l3fwd 22.11 options: -p -P -L -E --config --eth-dest --lookup lpm|fib|em\n"
	"  --rule_ipv4 --rule_ipv6 --max-pkt-len --rx-queue-size\n"
	"  --tx-queue-size --no-numa --parse-ptype as l3fwd; refused:\n"
	"  --lookup acl, --ipv6, --hash-entry-num, --per-port-pool, --mode,\n"
	"  --eventq-sched, --event-eth-rxqs, --event-vector[-size|-tmo], --alg\n";

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
parse_port_mtu(struct fwd_conf *fc, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char port_s[16];
	uint64_t port, v;

	if (comma == NULL || (size_t)(comma - arg) >= sizeof(port_s)) {
		app_err("--port-mtu: '%s' is not PORT,BYTES", arg);
		return -1;
	}
	memcpy(port_s, arg, comma - arg);
	port_s[comma - arg] = '\0';
	if (app_parse_u64("--port-mtu", port_s, 0,
			RTE_MIN(RTE_MAX_ETHPORTS, 64) - 1, &port) < 0 ||
			app_parse_u64("--port-mtu", comma + 1,
				RTE_ETHER_MIN_MTU, UINT16_MAX, &v) < 0)
		return -1;
	fc->t.port_mtu[port] = (uint16_t)v;
	return 0;
}

int
fwd_port_mtu_apply(struct fwd_conf *fc)
{
	const uint32_t port_mtu = RTE_MAX((uint32_t)fc->t.mtu,
			(uint32_t)RTE_ETHER_MTU);
	uint16_t p, least = fc->t.mtu;
	bool any = false;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (fc->t.port_mtu[p] == 0)
			continue;
		if (p >= 64 || !(fc->t.portmask & (UINT64_C(1) << p))) {
			app_err("--port-mtu: port %u is not enabled in -p", p);
			return -1;
		}
		if (fc->t.port_mtu[p] > port_mtu) {
			app_err("--port-mtu: %u for port %u is above the ports' MTU %u (max(--mtu, 1500))",
					fc->t.port_mtu[p], p, port_mtu);
			return -1;
		}
		any = true;
	}
	if (!any)
		return 0;
	for (p = 0; p < RTE_MAX_ETHPORTS && p < 64; p++) {
		if (!(fc->t.portmask & (UINT64_C(1) << p)))
			continue;
		if (fc->t.port_mtu[p] == 0)
			fc->t.port_mtu[p] = fc->t.mtu;
		least = RTE_MIN(least, fc->t.port_mtu[p]);
	}
	/* The plain-packet test's bound: above it, the port's is read. */
	fc->t.mtu = least;
	return 0;
}

/* --fpm, --fpm-if, --fpm-sync-ms. */
static int
parse_fpm(struct fwd_conf *fc, int opt, const char *arg)
{
	const char *why = NULL;
	uint64_t v;

	if (opt == OPT_FPM_SYNC_MS) {
		if (app_parse_u64("--fpm-sync-ms", arg, 1, 60000, &v) < 0)
			return -1;
		fc->fpm.sync_ms = (uint32_t)v;
		if (fc->fpm_opt == NULL)
			fc->fpm_opt = "--fpm-sync-ms";
		return 0;
	}
	if (opt == OPT_FPM && fwd_fpm_parse_addr(&fc->fpm, arg, &why) < 0) {
		app_err("--fpm: '%s': %s ([ADDR][:PORT], e.g. 127.0.0.1:2620 or [::1]:2620)",
				arg, why);
		return -1;
	}
	if (opt == OPT_FPM_IF && fwd_fpm_parse_if(&fc->fpm, arg, &why) < 0) {
		app_err("--fpm-if: '%s': %s (PORT,IFNAME)", arg, why);
		return -1;
	}
	if (opt == OPT_FPM)
		fc->fpm_on = true;
	else if (fc->fpm_opt == NULL)
		fc->fpm_opt = "--fpm-if";
	return 0;
}

int
fwd_fpm_conf_check(struct fwd_conf *fc)
{
	unsigned int i;

	if (!fc->fpm_on) {
		if (fc->fpm_opt != NULL) {
			app_err("%s: only with --fpm", fc->fpm_opt);
			return -1;
		}
		return 0;
	}
	for (i = 0; i < fc->fpm.nb_ifs; i++) {
		if (!(fc->t.portmask & (UINT64_C(1) << fc->fpm.ifs[i].port))) {
			app_err("--fpm-if: port %u is not enabled in -p",
					fc->fpm.ifs[i].port);
			return -1;
		}
		if (if_nametoindex(fc->fpm.ifs[i].name) == 0)
			printf("--fpm-if: no interface %s in this network namespace yet: looked up again when zebra names an unknown one\n",
					fc->fpm.ifs[i].name);
	}
	if (fc->t.lookup == FWD_LOOKUP_EM) {
		app_err("--fpm: live routes need --lookup lpm or fib (an exact-match table has no prefixes)");
		return -1;
	}
	return 0;
}

static int
fwd_parse_opt(struct fwd_conf *fc, int opt, const char *arg)
{
	uint64_t v;

	switch (opt) {
	case 'L':
		fc->t.lookup = FWD_LOOKUP_LPM;
		return 0;
	case 'E':
		fc->t.lookup = FWD_LOOKUP_EM;
		return 0;
	case OPT_LOOKUP:
		if (strcmp(arg, "lpm") == 0) {
			fc->t.lookup = FWD_LOOKUP_LPM;
		} else if (strcmp(arg, "fib") == 0) {
			fc->t.lookup = FWD_LOOKUP_FIB;
		} else if (strcmp(arg, "em") == 0) {
			fc->t.lookup = FWD_LOOKUP_EM;
		} else {
			app_err("--lookup: '%s' is not supported (lpm, fib or em)",
					arg);
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
		if (fc->max_pkt_len != 0) {
			app_err("--mtu: not together with --max-pkt-len (both set the MTU; --max-pkt-len N is --mtu N-18)");
			return -1;
		}
		if (app_parse_u64("--mtu", arg, RTE_ETHER_MIN_MTU, UINT16_MAX,
				&v) < 0)
			return -1;
		fc->t.mtu = (uint16_t)v;
		fc->mtu_set = true;
		return 0;
	case OPT_MAX_PKT_LEN:
		if (fc->mtu_set) {
			app_err("--max-pkt-len: not together with --mtu (both set the MTU; --max-pkt-len N is --mtu N-18)");
			return -1;
		}
		if (app_parse_u64("--max-pkt-len", arg, MIN_PKT_LEN,
				MAX_PKT_LEN, &v) < 0)
			return -1;
		/* l3fwd: MTU = frame - overhead; the egress limit in
		 * software, 18 bytes of Ethernet header and CRC less. */
		fc->max_pkt_len = (uint32_t)v;
		fc->t.mtu = (uint16_t)(v - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN);
		return 0;
	case OPT_PORT_ADDR:
		return fwd_addr_parse(fc->addrs, arg);
	case OPT_PORT_MTU:
		return parse_port_mtu(fc, arg);
	case OPT_ICMP_RATELIMIT:
		if (app_parse_u64("--icmp-ratelimit", arg, 0, 3600000, &v) < 0)
			return -1;
		fc->addrs->ratelimit_ms = (uint32_t)v;
		return 0;
	case OPT_ICMP_MSGS_PER_SEC:
		if (app_parse_u64("--icmp-msgs-per-sec", arg, 0, UINT32_MAX,
				&v) < 0)
			return -1;
		fc->addrs->msgs_per_sec = (uint32_t)v;
		return 0;
	case OPT_ICMP_MSGS_BURST:
		if (app_parse_u64("--icmp-msgs-burst", arg, 1, UINT32_MAX,
				&v) < 0)
			return -1;
		fc->addrs->msgs_burst = (uint32_t)v;
		return 0;
	case OPT_FORWARD_OTHERHOST:
		fc->t.forward_otherhost = true;
		return 0;
	case OPT_BC_FORWARDING:
		if (app_parse_u64("--bc-forwarding", arg, 0, 1, &v) < 0)
			return -1;
		fc->t.bc_forwarding = v != 0;
		return 0;
	case OPT_ECHO_IGNORE_BCAST:
		if (app_parse_u64("--icmp-echo-ignore-broadcasts", arg, 0, 1,
				&v) < 0)
			return -1;
		fc->addrs->echo_ignore_bcast = v != 0;
		return 0;
	case OPT_MROUTE:
		fc->mroute_file = arg;
		return 0;
	case OPT_ROUTE_MAX:
		if (app_parse_u64("--route-max", arg, 1024, 1u << 24, &v) < 0)
			return -1;
		fc->route_max = (uint32_t)v;
		return 0;
	case OPT_NEIGH:
		return fwd_neigh_parse(fc, arg);
	case OPT_NEIGH_FILE:
		fc->neigh_file = arg;
		return 0;
	case OPT_FPM:
	case OPT_FPM_IF:
	case OPT_FPM_SYNC_MS:
		return parse_fpm(fc, opt, arg);
	case OPT_PARSE_PTYPE:
		printf("--parse-ptype: npool-fwd parses every header in software already (it uses no PMD packet type): nothing to change\n");
		return 0;
	}
	app_err("unknown option");
	return -1;
}

void
fwd_cli_init(struct app_cli *cli, struct fwd_conf *fc)
{
	memset(cli, 0, sizeof(*cli));
	cli->usage = fwd_usage;
	cli->short_opts = "LE";
	cli->long_opts = fwd_long_opts;
	fwd_addr_init(&fwd_cli_addrs);
	fc->addrs = &fwd_cli_addrs;
	fc->route_max = FWD_ROUTE_MAX_DEFAULT;
	fwd_fpm_params_init(&fc->fpm);
}

int
fwd_cli_parse(struct app_cli *cli, struct app_opts *o, struct fwd_conf *fc,
		int argc, char **argv)
{
	int opt;

	while ((opt = app_cli_next(cli, o, argc, argv)) > 0)
		if (fwd_parse_opt(fc, opt, cli->arg) < 0)
			return app_cli_fail(cli, o);
	return opt;
}
