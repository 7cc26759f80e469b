/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A stress worker: make objects (fragments of both flavors, packets
 * allocated or built, clones, extra references), write a pattern into
 * each, hand each to a random worker's ring or keep it a while; take
 * what others sent, check the pattern and the packet fields, and release
 * each with a random call.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring_elem.h>

#include <npool.h>

#include "stress.h"

#define ST_HOLD 64   /* objects a worker keeps, freed later in any order */
#define ST_BURST 32  /* messages taken from the inbound ring at once */
#define ST_BATCH 32  /* most packets in one npool_napi_consume_bulk() */
#define PAT_EDGE 64  /* bytes written whole at each end of a buffer */

struct st_local {
	struct st_worker *w;
	struct rte_mempool *heads;      /* npool's head pool (clones) */
	struct rte_mempool *mid;        /* npool's mid-size packets */
	int eal;                        /* 1 on an EAL lcore: napi allowed */
	unsigned int nb_batch;          /* packets waiting in @batch */
	unsigned int batch_max;         /* flush when this many wait */
	struct st_msg hold[ST_HOLD];    /* obj NULL: empty slot */
	struct rte_mbuf *batch[ST_BATCH];
};

/* Counters are read by worker 0 for progress: relaxed atomic stores. */
static inline void
ev_add(struct st_worker *w, enum st_ev ev, uint64_t n)
{
	__atomic_store_n(&w->ev[ev], w->ev[ev] + n, __ATOMIC_RELAXED);
}

