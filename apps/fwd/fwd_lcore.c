/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding loop of one lcore: RX bursts from its queues (--config),
 * copy-break, then the RX checks, checks and rewrite of the burst in one
 * pass in groups of 4 (fwd_group.h: plain IPv4 and IPv6, anything else
 * through the full checks), which writes out the forwarded packets,
 * their ports and the port mask; a burst that all goes to one port is
 * sent as it is (no copy, one TX call), else through per-port TX
 * buffers flushed when full and at the end of each poll round; counters
 * added once per burst; dropped packets released in one
 * npool_napi_consume_bulk() per burst.
 */
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "npool.h"
#include "app_numa.h"
#include "app_port.h"
#include "app_run.h"
#include "app_rx.h"
#include "app_stats.h"
#include "fwd.h"
#include "fwd_em_burst.h"
#include "fwd_group.h"
#include "fwd_icmp.h"
#include "fwd_mcast.h"

struct fwd_txb {
	uint16_t n;
	struct rte_mbuf *m[APP_BURST];
};

struct fwd_lcore {
	const struct fwd_conf *fc;
	struct app_lcore_ctr *ctr;
	uint16_t txq;
	uint64_t pending;   /* bit per port with buffered packets */
	struct fwd_txb tx[RTE_MAX_ETHPORTS];
} __rte_cache_aligned;

static struct fwd_lcore fwd_lcores[RTE_MAX_LCORE];

/* The TX queue of @p port did not take them: dropped, on the port they
 * came in; a multicast copy counted on @p port (its packet was counted
 * forwarded once, fwd_mcast.h). */
static __rte_noinline void
fwd_tx_unsent(struct fwd_lcore *fl, uint16_t port, struct rte_mbuf **m,
		uint16_t n)
{
	struct app_port_ctr *c;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (m[i]->port == FWD_PORT_MCAST)
			fl->ctr->port[port].ev[FWD_EV_MC_TX_FULL]++;
		if (m[i]->port >= RTE_MAX_ETHPORTS)
			continue;
		c = &fl->ctr->port[m[i]->port];
		c->fwd--;
		c->drops[FWD_TX_FULL]++;
	}
	npool_napi_consume_bulk(m, n);
}

static inline void
fwd_tx_flush(struct fwd_lcore *fl, uint16_t port)
{
	struct fwd_txb *b = &fl->tx[port];
	uint16_t sent;

	if (b->n == 0)
		return;
	sent = rte_eth_tx_burst(port, fl->txq, b->m, b->n);
	fl->ctr->port[port].tx += sent;
	if (unlikely(sent < b->n))
		fwd_tx_unsent(fl, port, b->m + sent, b->n - sent);
	b->n = 0;
}

static inline void
fwd_tx_drain(struct fwd_lcore *fl)
{
	uint64_t pending = fl->pending;

	fl->pending = 0;
	while (pending != 0) {
		fwd_tx_flush(fl, (uint16_t)__builtin_ctzll(pending));
		pending &= pending - 1;
	}
}

static __rte_always_inline void
fwd_tx_enqueue(struct fwd_lcore *fl, uint16_t port, struct rte_mbuf *m)
{
	struct fwd_txb *b = &fl->tx[port];

	fl->pending |= UINT64_C(1) << port;
	b->m[b->n++] = m;
	if (unlikely(b->n == APP_BURST))
		fwd_tx_flush(fl, port);
}

/*
 * IPv4 above the MTU with DF clear, already rewritten: cut it into
 * fragments (fwd_pkt_fragment()) and send them straight after what is
 * buffered for the port. Counted forwarded when at least one fragment
 * left, else tx_full; frag_fail when it cannot be cut.
 */
