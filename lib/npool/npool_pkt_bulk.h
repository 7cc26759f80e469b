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

#ifdef __cplusplus
extern "C" {
#endif

/** Most packets one npool_napi_alloc_pkt_bulk() call makes: what one
 * lcore's head cache holds (NPOOL_HC_SIZE). */
#define NPOOL_PKT_BULK_MAX NPOOL_HC_SIZE

/** @internal npool_napi_alloc_pkt_bulk() one npool_napi_alloc_pkt() at
 * a time: no lcore id, @p n out of range, or fewer heads than packets. */
unsigned int npool_napi_alloc_pkt_each_pvt(struct rte_mbuf **pkts,
		const uint32_t *lens, unsigned int n);

/** @internal Whether all @p n lens are tiny (npool_pkt_is_tiny_len_pvt). */
static __rte_always_inline int
npool_pkt_all_tiny_pvt(const struct npool *np, const uint32_t *lens,
		unsigned int n)
{
	uint32_t big = 0;
	unsigned int i;

	if (np->small_pool == NULL)
		return 0;
	for (i = 0; i < n; i++)
		big |= lens[i] > np->tiny_len;
	return big == 0;
}

/** @internal @p n tiny packets in one bulk get from the small-packet
 * pool (npool_napi_alloc_pkt_bulk()); when the pool has fewer, one at a
 * time, as @p n npool_napi_alloc_pkt() calls would. */
static __rte_always_inline unsigned int
npool_napi_alloc_tiny_bulk_pvt(struct npool *np, unsigned int slot,
		struct rte_mbuf **pkts, unsigned int n)
{
	const uint64_t rearm =
		npool_pkt_rearm_pvt((uint16_t)np->tiny_headroom);
	unsigned int i;

	if (unlikely(rte_mempool_get_bulk(np->small_pool, (void **)pkts,
			n) < 0))
		return npool_napi_alloc_pkt_each_pvt(pkts, NULL, n);
	for (i = 0; i < n; i++)
		npool_pkt_tiny_init_pvt(pkts[i], rearm);
	np->lc[slot].stats.pkt_allocs += n;
	return n;
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
	unsigned int slot = npool_slot(), i, got = 0, nspare = 0, ntiny = 0;
	struct npool *np = npool_lcore_np_pvt[slot];
	struct rte_mbuf *spare[NPOOL_PKT_BULK_MAX];
	struct npool_frag_carve_pvt big, small;
	uint32_t headroom, small_max;
	struct npool_lcore *lc;
	uint64_t rearm;

	if (unlikely(np == NULL || slot == NPOOL_NON_EAL_SLOT ||
			n - 1 >= NPOOL_PKT_BULK_MAX))
		return npool_napi_alloc_pkt_each_pvt(pkts, lens, n);
	NPOOL_DEBUG_CHECK(npool_debug_napi_owner_pvt(slot));
	/* All tiny (a copy-break burst): one bulk get of whole objects. */
	if (npool_pkt_all_tiny_pvt(np, lens, n))
		return npool_napi_alloc_tiny_bulk_pvt(np, slot, pkts, n);
	/* Fewer heads than packets: each packet in turn gets one or not,
	 * and a head given back on a fragment failure serves the next. */
	if (unlikely(rte_mempool_get_bulk(np->head_pool, (void **)pkts,
			n) < 0))
		return npool_napi_alloc_pkt_each_pvt(pkts, lens, n);
	lc = &np->lc[slot];
	/* Fragments are cache-line multiples: carving from a line-aligned
	 * start needs no mask per packet. */
	npool_frag_carve_init_pvt(&big, &lc->napi,
			-(int32_t)RTE_CACHE_LINE_SIZE);
	npool_frag_carve_init_pvt(&small, &lc->napi_small,
			-(int32_t)RTE_CACHE_LINE_SIZE);
	headroom = np->headroom;
	small_max = np->small_fragsz;
	/* buf_len = fragsz - NPOOL_SHINFO_SIZE >= headroom: one rearm. */
	rearm = npool_pkt_rearm_pvt((uint16_t)headroom);
	for (i = 0; i < n; i++) {
		uint32_t fragsz;
		rte_iova_t iova;
		char *frag;

		if (npool_pkt_is_tiny_len_pvt(np, lens[i])) {
			/* One object: its head goes back with the spares. */
			spare[nspare++] = pkts[i];
			pkts[i] = npool_pkt_tiny_get_pvt(np, slot);
			ntiny += pkts[i] != NULL;
			continue;
		}
		fragsz = npool_pkt_fragsz_pvt(headroom, lens[i]);
		if (unlikely(npool_pkt_len_bad_pvt(lens[i], fragsz))) {
			rte_errno = EINVAL;
			frag = NULL;
		} else if (npool_pkt_frag_small_pvt(fragsz, small_max)) {
			frag = npool_frag_carve_pvt(&small, fragsz, -1, &iova);
		} else {
			frag = npool_frag_carve_pvt(&big, fragsz, -1, &iova);
		}
		if (unlikely(frag == NULL)) {
			spare[nspare++] = pkts[i];
			pkts[i] = npool_pkt_fail_pvt(slot, rte_errno);
			continue;
		}
		npool_pkt_attach_frag_pvt(pkts[i], frag, fragsz, iova, rearm);
		got++;
	}
	npool_frag_carve_commit_pvt(&big);
	npool_frag_carve_commit_pvt(&small);
	if (unlikely(nspare != 0))
		rte_mempool_put_bulk(np->head_pool,
				(void * const *)spare, nspare);
	lc->stats.allocs += got;
	lc->stats.pkt_allocs += got;
	return got + ntiny;
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_PKT_BULK_H */
