/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_MBUF_H
#define NPOOL_MBUF_H

/**
 * @file
 * The rte_mbuf fields that npool, its copy-break and fast receive loops
 * read or write several at a time, and the layout that this assumes,
 * checked once here at compile time.
 *
 * The rearm word: data_off, refcnt, nb_segs and port side by side in one
 * naturally aligned 64-bit word (DPDK's rearm_data, which PMDs store in
 * one write when they refill an RX ring). One load of it tells whether a
 * received mbuf is a lone, unshared segment of the expected port; one
 * store resets the four fields of a fresh packet.
 *
 * The RX descriptor fields: packet_type, pkt_len, data_len, vlan_tci and
 * hash, contiguous (DPDK's rx_descriptor_fields1): what a PMD writes per
 * received packet, copied in one piece by copy-break.
 */

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rearm word: four 16-bit fields in one aligned 64-bit word (refcnt
 * and nb_segs in its middle 32 bits in either byte order). */
static_assert(offsetof(struct rte_mbuf, data_off) % 8 == 0,
		"rte_mbuf: data_off starts an aligned 64-bit word");
static_assert(offsetof(struct rte_mbuf, refcnt) ==
		offsetof(struct rte_mbuf, data_off) + 2,
		"rte_mbuf: refcnt follows data_off");
static_assert(offsetof(struct rte_mbuf, nb_segs) ==
		offsetof(struct rte_mbuf, data_off) + 4,
		"rte_mbuf: nb_segs follows refcnt");
static_assert(offsetof(struct rte_mbuf, port) ==
		offsetof(struct rte_mbuf, data_off) + 6,
		"rte_mbuf: port follows nb_segs");
/* The RX descriptor fields, contiguous. */
static_assert(offsetof(struct rte_mbuf, pkt_len) ==
		offsetof(struct rte_mbuf, packet_type) + 4,
		"rte_mbuf: pkt_len follows packet_type");
static_assert(offsetof(struct rte_mbuf, data_len) ==
		offsetof(struct rte_mbuf, packet_type) + 8,
		"rte_mbuf: data_len follows pkt_len");
static_assert(offsetof(struct rte_mbuf, vlan_tci) ==
		offsetof(struct rte_mbuf, packet_type) + 10,
		"rte_mbuf: vlan_tci follows data_len");
static_assert(offsetof(struct rte_mbuf, hash) ==
		offsetof(struct rte_mbuf, packet_type) + 12,
		"rte_mbuf: hash follows vlan_tci");

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
/** Bit position of the i-th 16-bit field of the rearm word (0 .. 3). */
#define NPOOL_MBUF_REARM_SHIFT_PVT(i) (16 * (i))
#else
#define NPOOL_MBUF_REARM_SHIFT_PVT(i) (16 * (3 - (i)))
#endif
/** Bit position of data_off in the rearm word. */
#define NPOOL_MBUF_DATA_OFF_SHIFT NPOOL_MBUF_REARM_SHIFT_PVT(0)
/** Bit position of refcnt in the rearm word. */
#define NPOOL_MBUF_REFCNT_SHIFT NPOOL_MBUF_REARM_SHIFT_PVT(1)
/** Bit position of nb_segs in the rearm word. */
#define NPOOL_MBUF_NB_SEGS_SHIFT NPOOL_MBUF_REARM_SHIFT_PVT(2)
/** Bit position of port in the rearm word. */
#define NPOOL_MBUF_PORT_SHIFT NPOOL_MBUF_REARM_SHIFT_PVT(3)

/**
 * The rearm word of an mbuf with these four fields (each 0 .. 0xffff):
 * a constant expression for constant arguments.
 */
#define NPOOL_MBUF_REARM(data_off, refcnt, nb_segs, port) \
	((uint64_t)(uint16_t)(data_off) << NPOOL_MBUF_DATA_OFF_SHIFT | \
	 (uint64_t)(uint16_t)(refcnt) << NPOOL_MBUF_REFCNT_SHIFT | \
	 (uint64_t)(uint16_t)(nb_segs) << NPOOL_MBUF_NB_SEGS_SHIFT | \
	 (uint64_t)(uint16_t)(port) << NPOOL_MBUF_PORT_SHIFT)

/** The bits of refcnt and nb_segs in the rearm word. */
#define NPOOL_MBUF_REFCNT_SEGS_MASK NPOOL_MBUF_REARM(0, 0xffff, 0xffff, 0)
/** The bits of nb_segs and port in the rearm word. */
#define NPOOL_MBUF_SEGS_PORT_MASK NPOOL_MBUF_REARM(0, 0, 0xffff, 0xffff)
/** The bits of port in the rearm word. */
#define NPOOL_MBUF_PORT_MASK NPOOL_MBUF_REARM(0, 0, 0, 0xffff)
/** refcnt 1 and nb_segs 1 (under NPOOL_MBUF_REFCNT_SEGS_MASK): a lone,
 * unshared segment. */