static __rte_noinline void
fwd_fragment(struct fwd_lcore *fl, struct rte_mbuf *m, uint16_t port,
		uint16_t in_port)
{
	struct app_port_ctr *ic = &fl->ctr->port[in_port];
	struct fwd_meta md;
	uint32_t nb;
	uint16_t sent = 0, k;
	int32_t n;

	/* What the rewrite left: no tag, no padding. */
	fwd_meta_plain(&md, port, m->pkt_len - RTE_ETHER_HDR_LEN, false);
	nb = fwd_pkt_frag_count(fl->fc, m, &md);
	if (nb == 0) {
		ic->drops[FWD_FRAG_FAIL]++;
		rte_pktmbuf_free(m);
		return;
	}
	struct rte_mbuf *frags[nb];

	n = fwd_pkt_fragment(fl->fc, m, &md, in_port, frags, nb);
	if (n <= 0) {
		ic->drops[FWD_FRAG_FAIL]++;
		return;
	}
	fwd_tx_flush(fl, port);
	while (sent < n) {
		k = rte_eth_tx_burst(port, fl->txq, frags + sent,
				(uint16_t)(n - sent));
		if (k == 0)
			break;
		sent += k;
	}
	fl->ctr->port[port].tx += sent;
	if (sent != 0)
		ic->fwd++;
	else
		ic->drops[FWD_TX_FULL]++;
	if (sent < n)
		npool_napi_consume_bulk(frags + sent, n - sent);
}

/* The router's answer to a dropped packet (fwd_icmp.h), if any, out of
 * the port it came in on; a reply not sent is not a forwarded packet
 * (its mbuf->port is invalid: fwd_tx_unsent() skips it). */
static __rte_noinline void
fwd_local(struct fwd_lcore *fl, struct rte_mbuf *m, uint8_t v,
		uint16_t in_port)
{
	struct rte_mbuf *r = fwd_local_input(fl->fc, &fl->ctr->port[in_port],
			m, v, in_port);

	if (r != NULL)
		fwd_tx_enqueue(fl, in_port, r);
}

/*
 * The router's answers to the dropped packets of a burst, queued before
 * its forwarded packets; the dropped are left to the caller to free.
 * While the port's global ICMP bucket is empty (looked at once a burst),
 * a rate-limited error is only counted: a TTL-1 flood costs a drop.
 */
static __rte_noinline void
fwd_locals(struct fwd_lcore *fl, const struct fwd_burst *b,
		uint16_t in_port)
{
	uint64_t held = 0;
	int empty = -1; /* not looked at yet */
	uint16_t i;

	/* fwd_local_wants(), the addresses known to be there. */
	for (i = 0; i < b->nd; i++) {
		const uint32_t bit = UINT32_C(1) << (b->why[i] & 31);

		if (b->why[i] >= 32 || !(FWD_LOCAL_VERDICTS & bit))
			continue;
		if (FWD_ICMP_LIMITED & bit) {
			if (empty < 0)
				empty = fwd_icmp_rl_empty(fl->fc, in_port);
			if (empty) {
				held++;
				continue;
			}
		}
		fwd_local(fl, b->drop[i], b->why[i], in_port);
	}
	fl->ctr->port[in_port].ev[FWD_EV_RATELIMITED] += held;
}

/*
 * Send the @p n packets a burst forwards, @p dst their ports (@p ports: a
 * bit per port). All to one port with nothing buffered for it before them
 * (the common case): one TX call on the burst itself. Else through the
 * per-port buffers, in order.
 */
static __rte_always_inline void
fwd_tx_burst(struct fwd_lcore *fl, struct rte_mbuf **m, const uint16_t *dst,
		uint16_t n, uint64_t ports)
{
	uint16_t i, port, sent;

	if (n == 0)
		return;
	port = dst[0];
	if (likely((ports & (ports - 1)) == 0 && fl->tx[port].n == 0)) {
		sent = rte_eth_tx_burst(port, fl->txq, m, n);
		fl->ctr->port[port].tx += sent;
		if (unlikely(sent < n))
			fwd_tx_unsent(fl, port, m + sent, n - sent);
		return;
	}
	for (i = 0; i < n; i++)
		fwd_tx_enqueue(fl, dst[i], m[i]);
}

/*
 * A multicast packet (FWD_DST_MCAST, route @p route): its copies into
 * the TX buffers of their ports (fwd_mcast_copies()). Counted forwarded
 * once when a copy is queued, tx_full when none could be made.
 */
