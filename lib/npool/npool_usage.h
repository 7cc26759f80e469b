/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_USAGE_H
#define NPOOL_USAGE_H

/**
 * @file
 * What the npool instances hold and what live packets pin, in bytes:
 * for leak checks and monitoring (the kernel's page_pool stats and
 * /proc/meminfo's figures for its pages). Included by npool.h.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct npool;

/**
 * Memory state, for leak checks and monitoring: what exists, what is
 * out, and what the packets (and fragments) alive now pin, in bytes.
 *
 * What a live packet pins is its class's memory: a tiny packet its
 * object (@c small_pkt_size), a mid-size one its object
 * (@c mid_pkt_size); a head + fragment packet its head object
 * (@c head_size) and the chunk its fragment is in, whole, until the
 * chunk's last fragment comes back: a small chunk (4 KiB) for a small
 * packet, a big one (NPOOL_CHUNK_SIZE) for any other (npool_pkt.h). A
 * chunk a fragment cache still carves, with no fragment out, is held by
 * the cache, not pinned: @c chunks_in_use counts it, the pinned figures
 * do not. Bytes pinned per kept packet: @c pinned over the packets kept.
 */
struct npool_usage {
	/** Socket of the instance (SOCKET_ID_ANY for a sum over several). */
	int socket_id;
	uint32_t chunks;          /**< big chunks in the arena */
	uint32_t small_chunks;    /**< small chunks in the arena */
	uint32_t chunks_in_use;   /**< chunks (both sizes) not free */
	int64_t frags_out;        /**< fragments handed out, not yet freed */
	uint32_t heads;           /**< heads in the head pool */
	uint32_t heads_out;       /**< heads handed out, not yet back */
	/** Tiny packets (npool_pkt.h): objects of the small-packet pool. */
	uint32_t small_pkts;
	/** Tiny packets handed out, not yet back in their pool. */
	uint32_t small_pkts_out;
	/** Bytes one tiny packet pins: its whole mempool object. */
	uint32_t small_pkt_size;
	/** Bytes one head pins: its whole mempool object. */
	uint32_t head_size;
	uint32_t big_in_use;      /**< big chunks not free */
	uint32_t small_in_use;    /**< small chunks not free */
	uint32_t big_pinned;      /**< big chunks with a fragment out */
	uint32_t small_pinned;    /**< small chunks with a fragment out */
	/** Bytes pinned in big chunks: big_pinned * NPOOL_CHUNK_SIZE. */
	uint64_t pinned_big;
	/** Bytes pinned in small chunks: small_pinned * 4096. */
	uint64_t pinned_small;
	/** Bytes pinned by tiny packets: small_pkts_out * small_pkt_size. */
	uint64_t pinned_tiny;
	/** Bytes pinned by heads out: heads_out * head_size. */
	uint64_t pinned_heads;
	/** All the bytes pinned: the five pinned_* figures. */
	uint64_t pinned;
	/** Mid-size packets (npool_pkt.h): objects of the mid-size pool
	 * (0 without it). */
	uint32_t mid_pkts;
	/** Mid-size packets handed out, not yet back in their pool. */
	uint32_t mid_pkts_out;
	/** Bytes one mid-size packet pins: its whole mempool object (2368
	 * with the defaults, a stock mbuf's). */
	uint32_t mid_pkt_size;
	/** Bytes pinned by mid-size packets: mid_pkts_out * mid_pkt_size. */
	uint64_t pinned_mid;
};

/**
 * Read the memory state, summed over every instance. Any thread; exact
 * only when no thread allocates or frees (the pinned figures read every
 * fragment cache's chunk and references).
 *
 * @param u
 *   Where to write the state.
 * @return 0, or a negative errno, also in rte_errno: -EINVAL if @p u is
 *   NULL, -ENODEV if there is no instance.
 */
int npool_usage_get(struct npool_usage *u);

/**
 * Read the memory state of one instance, as npool_usage_get().
 *
 * @param np
 *   An instance.
 * @param u
 *   Where to write the state.
 * @return 0, or -EINVAL (also in rte_errno) if @p np or @p u is NULL.
 */
int npool_instance_usage_get(const struct npool *np, struct npool_usage *u);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_USAGE_H */
