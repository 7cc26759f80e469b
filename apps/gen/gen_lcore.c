/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-gen TX loop: the kernel pktgen's clone_skb on rte_mbuf.
 *
 * Each allocated packet fills clone + 1 consecutive send slots. The
 * generator holds the references of the slots not yet filled:
 *  - --refcnt set: rte_mbuf_refcnt_set(m, clone + 1) once at allocation
 *    (Brouer's pktgen patch: one store instead of one atomic per send);
 *  - --refcnt inc: rte_mbuf_refcnt_update(m, 1) when a slot is filled
 *    and more sends follow, one per extra send, so that the packet never
 *    goes back to its pool between two of its sends.
 * A slot handed to rte_eth_tx_burst() carries one reference: the PMD
 * frees it after sending, or, when the burst is cut short, the generator
 * frees each refused slot once. At the end, the references held for
 * sends that will not happen are dropped.
 */
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "npool.h"
#include "app_ctr.h"
#include "app_port.h"
#include "app_run.h"
#include "gen_lcore.h"

/* Drop reason of npool-gen: a send slot refused by rte_eth_tx_burst(). */
#define GEN_UNSENT 0

/* What main.c sets up for the lcores (gen_lcore.h), and their counters:
 * defined with the code that reads them. */
struct gen gen;
struct app_lcore_ctr gen_ctr[RTE_MAX_LCORE];

/* Flow @p flow's source address and port; sequence number and sums. */
static __rte_always_inline void
patch_synthetic(uint8_t *d, const struct gen_frame *f, uint64_t seq,
		uint32_t flow)
{
	struct gen_hdr *h = (struct gen_hdr *)d;
	rte_be32_t src = rte_cpu_to_be_32(gen.src_ip_host + flow);
	rte_be16_t sport = rte_cpu_to_be_16(GEN_UDP_PORT +
			flow % (UINT16_MAX + 1u - GEN_UDP_PORT));
	rte_be64_t q = rte_cpu_to_be_64(seq);
	uint32_t s2 = (src & 0xffff) + (src >> 16);
	uint32_t sum;
	uint16_t ck;

	h->ip.src_addr = src;
	h->udp.src_port = sport;
	h->pl.seq = q;
	/* Stored sums plus the words written above (RFC 1071). */
	h->ip.hdr_checksum = (uint16_t)~__rte_raw_cksum_reduce(f->ip_sum + s2);
	sum = f->udp_sum + s2 + sport + (uint32_t)(q & 0xffff) +
		(uint32_t)((q >> 16) & 0xffff) +
		(uint32_t)((q >> 32) & 0xffff) + (uint32_t)(q >> 48);
	ck = (uint16_t)~__rte_raw_cksum_reduce(sum);
	h->udp.dgram_cksum = ck != 0 ? ck : 0xffff;
}

/* Allocate and fill the next packet of @p t; it becomes t->cur. */
static __rte_always_inline int
new_packet(struct gen_txq *t)
{
	const struct gen_frames *fr = t->fr;
	const struct gen_frame *f = &fr->f[t->frame];
	struct rte_mbuf *m;

	if (gen.pool == APP_POOL_NPOOL)
		m = npool_napi_alloc_pkt(f->len);
	else
		m = rte_pktmbuf_alloc(gen.tx_pool);
	if (unlikely(m == NULL)) {
		t->alloc_fail++;
		return -1;
	}
	rte_memcpy(rte_pktmbuf_mtod(m, void *), f->data, f->len);
	m->data_len = f->len;
	m->pkt_len = f->len;
	if (fr->synthetic) {
		patch_synthetic(rte_pktmbuf_mtod(m, uint8_t *), f, t->seq,
				t->flow);
		if (++t->flow == gen.c.flows)
			t->flow = 0;
	}
	if (++t->frame == fr->nb)
		t->frame = 0;
	t->seq++;
	t->allocs++;
	/* Set once: every send of this packet has its reference now. */
	if (gen.c.clone != 0 && gen.c.refcnt == GEN_REFCNT_SET)
		rte_mbuf_refcnt_set(m, (uint16_t)(gen.c.clone + 1));
	t->cur = m;
	t->cur_left = gen.c.clone + 1;
	return 0;
}

/*
 * Fill up to @p n send slots; @p lens gets each slot's frame length
 * (the mbufs may be freed by the PMD before the burst call returns).
 */
static __rte_always_inline uint16_t
fill_slots(struct gen_txq *t, struct rte_mbuf **pkts, uint16_t *lens,
		uint16_t n)
{
	const bool inc = gen.c.refcnt == GEN_REFCNT_INC;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (t->cur == NULL && new_packet(t) < 0)
			break;
		pkts[i] = t->cur;
		lens[i] = (uint16_t)t->cur->data_len;
		if (--t->cur_left == 0)
			t->cur = NULL;
		else if (inc)
			/* The next send's reference, taken while this slot
			 * still holds one: the packet cannot be freed in
			 * between. */
			rte_mbuf_refcnt_update(t->cur, 1);
	}
	return i;
}