/* xorshift64*: fast, and deterministic per worker for one seed. */
static inline uint64_t
rnd(struct st_worker *w)
{
	uint64_t x = w->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	w->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in 0 .. n - 1. */
static inline uint32_t
rnd_below(struct st_worker *w, uint32_t n)
{
	return (uint32_t)(((rnd(w) >> 32) * n) >> 32);
}

/* A size in 1 .. max, mostly small as packets are. */
static uint32_t
rnd_size(struct st_worker *w, uint32_t max)
{
	uint32_t r = rnd_below(w, 100), hi;

	if (r < 50)
		hi = 256;
	else if (r < 80)
		hi = 2048;
	else if (r < 95)
		hi = 9216;
	else
		hi = max;
	return 1 + rnd_below(w, RTE_MIN(hi, max));
}

/* A power of two in 1 .. NPOOL_CHUNK_SIZE, mostly small. */
static uint32_t
rnd_align(struct st_worker *w)
{
	uint32_t r = rnd_below(w, 100);

	if (r < 40)
		return 1;
	if (r < 90)
		return 1u << rnd_below(w, 7);
	if (r < 99)
		return 1u << rnd_below(w, 13);
	return 1u << rnd_below(w, NPOOL_CHUNK_SHIFT + 1);
}

/* The pattern: a word per 8-byte aligned address, keyed by the tag. */
static inline uint64_t
pat_word(uint64_t tag, uintptr_t a)
{
	uint64_t x = tag ^ ((uint64_t)(a >> 3) * 0x9E3779B97F4A7C15ULL);

	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 29;
	return x;
}

static inline uint8_t
pat_byte(uint64_t tag, uintptr_t a)
{
	return (uint8_t)(pat_word(tag, a & ~(uintptr_t)7) >> ((a & 7) * 8));
}

/* Write or (@check) compare the whole pattern over [s, e), as it was
 * written at s + @shift (a packet's data moved by npool_pkt_condense(),
 * checked where it is now; 0 otherwise, and to write): the first wrong
 * byte, or NULL. */
static char *
pat_full(char *s, char *e, uint64_t tag, int check, intptr_t shift)
{
	char *p = s;

	for (; p < e && ((uintptr_t)(p + shift) & 7) != 0; p++) {
		uint8_t b = pat_byte(tag, (uintptr_t)(p + shift));

		if (!check)
			*(uint8_t *)p = b;
		else if (*(uint8_t *)p != b)
			return p;
	}
	for (; p + 8 <= e; p += 8) {
		uint64_t v = pat_word(tag, (uintptr_t)(p + shift));

		if (!check)
			memcpy(p, &v, sizeof(v));
		else if (memcmp(p, &v, sizeof(v)) != 0)
			return p;
	}
	for (; p < e; p++) {
		uint8_t b = pat_byte(tag, (uintptr_t)(p + shift));

		if (!check)
			*(uint8_t *)p = b;
		else if (*(uint8_t *)p != b)
			return p;
	}
	return NULL;
}

/*
 * Write or check the pattern of an @n-byte buffer: its first and last
 * PAT_EDGE bytes whole and one word per 64-byte aligned line between, so
 * that two live buffers overlapping by any line (or at their ends) both
 * write some same bytes. Return the first wrong byte, or NULL.
 */
static char *
pat_moved(char *s, uint32_t n, uint64_t tag, int check, intptr_t shift)
{
	char *e = s + n, *p, *bad;

	if (n <= 3 * PAT_EDGE)
		return pat_full(s, e, tag, check, shift);
	bad = pat_full(s, s + PAT_EDGE, tag, check, shift);
	if (bad == NULL)
		bad = pat_full(e - PAT_EDGE, e, tag, check, shift);
	if (bad != NULL)
		return bad;
	for (p = RTE_PTR_ALIGN_CEIL(s + shift + PAT_EDGE, 64) - shift;
			p + 8 <= e - PAT_EDGE; p += 64) {
		uint64_t v = pat_word(tag, (uintptr_t)(p + shift));

		if (!check)
			memcpy(p, &v, sizeof(v));
		else if (memcmp(p, &v, sizeof(v)) != 0)
			return p;
	}
	return NULL;
}

static char *
pat_range(char *s, uint32_t n, uint64_t tag, int check)
{
	return pat_moved(s, n, tag, check, 0);
}

static void
flush_batch(struct st_local *l)
{
	if (l->nb_batch != 0)
		npool_napi_consume_bulk(l->batch, l->nb_batch);
	l->nb_batch = 0;
	l->batch_max = 1 + rnd_below(l->w, ST_BATCH);
}

/* Whether @p mb is of a shape npool makes: a head + fragment packet (or
 * a clone of one), a mid-size object, or a clone of that. */
static int
pkt_shape_ok(const struct st_local *l, const struct rte_mbuf *mb)
{
	if (npool_pkt_is_npool(mb))
		return mb->pool == l->heads;
	if (RTE_MBUF_CLONED(mb))
		return mb->pool == l->heads &&
			rte_mbuf_from_indirect((struct rte_mbuf *)(uintptr_t)mb)
			->pool == l->mid;
	return mb->pool == l->mid;
}

/* The fields and the data of a packet as its maker left them. */
static void
check_pkt(const struct st_local *l, const struct st_msg *m)
{
	struct rte_mbuf *mb = m->obj;
	char *bad;

	if (!pkt_shape_ok(l, mb) ||
			mb->data_len != m->len || mb->pkt_len != m->len ||
			mb->nb_segs != 1 || mb->next != NULL) {
		st_error("packet %p (tag %#" PRIx64 "): npool %d pool %p data_len %u pkt_len %u segs %u, want len %u",
				(void *)mb, m->tag, npool_pkt_is_npool(mb),
				(void *)mb->pool, mb->data_len, mb->pkt_len,
				mb->nb_segs, m->len);
		return;
	}
	bad = pat_range(rte_pktmbuf_mtod(mb, char *), m->len, m->tag, 1);
	if (bad != NULL)
		st_error("packet %p (tag %#" PRIx64 ", len %u): data overwritten at offset %td",
				(void *)mb, m->tag, m->len,
				bad - rte_pktmbuf_mtod(mb, char *));
}

/* Whether to plant the --inject fault now: once, on lcore 1. */
static int
inject_now(const struct st_worker *w)
{
	static int done;

	if (w->id != 1 || done || w->seq < 1000)
		return 0;
	done = 1;
	return 1;
}

/* Check an object and release it with a random call. */
static void
release(struct st_local *l, const struct st_msg *m)
{
	struct st_worker *w = l->w;
	char *bad;

	if ((m->tag >> 56) != w->id)
		ev_add(w, EV_REMOTE, 1);
	if (unlikely(st_g.conf->inject != ST_INJECT_NONE) &&
			m->type == ST_OBJ_FRAG && inject_now(w)) {
		if (st_g.conf->inject == ST_INJECT_LEAK)
			return;
		*(volatile char *)m->obj ^= 1;
	}
	if (m->type == ST_OBJ_FRAG) {
		bad = pat_range(m->obj, m->len, m->tag, 1);
		if (bad != NULL)
			st_error("fragment %p (tag %#" PRIx64 ", %u B): overwritten at offset %td",
					m->obj, m->tag, m->len,
					bad - (char *)m->obj);
		/* Any address inside the fragment frees it. */
		npool_free_frag((char *)m->obj + rnd_below(w, m->len));
		ev_add(w, EV_FREE_FRAG, 1);
		return;
	}
	check_pkt(l, m);
	switch (rnd_below(w, 3)) {
	case 0:
		rte_pktmbuf_free(m->obj);
		ev_add(w, EV_FREE_PKT, 1);
		break;
	case 1:
		npool_napi_consume_pkt(m->obj);
		ev_add(w, EV_CONSUME, 1);
		break;
	default:
		l->batch[l->nb_batch++] = m->obj;
		ev_add(w, EV_CONSUME_BULK, 1);
		if (l->nb_batch >= l->batch_max)
			flush_batch(l);
	}
}

/*
 * A packet kept a while: condensed half the time, as an application that
 * keeps packets does (npool_pkt_keep.h). Moved, its data must be the
 * maker's (the pattern as written at the old place); it is then written
 * again where it is, so that a later check and any overlap still show.
 */
static void
keep_pkt(struct st_local *l, const struct st_msg *m)
{
	struct rte_mbuf *mb = m->obj;
	char *was = rte_pktmbuf_mtod(mb, char *), *now, *bad;
	int ret;

	if (rnd_below(l->w, 2) != 0)
		return;
	ret = npool_pkt_condense(mb);
	if (ret < 0) {
		/* Only running out may refuse; the packet stays. */
		if (rte_errno != ENOMEM)
			st_error("condense of %p: %s", (void *)mb,
					rte_strerror(rte_errno));
		return;
	}
	now = rte_pktmbuf_mtod(mb, char *);
	if (ret == 0) {
		if (now != was)
			st_error("packet %p moved by a condense that moved nothing",
					(void *)mb);
		return;
	}
	ev_add(l->w, EV_CONDENSE, (uint64_t)ret);
	if (mb->data_off != npool_default()->headroom ||
			mb->buf_len + NPOOL_SHINFO_SIZE !=
			npool_pkt_fragsz(m->len))
		st_error("condensed packet %p: data_off %u, buf_len %u for %u B",
				(void *)mb, mb->data_off, mb->buf_len, m->len);
	bad = pat_moved(now, m->len, m->tag, 1, was - now);
	if (bad != NULL)
		st_error("condensed packet %p (tag %#" PRIx64 ", len %u): copy differs at offset %td",
				(void *)mb, m->tag, m->len, bad - now);
	pat_range(now, m->len, m->tag, 0);
}

/* Keep the object a while, or send it to a random worker's ring. */
static void
dispatch(struct st_local *l, const struct st_msg *m)
{
	struct st_worker *w = l->w;
	unsigned int slot;

	if (rnd_below(w, 100) < 20) {
		slot = rnd_below(w, ST_HOLD);
		if (l->hold[slot].obj != NULL)
			release(l, &l->hold[slot]);
		if (m->type == ST_OBJ_PKT)
			keep_pkt(l, m);
		l->hold[slot] = *m;
		return;
	}
	if (rte_ring_enqueue_elem(st_g.in[rnd_below(w, ST_WORKERS)][w->id],
			(void *)(uintptr_t)m, sizeof(*m)) == 0)
		return;
	ev_add(w, EV_RING_FULL, 1);
	release(l, m);
}

/* Take a burst from each inbound ring: the number of messages. */
static unsigned int
recv_burst(struct st_local *l)
{
	struct st_msg msgs[ST_BURST];
	unsigned int n, i, src, all = 0;

	for (src = 0; src < ST_WORKERS; src++) {
		n = rte_ring_dequeue_burst_elem(st_g.in[l->w->id][src], msgs,
				sizeof(msgs[0]), ST_BURST, NULL);
		for (i = 0; i < n; i++)
			release(l, &msgs[i]);
		all += n;
	}
	return all;
}

/* Release every object this worker holds or batches. */
static void
release_held(struct st_local *l)
{
	unsigned int i;

	for (i = 0; i < ST_HOLD; i++) {
		if (l->hold[i].obj != NULL)
			release(l, &l->hold[i]);
		l->hold[i].obj = NULL;
	}
	flush_batch(l);
}

/* An allocation was refused: only running out is expected. */
static void
refused(struct st_local *l, int err, const char *what)
{
	if (err == ENOMEM)
		ev_add(l->w, EV_NOMEM, 1);
	else if (err == ENOBUFS)
		ev_add(l->w, EV_NOBUFS, 1);
	else
		st_error("%s refused: %s", what, rte_strerror(err));
	/* Give back what this worker keeps, take what others sent: with
	 * every worker doing so the arena fills up again. */
	release_held(l);
	recv_burst(l);
}

static uint64_t
next_tag(struct st_worker *w)
{
	return (uint64_t)w->id << 56 | (w->seq++ & ((1ULL << 56) - 1));
}

/* Fragment placement: aligned, inside one chunk, IOVA contiguous. */
static void
check_frag(const char *p, uint32_t size, uint32_t align)
{
	const struct npool_arena *a = &npool_default()->arena;

	if (((uintptr_t)p & (align - 1)) != 0 ||
			npool_arena_chunk(a, p) == NULL ||
			npool_arena_chunk(a, p) !=
			npool_arena_chunk(a, p + size - 1) ||
			npool_frag_iova(p + size - 1) - npool_frag_iova(p) !=
			size - 1)
		st_error("fragment %p of %u B, align %u: misplaced",
				p, size, align);
}

static void
make_frag(struct st_local *l)
{
	struct st_worker *w = l->w;
	uint32_t size = rnd_size(w, NPOOL_CHUNK_SIZE);
	uint32_t align = rnd_align(w);
	int napi = l->eal && rnd_below(w, 2) == 0;
	struct st_msg m;
	char *p;

	/* A quarter use the calls without alignment (align 1). */
	if (rnd_below(w, 4) == 0) {
		align = 1;
		p = napi ? npool_napi_alloc_frag(size) :
			npool_alloc_frag(size);
	} else {
		p = napi ? npool_napi_alloc_frag_align(size, align) :
			npool_alloc_frag_align(size, align);
	}
	if (p == NULL) {
		refused(l, rte_errno, "fragment");
		return;
	}
	ev_add(w, napi ? EV_FRAG_NAPI : EV_FRAG_GUARDED, 1);
	check_frag(p, size, align);
	m = (struct st_msg){ .obj = p, .tag = next_tag(w), .len = size,
		.type = ST_OBJ_FRAG };
	pat_range(p, size, m.tag, 0);
	dispatch(l, &m);
}

/* Count @p mb, just allocated, if it is a mid-size object; @p mb. */
static struct rte_mbuf *
count_mid(struct st_local *l, struct rte_mbuf *mb)
{
	if (mb != NULL && mb->pool == l->mid)
		ev_add(l->w, EV_PKT_MID, 1);
	return mb;
}

/* A packet of @len bytes: napi, guarded, or built on a fragment. */
static struct rte_mbuf *
alloc_pkt(struct st_local *l, uint32_t len)
{
	struct st_worker *w = l->w;
	uint32_t r = rnd_below(w, 100), fragsz;
	struct rte_mbuf *mb;
	int napi;
	char *frag;

	if (r < 20 && l->eal) {
		mb = npool_napi_alloc_pkt(len);
		if (mb != NULL)
			ev_add(w, EV_PKT_NAPI, 1);
		return count_mid(l, mb);
	}
	/* A burst of one: its head may be one handed back to this lcore
	 * (npool_napi_defer_take()). */
	if (r < 30 && l->eal) {
		if (npool_napi_alloc_pkt_bulk(&mb, &len, 1) != 1)
			return NULL;
		ev_add(w, EV_PKT_NAPI, 1);
		return count_mid(l, mb);
	}
	if (r < 60) {
		mb = npool_alloc_pkt(len);
		if (mb != NULL)
			ev_add(w, EV_PKT_GUARDED, 1);
		return count_mid(l, mb);
	}
	/* build_skb(): a cache-line aligned fragment, then a head. */
	napi = l->eal && rnd_below(w, 2) == 0;
	fragsz = npool_pkt_fragsz(len);
	frag = napi ? npool_napi_alloc_frag_align(fragsz, RTE_CACHE_LINE_SIZE) :
		npool_alloc_frag_align(fragsz, RTE_CACHE_LINE_SIZE);
	if (frag == NULL)
		return NULL;
	ev_add(w, napi ? EV_FRAG_NAPI : EV_FRAG_GUARDED, 1);
	mb = npool_build_pkt(frag, fragsz);
	if (mb == NULL) {
		int err = rte_errno;

		npool_free_frag(frag);
		ev_add(w, EV_FREE_FRAG, 1);
		rte_errno = err;
		return NULL;
	}
	ev_add(w, EV_PKT_BUILD, 1);
	return mb;
}

static void
make_pkt(struct st_local *l)
{
	struct st_worker *w = l->w;
	uint32_t len = rnd_size(w, NPOOL_PKT_MAX_LEN + 1) - 1;
	struct st_msg m[4];
	unsigned int n = 1, k, i;
	struct rte_mbuf *mb;
	char *data;

	mb = alloc_pkt(l, len);
	if (mb == NULL) {
		refused(l, rte_errno, "packet");
		return;
	}
	data = rte_pktmbuf_append(mb, (uint16_t)len);
	if (data == NULL || mb->data_off != npool_default()->headroom) {
		st_error("packet %p: no room for %u B (data_off %u, buf_len %u)",
				(void *)mb, len, mb->data_off, mb->buf_len);
		rte_pktmbuf_free(mb);
		ev_add(w, EV_FREE_PKT, 1);
		return;
	}
	m[0] = (struct st_msg){ .obj = mb, .tag = next_tag(w), .len = len,
		.type = ST_OBJ_PKT };
	pat_range(data, len, m[0].tag, 0);
	/* Every reference is taken before the first one leaves. */
	k = 1 + rnd_below(w, 3);
	switch (rnd_below(w, 10)) {
	case 0: /* pktgen clone_skb: clones sharing the fragment */
		for (i = 0; i < k; i++) {
			m[n] = m[0];
			m[n].obj = rte_pktmbuf_clone(mb, l->heads);
			if (m[n].obj == NULL) {
				refused(l, ENOBUFS, "clone");
				break;
			}
			ev_add(w, EV_CLONE, 1);
			n++;
		}
		break;
	case 1: /* Brouer: the refcount raised once for k more sends */
		rte_mbuf_refcnt_update(mb, (int16_t)k);
		ev_add(w, EV_REF, k);
		for (i = 0; i < k; i++)
			m[n++] = m[0];
		break;
	default:
		break;
	}
	for (i = 0; i < n; i++)
		dispatch(l, &m[i]);
}

static uint64_t
ops_caused(const struct st_worker *w)
{
	uint64_t acq = 0;
	unsigned int e;

	for (e = 0; e < EV_FIRST_RELEASE; e++)
		acq += w->ev[e];
	/* Each acquisition is released once, but a built packet's
	 * fragment goes with the packet. */
	return 2 * acq - w->ev[EV_PKT_BUILD];
}

static int
all_done(void)
{
	unsigned int i;

	for (i = 0; i < ST_WORKERS; i++)
		if (!__atomic_load_n(&st_g.w[i].done, __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

int
st_worker_main(void *arg)
{
	struct st_worker *w = arg;
	const struct st_conf *conf = st_g.conf;
	const uint64_t target = (conf->ops + ST_WORKERS - 1) / ST_WORKERS;
	struct st_local *l;
	unsigned int i, burst;
	int all;

	l = calloc(1, sizeof(*l));
	if (l == NULL) {
		st_error("worker %u: no memory", w->id);
		__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
		return -1;
	}
	l->w = w;
	l->heads = npool_head_pool();
	l->mid = npool_default()->mid_pool;
	l->eal = rte_lcore_id() < RTE_MAX_LCORE;
	flush_batch(l);
	while (ops_caused(w) < target) {
		burst = 1 + rnd_below(w, 16);
		for (i = 0; i < burst; i++) {
			if (rnd_below(w, 100) < 40)
				make_frag(l);
			else
				make_pkt(l);
		}
		recv_burst(l);
		/* What other workers' bursts handed back, now and then. */
		if (l->eal && rnd_below(w, 8) == 0)
			ev_add(w, EV_DEFER_DRAIN, npool_napi_defer_drain());
		if (w->id == 0)
			st_progress();
	}
	release_held(l);
	/* Nothing is sent after this: the others can drain and stop. */
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	do {
		all = all_done();
		while (recv_burst(l) != 0)
			;
		flush_batch(l);
		/* Leave the CPU to those still making objects. */
		if (!all)
			sched_yield();
	} while (!all);
	free(l);
	return 0;
}
