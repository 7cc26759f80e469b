/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CAST_H
#define FWD_CAST_H

/**
 * @file
 * What npool-fwd does with a frame not sent to the receiving port's
 * unicast MAC and with IP broadcast and multicast destinations, as a Linux
 * router does (net/ethernet/eth.c eth_type_trans(), net/ipv4/ip_input.c
 * ip_rcv_core(), route.c ip_route_input_slow(), ip_forward.c ip_forward(),
 * ipmr.c ip_mr_input(), and their IPv6 twins; RFC 1812 5.3.4):
 *  - a frame to another station's unicast MAC (PACKET_OTHERHOST) is
 *    dropped before anything else (l2_otherhost), on a promiscuous port
 *    too; --forward-otherhost takes it as one to the port instead;
 *  - a link-layer broadcast or multicast frame goes through the IP checks;
 *    unicast IP in it is not forwarded (l2_bcast, l2_mcast: ip_forward()
 *    takes PACKET_HOST only), yet it may be for the router (ARP, NDP, a
 *    ping of its address);
 *  - IPv4 255.255.255.255 and the directed broadcast of a port's prefix
 *    (--port-addr) are for the router (bcast), never forwarded as unicast
 *    nor sent back; with --bc-forwarding 1 a directed broadcast in a frame
 *    to the port leaves the prefix's port as a link broadcast;
 *  - IP multicast is routed by its (S,G) or (*,G) route (--mroute,
 *    fwd_mcast.h) in any frame the port takes, whatever its MAC.
 * Slow path: fwd_classify() hands such a frame here (fwd_cast_wants()),
 * with the verdict of the IP checks. The fast path pays a 6-byte compare
 * of the destination MAC (fwd_eth_to_port()) and, with --port-addr, a
 * look at the source's last octet (fwd_tables.own4_octet).
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "fwd_tables.h"

struct fwd_meta;

/** The 48 bits of a MAC in a 64-bit load of a frame's first 8 bytes. */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define FWD_MAC48_MASK UINT64_C(0x0000ffffffffffff)
#else
#define FWD_MAC48_MASK UINT64_C(0xffffffffffff0000)
#endif

/**
 * Whether the frame at @p p (at least 8 bytes readable) is sent to the
 * MAC @p mac (fwd_tables.rx_mac of the receiving port): one load, one xor,
 * one and. Kernel: eth_type_trans()'s ether_addr_equal_64bits().
 */
static __rte_always_inline uint32_t
fwd_eth_to_port(const uint8_t *p, uint64_t mac)
{
	uint64_t d;

	memcpy(&d, p, sizeof(d));
	return ((d ^ mac) & FWD_MAC48_MASK) == 0;
}

/** fwd_tables.rx_mac of port @p port (any value: masked). */
static __rte_always_inline uint64_t
fwd_rx_mac(const struct fwd_tables *t, uint16_t port)
{
	RTE_BUILD_BUG_ON(!RTE_IS_POWER_OF_2(RTE_MAX_ETHPORTS));
	return t->rx_mac[port & (RTE_MAX_ETHPORTS - 1)];
}

/**
 * Whether fwd_classify() hands a packet of verdict @p v (of the IP
 * checks) to fwd_cast_classify(): a frame of at least 14 bytes not to
 * the port's MAC, or an IP destination that is no unicast one.
 */
static __rte_always_inline bool
fwd_cast_wants(const struct fwd_tables *t, const struct rte_mbuf *m, int v)
{
	return v == FWD_MARTIAN_DST || v == FWD_BCAST ||
		(m->data_len >= RTE_ETHER_HDR_LEN &&
		 !fwd_eth_to_port(rte_pktmbuf_mtod(m, const uint8_t *),
			 fwd_rx_mac(t, m->port)));
}

/**
 * The verdict of a frame fwd_cast_wants(), from @p v, the verdict of
 * the IP checks (fwd_classify()'s rules for a frame to the port), as the
 * file's comment says. Slow path, any lcore.
 *
 * @param md
 *   As fwd_classify() filled it (l2_len at least); for FWD_PASS /
 *   FWD_FRAGMENT of a forwarded directed broadcast, the port of its
 *   prefix and l2_bcast set; for FWD_MCAST, the route (fwd_mcast.h).
 * @return A drop reason, FWD_PASS, FWD_FRAGMENT or FWD_MCAST.
 */
int fwd_cast_classify(const struct fwd_tables *t, struct rte_mbuf *m,
		struct fwd_meta *md, int v);

#endif /* FWD_CAST_H */
