/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The model of npool_ops_fuzz.c: what the input holds (fragments, packets
 * and references to them), the checks a new fragment passes and a freed
 * one is checked for, and the counters a step must move.
 */
#include <string.h>

#include <rte_mempool.h>

#include "npool_ops_model.h"

struct fz_region fz_regions[FZ_REGIONS];
struct fz_pkt fz_pkts[FZ_HANDLES];
struct fz_handle fz_h[FZ_HANDLES];
static uint8_t fz_fill;

int
fz_empty_handle(void)
{
	int h;

	for (h = 0; h < FZ_HANDLES; h++)
		if (fz_h[h].region < 0 && fz_h[h].pkt < 0)
			return h;
	return -1;
}

static int
fz_new_index(bool region)
{
	int i, n = region ? FZ_REGIONS : FZ_HANDLES;

	for (i = 0; i < n; i++)
		if (region ? fz_regions[i].refs == 0 : fz_pkts[i].refs == 0)
			return i;
	fz_fail(__FILE__, __LINE__, "room", "model full");
}

/*
 * A new fragment: aligned, inside one chunk, over no live one; its first
 * @p fill bytes filled (a packet's shared info follows them).
 */
int
fz_region_add(void *p, uint32_t size, uint32_t align, uint32_t fill)
{
	uint8_t *b = p;
	int i, r;

	FZ_CHECK(((uintptr_t)b & (align - 1)) == 0, "%p not aligned to %u",
			p, align);
	FZ_CHECK(ut_chunk_of(b) != NULL &&
			ut_chunk_of(b) == ut_chunk_of(b + size - 1),
			"%p + %u not inside one chunk", p, size);
	for (i = 0; i < FZ_REGIONS; i++)
		FZ_CHECK(fz_regions[i].refs == 0 ||
				b + size <= fz_regions[i].base ||
				b >= fz_regions[i].base + fz_regions[i].size,
				"%p + %u overlaps a live fragment %p + %u",
				p, size, fz_regions[i].base,
				fz_regions[i].size);
	r = fz_new_index(true);
	fz_fill = (uint8_t)(fz_fill + 1) | 1;
	fz_regions[r] = (struct fz_region){ b, size, fill, 1, npool_slot(),
		fz_fill };
	memset(b, fz_fill, fill);
	return r;
}

/* One reference to region @p r goes; the last one frees the fragment. */
static void
fz_region_put(int r, struct fz_delta *want)
{
	struct fz_region *g = &fz_regions[r];
	uint32_t i;

	if (--g->refs != 0)
		return;
	static uint8_t pattern[NPOOL_CHUNK_SIZE];

	memset(pattern, g->fill, g->check);
	if (memcmp(g->base, pattern, g->check) != 0)
		for (i = 0; i < g->check; i++)
			FZ_CHECK(g->base[i] == g->fill,
					"fragment %p byte %u changed", g->base,
					i);
	want->frees++;
	want->remote += g->slot != npool_slot();
}

int
fz_pkt_add(struct rte_mbuf *m)
{
	int k = fz_new_index(false);
	struct fz_pkt *p = &fz_pkts[k];
	const struct rte_mbuf *s;

	memset(p, 0, sizeof(*p));
	p->m = m;
	p->refs = 1;
	for (s = m; s != NULL; s = s->next)
		p->region[p->nseg++] = -1;
	return k;
}

/*
 * The model side of handle @p h letting go of its reference: its packet's
 * segments when it is the last reference. @return the mbuf to free, or
 * NULL for a raw fragment.
 */
struct rte_mbuf *
fz_release(int h, struct fz_delta *want, bool consume)
{
	struct fz_handle *fh = &fz_h[h];
	struct fz_pkt *p;
	uint16_t i;

	if (fh->region >= 0) {
		fz_region_put(fh->region, want);
		fh->region = -1;
		return NULL;
	}
	p = &fz_pkts[fh->pkt];
	fh->pkt = -1;
	want->pkt_consumes += consume ? p->nseg : 0;
	if (--p->refs == 0)
		for (i = 0; i < p->nseg; i++)
			if (p->region[i] >= 0)
				fz_region_put(p->region[i], want);
	return p->m;
}

/* Whether fragment @p p is in a chunk the napi cache of slot @p slot
 * carves now or carved before it: a consume burst starting there stays
 * inline (npool_frag_free_batch_own_pvt()). */
static bool
fz_own_chunk(const struct npool_lcore *lc, const void *p)
{
	const struct npool_chunk *c = ut_chunk_of(p);

	return !NPOOL_DEBUG_HOOKS && c != NULL &&
		(c == lc->napi.chunk || c == lc->napi.prev);
}

