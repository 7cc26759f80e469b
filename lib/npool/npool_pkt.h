/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_PKT_H
#define NPOOL_PKT_H

/**
 * @file
 * Packets built around npool fragments: build_skb(), napi_alloc_skb(),
 * netdev_alloc_skb() and napi_consume_skb() for rte_mbuf.
 *
 * An npool packet is a head mbuf (from the head pool, data room 0) with an
 * npool fragment attached as an external buffer
 * (rte_pktmbuf_attach_extbuf()); the rte_mbuf_ext_shared_info sits at the
 * fragment's tail, as skb_shared_info does. rte_pktmbuf_free(),
 * rte_pktmbuf_clone() and chains work unchanged: the last reference to the
 * fragment frees it with npool_free_frag(), the head returns to its pool.
 *
 * Tiny packets. Up to npool_conf.tiny_len bytes of room (default
 * NPOOL_PKT_SMALL_LEN, 256: every copy-break packet), a packet of
 * npool_napi_alloc_pkt(), npool_alloc_pkt(), npool_napi_alloc_pkt_bulk()
 * and copy-break is one object: a direct mbuf of the instance's
 * small-packet pool (stock ring ops behind DPDK's inline per-lcore cache,
 * data room tiny_headroom + tiny_len, the headroom 64 B by default as
 * the kernel's NET_SKB_PAD), the kernel's small-head kmem_cache
 * (bf9f1baa279f, 011b03359038). rte_pktmbuf_free() by any PMD takes
 * DPDK's plain direct path (no extbuf detach, no callback), in-place
 * helpers (rte_vlan_insert()) work, and a kept one pins exactly its
 * object: its truesize, npool_usage.small_pkt_size (512 B by default,
 * 576 B with a 128 B tiny_headroom). The pool holds npool_conf.nb_tiny
 * objects, by default as many as the packets in flight (nb_pkts); with
 * nb_tiny or tiny_len 0 there are no tiny packets. When it runs dry,
 * npool_napi_alloc_pkt() fails with ENOBUFS and copy-break leaves the
 * packets in their RX mbufs, counted and said once in the log
 * (npool_copybreak.h). npool_build_pkt(),
 * clones and longer packets stay head + fragment. Measured against the
 * other shape (a direct mbuf carved from the small chunks, its pool's ops
 * freeing it by address): that keeps the fragment allocator on the alloc
 * path, an ops call on every free and a 4 KiB pin per kept packet; the
 * fixed objects' get and put are both DPDK's inline cache
 * (docs/perf/issue-17.md).
 *
 * Small packets. Above tiny_len and not mid-size (mid_len 0, or a
 * mid_len below 872 B), a packet is small when its fragment
 * (npool_pkt_fragsz() of its len) is at most NPOOL_PKT_SMALL_FRAGSZ
 * (1 KiB) or at most the fragment of a NPOOL_PKT_SMALL_LEN (256 B)
 * packet, whichever is larger:
 * len up to 872 B with the default 128 B headroom, and up to 256 B at any
 * headroom, so every copy-break packet (none with nb_small_chunks 0: the
 * arena has no small chunk then). Small packets come from a per-lcore
 * cache of 4 KiB small chunks (the arena's order-0 chunks): the
 * napi small-packet cache for npool_napi_alloc_pkt(), the guarded one for
 * npool_alloc_pkt(). A retained small packet therefore pins at most one
 * small chunk, 4 KiB, where it could pin a whole 32 KiB chunk (a 64 B
 * copy-break packet held alone pinned 73 times its 448 B truesize).
 * Small chunks are carved as big ones are (cache-line rounded fragments
 * from the end, the same bias, reuse in place when every fragment came
 * back). When no small chunk is free a small-packet cache takes a big
 * chunk rather than fail, counted in npool_stats.big_fallbacks: packets
 * carved from it lose the 4 KiB bound. Size npool_conf.nb_small_chunks
 * for the small packets in flight (4096 / fragsz per chunk: 16 at 64 B).
 *
 * Mid-size packets. Above tiny_len and up to npool_conf.mid_len bytes of
 * room (default NPOOL_PKT_MID_LEN, 2048: what a stock mbuf of
 * RTE_MBUF_DEFAULT_BUF_SIZE holds), a packet of npool_napi_alloc_pkt(),
 * npool_alloc_pkt() and npool_napi_alloc_pkt_bulk() is one object too: a
 * direct mbuf of the instance's mid-size pool (stock ring ops behind
 * DPDK's inline per-lcore cache, data room headroom + mid_len: with the
 * defaults a 2368 B object, a stock mbuf's), the size class of whole
 * objects the kernel's kmalloc gives where page fragments serve badly.
 * It costs what a stock mbuf costs to make and to free from any lcore
 * (a head and a 32 KiB-chunk fragment cost twice as much to make, and
 * the lcore that carved the fragment frees it), and a kept one pins its
 * object: npool_usage.mid_pkt_size. The pool holds npool_conf.nb_mid
 * objects, by default as many as the packets in flight; when it runs
 * dry the allocators fail with ENOBUFS (npool_stats.pkt_failures), as
 * for tiny packets. With mid_len or nb_mid 0 packets above tiny_len are
 * head + fragment, as described below. In-place helpers work on them
 * as on tiny packets. docs/perf/issue-35.md measured this against a
 * cheaper head + fragment.
 *
 * The kernel met the same: commit 3226b158e67c ("net: avoid 32 x truesize
 * under-estimation for tiny skbs") took heads up to SKB_WITH_OVERHEAD(1024)
 * from kmalloc instead of page fragments; commit dbae2b062824 then gave
 * them 1 KiB slices of a per-CPU 4 KiB page (truesize 1 KiB, so a held
 * head pins at most 4 times its truesize), reverted in 2025 (011b03359038)
 * for a kmem_cache of small heads (bf9f1baa279f) because the 1 KiB slices
 * made the page allocator a bottleneck for tiny heads. npool keeps the
 * per-CPU 4 KiB page-fragment shape with the kernel's 1 KiB test, but
 * carves each packet its own cache-line rounded size instead of 1 KiB:
 * the same 4 KiB pin bound per packet, four times more packets per small
 * chunk at 64 B (so fewer refills and less memory per buffered packet),
 * and a truesize that under-estimates what one packet held alone pins by
 * up to 4096 / truesize (9 times at 64 B) instead of 4 times.
 *
 * DPDK treats the data of an external buffer as possibly shared, so
 * helpers that write in place refuse npool packets: rte_vlan_insert()
 * returns -EINVAL (it wants RTE_MBUF_DIRECT()), and so does anything
 * else that checks RTE_MBUF_DIRECT() before writing. Instead, either let
 * the NIC insert the tag (port offload RTE_ETH_TX_OFFLOAD_VLAN_INSERT,
 * then m->ol_flags |= RTE_MBUF_F_TX_VLAN and m->vlan_tci = tci), or,
 * when the packet is not shared (rte_mbuf_refcnt_read(m) == 1 and
 * rte_mbuf_ext_refcnt_read(m->shinfo) == 1: no clone, no extra
 * reference), write it yourself as rte_vlan_insert() would, in the
 * headroom (npool's headroom, RTE_PKTMBUF_HEADROOM by default):
 * @code
 * struct rte_ether_hdr *nh = (struct rte_ether_hdr *)
 *	rte_pktmbuf_prepend(m, sizeof(struct rte_vlan_hdr));
 * struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(nh + 1);
 *
 * memmove(nh, (char *)nh + sizeof(*vh), 2 * RTE_ETHER_ADDR_LEN);
 * nh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
 * vh->vlan_tci = rte_cpu_to_be_16(tci);
 * @endcode
 * (the inner EtherType stays where it was, now after the tag; check
 * that rte_pktmbuf_prepend() did not return NULL). A shared packet must
 * be copied first (rte_pktmbuf_copy() into a pool of direct mbufs).
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "npool_frag.h"
#include "npool_mbuf.h"
#include "npool_pkt_consume.h"
/* What the consume path hands back to other lcores, and their drain. */
#include "npool_pkt_defer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes kept at the tail of each packet fragment for the shared info. */
#define NPOOL_SHINFO_SIZE \
	RTE_ALIGN_CEIL(sizeof(struct rte_mbuf_ext_shared_info), 8)