#define NPOOL_MBUF_LONE NPOOL_MBUF_REARM(0, 1, 1, 0)

/**
 * Whether rearm word @p w says refcnt 1 and nb_segs 1: a lone, unshared
 * segment. One shift and one 32-bit compare (refcnt and nb_segs are the
 * middle 32 bits in either byte order).
 *
 * @param w
 *   A rearm word (npool_mbuf_rearm(), npool_mbuf_rearm_acquire()).
 * @return
 *   1 if lone, else 0.
 */
static inline int
npool_mbuf_rearm_lone(uint64_t w)
{
	return (uint32_t)(w >> 16) == (uint32_t)(NPOOL_MBUF_LONE >> 16);
}

/**
 * The rearm word of @p m (data_off, refcnt, nb_segs, port), in one plain
 * load: for an mbuf that only the caller references (just received).
 *
 * @param m
 *   An mbuf.
 * @return
 *   The word; NPOOL_MBUF_*_SHIFT say where each field is.
 */
static inline uint64_t
npool_mbuf_rearm(const struct rte_mbuf *m)
{
	uint64_t w;

	/* From the mbuf's base: the load spans four fields. */
	memcpy(&w, (const char *)m + offsetof(struct rte_mbuf, data_off),
			sizeof(w));
	return w;
}

/**
 * The rearm word of @p m in one atomic load with acquire order: for an
 * mbuf that other threads may hold references to. Seeing refcnt 1 then
 * orders every other holder's last access (before its release decrement
 * of refcnt) before the caller's reuse of the mbuf. On x86 the same
 * single load as npool_mbuf_rearm().
 *
 * @param m
 *   An mbuf.
 * @return
 *   The word.
 */
static inline uint64_t
npool_mbuf_rearm_acquire(const struct rte_mbuf *m)
{
	return __atomic_load_n((const uint64_t *)(const void *)
			((const char *)m + offsetof(struct rte_mbuf, data_off)),
			__ATOMIC_ACQUIRE);
}

/**
 * Write the rearm word of @p m: data_off, refcnt, nb_segs and port in one
 * store, as a PMD rearms an RX descriptor's mbuf. Only on an mbuf that no
 * other thread references.
 *
 * @param m
 *   An mbuf.
 * @param w
 *   The word, e.g. NPOOL_MBUF_REARM(RTE_PKTMBUF_HEADROOM, 1, 1, port).
 */
static inline void
npool_mbuf_rearm_set(struct rte_mbuf *m, uint64_t w)
{
	memcpy((char *)m + offsetof(struct rte_mbuf, data_off), &w,
			sizeof(w));
}

/**
 * nb_segs and port as one 32-bit value, as npool_mbuf_segs_port() reads
 * it (each 0 .. 0xffff): a constant expression for constant arguments.
 */
#define NPOOL_MBUF_SEGS_PORT(nb_segs, port) \
	((uint32_t)(NPOOL_MBUF_REARM(0, 0, nb_segs, port) >> \
		RTE_MIN(NPOOL_MBUF_NB_SEGS_SHIFT, NPOOL_MBUF_PORT_SHIFT)))

/**
 * nb_segs and port of @p m in one 32-bit load (the second half of the
 * rearm word), to compare with NPOOL_MBUF_SEGS_PORT(): whether a received
 * packet is one segment of the expected port.
 *
 * @param m
 *   An mbuf.
 * @return
 *   The value.
 */
static inline uint32_t
npool_mbuf_segs_port(const struct rte_mbuf *m)
{
	uint32_t v;

	memcpy(&v, (const char *)m + offsetof(struct rte_mbuf, nb_segs),
			sizeof(v));
	return v;
}

/** Bytes of the RX descriptor fields: packet_type up to hash, included. */
#define NPOOL_MBUF_RX_FIELDS_LEN (offsetof(struct rte_mbuf, hash) + \
	sizeof(((struct rte_mbuf *)0)->hash) - \
	offsetof(struct rte_mbuf, packet_type))

/**
 * Copy the RX descriptor fields of @p src to @p dst in one piece:
 * packet_type, pkt_len, data_len, vlan_tci and hash.
 *
 * @param dst
 *   The mbuf written.
 * @param src
 *   The mbuf read.
 */
static inline void
npool_mbuf_rx_fields_copy(struct rte_mbuf *dst, const struct rte_mbuf *src)
{
	memcpy((char *)dst + offsetof(struct rte_mbuf, packet_type),
			(const char *)src + offsetof(struct rte_mbuf, packet_type),
			NPOOL_MBUF_RX_FIELDS_LEN);
}

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_MBUF_H */
