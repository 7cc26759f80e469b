/* SPDX-License-Identifier: BSD-3-Clause */
/* fwd_pkt_fuzz.c's oracle, from docs/apps/npool-fwd.md's rules. */
#include <string.h>

#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_mbuf.h>

#include "app_compat.h"
#include "fwd.h"
#include "fwd_check.h"
#include "fwd_pkt_model.h"

const struct rte_ether_addr fz_port0_mac = {
	{ 0x02, 0, 0, 0, 0, 0xfe } };

static int
fz_tag(uint16_t type)
{
	return type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ ||
		type == RTE_ETHER_TYPE_QINQ1;
}

static int
fz_v4_martian(const uint8_t *a)
{
	static const uint8_t bcast[4] = { 255, 255, 255, 255 };

	return a[0] == 0 || a[0] == 127 || (a[0] >= 224 && a[0] <= 239) ||
		memcmp(a, bcast, 4) == 0;
}

static int
fz_v6_martian(const uint8_t *a)
{
	static const uint8_t zero[15];

	return (memcmp(a, zero, 15) == 0 && a[15] <= 1) || a[0] == 0xff ||
		(a[0] == 0xfe && (a[1] & 0xc0) == 0x80);
}

/* The route's verdict: no route, port not enabled, or pass (*port). */
static int
fz_route(const struct fwd_conf *fc, const uint8_t *dst, int v6, int *port)
{
	uint32_t nh, a;
	int32_t hop;

	if (v6) {
		hop = app_lpm6_lookup(fc->t.lpm6, dst, &nh) == 0 ?
			(int32_t)nh : fc->t.def6;
	} else {
		memcpy(&a, dst, 4);
		a = rte_be_to_cpu_32(a);
		hop = rte_lpm_lookup(fc->t.lpm4, a, &nh) == 0 ?
			(int32_t)nh : fc->t.def4;
	}
	if (hop < 0)
		return FWD_NO_ROUTE;
	if (hop >= RTE_MAX_ETHPORTS || !((fc->t.portmask >> hop) & 1))
		return FWD_BAD_PORT;
	*port = hop;
	return FWD_PASS;
}

/* An IPv4 source never taken to a group or 255.255.255.255: 224/4,
 * 127/8, 255.255.255.255 (0/8 is looked at apart). */
static int
fz_v4_bad_src(const uint8_t *a)
{
	static const uint8_t bcast[4] = { 255, 255, 255, 255 };

	return (a[0] & 0xf0) == 0xe0 || a[0] == 127 ||
		memcmp(a, bcast, 4) == 0;
}

/* Whether IPv6 packet @p ip of @p ip_len bytes has a hop-by-hop header
 * (within its payload) whose last Router Alert (option 5, 2 bytes) says
 * MLD (0). */
static int
fz_mld_alert(const uint8_t *ip, uint32_t ip_len)
{
	const uint8_t *h = ip + 40;
	uint32_t len, i = 2;
	int ra = -1;

	if (ip[6] != 0 || ip_len < 42)
		return 0;
	len = (h[1] + 1u) * 8;
	if (40 + len > ip_len)
		return 0;
	while (i < len) {
		if (h[i] == 0) {
			i++;
		} else if (i + 2 > len || i + 2 + h[i + 1] > len) {
			break;
		} else {
			if (h[i] == 5 && h[i + 1] == 2)
				ra = be16(h + i + 2);
			i += 2 + h[i + 1];
		}
	}
	return ra == 0;
}

/* IP multicast (docs/apps/npool-fwd.md, multicast routing) of the header
 * @p ip, @p ip_len bytes, with the routes of fz_mroutes. */
static int
fz_mcast(const struct fwd_conf *fc, const uint8_t *ip, uint32_t ip_len,
		int v6, struct fwd_meta *md)
{
	static const uint8_t g4[4] = { 225, 1, 2, 3 };
	static const uint8_t g6[16] = { 0xff, 0x0e, [15] = 3 };
	static const uint8_t zero[15];
	const uint8_t *src = ip + (v6 ? 8 : 12);
	int local, p, ports = 0;

	if (v6) {
		if ((ip[25] & 15) <= 2)
			return FWD_MC_LOCAL;
		if (src[0] == 0xff || (memcmp(src, zero, 15) == 0 &&
				src[15] <= 1))
			return FWD_MARTIAN_SRC;
		if (fz_mld_alert(ip, ip_len))
			return FWD_MC_LOCAL;
	} else {
		local = ip[16] == 224 && ip[17] == 0 && ip[18] == 0;
		if (fz_v4_bad_src(src))
			return FWD_MARTIAN_SRC;
		if (src[0] == 0)
			return local || ip[9] == 2 ? FWD_MC_LOCAL :
				FWD_MARTIAN_SRC;
		if (local || ip[9] == 2)
			return FWD_MC_LOCAL;
	}
	if (memcmp(ip + (v6 ? 24 : 16), v6 ? g6 : g4, v6 ? 16 : 4) != 0)
		return FWD_MC_NO_ROUTE;
	for (p = 1; p <= 2; p++)
		ports += ip[v6 ? 7 : 8] > 1 && ip_len <= fc->t.mtu;
	if (ports == 0)
		return FWD_MC_TTL;
	md->port = (uint16_t)v6; /* the route's index */
	md->ip_len = ip_len;
	md->v6 = v6;
	return FWD_MCAST;
}

