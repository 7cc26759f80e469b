/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_PASS_H
#define FWD_PASS_H

/**
 * @file
 * npool-fwd's one pass over a burst: each packet is read once, checked in
 * registers and, when it is plain IPv4, rewritten and put on the TX buffer
 * of its next hop (fwd_nh.h: a port's, or the hold buffer of packets
 * waiting for a neighbour), with one branch: plain or not. A packet is plain when it is
 * one whole segment received on the burst's port, addressed to that
 * port's own MAC, untagged IPv4 with IHL 5, total length at least 20 and
 * within the frame (Ethernet padding after it is cut) and the MTU, TTL
 * above 1, neither address a martian (the source's first octet not 0, 127
 * or 224..255, its last none of the router's addresses'; the destination
 * by its route), the header checksum
 * right (summed with wide adds, or the PMD's word: fwd_rx_cksum()), and
 * its route's next hop one of the next-hop table (the tables hold
 * FWD_HOP_BAD for a route to a port not enabled: one compare). Its TTL
 * and checksum are updated as one 32-bit word (RFC 1624), its MACs with
 * a 12-byte copy from the next hop's object (an 8- and a 4-byte move: no
 * register kept for the frame's first 16 bytes past the compare, no mask
 * to merge the EtherType back, as l3fwd's 16-byte store needs). Anything
 * else goes to the slow path (fwd_slow()), which takes IPv6 and checks
 * the rest one packet at a time; the verdict, the counters and the bytes
 * of a packet do not depend on which way it went.
 *
 * With --lookup lpm the route is looked up in the same pass, the tbl24
 * entry read and tested in line (rte_lpm_lookup()); with fib and em the
 * plain packets' keys are gathered and looked up in one
 * rte_fib_lookup_bulk() / rte_hash_lookup_bulk_data(), as l3fwd does,
 * then a second loop sends each packet in RX order.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>
#ifdef RTE_ARCH_X86
#include <rte_vect.h>
#endif

#include "npool_rx.h"
#include "fwd_check.h"
#include "fwd_ctx.h"
#include "fwd_em_key.h"
#include "fwd_lookup.h"
#include "fwd_slow.h"

/** How a pass takes the IPv4 header checksum, chosen once a burst. */
enum fwd_pass_ck {
	FWD_PASS_CK_SUM,   /**< summed: the port's PMD does not check */
	FWD_PASS_CK_HW,    /**< every packet of the burst has GOOD */
	FWD_PASS_CK_FLAGS, /**< per packet: GOOD taken, BAD fails, else sum */
};

/** 16 bytes in a SIMD register where the CPU has them (GCC vectors). */
typedef uint8_t fwd_v16 __attribute__((vector_size(16)));

/* Read in place of a frame too short for the pass, or too long for the
 * MTU: it fails the tests (EtherType 0), and no byte past a frame's data
 * is read. */
static const uint8_t fwd_no_hdr[RTE_ETHER_HDR_LEN +
		sizeof(struct rte_ipv4_hdr)] __rte_aligned(16);

/* Where nb_segs and port sit in the rearm word (npool_mbuf.h). */
#define FWD_SEGS_PORT_SHIFT \
	RTE_MIN(NPOOL_MBUF_NB_SEGS_SHIFT, NPOOL_MBUF_PORT_SHIFT)
/* Where refcnt, nb_segs and port sit. */
#define FWD_LONE_PORT_SHIFT \
	RTE_MIN(NPOOL_MBUF_REFCNT_SHIFT, FWD_SEGS_PORT_SHIFT)

/* With --forward-otherhost, the bits of a frame's first 16 bytes the
 * compare sees: the destination's group bit, the EtherType, version and
 * IHL. */
static const fwd_v16 fwd_oh16 = {
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0
};

