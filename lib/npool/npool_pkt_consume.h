/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_PKT_CONSUME_H
#define NPOOL_PKT_CONSUME_H

/**
 * @file
 * The consume path of npool packets: napi_consume_skb() for rte_mbuf,
 * one packet or a burst. Included by npool_pkt.h; do not include it
 * directly.
 */

#include <stdint.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "npool_frag_batch.h"
#include "npool_mbuf.h"
#include "npool_tsan.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The free callback in the shared info of every npool packet's fragment
 * (rte_mbuf_ext_shared_info.free_cb): DPDK calls it when the last
 * reference to the external buffer goes, and it frees the fragment
 * (npool_free_frag()). npool_pkt_is_npool() tests for it.
 *
 * @param addr
 *   The fragment (the external buffer's address).
 * @param opaque
 *   Unused (NULL).
 */
void npool_pkt_free_cb(void *addr, void *opaque);

/**
 * Release @p n packets as rte_pktmbuf_free() would each, with npool's
 * shortcut per segment and the heads put back per pool in bulks: the
 * out-of-line path of npool_napi_consume_pkt() and
 * npool_napi_consume_bulk() for what their inline paths do not take
 * (clones, chains, other pools, NULL entries). Applications call those.
 *
 * Context: as npool_napi_consume_pkt().
 *
 * @param pkts
 *   Packets to release; NULL entries are ignored.
 * @param n
 *   Number of entries in @p pkts.
 */
void npool_napi_consume_bulk_slow(struct rte_mbuf **pkts, unsigned int n);

/** @internal Most packets npool_napi_consume_bulk() frees inline. */
#define NPOOL_CONSUME_FAST_MAX 64

/**
 * npool_napi_consume_bulk() of a burst whose first packet is not from
 * this lcore's current or previous napi chunk: a pipeline's worker
 * freeing what another lcore made, or an lcore freeing what it made long
 * ago. Lone head + fragment packets that another EAL lcore's cache
 * carved go back to it in one enqueue on its defer ring (those of the
 * first such lcore of the burst; what does not fit is freed here); the
 * others are freed here, the fragments of one chunk with one atomic
 * operation. The out-of-line half of npool_napi_consume_bulk();
 * applications call that.
 *
 * Context: as npool_napi_consume_bulk().
 *
 * @param pkts
 *   Packets to release, heads of the calling lcore's instance; NULL
 *   entries are ignored.
 * @param n
 *   Number of entries in @p pkts, 1 .. NPOOL_CONSUME_FAST_MAX.
 */
void npool_napi_consume_other(struct rte_mbuf **pkts, unsigned int n);

/**
 * @internal Whether @p m is a lone unshared segment: refcnt 1 and nb_segs
 * 1, both seen in one load of the rearm word (npool_mbuf.h) with acquire
 * order, as another lcore may be dropping its reference to a shared mbuf
 * right now (rte_mbuf_refcnt_update()): seeing 1 must order that lcore's
 * last accesses before this free.
 */
static __rte_always_inline int
npool_pkt_lone_pvt(const struct rte_mbuf *m)
{
	uint64_t w = npool_mbuf_rearm_acquire(m);

	/*
	 * ThreadSanitizer orders atomics per address: it would not see this
	 * 64-bit acquire take what another holder's 16-bit release decrement
	 * of refcnt published, as the CPU does (npool_tsan.h).
	 */
	npool_tsan_acquire(&m->refcnt);
	return npool_mbuf_rearm_lone(w);
}

/**
 * @internal Whether every one of @p n packets is a plain RX mbuf of pool
 * @p mp: direct, refcnt 1, one segment.
 */
static __rte_always_inline int
npool_pkt_all_plain_pvt(struct rte_mbuf * const *pkts, unsigned int n,
		const struct rte_mempool *mp)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];

		if (unlikely(m == NULL))
			return 0;
		if (unlikely(m->pool != mp || !RTE_MBUF_DIRECT(m) ||
				!npool_pkt_lone_pvt(m)))
			return 0;
	}
	return 1;
}

/**
 * Whether @p m is an npool packet (its buffer is an npool fragment).
 * Any thread.
 *
 * @param m
 *   An mbuf.
 * @return
 *   1 for an npool packet, else 0.
 */
static inline int
npool_pkt_is_npool(const struct rte_mbuf *m)
{
	return RTE_MBUF_HAS_EXTBUF(m) && m->shinfo != NULL &&
		m->shinfo->free_cb == npool_pkt_free_cb;
}

/** @internal Give head @p m, its fragment gone, the state
 * rte_pktmbuf_detach() would: its own empty buffer. */