/* The verdicts Linux's ip_forward() reaches: with a link-layer broadcast
 * or multicast frame the packet is dropped there. */
static int
fz_forwarding(int v)
{
	return v == FWD_PASS || v == FWD_FRAGMENT || v == FWD_BAD_PORT ||
		v == FWD_TTL_EXCEEDED || v == FWD_MTU;
}

static int fz_expect_ip(const struct fwd_conf *fc, const uint8_t *f,
		uint32_t len, uint64_t ol_flags, int hw, struct fwd_meta *md);

/*
 * docs/apps/npool-fwd.md, "Forwarding rules", on the flat frame @p f: the
 * verdict, and for a packet that leaves its L2 length, IP length and port.
 * The destination MAC first: another station's is l2_otherhost whatever
 * the frame holds; unicast IP to forward in a group frame l2_bcast /
 * l2_mcast.
 */
int
fz_expect(const struct fwd_conf *fc, const uint8_t *f, uint32_t len,
		uint64_t ol_flags, int hw, struct fwd_meta *md)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	int v;

	if (len < RTE_ETHER_HDR_LEN)
		return FWD_TRUNCATED;
	if (!(f[0] & 1) && memcmp(f, &fz_port0_mac, 6) != 0)
		return FWD_L2_OTHERHOST;
	md->l2_bcast = false;
	v = fz_expect_ip(fc, f, len, ol_flags, hw, md);
	if ((f[0] & 1) && fz_forwarding(v))
		return memcmp(f, bcast, 6) == 0 ? FWD_L2_BCAST : FWD_L2_MCAST;
	return v;
}

/* fz_expect() of a frame to the port. */
static int
fz_expect_ip(const struct fwd_conf *fc, const uint8_t *f, uint32_t len,
		uint64_t ol_flags, int hw, struct fwd_meta *md)
{
	static const uint8_t bcast[4] = { 255, 255, 255, 255 };
	uint32_t l2 = RTE_ETHER_HDR_LEN, l3, ihl, ip_len;
	const uint8_t *ip;
	uint16_t type;
	int v, port = -1, v6;

	type = be16(f + 12);
	if (fz_tag(type)) {
		if (len < 18)
			return FWD_TRUNCATED;
		if (type != RTE_ETHER_TYPE_VLAN || (be16(f + 14) & 0xfff) != 0 ||
				fz_tag(be16(f + 16)))
			return FWD_VLAN;
		type = be16(f + 16);
		l2 = 18;
	}
	if (type != RTE_ETHER_TYPE_IPV4 && type != RTE_ETHER_TYPE_IPV6)
		return FWD_NOT_IP;
	v6 = type == RTE_ETHER_TYPE_IPV6;
	ip = f + l2;
	l3 = len - l2;
	if (l3 < (v6 ? 40u : 20u))
		return FWD_TRUNCATED;
	ihl = v6 ? 40 : (ip[0] & 15) * 4u;
	if (l3 < ihl)
		return FWD_TRUNCATED;
	if ((ip[0] >> 4) != (v6 ? 6 : 4))
		return FWD_IP_VERSION;
	if (v6) {
		ip_len = 40 + be16(ip + 4);
		if (ip_len == 40 || ip_len > l3)
			return FWD_IPV6_LEN;
	} else {
		ip_len = be16(ip + 2);
		if (ihl < 20)
			return FWD_IPV4_IHL;
		if (ip_len < ihl || ip_len > l3)
			return FWD_IPV4_LEN;
		/* The PMD's GOOD or BAD on a port that checks, else the
		 * sum. */
		ol_flags &= RTE_MBUF_F_RX_IP_CKSUM_MASK;
		if (hw && ol_flags == RTE_MBUF_F_RX_IP_CKSUM_BAD)
			return FWD_IPV4_CSUM;
		if ((!hw || ol_flags != RTE_MBUF_F_RX_IP_CKSUM_GOOD) &&
				rte_raw_cksum(ip, ihl) != 0xffff)
			return FWD_IPV4_CSUM;
	}
	md->l2_len = (uint16_t)l2;
	if (v6 ? ip[24] == 0xff : (ip[16] & 0xf0) == 0xe0)
		return fz_mcast(fc, ip, ip_len, v6, md);
	/* 255.255.255.255: for the router (bcast), its source checked */
	if (!v6 && memcmp(ip + 16, bcast, 4) == 0)
		return fz_v4_bad_src(ip + 12) ? FWD_MARTIAN_SRC : FWD_BCAST;
	if (v6 ? fz_v6_martian(ip + 24) : fz_v4_martian(ip + 16))
		return FWD_MARTIAN_DST;
	if (v6 ? fz_v6_martian(ip + 8) : fz_v4_martian(ip + 12))
		return FWD_MARTIAN_SRC;
	v = fz_route(fc, ip + (v6 ? 24 : 16), v6, &port);
	if (v != FWD_PASS)
		return v;
	if (ip[v6 ? 7 : 8] <= 1)
		return FWD_TTL_EXCEEDED;
	md->ip_len = ip_len;
	md->port = (uint16_t)port;
	md->v6 = v6;
	if (ip_len > fc->t.mtu)
		return v6 || (be16(ip + 6) & RTE_IPV4_HDR_DF_FLAG) ?
			FWD_MTU : FWD_FRAGMENT;
	return FWD_PASS;
}
