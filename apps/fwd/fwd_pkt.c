/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Chains, the slow path of npool-fwd's packet work: frames larger than the
 * mbuf data room arrive as chains (net_pcap, scattered RX), and a first
 * segment may hold fewer bytes than the headers the checks read.
 */
#include <string.h>

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
