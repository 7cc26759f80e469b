/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_INSTANCE_H
#define NPOOL_INSTANCE_H

/**
 * @file
 * npool instances: one per NUMA socket (the kernel's page_pool, created
 * by page_pool_create() with a .nid), each with its chunk arena, its
 * fragment caches and its head pool. Create them after rte_eal_init()
 * (npool_init() or npool_create()), find the one an lcore or an address
 * belongs to, and tear them down with npool_fini() before
 * rte_eal_cleanup(). Included by npool.h.
 */

#include <stdint.h>

#include "npool_core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mempool;

/** A size of struct npool_conf that npool_create() works out from
 * npool_conf.nb_pkts. */
#define NPOOL_CONF_AUTO UINT32_MAX

/**
 * Settings of npool_create() and npool_init() (the kernel's struct
 * page_pool_params). Fill with npool_conf_defaults() first.
 *
 * Sizing: one number, @c nb_pkts, the packets the instance must have in
 * flight at once (what the rings, bursts and lcore caches of the queues
 * it serves hold: l3fwd's NB_MBUF for them). Each size left at
 * NPOOL_CONF_AUTO (the default) follows from it, L being
 * rte_lcore_count():
 * - nb_heads = nb_pkts + 96 L (each lcore's mempool cache of heads can
 *   hold 1.5 times NPOOL_MEMPOOL_CACHE_SIZE);
 * - nb_tiny = nb_pkts + 384 L (the tiny packets' pool and its lcore
 *   caches of 256); 0 when tiny_len or nb_small_chunks is 0;
 * - nb_mid = nb_pkts + 384 L (the mid-size packets' pool and its lcore
 *   caches of 256: every full-size frame in flight is one); 0 when
 *   mid_len is 0;
 * - nb_chunks = nb_pkts full-size frames (RTE_ETHER_MAX_LEN, 1728 B
 *   fragments at the default headroom, 18 to a 32 KiB chunk) + 2 L (the
 *   current and previous chunk of each lcore's cache); a quarter of
 *   that with the mid-size class (nb_mid not 0), where only packets
 *   above mid_len, the fragment API, npool_build_pkt() and kept packets
 *   (npool_pkt_condense()) carve chunks;
 * - nb_small_chunks = nb_pkts / 16 (a quarter of them small, four 1 KiB
 *   fragments to a chunk; the others fall back to big chunks) + 2 L.
 * The default, 8192 packets, makes about 33 MiB with two lcores: the
 * 20 MiB of the mid-size pool, as much as a stock pool of 8192 mbufs of
 * 2 KiB, plus the tiny packets, heads and chunks (22 MiB without the
 * mid-size class, mid_len 0). npool_create() logs what it made
 * (lib.npool, INFO). Set any size to override it.
 *
 * New fields go at the end (mid_len and nb_mid are the latest): fill
 * the struct with npool_conf_defaults() first, so that a field the
 * program does not set has its default.
 */
