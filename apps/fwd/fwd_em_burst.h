/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_EM_BURST_H
#define FWD_EM_BURST_H

/**
 * @file
 * fwd_pkt_decide_burst() for --lookup em, in one pass as the LPM path:
 * the plain packets of a burst (fwd_plain4(), fwd_plain6(): the RX checks
 * with them) are keyed, their places in the output kept, and looked up
 * together, one rte_hash_lookup_bulk_data() per family as l3fwd's EM path
 * (l3fwd_em_hlm.h) does; a miss goes back out of the receiving port. Any
 * other packet takes the lane path (fwd_classify(), whose lookup is the
 * same: fwd_em_lookup4(), fwd_em_lookup6()): the verdicts, counters and
 * bytes are those of fwd_pkt_decide() one by one.
 */

#include "fwd_em.h"
#include "fwd_group.h"

/* The port of a plain packet from the bulk lookup: its entry, or on a
 * miss the port it came in on (l3fwd). */
static __rte_always_inline int32_t
fwd_em_hop_pvt(uint64_t hit, uint16_t k, void *const *data,
		uint16_t in_port)
{
	return (hit >> k) & 1 ? (int32_t)(uintptr_t)data[k] :
		(int32_t)in_port;
}

/* fwd_em_decide_burst_pvt() with its checksum test @p ck, a constant. */
static __rte_always_inline void
fwd_em_decide_ck_pvt(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint16_t in_port, struct fwd_burst *b,
		uint64_t *drops, uint8_t *verdict, struct fwd_meta *md,
		enum fwd_ck ck)
{
	const uint32_t want = fwd_segs_port(in_port);
	struct fwd_em_key4 k4[FWD_BURST_MAX];
	struct fwd_em_key6 k6[FWD_BURST_MAX];
	const void *kp[FWD_BURST_MAX];
	void *data[FWD_BURST_MAX];
	uint16_t s4[FWD_BURST_MAX], at4[FWD_BURST_MAX], tot[FWD_BURST_MAX];
	uint16_t s6[FWD_BURST_MAX], at6[FWD_BURST_MAX];
	struct fwd_acc_pvt a = { 0, 0, 0, 0 };
	uint16_t i, k, n4 = 0, n6 = 0, holes = 0;
	uint64_t hit = 0;
	uint32_t dst;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *l3 = rte_pktmbuf_mtod_offset(m, const uint8_t *,
				RTE_ETHER_HDR_LEN);

		/* A plain packet keeps its place: pkts[a.nf], a.nf <= i. */
		if (fwd_plain4(fc, m, want, ck, &dst, &tot[n4])) {
			/* Plain: a 20-byte header. */
			fwd_em_key4_ihl((const struct rte_ipv4_hdr *)l3,
					tot[n4], sizeof(struct rte_ipv4_hdr),
					&k4[n4]);
			s4[n4] = a.nf;
			at4[n4++] = i;
			pkts[a.nf++] = m;
		} else if (fwd_plain6(fc, m, want)) {
			fwd_em_key6((const struct rte_ipv6_hdr *)l3,
					m->pkt_len - RTE_ETHER_HDR_LEN,
					&k6[n6]);
			s6[n6] = a.nf;
			at6[n6++] = i;
			pkts[a.nf++] = m;
		} else {
			fwd_lane_slow(fc, pkts, b, &a, m, in_port, drops, i,
					verdict, md);
		}
	}
	if (n4 != 0) {
		for (k = 0; k < n4; k++)
			kp[k] = &k4[k];
		rte_hash_lookup_bulk_data(fc->em4, kp, n4, &hit, data);
		for (k = 0; k < n4; k++)
			holes += fwd_slot_finish_pvt(fc, pkts, b, &a, s4[k],
					fwd_em_hop_pvt(hit, k, data, in_port),
					false, tot[k], in_port, drops, at4[k],
					verdict, md);
	}
	if (unlikely(n6 != 0)) {
		for (k = 0; k < n6; k++)
			kp[k] = &k6[k];
		rte_hash_lookup_bulk_data(fc->em6, kp, n6, &hit, data);
		for (k = 0; k < n6; k++)
			holes += fwd_slot_finish_pvt(fc, pkts, b, &a, s6[k],
					fwd_em_hop_pvt(hit, k, data, in_port),
					true, pkts[s6[k]]->pkt_len -
					RTE_ETHER_HDR_LEN, in_port, drops,
					at6[k], verdict, md);
	}
	if (unlikely(holes != 0))
		fwd_close_pvt(pkts, b, &a);
	fwd_acc_store_pvt(b, &a);
}

/**
 * @internal fwd_em_decide_burst() with the test hooks of
 * fwd_pkt_decide_burst_pvt(): the checksum test chosen once a burst.
 */
static __rte_always_inline void
fwd_em_decide_burst_pvt(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint16_t in_port, struct fwd_burst *b,
		uint64_t *drops, uint8_t *verdict, struct fwd_meta *md)
{
	if ((fc->cksum_hw >> (in_port & 63)) & 1)
		fwd_em_decide_ck_pvt(fc, pkts, n, in_port, b, drops, verdict,
				md, FWD_CK_HW);
	else
		fwd_em_decide_ck_pvt(fc, pkts, n, in_port, b, drops, verdict,
				md, FWD_CK_SUM);
}

/**
 * fwd_pkt_decide_burst() for --lookup em: the same contract (see
 * fwd_group.h), the plain packets looked up in bulk in the EM tables.
 */
static __rte_always_inline void
fwd_em_decide_burst(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint16_t in_port, struct fwd_burst *b,
		uint64_t *drops)
{
	fwd_em_decide_burst_pvt(fc, pkts, n, in_port, b, drops, NULL, NULL);
}

#endif /* FWD_EM_BURST_H */
