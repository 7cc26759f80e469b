/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What npool-fwd's answers share (fwd_reply.h).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_lcore.h>

#include "npool.h"
#include "app_compat.h"
#include "fwd_reply.h"

/* Rate limiters, per lcore and port (each lcore its own: no lock). */
static struct fwd_rl fwd_rls[RTE_MAX_LCORE][RTE_MAX_ETHPORTS];

/* icmp_global_allow()'s refill of the global bucket at @p now_ms: the
 * credit left (not taken). */
static uint32_t
fwd_rl_refill(struct fwd_rl *rl, const struct fwd_addrs *a, uint64_t now_ms)
{
	uint64_t delta, incr;

	if (!rl->init) {
		rl->init = true;
		rl->stamp = now_ms - 1000;
	}
	delta = RTE_MIN(now_ms - rl->stamp, (uint64_t)1000);
	incr = 0;
	if (delta >= 20) {
		incr = a->msgs_per_sec * delta / 1000;
		if (incr != 0)
			rl->stamp = now_ms;
	}
	rl->credit = (uint32_t)RTE_MIN(rl->credit + incr,
			(uint64_t)a->msgs_burst);
	return rl->credit;
}

bool
fwd_icmp_rl_allow(struct fwd_rl *rl, const struct fwd_addrs *a,
		uint64_t now_ms, const uint8_t key[16], uint32_t tmo_ms)
{
	uint64_t tokens;
	unsigned int slot, i;
	uint32_t h = 0;

	if (a->msgs_per_sec != 0) {
		/* icmp_global_allow(), one credit a message. */
		if (fwd_rl_refill(rl, a, now_ms) == 0)
			return false;
		rl->credit--;
	}
	if (tmo_ms == 0)
		return true;
	/* inet_peer_xrlim_allow(): a new destination starts full. */
	for (i = 0; i < 16; i++)
		h = h * 31 + key[i];
	slot = (h ^ (h >> 16)) % FWD_RL_PEERS;
	if (!rl->peer[slot].used || memcmp(rl->peer[slot].key, key, 16)) {
		memcpy(rl->peer[slot].key, key, 16);
		rl->peer[slot].used = true;
		rl->peer[slot].tokens = (uint64_t)FWD_RL_BURST * tmo_ms;
		rl->peer[slot].last = now_ms;
	}
	tokens = rl->peer[slot].tokens + (now_ms - rl->peer[slot].last);
	rl->peer[slot].last = now_ms;
	tokens = RTE_MIN(tokens, (uint64_t)FWD_RL_BURST * tmo_ms);
	if (tokens < tmo_ms) {
		rl->peer[slot].tokens = tokens;
		return false;
	}
	rl->peer[slot].tokens = tokens - tmo_ms;
	return true;
}

/* The TSC in ms. */
static uint64_t
fwd_now_ms(void)
{
	const uint64_t hz = rte_get_tsc_hz() / 1000;

	return rte_get_tsc_cycles() / (hz != 0 ? hz : 1);
}

/* The rate limiter of @p port on this lcore. */
static struct fwd_rl *
fwd_rl_of(uint16_t port)
{
	const unsigned int lcore = rte_lcore_id();

	return &fwd_rls[lcore < RTE_MAX_LCORE ? lcore : 0][port];
}

bool
fwd_rl_allow(const struct fwd_rx_pkt *r, const uint8_t key[16], uint32_t tmo_ms)
{
	return fwd_icmp_rl_allow(fwd_rl_of(r->port), r->t->addrs,
			fwd_now_ms(), key, tmo_ms);
}

bool
fwd_icmp_rl_empty(const struct fwd_tables *t, uint16_t port)
{
	const struct fwd_addrs *a = t->addrs;

	return a != NULL && a->msgs_per_sec != 0 &&
		port < RTE_MAX_ETHPORTS &&
		fwd_rl_refill(fwd_rl_of(port), a, fwd_now_ms()) == 0;
}

struct rte_mbuf *
fwd_reply_alloc(const struct fwd_rx_pkt *r, uint32_t len,
		const struct rte_ether_addr *dst, uint16_t type)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(len);
	struct rte_ether_hdr *eth;

	if (m == NULL && rte_errno == ENODEV)
		m = rte_pktmbuf_alloc(r->m->pool);
	if (m != NULL && rte_pktmbuf_append(m, (uint16_t)len) == NULL) {
		rte_pktmbuf_free(m);
		m = NULL;
	}
	if (m == NULL) {
		r->ic->ev[FWD_EV_NOMEM]++;
		return NULL;
	}
	m->port = RTE_MBUF_PORT_INVALID;
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	eth->dst_addr = *dst;
	eth->src_addr = r->t->l2[r->port].src;
	eth->ether_type = rte_cpu_to_be_16(type);
	return m;
}

struct rte_mbuf *
fwd_ctl_alloc(const struct fwd_tables *t, uint32_t len,
		struct app_port_ctr *ic)
{
	struct rte_mbuf *m = npool_napi_alloc_pkt(len);

	if (m == NULL && rte_errno == ENODEV && t->ctl_pool != NULL)
		m = rte_pktmbuf_alloc(t->ctl_pool);
	if (m != NULL && rte_pktmbuf_append(m, (uint16_t)len) == NULL) {
		rte_pktmbuf_free(m);
		m = NULL;
	}
	if (m == NULL) {
		ic->ev[FWD_EV_NOMEM]++;
		return NULL;
	}
	m->port = RTE_MBUF_PORT_INVALID;
	return m;
}

void
fwd_copy_out(const struct rte_mbuf *m, uint32_t off, uint32_t n, void *dst)
{
	const void *p = rte_pktmbuf_read(m, off, n, dst);

	if (p != NULL && p != dst)
		memcpy(dst, p, n);
}

uint16_t
fwd_cksum_fold(const void *p, uint32_t len)
{
	uint16_t s = rte_raw_cksum(p, len);

	return s == 0xffff ? 0 : (uint16_t)~s;
}

uint16_t
fwd_icmp6_cksum(const struct rte_ipv6_hdr *ip6, const void *l4)
{
	uint32_t s = rte_ipv6_phdr_cksum(ip6, 0);

	s += rte_raw_cksum(l4, rte_be_to_cpu_16(ip6->payload_len));
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s == 0xffff ? 0 : (uint16_t)~s;
}

void
fwd_to_local(const struct fwd_rx_pkt *r)
{
	if (r->v != FWD_LOCAL) {
		r->ic->drops[r->v]--;
		r->ic->drops[FWD_LOCAL]++;
	}
}

const struct rte_ether_addr *
fwd_eth_src(const struct fwd_rx_pkt *r)
{
	return &((const struct rte_ether_hdr *)r->h)->src_addr;
}
