/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's routing information base (fwd_rib.h): records in an
 * rte_hash per family keyed by (prefix, depth), neighbours' host routes
 * in another, and the writes of the tables of every socket that follow
 * from them, under RCU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_lpm.h>

#include "app_cli.h"
#include "app_compat.h"
#include "fwd_rib.h"

struct rib_key {
	uint8_t ip[16];
	uint8_t depth;
	uint8_t pad[3];
};

struct fwd_rib {
	struct fwd_tables *tabs[RTE_MAX_NUMA_NODES];
	unsigned int ntabs;
	struct rte_rcu_qsbr *qsv;
	struct rte_hash *h[2];    /* routes */
	struct rte_hash *hn[2];   /* neighbours' host routes */
	/* A bit per depth some route of the family has: what
	 * fwd_rib_match() probes. */
	uint64_t depths[2][3];
	uint32_t at_depth[2][129];
	/* Per family, a delete since the last synchronize that may have
	 * freed tbl8 groups of a table without RCU of its own (rte_lpm6,
	 * rte_fib, rte_fib6 in DPDK 22.11): they may not be reused before
	 * every lcore has moved on. */
	bool dirty[2];
	struct fwd_rib_stats st;
};

/* IPv4 martian destinations (fwd_route_fill.c gives them
 * FWD_HOP_MARTIAN at start): no route of the RIB's inside them. */
static bool
martian4(const uint8_t *ip, uint8_t depth)
{
	return (depth >= 8 && (ip[0] == 0 || ip[0] == 127)) ||
		(depth >= 4 && (ip[0] & 0xf0) == 0xe0);
}

void
fwd_rt_mask(uint8_t *ip, uint8_t depth)
{
	unsigned int i, bits;

	for (i = 0; i < 16; i++) {
		bits = depth > 8 * i ? RTE_MIN(depth - 8 * i, 8u) : 0;
		ip[i] = (uint8_t)(ip[i] & (0xff00u >> bits));
	}
}

static void
key_of(struct rib_key *k, const uint8_t *ip, uint8_t depth)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->ip, ip, 16);
	fwd_rt_mask(k->ip, depth);
	k->depth = depth;
}

static struct rte_hash *
hash_make(const char *what, bool v6, uint32_t n)
{
	static unsigned int seq;
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.entries = RTE_MAX(n, 64u),
		.key_len = sizeof(struct rib_key),
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};

	snprintf(name, sizeof(name), "%s%c_%u", what, v6 ? '6' : '4', seq++);
	return rte_hash_create(&hp);
}

struct fwd_rib *
fwd_rib_create(struct fwd_tables *const *tabs, unsigned int n,
		struct rte_rcu_qsbr *qsv, const uint32_t max_routes[2])
{
	struct rte_lpm_rcu_config rc = {
		.v = qsv,
		.mode = RTE_LPM_QSBR_MODE_DQ,
	};
	struct fwd_rib *rib;
	unsigned int i, v6;

	rib = calloc(1, sizeof(*rib));
	if (rib == NULL) {
		app_err("routes: out of memory");
		return NULL;
	}
	rib->ntabs = RTE_MIN(n, (unsigned int)RTE_MAX_NUMA_NODES);
	for (i = 0; i < rib->ntabs; i++)
		rib->tabs[i] = tabs[i];
	rib->qsv = qsv;
	for (v6 = 0; v6 < 2; v6++) {
		rib->st.max_routes[v6] = max_routes[v6];
		rib->h[v6] = hash_make("fwd_rib", v6, max_routes[v6]);
		rib->hn[v6] = hash_make("fwd_ribn", v6, 4096);
		if (rib->h[v6] == NULL || rib->hn[v6] == NULL) {
			app_err("routes: RIB of %u routes: %s", max_routes[v6],
					rte_strerror(rte_errno));
			fwd_rib_free(rib);
			return NULL;
		}
	}
	for (i = 0; FWD_RCU && qsv != NULL && i < rib->ntabs; i++)
		if (tabs[i]->lpm4 != NULL &&
				rte_lpm_rcu_qsbr_add(tabs[i]->lpm4, &rc) != 0) {
			app_err("routes: rte_lpm_rcu_qsbr_add: %s",
					rte_strerror(rte_errno));
			fwd_rib_free(rib);
			return NULL;
		}
	return rib;
}

