/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_ASAN_H
#define NPOOL_ASAN_H

/**
 * @file
 * @internal AddressSanitizer's manual poisoning, for npool memory that no
 * one may touch: the bytes of a freed fragment while its chunk lives on,
 * the never carved rest of a chunk, and a head while it sits free in a
 * head cache or store. A load or store there is reported as
 * "use-after-poison" with the stack of the access.
 *
 * Only AddressSanitizer builds (-Db_sanitize=address: NPOOL_ASAN 1) do
 * it, from the debug hooks (npool_debug.h): there the fragment maps tell
 * where a freed fragment ends, and the "npool" pools have no mempool
 * cache, so that every head put and get reaches the ops
 * (npool_hc_mempool_cache_size()). Elsewhere the macros compile to
 * nothing but still type-check their arguments. ASan's shadow has an
 * 8-byte granule: a region is poisoned in whole granules inside it,
 * unpoisoned rounded out to them.
 */

#include <stddef.h>

#include "npool_build_config.h"

#if NPOOL_ASAN
#include <sanitizer/asan_interface.h>

/** Poison @p n bytes at @p p. */
#define NPOOL_ASAN_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
/** Unpoison @p n bytes at @p p. */
#define NPOOL_ASAN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define NPOOL_ASAN_POISON(p, n) do { \
	(void)sizeof((const volatile void *)(p)); \
	(void)sizeof((size_t)(n)); \
} while (0)
#define NPOOL_ASAN_UNPOISON(p, n) NPOOL_ASAN_POISON(p, n)
#endif

/**
 * @internal A look at @p n bytes at @p p that may be poisoned, for a
 * check that walks free objects on purpose (an exit leak check reading
 * every mbuf's refcnt): unpoison them and return whether they were.
 * Pair with npool_asan_unpeek(). Always 0 outside ASan builds.
 */
static inline int
npool_asan_peek(const void *p, size_t n)
{
#if NPOOL_ASAN
	if (!__asan_address_is_poisoned(p))
		return 0;
	NPOOL_ASAN_UNPOISON(p, n);
	return 1;
#else
	(void)p;
	(void)n;
	return 0;
#endif
}

/** @internal Poison again what npool_asan_peek() found poisoned. */
static inline void
npool_asan_unpeek(const void *p, size_t n, int was_poisoned)
{
	if (was_poisoned)
		NPOOL_ASAN_POISON(p, n);
}

#endif /* NPOOL_ASAN_H */
