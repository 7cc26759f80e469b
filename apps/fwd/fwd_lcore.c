/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding loop of one lcore: RX bursts from its queues (--config),
 * copy-break, checks and rewrite of the burst in groups of 4
 * (fwd_group.h: plain IPv4 and IPv6 in one pass, anything else through
 * the full checks); a burst that all goes to one port is sent as it is
 * (no copy, one TX call), else
 * through per-port TX buffers flushed when full and at the end of each
 * poll round; counters added once per burst; dropped packets released in
 * one npool_napi_consume_bulk() per burst.
 */
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "npool.h"
#include "app_numa.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "fwd.h"
#include "fwd_em_burst.h"
#include "fwd_group.h"
#include "fwd_icmp.h"

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

/* The TX queue did not take them: dropped, on the port they came in. */
static __rte_noinline void
fwd_tx_unsent(struct fwd_lcore *fl, struct rte_mbuf **m, uint16_t n)
{
	struct app_port_ctr *c;
	uint16_t i;

	for (i = 0; i < n; i++) {
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
		fwd_tx_unsent(fl, b->m + sent, b->n - sent);
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
fwd_fragment(struct fwd_lcore *fl, struct rte_mbuf *m,
		const struct fwd_meta *md, uint16_t in_port)
{
	struct app_port_ctr *ic = &fl->ctr->port[in_port];
	const uint32_t nb = fwd_pkt_frag_count(fl->fc, m, md);
	uint16_t sent = 0, k;
	int32_t n;

	if (nb == 0) {
		ic->drops[FWD_FRAG_FAIL]++;
		rte_pktmbuf_free(m);
		return;
	}
	struct rte_mbuf *frags[nb];

	n = fwd_pkt_fragment(fl->fc, m, md, in_port, frags, nb);
	if (n <= 0) {
		ic->drops[FWD_FRAG_FAIL]++;
		return;
	}
	fwd_tx_flush(fl, md->port);
	while (sent < n) {
		k = rte_eth_tx_burst(md->port, fl->txq, frags + sent,
				(uint16_t)(n - sent));
		if (k == 0)
			break;
		sent += k;
	}
	fl->ctr->port[md->port].tx += sent;
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
			fwd_tx_unsent(fl, m + sent, n - sent);
		return;
	}
	for (i = 0; i < n; i++)
		fwd_tx_enqueue(fl, dst[i], m[i]);
}

static __rte_always_inline void
fwd_burst(struct fwd_lcore *fl, struct rte_mbuf **pkts, uint16_t n,
		uint16_t in_port)
{
	const struct fwd_conf *fc = fl->fc;
	struct app_port_ctr *ic = &fl->ctr->port[in_port];
	struct rte_mbuf *drop[APP_BURST];
	struct fwd_meta md[APP_BURST];
	uint8_t verdict[APP_BURST];
	uint16_t dst[APP_BURST];
	uint64_t ports = 0;
	uint16_t i, nf = 0, nd = 0;

	RTE_BUILD_BUG_ON(APP_BURST > FWD_BURST_MAX);
	if (unlikely(fc->lookup == FWD_LOOKUP_EM))
		fwd_em_decide_burst(fc, pkts, n, verdict, md, ic->drops);
	else
		fwd_pkt_decide_burst(fc, pkts, n, verdict, md, ic->drops);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (likely(verdict[i] == FWD_PASS)) {
			/* Forwarded packets move to the front (nf <= i). */
			pkts[nf] = m;
			dst[nf++] = md[i].port;
			ports |= UINT64_C(1) << md[i].port;
		} else if (verdict[i] == FWD_FRAGMENT) {
			/* What passed before it leaves first. */
			ic->fwd += nf;
			fwd_tx_burst(fl, pkts, dst, nf, ports);
			nf = 0;
			ports = 0;
			fwd_fragment(fl, m, &md[i], in_port);
		} else {
			drop[nd++] = m;
			/* Errors leave as drops do; the router's own
			 * answers (--port-addr) from there. */
			if (unlikely(fwd_local_wants(fc, verdict[i])))
				fwd_local(fl, m, verdict[i], in_port);
		}
	}
	ic->fwd += nf;
	fwd_tx_burst(fl, pkts, dst, nf, ports);
	if (nd != 0)
		npool_napi_consume_bulk(drop, nd);
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
			n = app_rx_burst(lc, i, fl->ctr, pkts, copybreak);
			if (n != 0)
				fwd_burst(fl, pkts, n, lc->rxq[i].port);
		}
		if (fl->pending != 0)
			fwd_tx_drain(fl);
	}
	fwd_tx_drain(fl);
	return 0;
}