/**
 * Largest @c len accepted by the packet allocators: the room that fits a
 * chunk (and the 16-bit buf_len of an mbuf) after headroom and shared info.
 */
#define NPOOL_PKT_MAX_LEN ((uint32_t)RTE_MIN(NPOOL_CHUNK_SIZE, UINT16_MAX + 1) - \
	(uint32_t)NPOOL_SHINFO_SIZE - (uint32_t)RTE_PKTMBUF_HEADROOM - \
	(uint32_t)RTE_CACHE_LINE_SIZE)

/**
 * Fragment size in bytes up to which a packet is small (see the file
 * doc): the kernel's napi_alloc_skb() test, headroom + len within
 * SKB_WITH_OVERHEAD(1024), that is with the shared info at most 1 KiB.
 */
#define NPOOL_PKT_SMALL_FRAGSZ 1024

/**
 * Room in bytes up to which a packet is small whatever the headroom: the
 * drivers' copy-break header length (NPOOL_RX_HDR_LEN, ixgbe's and igb's
 * RX_HDR_LEN).
 */
#define NPOOL_PKT_SMALL_LEN 256

/**
 * Default room in bytes up to which a packet above tiny_len is
 * mid-size (npool_conf.mid_len): RTE_MBUF_DEFAULT_DATAROOM, what a stock
 * mbuf holds.
 */
