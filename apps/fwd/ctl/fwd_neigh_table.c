/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's neighbour tables (fwd_neigh_table.h): the entries in slots
 * found by an rte_hash of (port, address) and by their next hop, made,
 * removed and collected (net/core/neighbour.c: neigh_create(),
 * neigh_periodic_work(), neigh_forced_gc()), their timers run, and what
 * the lcores heard learnt (net/ipv4/arp.c arp_process(),
 * net/ipv6/ndisc.c ndisc_recv_ns(), ndisc_recv_na()). Each entry's state
 * machine: fwd_neigh.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_random.h>

#include "fwd_neigh_pvt.h"
#include "fwd_neigh_table.h"
#include "fwd_nh.h"

/* Linux: reachable_time is drawn again every 300 s. */
#define RAND_EVERY_MS 300000u
/* neigh_forced_gc(): entries updated in the last 5 s stay. */
#define FORCED_GC_KEEP_MS 5000u

/* Whole 32-bit words, 4-byte aligned: rte_jhash() reads the key a word
 * at a time, the last one too (an 18-byte key had it read 2 bytes past
 * its end: AddressSanitizer's stack-buffer-overflow). */
struct neigh_key {
	uint8_t ip[16];
	uint32_t port;
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
	t->cap = p->gc_thresh3 + FWD_NEIGH_PERM_MAX;
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

/* Remove @p n (it may go: no route by it, not permanent). */
static void
destroy(struct fwd_neigh *n)
{
	struct fwd_neigh_tbl *t = n->tbl;
	struct neigh_key k;
	uint32_t slot = (uint32_t)(n - t->e);

	t->ops->life(t->ctx, n, false);
	fwd_neigh_flush(n);
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
	n->confirmed = fwd_neigh_unconfirmed(t, now);
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
			fwd_neigh_update(n, mac, FWD_NUD_STALE,
					FWD_NEIGH_F_OVERRIDE |
					FWD_NEIGH_F_WEAK_OVERRIDE, now);
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
		fwd_neigh_update(n, mac, state, override ?
				FWD_NEIGH_F_OVERRIDE : 0, now);
		return;
	case FWD_NEV_NA:
		n = fwd_neigh_lookup(t, ev->port, ev->ip);
		if (n == NULL || (n->state & FWD_NUD_FAILED)) {
			t->st.ignored++;
			return;
		}
		fwd_neigh_update(n, mac, ev->flags & FWD_NEV_F_SOLICITED ?
				FWD_NUD_REACHABLE : FWD_NUD_STALE,
				FWD_NEIGH_F_WEAK_OVERRIDE |
				(ev->flags & FWD_NEV_F_OVERRIDE ?
				 FWD_NEIGH_F_OVERRIDE : 0), now);
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
	struct fwd_neigh *n = fwd_neigh_lookup(t, port, ip);
	bool perm = n != NULL && (n->state & FWD_NUD_PERMANENT);

	/* Past FWD_NEIGH_PERM_MAX the others would lose their slots. */
	if (!perm && t->count - t->gc_count >= FWD_NEIGH_PERM_MAX)
		return -ENOSPC;
	if (n == NULL)
		n = fwd_neigh_get(t, port, ip, now);
	if (n == NULL)
		return -ENOSPC;
	if (!perm)
		t->gc_count--;
	fwd_neigh_update(n, mac, FWD_NUD_PERMANENT,
			FWD_NEIGH_F_OVERRIDE | FWD_NEIGH_F_ADMIN, now);
	return 0;
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
			fwd_neigh_timer(n, now);
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

