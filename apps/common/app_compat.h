/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_COMPAT_H
#define APP_COMPAT_H

/**
 * @file
 * DPDK API differences between the releases the apps are tested on
 * (22.11, 24.11, 25.11: scripts/lts-test.sh), in one place, for the apps
 * and their tests. The apps are written against the newest API where it
 * only renamed something (this header provides the new name on older
 * releases), and through the small helpers below where a type changed.
 * libnpool keeps its own (lib/npool/npool_compat.h): a layer does not
 * include another's private headers.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_fib6.h>
#include <rte_icmp.h>
#include <rte_lpm6.h>
#include <rte_telemetry.h>
#include <rte_version.h>

/*
 * 23.03 renamed rte_tel_data_add_dict_u64() rte_tel_data_add_dict_uint()
 * and rte_tel_data_add_array_u64() rte_tel_data_add_array_uint() (same
 * arguments); 24.11 deprecates the old names, 25.11 removed them.
 */
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#define rte_tel_data_add_array_uint rte_tel_data_add_array_u64
#endif

/*
 * 24.03 named the ICMP types RTE_ICMP_TYPE_* (rte_icmp.h) and deprecated
 * the old RTE_IP_ICMP_ECHO_* names (an error under -Werror from 24.11).
 */
#ifndef RTE_ICMP_TYPE_ECHO_REQUEST
#define RTE_ICMP_TYPE_ECHO_REQUEST 8
#define RTE_ICMP_TYPE_ECHO_REPLY 0
#endif

/*
 * 25.03 deprecated __rte_packed (an error under -Werror from 25.11's
 * headers on) for a pair that MSVC can also express:
 * struct __rte_packed_begin s { ... } __rte_packed_end;
 * an alignment attribute goes before __rte_packed_begin.
 */
#if RTE_VERSION < RTE_VERSION_NUM(25, 3, 0, 0)
#define __rte_packed_begin
#define __rte_packed_end __attribute__((__packed__))
#endif

/**
 * The 16 bytes, network order, of an IPv6 address field of a DPDK
 * header (struct rte_ipv6_hdr src_addr/dst_addr): a uint8_t[16] up to
 * 24.07, a struct rte_ipv6_addr from 24.11 on. Const-ness follows the
 * field's.
 */
#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)
#define APP_IPV6_BYTES(field) ((field).a)
#else
#define APP_IPV6_BYTES(field) (field)
#endif

/*
 * rte_lpm6 takes a const uint8_t[16] up to 24.07 and a const struct
 * rte_ipv6_addr * (the same 16 bytes, alignment 1) from 24.11 on. The
 * apps keep their addresses as bytes and call these.
 */
#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)
#define APP_LPM6_ADDR(ip) ((const struct rte_ipv6_addr *)(const void *)(ip))
#else
#define APP_LPM6_ADDR(ip) (ip)
#endif

/**
 * rte_lpm6_add() with the address as bytes.
 * @param ip  prefix, 16 bytes in network order
 * @param depth  1..128
 * @return 0, or rte_lpm6_add()'s negative errno (-EINVAL, -ENOSPC).
 */
static inline int
app_lpm6_add(struct rte_lpm6 *lpm, const uint8_t ip[16], uint8_t depth,
		uint32_t next_hop)
{
	return rte_lpm6_add(lpm, APP_LPM6_ADDR(ip), depth, next_hop);
}

/**
 * rte_lpm6_delete() with the address as bytes.
 * @param ip  prefix, 16 bytes in network order
 * @param depth  1..128
 * @return 0, or rte_lpm6_delete()'s negative errno (-EINVAL, -ENOENT).
 */
static inline int
app_lpm6_delete(struct rte_lpm6 *lpm, const uint8_t ip[16], uint8_t depth)
{
	return rte_lpm6_delete(lpm, APP_LPM6_ADDR(ip), depth);
}

/**
 * rte_lpm6_lookup() with the address as bytes; fast path, any lcore.
 * @param ip  address, 16 bytes in network order
 * @param[out] next_hop  the route's next hop when 0 is returned
 * @return 0 on a hit, -ENOENT on a miss, -EINVAL on a NULL argument.
 */
static __rte_always_inline int
app_lpm6_lookup(const struct rte_lpm6 *lpm, const uint8_t ip[16],
		uint32_t *next_hop)
{
	return rte_lpm6_lookup(lpm, APP_LPM6_ADDR(ip), next_hop);
}

/*
 * rte_fib6 likewise: uint8_t[16] addresses up to 24.07, struct
 * rte_ipv6_addr from 24.11 on (rte_fib.h, IPv4, kept its API; 24.11 only
 * added rte_fib_conf.flags, which a designated initialiser leaves 0).
 */

/**
 * rte_fib6_add() with the address as bytes. Main lcore (not MT safe).
 * @param ip  prefix, 16 bytes in network order
 * @param depth  0..128
 * @param next_hop  up to the largest the table's nh_sz holds
 * @return 0, or rte_fib6_add()'s negative errno (-EINVAL, -ENOSPC,
 *   -ENOMEM).
 */
static inline int
app_fib6_add(struct rte_fib6 *fib, const uint8_t ip[16], uint8_t depth,
		uint64_t next_hop)
{
	return rte_fib6_add(fib, APP_LPM6_ADDR(ip), depth, next_hop);
}

/**
 * rte_fib6_delete() with the address as bytes. Main lcore (not MT safe).
 * @param ip  prefix, 16 bytes in network order
 * @param depth  0..128
 * @return 0, or rte_fib6_delete()'s negative errno (-EINVAL, -ENOENT).
 */
static inline int
app_fib6_delete(struct rte_fib6 *fib, const uint8_t ip[16], uint8_t depth)
{
	return rte_fib6_delete(fib, APP_LPM6_ADDR(ip), depth);
}

/**
 * rte_fib6_lookup_bulk() with the addresses as bytes; fast path, any
 * lcore.
 * @param ips  @p n addresses, 16 bytes each in network order
 * @param[out] next_hops  per address its route's next hop, the table's
 *   default next hop on a miss
 * @param n  addresses in @p ips
 * @return 0, -EINVAL on a NULL argument.
 */
static __rte_always_inline int
app_fib6_lookup_bulk(struct rte_fib6 *fib, uint8_t (*ips)[16],
		uint64_t *next_hops, int n)
{
#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)
	return rte_fib6_lookup_bulk(fib,
			(const struct rte_ipv6_addr *)(const void *)ips,
			next_hops, n);
#else
	return rte_fib6_lookup_bulk(fib, ips, next_hops, n);
#endif
}

#endif /* APP_COMPAT_H */
