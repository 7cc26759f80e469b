/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's multicast routing, the packets (fwd_mcast.h): which route a
 * packet takes, the source and scope checks of Linux's
 * ip_route_input_mc() and ip6_mc_input(), the RPF check and thresholds
 * of ip_mr_forward() / ip6_mr_forward(), and the copies.
 */
#include <string.h>

#include <rte_hash.h>
#include <rte_ip.h>

#include "npool.h"
#include "fwd_addr.h"
#include "fwd_ctx.h"
#include "fwd_mcast.h"
#include "fwd_meta.h"
#include "fwd_pkt.h"

#define IGMP_PROTO 2
#define IPV6_TLV_PAD1 0
#define IPV6_TLV_ROUTERALERT 5

/* The route of (source @p src, group @p grp): (S,G), else (*,G); -1. */
static int
route_of(const struct fwd_mroutes *mr, bool v6, const uint8_t *src,
		const uint8_t *grp)
{
	struct fwd_mroute_key k;
	void *data;

	fwd_mroute_key(&k, v6, src, grp);
	if (rte_hash_lookup_data(mr->h, &k, &data) >= 0)
		return (int)(uintptr_t)data;
	fwd_mroute_key(&k, v6, NULL, grp);
	if (rte_hash_lookup_data(mr->h, &k, &data) >= 0)
		return (int)(uintptr_t)data;
	return -1;
}

/* The IP length (header and payload) of the IP header @p ip. */
static uint32_t
ip_len_of(const uint8_t *ip, bool v6)
{
	return v6 ? sizeof(struct rte_ipv6_hdr) +
		rte_be_to_cpu_16(fwd_rd16(ip + 4)) :
		rte_be_to_cpu_16(fwd_rd16(ip + 2));
}

/* The output ports of route @p r a packet of TTL @p ttl and @p ip_len
 * bytes leaves on: above the threshold, within the port's MTU. */
static uint64_t
oifs_for(const struct fwd_tables *t, const struct fwd_mroute *r, uint8_t ttl,
		uint32_t ip_len)
{
	uint64_t o = r->oifs, ok = 0;
	unsigned int p;

	while (o != 0) {
		p = (unsigned int)__builtin_ctzll(o);
		o &= o - 1;
		if (ttl > r->ttl[p] && ip_len <= fwd_egress_mtu(t, (uint16_t)p))
			ok |= UINT64_C(1) << p;
	}
	return ok;
}

/* IPv4 sources and groups never routed (Linux ip_route_input_mc() and
 * ip_mr_input()): a martian source, or FWD_MC_LOCAL for the link; 0 for
 * a packet to route. */
static int
check4(const struct fwd_tables *t, const uint8_t *ip)
{
	const uint32_t src = rte_be_to_cpu_32(fwd_rd32(ip + 12));
	const bool local = ip[16] == 224 && ip[17] == 0 && ip[18] == 0;
	const bool igmp = ip[9] == IGMP_PROTO;

	if ((src >> 28) == 0xe || src == UINT32_MAX || (src >> 24) == 127)
		return FWD_MARTIAN_SRC;
	/* 0.0.0.0 sources: IGMP and link-local groups only. */
	if ((src >> 24) == 0)
		return local || igmp ? FWD_MC_LOCAL : FWD_MARTIAN_SRC;
	if (t->addrs != NULL &&
			fwd_addr_own4(t->addrs, fwd_rd32(ip + 12)))
		return FWD_MARTIAN_SRC;
	/* Link-local groups, and IGMP (for the routing daemon). */
	return local || igmp ? FWD_MC_LOCAL : 0;
}

/*
 * Whether the IPv6 packet whose header is @p l3 bytes into @p m carries
 * a hop-by-hop Router Alert for MLD (RFC 2711 value 0; the last Router
 * Alert of the header counts, as Linux's ipv6_hop_ra() keeps it).
 */
