/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's neighbour tables (fwd_neigh.h): Linux's neighbour state
 * machine (net/core/neighbour.c: __neigh_update(), neigh_timer_handler(),
 * __neigh_event_send(), neigh_periodic_work(), neigh_forced_gc()) and its
 * learning (net/ipv4/arp.c arp_process(), net/ipv6/ndisc.c
 * ndisc_recv_ns(), ndisc_recv_na()), over an rte_hash of (port, address).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_random.h>

#include "npool.h"
#include "fwd_neigh.h"
#include "fwd_nh.h"

/* __neigh_update() flags. */
#define F_OVERRIDE      0x01
#define F_WEAK_OVERRIDE 0x02
#define F_ADMIN         0x04

/* Linux's HZ / 100: the shortest timer. */
#define TICK_MIN_MS 10u
/* Linux: reachable_time is drawn again every 300 s. */
#define RAND_EVERY_MS 300000u
/* neigh_forced_gc(): entries updated in the last 5 s stay. */
#define FORCED_GC_KEEP_MS 5000u
/* Permanent entries a table holds past gc_thresh3. */
#define PERM_MAX 1024u

/* Whole 32-bit words, 4-byte aligned: rte_jhash() reads the key a word
 * at a time, the last one too (an 18-byte key had it read 2 bytes past
 * its end: AddressSanitizer's stack-buffer-overflow). */
struct neigh_key {
	uint8_t ip[16];
	uint32_t port;
};

struct fwd_neigh_tbl {
	struct fwd_neigh_parms p;
	bool v6;
	const struct fwd_neigh_ops *ops;
	void *ctx;
	uint32_t (*nh_get)(void *ctx);
	void (*nh_put)(void *ctx, uint32_t nh);
	struct rte_hash *h;
	struct fwd_neigh *e;     /* slots */
	uint32_t *free;          /* free slots, a stack */
	uint32_t nfree, cap;
	uint32_t count;          /* entries */
	uint32_t gc_count;       /* entries the collection may take */
	uint32_t *slot_of_nh;    /* FWD_NH_MAX, UINT32_MAX: none */
	uint64_t last_flush, next_gc, last_rand;
	uint32_t reach_ms;       /* reachable_time */
	struct fwd_neigh_stats st;
};

void
fwd_neigh_parms_default(struct fwd_neigh_parms *p, bool v6)
{
	p->base_reachable_ms = 30000;
	p->retrans_ms = 1000;
	p->delay_probe_ms = 5000;
	p->gc_stale_ms = 60000;
	/* arp_tbl's locktime is 1 s; nd_tbl's is 0. */
	p->locktime_ms = v6 ? 0 : 1000;
	p->unres_qlen_bytes = 212992;
	p->mcast_solicit = 3;
	p->ucast_solicit = 3;
	p->gc_thresh1 = 128;
	p->gc_thresh2 = 512;
	p->gc_thresh3 = 1024;
}

/* neigh_rand_reach_time(): uniform in [base / 2, 3 * base / 2). */
static uint32_t
rand_reach(uint32_t base)
{
	return base == 0 ? 0 :
		(uint32_t)(rte_rand_max(base) + base / 2);
}

static void
key_of(struct neigh_key *k, uint16_t port, const uint8_t *ip, bool v6)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->ip, ip, v6 ? 16 : 4);
	k->port = port;
}

struct fwd_neigh_tbl *
fwd_neigh_tbl_create(const struct fwd_neigh_parms *p, bool v6,
		const struct fwd_neigh_ops *ops, void *ctx,
		uint32_t (*nh_get)(void *ctx),
		void (*nh_put)(void *ctx, uint32_t nh))
{
	static unsigned int seq;
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.key_len = sizeof(struct neigh_key),
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
	};
	struct fwd_neigh_tbl *t;
	uint32_t i;

	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return NULL;
	t->p = *p;
	t->v6 = v6;
	t->ops = ops;
	t->ctx = ctx;
	t->nh_get = nh_get;
	t->nh_put = nh_put;
	t->cap = p->gc_thresh3 + PERM_MAX;
	hp.entries = RTE_MAX(t->cap, 8u);
	snprintf(name, sizeof(name), "fwd_neigh%c_%u", v6 ? '6' : '4', seq++);
	t->h = rte_hash_create(&hp);
	t->e = calloc(t->cap, sizeof(*t->e));
	t->free = calloc(t->cap, sizeof(*t->free));
	t->slot_of_nh = malloc(FWD_NH_MAX * sizeof(*t->slot_of_nh));
	if (t->h == NULL || t->e == NULL || t->free == NULL ||
			t->slot_of_nh == NULL) {
		fwd_neigh_tbl_free(t);
		return NULL;
	}
	for (i = 0; i < t->cap; i++)
		t->free[t->nfree++] = t->cap - 1 - i;
	memset(t->slot_of_nh, 0xff, FWD_NH_MAX * sizeof(*t->slot_of_nh));
	t->reach_ms = rand_reach(p->base_reachable_ms);
	return t;
}

