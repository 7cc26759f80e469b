/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ICMP_H
#define FWD_ICMP_H

/**
 * @file
 * What npool-fwd says itself, once it has addresses (--port-addr): ARP
 * replies, NDP neighbour advertisements, echo replies for its own
 * addresses, and the ICMP errors of RFC 1812 (4.3.2, 5.2.7, 5.3.1) and
 * RFC 4443 as Linux sends them (net/ipv4/icmp.c __icmp_send(),
 * net/ipv6/icmp.c icmp6_send()), rate limited as Linux does. Slow path
 * only: a packet comes here after the checks gave it a drop verdict, and
 * it stays dropped (counted under its reason, or under "local" when it
 * was for the router); what is sent back leaves the receiving port.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "app_ctr.h"
#include "fwd_tables.h"
#include "fwd_addr.h"

/** The verdicts fwd_local_input() takes a look at. */
#define FWD_LOCAL_VERDICTS (UINT32_C(1) << FWD_NOT_IP | \
		UINT32_C(1) << FWD_MARTIAN_DST | \
		UINT32_C(1) << FWD_MARTIAN_SRC | \
		UINT32_C(1) << FWD_NO_ROUTE | \
		UINT32_C(1) << FWD_TTL_EXCEEDED | \
		UINT32_C(1) << FWD_MTU | \
		UINT32_C(1) << FWD_LOCAL | \
		UINT32_C(1) << FWD_BCAST | \
		UINT32_C(1) << FWD_MC_LOCAL | \
		UINT32_C(1) << FWD_NEIGH_FAILED | \
		UINT32_C(1) << FWD_UNREACHABLE | \
		UINT32_C(1) << FWD_PROHIBIT)

/** Whether fwd_local_input() wants a packet of drop verdict @p v. */
static inline bool
fwd_local_wants(const struct fwd_tables *t, unsigned int v)
{
	return t->addrs != NULL && t->addrs->ports != 0 && v < 32 &&
		((FWD_LOCAL_VERDICTS >> v) & 1);
}

/**
 * Answer a packet the checks dropped with verdict @p v, if anything is
 * to be answered: an ARP request or NDP solicitation for an address of
 * the router, an echo request to one, or an ICMP error. The packet is
 * read as fwd_classify() parsed it (m->packet_type, m->l2_len: no header
 * is parsed again). A packet that was for the router moves from its drop
 * reason to "local" in @p ic->drops. @p m is left to the caller (to
 * free).
 *
 * @param ic
 *   Counters of the port @p m came in on (drops and events).
 * @return The packet to send out of @p in_port, or NULL.
 */
struct rte_mbuf *fwd_local_input(const struct fwd_tables *t,
		struct app_port_ctr *ic, struct rte_mbuf *m, unsigned int v,
		uint16_t in_port);

/**
 * An ARP request (IPv4) or a neighbour solicitation (IPv6) as @p cmd
 * (FWD_CMD_SOLICIT) asks, to send out of cmd->port: Linux's
 * arp_solicit() (the sender address chosen as with arp_announce 0 from
 * cmd->src, the waiting packet's source; target hardware address 0,
 * broadcast unless a unicast probe) and ndisc_send_ns() (from cmd->src
 * when it is an address of the port, else its link-local one; hop limit
 * 255, the source link-layer address option, the solicited-node group
 * unless a unicast probe). Counted arp_request / nd_solicit in @p ic.
 *
 * @return The packet, or NULL: no address to send it from, or none to
 *   build it in (counted icmp_nomem).
 */
struct rte_mbuf *fwd_solicit(const struct fwd_tables *t,
		const struct fwd_cmd *cmd, struct app_port_ctr *ic);

/** The verdicts whose error the global bucket limits (all but frag
 * needed / packet too big, as icmpv4_mask_allow() and
 * icmpv6_mask_allow()). */
#define FWD_ICMP_LIMITED (UINT32_C(1) << FWD_TTL_EXCEEDED | \
		UINT32_C(1) << FWD_NO_ROUTE | \
		UINT32_C(1) << FWD_NEIGH_FAILED | \
		UINT32_C(1) << FWD_UNREACHABLE | \
		UINT32_C(1) << FWD_PROHIBIT)

#endif /* FWD_ICMP_H */
