/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_PKT_BULK_H
#define NPOOL_PKT_BULK_H

/**
 * @file
 * Packets made a burst at a time: napi_alloc_skb() for a whole RX burst,
 * the heads in one bulk get from the head cache and the fragments carved
 * back to back (the driver copy-break's allocator, npool_rx_copybreak()).
 */

#include <stdint.h>
#include <rte_mbuf.h>

#include "npool_pkt.h"
#include "npool_pkt_defer.h"
#include "rte_mempool_npool.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most packets one npool_napi_alloc_pkt_bulk() call makes: what one
 * lcore's mempool cache of heads holds (NPOOL_MEMPOOL_CACHE_SIZE). */
#define NPOOL_PKT_BULK_MAX NPOOL_MEMPOOL_CACHE_SIZE

/**
 * npool_napi_alloc_pkt_bulk() one npool_napi_alloc_pkt() at a time: its
 * out-of-line path when the calling thread has no lcore id, @p n is out
 * of range (every entry NULL, EINVAL), or the head pool (or the tiny
 * packets' pool, @p lens NULL) has fewer objects than @p n. Applications
 * call npool_napi_alloc_pkt_bulk().
 *
 * @param pkts
 *   Array of @p n entries to fill, as for npool_napi_alloc_pkt_bulk().
 * @param lens
 *   Bytes of room of each packet, or NULL for @p n tiny packets.
 * @param n
 *   Number of packets.
 * @return
 *   Number of packets made, as npool_napi_alloc_pkt_bulk().
 */
unsigned int npool_napi_alloc_pkt_bulk_slow(struct rte_mbuf **pkts,
		const uint32_t *lens, unsigned int n);

/** @internal npool_pkt_lens_scan_pvt(): every len is tiny. */
#define NPOOL_PKT_LENS_TINY_PVT 1u
/** @internal npool_pkt_lens_scan_pvt(): every len equals lens[0]. */
#define NPOOL_PKT_LENS_ONE_PVT 2u

/**
 * @internal One pass over @p lens (@p n >= 1): NPOOL_PKT_LENS_TINY_PVT
 * if all are tiny (npool_pkt_is_tiny_len_pvt()), NPOOL_PKT_LENS_ONE_PVT
 * if all are lens[0], so that the burst's class, fragment size and cache
 * are worked out once (an RX refill, a generator's burst).
 */
static __rte_always_inline unsigned int
npool_pkt_lens_scan_pvt(const struct npool *np, const uint32_t *lens,
		unsigned int n)
{
	uint32_t big = 0, diff = 0, tiny_lim = np->tiny_lim;
	unsigned int i;

	for (i = 0; i < n; i++) {
		big |= lens[i] >= tiny_lim;
		diff |= lens[i] ^ lens[0];
	}
	return (big == 0 ? NPOOL_PKT_LENS_TINY_PVT : 0) |
		(diff == 0 ? NPOOL_PKT_LENS_ONE_PVT : 0);
}

/** @internal @p n packets of one whole-object class (tiny: @p mp the
 * small-packet pool; mid-size: the mid-size pool), @p rearm their
 * rearm word, in one bulk get (npool_napi_alloc_pkt_bulk()); when the
 * pool has fewer, one at a time, as @p n npool_napi_alloc_pkt() calls
 * of @p lens would (NULL: tiny). */
static __rte_always_inline unsigned int
npool_napi_alloc_whole_bulk_pvt(struct npool *np, unsigned int slot,
		struct rte_mempool *mp, uint64_t rearm, struct rte_mbuf **pkts,
		const uint32_t *lens, unsigned int n)
{
	unsigned int i;

	if (unlikely(rte_mempool_get_bulk(mp, (void **)pkts, n) < 0))
		return npool_napi_alloc_pkt_bulk_slow(pkts, lens, n);
	for (i = 0; i < n; i++)
		npool_pkt_tiny_init_pvt(pkts[i], rearm);
	np->lc[slot].stats.pkt_allocs += n;
	return n;
}

/** @internal @p n tiny packets in one bulk get from the small-packet
 * pool (npool_napi_alloc_pkt_bulk()). */
static __rte_always_inline unsigned int
npool_napi_alloc_tiny_bulk_pvt(struct npool *np, unsigned int slot,
		struct rte_mbuf **pkts, unsigned int n)
{
	return npool_napi_alloc_whole_bulk_pvt(np, slot, np->small_pool,
			npool_pkt_rearm_pvt((uint16_t)np->tiny_headroom),
			pkts, NULL, n);
}

/** @internal What npool_napi_alloc_pkt_bulk() carves a burst with. */
struct npool_pkt_bulk_pvt {
	struct npool *np;
	unsigned int slot;
	uint32_t headroom, small_max;
	uint64_t rearm;
	unsigned int nspare;
	/** Tiny and mid-size packets made (whole objects, no fragment). */
	unsigned int ntiny;
	struct rte_mbuf *spare[NPOOL_PKT_BULK_MAX];
};