struct npool_conf {
	/** Packets in flight at once, 1 .. 2^24 (default 8192): what the
	 * sizes at NPOOL_CONF_AUTO follow from. */
	uint32_t nb_pkts;
	/** Big chunks in the arena, 1 .. 2^20 (default NPOOL_CONF_AUTO). */
	uint32_t nb_chunks;
	/** 4 KiB chunks, 0 .. 2^20 (default NPOOL_CONF_AUTO): the small
	 * packets' chunks (npool_pkt.h), and the order-0 fallback when no
	 * big chunk is free. With 0, small packets come from big chunks as
	 * others do, and with nb_tiny at NPOOL_CONF_AUTO there are no tiny
	 * packets either. */
	uint32_t nb_small_chunks;
	/** Packet heads in the head pool, 64 .. 2^24 (default
	 * NPOOL_CONF_AUTO). */
	uint32_t nb_heads;
	/** Objects of the tiny packets' pool, 0 .. 2^24 (default
	 * NPOOL_CONF_AUTO): every tiny packet out (copy-break's copies
	 * among them) is one; 0: no tiny packets. */
	uint32_t nb_tiny;
	/** Headroom of npool packets in bytes, 0 .. 1024
	 * (default RTE_PKTMBUF_HEADROOM; the kernel's NET_SKB_PAD). */
	uint32_t headroom;
	/** Room in bytes up to which a packet of npool_napi_alloc_pkt(),
	 * npool_alloc_pkt() and copy-break is one direct mbuf of the tiny
	 * packets' pool (npool_pkt.h), 0 .. NPOOL_PKT_SMALL_LEN (default
	 * NPOOL_PKT_SMALL_LEN, 256); 0: no tiny packets (up to mid_len
	 * mid-size ones, above that a head and a fragment). */
	uint32_t tiny_len;
	/** Headroom of tiny packets in bytes, 0 .. 1024 (default
	 * NPOOL_PKT_TINY_HEADROOM, 64: the kernel's NET_SKB_PAD, which
	 * napi_alloc_skb() reserves in its small heads). With the default
	 * a tiny packet's object is 512 B (64 B mempool header, 128 B mbuf,
	 * 64 + 256 B room); set it to @c headroom when small packets need
	 * as much room in front as the others (576 B objects at 128). */
	uint32_t tiny_headroom;
	/** NUMA socket the instance serves and holds its memory on,
	 * 0 .. RTE_MAX_NUMA_NODES - 1, or SOCKET_ID_ANY (default): memory
	 * anywhere, serving every lcore whose socket has no instance. */
	int socket_id;
	/** Room in bytes up to which a packet above tiny_len of
	 * npool_napi_alloc_pkt(), npool_alloc_pkt() and
	 * npool_napi_alloc_pkt_bulk() is one direct mbuf of the mid-size
	 * packets' pool (npool_pkt.h), 0 .. NPOOL_PKT_MID_MAX_LEN (default
	 * NPOOL_PKT_MID_LEN, 2048: a stock mbuf's RTE_MBUF_DEFAULT_DATAROOM);
	 * 0, or not above tiny_len: no mid-size class, packets above tiny_len
	 * are a head and a fragment. The headroom is @c headroom: with the
	 * defaults an object is 2368 B, a stock mbuf's. */
	uint32_t mid_len;
	/** Objects of the mid-size packets' pool, 0 .. 2^24 (default
	 * NPOOL_CONF_AUTO); 0: no mid-size packets. */
	uint32_t nb_mid;
};

/** Fill @p conf with the defaults documented in struct npool_conf.
 *
 * @param conf
 *   The configuration to fill (not NULL).
 */
void npool_conf_defaults(struct npool_conf *conf);

/**
 * Create an npool instance serving one NUMA socket: a chunk arena,
 * per-lcore fragment caches and a head pool (an rte_mempool with ops
 * "npool" behind a mempool cache of NPOOL_MEMPOOL_CACHE_SIZE per lcore),
 * all on @c conf->socket_id. Kernel: page_pool_create() with params.nid.
 *
 * From then on the EAL lcores of that socket allocate from it (the
 * napi and guarded flavors, packets and copy-break alike). An instance
 * of SOCKET_ID_ANY is the default one: it serves the lcores of sockets
 * without an instance, threads without an lcore id, and the ids that
 * rte_thread_register() hands out; without one, the first instance
 * created is the default. At most one instance per socket (and one of
 * SOCKET_ID_ANY).
 *
 * Context: main lcore, after rte_eal_init(), while no other thread uses
 * npool (the lcores' instance changes under them otherwise).
 *
 * @param conf
 *   Settings, or NULL for the defaults (SOCKET_ID_ANY).
 * @return
 *   The instance, or NULL with rte_errno: EEXIST (the socket already has
 *   one), EINVAL (a setting out of range), ENOMEM (no memory on that
 *   socket), ENOSPC (RTE_MAX_NUMA_NODES + 1 instances already, or the
 *   "npool" mempool ops could not be registered: the ops table is full).
 *   Call it after rte_eal_init(): it registers the ops
 *   (npool_mempool_ops_register()).
 */
struct npool *npool_create(const struct npool_conf *conf);

