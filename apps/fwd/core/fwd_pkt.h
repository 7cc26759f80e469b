/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_PKT_H
#define FWD_PKT_H

/**
 * @file
 * The slow paths of npool-fwd's packet work: frames larger than the mbuf
 * data room arrive as chains (net_pcap, scattered RX), a first segment
 * may hold fewer bytes than the headers the checks read; IPv4
 * fragmentation of packets above the MTU with DF clear.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "fwd_meta.h"
#include "fwd_tables.h"

/**
 * Move the first @p need bytes of a chain into its first segment.
 * @return 0, or -1 if the packet cannot be written (never for RX mbufs).
 */
int fwd_pkt_pullup(struct rte_mbuf *m, uint32_t need);

/**
 * Whether the segments of @p m add up to its pkt_len and nb_segs, in at
 * most nb_segs + 1 steps whatever the next pointers say (a PMD that cut
 * a frame; rte_mbuf_check() walks a cycle forever).
 */
bool fwd_pkt_chain_ok(const struct rte_mbuf *m);

/** Cut a chain to its first @p len bytes, freeing the segments past. */
void fwd_pkt_trim_chain(struct rte_mbuf *m, uint32_t len);

/**
 * Fragments a packet fwd_classify() returned FWD_FRAGMENT for will be
 * cut into: the room fwd_pkt_fragment() needs.
 *
 * @return 1 .. 8190, or 0 when it cannot be cut (drop it as frag_fail):
 *   the MTU leaves no 8-byte payload step behind the header, or the last
 *   fragment would end past IP offset 65535 ("ping of death").
 */
uint32_t fwd_pkt_frag_count(const struct fwd_tables *t,
		const struct rte_mbuf *m, const struct fwd_meta *md);

/**
 * Cut a rewritten packet (FWD_FRAGMENT) into IPv4 fragments of at most
 * fwd_egress_mtu() bytes with rte_ipv4_fragment_packet() (headers in
 * t->frag_direct, payload by reference through t->frag_indirect), each
 * behind the packet's Ethernet header (as the rewrite for md->port left
 * it), with a fresh header checksum
 * and mbuf->port @p in_port (the first fragment only: the others
 * RTE_MBUF_PORT_INVALID, so that a fragment the TX queue refuses counts
 * once, by the first). Kernel: ip_fragment(). @p m is consumed.
 *
 * @param frags
 *   Room for @p nb fragments.
 * @param nb
 *   fwd_pkt_frag_count() of the packet (not 0).
 * @return The fragments in @p frags (1 .. @p nb); 0 or a negative errno
 *   of rte_ipv4_fragment_packet() when none was made (frag_fail).
 */
int32_t fwd_pkt_fragment(const struct fwd_tables *t, struct rte_mbuf *m,
		const struct fwd_meta *md, uint16_t in_port,
		struct rte_mbuf **frags, uint32_t nb);

#endif /* FWD_PKT_H */
