/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_COPYBREAK_H
#define NPOOL_COPYBREAK_H

/**
 * @file
 * Copy-break under any PMD, with its counters.
 *
 * The kernel's ixgbe, igb and fm10k drivers receive into page halves and,
 * for a packet up to RX_HDR_LEN (256) bytes, copy it into a small buffer
 * from napi_alloc_skb() and give the page half straight back to the ring
 * (copy-break). npool_rx_copybreak() does the copy for any PMD, on the
 * received burst: small packets become npool packets (tiny packets, one
 * object each, up to npool_conf.tiny_len: npool_pkt.h) and their RX mbufs
 * go back to the RX pool at once, so the RX ring never waits for them.
 *
 * Copy-break needs an mbuf, not an ethdev: it is part of libnpool. To run
 * it under an unchanged application, npool_rx_copybreak_install()
 * (npool_rx.h, libnpool_rx) installs it as an ethdev RX callback.
 */

#include <stdint.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>
#ifdef RTE_ARCH_X86
#include <rte_vect.h>
#endif

#include "npool_mbuf.h"
#include "npool_pkt_bulk.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copy-break counters of one lcore. */
struct npool_rx_stats {
	/** Packets copied into npool packets (their RX mbufs released). */
	uint64_t copybreak_copied;
	/** Packets of at most the copy-break length left in their RX mbuf
	 * because no npool packet could be had (no tiny packet, head or
	 * fragment left). The first one also logs a warning (lib.npool, once
	 * per process) naming what ran dry.
	 * Kernel: rx_ring->rx_stats.alloc_rx_buff_failed (ixgbe, igb). */
	uint64_t copybreak_nomem;
};

/** Slot of the counters of threads without an lcore id. */
#define NPOOL_RX_NON_EAL_SLOT RTE_MAX_LCORE

/**
 * Read the copy-break counters of one lcore.
 *
 * @param slot
 *   An lcore id (0 .. RTE_MAX_LCORE - 1) or NPOOL_RX_NON_EAL_SLOT.
 * @param out
 *   Where to copy them.
 * @return
 *   0, or -EINVAL (slot out of range, @p out NULL; also in rte_errno).
 *   Any thread; a slot being updated may lag by one burst.
 */
int npool_rx_stats_get(unsigned int slot, struct npool_rx_stats *out);

/**
 * Sum the copy-break counters of every slot into @p out.
 *
 * @param out
 *   Where to write the sums.
 * @return 0, or -EINVAL (@p out NULL; also in rte_errno). Any thread.
 */
int npool_rx_stats_sum(struct npool_rx_stats *out);

/** Zero every slot. Main lcore, while no lcore copy-breaks. */
void npool_rx_stats_reset(void);

/**
 * Copy-break a received burst in place: each single-segment packet of at
 * most @p copybreak bytes is copied into a new npool packet (from the
 * calling lcore's napi caches) that takes its place in @p pkts, and the RX
 * mbuf is released at once. Metadata that the copy keeps: port,
 * packet_type, ol_flags, hash, vlan_tci(_outer) and every dynamic field
 * (the RX timestamp among them), as rte_pktmbuf_copy() does; while no
 * dynamic field is registered (rte_mbuf_dynfield_register(), by any
 * process: looked at once a burst) the copy's dynamic field area is left
 * as it is, nobody's.
 * Kernel: ixgbe_fetch_rx_buffer()/igb_construct_skb() with RX_HDR_LEN.
 *
 * When no npool packet can be had the original mbuf is kept (a packet is
 * never lost for lack of memory here) and counted in the calling lcore's
 * npool_rx_stats.copybreak_nomem; each copy counts in copybreak_copied.
 *
 * Context: owner lcore (an EAL lcore), the RX loop: the napi flavor. A
 * thread without an lcore id copies nothing (npool_napi_alloc_pkt()
 * fails there with EPERM): each small packet stays in its RX mbuf and
 * counts in copybreak_nomem.
 *
 * @param pkts
 *   The burst, as returned by rte_eth_rx_burst().
 * @param n
 *   Packets in @p pkts.
 * @param copybreak
 *   Largest packet to copy, bytes; 0 copies nothing.
 * @return
 *   Number of packets copied.
 */
uint16_t npool_rx_copybreak(struct rte_mbuf **pkts, uint16_t n,
		uint16_t copybreak);

/**
 * Copy-break of one burst, one packet at a time, for a receive loop that
 * visits each packet once anyway (npool-fwd's forwarding pass): the tiny
 * npool packets got in one bulk at the start (npool_rx_copybreak_begin()),
 * each packet copied where the loop has it in hand
 * (npool_rx_copybreak_pkt()), the RX mbufs released and the unused packets
 * given back in one bulk each at the end (npool_rx_copybreak_end()).
 * npool_rx_copybreak() is the three over a whole burst. Lives on the
 * caller's stack for one burst; the fields are the implementation's.
 */