#define NPOOL_PKT_MID_LEN RTE_MBUF_DEFAULT_DATAROOM

/** Largest npool_conf.mid_len in bytes: a jumbo frame's room. */
#define NPOOL_PKT_MID_MAX_LEN 9216

/**
 * Default headroom of tiny packets in bytes (npool_conf.tiny_headroom):
 * the kernel's NET_SKB_PAD on x86, max(32, L1_CACHE_BYTES), which
 * napi_alloc_skb() reserves in front of a small head. With it a tiny
 * packet's object is 512 B: 64 B mempool header, 128 B mbuf, 64 B
 * headroom and NPOOL_PKT_SMALL_LEN of room.
 */
#define NPOOL_PKT_TINY_HEADROOM 64

/**
 * Count a packet that could not be made on slot @p slot
 * (npool_stats.pkt_failures) and set rte_errno: the out-of-line failure
 * path of the packet allocators in this header and npool_pkt_bulk.h.
 * Applications do not call it.
 *
 * @param slot
 *   The caller's slot (npool_slot()).
 * @param err
 *   The errno value for rte_errno.
 * @return
 *   NULL.
 */
struct rte_mbuf *npool_pkt_fail(unsigned int slot, int err);

/** @internal npool_pkt_fragsz() with headroom @p headroom. */
static __rte_always_inline uint32_t
npool_pkt_fragsz_pvt(uint32_t headroom, uint32_t len)
{
	return RTE_ALIGN_CEIL(headroom + len + NPOOL_SHINFO_SIZE,
			RTE_CACHE_LINE_SIZE);
}

/**
 * Fragment size (truesize of the data part) of a packet with @p len bytes
 * of room: headroom + len + shared info, rounded up to a cache line. The
 * headroom is that of the calling thread's instance (npool_local()).
 * Context: any thread, while an instance exists.
 *
 * @param len
 *   Data room of the packet in bytes.
 * @return
 *   The fragment size in bytes.
 */
static __rte_always_inline uint32_t
npool_pkt_fragsz(uint32_t len)
{
	return npool_pkt_fragsz_pvt(
			npool_lcore_np[npool_slot()]->headroom, len);
}

/** @internal The rearm word (npool_mbuf.h) of a fresh npool packet with
 * @p data_off: refcnt 1, one segment, no port. */