static __rte_always_inline void
npool_pkt_head_reset_pvt(struct rte_mbuf *m)
{
	/* Where the head's own (empty) buffer starts: the head pool's mbufs
	 * have no private area (npool_create()). */
	const uint32_t own = sizeof(*m);

	m->buf_addr = (char *)m + own;
	rte_mbuf_iova_set(m, rte_mempool_virt2iova(m) + own);
	m->buf_len = 0;
	m->data_off = 0;
	m->data_len = 0;
	m->ol_flags = 0;
}

/**
 * @internal The consume path's common case: a lone npool packet that
 * nobody else references (head refcnt 1, no next segment, nb_segs 1,
 * fragment refcnt 1) on a head of instance @p np's head pool (a head of
 * another instance takes the general path). Free the fragment and give
 * the head the state rte_pktmbuf_detach() would (its own empty buffer),
 * skipping the generic prefree branches and the callback indirection.
 *
 * @return 1 with the head ready to go back to @p np's head pool, else 0
 *   (nothing done: the general path, rte_pktmbuf_prefree_seg(), takes
 *   it).
 *
 * A head goes back with next NULL and nb_segs 1, DPDK's rule for a pooled
 * mbuf. next is NULL here by the check. nb_segs is 1 for every segment
 * but one whose stale count says otherwise: a segment that headed a chain
 * before it was chained behind another (rte_pktmbuf_chain() leaves the
 * tail's count) and then split off with next = NULL. The same load that
 * checks refcnt checks nb_segs, so such a segment takes the general path,
 * whose rte_pktmbuf_prefree_seg() resets it, at no cost to the others.
 */
static __rte_always_inline int
npool_pkt_consume_fast_pvt(struct rte_mbuf *m, struct npool *np,
		unsigned int slot, struct npool_frag_free_batch_pvt *b)
{
	/*
	 * Seeing refcnt 1 means that any other holder has dropped its
	 * reference (an acq_rel decrement): acquire order puts what it did
	 * with the head and the data before the writes below and the reuse
	 * (refcount_dec_and_test()'s acquire on zero in the kernel). A
	 * relaxed read (rte_mbuf_refcnt_read()) is ordered only by the
	 * branch, which C11 does not count: ThreadSanitizer reported the
	 * writes below as racing with another holder's reads. On x86 the
	 * same mov.
	 */
	/* An external buffer always has its shinfo (rte_pktmbuf_attach_
	 * extbuf()): npool_pkt_is_npool() without the NULL test. */
	if (m->pool != np->head_pool || m->next != NULL ||
			!npool_pkt_lone_pvt(m) ||
			!RTE_MBUF_HAS_EXTBUF(m) ||
			m->shinfo->free_cb != npool_pkt_free_cb ||
			__atomic_load_n(&m->shinfo->refcnt,
				__ATOMIC_ACQUIRE) != 1)
		return 0;
	npool_frag_free_batch_pvt(b, np, slot, m->buf_addr);
	npool_pkt_head_reset_pvt(m);
	return 1;
}

/**
 * Release a packet (every segment) on the owner lcore. Kernel:
 * napi_consume_skb().
 *
 * Equivalent to rte_pktmbuf_free() in effect (clones, chains, extbufs and
 * heads of other pools are all handled); only the route back is shorter:
 * a lone unshared npool packet frees its fragment and puts its head into
 * this lcore's mempool cache inline, with no call.
 *
 * Context: any thread; the shortcut is taken on EAL lcores. NULL is
 * ignored.
 *
 * @param m
 *   The packet, or NULL.
 */
static __rte_always_inline void
npool_napi_consume_pkt(struct rte_mbuf *m)
{
	unsigned int id = rte_lcore_id();
	struct npool *np;

	if (unlikely(m == NULL))
		return;
	if (likely(id < RTE_MAX_LCORE && (np = npool_lcore_np[id]) != NULL)) {
		/* A lone tiny packet: DPDK's direct free, inline. */
		if (m->pool == np->small_pool && m->next == NULL &&
				RTE_MBUF_DIRECT(m) && npool_pkt_lone_pvt(m)) {
			rte_mempool_generic_put(m->pool, (void * const *)&m, 1,
					rte_mempool_default_cache(m->pool, id));
			np->lc[id].stats.pkt_consumes++;
			return;
		}
		if (npool_pkt_consume_fast_pvt(m, np, id, NULL)) {
			rte_mempool_generic_put(np->head_pool,
					(void * const *)&m, 1,
					rte_mempool_default_cache(np->head_pool,
						id));
			np->lc[id].stats.pkt_consumes++;
			return;
		}
		/* A lone mid-size packet: as a tiny one, tested after the
		 * others so that they pay nothing for it. */
		if (m->pool == np->mid_pool && m->next == NULL &&
				RTE_MBUF_DIRECT(m) && npool_pkt_lone_pvt(m)) {
			rte_mempool_generic_put(m->pool, (void * const *)&m, 1,
					rte_mempool_default_cache(m->pool, id));
			np->lc[id].stats.pkt_consumes++;
			return;
		}
	}
	npool_napi_consume_bulk_slow(&m, 1);
}

