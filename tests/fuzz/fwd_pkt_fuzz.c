/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: npool-fwd's pipeline on a raw frame, as the lcore loop runs
 * it: the frame arrives as an mbuf chain (segment sizes from the input)
 * from an "npool" or a stock pool, in a burst of 4 or 5 beside flat copies
 * of itself, through fwd_burst_decide() (the one pass with copy-break in
 * it, the slow path, fragmentation, the copies of IP multicast by two
 * multicast routes), the forwarded packets taken back from the ports
 * (rings: each TX queue looped into its RX queue). Frame length bit 0: a
 * burst of 5 (one past the first 4); bits 1-2: the input's place in the
 * burst; bit 3: --lookup fib (else lpm).
 *
 * Checked on every input, for each packet of the burst: the verdict is the
 * one docs/apps/npool-fwd.md's ordered rules give (an oracle written from
 * the doc in fwd_pkt_model.c, byte by byte on the flat frame, the route
 * from LPM tables of the same routes, whatever the lookup); the drop
 * counters are one per dropped packet's reason; a dropped packet waits in
 * the context in RX order with its reason, and what the router would
 * answer to it is a whole frame of a sane size; a forwarded frame leaves
 * its port in RX order, the input with the tag and padding gone, TTL / hop
 * limit - 1, a valid IPv4 checksum, the egress port's MACs, consistent
 * segment lengths; fragments carry the payload in order, in 8-byte steps,
 * each header valid; each multicast copy is the packet to the group's MAC
 * from its port's, TTL - 1, its data shared; at the end every mbuf and
 * fragment is back. Port 0, where the frames come in, has MAC
 * 02:00:00:00:00:fe, the one the edge-case frames of the committed corpus
 * are sent to (make_seeds.py).
 *
 * Input: flags, first segment length, other segments' length / 8, with
 * flag bit 7 one byte more, then the frame. flags: bit 0 l3fwd's default
 * tables (-p 0x7) instead of route files (-p 0xf); bits 1-2 MTU
 * 1500/68/576/9000; bit 3 stock pool; bit 4 copy-break 256; bit 5 ol_flags
 * IP_CKSUM_BAD; bit 6 IP_CKSUM_GOOD when the IPv4 header checksum is
 * right (either: port 0 has the RX checksum offload, the PMD's word is
 * taken); bit 7 a chain cut wrong by the PMD (the byte more: pkt_len too
 * long or too short, or one segment too many in nb_segs), which the
 * pipeline's RX check (fwd_slow()) must drop as truncated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "npool.h"
#include "npool_rx.h"
#include "app_compat.h"
#include "app_pool.h"
#include "app_stats.h"
#include "fwd.h"
#include "fwd_addr_cli.h"
#include "fwd_route.h"
#include "fwd_burst.h"
#include "fwd_check.h"
#include "fwd_icmp.h"
#include "fwd_mcast.h"
#include "fwd_mroute.h"
#include "fuzz_common.h"
#include "fwd_pkt_model.h"

#define FZ_FRAME_MAX 16384
#define FZ_RX_MBUFS 8192
#define FZ_FRAG_MBUFS 16384
#define FZ_COPYBREAK 256
#define FZ_BURST 5
#define FZ_PORTS 4
/* Each port's ring: every fragment of a burst of 16 KiB frames cut at
 * MTU 68 (5 x 341). */
#define FZ_RING_SIZE 4096

/* Routes of the edge-case set (tests/integration/lib/edgecases.py), with
 * default routes; -p 0xf. */
static const char fz_routes4[] =
	"R0.0.0.0/0 1\nR198.18.0.0/15 2\nR198.18.2.0/24 3\n"
	"R198.18.3.0/24 0\nR198.18.4.128/25 3\nR198.19.255.255/32 0\n"
	"R10.0.0.0/8 2\nR172.16.0.0/12 3\nR192.168.0.0/16 0\n";
static const char fz_routes6[] =
	"R::/0 1\nR2001:2::/48 2\nR2001:2:0:1::/64 3\nR2001:2:0:2::/64 0\n"
	"R2001:2:0:3:8000::/65 3\nR2001:db8::/32 2\nR2001::/16 3\n";