struct npool_rx_cb {
	/** The next tiny packet, the hottest in the cache of those left:
	 * the copies take @c obj from its end down, each putting its RX
	 * mbuf in the place of its tiny packet, so that those after
	 * @c next are RX mbufs to release, those up to it tiny packets to
	 * give back. */
	struct rte_mbuf **next;
	uint64_t rearm;          /**< data_off of a copy, in a rearm word */
	uint64_t odd;            /**< RX mbufs not plain, OR'ed */
	uintptr_t mp;            /**< pool of the burst's first */
	uint16_t copybreak;      /**< largest packet copied, bytes */
	uint16_t n;              /**< tiny packets got for the burst */
	uint16_t headroom;       /**< data_off of a copy */
	uint8_t dyn;             /**< dynamic fields registered: copied */
	unsigned int slot;       /**< the lcore's slot */
	struct npool *np;        /**< its instance */
	/** The tiny packets got, the hottest last; then the RX mbufs
	 * copied (@c next). */
	struct rte_mbuf *obj[NPOOL_PKT_BULK_MAX];
};

/**
 * Start the copy-break of a burst of @p n packets, @p pkts[0] among them:
 * @p n tiny npool packets got in one bulk from the calling lcore's cache.
 * Kernel: the napi_alloc_skb() calls of a driver's poll, batched.
 * Context: owner lcore (an EAL lcore), as npool_rx_copybreak().
 *
 * @param cb
 *   The burst's state, on the caller's stack.
 * @param pkts
 *   The burst (its first packet's pool is the one expected of all).
 * @param n
 *   Packets in the burst, 1 .. NPOOL_PKT_BULK_MAX.
 * @param copybreak
 *   Largest packet to copy, bytes, at most npool_conf.tiny_len.
 * @return
 *   0, or a negative errno, also in rte_errno, when this lcore cannot
 *   copy-break a packet at a time (then npool_rx_copybreak() takes the
 *   burst, and there is nothing to end):
 *   - -ENODEV: no npool instance or tiny packets for this lcore, or a
 *     thread without an lcore id;
 *   - -EINVAL: @p copybreak above the tiny packets' room
 *     (npool_conf.tiny_len), or @p n outside 1 .. NPOOL_PKT_BULK_MAX;
 *   - -ENOBUFS: fewer than @p n tiny packets left.
 */
int npool_rx_copybreak_begin(struct npool_rx_cb *cb,
		struct rte_mbuf *const *pkts, uint16_t n, uint16_t copybreak);

/* 16 bytes in one load and one store where the CPU has a vector (GCC
 * splits a memcpy() of 16 bytes between fields otherwise). */
static __rte_always_inline void
npool_rx_copy16_pvt(void *d, const void *s)
{
#ifdef RTE_ARCH_X86
	_mm_storeu_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)s));
#else
	memcpy(d, s, 16);
#endif
}

/**
 * Copy @p m into the next tiny packet of @p cb, for a loop that has made
 * npool_rx_copybreak_pkt()'s tests itself: @p m is a single whole segment
 * of @p len bytes, at most cb->copybreak, refcnt 1, its rearm word @p w
 * (npool_mbuf_rearm()) and its data at *@p s. What npool_rx_copybreak()
 * keeps of the metadata is copied, and the data; *@p s becomes the copy's
 * data. Context: as npool_rx_copybreak_begin().
 *
 * @param cb
 *   The burst's state, from npool_rx_copybreak_begin(), with a tiny
 *   packet left (fewer than cb->n copied).
 * @param m
 *   The packet to copy.
 * @param len
 *   Its length, bytes, at most cb->copybreak.
 * @param w
 *   Its rearm word.
 * @param s
 *   In: its data; out: the copy's data.
 * @return The tiny packet, in @p m's place; @p m is released by
 *   npool_rx_copybreak_end().
 */
