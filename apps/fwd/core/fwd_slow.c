/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's slow path: a packet the one pass (fwd_pass.h) did not take.
 * The RX checks (a frame in one segment, or a chain that adds up),
 * copy-break, then plain IPv6 in a few
 * tests, or every check of fwd_classify(); a forwarded packet leaves
 * through the TX buffers (fwd_ctx.h), a fragmented one as its fragments,
 * a multicast one as its copies, a dropped one is counted and kept in the
 * context with its parse for the router's answers (fwd_burst_drops()).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "app_compat.h"
#include "fwd_check.h"
#include "fwd_mcast.h"
#include "fwd_pkt.h"
#include "fwd_slow.h"

/*
 * Plain IPv6, the pass's test for the other family: one whole segment
 * (the RX checks made), addressed to the receiving port's MAC, untagged,
 * version 6, a payload that is not empty and fits the frame (padding may
 * follow) and the MTU, hop limit above 1, neither address a martian, and
 * a route to an enabled port (in @p md).
 */
static int
fwd_plain6(const struct fwd_ctx *c, const struct rte_mbuf *m,
		struct fwd_meta *md)
{
	const struct fwd_tables *t = c->t;
	const uint32_t len = m->pkt_len;
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct fwd_nh *nh;
	const struct rte_ipv6_hdr *ip =
		(const struct rte_ipv6_hdr *)(p + RTE_ETHER_HDR_LEN);
	uint32_t l3;
	int32_t hop;

	if (len < RTE_ETHER_HDR_LEN + sizeof(*ip) || m->nb_segs != 1 ||
			((const struct rte_ether_hdr *)p)->ether_type !=
			RTE_BE16(RTE_ETHER_TYPE_IPV6) ||
			(p[RTE_ETHER_HDR_LEN] >> 4) != 6 ||
			memcmp(p, &t->l2[c->in_port].src, RTE_ETHER_ADDR_LEN))
		return 0;
	l3 = rte_be_to_cpu_16(ip->payload_len) + sizeof(*ip);
	if (l3 == sizeof(*ip) || l3 + RTE_ETHER_HDR_LEN > len ||
			l3 > t->mtu || ip->hop_limits <= 1 ||
			fwd_v6_martian(APP_IPV6_BYTES(ip->dst_addr)) ||
			fwd_v6_martian(APP_IPV6_BYTES(ip->src_addr)))
		return 0;
	hop = unlikely(t->lookup == FWD_LOOKUP_EM) ?
		fwd_em_lookup6(t, ip, l3, c->in_port) :
		fwd_lookup6(t, APP_IPV6_BYTES(ip->dst_addr));
	if (fwd_hop_odd((uint32_t)hop))
		return 0;
	nh = fwd_nh_get(t->nht, (uint32_t)hop);
	md->nh = nh;
	md->ip_len = l3;
	md->l2_len = RTE_ETHER_HDR_LEN;
	md->port = nh->port;
	md->tx = nh->tx;
	md->v6 = true;
	md->l2_bcast = false;
	return 1;
}

/*
 * IPv4 above the MTU with DF clear, rewritten: cut it into fragments
 * (fwd_pkt_fragment()) that follow what the TX buffer of its port holds.
 * Counted forwarded when it was cut (tx_full if its first fragment is
 * refused, fwd_tx_flush()), frag_fail when it cannot be.
 */
static void
fwd_fragment(struct fwd_ctx *c, struct rte_mbuf *m, const struct fwd_meta *md)
{
	uint32_t nb = fwd_pkt_frag_count(c->t, m, md);
	int32_t n, k;

	if (nb == 0) {
		c->ic->drops[FWD_FRAG_FAIL]++;
		rte_pktmbuf_free(m);
		return;
	}
	struct rte_mbuf *frags[nb];

	n = fwd_pkt_fragment(c->t, m, md, c->in_port, frags, nb);
	if (n <= 0) {
		c->ic->drops[FWD_FRAG_FAIL]++;
		return;
	}
	c->ic->fwd++;
	for (k = 0; k < n; k++)
		fwd_tx_put(c, md->tx, frags[k]);
}

/*
 * IP multicast (FWD_MCAST, route @p route): its copies (fwd_mcast_copies())
 * onto the TX buffers of their ports. Counted forwarded once when a copy
 * is queued, tx_full when none could be made.
 */
static __rte_noinline void
fwd_mcast_out(struct fwd_ctx *c, struct rte_mbuf *m, uint16_t route)
{
	struct rte_mbuf *out[RTE_MAX_ETHPORTS];
	uint16_t port[RTE_MAX_ETHPORTS];
	unsigned int n, i;

	n = fwd_mcast_copies(c->t, m, route, out, port, c->ic);
	if (n == 0) {
		c->ic->drops[FWD_TX_FULL]++;
		return;
	}
	c->ic->fwd++;
	for (i = 0; i < n; i++)
		fwd_tx_put(c, port[i], out[i]);
}

void
fwd_slow(struct fwd_ctx *c, struct rte_mbuf *m)
{
	const struct fwd_tables *t = c->t;
	struct fwd_meta md;
	int v;

	c->nslow++;
	/* The RX checks: one whole segment received here, else the
	 * port set (net_ring leaves the sender's) and the chain looked
	 * at. */
	if (unlikely(npool_mbuf_segs_port(m) !=
			NPOOL_MBUF_SEGS_PORT(1, c->in_port) ||
			m->data_len != m->pkt_len)) {
		m->port = c->in_port;
		if (unlikely(!fwd_pkt_chain_ok(m))) {
			c->ic->drops[FWD_TRUNCATED]++;
			/* Follows the next pointers, not nb_segs. */
			rte_pktmbuf_free(m);
			return;
		}
	}
	if (c->cb != NULL)
		m = npool_rx_copybreak_pkt(c->cb, m);
	if (fwd_plain6(c, m, &md))
		v = FWD_PASS;
	else
		v = fwd_classify(t, m, &md);
	if (likely(v == FWD_PASS)) {
		fwd_rewrite(m, &md);
		c->ic->fwd++;
		fwd_tx_put(c, md.tx, m);
	} else if (v == FWD_FRAGMENT) {
		fwd_rewrite(m, &md);
		fwd_fragment(c, m, &md);
	} else if (v == FWD_MCAST) {
		fwd_mcast_out(c, m, md.port);
	} else {
		c->ic->drops[v]++;
		c->why[c->nd] = (uint8_t)v;
		c->drop[c->nd++] = m;
	}
}