static const uint16_t fz_mtus[4] = { 1500, 68, 576, 9000 };
/* Multicast routes: (*,G) of each family from port 0 to ports 1, 2. */
static const char fz_mroutes[] =
	"mroute from 0 group 225.1.2.3 to 1 2\n"
	"mroute from 0 group ff0e::3 to 1 2\n";

/* [lookup][route files, l3fwd's tables] */
static struct fwd_conf fz_conf[2][2];
static struct rte_mempool *fz_rx[2]; /* "npool" ops, stock */
static struct rte_mempool *fz_frag_pools[2];

/* Segments add up; the whole packet copied to @p out. */
static const uint8_t *
fz_flat(const struct rte_mbuf *m, uint8_t *out)
{
	const struct rte_mbuf *s;
	uint32_t sum = 0, segs = 0;

	for (s = m; s != NULL; s = s->next) {
		sum += s->data_len;
		segs++;
	}
	FZ_CHECK(sum == m->pkt_len && segs == m->nb_segs,
			"segments %u bytes in %u, pkt_len %u nb_segs %u",
			sum, segs, m->pkt_len, m->nb_segs);
	FZ_CHECK(m->pkt_len <= FZ_FRAME_MAX, "pkt_len %u", m->pkt_len);
	return rte_pktmbuf_read(m, 0, m->pkt_len, out);
}

/* A forwarded packet: the input's L3 bytes, TTL - 1, MACs of the port. */
static void
fz_check_forwarded(const struct fwd_conf *fc, const struct rte_mbuf *m,
		const struct fwd_meta *md, const uint8_t *in)
{
	static uint8_t buf[FZ_FRAME_MAX];
	const uint8_t *out = fz_flat(m, buf), *ip = in + md->l2_len;
	const uint32_t ttl_at = md->v6 ? 7 : 8;
	uint32_t i;

	FZ_CHECK(m->pkt_len == RTE_ETHER_HDR_LEN + md->ip_len,
			"pkt_len %u, IP length %u", m->pkt_len, md->ip_len);
	FZ_CHECK(memcmp(out, &fc->t.l2[md->port], 12) == 0, "MACs");
	FZ_CHECK(memcmp(out + 12, in + md->l2_len - 2, 2) == 0, "EtherType");
	FZ_CHECK(out[14 + ttl_at] == ip[ttl_at] - 1, "TTL %u from %u",
			out[14 + ttl_at], ip[ttl_at]);
	for (i = 0; i < md->ip_len; i++)
		FZ_CHECK(i == ttl_at || (!md->v6 && (i == 10 || i == 11)) ||
				out[14 + i] == ip[i], "L3 byte %u changed", i);
	if (!md->v6)
		FZ_CHECK(rte_raw_cksum(out + 14, (out[14] & 15) * 4u) == 0xffff,
				"IPv4 checksum 0x%02x%02x", out[24], out[25]);
}

