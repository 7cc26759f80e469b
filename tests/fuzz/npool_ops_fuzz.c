/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: sequences of libnpool operations read from the input, on
 * a small arena (16 + 16 chunks, 128 heads) so that exhaustion is
 * reached: fragments of both flavors (aligned or not, sizes 0 .. chunk + 1),
 * frees by any inner address, npool_build_pkt(), packets of both flavors,
 * plain mbufs of an "npool" and a stock pool, rte_pktmbuf_clone() into the
 * head pool or a pool of its own, refcount updates, chains, consume one
 * and in bulk, rte_pktmbuf_free(), the same on lcore 1 and on a non-EAL
 * thread, cache drains, frees of foreign addresses.
 *
 * A model of what the input holds (fragments, packets and the references
 * to them, npool_ops_model.c) gives the expected outcome of each step. Checked after each:
 * success or the documented rte_errno (EINVAL for bad arguments, EPERM for
 * the napi flavor off an lcore, ENOMEM only when no big chunk is free, a
 * free big chunk always enough, and for a small packet only when no small
 * chunk is free either); a small packet on a small chunk unless none was
 * free; a fragment aligned, within one chunk,
 * overlapping no live one, its bytes untouched until freed; each counter
 * moved by exactly what the step did (allocs, frees, remote frees,
 * failures, packet allocs/builds/failures/consumes); fragments and heads
 * out equal to the model's; after a drain, the chunks in use are exactly
 * those holding live fragments. At the end everything is released: no
 * fragment or head out, every pool full, every chunk free exactly once.
 */
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "npool.h"
#include "rte_mempool_npool.h"
#include "npool_ops_model.h"

#define FZ_MAX_REFS 8
#define FZ_SWITCHES 4   /* steps on lcore 1 or a pthread per input */

static struct rte_mempool *fz_plain[2], *fz_clones;
static unsigned int fz_switches_left;

enum {
	OP_NAPI_FRAG, OP_NAPI_FRAG_ALIGN, OP_FRAG, OP_FRAG_ALIGN, OP_FREE,
	OP_CONSUME, OP_BUILD, OP_NAPI_PKT, OP_PKT, OP_CLONE, OP_REF,
	OP_CHAIN, OP_PLAIN, OP_CONSUME_BULK, OP_LCORE1, OP_PTHREAD, OP_DRAIN,
	OP_FREE_FOREIGN, OP_NB
};

static void
fz_op_frag(struct fz_in *in, bool napi, bool aligned, struct fz_delta *want)
{
	const uint32_t size = fz_take(in, 2) % (NPOOL_CHUNK_SIZE + 2);
	const uint32_t a = aligned ? fz_take(in, 1) : 0;
	/* 1 .. 64 KiB, or 240..255: not powers of two. */
	const uint32_t align = !aligned ? 1 : a < 0xf0 ? 1u << (a % 17) : a;
	const bool eal = npool_slot() != NPOOL_NON_EAL_SLOT;
	const bool bad = size == 0 || size > NPOOL_CHUNK_SIZE ||
		(align & (align - 1)) != 0 || align > NPOOL_CHUNK_SIZE;
	const unsigned int big = ut_free_for(0, napi);
	int h = fz_empty_handle();
	void *p;

	/* Debug builds panic on the napi flavor off an lcore, by design
	 * (tests/unit/debug_test.c). */
	if (h < 0 || (NPOOL_DEBUG && napi && !eal))
		return;
	want->refills = 1;
	want->no_big = big == 0;
	rte_errno = 0;
	p = napi ? npool_napi_alloc_frag_align(size, align) :
		npool_alloc_frag_align(size, align);
	if (p == NULL) {
		FZ_CHECK(rte_errno == (napi && !eal ? EPERM : bad ? EINVAL :
				ENOMEM), "alloc %u align %u: rte_errno %d",
				size, align, rte_errno);
		FZ_CHECK(bad || (napi && !eal) || big == 0,
				"ENOMEM with %u big chunks free", big);
		want->failures++;
		return;
	}
	FZ_CHECK(!bad && (eal || !napi), "alloc %u align %u succeeded",
			size, align);
	fz_h[h].region = (int16_t)fz_region_add(p, size, align, size);
	want->allocs++;
}