static __rte_always_inline uint64_t
npool_pkt_rearm_pvt(uint16_t data_off)
{
	return NPOOL_MBUF_REARM(data_off, 1, 1, RTE_MBUF_PORT_INVALID);
}

/** @internal Make @p m, a free object of the tiny or mid-size packets'
 * pool, an
 * empty packet with @p rearm (npool_pkt_rearm_pvt()): what
 * rte_pktmbuf_reset() writes, the rearm word in one store. buf_addr,
 * iova, buf_len and pool are the pool's; next is NULL and nb_segs 1 in
 * any free mbuf. */
static __rte_always_inline void
npool_pkt_tiny_init_pvt(struct rte_mbuf *m, uint64_t rearm)
{
	npool_mbuf_rearm_set(m, rearm);
	m->ol_flags = 0;
	m->packet_type = 0;
	m->pkt_len = 0;
	m->data_len = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	m->tx_offload = 0;
}

/** @internal Whether a packet with @p len bytes of room of instance @p np
 * is tiny: one direct mbuf of np->small_pool. */
static __rte_always_inline int
npool_pkt_is_tiny_len_pvt(const struct npool *np, uint32_t len)
{
	return len < np->tiny_lim;
}

/** @internal rte_mempool_get() of one object of @p mp for the thread of
 * slot @p slot (npool_slot()): its lcore's mempool cache, inline, the
 * lcore id not read again (NPOOL_NON_EAL_SLOT: the pool's ops, as for
 * LCORE_ID_ANY: 25.11's rte_mempool_default_cache() checks no other
 * bound). */
static __rte_always_inline int
npool_mempool_get_pvt(struct rte_mempool *mp, void **obj, unsigned int slot)
{
	return rte_mempool_generic_get(mp, obj, 1,
			rte_mempool_default_cache(mp, slot < RTE_MAX_LCORE ?
				slot : LCORE_ID_ANY));
}

/** @internal Whether a packet with @p len bytes of room of instance @p np
 * that is not tiny is mid-size: one direct mbuf of np->mid_pool. */
static __rte_always_inline int
npool_pkt_is_mid_len_pvt(const struct npool *np, uint32_t len)
{
	return len < np->mid_lim;
}

/** @internal A mid-size packet (npool_napi_alloc_pkt(),
 * npool_alloc_pkt()): one get from the mid-size pool, as
 * npool_pkt_tiny_get_pvt() (one helper taking the pool and headroom
 * for both cost a tiny packet's alloc + consume 4 instructions under
 * gcc 12: docs/perf/issue-35.md). */
static __rte_always_inline struct rte_mbuf *
npool_pkt_mid_get_pvt(struct npool *np, unsigned int slot)
{
	struct rte_mbuf *m;

	if (unlikely(npool_mempool_get_pvt(np->mid_pool, (void **)&m,
			slot) < 0))
		return npool_pkt_fail(slot, ENOBUFS);
	npool_pkt_tiny_init_pvt(m,
			npool_pkt_rearm_pvt((uint16_t)np->headroom));
	NPOOL_STAT_ADD_NP(np, slot, pkt_allocs, 1);
	return m;
}

/** @internal A tiny packet (npool_napi_alloc_pkt(), npool_alloc_pkt()):
 * one get from the small-packet pool, inline through the lcore's cache
 * (any thread: a thread without an lcore id takes the ring). */
static __rte_always_inline struct rte_mbuf *
npool_pkt_tiny_get_pvt(struct npool *np, unsigned int slot)
{
	struct rte_mbuf *m;

	if (unlikely(npool_mempool_get_pvt(np->small_pool, (void **)&m,
			slot) < 0))
		return npool_pkt_fail(slot, ENOBUFS);
	npool_pkt_tiny_init_pvt(m,
			npool_pkt_rearm_pvt((uint16_t)np->tiny_headroom));
	NPOOL_STAT_ADD_NP(np, slot, pkt_allocs, 1);
	return m;
}

