/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A burst through npool-fwd's pipeline (fwd_burst.h): which pass runs
 * (lookup, checksum, copy-break: chosen once a burst) and the router's
 * answers to the drops.
 */
#include <rte_ethdev.h>

#include "npool.h"
#include "npool_rx.h"
#include "fwd_burst.h"
#include "fwd_icmp.h"
#include "fwd_pass.h"
#include "fwd_reply.h"

/* The pass of the burst's lookup, with @p ck and @p copy; frames to
 * other MACs on it with --forward-otherhost. */
static __rte_always_inline void
fwd_pass(struct fwd_ctx *c, struct rte_mbuf **pkts, uint16_t n,
		const enum fwd_pass_ck ck, const bool copy)
{
	const bool oh = c->t->forward_otherhost;

	if (likely(c->t->lookup == FWD_LOOKUP_LPM)) {
		if (unlikely(oh))
			fwd_pass_lpm(c, pkts, n, ck, copy, true);
		else
			fwd_pass_lpm(c, pkts, n, ck, copy, false);
	} else if (unlikely(oh)) {
		fwd_pass_bulk(c, pkts, n, ck, copy, true);
	} else {
		fwd_pass_bulk(c, pkts, n, ck, copy, false);
	}
}

/* The checksum way of a burst: summed on a port whose PMD does not
 * check, else the PMD's word; when every packet has GOOD (one AND over
 * the burst, as VPP's ip4-input-no-checksum), no packet is looked at for
 * it. */
static enum fwd_pass_ck
fwd_pass_ck_of(const struct fwd_ctx *c, struct rte_mbuf *const *pkts,
		uint16_t n)
{
	uint64_t all = RTE_MBUF_F_RX_IP_CKSUM_MASK;
	uint16_t i;

	if (!((c->t->cksum_hw >> (c->in_port & 63)) & 1))
		return FWD_PASS_CK_SUM;
	for (i = 0; i < n; i++)
		all &= pkts[i]->ol_flags ^ RTE_MBUF_F_RX_IP_CKSUM_BAD;
	/* GOOD ^ BAD = both bits: every packet GOOD. */
	return all == RTE_MBUF_F_RX_IP_CKSUM_MASK ? FWD_PASS_CK_HW :
		FWD_PASS_CK_FLAGS;
}

void
fwd_burst_decide(struct fwd_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	const enum fwd_pass_ck ck = fwd_pass_ck_of(c, pkts, n);
	struct npool_rx_cb cb;

	c->nslow = 0;
	c->nd = 0;
	c->cb = NULL;
	if (ck == FWD_PASS_CK_HW)
		c->ic->ev[FWD_EV_CKSUM_PMD] += n;
	if (unlikely(c->t->copybreak != 0)) {
		/* In the pass where the lcore can, else before it. */
		if (npool_rx_copybreak_begin(&cb, pkts, n,
				c->t->copybreak) == 0) {
			c->cb = &cb;
			if (ck == FWD_PASS_CK_SUM)
				fwd_pass(c, pkts, n, FWD_PASS_CK_SUM, true);
			else if (ck == FWD_PASS_CK_HW)
				fwd_pass(c, pkts, n, FWD_PASS_CK_HW, true);
			else
				fwd_pass(c, pkts, n, FWD_PASS_CK_FLAGS, true);
			npool_rx_copybreak_end(&cb);
			c->cb = NULL;
			c->ic->fwd += n - c->nslow;
			return;
		}
		npool_rx_copybreak(pkts, n, c->t->copybreak);
	}
	if (likely(ck == FWD_PASS_CK_SUM))
		fwd_pass(c, pkts, n, FWD_PASS_CK_SUM, false);
	else if (ck == FWD_PASS_CK_HW)
		fwd_pass(c, pkts, n, FWD_PASS_CK_HW, false);
	else
		fwd_pass(c, pkts, n, FWD_PASS_CK_FLAGS, false);
	/* The slow path counted what it forwarded. */
	c->ic->fwd += n - c->nslow;
}

void
fwd_burst_drops(struct fwd_ctx *c)
{
	const struct fwd_addrs *a = c->t->addrs;
	uint64_t held = 0;
	int empty = -1; /* not looked at yet */
	struct rte_mbuf *r;
	uint16_t i;

	if (c->nd == 0)
		return;
	for (i = 0; a != NULL && a->ports != 0 && i < c->nd; i++) {
		const uint32_t bit = UINT32_C(1) << (c->why[i] & 31);

		if (c->why[i] >= 32 || !(FWD_LOCAL_VERDICTS & bit))
			continue;
		if (FWD_ICMP_LIMITED & bit) {
			if (empty < 0)
				empty = fwd_icmp_rl_empty(c->t, c->in_port);
			if (empty) {
				held++;
				continue;
			}
		}
		r = fwd_local_input(c->t, c->ic, c->drop[i], c->why[i],
				c->in_port);
		if (r != NULL)
			fwd_tx_put(c, c->in_port, r);
	}
	c->ic->ev[FWD_EV_RATELIMITED] += held;
	npool_napi_consume_bulk(c->drop, c->nd);
	c->nd = 0;
}