static __rte_noinline void
fwd_mcast_tx(struct fwd_lcore *fl, struct rte_mbuf *m, uint16_t route,
		uint16_t in_port)
{
	struct app_port_ctr *ic = &fl->ctr->port[in_port];
	struct rte_mbuf *out[RTE_MAX_ETHPORTS];
	uint16_t port[RTE_MAX_ETHPORTS];
	unsigned int n, i;

	n = fwd_mcast_copies(fl->fc, m, route, out, port, ic);
	if (n == 0) {
		ic->drops[FWD_TX_FULL]++;
		return;
	}
	ic->fwd++;
	for (i = 0; i < n; i++)
		fwd_tx_enqueue(fl, port[i], out[i]);
}

/* A burst with packets to cut or to replicate: what passed before each
 * leaves first. */
static __rte_noinline void
fwd_tx_burst_frag(struct fwd_lcore *fl, struct rte_mbuf **pkts,
		const struct fwd_burst *b, uint16_t in_port)
{
	struct app_port_ctr *ic = &fl->ctr->port[in_port];
	uint16_t i, from = 0;

	for (i = 0; i < b->nf; i++) {
		if (!(b->dst[i] & (FWD_DST_FRAG | FWD_DST_MCAST)))
			continue;
		ic->fwd += i - from;
		for (; from < i; from++)
			fwd_tx_enqueue(fl, b->dst[from], pkts[from]);
		if (b->dst[i] & FWD_DST_FRAG)
			fwd_fragment(fl, pkts[i], b->dst[i] & ~FWD_DST_FRAG,
					in_port);
		else
			fwd_mcast_tx(fl, pkts[i], b->dst[i] & ~FWD_DST_MCAST,
					in_port);
		from = i + 1;
	}
	ic->fwd += b->nf - from;
	for (; from < b->nf; from++)
		fwd_tx_enqueue(fl, b->dst[from], pkts[from]);
}

/* Checks, rewrite and output of a burst in one pass (fwd_group.h); the
 * dropped freed in one call. */
static __rte_always_inline void
fwd_burst(struct fwd_lcore *fl, struct rte_mbuf **pkts, uint16_t n,
		uint16_t in_port)
{
	struct app_port_ctr *ic = &fl->ctr->port[in_port];
	struct fwd_burst b;

	RTE_BUILD_BUG_ON(APP_BURST > FWD_BURST_MAX);
	if (unlikely(fl->fc->lookup == FWD_LOOKUP_EM))
		fwd_em_decide_burst(fl->fc, pkts, n, in_port, &b, ic->drops);
	else
		fwd_pkt_decide_burst(fl->fc, pkts, n, in_port, &b, ic->drops);
	/* Errors leave as drops do; the router's own answers
	 * (--port-addr) from there. */
	if (unlikely(b.nd != 0 && fl->fc->addrs != NULL &&
			fl->fc->addrs->ports != 0))
		fwd_locals(fl, &b, in_port);
	if (unlikely(b.nfrag != 0)) {
		fwd_tx_burst_frag(fl, pkts, &b, in_port);
	} else {
		ic->fwd += b.nf;
		fwd_tx_burst(fl, pkts, b.dst, b.nf, b.ports);
	}
	if (b.nd != 0)
		npool_napi_consume_bulk(b.drop, b.nd);
}

int
fwd_lcore_main(void *arg)
{
	const unsigned int lcore = rte_lcore_id();
	const struct app_lcore_conf *lc = &app_lcores[lcore];
	struct fwd_lcore *fl = &fwd_lcores[lcore];
	struct rte_mbuf *pkts[APP_BURST];
	struct app_loop loop;
	uint16_t i, n, copybreak;

	memset(fl, 0, sizeof(*fl));
	/* The tables of this lcore's socket (fwd_lcore_main()'s doc). */
	fl->fc = ((const struct fwd_conf *const *)arg)[
		app_numa_lcore_socket(lcore)];
	fl->ctr = &app_ctr[lcore];
	fl->txq = lc->txq;
	copybreak = fl->fc->copybreak;
	app_loop_init(&loop);
	while (app_loop_running(&loop)) {
		for (i = 0; i < lc->nb_rxq; i++) {
			n = app_rx_burst_unchecked(lc, i, fl->ctr, pkts,
					copybreak);
			if (n != 0)
				fwd_burst(fl, pkts, n, lc->rxq[i].port);
		}
		if (fl->pending != 0)
			fwd_tx_drain(fl);
	}
	fwd_tx_drain(fl);
	return 0;
}