/** @internal Make head @p m a packet over fragment @p frag, whose shared
 * info is at @p shinfo (buf_len = @p shinfo - @p frag): every field
 * rte_pktmbuf_reset() and rte_pktmbuf_attach_extbuf() would write, the
 * rearm word in one store as PMDs do with their mbuf initialiser. */
static __rte_always_inline void
npool_pkt_attach_at_pvt(struct rte_mbuf *m, char *frag,
		struct rte_mbuf_ext_shared_info *shinfo, rte_iova_t iova,
		uint64_t rearm)
{
	shinfo->free_cb = npool_pkt_free_cb;
	shinfo->fcb_opaque = NULL;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
	m->buf_addr = frag;
	rte_mbuf_iova_set(m, iova);
	npool_mbuf_rearm_set(m, rearm);
	m->ol_flags = RTE_MBUF_F_EXTERNAL;
	m->packet_type = 0;
	m->pkt_len = 0;
	m->data_len = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	m->buf_len = (uint16_t)((char *)shinfo - frag);
	m->next = NULL;
	m->tx_offload = 0;
	m->shinfo = shinfo;
}

/** @internal Attach fragment @p frag of @p fragsz bytes to head @p m,
 * the shared info as high as it fits, 8-byte aligned (npool_build_pkt()).
 * @p data_off: the headroom, at most the buffer length (the caller knows
 * which: npool_build_pkt() takes the smaller). */
static __rte_always_inline void
npool_pkt_attach_pvt(struct rte_mbuf *m, char *frag, uint32_t fragsz,
		rte_iova_t iova, uint16_t data_off)
{
	struct rte_mbuf_ext_shared_info *shinfo;

	shinfo = (struct rte_mbuf_ext_shared_info *)RTE_PTR_ALIGN_FLOOR(
			frag + fragsz - NPOOL_SHINFO_SIZE, 8);
	npool_pkt_attach_at_pvt(m, frag, shinfo, iova,
			npool_pkt_rearm_pvt(data_off));
}

/** @internal Head @p m a packet over fragment @p frag of @p fragsz
 * bytes, a cache-line multiple (npool_pkt_fragsz_pvt(): the shared
 * info exactly at its tail), at IOVA @p iova, with @p rearm. */
static __rte_always_inline void
npool_pkt_attach_frag_pvt(struct rte_mbuf *m, char *frag, uint32_t fragsz,
		rte_iova_t iova, uint64_t rearm)
{
	npool_pkt_attach_at_pvt(m, frag, (struct rte_mbuf_ext_shared_info *)
			(frag + fragsz - NPOOL_SHINFO_SIZE), iova, rearm);
}

/** @internal Whether @p len bytes of room, whose fragment is @p fragsz
 * bytes (npool_pkt_fragsz_pvt()), are out of the allocators' range. A
 * headroom above the default leaves less than NPOOL_PKT_MAX_LEN. */
static __rte_always_inline int
npool_pkt_len_bad_pvt(uint32_t len, uint32_t fragsz)
{
	return len > NPOOL_PKT_MAX_LEN || fragsz > NPOOL_CHUNK_SIZE;
}

/** @internal Whether a packet whose fragment is @p fragsz bytes is
 * small (@p small_fragsz: its instance's): small packets pin at most a
 * small chunk (the file doc). */
static __rte_always_inline int
npool_pkt_frag_small_pvt(uint32_t fragsz, uint32_t small_fragsz)
{
	return fragsz <= small_fragsz;
}

/**
 * @internal npool_napi_alloc_pkt() (@p guarded 0) and npool_alloc_pkt()
 * (@p guarded 1: the same with the slot's lock around the carve, the
 * guarded caches and counters) once the context is checked: @p np is
 * the instance of slot @p slot, the caller's.
 */