/** @internal Packet @p i of a burst got no fragment: its head goes back
 * with the spares, the entry is NULL and the failure counted. */
static __rte_always_inline void
npool_pkt_bulk_spare_pvt(struct npool_pkt_bulk_pvt *k, struct rte_mbuf **pkts,
		unsigned int i)
{
	k->spare[k->nspare++] = pkts[i];
	pkts[i] = npool_pkt_fail(k->slot, rte_errno);
}

/** @internal Give head pkts[i] a fragment of @p fragsz bytes carved
 * through @p c: 1, or 0 when there is none (the entry NULL, its head
 * with the spares). */
static __rte_always_inline unsigned int
npool_pkt_bulk_give_pvt(struct npool_pkt_bulk_pvt *k,
		struct npool_frag_carve_pvt *c, struct rte_mbuf **pkts,
		unsigned int i, uint32_t fragsz)
{
	rte_iova_t iova;
	char *frag = npool_frag_carve_pvt(c, fragsz, UINT32_MAX, &iova);

	if (unlikely(frag == NULL)) {
		npool_pkt_bulk_spare_pvt(k, pkts, i);
		return 0;
	}
	npool_pkt_attach_frag_pvt(pkts[i], frag, fragsz, iova, k->rearm);
	return 1;
}

/**
 * @internal Give pkts[i] (heads) their fragments of @p fragsz bytes each
 * (every len the same, not tiny), carved through a copy of @p carve that
 * stays in registers; returns the packets with a fragment.
 */
static __rte_always_inline unsigned int
npool_pkt_bulk_fill_one_pvt(struct npool_pkt_bulk_pvt *k,
		struct npool_frag_carve_pvt *carve, struct rte_mbuf **pkts,
		uint32_t fragsz, unsigned int n)
{
	struct npool_frag_carve_pvt c = *carve;
	unsigned int i, got = 0;

	for (i = 0; i < n; i++)
		got += npool_pkt_bulk_give_pvt(k, &c, pkts, i, fragsz);
	*carve = c;
	return got;
}

/**
 * @internal Give pkts[i] (heads) their fragments, lens[i] bytes of room
 * each, carved through @p big or @p small (each its size test, range
 * test and cache); returns the packets with a fragment.
 */
static __rte_always_inline unsigned int
npool_pkt_bulk_fill_pvt(struct npool_pkt_bulk_pvt *k,
		struct npool_frag_carve_pvt *big,
		struct npool_frag_carve_pvt *small, struct rte_mbuf **pkts,
		const uint32_t *lens, unsigned int n)
{
	unsigned int i, got = 0;

	for (i = 0; i < n; i++) {
		uint32_t fragsz;

		if (npool_pkt_is_tiny_len_pvt(k->np, lens[i])) {
			/* One object: its head goes back with the spares. */
			k->spare[k->nspare++] = pkts[i];
			pkts[i] = npool_pkt_tiny_get_pvt(k->np, k->slot);
			k->ntiny += pkts[i] != NULL;
			continue;
		}
		if (npool_pkt_is_mid_len_pvt(k->np, lens[i])) {
			k->spare[k->nspare++] = pkts[i];
			pkts[i] = npool_pkt_mid_get_pvt(k->np, k->slot);
			k->ntiny += pkts[i] != NULL;
			continue;
		}
		fragsz = npool_pkt_fragsz_pvt(k->headroom, lens[i]);
		if (unlikely(npool_pkt_len_bad_pvt(lens[i], fragsz))) {
			rte_errno = EINVAL;
			npool_pkt_bulk_spare_pvt(k, pkts, i);
			continue;
		}
		got += npool_pkt_bulk_give_pvt(k,
				npool_pkt_frag_small_pvt(fragsz, k->small_max) ?
				small : big, pkts, i, fragsz);
	}
	return got;
}

/**
 * Allocate @p n empty packets at once, with lens[i] bytes of room for the
 * i-th, from the calling lcore's napi caches: the heads in one bulk get
 * from the head cache, the fragments carved back to back. Each packet is
 * the one npool_napi_alloc_pkt(lens[i]) would give, with the same
 * counters, in the same order; a packet that cannot be had is a NULL
 * entry and the others are still made, as with @p n calls of
 * npool_napi_alloc_pkt(). Kernel: napi_alloc_skb() on a burst, the heads
 * taken as napi_skb_cache_get() does (kmem_cache_alloc_bulk()).
 *
 * Per packet it costs one subtraction whose sign says whether the chunk
 * still has room, and the writes of the packet's head; the chunk's
 * offset, bias and the counters are written once per call, and a cache
 * refills once per chunk it uses up (with 4 KiB small chunks, every 16
 * packets of 64 B).
 *
 * Context: as npool_napi_alloc_pkt() (owner lcore only).
 *
 * @param pkts
 *   Array of @p n entries to fill: pkts[i] the packet (data_len 0,
 *   data_off = headroom), or NULL.
 * @param lens
 *   Bytes of room of each packet, as for npool_napi_alloc_pkt().
 * @param n
 *   Number of packets, 0 .. NPOOL_PKT_BULK_MAX (above: every entry NULL,
 *   EINVAL, counted as failures).
 * @return
 *   Number of packets made (non-NULL entries). When fewer than @p n,
 *   rte_errno is that of the last failure: EINVAL, EPERM, ENOBUFS,
 *   ENOMEM, ENODEV as for npool_napi_alloc_pkt().
 */
