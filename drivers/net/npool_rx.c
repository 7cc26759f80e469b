/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

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

/* Copy RX mbuf @p m into npool packet @p c: data and the metadata the
 * copy keeps (npool_rx.h). packet_type, pkt_len, data_len, vlan_tci and
 * hash sit side by side (the PMDs' rx_descriptor_fields1): one copy. */
static __rte_always_inline void
copybreak_one(struct rte_mbuf *c, const struct rte_mbuf *m)
{
	const size_t desc = offsetof(struct rte_mbuf, hash) +
		sizeof(m->hash) - offsetof(struct rte_mbuf, packet_type);

	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, pkt_len) !=
			offsetof(struct rte_mbuf, packet_type) + 4 ||
			offsetof(struct rte_mbuf, data_len) !=
			offsetof(struct rte_mbuf, packet_type) + 8 ||
			offsetof(struct rte_mbuf, vlan_tci) !=
			offsetof(struct rte_mbuf, packet_type) + 10 ||
			offsetof(struct rte_mbuf, hash) !=
			offsetof(struct rte_mbuf, packet_type) + 12);
	rte_memcpy(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_mtod(m, void *),
			m->data_len);
	/* From the mbuf's base: the copy spans several fields. */
	memcpy((char *)c + offsetof(struct rte_mbuf, packet_type),
			(const char *)m +
			offsetof(struct rte_mbuf, packet_type), desc);
	c->port = m->port;
	c->ol_flags |= m->ol_flags & ~(RTE_MBUF_F_EXTERNAL |
			RTE_MBUF_F_INDIRECT);
	c->vlan_tci_outer = m->vlan_tci_outer;
	/* Dynamic fields (RX timestamp, ...) go with their flags. */
	memcpy(c->dynfield1, m->dynfield1, sizeof(c->dynfield1));
}

/*
 * Copy-break up to NPOOL_PKT_BULK_MAX packets: one pass finds the small
 * ones, one bulk allocation makes their npool packets, the copies run
 * back to back and the RX mbufs go back in one bulk put.
 */
static __rte_always_inline uint16_t
copybreak_block(struct rte_mbuf **pkts, uint16_t n, uint16_t copybreak,
		uint16_t *nomem)
{
	/* refcnt 1 and nb_segs 1 in the rearm word (data_off masked). */
	const uint64_t want = (uint64_t)NPOOL_PKT_RC_SEGS_ONE << 16;
	struct rte_mbuf *c[NPOOL_PKT_BULK_MAX], *done[NPOOL_PKT_BULK_MAX];
	uint32_t len[NPOOL_PKT_BULK_MAX];
	uint16_t at[NPOOL_PKT_BULK_MAX];
	uint64_t odd = 0, rearm;
	unsigned int i, k = 0, got;
	const struct rte_mempool *mp;
	uint16_t nd = 0;

	/* Which packets to copy: a single whole segment of at most
	 * @p copybreak bytes; a chain, or a segment whose lengths disagree,
	 * stays. Branch-free: every index is written, the small ones kept. */
	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		at[k] = (uint16_t)i;
		len[k] = m->pkt_len;
		k += (m->pkt_len <= copybreak) & (m->nb_segs == 1) &
			(m->data_len == m->pkt_len);
	}
	if (k == 0)
		return 0;
	got = npool_napi_alloc_pkt_bulk(c, len, k);
	/* The packets that got no npool packet stay in their RX mbuf: late,
	 * never lost. */
	*nomem += (uint16_t)(k - got);
	if (unlikely(got == 0))
		return 0;
	mp = pkts[at[0]]->pool;
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[at[i]];

		if (i + 1 < k)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[at[i + 1]],
					void *));
		if (unlikely(c[i] == NULL))
			continue;
		copybreak_one(c[i], m);
		/* Whether the RX mbufs are all plain (direct, refcnt 1, one
		 * segment) of one pool: OR the differences, test once. */
		rearm = (uint64_t)npool_pkt_rc_segs_pvt(m) << 16;
		odd |= (rearm ^ want) | ((uintptr_t)m->pool ^ (uintptr_t)mp) |
			(m->ol_flags & (RTE_MBUF_F_EXTERNAL |
					RTE_MBUF_F_INDIRECT));
		done[nd++] = m;
		pkts[at[i]] = c[i];
	}
	/* The RX buffers go back in one bulk, hot for the next refill;
	 * anything else (npool packets, other pools) one by one. */
	if (likely(odd == 0))
		npool_napi_consume_plain((struct rte_mempool *)(uintptr_t)mp,
				done, nd);
	else
		npool_napi_consume_bulk_pvt(done, nd);
	return nd;
}

/* Copy @p len bytes, 32 .. NPOOL_PKT_SMALL_LEN, in fixed 32-byte
 * copies, the last one ending at @p len (overlapping the one before):
 * no size dispatch and no byte read or written beyond @p len. Up to 64
 * bytes (a minimum frame) two copies and no loop. */
static __rte_always_inline void
copy_small(char *d, const char *s, uint32_t len)
{
	uint32_t o;

	memcpy(d, s, 32);
	for (o = 32; unlikely(o + 32 < len); o += 32)
		memcpy(d + o, s + o, 32);
	memcpy(d + len - 32, s + len - 32, 32);
}

/* Copy RX mbuf @p m (@p w: its rearm word) into tiny packet @p d
 * (npool_pkt.h) made here: the rearm word with m's port, the descriptor
 * fields in one copy, the flags that hold for a direct buffer, the
 * dynamic fields, the data. */
