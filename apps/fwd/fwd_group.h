/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_GROUP_H
#define FWD_GROUP_H

/**
 * @file
 * npool-fwd's checks over a whole burst in one pass, in groups of 4 as
 * DPDK's l3fwd (processx4_step1..3) and VPP's ip4-lookup do: the next
 * group's headers prefetched; the plain-IPv4 test of the 4 packets
 * (fwd_plain4(): the RX checks of app_rx_burst() among them) computed
 * into a mask without a branch per condition; one lookup of the 4
 * destinations (rte_lpm_lookupx4(); with FIB one rte_fib_lookup_bulk()
 * of all the groups' destinations, as l3fwd's FIB path); the port test
 * as a mask too; then a group whose 4 lanes all pass is rewritten (TTL - 1
 * with an RFC 1624 update, both MACs in one 16-byte store) and written
 * out at once: packet, port, port mask. The plain IPv6 packets keep
 * their place in the output and are looked up together after the groups
 * (rte_lpm6_lookup_bulk_func() or rte_fib6_lookup_bulk()). Any other
 * packet, and the last n % 4, take the lane path: what fwd_pkt_decide()
 * does, its verdict, drop count and output the same as one by one,
 * whatever the packet's place in the burst.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_prefetch.h>

#include "app_rx.h"
#include "fwd_pkt.h"

/** Packets checked together. */
#define FWD_GROUP 4

/** Most packets fwd_pkt_decide_burst() takes at once. */
#define FWD_BURST_MAX FWD_LOOKUP_BULK_MAX

/** Bit of a fwd_burst.dst entry: cut the packet into fragments first
 * (FWD_FRAGMENT; the port is in the other bits). */
#define FWD_DST_FRAG 0x8000

/** Bit of a fwd_burst.dst entry: replicate the packet by the multicast
 * route in the low 14 bits (FWD_MCAST, fwd_mcast.h). */
#define FWD_DST_MCAST 0x4000

/** What fwd_pkt_decide_burst() made of a burst. */
struct fwd_burst {
	uint16_t nf;     /**< forwarded: the first nf of the burst, in order */
	uint16_t nd;     /**< dropped, in @c drop, counted */
	/** Of the forwarded, with FWD_DST_FRAG or FWD_DST_MCAST. */
	uint16_t nfrag;
	uint64_t ports;  /**< bit per port of the forwarded */
	uint16_t dst[FWD_BURST_MAX];           /**< port of each forwarded */
	struct rte_mbuf *drop[FWD_BURST_MAX];  /**< the dropped, to free */
	/** Drop reason of each of @c drop (enum fwd_reason): what the
	 * router answers (fwd_local_wants()) is found from it. */
	uint8_t why[FWD_BURST_MAX];
};

/** @internal The counts of a burst while it is decided: locals (they
 * stay in registers), written into struct fwd_burst at the end. */
struct fwd_acc_pvt {
	uint16_t nf;
	uint16_t nd;
	uint16_t nfrag;
	uint64_t ports;
};

/** @internal The IPv6 packets of a burst waiting for the bulk lookup. */
struct fwd_v6_pvt {
	uint16_t n;
	uint16_t slot[FWD_BURST_MAX];  /**< their place in the output */
	uint16_t at[FWD_BURST_MAX];    /**< their place in the burst */
	uint8_t ip[FWD_BURST_MAX][16]; /**< destinations */
};

/* Out: forwarded packet @p m to @p port (a port, maybe FWD_DST_FRAG). */
static __rte_always_inline void
fwd_out_pvt(struct rte_mbuf **pkts, struct fwd_burst *b,
		struct fwd_acc_pvt *a, struct rte_mbuf *m, uint16_t port)
{
	pkts[a->nf] = m;
	b->dst[a->nf++] = port;
	a->ports |= UINT64_C(1) << (port & 63);
}

/*
 * A packet that is not plain: the RX fix of app_rx_burst() (mbuf->port,
 * a malformed chain dropped as rx_bad), then fwd_classify() and the
 * rewrite or the drop count. @p at: its place in the burst (test hooks
 * @p verdict and @p md, NULL in the loop: they fold away).
 */
