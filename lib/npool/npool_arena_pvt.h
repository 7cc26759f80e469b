/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_ARENA_PVT_H
#define NPOOL_ARENA_PVT_H

/**
 * @file
 * @internal The fragment maps of debug and AddressSanitizer builds as
 * libnpool's own .c files see them (the hooks the installed inlines call
 * are in npool_arena.h). Private: not installed, not exported.
 */

#include <stdint.h>

#include "npool_arena.h"

/** A cache starts carving chunk @p c afresh (refill or in-place reuse):
 * forget the fragments of its previous life (ASan builds: poison the
 * whole chunk until its fragments are carved). */
void npool_debug_chunk_reset_pvt(const struct npool_arena *a,
		const struct npool_chunk *c);

/** Live fragments of chunk @p c according to its map. */
uint32_t npool_debug_chunk_live_pvt(const struct npool_arena *a,
		const struct npool_chunk *c);

#endif /* NPOOL_ARENA_PVT_H */
