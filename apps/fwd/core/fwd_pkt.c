/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The slow paths of npool-fwd's packet work (fwd_check.h). Chains: frames
 * larger than the mbuf data room arrive as chains (net_pcap, scattered
 * RX), and a first segment may hold fewer bytes than the headers the
 * checks read. IPv4 fragmentation of packets above the MTU with DF
 * clear.
 */
#include <string.h>

#include <rte_ip_frag.h>
#include <rte_mbuf.h>

#include "fwd_pkt.h"

int
fwd_pkt_pullup(struct rte_mbuf *m, uint32_t need)
{
	struct rte_mbuf *seg;
	uint32_t take;

	/* Never write into a buffer another packet may see. */
	if (need > m->buf_len || RTE_MBUF_CLONED(m) ||
			rte_mbuf_refcnt_read(m) != 1)
		return -1;
	if (rte_pktmbuf_tailroom(m) < need - m->data_len) {
		/* Give up the headroom to make room at the tail. */
		memmove(m->buf_addr, rte_pktmbuf_mtod(m, void *), m->data_len);
		m->data_off = 0;
	}
	while (m->data_len < need) {
		seg = m->next;
		if (seg == NULL)
			return -1;
		take = RTE_MIN(need - m->data_len, (uint32_t)seg->data_len);
		memcpy(rte_pktmbuf_mtod_offset(m, char *, m->data_len),
				rte_pktmbuf_mtod(seg, char *), take);
		m->data_len += take;
		seg->data_off += take;
		seg->data_len -= take;
		if (seg->data_len == 0) {
			m->next = seg->next;
			m->nb_segs--;
			seg->next = NULL;
			rte_pktmbuf_free_seg(seg);
		}
	}
	return 0;
}

bool
fwd_pkt_chain_ok(const struct rte_mbuf *m)
{
	const struct rte_mbuf *s = m;
	uint32_t len = 0;
	uint16_t segs = 0;

	for (; s != NULL && segs <= m->nb_segs; s = s->next, segs++)
		len += s->data_len;
	return s == NULL && segs == m->nb_segs && len == m->pkt_len;
}

void
fwd_pkt_trim_chain(struct rte_mbuf *m, uint32_t len)
{
	struct rte_mbuf *seg = m, *rest;
	uint32_t left = len;
	uint16_t nb = 1;

	while (seg->data_len < left && seg->next != NULL) {
		left -= seg->data_len;
		seg = seg->next;
		nb++;
	}
	seg->data_len = (uint16_t)RTE_MIN(left, (uint32_t)seg->data_len);
	rest = seg->next;
	seg->next = NULL;
	m->nb_segs = nb;
	m->pkt_len = len;
	while (rest != NULL) {
		seg = rest->next;
		rest->next = NULL;
		rte_pktmbuf_free_seg(rest);
		rest = seg;
	}
}

uint32_t
fwd_pkt_frag_count(const struct fwd_tables *t, const struct rte_mbuf *m,
		const struct fwd_meta *md)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m,
			const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	const uint32_t ihl = rte_ipv4_hdr_len(ip);
	const uint32_t mtu = fwd_egress_mtu(t, md->port);
	const uint32_t step = (mtu - ihl) & ~7u;
	const uint32_t end = ((uint32_t)(rte_be_to_cpu_16(ip->fragment_offset) &
			RTE_IPV4_HDR_OFFSET_MASK) << 3) + md->ip_len - ihl;

	/* The last fragment must still fit a 16-bit IP offset: a fragment
	 * ending past byte 65535 cannot be cut further
	 * (rte_ipv4_fragment_packet would carry the offset into MF). */
	if (mtu <= ihl || step == 0 || end > UINT16_MAX)
		return 0;
	return (md->ip_len - ihl + step - 1) / step;
}

int32_t
fwd_pkt_fragment(const struct fwd_tables *t, struct rte_mbuf *m,
		const struct fwd_meta *md, uint16_t in_port,
		struct rte_mbuf **frags, uint32_t nb)
{
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct fwd_l2 l2;
	int32_t n, i;

	/* The MACs the rewrite wrote (a link broadcast's too). */
	memcpy(&l2, rte_pktmbuf_mtod(m, void *), sizeof(l2));
	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	n = rte_ipv4_fragment_packet(m, frags, (uint16_t)nb,
			fwd_egress_mtu(t, md->port),
			t->frag_direct, t->frag_indirect);
	/* The fragments hold references to the payload; m itself goes. */
	rte_pktmbuf_free(m);
	for (i = 0; i < n; i++) {
		eth = (struct rte_ether_hdr *)rte_pktmbuf_prepend(frags[i],
				RTE_ETHER_HDR_LEN);
		memcpy(eth, &l2, sizeof(l2));
		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		ip = (struct rte_ipv4_hdr *)(eth + 1);
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		/* A fragment refused by the TX queue counts once, by the
		 * first (fwd_tx_flush()). */
		frags[i]->port = i == 0 ? in_port : RTE_MBUF_PORT_INVALID;
	}
	return n;
}
