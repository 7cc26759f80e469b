/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_LOOKUP_H
#define FWD_LOOKUP_H

/**
 * @file
 * Route lookups of npool-fwd over the tables of --lookup (rte_lpm /
 * rte_lpm6 or rte_fib / rte_fib6), one address at a time: the slow path's
 * and the router's answers' (the one pass reads rte_lpm's tbl24 entry
 * itself, or looks a burst up in one rte_fib_lookup_bulk(): fwd_pass.h).
 * Every function gives a route's next hop (fwd_nh.h: fwd_hop_port() is
 * its port; or FWD_HOP_BAD, FWD_HOP_LOCAL, FWD_HOP_MARTIAN), or the
 * family's default route (t->def4, t->def6: -1
 * when there is none) for an address without one: the same answer for
 * both kinds of table. Any lcore (the tables are read-only while
 * running).
 */

#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>

#include "app_compat.h"
#include "fwd_tables.h"

/* rte_fib's answer as a next hop: FWD_FIB_MISS is "no route". */
static __rte_always_inline int32_t
fwd_fib_hop(uint64_t nh, int32_t def)
{
	return nh == FWD_FIB_MISS ? def : (int32_t)nh;
}

/**
 * The next hop of IPv4 address @p dst (host order). Kernel:
 * fib_lookup().
 * @return A next hop, or t->def4 without a route.
 */
static __rte_always_inline int32_t
fwd_lookup4(const struct fwd_tables *t, uint32_t dst)
{
	uint64_t nh;
	uint32_t hop;

	if (t->lookup == FWD_LOOKUP_FIB) {
		rte_fib_lookup_bulk(t->fib4, &dst, &nh, 1);
		return fwd_fib_hop(nh, t->def4);
	}
	return rte_lpm_lookup(t->lpm4, dst, &hop) == 0 ?
		(int32_t)hop : t->def4;
}

/**
 * The next hop of IPv6 address @p dst (16 bytes, network order).
 * Kernel: fib6_lookup().
 * @return A next hop, or t->def6 without a route.
 */
static __rte_always_inline int32_t
fwd_lookup6(const struct fwd_tables *t, const uint8_t *dst)
{
	uint8_t ip[1][16];
	uint64_t nh;
	uint32_t hop;

	if (t->lookup == FWD_LOOKUP_FIB) {
		memcpy(ip[0], dst, sizeof(ip[0]));
		app_fib6_lookup_bulk(t->fib6, ip, &nh, 1);
		return fwd_fib_hop(nh, t->def6);
	}
	return app_lpm6_lookup(t->lpm6, dst, &hop) == 0 ?
		(int32_t)hop : t->def6;
}

/**
 * The next hop of Ethernet frame @p p's IP destination: fwd_lookup6()
 * for an IPv6 EtherType, fwd_lookup4() for any other (the caller made
 * the frame, or the pass checked it, and its IP header is in @p p's
 * first segment). Kernel: ip_route_output_key() of ip_local_out().
 * @return A next hop, or the family's default without a route.
 */
static inline int32_t
fwd_lookup_frame(const struct fwd_tables *t, const uint8_t *p)
{
	uint32_t dst;

	if (p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) &&
			p[13] == (RTE_ETHER_TYPE_IPV6 & 0xff))
		return fwd_lookup6(t, p + RTE_ETHER_HDR_LEN + 24);
	memcpy(&dst, p + RTE_ETHER_HDR_LEN + 16, sizeof(dst));
	return fwd_lookup4(t, rte_be_to_cpu_32(dst));
}

/**
 * The egress port of next hop @p hop (a lookup's answer): its object's
 * port (fwd_nh.h); a hop that is none (no route, FWD_HOP_*) as it is.
 */
static __rte_always_inline int32_t
fwd_hop_port(const struct fwd_tables *t, int32_t hop)
{
	return (uint32_t)hop < FWD_NH_MAX ?
		fwd_nh_get(t->nht, (uint32_t)hop)->port : hop;
}

#endif /* FWD_LOOKUP_H */