static void
hash_free(struct rte_hash *h)
{
	const void *k;
	void *data;
	uint32_t it = 0;

	if (h == NULL)
		return;
	while (rte_hash_iterate(h, &k, &data, &it) >= 0)
		free(data);
	rte_hash_free(h);
}

void
fwd_rib_free(struct fwd_rib *rib)
{
	unsigned int v6;

	if (rib == NULL)
		return;
	for (v6 = 0; v6 < 2; v6++) {
		hash_free(rib->h[v6]);
		hash_free(rib->hn[v6]);
	}
	free(rib);
}

/* Before an add to a table without RCU of its own: no tbl8 group a
 * delete freed is reused while a lookup may still walk it. */
static void
tab_quiet(struct fwd_rib *rib, bool v6)
{
	if (!rib->dirty[v6])
		return;
	if (FWD_RCU && rib->qsv != NULL) {
		rte_rcu_qsbr_synchronize(rib->qsv, RTE_QSBR_THRID_INVALID);
		rib->st.syncs++;
	}
	rib->dirty[v6] = false;
}

/* @p hop for prefix @p ip / @p depth in every socket's tables. */
static int
tab_add(struct fwd_rib *rib, bool v6, const uint8_t *ip, uint8_t depth,
		uint32_t hop)
{
	unsigned int i;
	uint32_t a;
	int ret = 0;

	if (depth != 0)
		tab_quiet(rib, v6);
	for (i = 0; i < rib->ntabs && ret == 0; i++) {
		struct fwd_tables *t = rib->tabs[i];
		const bool fib = t->lookup == FWD_LOOKUP_FIB;

		memcpy(&a, ip, 4);
		if (depth == 0)
			__atomic_store_n(v6 ? &t->def6 : &t->def4,
					(int32_t)hop, __ATOMIC_RELEASE);
		else if (v6)
			ret = fib ? app_fib6_add(t->fib6, ip, depth, hop) :
				app_lpm6_add(t->lpm6, ip, depth, hop);
		else
			ret = fib ? rte_fib_add(t->fib4, rte_be_to_cpu_32(a),
					depth, hop) :
				rte_lpm_add(t->lpm4, rte_be_to_cpu_32(a),
					depth, hop);
	}
	return ret < 0 ? -ENOSPC : 0;
}

/* The prefix out of every socket's tables. */
static void
tab_del(struct fwd_rib *rib, bool v6, const uint8_t *ip, uint8_t depth)
{
	unsigned int i;
	uint32_t a;

	for (i = 0; i < rib->ntabs; i++) {
		struct fwd_tables *t = rib->tabs[i];
		const bool fib = t->lookup == FWD_LOOKUP_FIB;

		memcpy(&a, ip, 4);
		if (depth == 0) {
			__atomic_store_n(v6 ? &t->def6 : &t->def4, -1,
					__ATOMIC_RELEASE);
		} else if (v6) {
			if (fib)
				app_fib6_delete(t->fib6, ip, depth);
			else
				app_lpm6_delete(t->lpm6, ip, depth);
			/* rte_lpm6 frees groups at any depth. */
			rib->dirty[1] = true;
		} else if (fib) {
			rte_fib_delete(t->fib4, rte_be_to_cpu_32(a), depth);
			/* DIR24_8 has groups past /24 only. */
			rib->dirty[0] = rib->dirty[0] || depth > 24;
		} else {
			rte_lpm_delete(t->lpm4, rte_be_to_cpu_32(a), depth);
		}
	}
}

static struct fwd_rib_rec *
rec_find(struct rte_hash *h, const struct rib_key *k)
{
	void *data;

	return rte_hash_lookup_data(h, k, &data) < 0 ? NULL : data;
}

static void
depth_count(struct fwd_rib *rib, bool v6, uint8_t depth, int d)
{
	rib->at_depth[v6][depth] = (uint32_t)(rib->at_depth[v6][depth] + d);
	if (rib->at_depth[v6][depth] != 0)
		rib->depths[v6][depth / 64] |= UINT64_C(1) << (depth % 64);
	else
		rib->depths[v6][depth / 64] &= ~(UINT64_C(1) << (depth % 64));
}