/* Whether @p n's next hop resolves it: its address known and in use
 * (a STALE entry holds, so that its first use is seen: DELAY). */
static bool
resolves(const struct fwd_neigh *n)
{
	return (n->state & (FWD_NUD_CONNECTED | FWD_NUD_DELAY |
			FWD_NUD_PROBE)) != 0;
}

/* Publish @p n's next hop if what it does changed (@p mac_changed). */
static void
republish(struct fwd_neigh *n, bool mac_changed)
{
	if (resolves(n) != n->published || (mac_changed && n->published)) {
		n->published = resolves(n);
		n->tbl->ops->publish(n->tbl->ctx, n);
	}
}

static struct rte_mbuf *
q_pop(struct fwd_neigh *n)
{
	struct rte_mbuf *m;

	if (n->qlen == 0)
		return NULL;
	m = n->q[n->qhead];
	n->qhead = (n->qhead + 1) % n->qcap;
	n->qlen--;
	n->qbytes -= npool_pkt_truesize(m);
	return m;
}

static int
q_push(struct fwd_neigh *n, struct rte_mbuf *m)
{
	struct rte_mbuf **q;
	uint32_t cap, i;

	if (n->qlen == n->qcap) {
		cap = n->qcap == 0 ? 8 : 2 * n->qcap;
		q = malloc(cap * sizeof(*q));
		if (q == NULL)
			return -ENOMEM;
		for (i = 0; i < n->qlen; i++)
			q[i] = n->q[(n->qhead + i) % n->qcap];
		free(n->q);
		n->q = q;
		n->qcap = cap;
		n->qhead = 0;
	}
	n->q[(n->qhead + n->qlen) % n->qcap] = m;
	n->qlen++;
	n->qbytes += npool_pkt_truesize(m);
	return 0;
}

/* The queue dropped as @p why. */
static void
q_drop(struct fwd_neigh *n, unsigned int why)
{
	struct rte_mbuf *m;

	while ((m = q_pop(n)) != NULL)
		n->tbl->ops->drop(n->tbl->ctx, m, why);
}

/* neigh_max_probes() (app_probes 0, mcast_reprobes 0). */
static uint8_t
max_probes(const struct fwd_neigh *n)
{
	return (uint8_t)(n->tbl->p.ucast_solicit +
			(n->state & FWD_NUD_PROBE ? 0 :
			 n->tbl->p.mcast_solicit));
}

/* neigh_probe(): arp_solicit() / ndisc_solicit() unicast while fewer
 * than ucast_solicit probes went in this state. */
static void
probe(struct fwd_neigh *n)
{
	const struct rte_mbuf *last = n->qlen == 0 ? NULL :
		n->q[(n->qhead + n->qlen - 1) % n->qcap];
	const bool unicast = n->probes < n->tbl->p.ucast_solicit &&
		(n->state & FWD_NUD_VALID);

	n->tbl->ops->solicit(n->tbl->ctx, n, unicast, last);
	n->probes++;
}

/* neigh_invalidate(): the queue answered as failed. */
static void
invalidate(struct fwd_neigh *n)
{
	n->tbl->st.res_failed++;
	q_drop(n, FWD_NEIGH_FAILED);
}

/* Linux's "confirmed" of an entry not confirmed: two base reachable
 * times ago (0 at the clock's start). */