static void
fz_op_pkt(struct fz_in *in, bool napi, struct fz_delta *want)
{
	const uint32_t len = fz_take(in, 2) % (NPOOL_PKT_MAX_LEN + 2);
	const bool eal = npool_slot() != NPOOL_NON_EAL_SLOT;
	const bool bad = len > NPOOL_PKT_MAX_LEN ||
		npool_pkt_fragsz(len) > NPOOL_CHUNK_SIZE;
	/* A small packet comes from the slot's small-packet cache
	 * (npool_pkt.h): a small chunk, a big one only when no small one
	 * was free (or the cache still carves that big fallback). */
	const bool small = !bad &&
		npool_pkt_fragsz(len) <= npool_default()->small_fragsz;
	const struct npool_lcore *lc = &npool_default()->lc[npool_slot()];
	const struct npool_chunk *prev = napi ? lc->napi_small.chunk :
		lc->guarded_small.chunk;
	const unsigned int big = ut_free_for(0, napi);
	const unsigned int nsmall = ut_free_for(1, napi);
	const struct npool_chunk *c;
	int h = fz_empty_handle(), k;
	struct rte_mbuf *m;

	/* As fz_op_frag(): debug builds panic there. */
	if (h < 0 || (NPOOL_DEBUG && napi && !eal))
		return;
	want->refills = 1;
	want->no_big = big == 0;
	want->no_small = nsmall == 0;
	rte_errno = 0;
	m = napi ? npool_napi_alloc_pkt(len) : npool_alloc_pkt(len);
	if (m == NULL) {
		FZ_CHECK(napi && !eal ? rte_errno == EPERM : bad ?
				rte_errno == EINVAL : rte_errno == ENOBUFS ||
				(rte_errno == ENOMEM && big == 0 &&
				 (!small || nsmall == 0)),
				"packet %u: rte_errno %d, %u big and %u small chunks free",
				len, rte_errno, big, nsmall);
		want->pkt_failures++;
		want->failures += rte_errno == ENOMEM;
		return;
	}
	c = ut_chunk_of(m->buf_addr);
	FZ_CHECK(!small || (c->flags & NPOOL_CHUNK_F_SMALL) || nsmall == 0 ||
			c == prev,
			"small packet of %u on big chunk %u with %u small chunks free",
			len, c->index, nsmall);
	FZ_CHECK(!bad && (eal || !napi), "packet of %u succeeded", len);
	FZ_CHECK(npool_pkt_is_npool(m) && rte_mbuf_refcnt_read(m) == 1 &&
			m->nb_segs == 1 && m->data_len == 0 &&
			m->pkt_len == 0 && m->next == NULL &&
			m->data_off == RTE_PKTMBUF_HEADROOM &&
			rte_pktmbuf_tailroom(m) >= len,
			"packet of %u: a field is wrong", len);
	k = fz_pkt_add(m);
	fz_pkts[k].region[0] = (int16_t)fz_region_add(m->buf_addr,
			npool_pkt_fragsz(len), RTE_CACHE_LINE_SIZE, m->buf_len);
	fz_h[h].pkt = (int16_t)k;
	want->allocs++;
	want->pkt_allocs++;
}