/** What a pass keeps for a whole burst. */
struct fwd_pass_k {
	/** t->rx16[in_port]; with --forward-otherhost ANDed with fwd_oh16
	 * (a port's MAC is unicast: the group bit is 0 there). */
	fwd_v16 rx16;
	/** nb_segs 1 and the port at their places in the rearm word
	 * (refcnt 1 too with copy-break), XORed with it at once. */
	uint64_t segs_port;
	uint64_t lone_port;
	uint32_t len_max;      /**< MTU + 14: the longest frame taken */
	const struct rte_lpm *lpm;
	const struct fwd_nht *nht;
	const struct fwd_tables *t;
	struct fwd_tx *tx;
};

/** What the checks of one packet read, for its rewrite. */
struct fwd_fast4 {
	uint64_t rearm; /**< data_off, refcnt, nb_segs, port */
	uint32_t len;   /**< pkt_len (data_len: one segment) */
	uint8_t *p;     /**< the frame */
	fwd_v16 h;      /**< its first 16 bytes */
	uint32_t w;     /**< IP bytes 8..11: TTL, protocol, checksum */
	uint32_t tot;   /**< IP total length */
	uint32_t dst;   /**< destination, host order */
};

static __rte_always_inline void
fwd_pass_k_init(struct fwd_pass_k *k, const struct fwd_ctx *c, const bool oh)
{
	const struct fwd_tables *t = c->t;

	memcpy(&k->rx16, t->rx16[c->in_port], sizeof(k->rx16));
	if (oh)
		k->rx16 &= fwd_oh16;
	k->segs_port = NPOOL_MBUF_REARM(0, 0, 1, c->in_port);
	k->lone_port = NPOOL_MBUF_REARM(0, 1, 1, c->in_port);
	k->len_max = RTE_ETHER_HDR_LEN + (uint32_t)t->mtu;
	k->lpm = t->lpm4;
	k->nht = t->nht;
	k->t = t;
	k->tx = c->tx;
}

/* A bit per byte of @p x equal to @p y's. */
static __rte_always_inline uint32_t
fwd_v16_eq_bits(fwd_v16 x, fwd_v16 y)
{
#ifdef RTE_ARCH_X86
	return (uint32_t)_mm_movemask_epi8((__m128i)(x == y));
#else
	uint32_t bits = 0, i;

	for (i = 0; i < 16; i++)
		bits |= (uint32_t)(x[i] == y[i]) << i;
	return bits;
#endif
}

/* The IPv4 destination of frame @p p, host order. */
static __rte_always_inline uint32_t
fwd_fast4_dst(const uint8_t *p)
{
	uint32_t d;

	memcpy(&d, p + RTE_ETHER_HDR_LEN + 16, sizeof(d));
	return rte_be_to_cpu_32(d);
}

/* fwd_fast4_dst() read again where it is rarely needed: a volatile read,
 * so that the compiler keeps no register for it from the checks (it
 * holds only dst >> 8 there, the tbl24 index). */
