/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_EM_KEY_H
#define FWD_EM_KEY_H

/**
 * @file
 * --lookup em: l3fwd's exact-match mode (examples/l3fwd/l3fwd_em.c of
 * DPDK 22.11), as the pipeline looks routes up. The keys are l3fwd's
 * (union ipv4_5tuple_host / ipv6_5tuple_host: the protocol, the
 * addresses, the 4 bytes after the IP header) on rte_hash; a miss goes
 * back out of the port the packet came in on, as l3fwd's
 * em_get_ipv4_dst_port() does. The tables are made by the control side
 * (fwd_em.h). Every check and drop reason is lpm's.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "app_compat.h"
#include "fwd_tables.h"

/** l3fwd's IPv4 key (union ipv4_5tuple_host), network order. */
struct fwd_em_key4 {
	uint8_t pad0;
	uint8_t proto;
	uint16_t pad1;
	uint32_t src;
	uint32_t dst;
	uint16_t sport;
	uint16_t dport;
};

/** l3fwd's IPv6 key (union ipv6_5tuple_host). */
struct fwd_em_key6 {
	uint16_t pad0;
	uint8_t proto;
	uint8_t pad1;
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t sport;
	uint16_t dport;
	uint64_t reserve;
};

/** The key of an IPv4 packet of @p l3 bytes at @p ip whose header is
 * @p ihl bytes (a constant 20 for a plain packet folds the tests): the
 * ports are the 4 bytes after the header, zero where it has none. */
static __rte_always_inline void
fwd_em_key4_ihl(const struct rte_ipv4_hdr *ip, uint32_t l3, uint32_t ihl,
		struct fwd_em_key4 *k)
{
	uint32_t ports = 0;

	/* pad0, proto, pad1 in one store. */
	memcpy(k, &(struct fwd_em_key4){ .proto = ip->next_proto_id }, 4);
	k->src = ip->src_addr;
	k->dst = ip->dst_addr;
	if (likely(l3 >= ihl + 4))
		memcpy(&ports, (const uint8_t *)ip + ihl, 4);
	else if (l3 > ihl)
		memcpy(&ports, (const uint8_t *)ip + ihl, l3 - ihl);
	memcpy(&k->sport, &ports, 4);
}

/** The key of an IPv4 packet: @p l3 bytes at @p ip. */
static __rte_always_inline void
fwd_em_key4(const struct rte_ipv4_hdr *ip, uint32_t l3,
		struct fwd_em_key4 *k)
{
	fwd_em_key4_ihl(ip, l3,
			(ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * 4u, k);
}

/** The key of an IPv6 packet (the ports: the 4 bytes after the fixed
 * header, as l3fwd reads them). */
static __rte_always_inline void
fwd_em_key6(const struct rte_ipv6_hdr *ip, uint32_t l3,
		struct fwd_em_key6 *k)
{
	memset(k, 0, sizeof(*k));
	k->proto = ip->proto;
	memcpy(k->src, APP_IPV6_BYTES(ip->src_addr), 16);
	memcpy(k->dst, APP_IPV6_BYTES(ip->dst_addr), 16);
	if (likely(l3 >= sizeof(*ip) + 4))
		memcpy(&k->sport, ip + 1, 4);
	else if (l3 > sizeof(*ip))
		memcpy(&k->sport, ip + 1, l3 - sizeof(*ip));
}

/** The port of a packet's key: its route's, or @p in_port on a miss. */
static __rte_always_inline int32_t
fwd_em_lookup(const struct rte_hash *h, const void *key, uint16_t in_port)
{
	void *data;

	return rte_hash_lookup_data(h, key, &data) >= 0 ?
		(int32_t)(uintptr_t)data : (int32_t)in_port;
}

/** fwd_lookup4() for --lookup em: the packet's 5-tuple. */
static __rte_always_inline int32_t
fwd_em_lookup4(const struct fwd_tables *t, const struct rte_ipv4_hdr *ip,
		uint32_t l3, uint16_t in_port)
{
	struct fwd_em_key4 k;

	fwd_em_key4(ip, l3, &k);
	return fwd_em_lookup(t->em4, &k, in_port);
}

/** fwd_lookup6() for --lookup em. */
static __rte_always_inline int32_t
fwd_em_lookup6(const struct fwd_tables *t, const struct rte_ipv6_hdr *ip,
		uint32_t l3, uint16_t in_port)
{
	struct fwd_em_key6 k;

	fwd_em_key6(ip, l3, &k);
	return fwd_em_lookup(t->em6, &k, in_port);
}

#endif /* FWD_EM_KEY_H */