int
fwd_rib_set(struct fwd_rib *rib, const struct fwd_rt *rt, uint8_t origin,
		uint32_t hop, uint32_t *old)
{
	const bool v6 = rt->v6;
	struct fwd_rib_rec *r;
	struct rib_key k;

	*old = UINT32_MAX;
	key_of(&k, rt->dst, rt->depth);
	r = rec_find(rib->h[v6], &k);
	if (r != NULL && r->origin == FWD_RIB_OWN && origin != FWD_RIB_OWN) {
		rib->st.refused_own++;
		return -EEXIST;
	}
	/* A port's connected prefix stays the port's link: zebra sends its
	 * own connected routes, and its withdrawing one (its interface
	 * down) must not take the port's away. */
	if (r != NULL && r->origin == FWD_RT_CONNECTED &&
			origin == FWD_RT_FPM) {
		rib->st.kept_connected++;
		return 1;
	}
	if (!v6 && origin != FWD_RIB_OWN && martian4(k.ip, rt->depth)) {
		rib->st.refused_martian++;
		return -EINVAL;
	}
	if (r == NULL && rib->st.routes[v6][FWD_RT_FILE] +
			rib->st.routes[v6][FWD_RT_CONNECTED] +
			rib->st.routes[v6][FWD_RT_FPM] +
			rib->st.routes[v6][FWD_RIB_OWN] >=
			rib->st.max_routes[v6]) {
		rib->st.refused_full++;
		return -ENOSPC;
	}
	if (tab_add(rib, v6, k.ip, rt->depth, hop) != 0) {
		rib->st.refused_full++;
		return -ENOSPC;
	}
	if (r != NULL) {
		*old = r->hop;
		rib->st.routes[v6][r->origin]--;
		rib->st.replaces++;
	} else {
		r = malloc(sizeof(*r));
		if (r == NULL || rte_hash_add_key_data(rib->h[v6], &k, r) < 0) {
			free(r);
			/* In the tables but not held: take it out. */
			tab_del(rib, v6, k.ip, rt->depth);
			rib->st.refused_full++;
			return -ENOSPC;
		}
		depth_count(rib, v6, rt->depth, 1);
		rib->st.adds++;
	}
	r->rt = *rt;
	memcpy(r->rt.dst, k.ip, 16);
	r->hop = hop;
	r->origin = origin;
	r->stale = false;
	rib->st.routes[v6][origin]++;
	return 0;
}

int
fwd_rib_del(struct fwd_rib *rib, const struct fwd_rt *rt, uint8_t origin,
		uint32_t *old)
{
	const bool v6 = rt->v6;
	const uint8_t host = v6 ? 128 : 32;
	struct fwd_rib_rec *r, *n;
	struct rib_key k;

	*old = UINT32_MAX;
	key_of(&k, rt->dst, rt->depth);
	r = rec_find(rib->h[v6], &k);
	if (r == NULL || r->origin != origin) {
		rib->st.not_found++;
		return -ENOENT;
	}
	*old = r->hop;
	/* A neighbour's host route under it takes the prefix back. */
	n = rt->depth == host ? rec_find(rib->hn[v6], &k) : NULL;
	if (n == NULL || tab_add(rib, v6, k.ip, host, n->hop) != 0)
		tab_del(rib, v6, k.ip, rt->depth);
	rte_hash_del_key(rib->h[v6], &k);
	depth_count(rib, v6, rt->depth, -1);
	rib->st.routes[v6][origin]--;
	rib->st.dels++;
	free(r);
	return 0;
}