static uint64_t
unconfirmed(const struct fwd_neigh_tbl *t, uint64_t now)
{
	const uint64_t back = 2 * (uint64_t)t->p.base_reachable_ms;

	return now > back ? now - back : 0;
}

static uint64_t
retrans(const struct fwd_neigh_tbl *t, uint64_t now)
{
	return now + RTE_MAX(t->p.retrans_ms, TICK_MIN_MS);
}

/* __neigh_update(): @p lladdr NULL when none was given. */
static void
update(struct fwd_neigh *n, const struct rte_ether_addr *lladdr,
		uint8_t new, unsigned int flags, uint64_t now)
{
	struct fwd_neigh_tbl *t = n->tbl;
	const uint8_t old = n->state;
	bool same = true;
	struct rte_mbuf *m;

	if (!(flags & F_ADMIN) && (old & (FWD_NUD_NOARP | FWD_NUD_PERMANENT)))
		return;
	if (!(new & FWD_NUD_VALID)) {
		n->timer = 0;
		n->state = new;
		if ((old & (FWD_NUD_INCOMPLETE | FWD_NUD_PROBE)) &&
				(new & FWD_NUD_FAILED))
			invalidate(n);
		republish(n, false);
		return;
	}
	if (lladdr != NULL)
		same = (old & FWD_NUD_VALID) &&
			rte_is_same_ether_addr(lladdr, &n->mac);
	else if (!(old & FWD_NUD_VALID))
		return;
	if (new & FWD_NUD_CONNECTED)
		n->confirmed = now;
	if (old & FWD_NUD_VALID) {
		if (!same && !(flags & F_OVERRIDE)) {
			if (!(flags & F_WEAK_OVERRIDE) ||
					!(old & FWD_NUD_CONNECTED))
				return;
			same = true;
			new = FWD_NUD_STALE;
		} else if (same && new == FWD_NUD_STALE &&
				!(flags & F_ADMIN)) {
			new = old;
		}
	}
	if (new != old || !same)
		n->updated = now;
	if (new != old) {
		n->timer = 0;
		if (new & FWD_NUD_PROBE)
			n->probes = 0;
		if (new & FWD_NUD_IN_TIMER)
			n->timer = now + (new & FWD_NUD_REACHABLE ?
					t->reach_ms : 0);
		n->state = new;
	}
	if (!same) {
		n->mac = *lladdr;
		if (!(new & FWD_NUD_CONNECTED))
			n->confirmed = unconfirmed(t, now);
	}
	if (new != old && !(old & FWD_NUD_VALID)) {
		/* What waited goes first, then the fast path. */
		while ((n->state & FWD_NUD_VALID) &&
				(m = q_pop(n)) != NULL)
			t->ops->send(t->ctx, n, m);
	}
	republish(n, !same);
	t->st.updates++;
}

void
fwd_neigh_output(struct fwd_neigh *n, struct rte_mbuf *m, uint64_t now)
{
	struct fwd_neigh_tbl *t = n->tbl;
	bool immediate = false;
	struct rte_mbuf *old;

	n->used = now;
	if (n->state & (FWD_NUD_CONNECTED | FWD_NUD_DELAY | FWD_NUD_PROBE)) {
		t->ops->send(t->ctx, n, m);
		return;
	}
	if (!(n->state & (FWD_NUD_STALE | FWD_NUD_INCOMPLETE))) {
		if (t->p.mcast_solicit == 0) {
			n->state = FWD_NUD_FAILED;
			n->updated = now;
			t->ops->drop(t->ctx, m, FWD_NEIGH_FAILED);
			return;
		}
		n->probes = t->p.ucast_solicit;
		n->state = FWD_NUD_INCOMPLETE;
		n->updated = now;
		n->timer = retrans(t, now);
		immediate = true;
	} else if (n->state & FWD_NUD_STALE) {
		n->state = FWD_NUD_DELAY;
		n->updated = now;
		n->timer = now + t->p.delay_probe_ms;
		/* Sent first: its object then waits for it (ops->publish). */
		t->ops->send(t->ctx, n, m);
		republish(n, false);
		return;
	}
	/* INCOMPLETE: queued, the oldest dropped past the byte bound. */
	while (n->qlen != 0 && n->qbytes + npool_pkt_truesize(m) >
			t->p.unres_qlen_bytes) {
		old = q_pop(n);
		t->ops->drop(t->ctx, old, FWD_UNRES_DISCARD);
		t->st.unres_discards++;
	}
	if (q_push(n, m) != 0)
		t->ops->drop(t->ctx, m, FWD_UNRES_DISCARD);
	if (immediate)
		probe(n);
}