/* Whether @p m is a segment npool's consume path frees inline. */
static bool
fz_lone_npool(const struct rte_mbuf *m)
{
	return m->next == NULL && rte_mbuf_refcnt_read(m) == 1 &&
		m->nb_segs == 1 && RTE_MBUF_HAS_EXTBUF(m);
}

void
fz_defer_predict(struct rte_mbuf *const *m, unsigned int n, int *to)
{
	const struct npool *np = npool_default();
	const unsigned int slot = npool_slot();
	unsigned int i;
	int owner = -1;

	for (i = 0; i < n; i++)
		to[i] = -1;
	if (n == 0 || slot >= RTE_MAX_LCORE || m[0]->pool != np->head_pool)
		return;
	/* All plain, or the first packet carved here: no defer. */
	for (i = 0; i < n && RTE_MBUF_DIRECT(m[i]) &&
			m[i]->pool == m[0]->pool &&
			rte_mbuf_refcnt_read(m[i]) == 1 && m[i]->nb_segs == 1;
			i++)
		;
	if (i == n || fz_own_chunk(&np->lc[slot], m[0]->buf_addr))
		return;
	/* npool_napi_consume_other(): the first carver of the burst gets its
	 * lone packets; the first packet freed neither way ends it. */
	for (i = 0; i < n; i++) {
		const struct npool_chunk *c;

		if (m[i]->pool != np->head_pool)
			return;
		c = fz_lone_npool(m[i]) ? ut_chunk_of(m[i]->buf_addr) : NULL;
		if (c != NULL && c->owner != slot &&
				c->owner < RTE_MAX_LCORE &&
				np->lc[c->owner].defer != NULL &&
				(owner < 0 || owner == c->owner)) {
			owner = c->owner;
			to[i] = owner;
			continue;
		}
		if (!fz_lone_npool(m[i]) ||
				m[i]->shinfo->free_cb != npool_pkt_free_cb ||
				rte_mbuf_ext_refcnt_read(m[i]->shinfo) != 1)
			return;
	}
}

void
fz_defer(int h, int lcore)
{
	struct fz_pkt *p = &fz_pkts[fz_h[h].pkt];

	FZ_CHECK(p->refs == 1, "packet handed back with %u references",
			p->refs);
	p->deferred = (uint16_t)(lcore + 1);
	fz_h[h].pkt = -1;
}

void
fz_defer_flush(struct fz_delta *want)
{
	unsigned int k;
	uint16_t i;

	for (k = 0; k < FZ_HANDLES; k++) {
		struct fz_pkt *p = &fz_pkts[k];

		if (p->refs == 0 || p->deferred == 0)
			continue;
		p->deferred = 0;
		p->refs = 0;
		for (i = 0; i < p->nseg; i++)
			if (p->region[i] >= 0)
				fz_region_put(p->region[i], want);
	}
}

/* Free handle @p h: fragment at an inner address, packet as @p how says. */
void
fz_free(int h, uint32_t how, uint32_t off, struct fz_delta *want)
{
	const struct fz_region *g;
	struct rte_mbuf *m;
	uint8_t *p = NULL;
	int to;

	if (fz_h[h].region >= 0) {
		g = &fz_regions[fz_h[h].region];
		p = g->base + off % g->size;
	} else if (how % 3 == 2) {
		/* A burst of one: back to its carver, maybe. */
		m = fz_pkts[fz_h[h].pkt].m;
		fz_defer_predict(&m, 1, &to);
		if (to >= 0) {
			fz_defer(h, to);
			npool_napi_consume_bulk(&m, 1);
			return;
		}
	}
	m = fz_release(h, want, how % 3 != 0);
	if (m == NULL)
		npool_free_frag(p);
	else if (how % 3 == 0)
		rte_pktmbuf_free(m);
	else if (how % 3 == 1)
		npool_napi_consume_pkt(m);
	else
		npool_napi_consume_bulk(&m, 1);
}

/* Chunks holding a live fragment. */
static unsigned int
fz_chunks_held(void)
{
	const struct npool_chunk *seen[FZ_REGIONS];
	unsigned int n = 0, j;
	int i;

	for (i = 0; i < FZ_REGIONS; i++) {
		const struct npool_chunk *c;

		if (fz_regions[i].refs == 0)
			continue;
		c = ut_chunk_of(fz_regions[i].base);
		for (j = 0; j < n && seen[j] != c; j++)
			;
		if (j == n)
			seen[n++] = c;
	}
	return n;
}

/*
 * Counters of the three slots the steps run on (lcores 0 and 1, non-EAL
 * threads), added up: npool_stats_sum() reads every slot, which costs more
 * than a step; the end of each input checks that it agrees.
 */