int
fwd_rib_host(struct fwd_rib *rib, bool v6, const uint8_t *ip, uint32_t hop)
{
	const uint8_t host = v6 ? 128 : 32;
	struct fwd_rib_rec *n;
	struct rib_key k;
	bool covered;

	key_of(&k, ip, host);
	n = rec_find(rib->hn[v6], &k);
	covered = rec_find(rib->h[v6], &k) != NULL;
	if (hop == UINT32_MAX) {
		if (n == NULL)
			return 0;
		if (!covered)
			tab_del(rib, v6, k.ip, host);
		rte_hash_del_key(rib->hn[v6], &k);
		rib->st.routes[v6][FWD_RIB_NEIGH]--;
		free(n);
		return 0;
	}
	if (!covered && tab_add(rib, v6, k.ip, host, hop) != 0) {
		rib->st.refused_full++;
		return -ENOSPC;
	}
	if (n == NULL) {
		n = calloc(1, sizeof(*n));
		if (n == NULL || rte_hash_add_key_data(rib->hn[v6], &k,
				n) < 0) {
			free(n);
			if (!covered)
				tab_del(rib, v6, k.ip, host);
			rib->st.refused_full++;
			return -ENOSPC;
		}
		rib->st.routes[v6][FWD_RIB_NEIGH]++;
		memcpy(n->rt.dst, k.ip, 16);
		n->rt.depth = host;
		n->rt.v6 = v6;
		n->origin = FWD_RIB_NEIGH;
	}
	n->hop = hop;
	return 0;
}

const struct fwd_rib_rec *
fwd_rib_match(const struct fwd_rib *rib, bool v6, const uint8_t *ip)
{
	const struct fwd_rib_rec *r;
	struct rib_key k;
	int d;

	for (d = v6 ? 128 : 32; d >= 0; d--) {
		if (!((rib->depths[v6][d / 64] >> (d % 64)) & 1))
			continue;
		key_of(&k, ip, (uint8_t)d);
		r = rec_find(rib->h[v6], &k);
		if (r != NULL)
			return r;
	}
	return NULL;
}

/* @p fn on each route of both families (no neighbour host route); it
 * must not add or delete one. */
static void
each(const struct fwd_rib *rib, void (*fn)(void *ctx, struct fwd_rib_rec *r),
		void *ctx)
{
	uint32_t it;
	const void *k;
	void *data;
	int v6;

	for (v6 = 0; v6 < 2; v6++)
		for (it = 0; rte_hash_iterate(rib->h[v6], &k, &data,
				&it) >= 0;)
			fn(ctx, data);
}

static void
mark_one(void *ctx, struct fwd_rib_rec *r)
{
	if (r->origin == *(const uint8_t *)ctx)
		r->stale = true;
}

void
fwd_rib_mark_stale(struct fwd_rib *rib, uint8_t origin)
{
	each(rib, mark_one, &origin);
}

/* The stale routes of one origin, gathered before they are deleted (no
 * delete while rte_hash_iterate() walks). */
struct sweep_list {
	uint8_t origin;
	bool nomem;
	struct fwd_rt *rt;
	unsigned int n, cap;
};

static void
sweep_one(void *ctx, struct fwd_rib_rec *r)
{
	struct sweep_list *l = ctx;
	struct fwd_rt *p;

	if (r->origin != l->origin || !r->stale || l->nomem)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap == 0 ? 256 : 2 * l->cap;
		p = realloc(l->rt, l->cap * sizeof(*p));
		if (p == NULL) {
			l->nomem = true;
			return;
		}
		l->rt = p;
	}
	l->rt[l->n++] = r->rt;
}

unsigned int
fwd_rib_sweep(struct fwd_rib *rib, uint8_t origin,
		void (*gone)(void *ctx, uint32_t hop), void *ctx)
{
	struct sweep_list l = { .origin = origin };
	unsigned int i, done = 0;
	uint32_t old;

	each(rib, sweep_one, &l);
	for (i = 0; i < l.n; i++)
		if (fwd_rib_del(rib, &l.rt[i], origin, &old) == 0) {
			gone(ctx, old);
			done++;
		}
	free(l.rt);
	return done;
}

/* fwd_rib_walk()'s call of its function. */
struct walk_ctx {
	void (*fn)(void *ctx, const struct fwd_rib_rec *r);
	void *ctx;
};

static void
walk_one(void *ctx, struct fwd_rib_rec *r)
{
	const struct walk_ctx *w = ctx;

	w->fn(w->ctx, r);
}

void
fwd_rib_walk(const struct fwd_rib *rib,
		void (*fn)(void *ctx, const struct fwd_rib_rec *r), void *ctx)
{
	struct walk_ctx w = { fn, ctx };

	each(rib, walk_one, &w);
}

const struct fwd_rib_stats *
fwd_rib_stats(const struct fwd_rib *rib)
{
	return &rib->st;
}