static bool
mld_alert(const struct rte_mbuf *m, uint32_t l3, const uint8_t *ip)
{
	uint8_t buf[(UINT8_MAX + 1) * 8];
	const uint8_t *h;
	uint32_t len, i;
	int ra = -1;

	if (ip[6] != IPPROTO_HOPOPTS)
		return false;
	h = rte_pktmbuf_read(m, l3 + sizeof(struct rte_ipv6_hdr), 2, buf);
	if (h == NULL)
		return false;
	len = (h[1] + 1u) * 8;
	if (len > rte_be_to_cpu_16(fwd_rd16(ip + 4)))
		return false; /* past the payload */
	h = rte_pktmbuf_read(m, l3 + sizeof(struct rte_ipv6_hdr), len, buf);
	for (i = 2; h != NULL && i < len; ) {
		if (h[i] == IPV6_TLV_PAD1) {
			i++;
			continue;
		}
		if (i + 2 > len || i + 2 + h[i + 1] > len)
			break;
		if (h[i] == IPV6_TLV_ROUTERALERT && h[i + 1] == 2)
			ra = h[i + 2] << 8 | h[i + 3];
		i += 2 + h[i + 1];
	}
	return ra == 0;
}

/* IPv6: scopes up to link-local are for the link (RFC 4291 2.7; Linux
 * ip6_mc_input() routes none of them); a source must name one node; a
 * Router Alert for MLD makes it the router's (ip6_mc_input(): an MLD
 * message to a routed group, as MLDv1 sends reports, is not forwarded,
 * as IGMP is not, check4()). */
static int
check6(const struct rte_mbuf *m, const uint8_t *ip)
{
	static const uint8_t zero[15];
	const uint8_t *src = ip + 8;

	if ((ip[25] & 0x0f) <= 2)
		return FWD_MC_LOCAL;
	if (src[0] == 0xff || (memcmp(src, zero, 15) == 0 && src[15] <= 1))
		return FWD_MARTIAN_SRC;
	if (mld_alert(m, (uint32_t)(ip - rte_pktmbuf_mtod(m,
			const uint8_t *)), ip))
		return FWD_MC_LOCAL;
	return 0;
}

int
fwd_mcast_classify(const struct fwd_tables *t, const struct rte_mbuf *m,
		struct fwd_meta *md, const uint8_t *ip, bool v6)
{
	const struct fwd_mroutes *mr = t->mroutes;
	const struct fwd_mroute *r;
	uint32_t ip_len;
	int v, i;

	v = v6 ? check6(m, ip) : check4(t, ip);
	if (v != 0)
		return v;
	if (mr == NULL || (i = route_of(mr, v6, ip + (v6 ? 8 : 12),
			ip + (v6 ? 24 : 16))) < 0)
		return FWD_MC_NO_ROUTE;
	r = &mr->s.r[i];
	if (m->port != r->in_port) {
		fwd_mroute_ctr_of(mr, (unsigned int)i)->wrong_if++;
		return FWD_MC_RPF;
	}
	ip_len = ip_len_of(ip, v6);
	if (oifs_for(t, r, ip[v6 ? 7 : 8], ip_len) == 0)
		return FWD_MC_TTL;
	md->port = (uint16_t)i;
	md->ip_len = ip_len;
	md->v6 = v6;
	return FWD_MCAST;
}

/* The group's MAC (RFC 1112 6.4: 01:00:5e + 23 bits; RFC 2464 7:
 * 33:33 + 32 bits) of the IP header @p ip. */
static void
group_mac(const uint8_t *ip, bool v6, uint8_t *mac)
{
	if (v6) {
		mac[0] = 0x33;
		mac[1] = 0x33;
		memcpy(mac + 2, ip + 36, 4);
	} else {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
		mac[3] = ip[17] & 0x7f;
		mac[4] = ip[18];
		mac[5] = ip[19];
	}
}

/* An Ethernet header at @p eth: the group's MAC, port @p port's, the
 * family's EtherType. */
static void
eth_fill(const struct fwd_tables *t, uint8_t *eth, const uint8_t *gmac,
		uint16_t port, bool v6)
{
	memcpy(eth, gmac, RTE_ETHER_ADDR_LEN);
	memcpy(eth + RTE_ETHER_ADDR_LEN, &t->l2[port].src,
			RTE_ETHER_ADDR_LEN);
	const uint16_t type = v6 ? RTE_BE16(RTE_ETHER_TYPE_IPV6) :
		RTE_BE16(RTE_ETHER_TYPE_IPV4);

	memcpy(eth + 12, &type, sizeof(type));
}