static __rte_noinline int
fwd_lane_slow_pvt(const struct fwd_conf *fc, struct rte_mbuf *m,
		uint16_t in_port, uint64_t *drops, struct fwd_meta *md)
{
	if (unlikely(fwd_segs_port_of(m) != fwd_segs_port(in_port) ||
			m->data_len != m->pkt_len)) {
		m->port = in_port;
		if (unlikely(!app_rx_chain_ok(m))) {
			drops[FWD_TRUNCATED]++;
			/* Follows the next pointers, not nb_segs. */
			rte_pktmbuf_free(m);
			return -1;
		}
	}
	return fwd_pkt_finish(fc, m, md, drops, fwd_classify(fc, m, md));
}

/* fwd_lane_slow_pvt() of @p m, its result written out. */
static __rte_always_inline void
fwd_lane_slow(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		struct fwd_burst *b, struct fwd_acc_pvt *a,
		struct rte_mbuf *m, uint16_t in_port,
		uint64_t *drops, uint16_t at, uint8_t *verdict,
		struct fwd_meta *md)
{
	struct fwd_meta mdl;
	int v = fwd_lane_slow_pvt(fc, m, in_port, drops, &mdl);

	if (verdict != NULL)
		verdict[at] = (uint8_t)(v < 0 ? FWD_TRUNCATED : v);
	if (md != NULL)
		md[at] = mdl;
	if (v == FWD_PASS) {
		fwd_out_pvt(pkts, b, a, m, mdl.port);
	} else if (v == FWD_FRAGMENT || v == FWD_MCAST) {
		fwd_out_pvt(pkts, b, a, m, mdl.port |
				(v == FWD_MCAST ? FWD_DST_MCAST : FWD_DST_FRAG));
		a->nfrag++;
	} else if (v >= 0) {
		b->why[a->nd] = (uint8_t)v;
		b->drop[a->nd++] = m;
	}
}

/*
 * Lane @p k of a group whose masks said not all 4 pass: plain IPv4 out
 * at once, plain IPv6 to the bulk lookup (its place kept), the rest the
 * lane path.
 */
static __rte_always_inline void
fwd_lane(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		struct fwd_burst *b, struct fwd_acc_pvt *a,
		struct fwd_v6_pvt *v6, struct rte_mbuf *m,
		uint32_t ok, uint32_t plain, int32_t hop, uint16_t tot,
		uint16_t in_port, uint64_t *drops, uint16_t at,
		uint8_t *verdict, struct fwd_meta *md)
{
	if (ok) {
		fwd_rewrite_plain(fc, m, (uint16_t)hop, false);
		if (verdict != NULL)
			verdict[at] = FWD_PASS;
		if (md != NULL)
			fwd_meta_plain(&md[at], (uint16_t)hop, tot, false);
		fwd_out_pvt(pkts, b, a, m, (uint16_t)hop);
	} else if (!plain && fwd_plain6(fc, m, fwd_segs_port(in_port))) {
		memcpy(v6->ip[v6->n], rte_pktmbuf_mtod_offset(m, uint8_t *,
				RTE_ETHER_HDR_LEN +
				offsetof(struct rte_ipv6_hdr, dst_addr)), 16);
		v6->slot[v6->n] = a->nf;
		v6->at[v6->n++] = at;
		pkts[a->nf++] = m;
	} else {
		fwd_lane_slow(fc, pkts, b, a, m, in_port, drops, at, verdict,
				md);
	}
}

/*
 * The 4 packets from @p i on, their plain mask @p plain, ports @p hop and
 * IP lengths @p tot: a whole group out at once when all 4 pass (no branch
 * per lane), else lane by lane.
 */