/* Fragments: valid headers, payload in order and complete. */
static void
fz_check_fragments(const struct fwd_conf *fc, struct rte_mbuf **frags,
		int32_t n, const struct fwd_meta *md, const uint8_t *in)
{
	static uint8_t buf[FZ_FRAME_MAX];
	const uint8_t *ip = in + md->l2_len, *out, *fip;
	const uint32_t ihl = (ip[0] & 15) * 4u;
	uint32_t next = (be16(ip + 6) & RTE_IPV4_HDR_OFFSET_MASK) * 8u;
	uint32_t done = 0, fihl, flen, foff;
	int32_t i;

	for (i = 0; i < n; i++) {
		out = fz_flat(frags[i], buf);
		fip = out + RTE_ETHER_HDR_LEN;
		fihl = (fip[0] & 15) * 4u;
		flen = be16(fip + 2);
		foff = (be16(fip + 6) & RTE_IPV4_HDR_OFFSET_MASK) * 8u;
		FZ_CHECK(memcmp(out, &fc->t.l2[md->port], 12) == 0 &&
				be16(out + 12) == RTE_ETHER_TYPE_IPV4,
				"fragment %d: Ethernet header", i);
		FZ_CHECK(fip[0] >> 4 == 4 && fihl >= 20 &&
				flen == frags[i]->pkt_len - RTE_ETHER_HDR_LEN &&
				flen <= fc->t.mtu && flen > fihl,
				"fragment %d: IHL %u length %u of %u, MTU %u", i,
				fihl, flen, frags[i]->pkt_len, fc->t.mtu);
		FZ_CHECK(rte_raw_cksum(fip, fihl) == 0xffff,
				"fragment %d: checksum", i);
		FZ_CHECK(fip[8] == ip[8] - 1 && fip[9] == ip[9] &&
				memcmp(fip + 12, ip + 12, 8) == 0 &&
				memcmp(fip + 4, ip + 4, 2) == 0,
				"fragment %d: TTL, protocol, addresses or ID", i);
		FZ_CHECK(!(be16(fip + 6) & RTE_IPV4_HDR_DF_FLAG) && foff == next,
				"fragment %d: offset %u, expected %u", i, foff,
				next);
		FZ_CHECK(i == 0 || (flen - fihl) % 8 == 0 || i == n - 1,
				"fragment %d: payload %u", i, flen - fihl);
		FZ_CHECK(i == n - 1 ? (be16(fip + 6) & RTE_IPV4_HDR_MF_FLAG) ==
				(be16(ip + 6) & RTE_IPV4_HDR_MF_FLAG) :
				(be16(fip + 6) & RTE_IPV4_HDR_MF_FLAG) != 0,
				"fragment %d of %d: MF", i, n);
		FZ_CHECK(done + flen - fihl <= md->ip_len - ihl &&
				memcmp(fip + fihl, ip + ihl + done,
					flen - fihl) == 0,
				"fragment %d: payload bytes", i);
		done += flen - fihl;
		next += flen - fihl;
	}
	FZ_CHECK(done == md->ip_len - ihl, "payload %u of %u", done,
			md->ip_len - ihl);
}

/* The input frame as an mbuf chain of @p mp. */
static struct rte_mbuf *
fz_chain(struct rte_mempool *mp, const uint8_t *f, uint32_t len,
		uint32_t first, uint32_t rest)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t off = 0, take;

	do {
		m = rte_pktmbuf_alloc(mp);
		FZ_CHECK(m != NULL, "RX pool empty");
		take = RTE_MIN(len - off, head == NULL ? first : rest);
		take = RTE_MIN(take, (uint32_t)rte_pktmbuf_tailroom(m));
		memcpy(rte_pktmbuf_append(m, (uint16_t)take), f + off, take);
		off += take;
		if (head == NULL)
			head = m;
		else
			FZ_CHECK(rte_pktmbuf_chain(head, m) == 0, "chain");
	} while (off < len);
	return head;
}

static void
fz_check_all_back(void)
{
	struct rte_mempool *const mps[] = {
		fz_rx[0], fz_rx[1], fz_frag_pools[0], fz_frag_pools[1],
	};
	struct npool_usage u;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mps); i++)
		FZ_CHECK(rte_mempool_avail_count(mps[i]) == mps[i]->size,
				"%s: %u of %u back", mps[i]->name,
				rte_mempool_avail_count(mps[i]), mps[i]->size);
	npool_usage_get(&u);
	FZ_CHECK(u.frags_out == 0 && u.heads_out == 0,
			"npool: %ld fragments, %u heads out",
			(long)u.frags_out, u.heads_out);
}

/* The fragments a packet of meta @p md (FWD_FRAGMENT) is cut into under
 * @p fc's MTU, as fwd_pkt_frag_count() says from its header @p ip: 0 when
 * the last would end past IP offset 65535 (frag_fail). */
static uint32_t
fz_nfrags(const struct fwd_conf *fc, const struct fwd_meta *md,
		const uint8_t *ip)
{
	const uint32_t ihl = (ip[0] & 15) * 4u;
	const uint32_t step = (fc->t.mtu - ihl) & ~7u;
	const uint32_t end = (be16(ip + 6) & RTE_IPV4_HDR_OFFSET_MASK) * 8u +
		md->ip_len - ihl;

	if (fc->t.mtu <= ihl || step == 0 || end > UINT16_MAX)
		return 0;
	return (md->ip_len - ihl + step - 1) / step;
}

/* A copy of a packet the rules gave FWD_MCAST, out of @p port (1 or 2,
 * the routes' ports): the packet to the group's MAC from the port's, TTL
 * - 1. */