struct npool_stats
fz_stats(void)
{
	static const unsigned int slots[] = {
		0, UT_OTHER_LCORE, NPOOL_NON_EAL_SLOT,
	};
	struct npool_stats st, sum;
	uint64_t *a = (uint64_t *)&sum;
	const uint64_t *b = (const uint64_t *)&st;
	unsigned int i, k;

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < RTE_DIM(slots); i++) {
		FZ_CHECK(npool_stats_get(slots[i], &st) == 0, "stats");
		for (k = 0; k < sizeof(st) / sizeof(uint64_t); k++)
			a[k] += b[k];
	}
	return sum;
}

/*
 * Counters moved as the model says; fragments and heads out agree (the
 * counters give the fragments out: npool_usage_get() and its sum over
 * every slot run only after a drain and at the end, they cost more than a
 * step). @return the counters now, the next step's "before".
 */
struct npool_stats
fz_check(const struct npool_stats *b, const struct fz_delta *w,
		uint32_t op, bool drained)
{
	const struct npool_stats a = fz_stats();
	const int64_t out = (int64_t)(a.allocs + a.guarded_allocs - a.frees);
	struct npool_usage u;
	unsigned int live = 0, heads = 0, i;
	const struct rte_mbuf *s;

	FZ_CHECK((int64_t)(a.allocs + a.guarded_allocs - b->allocs -
			b->guarded_allocs) == w->allocs &&
			(int64_t)(a.frees - b->frees) == w->frees &&
			(int64_t)(a.remote_frees - b->remote_frees) == w->remote &&
			(int64_t)(a.failures - b->failures) == w->failures,
			"op %u: allocs %+ld frees %+ld remote %+ld failures %+ld, expected %+ld %+ld %+ld %+ld",
			op, (long)(a.allocs + a.guarded_allocs - b->allocs -
			b->guarded_allocs), (long)(a.frees - b->frees),
			(long)(a.remote_frees - b->remote_frees),
			(long)(a.failures - b->failures), (long)w->allocs,
			(long)w->frees, (long)w->remote, (long)w->failures);
	FZ_CHECK((int64_t)(a.pkt_allocs - b->pkt_allocs) == w->pkt_allocs &&
			(int64_t)(a.pkt_builds - b->pkt_builds) == w->pkt_builds &&
			(int64_t)(a.pkt_failures - b->pkt_failures) ==
				w->pkt_failures &&
			(int64_t)(a.pkt_consumes - b->pkt_consumes) ==
				w->pkt_consumes,
			"op %u: packet allocs %+ld builds %+ld failures %+ld consumes %+ld",
			op, (long)(a.pkt_allocs - b->pkt_allocs),
			(long)(a.pkt_builds - b->pkt_builds),
			(long)(a.pkt_failures - b->pkt_failures),
			(long)(a.pkt_consumes - b->pkt_consumes));
	/* The kernel's order-0 fallback: only when no compound page; and a
	 * small-packet cache takes a big chunk only when no small one. */
	FZ_CHECK((int64_t)(a.refills + a.reuses - b->refills - b->reuses) <=
			w->refills &&
			a.small_fallbacks - b->small_fallbacks +
				a.big_fallbacks - b->big_fallbacks <=
				a.refills - b->refills &&
			(a.small_fallbacks == b->small_fallbacks || w->no_big) &&
			(a.big_fallbacks == b->big_fallbacks || w->no_small),
			"op %u: refills %+ld reuses %+ld small fallbacks %+ld big fallbacks %+ld (at most %ld, small %s, big %s)",
			op, (long)(a.refills - b->refills),
			(long)(a.reuses - b->reuses),
			(long)(a.small_fallbacks - b->small_fallbacks),
			(long)(a.big_fallbacks - b->big_fallbacks),
			(long)w->refills, w->no_big ? "allowed" : "not allowed",
			w->no_small ? "allowed" : "not allowed");
	for (i = 0; i < FZ_REGIONS; i++)
		live += fz_regions[i].refs != 0;
	for (i = 0; i < FZ_HANDLES; i++)
		for (s = fz_pkts[i].refs ? fz_pkts[i].m : NULL; s; s = s->next)
			heads += s->pool == npool_head_pool();
	FZ_CHECK(out == live &&
			rte_mempool_in_use_count(npool_head_pool()) == heads,
			"op %u: %ld fragments and %u heads out, model %u and %u",
			op, (long)out,
			rte_mempool_in_use_count(npool_head_pool()), live,
			heads);
	if (drained) {
		npool_usage_get(&u);
		FZ_CHECK(u.frags_out == live && u.heads_out == heads &&
				u.chunks_in_use == fz_chunks_held(),
				"after a drain %ld fragments, %u heads, %u chunks out; model %u, %u, %u",
				(long)u.frags_out, u.heads_out,
				u.chunks_in_use, live, heads, fz_chunks_held());
	}
	return a;
}