static __rte_always_inline struct rte_mbuf *
npool_rx_copybreak_copy(struct npool_rx_cb *cb, struct rte_mbuf *m,
		uint32_t len, uint64_t w, char **s)
{
	/* ol_flags up to vlan_tci_outer: 30 bytes in two 16-byte copies
	 * that overlap (buf_len after them stays d's). */
	const size_t meta = offsetof(struct rte_mbuf, ol_flags);
	const size_t meta2 = offsetof(struct rte_mbuf, vlan_tci_outer) +
		sizeof(uint16_t) - 16;
	const uint64_t ext = RTE_MBUF_F_EXTERNAL | RTE_MBUF_F_INDIRECT;
	/* The slot in a register across the stores below (the frame's
	 * bytes may alias @p cb). */
	struct rte_mbuf **slot = cb->next;
	struct rte_mbuf *d = *slot;
	const char *f = *s;
	uint64_t odd;
	uint32_t o, e;
	char *t;

	/* Constant expressions: DPDK 24.11's RTE_BUILD_BUG_ON is a
	 * static_assert. */
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, buf_len) !=
			offsetof(struct rte_mbuf, vlan_tci_outer) +
			sizeof(uint16_t) ||
			sizeof(m->vlan_tci_outer) != sizeof(uint16_t) ||
			offsetof(struct rte_mbuf, vlan_tci_outer) + 2 <
			offsetof(struct rte_mbuf, ol_flags) + 16 ||
			offsetof(struct rte_mbuf, vlan_tci_outer) + 2 >
			offsetof(struct rte_mbuf, ol_flags) + 32);
	/* The rearm word in one store: m's refcnt 1, nb_segs 1 and port
	 * (the caller tested them), the copy's data_off. */
	npool_mbuf_rearm_set(d, (w & ~NPOOL_MBUF_REARM(0xffff, 0, 0, 0)) |
			cb->rearm);
	/* ol_flags, packet_type, pkt_len, data_len, vlan_tci, hash (the
	 * PMDs' rx_descriptor_fields1) and vlan_tci_outer as they are. */
	npool_rx_copy16_pvt((char *)d + meta, (const char *)m + meta);
	npool_rx_copy16_pvt((char *)d + meta2, (const char *)m + meta2);
	d->tx_offload = 0;
	/* Dynamic fields (RX timestamp, ...) go with their flags, when
	 * any is registered (npool_rx_copybreak_begin() looks, a burst at
	 * a time): else the area is nobody's. */
	if (likely(cb->dyn))
		memcpy(d->dynfield1, m->dynfield1, sizeof(d->dynfield1));
	/* Whether the RX mbufs are all direct and of one pool: OR the
	 * differences, test once at the end. The copy is direct. */
	odd = m->ol_flags & ext;
	if (unlikely(odd != 0))
		d->ol_flags &= ~ext;
	cb->odd |= ((uintptr_t)m->pool ^ cb->mp) | odd;
	/* The data in fixed 32-byte copies, the last one ending at @p len
	 * (overlapping the one before): no size dispatch, no byte past
	 * @p len. A frame of 32 to 64 bytes (minimum frames) is two copies
	 * after one test. */
	t = (char *)d->buf_addr + cb->headroom;
	e = len - 32; /* where the last copy starts */
	if (likely(e <= 32)) {
		memcpy(t, f, 32);
	} else if (len > 64) {
		for (o = 0; o < e; o += 32)
			memcpy(t + o, f + o, 32);
	} else {
		memcpy(t, f, len);
		goto done;
	}
	memcpy(t + e, f + e, 32);
done:
	*s = t;
	*slot = m;
	cb->next = slot - 1;
	return d;
}

/**
 * Copy-break one packet of the burst of npool_rx_copybreak_begin(): a
 * single whole segment of at most cb->copybreak bytes, refcnt 1, is
 * copied into a tiny npool packet (the metadata as npool_rx_copybreak()
 * keeps it), which is returned; its RX mbuf is released by
 * npool_rx_copybreak_end(). Any other packet is returned as it is.
 * Call it at most once per packet of the burst.
 * Kernel: ixgbe_fetch_rx_buffer()'s copy of a small packet.
 * Context: as npool_rx_copybreak_begin().
 *
 * @param cb
 *   The burst's state, from npool_rx_copybreak_begin().
 * @param m
 *   A packet of that burst.
 * @return The copy, or @p m.
 */
static __rte_always_inline struct rte_mbuf *
npool_rx_copybreak_pkt(struct npool_rx_cb *cb, struct rte_mbuf *m)
{
	const uint32_t len = m->pkt_len;
	const uint64_t w = npool_mbuf_rearm(m);
	char *data;

	if (!((len <= cb->copybreak) & (m->data_len == len) &
			npool_mbuf_rearm_lone(w)))
		return m;
	data = (char *)m->buf_addr + (uint16_t)(w >> NPOOL_MBUF_DATA_OFF_SHIFT);
	return npool_rx_copybreak_copy(cb, m, len, w, &data);
}

/**
 * End the copy-break of a burst: the RX mbufs copied released in one
 * bulk (back to their pool, hot for the next refill), the tiny packets
 * not used given back in one, the counters (npool_rx_stats) added.
 * Context: as npool_rx_copybreak_begin().
 *
 * @param cb
 *   The burst's state, begun with npool_rx_copybreak_begin() == 0.
 */
void npool_rx_copybreak_end(struct npool_rx_cb *cb);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_COPYBREAK_H */