static __rte_always_inline unsigned int
npool_napi_alloc_pkt_bulk(struct rte_mbuf **pkts, const uint32_t *lens,
		unsigned int n)
{
	unsigned int slot = rte_lcore_id(), got, lens_kind, nr;
	struct npool_frag_carve_pvt big, small;
	struct npool_pkt_bulk_pvt k;
	struct npool_lcore *lc;
	struct npool *np;

	if (unlikely(slot >= RTE_MAX_LCORE ||
			(np = npool_lcore_np[slot]) == NULL ||
			n - 1 >= NPOOL_PKT_BULK_MAX))
		return npool_napi_alloc_pkt_bulk_slow(pkts, lens, n);
	NPOOL_DEBUG_CHECK(npool_debug_napi_owner(slot));
	/* All tiny (a copy-break burst): one bulk get of whole objects. */
	lens_kind = npool_pkt_lens_scan_pvt(np, lens, n);
	if (lens_kind & NPOOL_PKT_LENS_TINY_PVT)
		return npool_napi_alloc_tiny_bulk_pvt(np, slot, pkts, n);
	/* All of one mid size (a generator's burst): the same, from the
	 * mid-size pool. */
	if ((lens_kind & NPOOL_PKT_LENS_ONE_PVT) &&
			npool_pkt_is_mid_len_pvt(np, lens[0]))
		return npool_napi_alloc_whole_bulk_pvt(np, slot, np->mid_pool,
				npool_pkt_rearm_pvt((uint16_t)np->headroom),
				pkts, lens, n);
	lc = &np->lc[slot];
	/* The heads of the packets other lcores handed back first (their
	 * fragments freed here): they go to no pool and come from none. */
	nr = 0;
	if (unlikely(lc->defer != NULL && npool_defer_pending_pvt(lc->defer)))
		nr = npool_napi_defer_take(pkts, n);
	/* Fewer heads than packets: each packet in turn gets one or not,
	 * and a head given back on a fragment failure serves the next. */
	if (unlikely(rte_mempool_generic_get(np->head_pool,
			(void **)pkts + nr, n - nr,
			rte_mempool_default_cache(np->head_pool, slot)) < 0)) {
		npool_pkt_heads_put(pkts, nr);
		return npool_napi_alloc_pkt_bulk_slow(pkts, lens, n);
	}
	k.np = np;
	k.slot = slot;
	/* A chunk whose fragments are all back is carved whole again. */
	npool_frag_cache_rewind_pvt(&lc->napi);
	npool_frag_cache_rewind_pvt(&lc->napi_small);
	/* Fragments are cache-line multiples: carving from a line-aligned
	 * start needs no mask per packet. */
	npool_frag_carve_init_pvt(&big, &lc->napi,
			-(int32_t)RTE_CACHE_LINE_SIZE);
	npool_frag_carve_init_pvt(&small, &lc->napi_small,
			-(int32_t)RTE_CACHE_LINE_SIZE);
	k.headroom = np->headroom;
	k.small_max = np->small_fragsz;
	/* buf_len = fragsz - NPOOL_SHINFO_SIZE >= headroom: one rearm. */
	k.rearm = npool_pkt_rearm_pvt((uint16_t)k.headroom);
	k.nspare = 0;
	k.ntiny = 0;
	if (lens_kind & NPOOL_PKT_LENS_ONE_PVT) {
		/* The size, range and cache tests once for the burst. */
		uint32_t fragsz = npool_pkt_fragsz_pvt(k.headroom, lens[0]);

		if (unlikely(npool_pkt_len_bad_pvt(lens[0], fragsz))) {
			rte_errno = EINVAL;
			for (got = 0; got < n; got++)
				npool_pkt_bulk_spare_pvt(&k, pkts, got);
			got = 0;
		} else {
			got = npool_pkt_bulk_fill_one_pvt(&k,
					npool_pkt_frag_small_pvt(fragsz,
						k.small_max) ? &small : &big,
					pkts, fragsz, n);
		}
	} else {
		got = npool_pkt_bulk_fill_pvt(&k, &big, &small, pkts, lens, n);
	}
	npool_frag_carve_commit_pvt(&big);
	npool_frag_carve_commit_pvt(&small);
	if (unlikely(k.nspare != 0))
		rte_mempool_put_bulk(np->head_pool,
				(void * const *)k.spare, k.nspare);
	lc->stats.allocs += got;
	lc->stats.pkt_allocs += got;
	return got + k.ntiny;
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_PKT_BULK_H */