static void
fz_op_build(int h, struct fz_delta *want)
{
	struct fz_region *g;
	struct rte_mbuf *m;
	bool bad;
	int k;

	if (fz_h[h].region < 0)
		return;
	g = &fz_regions[fz_h[h].region];
	bad = ((uintptr_t)g->base & 7) != 0 || g->size <= NPOOL_SHINFO_SIZE ||
		g->size > UINT16_MAX + NPOOL_SHINFO_SIZE;
	rte_errno = 0;
	m = npool_build_pkt(g->base, g->size);
	if (m == NULL) {
		FZ_CHECK(rte_errno == (bad ? EINVAL : ENOBUFS),
				"build %p + %u: rte_errno %d", g->base, g->size,
				rte_errno);
		want->pkt_failures++;
		return;
	}
	FZ_CHECK(!bad && m->buf_addr == g->base &&
			(uint8_t *)m->shinfo == g->base + m->buf_len &&
			((uintptr_t)m->shinfo & 7) == 0 &&
			m->buf_len + sizeof(*m->shinfo) <= g->size &&
			m->buf_len + sizeof(*m->shinfo) + 8 > g->size &&
			m->data_off == RTE_MIN(RTE_PKTMBUF_HEADROOM, m->buf_len) &&
			m->data_len == 0 && m->nb_segs == 1 &&
			rte_mbuf_refcnt_read(m) == 1 && npool_pkt_is_npool(m),
			"build %p + %u: a field is wrong", g->base, g->size);
	/* The shared info took the tail: the fill is checked before it. */
	g->check = m->buf_len;
	k = fz_pkt_add(m);
	fz_pkts[k].region[0] = fz_h[h].region;
	fz_h[h].region = -1;
	fz_h[h].pkt = (int16_t)k;
	want->pkt_builds++;
}

static void
fz_op_clone(int h, bool head_pool)
{
	int n = fz_empty_handle(), k;
	struct fz_pkt *p;
	struct rte_mbuf *mc;
	uint16_t i;

	if (fz_h[h].pkt < 0 || n < 0)
		return;
	p = &fz_pkts[fz_h[h].pkt];
	mc = rte_pktmbuf_clone(p->m, head_pool ? npool_head_pool() :
			fz_clones);
	if (mc == NULL)
		return;
	FZ_CHECK(mc->pkt_len == p->m->pkt_len && mc->nb_segs == p->nseg,
			"clone: %u bytes in %u segments", mc->pkt_len,
			mc->nb_segs);
	k = fz_pkt_add(mc);
	for (i = 0; i < p->nseg; i++) {
		fz_pkts[k].region[i] = p->region[i];
		if (p->region[i] >= 0)
			fz_regions[p->region[i]].refs++;
	}
	fz_h[n].pkt = (int16_t)k;
}

static void
fz_op_ref(int h)
{
	int n = fz_empty_handle();
	struct fz_pkt *p;

	if (fz_h[h].pkt < 0 || n < 0)
		return;
	p = &fz_pkts[fz_h[h].pkt];
	if (p->refs == FZ_MAX_REFS)
		return;
	rte_pktmbuf_refcnt_update(p->m, 1);
	p->refs++;
	fz_h[n].pkt = fz_h[h].pkt;
}

static void
fz_op_chain(int h1, int h2)
{
	struct fz_pkt *a, *b;

	if (fz_h[h1].pkt < 0 || fz_h[h2].pkt < 0 ||
			fz_h[h1].pkt == fz_h[h2].pkt)
		return;
	a = &fz_pkts[fz_h[h1].pkt];
	b = &fz_pkts[fz_h[h2].pkt];
	if (a->refs != 1 || b->refs != 1 || a->nseg + b->nseg > FZ_SEGS)
		return;
	FZ_CHECK(rte_pktmbuf_chain(a->m, b->m) == 0, "chain");
	memcpy(&a->region[a->nseg], b->region, b->nseg * sizeof(b->region[0]));
	a->nseg += b->nseg;
	b->refs = 0;
	fz_h[h2].pkt = -1;
}

static void
fz_op_plain(bool npool_ops)
{
	int h = fz_empty_handle();
	struct rte_mbuf *m;

	if (h < 0)
		return;
	m = rte_pktmbuf_alloc(fz_plain[npool_ops]);
	if (m != NULL)
		fz_h[h].pkt = (int16_t)fz_pkt_add(m);
}