void
fwd_neigh_flush(struct fwd_neigh *n)
{
	q_drop(n, FWD_UNRES_DISCARD);
}

/* Remove @p n (it may go: no route by it, not permanent). */
static void
destroy(struct fwd_neigh *n)
{
	struct fwd_neigh_tbl *t = n->tbl;
	struct neigh_key k;
	uint32_t slot = (uint32_t)(n - t->e);

	t->ops->life(t->ctx, n, false);
	q_drop(n, FWD_UNRES_DISCARD);
	free(n->q);
	key_of(&k, n->port, n->ip, t->v6);
	rte_hash_del_key(t->h, &k);
	t->slot_of_nh[n->nh] = UINT32_MAX;
	t->nh_put(t->ctx, n->nh);
	if (!(n->state & FWD_NUD_PERMANENT))
		t->gc_count--;
	memset(n, 0, sizeof(*n));
	t->free[t->nfree++] = slot;
	t->count--;
	t->st.destroys++;
}

/* neigh_forced_gc(): entries that may go and are FAILED or not updated
 * in the last 5 s, until gc_thresh2 are left. */
static void
forced_gc(struct fwd_neigh_tbl *t, uint64_t now)
{
	uint32_t i, clean;

	t->st.forced_gc_runs++;
	t->last_flush = now;
	if (t->gc_count <= t->p.gc_thresh2)
		return;
	clean = t->gc_count - t->p.gc_thresh2;
	for (i = 0; i < t->cap && clean != 0; i++) {
		struct fwd_neigh *n = &t->e[i];

		if (n->tbl == NULL || n->refs != 0 ||
				(n->state & FWD_NUD_PERMANENT))
			continue;
		if (n->state == FWD_NUD_FAILED ||
				n->updated + FORCED_GC_KEEP_MS < now) {
			destroy(n);
			clean--;
		}
	}
}

struct fwd_neigh *
fwd_neigh_lookup(struct fwd_neigh_tbl *t, uint16_t port, const uint8_t *ip)
{
	struct neigh_key k;
	void *data;

	key_of(&k, port, ip, t->v6);
	return rte_hash_lookup_data(t->h, &k, &data) < 0 ? NULL :
		&t->e[(uintptr_t)data];
}

struct fwd_neigh *
fwd_neigh_get(struct fwd_neigh_tbl *t, uint16_t port, const uint8_t *ip,
		uint64_t now)
{
	struct fwd_neigh *n = fwd_neigh_lookup(t, port, ip);
	struct neigh_key k;
	uint32_t slot, nh;

	if (n != NULL)
		return n;
	if (t->gc_count >= t->p.gc_thresh3 ||
			(t->gc_count >= t->p.gc_thresh2 &&
			 now > t->last_flush + FORCED_GC_KEEP_MS))
		forced_gc(t, now);
	if (t->gc_count >= t->p.gc_thresh3 || t->nfree == 0) {
		t->st.table_fulls++;
		return NULL;
	}
	nh = t->nh_get(t->ctx);
	if (nh >= FWD_NH_MAX) {
		t->st.table_fulls++;
		return NULL;
	}
	slot = t->free[--t->nfree];
	key_of(&k, port, ip, t->v6);
	if (rte_hash_add_key_data(t->h, &k, (void *)(uintptr_t)slot) < 0) {
		t->free[t->nfree++] = slot;
		t->nh_put(t->ctx, nh);
		t->st.table_fulls++;
		return NULL;
	}
	n = &t->e[slot];
	memset(n, 0, sizeof(*n));
	memcpy(n->ip, ip, t->v6 ? 16 : 4);
	n->port = port;
	n->v6 = t->v6;
	n->state = FWD_NUD_NONE;
	n->nh = nh;
	n->used = now;
	n->updated = now;
	n->confirmed = unconfirmed(t, now);
	n->tbl = t;
	t->slot_of_nh[nh] = slot;
	t->count++;
	t->gc_count++;
	t->st.allocs++;
	t->ops->life(t->ctx, n, true);
	return n;
}

