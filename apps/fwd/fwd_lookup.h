/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_LOOKUP_H
#define FWD_LOOKUP_H

/**
 * @file
 * Route lookups of npool-fwd over the tables of --lookup (rte_lpm /
 * rte_lpm6 or rte_fib / rte_fib6), one address or several at once. Every
 * function gives a route's port, or the family's default route (fc->def4,
 * fc->def6: -1 when there is none) for an address without one: the same
 * answer for both kinds of table. Fast path, any lcore (the tables are
 * read-only while running).
 */

#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>

#include "app_compat.h"
#include "fwd.h"

/** Most addresses fwd_lookup4_bulk() and fwd_lookup6_bulk() take. */
#define FWD_LOOKUP_BULK_MAX 64

/* rte_fib's answer as a port: FWD_FIB_MISS is "no route". */
static __rte_always_inline int32_t
fwd_fib_hop(uint64_t nh, int32_t def)
{
	return nh == FWD_FIB_MISS ? def : (int32_t)nh;
}

/**
 * The port of IPv4 address @p dst (host order). Kernel: fib_lookup().
 * @return 0..255, or fc->def4 without a route.
 */
static __rte_always_inline int32_t
fwd_lookup4(const struct fwd_conf *fc, uint32_t dst)
{
	uint64_t nh;
	uint32_t hop;

	if (fc->lookup == FWD_LOOKUP_FIB) {
		rte_fib_lookup_bulk(fc->fib4, &dst, &nh, 1);
		return fwd_fib_hop(nh, fc->def4);
	}
	return rte_lpm_lookup(fc->lpm4, dst, &hop) == 0 ?
		(int32_t)hop : fc->def4;
}

/**
 * fwd_lookup4() of four addresses at once: rte_lpm_lookupx4() (SIMD
 * where DPDK has it) or one rte_fib_lookup_bulk().
 * @param dst  four IPv4 addresses, host order
 * @param[out] hop  their ports (fwd_lookup4())
 */
static __rte_always_inline void
fwd_lookup4x4(const struct fwd_conf *fc, const uint32_t dst[4],
		int32_t hop[4])
{
	uint32_t res[4];
	uint64_t nh[4];
	rte_xmm_t ip;
	unsigned int k;

	if (fc->lookup == FWD_LOOKUP_FIB) {
		rte_fib_lookup_bulk(fc->fib4, (uint32_t *)(uintptr_t)dst,
				nh, 4);
		for (k = 0; k < 4; k++)
			hop[k] = fwd_fib_hop(nh[k], fc->def4);
		return;
	}
	for (k = 0; k < 4; k++)
		ip.u32[k] = dst[k];
	/* A miss gives the default: -1 (none) is UINT32_MAX. */
	rte_lpm_lookupx4(fc->lpm4, ip.x, res, (uint32_t)fc->def4);
	/* The x86 version stores two entries at a time through a uint64_t
	 * pointer: with type-based aliasing (GCC 16 on DPDK 25.11) the
	 * uint32_t reads below could be moved before those stores. The
	 * barrier, which may read @c res, keeps them after. */
	__asm__ volatile("" : : "r"(res) : "memory");
	for (k = 0; k < 4; k++)
		hop[k] = (int32_t)res[k];
}

/**
 * fwd_lookup4() of @p n addresses at once: one rte_fib_lookup_bulk() (a
 * call through the table's lookup function: worth it over a burst, as
 * l3fwd's FIB path does) or rte_lpm_lookup_bulk().
 * @param dst  the addresses, host order
 * @param[out] hop  their ports (fwd_lookup4())
 * @param n  1 .. FWD_LOOKUP_BULK_MAX
 */
static __rte_always_inline void
fwd_lookup4_bulk(const struct fwd_conf *fc, const uint32_t *dst,
		int32_t *hop, unsigned int n)
{
	uint64_t nh[FWD_LOOKUP_BULK_MAX];
	uint32_t *e = (uint32_t *)hop;
	unsigned int k;

	if (fc->lookup == FWD_LOOKUP_FIB) {
		rte_fib_lookup_bulk(fc->fib4, (uint32_t *)(uintptr_t)dst, nh,
				(int)n);
		for (k = 0; k < n; k++)
			hop[k] = fwd_fib_hop(nh[k], fc->def4);
		return;
	}
	rte_lpm_lookup_bulk(fc->lpm4, dst, e, n);
	/* Entries: the next hop in the low 24 bits, a flag on a hit. */
	for (k = 0; k < n; k++)
		hop[k] = (e[k] & RTE_LPM_LOOKUP_SUCCESS) ?
			(int32_t)(e[k] & 0x00ffffff) : fc->def4;
}

/**
 * The port of IPv6 address @p dst (16 bytes, network order).
 * Kernel: fib6_lookup().
 * @return 0..255, or fc->def6 without a route.
 */
static __rte_always_inline int32_t
fwd_lookup6(const struct fwd_conf *fc, const uint8_t *dst)
{
	uint8_t ip[1][16];
	uint64_t nh;
	uint32_t hop;

	if (fc->lookup == FWD_LOOKUP_FIB) {
		memcpy(ip[0], dst, sizeof(ip[0]));
		app_fib6_lookup_bulk(fc->fib6, ip, &nh, 1);
		return fwd_fib_hop(nh, fc->def6);
	}
	return app_lpm6_lookup(fc->lpm6, dst, &hop) == 0 ?
		(int32_t)hop : fc->def6;
}

/**
 * fwd_lookup6() of @p n addresses at once: rte_lpm6_lookup_bulk_func()
 * or rte_fib6_lookup_bulk().
 * @param ips  the addresses, 16 bytes each, network order
 * @param[out] hop  their ports (fwd_lookup6())
 * @param n  1 .. FWD_LOOKUP_BULK_MAX
 */
static __rte_always_inline void
fwd_lookup6_bulk(const struct fwd_conf *fc, uint8_t (*ips)[16],
		int32_t *hop, unsigned int n)
{
	uint64_t nh[FWD_LOOKUP_BULK_MAX];
	unsigned int k;

	if (fc->lookup == FWD_LOOKUP_FIB) {
		app_fib6_lookup_bulk(fc->fib6, ips, nh, (int)n);
		for (k = 0; k < n; k++)
			hop[k] = fwd_fib_hop(nh[k], fc->def6);
		return;
	}
	app_lpm6_lookup_bulk(fc->lpm6, ips, hop, n);
	for (k = 0; k < n; k++)
		hop[k] = hop[k] < 0 ? fc->def6 : hop[k];
}

#endif /* FWD_LOOKUP_H */
