/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_META_H
#define FWD_META_H

/**
 * @file
 * What the checks of npool-fwd's slow path learn about a packet to
 * forward (fwd_check.h, fwd_cast.h, fwd_mcast.h fill it), and the header
 * reads and writes they share.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

struct fwd_nh;

/** What the checks learnt about a packet to forward. A dropped packet
 * keeps its parse in the mbuf instead (fwd_classify()). */
struct fwd_meta {
	/** The route's next hop (fwd_nh.h), its MACs; not with FWD_MCAST. */
	const struct fwd_nh *nh;
	uint32_t ip_len;  /**< IP length: header + payload */
	uint16_t l2_len;  /**< 14, or 18 behind a VID-0 tag */
	uint16_t port;    /**< egress port (FWD_MCAST: the route) */
	uint16_t tx;      /**< TX buffer: @c port, or FWD_TX_HOLD */
	bool v6;
	/** Leaves as a link broadcast (a directed broadcast forwarded with
	 * --bc-forwarding, fwd_cast.h): destination MAC ff:ff:ff:ff:ff:ff. */
	bool l2_bcast;
};

/** The 16 bits at @p p as they are (network order), wherever they sit
 * (a header behind a VLAN tag is not 4-byte aligned). */
static __rte_always_inline uint16_t
fwd_rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/** The 32 bits at @p p as they are (network order), any alignment. */
static __rte_always_inline uint32_t
fwd_rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/**
 * TTL / hop limit - 1 of the IP header at @p l3. IPv4: TTL is the high
 * byte of its 16-bit word, HC' = HC + 0x0100 with end-around carry,
 * 0xffff folding to 0x0000 (RFC 1624). Kernel: ip_decrease_ttl().
 */
static __rte_always_inline void
fwd_ttl_dec(uint8_t *l3, bool v6)
{
	if (v6) {
		((struct rte_ipv6_hdr *)l3)->hop_limits--;
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)l3;
		uint32_t sum = ip->hdr_checksum;

		sum += RTE_BE16(0x0100);
		ip->hdr_checksum = (uint16_t)(sum + (sum >= 0xffff));
		ip->time_to_live--;
	}
}

#endif /* FWD_META_H */