/* A head for a copy: an Ethernet header's room, from npool (the kernel's
 * small-head cache) when it runs, else (or when it has none left) from
 * the packet's own pool. */
static struct rte_mbuf *
head_alloc(const struct rte_mbuf *m)
{
	struct rte_mbuf *h = npool_napi_alloc_pkt(RTE_ETHER_HDR_LEN);

	if (h == NULL)
		h = rte_pktmbuf_alloc(m->pool);
	if (h != NULL && rte_pktmbuf_append(h, RTE_ETHER_HDR_LEN) == NULL) {
		rte_pktmbuf_free(h);
		h = NULL;
	}
	return h;
}

/* @p m cut to @p len bytes (it has at least). */
static void
trim(struct rte_mbuf *m, uint32_t len)
{
	if (m->pkt_len == len)
		return;
	if (m->nb_segs == 1) {
		m->data_len = (uint16_t)len;
		m->pkt_len = len;
	} else {
		fwd_pkt_trim_chain(m, len);
	}
}

unsigned int
fwd_mcast_copies(const struct fwd_tables *t, struct rte_mbuf *m,
		uint16_t route, struct rte_mbuf **out, uint16_t *port,
		struct app_port_ctr *ic)
{
	const struct fwd_mroute *r = &t->mroutes->s.r[route];
	struct fwd_mroute_ctr *c = fwd_mroute_ctr_of(t->mroutes, route);
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *), *ip, gmac[6];
	const uint16_t l2 = fwd_rd16(p + 12) ==
		RTE_BE16(RTE_ETHER_TYPE_VLAN) ? RTE_ETHER_HDR_LEN + 4 :
		RTE_ETHER_HDR_LEN;
	uint32_t ip_len;
	uint64_t oifs;
	unsigned int n = 0, k;
	struct rte_mbuf *s;

	ip = p + l2;
	ip_len = ip_len_of(ip, r->v6);
	oifs = oifs_for(t, r, ip[r->v6 ? 7 : 8], ip_len);
	group_mac(ip, r->v6, gmac);
	fwd_ttl_dec(ip, r->v6);
	if (__builtin_popcountll(oifs) == 1) {
		/* One port: the packet itself, as fwd_rewrite(). */
		rte_pktmbuf_adj(m, l2 - RTE_ETHER_HDR_LEN);
		trim(m, RTE_ETHER_HDR_LEN + ip_len);
		port[0] = (uint16_t)__builtin_ctzll(oifs);
		eth_fill(t, rte_pktmbuf_mtod(m, uint8_t *), gmac, port[0],
				r->v6);
		m->port = FWD_PORT_MCAST;
		out[n++] = m;
	} else {
		for (; oifs != 0; oifs &= oifs - 1) {
			out[n] = head_alloc(m);
			if (out[n] == NULL) {
				ic->ev[FWD_EV_MC_NOMEM]++;
				continue;
			}
			port[n++] = (uint16_t)__builtin_ctzll(oifs);
		}
		rte_pktmbuf_adj(m, l2);
		trim(m, ip_len);
		/* Each copy's chain holds one reference of every segment:
		 * set once, as pktgen's clone_skb (no atomic per copy). */
		for (s = m; n != 0 && s != NULL; s = s->next)
			rte_mbuf_refcnt_set(s, (uint16_t)n);
		for (k = 0; k < n; k++) {
			eth_fill(t, rte_pktmbuf_mtod(out[k], uint8_t *), gmac,
					port[k], r->v6);
			out[k]->next = m;
			out[k]->nb_segs = (uint16_t)(1 + m->nb_segs);
			out[k]->pkt_len = RTE_ETHER_HDR_LEN + m->pkt_len;
			out[k]->port = FWD_PORT_MCAST;
		}
		if (n == 0)
			rte_pktmbuf_free(m);
	}
	if (n != 0) {
		c->pkts++;
		c->bytes += ip_len;
		c->copies += n;
	}
	return n;
}
