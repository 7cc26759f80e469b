/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The router's own addresses as the pipeline asks about them (fwd_addr.h):
 * whether an address is one of them or a port's broadcast address, and
 * the source of an ICMP error. Slow path (the answers of fwd_icmp.c).
 */
#include <string.h>

#include <rte_byteorder.h>

#include "fwd_addr.h"

/* Host-order mask of an IPv4 prefix length 1..32. */
static uint32_t
mask4(uint8_t len)
{
	return len == 0 ? 0 : UINT32_MAX << (32 - len);
}

/* Whether the first @p len bits of @p x and @p y are equal. */
static bool
prefix6_eq(const uint8_t *x, const uint8_t *y, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < 16 && len != 0; i++) {
		unsigned int b = len >= 8 ? 8 : len;
		uint8_t m = (uint8_t)(0xff00 >> b);

		if ((x[i] ^ y[i]) & m)
			return false;
		len -= b;
	}
	return true;
}

bool
fwd_addr_own4(const struct fwd_addrs *a, uint32_t be)
{
	uint64_t ports = a != NULL ? a->ports : 0;
	unsigned int i;

	while (ports != 0) {
		const struct fwd_port_addr *pa =
			&a->p[__builtin_ctzll(ports)];

		ports &= ports - 1;
		for (i = 0; i < pa->n4; i++)
			if (pa->v4[i] == be)
				return true;
	}
	return false;
}

bool
fwd_addr_bcast4(const struct fwd_addrs *a, uint32_t be)
{
	return fwd_addr_bcast4_port(a, be) >= 0;
}

int
fwd_addr_bcast4_port(const struct fwd_addrs *a, uint32_t be)
{
	const uint32_t h = rte_be_to_cpu_32(be);
	uint64_t ports = a->ports;
	unsigned int i, p;

	while (ports != 0) {
		p = (unsigned int)__builtin_ctzll(ports);
		ports &= ports - 1;
		for (i = 0; i < a->p[p].n4; i++)
			if (a->p[p].len4[i] < 31 &&
					(h | mask4(a->p[p].len4[i])) == UINT32_MAX &&
					((h ^ rte_be_to_cpu_32(a->p[p].v4[i])) &
					 mask4(a->p[p].len4[i])) == 0)
				return (int)p;
	}
	return -1;
}

bool
fwd_addr_own6(const struct fwd_addrs *a, uint16_t port, const uint8_t *ip)
{
	const struct fwd_port_addr *pa;
	unsigned int i;

	if (port >= RTE_MAX_ETHPORTS || !(a->ports & (UINT64_C(1) << port)))
		return false;
	pa = &a->p[port];
	if (memcmp(pa->ll6, ip, 16) == 0)
		return true;
	for (i = 0; i < pa->n6; i++)
		if (memcmp(pa->v6[i], ip, 16) == 0)
			return true;
	return false;
}

bool
fwd_addr_own6_any(const struct fwd_addrs *a, const uint8_t *ip)
{
	uint64_t ports = a->ports;

	while (ports != 0) {
		if (fwd_addr_own6(a, (uint16_t)__builtin_ctzll(ports), ip))
			return true;
		ports &= ports - 1;
	}
	return false;
}

bool
fwd_addr_src4(const struct fwd_addrs *a, uint16_t port, uint32_t dst,
		uint32_t *src)
{
	const struct fwd_port_addr *pa;
	unsigned int i;

	if (port >= RTE_MAX_ETHPORTS || !(a->ports & (UINT64_C(1) << port)) ||
			a->p[port].n4 == 0)
		return false;
	pa = &a->p[port];
	*src = pa->v4[0];
	for (i = 0; i < pa->n4; i++) {
		const uint32_t m = mask4(pa->len4[i]);

		if ((rte_be_to_cpu_32(pa->v4[i]) & m) ==
				(rte_be_to_cpu_32(dst) & m)) {
			*src = pa->v4[i];
			break;
		}
	}
	return true;
}

bool
fwd_addr_src6(const struct fwd_addrs *a, uint16_t port, const uint8_t *dst,
		uint8_t *src, uint8_t *plen)
{
	const struct fwd_port_addr *pa;
	unsigned int i;

	if (port >= RTE_MAX_ETHPORTS || !(a->ports & (UINT64_C(1) << port)))
		return false;
	pa = &a->p[port];
	*plen = 128;
	if (pa->n6 == 0 || (dst[0] == 0xfe && (dst[1] & 0xc0) == 0x80)) {
		memcpy(src, pa->ll6, 16);
		if (dst[0] == 0xfe && (dst[1] & 0xc0) == 0x80)
			*plen = 64;
		return true;
	}
	memcpy(src, pa->v6[0], 16);
	for (i = 0; i < pa->n6; i++) {
		if (prefix6_eq(pa->v6[i], dst, pa->len6[i])) {
			memcpy(src, pa->v6[i], 16);
			*plen = pa->len6[i];
			break;
		}
	}
	return true;
}