static void
fz_op_consume_bulk(struct fz_in *in, struct fz_delta *want)
{
	/* Room for a whole burst: gcc 12 -Warray-bounds reads the inlined
	 * bulk put as touching up to 32 entries. */
	struct rte_mbuf *m[32];
	unsigned int n = 0, k = 1 + fz_take(in, 1) % 4, i, j;
	int h, hs[4], to[4];

	for (i = 0; i < k; i++) {
		h = fz_take(in, 1) % FZ_HANDLES;
		for (j = 0; j < n && hs[j] != h; j++)
			;
		if (fz_h[h].pkt >= 0 && j == n) {
			hs[n] = h;
			m[n++] = fz_pkts[fz_h[h].pkt].m;
		}
	}
	/* Those handed back stay out until a drain (fz_defer_flush()). */
	fz_defer_predict(m, n, to);
	for (i = 0; i < n; i++) {
		if (to[i] >= 0)
			fz_defer(hs[i], to[i]);
		else
			fz_release(hs[i], want, true);
	}
	npool_napi_consume_bulk(m, n);
}

/* One step where the calling thread runs it. */
struct fz_step {
	struct fz_in *in;
	struct fz_delta *want;
	uint32_t op;
};

static int fz_step(void *arg);

/* A step of @p kind on lcore 1 (@p lcore) or on a new non-EAL thread. */
static void
fz_op_elsewhere(struct fz_in *in, struct fz_delta *want, bool lcore)
{
	static const uint32_t ops[] = {
		OP_NAPI_FRAG, OP_FRAG_ALIGN, OP_FREE, OP_CONSUME, OP_NAPI_PKT,
		OP_PKT, OP_CLONE,
	};
	struct fz_step s = { in, want, ops[fz_take(in, 1) % RTE_DIM(ops)] };

	/* A thread switch costs far more than a step: a few per input. */
	if (fz_switches_left == 0)
		return;
	fz_switches_left--;
	FZ_CHECK((lcore ? ut_on_other_lcore(fz_step, &s) :
			ut_in_pthread(fz_step, &s)) == 0, "remote step");
}

