/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_DEBUG_H
#define NPOOL_DEBUG_H

/**
 * @file
 * Misuse checks of debug builds (meson -Dnpool_debug=true, NPOOL_DEBUG 1),
 * the counterpart of the kernel's CONFIG_DEBUG_VM / page_ref tracepoints.
 *
 * The fast paths call these hooks through NPOOL_DEBUG_HOOK(),
 * NPOOL_DEBUG_CHECK(), NPOOL_DEBUG_PANIC_IF() and NPOOL_DEBUG_PANIC():
 * one line each, compiled (parsed and type-checked) in every build and
 * folded away where they do not apply, as DPDK's RTE_MEMPOOL_STAT_ADD()
 * or VPP's "if (CLIB_DEBUG > 0)". Release builds emit no code for them
 * and pay nothing; the hooks are declared and exported in every build,
 * so that even an unoptimised (-O0) caller links. Each check that fails calls
 * rte_panic() with a message naming the address (and chunk or pool):
 *
 * - fragments: every chunk has a map of the fragments carved in its
 *   current life (start bit) and of those not yet freed (live bit), one
 *   bit per byte. npool_free_frag() maps any address to the fragment that
 *   holds it (the nearest start at or below it) and panics if that
 *   fragment was already freed, even while the chunk has other live
 *   fragments; a carve of a live fragment's start panics too.
 * - napi caches: the first thread to use an lcore's napi cache owns it
 *   until that lcore id is unregistered; another thread with the same
 *   lcore id (a pthread that set RTE_PER_LCORE(_lcore_id) itself) panics.
 * - heads (any pool on the "npool" mempool ops): an object put back into
 *   a pool it does not belong to, or put twice without a get between,
 *   panics. The mark lives in the spare bytes of the mempool object
 *   header (pools created without RTE_MEMPOOL_F_NO_CACHE_ALIGN).
 *
 * Everything here is internal to libnpool; the header is installed only
 * because npool_frag.h and npool_head_cache.h call these hooks from their
 * inline functions (an indirect header: do not include it directly).
 */

#include <stdint.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_debug.h>

#include "npool_build_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Whether the fast paths call the fragment and head hooks below: debug
 * builds (their checks, which panic) and AddressSanitizer builds (their
 * fragment maps and poisoning, npool_asan.h, without the panics).
 */
#define NPOOL_DEBUG_HOOKS (NPOOL_DEBUG || NPOOL_ASAN)

/**
 * @internal Evaluate @p call (a hook call below) in builds with
 * NPOOL_DEBUG_HOOKS (debug and AddressSanitizer builds); in others it is
 * type-checked and dropped (a constant false condition).
 */
#define NPOOL_DEBUG_HOOK(call) do { \
	if (NPOOL_DEBUG_HOOKS) \
		call; \
} while (0)

/**
 * @internal Evaluate @p call (a check that may panic) in debug builds
 * (NPOOL_DEBUG) only; type-checked and dropped in others, ASan builds
 * included.
 */
#define NPOOL_DEBUG_CHECK(call) do { \
	if (NPOOL_DEBUG) \
		call; \
} while (0)

/**
 * @internal Debug builds (NPOOL_DEBUG): rte_panic() with the printf-style
 * message @p ... if @p cond is true. Other builds never evaluate @p cond
 * (it is type-checked only) and emit nothing.
 */
#define NPOOL_DEBUG_PANIC_IF(cond, ...) do { \
	if (NPOOL_DEBUG && unlikely(cond)) \
		rte_panic(__VA_ARGS__); \
} while (0)

/** @internal Debug builds: rte_panic() with the message @p ...; nothing
 * in other builds, where the path goes on (and fails cleanly). */
#define NPOOL_DEBUG_PANIC(...) NPOOL_DEBUG_PANIC_IF(true, __VA_ARGS__)

struct npool_arena;
struct npool_chunk;
struct npool_hc;

/** @internal Allocate the fragment maps of arena @p a (every chunk).
 * @return 0, or -ENOMEM. */
int npool_debug_arena_init_pvt(struct npool_arena *a, int socket_id);

/** @internal Free the fragment maps of arena @p a. */
void npool_debug_arena_fini_pvt(struct npool_arena *a);

/** @internal A cache starts carving chunk @p c afresh (refill or in-place
 * reuse): forget the fragments of its previous life (ASan builds: poison
 * the whole chunk until its fragments are carved). */
void npool_debug_chunk_reset_pvt(const struct npool_arena *a,
		const struct npool_chunk *c);

/** @internal Fragment @p p of @p size bytes has just been carved from
 * chunk @p c. Panics if a live fragment already starts there (ASan
 * builds: unpoisons it). */
void npool_debug_frag_alloc_pvt(const struct npool_arena *a,
		const struct npool_chunk *c, const void *p, uint32_t size);

/** @internal Free through address @p p of chunk @p c: panics unless @p p
 * is inside a live fragment, then marks that fragment freed (ASan builds:
 * poisons it, up to the next fragment or the chunk's end). Call before
 * the reference is dropped. */
void npool_debug_frag_free_pvt(const struct npool_arena *a,
		const struct npool_chunk *c, const void *p);

/** @internal Live fragments of chunk @p c according to its map. */
uint32_t npool_debug_chunk_live_pvt(const struct npool_arena *a,
		const struct npool_chunk *c);

/** @internal The calling thread uses the napi cache of lcore @p slot:
 * take ownership if it has none, panic if another thread owns it. */
void npool_debug_napi_owner_pvt(unsigned int slot);

/** @internal Register the lcore callback that releases napi cache
 * ownership when an lcore id is unregistered. 0 or -ENOMEM. */
int npool_debug_lcore_cb_register_pvt(void);

/** @internal Unregister what npool_debug_lcore_cb_register_pvt() did. */
void npool_debug_lcore_cb_unregister_pvt(void);

/** @internal @p n objects are about to be put into @p hc: panic if one is
 * not of hc's pool or is already free; mark them free (ASan builds, once
 * npool_debug_hc_arm_pvt() armed @p hc: poison them). */
void npool_debug_hc_put_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n);

/** @internal The store of @p hc refused @p n objects: panic. */
void npool_debug_hc_store_full_pvt(const struct npool_hc *hc,
		unsigned int n);

/** @internal @p n objects were taken from @p hc: mark them in use (ASan
 * builds: unpoison them). */
void npool_debug_hc_got_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n);

/**
 * @internal ASan builds: from now on poison the objects of @p hc's pool
 * while they are free, starting with every one free now. Called once the
 * pool is populated and initialised (rte_pktmbuf_init() writes to every
 * object after they are all put). Main lcore, nobody using the pool;
 * nothing in other builds. rte_mempool_free() takes every object out
 * through the ops before it frees their memory: each is unpoisoned then.
 */
void npool_debug_hc_arm_pvt(struct npool_hc *hc);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_DEBUG_H */
