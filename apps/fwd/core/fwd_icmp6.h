/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ICMP6_H
#define FWD_ICMP6_H

/**
 * @file
 * The IPv6 half of npool-fwd's answers (fwd_icmp.h): NDP, echo replies,
 * ICMPv6 errors, neighbour solicitations.
 */

#include <rte_mbuf.h>

#include "fwd_reply.h"

/** The IPv6 part of fwd_local_input() (fwd_icmp6.c). */
struct rte_mbuf *fwd_ip6_input(const struct fwd_rx_pkt *r);

/** The IPv6 part of fwd_solicit() (fwd_icmp6.c). */
struct rte_mbuf *fwd_ns_build(const struct fwd_tables *t,
		const struct fwd_cmd *cmd, struct app_port_ctr *ic);

#endif /* FWD_ICMP6_H */