static __rte_always_inline void
fwd_group_out(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		struct fwd_burst *b, struct fwd_acc_pvt *a,
		struct fwd_v6_pvt *v6, uint16_t i,
		uint32_t plain, const int32_t *hop, const uint16_t *tot,
		uint16_t in_port, uint64_t *drops, uint8_t *verdict,
		struct fwd_meta *md)
{
	struct rte_mbuf *m0 = pkts[i], *m1 = pkts[i + 1];
	struct rte_mbuf *m2 = pkts[i + 2], *m3 = pkts[i + 3];
	const uint32_t ok = plain & (fwd_hop_ok(hop[i]) |
			fwd_hop_ok(hop[i + 1]) << 1 |
			fwd_hop_ok(hop[i + 2]) << 2 |
			fwd_hop_ok(hop[i + 3]) << 3);
	uint16_t k;

	if (likely(ok == 0xf)) {
		fwd_rewrite_plain(fc, m0, (uint16_t)hop[i], false);
		fwd_rewrite_plain(fc, m1, (uint16_t)hop[i + 1], false);
		fwd_rewrite_plain(fc, m2, (uint16_t)hop[i + 2], false);
		fwd_rewrite_plain(fc, m3, (uint16_t)hop[i + 3], false);
		fwd_out_pvt(pkts, b, a, m0, (uint16_t)hop[i]);
		fwd_out_pvt(pkts, b, a, m1, (uint16_t)hop[i + 1]);
		fwd_out_pvt(pkts, b, a, m2, (uint16_t)hop[i + 2]);
		fwd_out_pvt(pkts, b, a, m3, (uint16_t)hop[i + 3]);
		for (k = 0; (verdict != NULL || md != NULL) && k < 4; k++) {
			if (verdict != NULL)
				verdict[i + k] = FWD_PASS;
			if (md != NULL)
				fwd_meta_plain(&md[i + k], (uint16_t)hop[i + k],
						tot[i + k], false);
		}
		return;
	}
	fwd_lane(fc, pkts, b, a, v6, m0, ok & 1, plain & 1, hop[i], tot[i],
			in_port, drops, i, verdict, md);
	fwd_lane(fc, pkts, b, a, v6, m1, ok & 2, plain & 2, hop[i + 1],
			tot[i + 1], in_port, drops, i + 1, verdict, md);
	fwd_lane(fc, pkts, b, a, v6, m2, ok & 4, plain & 4, hop[i + 2],
			tot[i + 2], in_port, drops, i + 2, verdict, md);
	fwd_lane(fc, pkts, b, a, v6, m3, ok & 8, plain & 8, hop[i + 3],
			tot[i + 3], in_port, drops, i + 3, verdict, md);
}

/* The plain mask of the 4 packets from @p g (their dst, tot written). */
static __rte_always_inline uint32_t
fwd_group_plain(const struct fwd_conf *fc, struct rte_mbuf *const *g,
		uint32_t want, enum fwd_ck ck, uint32_t *dst, uint16_t *tot)
{
	return fwd_plain4(fc, g[0], want, ck, &dst[0], &tot[0]) |
		fwd_plain4(fc, g[1], want, ck, &dst[1], &tot[1]) << 1 |
		fwd_plain4(fc, g[2], want, ck, &dst[2], &tot[2]) << 2 |
		fwd_plain4(fc, g[3], want, ck, &dst[3], &tot[3]) << 3;
}

/* The headers of the group after @p g (@p left: packets from @p g on). */
static __rte_always_inline void
fwd_group_prefetch_next(struct rte_mbuf *const *g, uint16_t left)
{
	uint16_t k;

	if (likely(left >= 2 * FWD_GROUP)) {
		rte_prefetch0(rte_pktmbuf_mtod(g[4], void *));
		rte_prefetch0(rte_pktmbuf_mtod(g[5], void *));
		rte_prefetch0(rte_pktmbuf_mtod(g[6], void *));
		rte_prefetch0(rte_pktmbuf_mtod(g[7], void *));
		return;
	}
	for (k = FWD_GROUP; k < left; k++)
		rte_prefetch0(rte_pktmbuf_mtod(g[k], void *));
}

/*
 * A plain packet whose place @p slot in the output was kept while its
 * port @p hop was looked up in bulk (IPv6, EM): rewritten into its
 * place, or the lane path. Returns 1 when it did not leave: its place
 * is NULL, to be closed up (fwd_close_pvt()).
 */