static void
fz_check_mcast_copy(const struct fwd_conf *fc, const struct rte_mbuf *m,
		uint16_t port, const struct fwd_meta *md, const uint8_t *in)
{
	static uint8_t buf[FZ_FRAME_MAX];
	const uint8_t *ip = in + md->l2_len, *o = fz_flat(m, buf);
	const uint32_t ttl_at = md->v6 ? 7 : 8;
	uint8_t gmac[6];
	uint32_t i;

	if (md->v6) {
		memcpy(gmac, "\x33\x33", 2);
		memcpy(gmac + 2, ip + 36, 4);
	} else {
		memcpy(gmac, "\x01\x00\x5e", 3);
		memcpy(gmac + 3, ip + 17, 3);
		gmac[3] &= 0x7f;
	}
	FZ_CHECK(m->pkt_len == RTE_ETHER_HDR_LEN + md->ip_len &&
			memcmp(o, gmac, 6) == 0 &&
			memcmp(o + 6, &fc->t.l2[port].src, 6) == 0 &&
			memcmp(o + 12, in + md->l2_len - 2, 2) == 0,
			"copy to port %u: length %u or Ethernet header", port,
			m->pkt_len);
	FZ_CHECK(o[14 + ttl_at] == ip[ttl_at] - 1, "copy to port %u: TTL",
			port);
	for (i = 0; i < md->ip_len; i++)
		FZ_CHECK(i == ttl_at || (!md->v6 && (i == 10 || i == 11)) ||
				o[14 + i] == ip[i],
				"copy to port %u: L3 byte %u changed", port, i);
	if (!md->v6)
		FZ_CHECK(rte_raw_cksum(o + 14, (o[14] & 15) * 4u) == 0xffff,
				"copy to port %u: IPv4 checksum", port);
}

/* The router's addresses the dropped packets are answered with. */
static struct fwd_addrs fz_addrs;

/*
 * What the router would answer to a dropped packet (fwd_local_input(),
 * with addresses on port 0 that are not in the tables): one whole
 * frame or nothing, on scratch counters (the drops stay the rules').
 */
static void
fz_local(const struct fwd_conf *fc, struct rte_mbuf *m, uint8_t v)
{
	struct app_port_ctr scratch;
	struct fwd_tables t = fc->t;
	struct rte_mbuf *r;

	memset(&scratch, 0, sizeof(scratch));
	t.addrs = &fz_addrs;
	r = fwd_local_input(&t, &scratch, m, v, 0);
	if (r == NULL)
		return;
	FZ_CHECK(r->nb_segs == 1 && r->pkt_len == r->data_len &&
			r->pkt_len >= RTE_ETHER_HDR_LEN + 28 &&
			r->pkt_len <= RTE_MAX(m->pkt_len + 48,
				(uint32_t)RTE_ETHER_HDR_LEN + 1280),
			"answer of %u bytes in %u segments", r->pkt_len,
			r->nb_segs);
	rte_pktmbuf_free(r);
}

/* The pipeline's context and counters, TX buffers of its own. */
static struct fwd_tx fz_tx;
static struct app_lcore_ctr fz_ctr;
static struct rte_mbuf *fz_out[FZ_PORTS][FZ_RING_SIZE];
static uint16_t fz_nout[FZ_PORTS], fz_at[FZ_PORTS];

/* Everything that left the ports, taken back from their rings. */
static void
fz_take_outputs(void)
{
	uint16_t p, k;

	for (p = 0; p < FZ_PORTS; p++) {
		fwd_tx_flush(&fz_tx, &fz_ctr, p);
		fz_nout[p] = 0;
		fz_at[p] = 0;
		do {
			k = rte_eth_rx_burst(p, 0, fz_out[p] + fz_nout[p], 32);
			fz_nout[p] += k;
		} while (k != 0);
	}
}

/* The next @p n packets out of @p port, in order. */
static struct rte_mbuf **
fz_next_out(uint16_t port, uint32_t n, uint16_t i)
{
	FZ_CHECK(fz_at[port] + n <= fz_nout[port],
			"packet %u: not out of port %u in order", i, port);
	fz_at[port] += n;
	return &fz_out[port][fz_at[port] - n];
}