struct fwd_neigh *
fwd_neigh_of_nh(struct fwd_neigh_tbl *t, uint32_t nh)
{
	return nh < FWD_NH_MAX && t->slot_of_nh[nh] != UINT32_MAX ?
		&t->e[t->slot_of_nh[nh]] : NULL;
}

void
fwd_neigh_event(struct fwd_neigh_tbl *t, const struct fwd_nev *ev,
		uint64_t now)
{
	const struct rte_ether_addr *mac = ev->flags & FWD_NEV_F_MAC ?
		&ev->mac : NULL;
	struct fwd_neigh *n;
	uint8_t state;
	bool override;

	switch (ev->kind) {
	case FWD_NEV_ARP_REQ:
	case FWD_NEV_NS:
		/* neigh_event_ns(): made if need be, STALE, override (and
		 * ndisc_recv_ns()'s weak override). */
		t->st.rcv_probes++;
		n = fwd_neigh_get(t, ev->port, ev->ip, now);
		if (n != NULL && mac != NULL)
			update(n, mac, FWD_NUD_STALE, F_OVERRIDE |
					F_WEAK_OVERRIDE, now);
		return;
	case FWD_NEV_ARP:
		n = fwd_neigh_lookup(t, ev->port, ev->ip);
		if (n == NULL) {
			t->st.ignored++;
			return;
		}
		override = now > n->updated + t->p.locktime_ms ||
			(ev->flags & FWD_NEV_F_GARP);
		state = ev->flags & FWD_NEV_F_HOST ? FWD_NUD_REACHABLE :
			FWD_NUD_STALE;
		update(n, mac, state, override ? F_OVERRIDE : 0, now);
		return;
	case FWD_NEV_NA:
		n = fwd_neigh_lookup(t, ev->port, ev->ip);
		if (n == NULL || (n->state & FWD_NUD_FAILED)) {
			t->st.ignored++;
			return;
		}
		update(n, mac, ev->flags & FWD_NEV_F_SOLICITED ?
				FWD_NUD_REACHABLE : FWD_NUD_STALE,
				F_WEAK_OVERRIDE | (ev->flags &
				FWD_NEV_F_OVERRIDE ? F_OVERRIDE : 0), now);
		if (ev->flags & FWD_NEV_F_OVERRIDE || mac == NULL ||
				rte_is_same_ether_addr(mac, &n->mac))
			n->router = (ev->flags & FWD_NEV_F_ROUTER) != 0;
		return;
	}
}

int
fwd_neigh_set_permanent(struct fwd_neigh_tbl *t, uint16_t port,
		const uint8_t *ip, const struct rte_ether_addr *mac,
		uint64_t now)
{
	struct fwd_neigh *n = fwd_neigh_get(t, port, ip, now);

	if (n == NULL)
		return -ENOSPC;
	if (!(n->state & FWD_NUD_PERMANENT))
		t->gc_count--;
	update(n, mac, FWD_NUD_PERMANENT, F_OVERRIDE | F_ADMIN, now);
	return 0;
}

/* neigh_timer_handler() of @p n, its timer due. */
static void
timer(struct fwd_neigh *n, uint64_t now)
{
	struct fwd_neigh_tbl *t = n->tbl;
	uint64_t next = now + 1000;

	if (!(n->state & FWD_NUD_IN_TIMER)) {
		n->timer = 0;
		return;
	}
	if (n->state & FWD_NUD_REACHABLE) {
		if (now <= n->confirmed + t->reach_ms) {
			next = n->confirmed + t->reach_ms;
		} else if (now <= n->used + t->p.delay_probe_ms) {
			n->state = FWD_NUD_DELAY;
			n->updated = now;
			next = now + t->p.delay_probe_ms;
		} else {
			n->state = FWD_NUD_STALE;
			n->updated = now;
			republish(n, false);
		}
	} else if (n->state & FWD_NUD_DELAY) {
		if (now <= n->confirmed + t->p.delay_probe_ms) {
			n->state = FWD_NUD_REACHABLE;
			n->updated = now;
			next = n->confirmed + t->reach_ms;
		} else {
			n->state = FWD_NUD_PROBE;
			n->updated = now;
			n->probes = 0;
			next = retrans(t, now);
		}
	} else {
		next = retrans(t, now);
	}
	if ((n->state & (FWD_NUD_INCOMPLETE | FWD_NUD_PROBE)) &&
			n->probes >= max_probes(n)) {
		n->state = FWD_NUD_FAILED;
		n->timer = 0;
		invalidate(n);
		republish(n, false);
		return;
	}
	n->timer = (n->state & FWD_NUD_IN_TIMER) ?
		RTE_MAX(next, now + TICK_MIN_MS) : 0;
	if (n->state & (FWD_NUD_INCOMPLETE | FWD_NUD_PROBE))
		probe(n);
}