static __rte_always_inline uint32_t
fwd_fast4_dst_again(const uint8_t *p)
{
	const volatile uint8_t *d = p + RTE_ETHER_HDR_LEN + 16;

	return (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 |
		(uint32_t)d[2] << 8 | d[3];
}

/*
 * The checks of one packet, without a branch: 0 when @p m is plain IPv4
 * (the route aside), with what the rewrite needs in @p f. The nb_segs and
 * port words (one load with data_off, one XOR), pkt_len against data_len, the
 * 16-byte compare of destination MAC, EtherType and version/IHL, the
 * lengths (a frame no longer than MTU + 14 holds no IP packet above the
 * MTU: a longer one is not read) and TTL, the first octet of the source in
 * a table (the destination's is the route's: the tables give 0/8, 127/8,
 * 224/4 and 255.255.255.255 a next hop that is no port, FWD_HOP_MARTIAN)
 * and its last in another (none of the router's addresses ends so), the
 * checksum as @p ck says. With @p oh (--forward-otherhost) the
 * destination MAC may be any unicast one. With @p lone (copy-break) refcnt
 * 1 too, in the same compare: a shared packet takes the slow path, which
 * forwards it uncopied (npool_rx_copybreak_pkt()).
 */
static __rte_always_inline uint64_t
fwd_fast4_check(const struct fwd_pass_k *k, const struct rte_mbuf *m,
		struct fwd_fast4 *f, const enum fwd_pass_ck ck, const bool oh,
		const bool lone)
{
	const uint32_t len = m->pkt_len;
	uint32_t s;
	uint64_t bad, len34;
	uint64_t rearm;
	uint32_t t32;
	int64_t neg;
	uint8_t *p;

	rearm = npool_mbuf_rearm(m);
	f->rearm = rearm;
	f->len = len;
	/* The mbuf's words first, done with early. 48 bits with refcnt:
	 * the difference itself, no compare. */
	if (lone)
		bad = (rearm ^ k->lone_port) >> FWD_LONE_PORT_SHIFT;
	else
		bad = (uint32_t)((rearm ^ k->segs_port) >>
				FWD_SEGS_PORT_SHIFT);
	bad |= len ^ m->data_len;
	p = (uint8_t *)m->buf_addr +
		(uint16_t)(rearm >> NPOOL_MBUF_DATA_OFF_SHIFT);
	/* A frame shorter than the headers read, or longer than MTU + 14
	 * (it holds no IP packet within the MTU): read in its place. */
	len34 = (uint64_t)len - sizeof(fwd_no_hdr);
	if (len34 > k->len_max - sizeof(fwd_no_hdr))
		p = (uint8_t *)(uintptr_t)fwd_no_hdr;
	memcpy(&f->h, p, sizeof(f->h));
	/* The total length with the ID after it: one 32-bit swap. */
	memcpy(&t32, p + RTE_ETHER_HDR_LEN + 2, sizeof(t32));
	memcpy(&f->w, p + RTE_ETHER_HDR_LEN + 8, sizeof(f->w));
	f->p = p;
	f->tot = rte_be_to_cpu_32(t32) >> 16;
	f->dst = fwd_fast4_dst(p);
	/* With --forward-otherhost (@p oh) any unicast destination MAC:
	 * of the MAC only the group bit of its first byte is compared (0),
	 * in the same compare. */
	bad |= ~fwd_v16_eq_bits(oh ? f->h & fwd_oh16 : f->h, k->rx16) &
		(oh ? FWD_RX16_MASK_OH : FWD_RX16_MASK);
	/* The first octet of the source; its last is none of the router's
	 * addresses' (fwd_addr_own4()). Both tables from one base. */
	bad |= (uint32_t)k->t->src_odd4[p[RTE_ETHER_HDR_LEN + 12]];
	bad |= (uint32_t)k->t->own4_octet[p[RTE_ETHER_HDR_LEN + 15]];
	/* Negative when wrong, each a 64-bit difference, one sign bit
	 * tested for all: 20 <= total length <= frame - 14 (padding may
	 * follow; the frame is at least 34 bytes, else negative too), TTL >
	 * 1, and a summed checksum right. */
	neg = (int64_t)len34 -
		(int64_t)(uint32_t)(f->tot - sizeof(struct rte_ipv4_hdr));
	neg |= (int64_t)(uint8_t)f->w - 2;
	if (ck != FWD_PASS_CK_HW) {
		/* Version and IHL are checked: the sum is not 0. */
		s = fwd_sum20(p + RTE_ETHER_HDR_LEN);
		if (ck == FWD_PASS_CK_SUM) {
			neg |= fwd_sum20_neg(s);
		} else {
			const uint64_t fl = m->ol_flags &
				RTE_MBUF_F_RX_IP_CKSUM_MASK;

			bad |= (fl == RTE_MBUF_F_RX_IP_CKSUM_BAD) |
				((fl != RTE_MBUF_F_RX_IP_CKSUM_GOOD) &
				 !fwd_sum20_ok(s));
		}
	}
	return bad | (uint64_t)neg >> 63;
}

/*
 * A plain packet @p m out by next hop @p hop: copy-broken with @p cb, its
 * MACs, TTL and checksum rewritten, cut to its IP length, on the next
 * hop's TX buffer (room for it is kept: fwd_tx_put()).
 */
static __rte_always_inline void
fwd_fast4_out(const struct fwd_pass_k *k, struct npool_rx_cb *cb,
		struct rte_mbuf *m, const struct fwd_fast4 *f, uint32_t hop)
{
	const uint32_t len = RTE_ETHER_HDR_LEN + f->tot;
	const struct fwd_nh *nh = fwd_nh_get(k->nht, hop);
	struct fwd_tx *tx = k->tx;
	uint8_t *p = f->p;
	struct rte_mbuf **q;
	uint32_t w;

	/* Copy-break: the test npool_rx_copybreak_pkt() makes that the
	 * checks have not (they took refcnt 1 with @p cb), the length. */
	if (cb != NULL && f->len <= cb->copybreak)
		m = npool_rx_copybreak_copy(cb, m, f->len, f->rearm,
				(char **)&p);
	/* Both MACs, 12 bytes: the EtherType and on are not written. */
	memcpy(p, nh->eth16, 2 * RTE_ETHER_ADDR_LEN);
	/* TTL, protocol and checksum as one word: TTL - 1, the checksum +
	 * 0x0100 with end-around carry, 0xffff folding to 0 (RFC 1624; its
	 * bytes in memory order: the low half of the checksum comes
	 * first). */
	w = f->w;
	w += 0xffffu + ((uint32_t)(w >= 0xfffe0000u) << 16);
	memcpy(p + RTE_ETHER_HDR_LEN + 8, &w, sizeof(w));
	m->pkt_len = len;
	m->data_len = (uint16_t)len;
	q = tx->tail[nh->tx];
	*q = m;
	tx->tail[nh->tx] = q + 1;
}

/** The bits of an rte_lpm tbl24 entry that the pass tests at once: valid,
 * not extended to a tbl8 group, a next hop below FWD_NH_MAX. */
#define FWD_LPM_FAST_MASK (RTE_LPM_VALID_EXT_ENTRY_BITMASK | \
		(0x00ffffffu & ~(FWD_NH_MAX - 1)))