static __rte_always_inline struct rte_mbuf *
npool_pkt_alloc_pvt(struct npool *np, unsigned int slot, uint32_t len,
		int guarded)
{
	struct npool_frag_cache *nc;
	struct npool_lcore *lc;
	struct rte_mbuf *m;
	uint32_t fragsz;
	rte_iova_t iova;
	char *frag;

	/* A tiny or mid-size packet is one object (the file doc). */
	if (npool_pkt_is_tiny_len_pvt(np, len))
		return npool_pkt_tiny_get_pvt(np, slot);
	if (npool_pkt_is_mid_len_pvt(np, len))
		return npool_pkt_mid_get_pvt(np, slot);
	fragsz = npool_pkt_fragsz_pvt(np->headroom, len);
	if (unlikely(npool_pkt_len_bad_pvt(len, fragsz)))
		return npool_pkt_fail(slot, EINVAL);
	if (unlikely(npool_mempool_get_pvt(np->head_pool, (void **)&m,
			slot) < 0))
		return npool_pkt_fail(slot, ENOBUFS);
	lc = &np->lc[slot];
	nc = npool_frag_cache_of_pvt(lc, guarded,
			npool_pkt_frag_small_pvt(fragsz, np->small_fragsz));
	if (guarded)
		rte_spinlock_lock(&lc->lock);
	frag = npool_frag_cache_alloc_pvt(nc, fragsz,
			-(uint32_t)RTE_CACHE_LINE_SIZE, &iova);
	if (guarded)
		rte_spinlock_unlock(&lc->lock);
	if (unlikely(frag == NULL)) {
		rte_mempool_put(np->head_pool, m);
		return npool_pkt_fail(slot, rte_errno);
	}
	if (guarded) {
		NPOOL_STAT_ADD_NP(np, slot, guarded_allocs, 1);
		NPOOL_STAT_ADD_NP(np, slot, pkt_allocs, 1);
	} else {
		lc->stats.allocs++;
		lc->stats.pkt_allocs++;
	}
	/* fragsz holds the headroom: no RTE_MIN(headroom, buf_len). */
	npool_pkt_attach_frag_pvt(m, frag, fragsz, iova,
			npool_pkt_rearm_pvt((uint16_t)np->headroom));
	return m;
}

/**
 * Allocate an empty packet with at least @p len bytes of tailroom after
 * the headroom: a tiny or mid-size packet from its pool through this
 * lcore's mempool cache, any other from the calling lcore's napi
 * fragment cache (its small-packet cache for a small packet: the file
 * doc) and head cache.
 * Kernel: napi_alloc_skb() / __napi_alloc_skb().
 *
 * Context: owner lcore only (an EAL lcore); from a thread without an
 * lcore id it fails with EPERM (debug builds panic, and also when another
 * thread already used this lcore id's napi cache). No lock, no atomic.
 *
 * @param len
 *   Bytes of room wanted, 0 .. NPOOL_PKT_MAX_LEN; with a headroom above
 *   RTE_PKTMBUF_HEADROOM at most what fits a chunk (npool_pkt_fragsz()
 *   of it up to NPOOL_CHUNK_SIZE).
 * @return
 *   The packet (data_len 0, data_off = headroom), or NULL with rte_errno:
 *   EINVAL (len too large), EPERM (no lcore id), ENOBUFS (no head left,
 *   or no tiny or mid-size object for a packet of that class),
 *   ENOMEM (no chunk left), ENODEV (npool not initialised).
 */
static __rte_always_inline struct rte_mbuf *
npool_napi_alloc_pkt(uint32_t len)
{
	unsigned int id = rte_lcore_id();
	struct npool *np;

	if (unlikely(id >= RTE_MAX_LCORE)) {
		np = npool_lcore_np[NPOOL_NON_EAL_SLOT];
		NPOOL_DEBUG_PANIC_IF(np != NULL,
				"npool: napi flavor called from a non-EAL thread\n");
		return npool_pkt_fail(NPOOL_NON_EAL_SLOT,
				np == NULL ? ENODEV : EPERM);
	}
	np = npool_lcore_np[id];
	if (unlikely(np == NULL))
		return npool_pkt_fail(id, ENODEV);
	NPOOL_DEBUG_CHECK(npool_debug_napi_owner(id));
	return npool_pkt_alloc_pvt(np, id, len, 0);
}

