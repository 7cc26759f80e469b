/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_RT_H
#define FWD_RT_H

/**
 * @file
 * A route as npool-fwd's control side passes it around: what a route
 * file line, a connected prefix or an FPM netlink message (FRR zebra's
 * dplane_fpm_nl) says, before it is placed in the route tables. The
 * routing information base (fwd_rib.h) takes these; the FPM reader
 * (fwd_fpm.h) makes them.
 */

#include <stdbool.h>
#include <stdint.h>

/** What a packet matching the route meets (Linux's rtm_type). */
enum fwd_rt_type {
	FWD_RT_UNICAST,     /**< forwarded: by a gateway or on a link */
	FWD_RT_BLACKHOLE,   /**< dropped silently (RTN_BLACKHOLE) */
	FWD_RT_UNREACHABLE, /**< dropped, ICMP host unreachable (RTN_UNREACHABLE) */
	FWD_RT_PROHIBIT,    /**< dropped, ICMP administratively prohibited
	                     *   (RTN_PROHIBIT) */
};

/** Where a route came from (what a delete must match, what telemetry
 * counts). */
enum fwd_rt_origin {
	FWD_RT_FILE,      /**< --rule_ipv4 / --rule_ipv6 (or l3fwd's table) */
	FWD_RT_CONNECTED, /**< a --port-addr prefix (Linux's proto kernel) */
	FWD_RT_FPM,       /**< FRR zebra, over FPM */
	FWD_RT_NB_ORIGINS,
};

/** No egress port given: the one whose connected prefix holds the
 * gateway (Linux's "via ADDR" without "dev"). */
#define FWD_RT_PORT_ANY UINT16_MAX

/** One route. */
struct fwd_rt {
	uint8_t dst[16];  /**< prefix, network order, masked to @c depth;
	                   *   IPv4 in the first 4 bytes, the rest 0 */
	uint8_t gw[16];   /**< gateway (when @c has_gw), as @c dst */
	uint8_t depth;    /**< 0 .. 32 (IPv4) or 128 (IPv6) */
	bool v6;
	bool has_gw;      /**< via @c gw; else on the link of @c port */
	uint8_t type;     /**< enum fwd_rt_type */
	uint16_t port;    /**< egress port, or FWD_RT_PORT_ANY (with a
	                   *   gateway only) */
};

#endif /* FWD_RT_H */
