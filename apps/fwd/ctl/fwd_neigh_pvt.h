/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_NEIGH_PVT_H
#define FWD_NEIGH_PVT_H

/*
 * What the neighbour table (fwd_neigh_table.c: slots, hash, collection,
 * learning) takes of the state machine below it (fwd_neigh.c) and no one
 * else sees: the table's fields the entries read, __neigh_update() and
 * neigh_timer_handler().
 */

#include <stdbool.h>
#include <stdint.h>

#include "fwd_neigh.h"

/* __neigh_update() flags. */
#define FWD_NEIGH_F_OVERRIDE      0x01
#define FWD_NEIGH_F_WEAK_OVERRIDE 0x02
#define FWD_NEIGH_F_ADMIN         0x04

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

/* Linux's "confirmed" of an entry not confirmed: two base reachable
 * times ago (0 at the clock's start). */
static inline uint64_t
fwd_neigh_unconfirmed(const struct fwd_neigh_tbl *t, uint64_t now)
{
	const uint64_t back = 2 * (uint64_t)t->p.base_reachable_ms;

	return now > back ? now - back : 0;
}

/* __neigh_update(): @p n to state @p new (FWD_NUD_*), @p lladdr NULL when
 * none was given, as @p flags (FWD_NEIGH_F_*) allow. */
void fwd_neigh_update(struct fwd_neigh *n,
		const struct rte_ether_addr *lladdr, uint8_t new,
		unsigned int flags, uint64_t now);

/* neigh_timer_handler() of @p n, its timer due. */
void fwd_neigh_timer(struct fwd_neigh *n, uint64_t now);

#endif /* FWD_NEIGH_PVT_H */