/*
 * The burst @p pkts (each a copy of frame @p f) through the pipeline of
 * @p fc, as the lcore loop runs it; verdicts from the rules on the routes
 * of @p rules (LPM tables of the same routes).
 */
static void
fz_run(const struct fwd_conf *fc, const struct fwd_conf *rules,
		struct rte_mbuf **pkts, uint16_t n, const uint8_t *f,
		uint32_t len)
{
	struct app_port_ctr *ic = &fz_ctr.port[0];
	uint64_t drops[FWD_NB_REASONS], want[FWD_NB_REASONS] = { 0 };
	const int hw = fc->t.cksum_hw & 1;
	struct fwd_meta exp[FZ_BURST];
	struct rte_mbuf **o;
	int expect[FZ_BURST];
	struct fwd_ctx c;
	uint16_t i, nd = 0, p;
	uint32_t nf, k;

	memcpy(drops, ic->drops, sizeof(drops));
	for (i = 0; i < n; i++) {
		memset(&exp[i], 0, sizeof(exp[i]));
		expect[i] = fz_expect(rules, f, len, pkts[i]->ol_flags, hw,
				&exp[i]);
	}
	memset(&c, 0, sizeof(c));
	c.t = &fc->t;
	c.tx = &fz_tx;
	c.ctr = &fz_ctr;
	c.in_port = 0;
	c.ic = ic;
	fwd_burst_decide(&c, pkts, n);
	fz_take_outputs();
	for (i = 0; i < n; i++) {
		if (expect[i] < FWD_NB_REASONS) {
			/* Counted; a classified drop waits in the context,
			 * in RX order. */
			want[expect[i]]++;
			FZ_CHECK(nd < c.nd && c.why[nd] == expect[i],
					"packet %u of %u: not dropped as %d in "
					"order", i, n, expect[i]);
			fz_local(fc, c.drop[nd++], (uint8_t)expect[i]);
			continue;
		}
		if (expect[i] == FWD_PASS) {
			o = fz_next_out(exp[i].port, 1, i);
			fz_check_forwarded(fc, o[0], &exp[i], f);
			continue;
		}
		if (expect[i] == FWD_MCAST) {
			for (p = 1; p <= 2; p++)
				fz_check_mcast_copy(fc, fz_next_out(p, 1, i)[0],
						p, &exp[i], f);
			continue;
		}
		nf = fz_nfrags(fc, &exp[i], f + exp[i].l2_len);
		if (nf == 0) {
			want[FWD_FRAG_FAIL]++;
			continue;
		}
		o = fz_next_out(exp[i].port, nf, i);
		fz_check_fragments(fc, o, (int32_t)nf, &exp[i], f);
	}
	FZ_CHECK(nd == c.nd, "%u dropped, %u expected", c.nd, nd);
	for (p = 0; p < FZ_PORTS; p++) {
		FZ_CHECK(fz_at[p] == fz_nout[p], "port %u: %u out, %u "
				"expected", p, fz_nout[p], fz_at[p]);
		for (k = 0; k < fz_nout[p]; k++)
			rte_pktmbuf_free(fz_out[p][k]);
	}
	for (k = 0; k < FWD_NB_REASONS; k++)
		FZ_CHECK(ic->drops[k] - drops[k] == want[k],
				"drop counter %u: %lu, want %lu", k,
				(unsigned long)(ic->drops[k] - drops[k]),
				(unsigned long)want[k]);
	fwd_burst_drops(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	const uint32_t flags = fz_take(&in, 1);
	const uint32_t first = fz_take(&in, 1), rest = fz_take(&in, 1) * 8;
	const uint32_t cut = flags & 128 ? fz_take(&in, 1) : 0;
	struct app_port_ctr *rx = &fz_ctr.port[0];
	const uint64_t truncated = rx->drops[FWD_TRUNCATED];
	const uint32_t len = RTE_MIN(in.n, (size_t)FZ_FRAME_MAX);
	/* Lookup, burst size and the input's place from the length. */
	struct fwd_conf *fc = &fz_conf[(len >> 3) & 1][flags & 1];
	struct fwd_conf *rules = &fz_conf[FWD_LOOKUP_LPM][flags & 1];
	struct rte_mempool *mp = fz_rx[(flags >> 3) & 1];
	const uint16_t n = 4 + (len & 1);
	const uint16_t at = (len >> 1) & 3;
	struct rte_mbuf *m, *pkts[FZ_BURST];
	struct fwd_meta md;
	uint16_t i;

	fc->t.mtu = rules->t.mtu = fz_mtus[(flags >> 1) & 3];
	fc->t.copybreak = flags & 16 ? FZ_COPYBREAK : 0;
	fc->t.cksum_hw = rules->t.cksum_hw = (flags & 96) != 0;
	m = fz_chain(mp, in.p, len, first != 0 ? first : UINT32_MAX,
			rest != 0 ? rest : UINT32_MAX);
	if (flags & 128) {
		if (cut % 3 == 0)
			m->pkt_len += 1 + cut / 3;
		else if (cut % 3 == 1)
			m->pkt_len -= RTE_MIN(m->pkt_len, 1 + cut / 3);
		else
			m->nb_segs++;
	}
	/* The RX check of the slow path: a chain cut wrong is dropped
	 * there, counted truncated once. */
	if (!fwd_pkt_chain_ok(m)) {
		struct fwd_ctx c = {
			.t = &fc->t, .tx = &fz_tx, .ctr = &fz_ctr, .ic = rx,
		};

		fwd_burst_decide(&c, &m, 1);
		FZ_CHECK((flags & 128) && (cut % 3 != 1 || len != 0) &&
				c.nd == 0 &&
				rx->drops[FWD_TRUNCATED] == truncated + 1,
				"a sound chain dropped, or not counted once");
		fz_check_all_back();
		return 0;
	}
	FZ_CHECK(!(flags & 128) || (cut % 3 == 1 && len == 0),
			"a chain cut wrong passed the RX check");
	if (flags & 32)
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
	/* A PMD says GOOD only for a right checksum. */
	if ((flags & 64) && fz_expect(rules, in.p, len,
			RTE_MBUF_F_RX_IP_CKSUM_GOOD, 1, &md) ==
			fz_expect(rules, in.p, len, 0, 1, &md))
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	/* The other places: the frame as one buffer (a chain past the
	 * data room), no flags: the pass meets the input beside copies of
	 * itself that may take the other way. */
	for (i = 0; i < n; i++) {
		pkts[i] = i == at ? m : fz_chain(mp, in.p, len, UINT32_MAX,
				UINT32_MAX);
		pkts[i]->port = 0;
	}
	fz_run(fc, rules, pkts, n, in.p, len);
	fz_check_all_back();
	return 0;
}

/* A route file from a string, for fwd_routes_load(). */
static char *
fz_route_file(const char *text)
{
	char *path = strdup("/tmp/np-fz-routes-XXXXXX");
	int fd = path != NULL ? mkstemp(path) : -1;

	FZ_CHECK(fd >= 0 && write(fd, text, strlen(text)) ==
			(ssize_t)strlen(text), "route file");
	close(fd);
	return path;
}

static void
fz_conf_init(struct fwd_conf *fc, enum fwd_lookup lookup, uint64_t portmask,
		bool files)
{
	char *r4 = files ? fz_route_file(fz_routes4) : NULL;
	char *r6 = files ? fz_route_file(fz_routes6) : NULL;
	uint16_t p;

	fc->t.lookup = lookup;
	fc->t.portmask = portmask;
	fc->rule4 = r4;
	fc->rule6 = r6;
	FZ_CHECK(fwd_routes_load(fc) == 0, "routes");
	if (files) {
		unlink(r4);
		unlink(r6);
	}
	free(r4);
	free(r6);
	fc->rule4 = fc->rule6 = NULL;
	r4 = fz_route_file(fz_mroutes);
	FZ_CHECK(fwd_mroutes_load(fc, r4) == 0, "multicast routes");
	unlink(r4);
	free(r4);
	fc->t.frag_direct = fz_frag_pools[0];
	fc->t.frag_indirect = fz_frag_pools[1];
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		fc->t.l2[p].dst.addr_bytes[0] = 0x02;
		fc->t.l2[p].dst.addr_bytes[5] = (uint8_t)p;
		fc->t.l2[p].src.addr_bytes[0] = 0x02;
		fc->t.l2[p].src.addr_bytes[4] = 0x01;
		fc->t.l2[p].src.addr_bytes[5] = (uint8_t)p;
	}
	fc->t.l2[0].src = fz_port0_mac;
	fwd_tables_l2_prepare(&fc->t);
}

