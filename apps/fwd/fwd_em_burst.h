/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_EM_BURST_H
#define FWD_EM_BURST_H

/**
 * @file
 * fwd_pkt_decide_burst() for --lookup em: the plain packets of a burst
 * (fwd_plain4(), fwd_plain6()) keyed and looked up together, one
 * rte_hash_lookup_bulk_data() per family as l3fwd's EM path
 * (l3fwd_em_hlm.h) does; a miss goes back out of the receiving port. Any
 * other packet takes fwd_classify(), whose lookup is the same
 * (fwd_em_lookup4(), fwd_em_lookup6()): the verdicts, counters and bytes
 * are those of fwd_pkt_decide() one by one.
 */

#include "fwd_em.h"
#include "fwd_group.h"

/* A plain packet's verdict once its port @p hop is known. */
static __rte_always_inline uint8_t
fwd_em_finish(const struct fwd_conf *fc, struct rte_mbuf *m, int32_t hop,
		bool v6, uint32_t ip_len, struct fwd_meta *md, uint64_t *drops)
{
	if (likely(fwd_hop_ok(fc, hop))) {
		fwd_rewrite_plain(fc, m, (uint16_t)hop, v6, md, ip_len);
		return FWD_PASS;
	}
	return (uint8_t)fwd_pkt_decide_slow(fc, m, md, drops);
}

static __rte_always_inline void
fwd_em_decide_burst(const struct fwd_conf *fc, struct rte_mbuf **pkts,
		uint16_t n, uint8_t *verdict, struct fwd_meta *md,
		uint64_t *drops)
{
	struct fwd_em_key4 k4[FWD_BURST_MAX];
	struct fwd_em_key6 k6[FWD_BURST_MAX];
	const void *kp[FWD_BURST_MAX];
	void *data[FWD_BURST_MAX];
	uint16_t at4[FWD_BURST_MAX], at6[FWD_BURST_MAX], tot[FWD_BURST_MAX];
	uint16_t i, k, n4 = 0, n6 = 0;
	uint64_t hit = 0;
	uint32_t dst;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *l3 = rte_pktmbuf_mtod_offset(m, const uint8_t *,
				RTE_ETHER_HDR_LEN);

		if (fwd_plain4(fc, m, &dst, &tot[n4])) {
			fwd_em_key4((const struct rte_ipv4_hdr *)l3, tot[n4],
					&k4[n4]);
			at4[n4++] = i;
		} else if (fwd_plain6(fc, m)) {
			fwd_em_key6((const struct rte_ipv6_hdr *)l3,
					m->pkt_len - RTE_ETHER_HDR_LEN,
					&k6[n6]);
			at6[n6++] = i;
		} else {
			verdict[i] = (uint8_t)fwd_pkt_decide_slow(fc, m,
					&md[i], drops);
		}
	}
	if (n4 != 0) {
		for (k = 0; k < n4; k++)
			kp[k] = &k4[k];
		rte_hash_lookup_bulk_data(fc->em4, kp, n4, &hit, data);
	}
	for (k = 0; k < n4; k++) {
		struct rte_mbuf *m = pkts[at4[k]];

		verdict[at4[k]] = fwd_em_finish(fc, m, (hit >> k) & 1 ?
				(int32_t)(uintptr_t)data[k] : (int32_t)m->port,
				false, tot[k], &md[at4[k]], drops);
	}
	if (n6 == 0)
		return;
	for (k = 0; k < n6; k++)
		kp[k] = &k6[k];
	rte_hash_lookup_bulk_data(fc->em6, kp, n6, &hit, data);
	for (k = 0; k < n6; k++) {
		struct rte_mbuf *m = pkts[at6[k]];

		verdict[at6[k]] = fwd_em_finish(fc, m, (hit >> k) & 1 ?
				(int32_t)(uintptr_t)data[k] : (int32_t)m->port,
				true, m->pkt_len - RTE_ETHER_HDR_LEN, &md[at6[k]],
				drops);
	}
}

#endif /* FWD_EM_BURST_H */
