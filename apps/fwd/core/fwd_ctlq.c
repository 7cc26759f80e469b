/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What an lcore hands the control thread (fwd_ctlq.h): held packets
 * copied into packets of their own size on their way, through the gate
 * that keeps them ahead of the fast path (struct fwd_hold_gate),
 * neighbour events.
 */
#include <string.h>

#include <rte_errno.h>
#include <rte_ring_elem.h>

#include "npool.h"
#include "fwd_ctlmsg.h"
#include "fwd_ctlq.h"
#include "fwd_lookup.h"

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

/* The next hop held frame @p p waits for now: by the id in its
 * destination MAC, or (held by its port's own next hop, the link's) by
 * its route, which may name a neighbour's next hop since; that id is
 * written back into the frame. NULL: none. */
static const struct fwd_nh *
fwd_hold_nh(const struct fwd_tables *t, uint8_t *p, uint32_t len)
{
	const bool v6 = p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) &&
		p[13] == (RTE_ETHER_TYPE_IPV6 & 0xff);
	uint32_t id = fwd_nh_hold_id(p);
	struct rte_ether_addr mac;
	int32_t hop;

	if (id < RTE_MAX_ETHPORTS && t->lookup != FWD_LOOKUP_EM &&
			len >= RTE_ETHER_HDR_LEN + (v6 ? 40u : 20u)) {
		hop = fwd_lookup_frame(t, p);
		if ((uint32_t)hop < FWD_NH_MAX &&
				(uint32_t)hop >= RTE_MAX_ETHPORTS) {
			id = (uint32_t)hop;
			fwd_nh_hold_mac(id, &mac);
			memcpy(p, &mac, sizeof(mac));
		}
	}
	return id < FWD_NH_MAX ? fwd_nh_get(t->nht, id) : NULL;
}

uint16_t
fwd_hold_hand(const struct fwd_tables *t, struct fwd_hold_batch *b)
{
	struct fwd_hold_gate *g = t->gate;
	const struct fwd_nh *nh;
	uint16_t i, taken;
	uint8_t *p;

	b->held = 0;
	b->nlate = 0;
	for (i = 0; i < b->n; i++)
		b->m[i] = fwd_hold_copy(b->m[i]);
	if (t->hold == NULL || g == NULL) {
		b->held = b->n;
		return 0;
	}
	rte_spinlock_lock(&g->lock);
	for (i = 0; i < b->n; i++) {
		p = rte_pktmbuf_mtod(b->m[i], uint8_t *);
		nh = fwd_hold_nh(t, p, rte_pktmbuf_data_len(b->m[i]));
		if (nh != NULL && nh->tx != FWD_TX_HOLD) {
			memcpy(p, nh->eth16, 2 * RTE_ETHER_ADDR_LEN);
			b->late_port[b->nlate] = nh->tx;
			b->late[b->nlate++] = b->m[i];
		} else {
			b->m[b->held++] = b->m[i];
		}
	}
	taken = (uint16_t)rte_ring_mp_enqueue_burst(t->hold, (void **)b->m,
			b->held, NULL);
	for (i = 0; i < taken; i++) {
		p = rte_pktmbuf_mtod(b->m[i], uint8_t *);
		__atomic_fetch_add(&g->inflight[fwd_nh_hold_id(p) &
				(FWD_NH_MAX - 1)], 1, __ATOMIC_RELAXED);
	}
	rte_spinlock_unlock(&g->lock);
	return taken;
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