/* Ports 0 .. FZ_PORTS - 1 as rings, each TX queue looped into its RX
 * queue: what the pipeline sends is taken back. */
static void
fz_ports_start(void)
{
	static const struct rte_eth_conf conf;
	struct rte_mempool *mp;
	struct rte_ring *r;
	char name[32];
	uint16_t p;

	mp = rte_pktmbuf_pool_create("fz_ring_rx", 64, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	FZ_CHECK(mp != NULL, "ring RX pool");
	for (p = 0; p < FZ_PORTS; p++) {
		snprintf(name, sizeof(name), "fz_ring%u", p);
		r = rte_ring_create(name, FZ_RING_SIZE, SOCKET_ID_ANY,
				RING_F_SP_ENQ | RING_F_SC_DEQ);
		FZ_CHECK(r != NULL && rte_eth_from_rings(name, &r, 1, &r, 1,
				SOCKET_ID_ANY) == p &&
				rte_eth_dev_configure(p, 1, 1, &conf) == 0 &&
				rte_eth_rx_queue_setup(p, 0, 64, SOCKET_ID_ANY,
					NULL, mp) == 0 &&
				rte_eth_tx_queue_setup(p, 0, 64, SOCKET_ID_ANY,
					NULL) == 0 &&
				rte_eth_dev_start(p) == 0, "port %u", p);
	}
}

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	static const struct app_stats_desc desc = {
		"npool-fwd", NULL, FWD_NB_REASONS, .rx_bad = FWD_TRUNCATED,
	};
	static struct app_lcore_ctr ctr[RTE_MAX_LCORE];
	static struct app_opts o;

	fz_eal_init("fwd_pkt", 0, NULL);
	app_opts_defaults(&o, "fwd_pkt_fuzz");
	app_stats_init(&desc, &o, ctr);
	app_pool_init(&o, 0);
	FZ_CHECK(app_pool_npool_up(FZ_RX_MBUFS) == 0, "npool_init");
	fz_rx[0] = app_pool_create("fz_rx_np", FZ_RX_MBUFS,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, APP_POOL_NPOOL);
	fz_rx[1] = app_pool_create("fz_rx_mp", FZ_RX_MBUFS,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY,
			APP_POOL_MEMPOOL);
	fz_frag_pools[0] = app_pool_create("fz_fdir", FZ_FRAG_MBUFS,
			RTE_PKTMBUF_HEADROOM + 64, SOCKET_ID_ANY,
			APP_POOL_MEMPOOL);
	fz_frag_pools[1] = app_pool_create("fz_find", 2 * FZ_FRAG_MBUFS, 0,
			SOCKET_ID_ANY, APP_POOL_MEMPOOL);
	FZ_CHECK(fz_rx[0] != NULL && fz_rx[1] != NULL &&
			fz_frag_pools[0] != NULL && fz_frag_pools[1] != NULL,
			"pools");
	fwd_addr_init(&fz_addrs);
	fz_addrs.ratelimit_ms = 0;
	fz_addrs.msgs_per_sec = 0;
	FZ_CHECK(fwd_addr_parse(&fz_addrs,
			"0,198.18.0.1/16,10.0.0.1/8,2001:2::1/48") == 0,
			"--port-addr");
	fz_conf_init(&fz_conf[0][0], FWD_LOOKUP_LPM, 0xf, true);
	fz_conf_init(&fz_conf[0][1], FWD_LOOKUP_LPM, 0x7, false);
	fz_conf_init(&fz_conf[1][0], FWD_LOOKUP_FIB, 0xf, true);
	fz_conf_init(&fz_conf[1][1], FWD_LOOKUP_FIB, 0x7, false);
	fwd_addr_link_local(&fz_addrs, (const struct rte_ether_addr[]){
			fz_conf[0][0].t.l2[0].src });
	fz_ports_start();
	fwd_tx_init(&fz_tx, 0, &fz_conf[0][0].t);
	return 0;
}