static int
fz_step(void *arg)
{
	struct fz_step *s = arg;
	struct fz_in *in = s->in;
	struct fz_delta *want = s->want;
	static int foreign;
	uint32_t how;
	int h;

	switch (s->op) {
	case OP_NAPI_FRAG:
	case OP_NAPI_FRAG_ALIGN:
	case OP_FRAG:
	case OP_FRAG_ALIGN:
		fz_op_frag(in, s->op <= OP_NAPI_FRAG_ALIGN,
				s->op == OP_NAPI_FRAG_ALIGN ||
				s->op == OP_FRAG_ALIGN, want);
		break;
	case OP_FREE:
	case OP_CONSUME:
		h = fz_take(in, 1) % FZ_HANDLES;
		how = s->op == OP_FREE ? 0 : 1 + fz_take(in, 1) % 2;
		if (fz_h[h].region >= 0 || fz_h[h].pkt >= 0)
			fz_free(h, how, fz_take(in, 2), want);
		break;
	case OP_BUILD:
		fz_op_build(fz_take(in, 1) % FZ_HANDLES, want);
		break;
	case OP_NAPI_PKT:
	case OP_PKT:
		fz_op_pkt(in, s->op == OP_NAPI_PKT, want);
		break;
	case OP_CLONE:
		h = fz_take(in, 1) % FZ_HANDLES;
		fz_op_clone(h, fz_take(in, 1) & 1);
		break;
	case OP_REF:
		fz_op_ref(fz_take(in, 1) % FZ_HANDLES);
		break;
	case OP_CHAIN:
		h = fz_take(in, 1) % FZ_HANDLES;
		fz_op_chain(h, fz_take(in, 1) % FZ_HANDLES);
		break;
	case OP_PLAIN:
		fz_op_plain(fz_take(in, 1) & 1);
		break;
	case OP_CONSUME_BULK:
		fz_op_consume_bulk(in, want);
		break;
	case OP_LCORE1:
	case OP_PTHREAD:
		fz_op_elsewhere(in, want, s->op == OP_LCORE1);
		break;
	case OP_DRAIN:
		/* From the main lcore, lcore 1 idle: every defer ring too. */
		fz_defer_flush(want);
		npool_frag_cache_drain_all();
		break;
	case OP_FREE_FOREIGN:
		/* Outside the arena: ignored and counted; NULL: ignored.
		 * Debug (and ASan) builds panic on the former by design
		 * (tests/unit/debug_test.c): there only NULL is tried. */
#if !NPOOL_DEBUG
		npool_free_frag(&foreign);
		want->failures++;
#else
		RTE_SET_USED(foreign);
#endif
		npool_free_frag(NULL);
		break;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct rte_mempool *const pools[] = {
		fz_plain[0], fz_plain[1], fz_clones,
	};
	struct npool_stats before, sum;
	struct npool_usage u;
	struct fz_delta want;
	struct fz_step s;
	unsigned int i;

	memset(fz_regions, 0, sizeof(fz_regions));
	memset(fz_pkts, 0, sizeof(fz_pkts));
	memset(fz_h, 0xff, sizeof(fz_h));
	fz_switches_left = FZ_SWITCHES;
	before = fz_stats();
	while (in.n != 0) {
		s = (struct fz_step){ &in, &want, fz_take(&in, 1) % OP_NB };
		memset(&want, 0, sizeof(want));
		fz_step(&s);
		before = fz_check(&before, &want, s.op, s.op == OP_DRAIN);
	}
	for (i = 0; i < FZ_HANDLES; i++) {
		if (fz_h[i].region < 0 && fz_h[i].pkt < 0)
			continue;
		memset(&want, 0, sizeof(want));
		fz_free(i, 0, 0, &want);
		before = fz_check(&before, &want, OP_FREE, false);
	}
	memset(&want, 0, sizeof(want));
	fz_defer_flush(&want);
	npool_frag_cache_drain_all();
	before = fz_check(&before, &want, OP_DRAIN, false);
	npool_usage_get(&u);
	FZ_CHECK(u.frags_out == 0 && u.heads_out == 0 && u.chunks_in_use == 0,
			"at the end: %ld fragments, %u heads, %u chunks out",
			(long)u.frags_out, u.heads_out, u.chunks_in_use);
	for (i = 0; i < RTE_DIM(pools); i++)
		FZ_CHECK(rte_mempool_avail_count(pools[i]) == pools[i]->size,
				"%s: %u of %u back", pools[i]->name,
				rte_mempool_avail_count(pools[i]),
				pools[i]->size);
	ut_assert_each_chunk_free_once();
	FZ_CHECK(npool_stats_sum(&sum) == 0 &&
			memcmp(&sum, &before, sizeof(sum)) == 0,
			"npool_stats_sum() is not the sum of the slots used");
	return 0;
}

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	fz_eal_init("npool_ops", 0, NULL);
	/* The model is of head + fragment packets at every size. */
	ut_tiny_len = 0;
	FZ_CHECK(ut_npool_init(16, 16, 128, 0) == 0, "npool_init");
	fz_plain[0] = rte_pktmbuf_pool_create("fz_plain_mp", 128, 32, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	fz_plain[1] = npool_pktmbuf_pool_create("fz_plain_np", 128, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	fz_clones = npool_pktmbuf_pool_create("fz_clones", 128, 0, 0,
			SOCKET_ID_ANY);
	FZ_CHECK(fz_plain[0] != NULL && fz_plain[1] != NULL &&
			fz_clones != NULL, "pools");
	return 0;
}
