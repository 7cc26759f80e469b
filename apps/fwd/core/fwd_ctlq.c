/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What an lcore hands the control thread (fwd_ctlq.h): held packets
 * copied into packets of their own size on their way, neighbour events.
 */
#include <string.h>

#include <rte_errno.h>
#include <rte_ring_elem.h>

#include "npool.h"
#include "fwd_ctlq.h"

/* A copy of held packet @p m in a packet of its own size (npool's napi
 * flavour: the lcore owns it), its parse and port kept; @p m itself when
 * none can be had (no npool: --pool mempool). */
static struct rte_mbuf *
fwd_hold_copy(struct rte_mbuf *m)
{
	const uint32_t len = m->pkt_len;
	struct rte_mbuf *c;
	const void *s;
	char *p;

	c = npool_napi_alloc_pkt(len);
	if (c == NULL)
		return m;
	p = rte_pktmbuf_append(c, (uint16_t)len);
	if (p == NULL || len > UINT16_MAX) {
		rte_pktmbuf_free(c);
		return m;
	}
	s = rte_pktmbuf_read(m, 0, len, p);
	if (s != p)
		memcpy(p, s, len);
	c->port = m->port;
	c->packet_type = m->packet_type;
	c->l2_len = m->l2_len;
	c->l3_len = m->l3_len;
	rte_pktmbuf_free(m);
	return c;
}

uint16_t
fwd_hold_hand(struct rte_ring *r, struct rte_mbuf **m, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++)
		m[i] = fwd_hold_copy(m[i]);
	return r == NULL ? 0 :
		(uint16_t)rte_ring_mp_enqueue_burst(r, (void **)m, n, NULL);
}

void
fwd_nev_put(const struct fwd_tables *t, struct app_port_ctr *ic,
		const struct fwd_nev *ev)
{
	struct fwd_nev e = *ev;

	if (t->nev != NULL && rte_ring_mp_enqueue_elem(t->nev, &e,
			sizeof(e)) != 0)
		ic->ev[FWD_EV_NEV_LOST]++;
}