/**
 * Release @p n plain RX mbufs of pool @p mp that the caller has checked:
 * each direct (RTE_MBUF_DIRECT()), refcnt 1, one segment, of @p mp (as
 * npool_napi_consume_bulk() checks; a receive loop can check it in the
 * same pass that reads the burst). One bulk put: into this lcore's head
 * cache when @p mp is on the "npool" ops, else rte_mempool_put_bulk().
 * The DPDK counterpart is a driver's RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE.
 *
 * @param mp
 *   The pool of every packet.
 * @param pkts
 *   The packets, none NULL; anything but plain mbufs of @p mp corrupts
 *   the pool.
 * @param n
 *   Number of packets, >= 1.
 *
 * Context: any thread (EAL lcores use their cache); before npool_init()
 * or after npool_fini() it is rte_mempool_put_bulk().
 */
static __rte_always_inline void
npool_napi_consume_plain(struct rte_mempool *mp, struct rte_mbuf **pkts,
		unsigned int n)
{
	/* Inline into this lcore's mempool cache, for any pool. */
	unsigned int slot = npool_slot();
	struct npool *np = npool_lcore_np[slot];

	rte_mempool_put_bulk(mp, (void * const *)pkts, n);
	if (likely(np != NULL))
		NPOOL_STAT_ADD_NP(np, slot, pkt_consumes, n);
}

/**
 * Release @p n packets, batching their heads per pool.
 * Kernel: napi_consume_skb() on a TX completion / drop batch.
 *
 * The common case of a receive-and-drop or a TX completion, a burst of
 * plain RX mbufs (direct, unshared, one segment, all of one pool), goes
 * back in one bulk put with no per-packet prefree, as a driver's
 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE does: into this lcore's head cache for
 * a pool on the "npool" ops, else rte_mempool_put_bulk(). Anything else
 * takes the general path, equivalent to rte_pktmbuf_free() on each.
 *
 * Lone head + fragment packets whose fragments another EAL lcore carved
 * (a pipeline's worker freeing what the RX lcore made) go back to that
 * lcore in one enqueue on its defer ring, NPOOL_DEFER_MAX packets at
 * most, and it frees them in its next burst (npool_napi_defer_drain()):
 * the kernel's skb_attempt_defer_free(). The fragments' references and
 * the heads then never cross lcores one by one (npool_stats.defers
 * counts them here; their frees count there).
 *
 * @param pkts
 *   Packets to release; NULL entries are ignored.
 * @param n
 *   Number of entries in @p pkts.
 *
 * Context: as npool_napi_consume_pkt().
 */
static __rte_always_inline void
npool_napi_consume_bulk(struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_mempool *mp;

	if (unlikely(n == 0 || pkts[0] == NULL))
		goto general;
	mp = pkts[0]->pool;
	if (likely(npool_pkt_all_plain_pvt(pkts, n, mp))) {
		npool_napi_consume_plain(mp, pkts, n);
		return;
	}
	/* A burst of lone npool packets (a TX completion of copy-broken or
	 * built packets): each freed inline, the heads put back in one. */
	if (n <= NPOOL_CONSUME_FAST_MAX) {
		unsigned int slot = npool_slot(), i;
		struct npool *np = npool_lcore_np[slot];
		struct npool_frag_free_batch_pvt b;

		if (np == NULL || mp != np->head_pool)
			goto general;
		npool_frag_free_batch_init_pvt(&b, np, slot);
		/* Not carved by this lcore's current chunks (a worker's
		 * burst): out of line, back to the lcore that carved it. */
		if (unlikely(!npool_frag_free_batch_own_pvt(&b,
				pkts[0]->buf_addr))) {
			npool_napi_consume_other(pkts, n);
			return;
		}
		for (i = 0; i < n; i++)
			if (pkts[i] == NULL ||
					!npool_pkt_consume_fast_pvt(pkts[i], np,
						slot, &b))
				break;
		npool_frag_free_batch_commit_pvt(&b, np, slot);
		if (i != 0) {
			rte_mempool_put_bulk(mp, (void * const *)pkts, i);
			NPOOL_STAT_ADD_NP(np, slot, pkt_consumes, i);
		}
		if (likely(i == n))
			return;
		pkts += i;
		n -= i;
	}
general:
	npool_napi_consume_bulk_slow(pkts, n);
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_PKT_CONSUME_H */