static __rte_always_inline uint16_t
fwd_slot_finish_pvt(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		struct fwd_burst *b, struct fwd_acc_pvt *a, uint16_t slot,
		int32_t hop, bool v6, uint32_t ip_len, uint16_t in_port,
		uint64_t *drops, uint16_t at, uint8_t *verdict,
		struct fwd_meta *md)
{
	struct rte_mbuf *m = pkts[slot];
	struct fwd_meta mdl;
	int v;

	if (likely(fwd_hop_ok(hop))) {
		fwd_rewrite_plain(fc, m, (uint16_t)hop, v6);
		fwd_meta_plain(&mdl, (uint16_t)hop, ip_len, v6);
		v = FWD_PASS;
	} else {
		v = fwd_lane_slow_pvt(fc, m, in_port, drops, &mdl);
	}
	if (verdict != NULL)
		verdict[at] = (uint8_t)v;
	if (md != NULL)
		md[at] = mdl;
	if (v == FWD_PASS) {
		b->dst[slot] = mdl.port;
		a->ports |= UINT64_C(1) << mdl.port;
		return 0;
	}
	/* Plain packets are within the MTU, never cut: a drop. */
	b->why[a->nd] = (uint8_t)v;
	b->drop[a->nd++] = m;
	pkts[slot] = NULL;
	return 1;
}

/* Close up the NULL places fwd_slot_finish_pvt() left in the output. */
static __rte_noinline void
fwd_close_pvt(struct rte_mbuf **pkts, struct fwd_burst *b,
		struct fwd_acc_pvt *a)
{
	uint16_t i, nf;

	for (i = 0, nf = 0; i < a->nf; i++) {
		if (pkts[i] == NULL)
			continue;
		b->dst[nf] = b->dst[i];
		pkts[nf++] = pkts[i];
	}
	a->nf = nf;
}

/* The counts of a burst into @p b once it is decided. */
static __rte_always_inline void
fwd_acc_store_pvt(struct fwd_burst *b, const struct fwd_acc_pvt *a)
{
	b->nf = a->nf;
	b->nd = a->nd;
	b->nfrag = a->nfrag;
	b->ports = a->ports;
}

/* The IPv6 packets after their bulk lookup: into their kept places;
 * the places of those that did not leave are closed up. @p b holds the
 * burst's counts (the caller's stay in registers: no address taken). */
static __rte_noinline void
fwd_v6_finish(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		struct fwd_burst *b, struct fwd_v6_pvt *v6, uint16_t in_port,
		uint64_t *drops, uint8_t *verdict, struct fwd_meta *md)
{
	struct fwd_acc_pvt a = { b->nf, b->nd, b->nfrag, b->ports };
	int32_t hop[FWD_BURST_MAX];
	uint16_t k, holes = 0;

	fwd_lookup6_bulk(fc, v6->ip, hop, v6->n);
	for (k = 0; k < v6->n; k++)
		holes += fwd_slot_finish_pvt(fc, pkts, b, &a, v6->slot[k],
				hop[k], true,
				pkts[v6->slot[k]]->pkt_len - RTE_ETHER_HDR_LEN,
				in_port, drops, v6->at[k], verdict, md);
	if (holes != 0)
		fwd_close_pvt(pkts, b, &a);
	fwd_acc_store_pvt(b, &a);
}

/**
 * @internal fwd_pkt_decide_burst() with test hooks: @p verdict and @p md
 * (NULL, or one entry per packet of the burst, in RX order) get what
 * fwd_pkt_decide() gives each packet; a malformed chain's verdict is
 * FWD_TRUNCATED (rx_bad), freed here.
 */