static __rte_always_inline void
copybreak_tiny_one(struct rte_mbuf *d, const struct rte_mbuf *m,
		uint64_t rearm, uint64_t w)
{
	const size_t desc = offsetof(struct rte_mbuf, hash) +
		sizeof(m->hash) - offsetof(struct rte_mbuf, packet_type);
	const uint32_t len = m->pkt_len;

	/* The port is the rearm word's top 16 bits, in m's as in d's. */
	rearm |= w & (UINT64_C(0xffff) << 48);
	memcpy((char *)d + offsetof(struct rte_mbuf, data_off), &rearm,
			sizeof(rearm));
	memcpy((char *)d + offsetof(struct rte_mbuf, packet_type),
			(const char *)m +
			offsetof(struct rte_mbuf, packet_type), desc);
	d->ol_flags = m->ol_flags & ~(RTE_MBUF_F_EXTERNAL |
			RTE_MBUF_F_INDIRECT);
	d->vlan_tci_outer = m->vlan_tci_outer;
	d->tx_offload = 0;
	memcpy(d->dynfield1, m->dynfield1, sizeof(d->dynfield1));
	if (likely(len >= 32))
		copy_small(rte_pktmbuf_mtod(d, char *),
				rte_pktmbuf_mtod(m, const char *), len);
	else
		memcpy(rte_pktmbuf_mtod(d, char *),
				rte_pktmbuf_mtod(m, const char *), len);
}

/*
 * Copy-break into tiny packets in one pass: as many objects as packets
 * in one bulk get (the unused ones go back in one put), then per packet
 * the selection test, the copy and the plain test of the RX mbuf, which
 * go back in one bulk put. -1 when the pool cannot give @p n at once
 * (copybreak_block() then takes the burst, packet by packet).
 */
static __rte_always_inline int
copybreak_tiny(struct npool *np, unsigned int slot, struct rte_mbuf **pkts,
		uint16_t n, uint16_t copybreak)
{
	/* refcnt 1 and nb_segs 1 in the rearm word. */
	const uint64_t want = (uint64_t)NPOOL_PKT_RC_SEGS_ONE << 16;
	const uint64_t rc_segs = UINT64_C(0xffffffff) << 16;
	const uint64_t ext = RTE_MBUF_F_EXTERNAL | RTE_MBUF_F_INDIRECT;
	const uint64_t rearm =
		npool_pkt_rearm_pvt((uint16_t)np->tiny_headroom) &
		~(UINT64_C(0xffff) << 48);
	const uintptr_t mp = (uintptr_t)pkts[0]->pool;
	struct rte_mbuf *c[NPOOL_PKT_BULK_MAX], *done[NPOOL_PKT_BULK_MAX];
	unsigned int i, nd = 0;
	uint64_t odd = 0;

	if (unlikely(rte_mempool_get_bulk(np->small_pool, (void **)c, n) < 0))
		return -1;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint32_t len = m->pkt_len;
		uint64_t w;

		/* data_off, refcnt, nb_segs, port: one load. A plain RX
		 * mbuf (refcnt 1, one segment) whose lengths agree; a chain
		 * or a shared one stays as it is. */
		memcpy(&w, &m->data_off, sizeof(w));
		if (!((len <= copybreak) & (m->data_len == len) &
				((w & rc_segs) == want)))
			continue;
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		copybreak_tiny_one(c[nd], m, rearm, w);
		/* Whether the RX mbufs are all direct and of one pool: OR
		 * the differences, test once. */
		odd |= ((uintptr_t)m->pool ^ mp) | (m->ol_flags & ext);
		done[nd] = m;
		pkts[i] = c[nd++];
	}
	if (nd < n)
		rte_mempool_put_bulk(np->small_pool, (void * const *)&c[nd],
				n - nd);
	if (nd == 0)
		return 0;
	np->lc[slot].stats.pkt_allocs += nd;
	/* The RX buffers go back in one bulk, hot for the next refill. */
	if (likely(odd == 0))
		npool_napi_consume_plain((struct rte_mempool *)mp, done, nd);
	else
		npool_napi_consume_bulk_pvt(done, nd);
	return (int)nd;
}

uint16_t
npool_rx_copybreak(struct rte_mbuf **pkts, uint16_t n, uint16_t copybreak)
{
	unsigned int slot = npool_slot();
	struct npool *np = npool_lcore_np_pvt[slot];
	uint16_t i, nd = 0, nomem = 0, b;
	int t;

	if (copybreak == 0 || n == 0)
		return 0;
	for (i = 0; i < n; i += b) {
		b = (uint16_t)RTE_MIN(n - i, NPOOL_PKT_BULK_MAX);
		/* Tiny packets on an lcore (napi context), else as many
		 * head + fragment packets (or tiny, one at a time). */
		if (likely(np != NULL && slot != NPOOL_NON_EAL_SLOT &&
				np->small_pool != NULL &&
				copybreak <= np->tiny_len)) {
			NPOOL_DEBUG_CHECK(npool_debug_napi_owner_pvt(slot));
			t = copybreak_tiny(np, slot, &pkts[i], b, copybreak);
			if (likely(t >= 0)) {
				nd += (uint16_t)t;
				continue;
			}
		}
		nd += copybreak_block(&pkts[i], b, copybreak, &nomem);
	}
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