/* neigh_periodic_work(): entries that may go (no timer, not permanent,
 * no route by them) go when FAILED or unused for gc_stale_time. */
static void
periodic_gc(struct fwd_neigh_tbl *t, uint64_t now)
{
	uint32_t i;

	t->st.periodic_gc_runs++;
	if (now > t->last_rand + RAND_EVERY_MS) {
		t->last_rand = now;
		t->reach_ms = rand_reach(t->p.base_reachable_ms);
	}
	if (t->gc_count < t->p.gc_thresh1)
		return;
	for (i = 0; i < t->cap; i++) {
		struct fwd_neigh *n = &t->e[i];

		if (n->tbl == NULL || n->refs != 0 ||
				(n->state & (FWD_NUD_PERMANENT |
					     FWD_NUD_IN_TIMER)))
			continue;
		if (n->used < n->confirmed && n->confirmed <= now)
			n->used = n->confirmed;
		if (n->state == FWD_NUD_FAILED ||
				now >= n->used + t->p.gc_stale_ms)
			destroy(n);
	}
}

uint64_t
fwd_neigh_tick(struct fwd_neigh_tbl *t, uint64_t now)
{
	uint64_t next;
	uint32_t i;

	if (now >= t->next_gc) {
		periodic_gc(t, now);
		t->next_gc = now + t->p.base_reachable_ms / 2;
	}
	next = t->next_gc;
	for (i = 0; i < t->cap; i++) {
		struct fwd_neigh *n = &t->e[i];

		if (n->tbl == NULL || n->timer == 0)
			continue;
		if (n->timer <= now)
			timer(n, now);
		if (n->timer != 0)
			next = RTE_MIN(next, n->timer);
	}
	return next;
}

struct fwd_neigh *
fwd_neigh_next(struct fwd_neigh_tbl *t, uint32_t *i)
{
	for (; *i < t->cap; (*i)++)
		if (t->e[*i].tbl != NULL)
			return &t->e[(*i)++];
	return NULL;
}

uint32_t
fwd_neigh_count(const struct fwd_neigh_tbl *t)
{
	return t->count;
}

const struct fwd_neigh_stats *
fwd_neigh_stats(const struct fwd_neigh_tbl *t)
{
	return &t->st;
}

void
fwd_neigh_tbl_free(struct fwd_neigh_tbl *t)
{
	uint32_t i;

	if (t == NULL)
		return;
	for (i = 0; t->e != NULL && i < t->cap; i++)
		if (t->e[i].tbl != NULL) {
			t->e[i].refs = 0;
			destroy(&t->e[i]);
		}
	rte_hash_free(t->h);
	free(t->e);
	free(t->free);
	free(t->slot_of_nh);
	free(t);
}

const char *
fwd_nud_name(uint8_t state)
{
	switch (state) {
	case FWD_NUD_NONE:
		return "NONE";
	case FWD_NUD_INCOMPLETE:
		return "INCOMPLETE";
	case FWD_NUD_REACHABLE:
		return "REACHABLE";
	case FWD_NUD_STALE:
		return "STALE";
	case FWD_NUD_DELAY:
		return "DELAY";
	case FWD_NUD_PROBE:
		return "PROBE";
	case FWD_NUD_FAILED:
		return "FAILED";
	case FWD_NUD_NOARP:
		return "NOARP";
	case FWD_NUD_PERMANENT:
		return "PERMANENT";
	}
	return "?";
}