static __rte_always_inline void
fwd_pkt_decide_burst_pvt(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint16_t in_port, struct fwd_burst *b,
		uint64_t *drops, uint8_t *verdict, struct fwd_meta *md)
{
	const uint16_t ng = n & ~(FWD_GROUP - 1); /* in whole groups */
	const uint32_t want = fwd_segs_port(in_port);
	const bool hw = (fc->cksum_hw >> (in_port & 63)) & 1;
	uint32_t dst[FWD_BURST_MAX];
	uint16_t tot[FWD_BURST_MAX];
	int32_t hop[FWD_BURST_MAX];
	struct fwd_acc_pvt a = { 0, 0, 0, 0 };
	struct fwd_v6_pvt v6;
	uint64_t plain = 0;
	uint16_t i;

	v6.n = 0;
	for (i = 0; i < n && i < FWD_GROUP; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	if (fc->lookup == FWD_LOOKUP_LPM) {
		/* Checks, lookup and output of a group in one go. */
		for (i = 0; i < ng; i += FWD_GROUP) {
			struct rte_mbuf **g = pkts + i;
			uint32_t ok;

			fwd_group_prefetch_next(g, (uint16_t)(n - i));
			/* The checksum: once per burst, which way. */
			ok = hw ? fwd_group_plain(fc, g, want, FWD_CK_HW,
					&dst[i], &tot[i]) :
				fwd_group_plain(fc, g, want, FWD_CK_SUM,
					&dst[i], &tot[i]);
			/* Looked up whatever they are: a non-IPv4 lane
			 * reads 0. */
			fwd_lookup4x4(fc, &dst[i], &hop[i]);
			fwd_group_out(fc, pkts, b, &a, &v6, i, ok, hop, tot,
					in_port, drops, verdict, md);
		}
	} else {
		/* FIB: the checks, one bulk lookup, the output. */
		for (i = 0; i < ng; i += FWD_GROUP) {
			struct rte_mbuf **g = pkts + i;

			fwd_group_prefetch_next(g, (uint16_t)(n - i));
			plain |= (uint64_t)(hw ?
				fwd_group_plain(fc, g, want, FWD_CK_HW,
					&dst[i], &tot[i]) :
				fwd_group_plain(fc, g, want, FWD_CK_SUM,
					&dst[i], &tot[i])) << i;
		}
		if (ng != 0)
			fwd_lookup4_bulk(fc, dst, hop, ng);
		for (i = 0; i < ng; i += FWD_GROUP)
			fwd_group_out(fc, pkts, b, &a, &v6, i,
					(uint32_t)(plain >> i) & 0xf, hop, tot,
					in_port, drops, verdict, md);
	}
	/* The last n % 4, one at a time. */
	for (i = ng; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t ok = fwd_plain4(fc, m, want, hw ? FWD_CK_HW :
				FWD_CK_SUM, &dst[0], &tot[0]);

		hop[0] = ok ? fwd_lookup4(fc, dst[0]) : -1;
		fwd_lane(fc, pkts, b, &a, &v6, m, ok & fwd_hop_ok(hop[0]),
				ok, hop[0], tot[0], in_port, drops, i, verdict,
				md);
	}
	fwd_acc_store_pvt(b, &a);
	if (unlikely(v6.n != 0))
		fwd_v6_finish(fc, pkts, b, &v6, in_port, drops, verdict, md);
}

/**
 * fwd_pkt_decide() of every packet of a burst received on @p in_port,
 * in one pass (see the file's comment), the RX checks of app_rx_burst()
 * with them (the burst comes from app_rx_burst_unchecked()): what each
 * packet gets, the drop counts and the bytes of a rewritten packet are
 * those of fwd_pkt_decide() one by one.
 *
 * @param pkts
 *   The burst, in RX order. On return its first b->nf entries are the
 *   forwarded packets, rewritten, in RX order; the rest is undefined.
 * @param n
 *   Packets in @p pkts: 0 .. FWD_BURST_MAX.
 * @param in_port
 *   The port they came in on (their RX queue's).
 * @param[out] b
 *   The forwarded packets' ports, the port mask, the dropped packets
 *   (each counted in @p drops, for the caller to free; a malformed
 *   chain is counted as rx_bad and freed here).
 * @param drops
 *   Drop counters of the input port (fwd_pkt_decide()).
 */
static __rte_always_inline void
fwd_pkt_decide_burst(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint16_t in_port, struct fwd_burst *b,
		uint64_t *drops)
{
	fwd_pkt_decide_burst_pvt(fc, pkts, n, in_port, b, drops, NULL, NULL);
}

#endif /* FWD_GROUP_H */