/* The next hop of a tbl24 entry the one test did not pass: the tbl8 step of
 * rte_lpm_lookup(), or the default route. */
static __rte_always_inline uint32_t
fwd_lpm_hop(const struct fwd_pass_k *k, uint32_t dst)
{
	uint32_t nh;

	return rte_lpm_lookup(k->lpm, dst, &nh) == 0 ? nh :
		(uint32_t)k->t->def4;
}

/** The pass with --lookup lpm: checks, lookup and output of each packet
 * in one loop, the tbl24 entry read and tested with the checks. @p ck,
 * @p copy and @p oh are constants. */
static __rte_always_inline void
fwd_pass_lpm(struct fwd_ctx *c, struct rte_mbuf **pkts, uint16_t n,
		const enum fwd_pass_ck ck, const bool copy, const bool oh)
{
	struct npool_rx_cb *cb = copy ? c->cb : NULL;
	struct fwd_pass_k k;
	uint16_t i;

	fwd_pass_k_init(&k, c, oh);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct fwd_fast4 f;
		uint32_t e, hop;
		uint64_t bad;

		bad = fwd_fast4_check(&k, m, &f, ck, oh, copy);
		memcpy(&e, &k.lpm->tbl24[f.dst >> 8], sizeof(e));
		if (unlikely(bad | ((e & FWD_LPM_FAST_MASK) ^
				RTE_LPM_LOOKUP_SUCCESS))) {
			/* A tbl8 group or the default route, or not
			 * plain. */
			hop = bad == 0 ? fwd_lpm_hop(&k,
					fwd_fast4_dst_again(f.p)) :
				FWD_HOP_BAD;
			if (!fwd_hop_odd(hop))
				fwd_fast4_out(&k, cb, m, &f, hop);
			else
				fwd_slow(c, m);
			continue;
		}
		fwd_fast4_out(&k, cb, m, &f, e & (FWD_NH_MAX - 1));
	}
}

