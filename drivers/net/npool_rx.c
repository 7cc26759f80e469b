/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>

#include "npool_rx.h"

/* Copy-break counters: one cache line per lcore, written by that lcore
 * only; the last slot is shared by non-EAL threads (atomic adds). */
static struct {
	struct npool_rx_stats s;
} __rte_cache_aligned rx_stats[RTE_MAX_LCORE + 1];

int
npool_rx_stats_get(unsigned int slot, struct npool_rx_stats *out)
{
	if (slot > NPOOL_RX_NON_EAL_SLOT || out == NULL)
		return -EINVAL;
	out->copybreak_copied = __atomic_load_n(
			&rx_stats[slot].s.copybreak_copied, __ATOMIC_RELAXED);
	out->copybreak_nomem = __atomic_load_n(
			&rx_stats[slot].s.copybreak_nomem, __ATOMIC_RELAXED);
	return 0;
}

int
npool_rx_stats_sum(struct npool_rx_stats *out)
{
	struct npool_rx_stats one;
	unsigned int slot;

	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (slot = 0; slot <= NPOOL_RX_NON_EAL_SLOT; slot++) {
		npool_rx_stats_get(slot, &one);
		out->copybreak_copied += one.copybreak_copied;
		out->copybreak_nomem += one.copybreak_nomem;
	}
	return 0;
}

void
npool_rx_stats_reset(void)
{
	memset(rx_stats, 0, sizeof(rx_stats));
}

/* Add one burst's counts to the calling thread's slot. */
static void
rx_stats_add(uint16_t copied, uint16_t nomem)
{
	unsigned int lcore = rte_lcore_id();
	struct npool_rx_stats *s;

	if (likely(lcore < RTE_MAX_LCORE)) {
		s = &rx_stats[lcore].s;
		s->copybreak_copied += copied;
		s->copybreak_nomem += nomem;
		return;
	}
	s = &rx_stats[NPOOL_RX_NON_EAL_SLOT].s;
	__atomic_fetch_add(&s->copybreak_copied, copied, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->copybreak_nomem, nomem, __ATOMIC_RELAXED);
}

uint16_t
npool_rx_copybreak(struct rte_mbuf **pkts, uint16_t n, uint16_t copybreak)
{
	struct rte_mbuf *done[n > 0 ? n : 1];
	uint16_t i, nd = 0, nomem = 0;

	if (copybreak == 0)
		return 0;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *c;

		/* A chain, or a segment whose lengths disagree, stays. */
		if (m->pkt_len > copybreak || m->nb_segs != 1 ||
				m->data_len != m->pkt_len)
			continue;
		c = npool_napi_alloc_pkt(m->pkt_len);
		if (unlikely(c == NULL)) {
			/* The RX mbuf goes on: late, never lost. */
			nomem++;
			continue;
		}
		rte_memcpy(rte_pktmbuf_mtod(c, void *),
				rte_pktmbuf_mtod(m, void *), m->data_len);
		c->data_len = m->data_len;
		c->pkt_len = m->pkt_len;
		c->port = m->port;
		c->packet_type = m->packet_type;
		c->ol_flags |= m->ol_flags & ~(RTE_MBUF_F_EXTERNAL |
				RTE_MBUF_F_INDIRECT);
		c->hash = m->hash;
		c->vlan_tci = m->vlan_tci;
		c->vlan_tci_outer = m->vlan_tci_outer;
		/* Dynamic fields (RX timestamp, ...) go with their flags. */
		memcpy(c->dynfield1, m->dynfield1, sizeof(c->dynfield1));
		done[nd++] = m;
		pkts[i] = c;
	}
	/* The RX buffers go back in one bulk, hot for the next refill. */
	if (nd != 0)
		npool_napi_consume_bulk(done, nd);
	if (nd != 0 || nomem != 0)
		rx_stats_add(nd, nomem);
	return nd;
}

static uint16_t
copybreak_cb(uint16_t port __rte_unused, uint16_t queue __rte_unused,
		struct rte_mbuf **pkts, uint16_t n,
		uint16_t max_pkts __rte_unused, void *arg)
{
	npool_rx_copybreak(pkts, n, (uint16_t)(uintptr_t)arg);
	return n;
}

const struct rte_eth_rxtx_callback *
npool_rx_copybreak_install(uint16_t port_id, uint16_t queue_id,
		uint16_t copybreak)
{
	if (copybreak == 0 || copybreak > NPOOL_PKT_MAX_LEN) {
		rte_errno = EINVAL;
		return NULL;
	}
	return rte_eth_add_rx_callback(port_id, queue_id, copybreak_cb,
			(void *)(uintptr_t)copybreak);
}