/**
 * Allocate an empty packet from any thread: guarded fragment cache (its
 * small-packet cache for a small packet: the file doc) and the head
 * pool's generic path. Kernel: netdev_alloc_skb() / __alloc_skb().
 *
 * Context: any thread, non-EAL threads included. Multi-thread safe.
 *
 * @param len
 *   Bytes of room wanted, as for npool_napi_alloc_pkt().
 * @return
 *   The packet, or NULL with rte_errno: EINVAL, ENOBUFS, ENOMEM, ENODEV as
 *   for npool_napi_alloc_pkt().
 */
struct rte_mbuf *npool_alloc_pkt(uint32_t len);

/**
 * Build a packet around a fragment: take a head and attach @p frag as its
 * external buffer, with the shared info in the last bytes of the fragment.
 * Kernel: build_skb() / napi_build_skb().
 *
 * The packet owns the fragment from then on: rte_pktmbuf_free() (or
 * npool_napi_consume_pkt()) frees it; on failure the caller still owns it.
 *
 * Context: any thread. Multi-thread safe.
 *
 * @param frag
 *   Start of a fragment from npool_napi_alloc_frag*() or
 *   npool_alloc_frag*(), aligned to 8 bytes.
 * @param fragsz
 *   The size it was allocated with, in bytes: NPOOL_SHINFO_SIZE + 1 ..
 *   the chunk's size, and at most UINT16_MAX + NPOOL_SHINFO_SIZE.
 * @return
 *   The packet: data_off = min(headroom, buf_len), data_len 0, and
 *   buf_len = the bytes before the shared info, which is placed at the
 *   highest 8-byte aligned address where it still fits the fragment:
 *   RTE_ALIGN_FLOOR(@p fragsz - NPOOL_SHINFO_SIZE, 8), so @p fragsz minus
 *   NPOOL_SHINFO_SIZE when @p fragsz is a multiple of 8 (as every
 *   npool_pkt_fragsz() is) and up to 7 bytes less otherwise (fragsz 1655
 *   gives 1624). The shared info holds pointers and an atomic refcount,
 *   which must be naturally aligned; DPDK's own
 *   rte_pktmbuf_ext_shinfo_init_helper() places it the same way. NULL
 *   with rte_errno: EINVAL
 *   (@p frag not in npool, misaligned, or @p fragsz out of range or past
 *   the chunk's end), ENOBUFS (no head left), ENODEV (no npool).
 */
struct rte_mbuf *npool_build_pkt(void *frag, uint32_t fragsz);

/**
 * Truesize of a packet segment in bytes, as the kernel's skb->truesize:
 * the memory given to the segment by design, not what it may keep
 * pinned. For an npool packet: the head's whole mempool object (header,
 * element and trailer) plus its fragment, RTE_ALIGN_CEIL(buf_len +
 * NPOOL_SHINFO_SIZE, RTE_CACHE_LINE_SIZE) bytes, which is
 * npool_pkt_fragsz(len) for a packet of npool_napi_alloc_pkt() or
 * npool_alloc_pkt() (a small packet is charged its fragment, not its
 * small chunk). For any other mbuf: its mempool object.
 *
 * What a packet held alone keeps pinned beyond its truesize is the rest
 * of its chunk, until the chunk's other fragments come back: at most one
 * small chunk (NPOOL_SMALL_CHUNK_SIZE, 4 KiB) for a small packet (unless
 * it came from a big fallback, npool_stats.big_fallbacks), at most one
 * big chunk (NPOOL_CHUNK_SIZE) for any other; a stock mbuf pins its
 * truesize only. tests/bench/bench_retain.c measures both.
 *
 * Any thread; @p m is not modified.
 *
 * @param m
 *   A packet segment.
 * @return
 *   Its truesize in bytes.
 */
uint32_t npool_pkt_truesize(const struct rte_mbuf *m);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_PKT_H */
