/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CLI_H
#define FWD_CLI_H

/**
 * @file
 * npool-fwd's own options, beside the shared ones (app_cli.h), and the
 * checks that follow the command line.
 */

#include "app_cli.h"
#include "fwd.h"

/**
 * Describe npool-fwd's own options (--lookup, -L, -E, --rule_ipv4,
 * --rule_ipv6, --eth-dest, --mtu, --max-pkt-len, --parse-ptype, the
 * router's addresses and ICMP settings, --port-mtu, --mroute,
 * --bc-forwarding, --forward-otherhost, --fpm, --fpm-if, --fpm-sync-ms)
 * in @p cli (zeroed), and set @p fc's defaults. Main lcore.
 */
void fwd_cli_init(struct app_cli *cli, struct fwd_conf *fc);

/**
 * Parse the command line after EAL's (app_cli_next()), npool-fwd's own
 * options into @p fc. An --eth-dest port must exist (rte_ethdev); --mtu
 * and --max-pkt-len exclude each other. Main lcore.
 *
 * @return 0, or -1 with the exit status in cli->status.
 */
int fwd_cli_parse(struct app_cli *cli, struct app_opts *o, struct fwd_conf *fc,
		int argc, char **argv);

/**
 * Check the FPM options after the command line (--fpm-if and
 * --fpm-sync-ms need --fpm, --fpm-if ports are in -p), then, with --fpm,
 * listen once on its address to show it can be had and say that live
 * routes are not wired yet. Main lcore.
 * @return 0; -1 after app_err() naming the option (usage error); -2
 *   after app_err() when the address cannot be listened on (setup).
 */
int fwd_fpm_conf_check(struct fwd_conf *fc);

/**
 * Apply --port-mtu after the command line: every other enabled port
 * gets fc->t.mtu, and fc->t.mtu becomes the smallest (the bound of the
 * plain-packet test). A --port-mtu above the ports' MTU (max(--mtu,
 * 1500)) or on a port outside -p is an error.
 * @return 0, or -1 after app_err() naming --port-mtu.
 */
int fwd_port_mtu_apply(struct fwd_conf *fc);

#endif /* FWD_CLI_H */
