/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_PKT_KEEP_H
#define NPOOL_PKT_KEEP_H

/**
 * @file
 * Packets kept for long: skb_condense() for rte_mbuf.
 *
 * A head + fragment packet pins its fragment's whole chunk until the
 * chunk's last fragment comes back (npool_pkt.h): a 1500 B packet kept
 * while the others carved beside it are freed pins a 32 KiB chunk, 14
 * times a stock mbuf. An application that keeps some packets for long (a
 * reassembly or TCP receive queue, a capture of selected flows, a queue
 * of packets waiting for a neighbour) calls npool_pkt_condense() on each
 * as it keeps it: the data moves into a fragment of its own size from
 * the calling lcore's cache of kept packets, whose chunks hold kept
 * packets only, so that a kept packet pins about its truesize (at most
 * 1.25 times a stock mbuf of RTE_MBUF_DEFAULT_BUF_SIZE up to 2 KiB of
 * data, 1.25 times its truesize above: tests/bench/bench_retain.c)
 * whatever is freed around it. Tiny packets and other direct mbufs pin
 * their own object only and stay as they are.
 *
 * Kept packets freed in another order than they were kept leave chunks
 * of kept packets sparse too: a packet whose fragment is in a chunk of
 * kept packets moves again only when the live fragments of that chunk
 * fill less than half of it, so that calling npool_pkt_condense_bulk()
 * on a whole queue now and then (a timer, or when the queue's bytes,
 * npool_usage, grow) reclaims those chunks at the cost of copying the
 * packets left in them, as TCP collapses its queues (tcp_collapse()).
 *
 * Kernel: skb_condense(), which tcp_add_backlog() and
 * tcp_data_queue_ofo() call on packets they queue, and tcp_collapse().
 */

#include <stdint.h>
#include <rte_compat.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @warning
 * @b EXPERIMENTAL: this API may change, or be removed, without prior
 * notice (libnpool.map's EXPERIMENTAL node: define ALLOW_EXPERIMENTAL_API
 * to call it).
 *
 * Condense a packet the caller keeps for long: each head + fragment
 * segment of it whose fragment shares a chunk with other fragments moves
 * into a fragment of its own size (npool_pkt_fragsz() of its data_len:
 * the instance's headroom before the data, no tailroom after it) from
 * the calling lcore's cache of kept packets, and its old fragment is
 * freed. The packet stays the same mbuf: its segments keep their heads,
 * data, lengths and metadata; only buf_addr, the IOVA, buf_len, data_off
 * and shinfo change. Segments left as they are: direct mbufs (tiny
 * packets, RX mbufs: each pins its object), segments shared with a clone
 * or an extra reference (their data is not the caller's to move), and
 * segments already in a chunk of kept packets that is at least half
 * full (see the file doc).
 *
 * Context: any thread, non-EAL threads included (the cache is guarded by
 * a spinlock, as npool_alloc_pkt()'s); the caller owns @p m (no other
 * thread reads or writes it meanwhile). Costs one fragment allocation and
 * a copy of the data per segment moved.
 *
 * @param m
 *   The packet.
 * @return
 *   The number of segments moved (0: none needed it), or a negative
 *   errno, also in rte_errno: -EINVAL (@p m NULL), -ENODEV (no npool
 *   instance), -ENOMEM (no chunk for a copy: the segments not moved keep
 *   their fragments, the packet is intact and pins what it pinned).
 */
__rte_experimental
int npool_pkt_condense(struct rte_mbuf *m);

/**
 * npool_pkt_condense() on each of @p n packets.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change, or be removed, without prior
 * notice (libnpool.map's EXPERIMENTAL node: define ALLOW_EXPERIMENTAL_API
 * to call it).
 *
 * Context: as npool_pkt_condense().
 *
 * @param pkts
 *   The packets; NULL entries are skipped.
 * @param n
 *   Number of entries in @p pkts.
 * @return
 *   The number of segments moved. When a segment could not be, rte_errno
 *   is ENOMEM, and the others are still tried.
 */
__rte_experimental
unsigned int npool_pkt_condense_bulk(struct rte_mbuf **pkts, unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_PKT_KEEP_H */
