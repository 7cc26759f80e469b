/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's frames not to the port's unicast MAC and IP broadcast
 * destinations (fwd_cast.h); IP multicast goes on to fwd_mcast.c.
 */
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "fwd_addr.h"
#include "fwd_cast.h"
#include "fwd_mcast.h"
#include "fwd_meta.h"

/* What a frame is sent to. */
enum l2_dst {
	L2_HOST,  /* the port's MAC (or any, --forward-otherhost) */
	L2_BCAST, /* ff:ff:ff:ff:ff:ff */
	L2_MCAST, /* another group address */
};

/* Verdicts of a packet Linux's ip_forward() would take on: with a frame
 * that is no PACKET_HOST it drops them there. */
static bool
forwarding(int v)
{
	return v == FWD_PASS || v == FWD_FRAGMENT || v == FWD_BAD_PORT ||
		v == FWD_TTL_EXCEEDED || v == FWD_MTU;
}

/* The limited broadcast (Linux ip_route_input_slow() brd_input): for the
 * router, unless its source is a martian one. */
static int
limited(const struct fwd_tables *t, const uint8_t *ip)
{
	const uint32_t be = fwd_rd32(ip + 12);
	const uint32_t src = rte_be_to_cpu_32(be);

	if ((src >> 28) == 0xe || src == UINT32_MAX || (src >> 24) == 127 ||
			fwd_addr_own4(t->addrs, be))
		return FWD_MARTIAN_SRC;
	return FWD_BCAST;
}

/*
 * A directed broadcast forwarded (--bc-forwarding, Linux's make_route for
 * RTN_BROADCAST): out of the port of its prefix as a link broadcast, with
 * the checks that follow a route (TTL, MTU).
 */
static int
directed(const struct fwd_tables *t, const uint8_t *ip, struct fwd_meta *md)
{
	const int port = fwd_addr_bcast4_port(t->addrs,
			fwd_rd32(ip + 16));
	const uint32_t tot = rte_be_to_cpu_16(fwd_rd16(ip + 2));

	if (port < 0)
		return FWD_BCAST;
	if (ip[8] <= 1)
		return FWD_TTL_EXCEEDED;
	/* The port's source MAC; the destination is ff:ff:ff:ff:ff:ff. */
	md->nh = &t->nht->port[port];
	md->port = (uint16_t)port;
	md->tx = (uint16_t)port;
	md->ip_len = tot;
	md->v6 = false;
	md->l2_bcast = true;
	if (tot > fwd_egress_mtu(t, md->port))
		return (ip[6] & (RTE_IPV4_HDR_DF_FLAG >> 8)) != 0 ? FWD_MTU :
			FWD_FRAGMENT;
	return FWD_PASS;
}

int
fwd_cast_classify(const struct fwd_tables *t, struct rte_mbuf *m,
		struct fwd_meta *md, int v)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *), *ip;
	const struct rte_ether_addr *d = (const struct rte_ether_addr *)p;
	enum l2_dst l2;
	bool v6;

	if (m->data_len < RTE_ETHER_HDR_LEN)
		return v;
	if (fwd_eth_to_port(p, fwd_rx_mac(t, m->port)))
		l2 = L2_HOST;
	else if (rte_is_broadcast_ether_addr(d))
		l2 = L2_BCAST;
	else if (rte_is_multicast_ether_addr(d))
		l2 = L2_MCAST;
	else if (t->forward_otherhost)
		l2 = L2_HOST;
	else
		/* eth_type_trans(): PACKET_OTHERHOST, dropped by IPv4,
		 * IPv6 and ARP alike. */
		return FWD_L2_OTHERHOST;
	if (v == FWD_MARTIAN_DST || v == FWD_BCAST) {
		/* The IP checks passed up to the destination: md->l2_len
		 * is set, the header is in the first segment. */
		ip = p + md->l2_len;
		v6 = fwd_rd16(ip - 2) == RTE_BE16(RTE_ETHER_TYPE_IPV6);
		if (v6 ? ip[24] == 0xff : (ip[16] & 0xf0) == 0xe0)
			return fwd_mcast_classify(t, m, md, ip, v6);
		if (!v6 && v == FWD_MARTIAN_DST &&
				fwd_rd32(ip + 16) == UINT32_MAX)
			return limited(t, ip);
		if (v == FWD_BCAST && t->bc_forwarding)
			return l2 == L2_BCAST ? FWD_L2_BCAST :
				l2 == L2_MCAST ? FWD_L2_MCAST :
				directed(t, ip, md);
		return v;
	}
	if (l2 != L2_HOST && forwarding(v))
		return l2 == L2_BCAST ? FWD_L2_BCAST : FWD_L2_MCAST;
	return v;
}