/* Drop the references held for sends of t->cur that will not happen. */
static void
release_cur(struct gen_txq *t)
{
	uint32_t held;

	if (t->cur == NULL)
		return;
	held = gen.c.refcnt == GEN_REFCNT_SET ? t->cur_left : 1;
	while (held-- > 0)
		rte_pktmbuf_free(t->cur);
	t->cur = NULL;
	t->cur_left = 0;
}

/* Sends the token bucket allows now, at most @p n. */
static __rte_always_inline uint16_t
rate_allow(struct gen_txq *t, uint16_t n)
{
	uint64_t now = rte_rdtsc(), d = now - t->tsc_prev;

	t->tsc_prev = now;
	if (unlikely(d >= t->credit_max >> 16)) {
		/* A stall longer than the bucket: what it cannot hold is
		 * lost to the rate, and counted. */
		t->credit_lost += (d << 16) - (t->credit_max - t->credit);
		t->credit = t->credit_max;
	} else if (unlikely(t->credit + (d << 16) > t->credit_max)) {
		t->credit_lost += t->credit + (d << 16) - t->credit_max;
		t->credit = t->credit_max;
	} else {
		t->credit += d << 16;
	}
	return (uint16_t)RTE_MIN((uint64_t)n, t->credit / t->cost);
}

/* One burst on @p t. */
static __rte_always_inline void
txq_round(struct gen_txq *t, struct app_lcore_ctr *ctr)
{
	struct rte_mbuf *pkts[APP_BURST];
	uint16_t lens[APP_BURST];
	uint16_t n = APP_BURST, sent, k;
	uint64_t bytes = 0;

	if (t->quota - t->slots < n)
		n = (uint16_t)(t->quota - t->slots);
	if (t->cost != 0)
		n = rate_allow(t, n);
	if (n == 0)
		return;
	n = fill_slots(t, pkts, lens, n);
	if (unlikely(n == 0))
		return;
	if (unlikely(t->tsc_first == 0))
		t->tsc_first = rte_rdtsc();
	sent = rte_eth_tx_burst(t->port, t->queue, pkts, n);
	t->tsc_last = rte_rdtsc();
	for (k = 0; k < sent; k++)
		bytes += lens[k];
	if (unlikely(sent < n)) {
		/* Each refused slot gives back the one reference it
		 * holds; the last one frees the packet. */
		npool_napi_consume_bulk(&pkts[sent], n - sent);
		t->unsent += n - sent;
		ctr->port[t->port].drops[GEN_UNSENT] += n - sent;
	}
	if (t->cost != 0)
		t->credit -= n * t->cost;
	t->slots += n;
	t->tx += sent;
	t->tx_bytes += bytes;
	ctr->port[t->port].tx += sent;
	if (t->slots == t->quota) {
		t->done = true;
		release_cur(t);
	}
}

int
gen_lcore_main(void *arg __rte_unused)
{
	struct gen_lcore *gl = &gen.lc[rte_lcore_id()];
	struct app_lcore_ctr *ctr = &gen_ctr[rte_lcore_id()];
	unsigned int live = 0, i;

	if (gl->nb_txq == 0)
		return 0;
	for (i = 0; i < gl->nb_txq; i++) {
		gl->txq[i].tsc_prev = rte_rdtsc();
		if (!gl->txq[i].done)
			live++;
	}
	app_ctr_start(ctr);
	while (live > 0 && !app_quit) {
		for (i = 0; i < gl->nb_txq; i++) {
			struct gen_txq *t = &gl->txq[i];

			if (t->done)
				continue;
			txq_round(t, ctr);
			if (t->done)
				live--;
		}
	}
	for (i = 0; i < gl->nb_txq; i++)
		release_cur(&gl->txq[i]);
	/* The last lcore to finish ends the run (--count). */
	if (__atomic_sub_fetch(&gen.active, 1, __ATOMIC_ACQ_REL) == 0)
		app_run_stop();
	return 0;
}