/* The frame of a plain packet again, for its rewrite after a bulk
 * lookup. */
static __rte_always_inline void
fwd_fast4_reload(const struct rte_mbuf *m, struct fwd_fast4 *f)
{
	uint16_t tot;

	f->rearm = npool_mbuf_rearm(m);
	f->len = m->pkt_len;
	f->p = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(&f->h, f->p, sizeof(f->h));
	memcpy(&f->w, f->p + RTE_ETHER_HDR_LEN + 8, sizeof(f->w));
	memcpy(&tot, f->p + RTE_ETHER_HDR_LEN + 2, sizeof(tot));
	f->tot = rte_be_to_cpu_16(tot);
}

/** The pass with --lookup fib or em: the checks and keys of the plain
 * packets, one bulk lookup, then each packet in RX order. */
static __rte_always_inline void
fwd_pass_bulk(struct fwd_ctx *c, struct rte_mbuf **pkts, uint16_t n,
		const enum fwd_pass_ck ck, const bool copy, const bool oh)
{
	struct npool_rx_cb *cb = copy ? c->cb : NULL;
	const bool em = c->t->lookup == FWD_LOOKUP_EM;
	struct fwd_em_key4 k4[FWD_BURST_MAX];
	const void *kp[FWD_BURST_MAX];
	void *data[FWD_BURST_MAX];
	uint64_t nh[FWD_BURST_MAX];
	uint32_t dst[FWD_BURST_MAX];
	uint64_t plain = 0, hit = 0;
	struct fwd_pass_k k;
	uint16_t i, nk = 0;

	fwd_pass_k_init(&k, c, oh);
	for (i = 0; i < n; i++) {
		struct fwd_fast4 f;

		/* EM has no martian routes: the destination's first
		 * octet too. */
		if ((fwd_fast4_check(&k, pkts[i], &f, ck, oh, copy) |
				(em ? k.t->src_odd4[f.p[RTE_ETHER_HDR_LEN +
				16]] : 0)) != 0)
			continue;
		plain |= UINT64_C(1) << i;
		if (em) {
			fwd_em_key4_ihl((const struct rte_ipv4_hdr *)(f.p +
					RTE_ETHER_HDR_LEN), f.tot,
					sizeof(struct rte_ipv4_hdr), &k4[nk]);
			kp[nk] = &k4[nk];
		} else {
			dst[nk] = f.dst;
		}
		nk++;
	}
	if (nk != 0) {
		if (em)
			rte_hash_lookup_bulk_data(c->t->em4, kp, nk, &hit,
					data);
		else
			rte_fib_lookup_bulk(c->t->fib4, dst, nh, nk);
	}
	for (i = 0, nk = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct fwd_fast4 f;
		uint32_t hop;

		if ((plain >> i) & 1) {
			/* EM: a miss goes back out of the port it came in
			 * on (l3fwd); FIB: FWD_FIB_MISS is the default. */
			hop = em ? ((hit >> nk) & 1 ?
					(uint32_t)(uintptr_t)data[nk] :
					c->in_port) :
				(uint32_t)fwd_fib_hop(nh[nk], c->t->def4);
			nk++;
			if (likely(!fwd_hop_odd(hop))) {
				fwd_fast4_reload(m, &f);
				fwd_fast4_out(&k, cb, m, &f, hop);
				continue;
			}
		}
		fwd_slow(c, m);
	}
}

#endif /* FWD_PASS_H */
