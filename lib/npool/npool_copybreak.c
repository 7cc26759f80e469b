/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Copy-break (npool_copybreak.h): a received burst's small packets copied
 * into tiny packets (or head + fragment packets above tiny_len), their RX
 * mbufs back to the RX pool in one bulk put; the counters.
 */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>
#include <rte_tailq.h>

#include "npool_copybreak.h"
#include "npool_core.h"
#include "npool_debug.h"
#include "npool_mbuf.h"
#include "npool_pkt_bulk.h"
#include "npool_pkt_consume.h"
#include "npool_stats.h"
#include "npool_usage.h"
#include "npool_log.h"

/* Copy-break counters: one cache line per lcore, written by that lcore
 * only; the last slot is shared by non-EAL threads (atomic adds). */
static struct {
	struct npool_rx_stats s;
} __rte_cache_aligned rx_stats[RTE_MAX_LCORE + 1];

int
npool_rx_stats_get(unsigned int slot, struct npool_rx_stats *out)
{
	if (slot > NPOOL_RX_NON_EAL_SLOT || out == NULL)
		return npool_err_pvt(EINVAL);
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
		return npool_err_pvt(EINVAL);
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

/*
 * The first time copy-break finds no npool packet to copy into, say so
 * once in the log: what ran dry and how to size it. The counter
 * (copybreak_nomem) counts every packet.
 */
static int rx_dry_said;

static __rte_noinline __rte_cold void
rx_dry_log(unsigned int lcore)
{
	struct npool_usage u;

	if (__atomic_exchange_n(&rx_dry_said, 1, __ATOMIC_RELAXED) != 0)
		return;
	if (npool_usage_get(&u) != 0) {
		NPOOL_LOG(WARNING, "copy-break on lcore %u: no npool instance: small packets stay in their RX mbufs (copybreak_nomem)",
				lcore);
		return;
	}
	NPOOL_LOG(WARNING, "copy-break ran dry on lcore %u: tiny packets %u of %u out, heads %u of %u out: small packets stay in their RX mbufs, counted in copybreak_nomem (said once). More tiny packets: npool_conf.nb_tiny or nb_pkts",
			lcore, u.small_pkts_out, u.small_pkts, u.heads_out,
			u.heads);
}

/* Add one burst's counts to the calling thread's slot. */
static void
rx_stats_add(uint16_t copied, uint16_t nomem)
{
	unsigned int lcore = rte_lcore_id();
	struct npool_rx_stats *s;

	if (unlikely(nomem != 0) &&
			!__atomic_load_n(&rx_dry_said, __ATOMIC_RELAXED))
		rx_dry_log(lcore);
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
 * copy keeps (npool_copybreak.h). */
static __rte_always_inline void
copybreak_one(struct rte_mbuf *c, const struct rte_mbuf *m)
{
	rte_memcpy(rte_pktmbuf_mtod(c, void *), rte_pktmbuf_mtod(m, void *),
			m->data_len);
	npool_mbuf_rx_fields_copy(c, m);
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
	struct rte_mbuf *c[NPOOL_PKT_BULK_MAX], *done[NPOOL_PKT_BULK_MAX];
	uint32_t len[NPOOL_PKT_BULK_MAX];
	uint16_t at[NPOOL_PKT_BULK_MAX];
	uint64_t odd = 0;
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
		odd |= ((npool_mbuf_rearm_acquire(m) &
				NPOOL_MBUF_REFCNT_SEGS_MASK) ^ NPOOL_MBUF_LONE) |
			((uintptr_t)m->pool ^ (uintptr_t)mp) |
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
		npool_napi_consume_bulk_slow(done, nd);
	return nd;
}

/*
 * Whether any dynamic field is registered: the mbuf library's list of
 * them (in the shared memory config, so a registration by another
 * process, dpdk-dumpcap's, shows too) is not empty. Its head is looked up
 * once; read once a burst. Without the list (an mbuf library that names
 * it otherwise), every copy takes the dynamic fields.
 */
#define RX_DYN_TAILQ "RTE_MBUF_DYNFIELD"

static struct rte_tailq_head *rx_dyn_head;
static int rx_dyn_none; /* the list was looked for, not found */

static __rte_noinline __rte_cold int
rx_dyn_lookup(void)
{
	struct rte_tailq_head *h = rte_eal_tailq_lookup(RX_DYN_TAILQ);

	if (h == NULL) {
		__atomic_store_n(&rx_dyn_none, 1, __ATOMIC_RELAXED);
		return 1;
	}
	__atomic_store_n(&rx_dyn_head, h, __ATOMIC_RELAXED);
	return __atomic_load_n(&h->tailq_head.tqh_first,
			__ATOMIC_ACQUIRE) != NULL;
}

static inline int
rx_dyn_registered(void)
{
	struct rte_tailq_head *h = __atomic_load_n(&rx_dyn_head,
			__ATOMIC_RELAXED);

	/* Acquire: a field's registration before the packets that
	 * carry it. */
	if (likely(h != NULL))
		return __atomic_load_n(&h->tailq_head.tqh_first,
				__ATOMIC_ACQUIRE) != NULL;
	return __atomic_load_n(&rx_dyn_none, __ATOMIC_RELAXED) ? 1 :
		rx_dyn_lookup();
}

/*
 * @p n objects of @p mp in @p obj, the hottest last: the top of the
 * lcore's cache as it lies there, in one copy (rte_mempool_get_bulk()
 * moves them one pointer at a time to put the hottest first). A cache too
 * short, or a build of DPDK that counts or checks each get, goes through
 * rte_mempool_get_bulk(), its order reversed.
 */
static __rte_always_inline int
rx_tiny_get(struct rte_mempool *mp, unsigned int slot,
		struct rte_mbuf **obj, unsigned int n)
{
	struct rte_mbuf *t;
	unsigned int i;
#if !defined(RTE_LIBRTE_MEMPOOL_STATS) && !defined(RTE_LIBRTE_MEMPOOL_DEBUG)
	struct rte_mempool_cache *c = rte_mempool_default_cache(mp, slot);

	if (likely(c != NULL && c->len >= n)) {
		c->len -= n;
		rte_memcpy(obj, &c->objs[c->len], n * sizeof(*obj));
		return 0;
	}
#else
	RTE_SET_USED(slot);
#endif
	if (rte_mempool_get_bulk(mp, (void **)obj, n) < 0)
		return -1;
	for (i = 0; i < n / 2; i++) {
		t = obj[i];
		obj[i] = obj[n - 1 - i];
		obj[n - 1 - i] = t;
	}
	return 0;
}

int
npool_rx_copybreak_begin(struct npool_rx_cb *cb, struct rte_mbuf *const *pkts,
		uint16_t n, uint16_t copybreak)
{
	unsigned int slot = npool_slot();
	struct npool *np = npool_lcore_np[slot];

	if (np == NULL || slot == NPOOL_NON_EAL_SLOT || np->small_pool == NULL)
		return npool_err_pvt(ENODEV);
	if (copybreak > np->tiny_len || n == 0 || n > NPOOL_PKT_BULK_MAX)
		return npool_err_pvt(EINVAL);
	NPOOL_DEBUG_CHECK(npool_debug_napi_owner(slot));
	if (unlikely(rx_tiny_get(np->small_pool, slot, cb->obj, n) < 0))
		return npool_err_pvt(ENOBUFS);
	cb->next = &cb->obj[n - 1];
	cb->copybreak = copybreak;
	cb->n = n;
	cb->dyn = (uint8_t)rx_dyn_registered();
	cb->odd = 0;
	cb->mp = (uintptr_t)pkts[0]->pool;
	cb->np = np;
	cb->slot = slot;
	/* A tiny packet's data_off; refcnt, nb_segs and port come from
	 * each RX mbuf's rearm word. */
	cb->headroom = np->tiny_headroom;
	cb->rearm = NPOOL_MBUF_REARM(np->tiny_headroom, 0, 0, 0);
	return 0;
}

void
npool_rx_copybreak_end(struct npool_rx_cb *cb)
{
	struct npool *np = cb->np;
	/* obj[0 .. left) tiny packets unused, obj[left .. n) RX mbufs. */
	const uint16_t left = (uint16_t)(cb->next + 1 - cb->obj);
	const uint16_t nd = cb->n - left;

	if (left != 0)
		rte_mempool_put_bulk(np->small_pool,
				(void * const *)cb->obj, left);
	if (nd == 0)
		return;
	np->lc[cb->slot].stats.pkt_allocs += nd;
	/* The RX buffers go back in one bulk, hot for the next refill. */
	if (likely(cb->odd == 0))
		npool_napi_consume_plain((struct rte_mempool *)cb->mp,
				&cb->obj[left], nd);
	else
		npool_napi_consume_bulk_slow(&cb->obj[left], nd);
	rx_stats_add(nd, 0);
}

uint16_t
npool_rx_copybreak(struct rte_mbuf **pkts, uint16_t n, uint16_t copybreak)
{
	struct npool_rx_cb cb;
	uint16_t i, j, nd = 0, nblock = 0, nomem = 0, b;

	if (copybreak == 0 || n == 0)
		return 0;
	for (i = 0; i < n; i += b) {
		b = (uint16_t)RTE_MIN(n - i, NPOOL_PKT_BULK_MAX);
		/* Tiny packets on an lcore (napi context), else as many
		 * head + fragment packets (or tiny, one at a time). */
		if (likely(npool_rx_copybreak_begin(&cb, &pkts[i], b,
				copybreak) == 0)) {
			for (j = i; j < i + b; j++) {
				if (j + 1 < i + b)
					rte_prefetch0(rte_pktmbuf_mtod(
							pkts[j + 1], void *));
				pkts[j] = npool_rx_copybreak_pkt(&cb, pkts[j]);
			}
			nd += (uint16_t)(&cb.obj[b - 1] - cb.next);
			npool_rx_copybreak_end(&cb);
			continue;
		}
		nblock += copybreak_block(&pkts[i], b, copybreak, &nomem);
	}
	/* npool_rx_copybreak_end() counted its own. */
	if (nblock != 0 || nomem != 0)
		rx_stats_add(nblock, nomem);
	return nd + nblock;
}
