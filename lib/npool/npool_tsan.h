/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_TSAN_H
#define NPOOL_TSAN_H

/**
 * @file
 * @internal ThreadSanitizer annotations (make tsan), for npool's own
 * inline code; applications have no use for them. Installed only because
 * npool_pkt_consume.h uses one in its inline functions (an indirect
 * header: do not include it directly).
 *
 * TSan sees the ordering of C11 atomics in instrumented code only. Where
 * npool relies on an ordering that DPDK gives some other way, these say
 * so: npool_tsan_release(addr) happens before every later
 * npool_tsan_acquire(addr) on the same address, and an acquire on the
 * address of an atomic variable also takes what release operations on
 * that variable published. They touch no memory, and outside TSan builds
 * compile to nothing (the address is evaluated, without side effect).
 *
 * Used for: chunks handed over by DPDK's lock-free stack (its 128-bit
 * compare-and-swap is inline asm: npool_arena.c), and objects handed
 * over by the head cache's RTS ring, whose producers release the tail
 * with a 64-bit compare-and-swap and whose consumers acquire its 32-bit
 * position half at another address (npool_head_cache_pvt.h: a put
 * releases, a get acquires, on the ring); and an mbuf's refcnt and
 * nb_segs read in one 64-bit acquire load while other holders decrement
 * refcnt alone (npool_pkt_consume.h: an acquire on refcnt's address).
 */

#include <stdint.h>

#if defined(__SANITIZE_THREAD__)
#define NPOOL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NPOOL_TSAN 1
#endif
#endif

#ifdef NPOOL_TSAN
#include <sanitizer/tsan_interface.h>
/** What happened before here happens before a later acquire on @p a. */
#define npool_tsan_release(a) __tsan_release((void *)(uintptr_t)(a))
/** Take what releases on @p a (annotations or atomics) published. */
#define npool_tsan_acquire(a) __tsan_acquire((void *)(uintptr_t)(a))
#else
#define npool_tsan_release(a) do { (void)(a); } while (0)
#define npool_tsan_acquire(a) do { (void)(a); } while (0)
#endif

#endif /* NPOOL_TSAN_H */
