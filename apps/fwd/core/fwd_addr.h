/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_ADDR_H
#define FWD_ADDR_H

/**
 * @file
 * npool-fwd's own addresses (--port-addr PORT,ADDR/LEN[,...]): IPv4 and
 * IPv6 addresses per port, and the IPv6 link-local address of each such
 * port from its MAC (modified EUI-64, RFC 4291 2.5.6). They go into the
 * route tables as host routes to FWD_HOP_LOCAL, so that a packet to the
 * router leaves the checks as the "local" verdict, off the fast path (its
 * port test fails like a disabled port's); fwd_icmp.c answers it. The
 * ICMP options (--icmp-ratelimit, --icmp-msgs-per-sec, --icmp-msgs-burst)
 * live here too. Written at setup (the control side, apps/fwd/fwd.h,
 * parses them), read-only while running.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

/** Addresses of one family a port may have. */
#define FWD_ADDR_MAX 8

/** The addresses of one port. */
struct fwd_port_addr {
	uint8_t n4;                      /**< IPv4 addresses in @c v4 */
	uint8_t n6;                      /**< IPv6 addresses in @c v6 */
	uint8_t len4[FWD_ADDR_MAX];      /**< prefix lengths */
	uint8_t len6[FWD_ADDR_MAX];
	uint32_t v4[FWD_ADDR_MAX];       /**< network order */
	uint8_t v6[FWD_ADDR_MAX][16];
	uint8_t ll6[16];                 /**< fe80::/64, EUI-64 of the MAC */
};

/** Linux's defaults (net.ipv4.icmp_ratelimit, icmp_msgs_per_sec,
 * icmp_msgs_burst). */
#define FWD_ICMP_RATELIMIT_MS 1000u
#define FWD_ICMP_MSGS_PER_SEC 1000u
#define FWD_ICMP_MSGS_BURST   50u

/** The router's addresses and ICMP settings. */
struct fwd_addrs {
	uint64_t ports;          /**< bit per port given --port-addr */
	struct fwd_port_addr p[RTE_MAX_ETHPORTS];
	uint32_t ratelimit_ms;   /**< per destination, 0 = no limit */
	uint32_t msgs_per_sec;   /**< per port and lcore, 0 = no limit */
	uint32_t msgs_burst;     /**< bucket depth of msgs_per_sec */
	/** Echo requests to a broadcast address go unanswered (Linux's
	 * icmp_echo_ignore_broadcasts, 1 by default). */
	bool echo_ignore_bcast;
};

/** Whether IPv4 @p be (network order) is one of the router's (none when
 * @p a is NULL): as a source, a martian one (Linux's
 * fib_validate_source()). */
bool fwd_addr_own4(const struct fwd_addrs *a, uint32_t be);

/** Whether IPv4 @p be is the broadcast address of a port's prefix. */
bool fwd_addr_bcast4(const struct fwd_addrs *a, uint32_t be);

/**
 * The port whose prefix (of length up to 30) has IPv4 @p be (network
 * order) as its broadcast address, the first such port; -1 for none.
 */
int fwd_addr_bcast4_port(const struct fwd_addrs *a, uint32_t be);

/** Whether IPv6 @p ip is an address of port @p port (link-local too). */
bool fwd_addr_own6(const struct fwd_addrs *a, uint16_t port,
		const uint8_t *ip);

/** Whether IPv6 @p ip is an address of any port (link-local too). */
bool fwd_addr_own6_any(const struct fwd_addrs *a, const uint8_t *ip);

/**
 * The source of an ICMP error to @p dst from port @p port: the port's
 * address whose prefix holds @p dst, else its first one (Linux picks the
 * preferred source of the route back, on the receiving port in a lab).
 * @return false when the port has no IPv4 address.
 */
bool fwd_addr_src4(const struct fwd_addrs *a, uint16_t port, uint32_t dst,
		uint32_t *src);

/**
 * As fwd_addr_src4() for IPv6: the link-local address for a link-local
 * @p dst, else the global one whose prefix holds @p dst, the first
 * global one, or the link-local one (RFC 6724 rules 2 and 8).
 *
 * @param plen
 *   Set to the prefix length of the address picked (128 when none
 *   holds @p dst): Linux scales the IPv6 rate limit by it.
 * @return false when the port has no address.
 */
bool fwd_addr_src6(const struct fwd_addrs *a, uint16_t port,
		const uint8_t *dst, uint8_t *src, uint8_t *plen);

#endif /* FWD_ADDR_H */