/**
 * Destroy one instance; its fragment caches are drained first (as
 * npool_frag_cache_drain_all()). Every fragment and head of it must be
 * back. The lcores it served fall back to the default instance.
 * Kernel: page_pool_destroy().
 *
 * Context: main lcore, while no other thread uses npool.
 *
 * @param np
 *   An instance of npool_create().
 * @return
 *   0, or a negative errno, also in rte_errno: -EINVAL (@p np is not an
 *   instance), or -EBUSY as npool_fini() (nothing is freed then).
 */
int npool_destroy(struct npool *np);

/**
 * Create the process's one npool instance, serving every lcore: as
 * npool_create() (with @c conf->socket_id for its memory), for a program
 * that wants a single instance.
 *
 * Context: main lcore, after rte_eal_init(), before any other npool call.
 *
 * @param conf
 *   Settings, or NULL for the defaults.
 * @return
 *   0 on success, or a negative errno (also in rte_errno): -EALREADY
 *   (an instance exists already), or the errors of npool_create().
 */
int npool_init(const struct npool_conf *conf);

/**
 * Destroy every instance (npool_init()'s, or all of npool_create()'s).
 * Every fragment and head must be back.
 *
 * Context: main lcore, when no other thread uses npool.
 *
 * @return
 *   0, or a negative errno, also in rte_errno: -EBUSY if fragments or
 *   heads of any instance are still out, or
 *   if a napi cache that npool_frag_cache_drain_all() must leave to its
 *   owner (an lcore still running a launched function, a thread still
 *   registered) holds a chunk (nothing is freed then, except instances
 *   already checked empty when that is found; npool keeps working),
 *   -ENODEV if there is no instance.
 */
int npool_fini(void);

/**
 * The instance serving socket @p socket_id (SOCKET_ID_ANY: the one made
 * with SOCKET_ID_ANY), or NULL if there is none. Any thread.
 *
 * @param socket_id
 *   A NUMA socket, or SOCKET_ID_ANY.
 * @return
 *   The instance, or NULL.
 */
struct npool *npool_lookup_socket(int socket_id);

/**
 * The default instance: the one made with SOCKET_ID_ANY, else the first
 * created; NULL while there is none. It serves the lcores of sockets
 * without an instance, threads without an lcore id, and the ids that
 * rte_thread_register() hands out. Any thread.
 *
 * @return
 *   The instance, or NULL.
 */
struct npool *npool_default(void);

/**
 * The instance the calling thread allocates from (its lcore's socket's,
 * else the default one), or NULL if there is none. Any thread.
 *
 * @return
 *   The instance, or NULL.
 */
struct npool *npool_local(void);

/**
 * The instance whose arena holds @p p (a fragment or any address inside
 * one), or NULL. Any thread; walks the instances.
 *
 * @param p
 *   Any address.
 * @return
 *   The instance, or NULL.
 */
struct npool *npool_of_addr(const void *p);

/** The socket @p np serves (its npool_conf.socket_id); SOCKET_ID_ANY
 * for NULL. Any thread.
 *
 * @param np
 *   An instance, or NULL.
 * @return
 *   The socket id, or SOCKET_ID_ANY.
 */
int npool_socket_id(const struct npool *np);

/** Name of @p np ("s<socket>", or "any" for SOCKET_ID_ANY), or NULL for
 * NULL. Any thread.
 *
 * @param np
 *   An instance, or NULL.
 * @return
 *   The name, or NULL.
 */
const char *npool_name(const struct npool *np);

/**
 * Every instance, in creation order.
 *
 * @param out
 *   Where to write up to @p max instances.
 * @param max
 *   Room in @p out (0 to count only).
 * @return
 *   The number of instances (may exceed @p max). Any thread, while no
 *   instance is created or destroyed.
 */
unsigned int npool_instance_list(struct npool **out, unsigned int max);


/** The default instance's head pool (ops "npool"), or NULL while there
 * is no instance.
 *
 * @return
 *   The head pool, or NULL.
 */
struct rte_mempool *npool_head_pool(void);

/** The head pool of @p np, or NULL for NULL. Any thread.
 *
 * @param np
 *   An instance, or NULL.
 * @return
 *   The head pool, or NULL.
 */
struct rte_mempool *npool_instance_head_pool(const struct npool *np);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_INSTANCE_H */
