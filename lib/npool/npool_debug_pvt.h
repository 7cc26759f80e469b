/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_DEBUG_PVT_H
#define NPOOL_DEBUG_PVT_H

/**
 * @file
 * @internal The debug and AddressSanitizer hooks that only libnpool's own
 * .c files call (the ones the installed inlines call are in
 * npool_debug.h). Private: not installed, not exported.
 */

#include <stdint.h>

#include "npool_debug.h"

struct npool_arena;
struct npool_chunk;
struct npool_hc;

/** Allocate the fragment maps of arena @p a (every chunk).
 * @return 0, or -ENOMEM. */
int npool_debug_arena_init_pvt(struct npool_arena *a, int socket_id);

/** Free the fragment maps of arena @p a. */
void npool_debug_arena_fini_pvt(struct npool_arena *a);

/** A cache starts carving chunk @p c afresh (refill or in-place reuse):
 * forget the fragments of its previous life (ASan builds: poison the
 * whole chunk until its fragments are carved). */
void npool_debug_chunk_reset_pvt(const struct npool_arena *a,
		const struct npool_chunk *c);

/** Live fragments of chunk @p c according to its map. */
uint32_t npool_debug_chunk_live_pvt(const struct npool_arena *a,
		const struct npool_chunk *c);

/** Register the lcore callback that releases napi cache ownership when
 * an lcore id is unregistered. 0 or -ENOMEM. */
int npool_debug_lcore_cb_register_pvt(void);

/** Unregister what npool_debug_lcore_cb_register_pvt() did. */
void npool_debug_lcore_cb_unregister_pvt(void);

/** @p n objects are about to be put into @p hc: panic if one is not of
 * hc's pool or is already free; mark them free (ASan builds, once
 * npool_debug_hc_arm_pvt() armed @p hc: poison them). */
void npool_debug_hc_put_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n);

/** The store of @p hc refused @p n objects: panic. */
void npool_debug_hc_store_full_pvt(const struct npool_hc *hc,
		unsigned int n);

/** @p n objects were taken from @p hc: mark them in use (ASan builds:
 * unpoison them). */
void npool_debug_hc_got_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n);

/**
 * ASan builds: from now on poison the objects of @p hc's pool while they
 * are free, starting with every one free now. Called once the pool is
 * populated and initialised (rte_pktmbuf_init() writes to every object
 * after they are all put). Main lcore, nobody using the pool; nothing in
 * other builds. rte_mempool_free() takes every object out through the
 * ops before it frees their memory: each is unpoisoned then.
 */
void npool_debug_hc_arm_pvt(struct npool_hc *hc);

#endif /* NPOOL_DEBUG_PVT_H */
