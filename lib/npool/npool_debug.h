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
 * Each hook is defined beside the structures it checks and declared in
 * their header: the fragment maps with the arena (npool_debug_frag_alloc(),
 * npool_debug_frag_free(): npool_arena.h, npool_arena_pvt.h), the napi
 * caches' owners with the per-lcore state (npool_debug_napi_owner():
 * npool_core.h), the heads' marks with the head cache
 * (npool_head_cache_pvt.h) and the poisoning of free heads with the
 * "npool" ops (rte_mempool_npool_pvt.h). This header holds only the
 * macros, below every one of them. Installed only because the inline fast
 * paths of npool_frag.h and npool_pkt.h use them (an indirect header: do
 * not include it directly).
 */

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_debug.h>

#include "npool_build_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Whether the fast paths call the fragment and head hooks: debug
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

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_DEBUG_H */
