/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_OPS_MODEL_H
#define NPOOL_OPS_MODEL_H

/*
 * The model npool_ops_fuzz.c keeps of what its input holds: npool
 * fragments (regions), mbuf chains (packets) and the handles that
 * reference them, with the checks that go with each change and the
 * counter moves a step must cause.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "npool.h"
#include "fuzz_common.h"

#define FZ_HANDLES 64
#define FZ_SEGS 8
#define FZ_REGIONS (FZ_HANDLES * FZ_SEGS)

/* An npool fragment the model knows of. */
struct fz_region {
	uint8_t *base;
	uint32_t size;     /* bytes allocated */
	uint32_t check;    /* leading bytes holding the fill byte */
	uint32_t refs;     /* raw handles and packet segments on it */
	unsigned int slot; /* npool slot that allocated it */
	uint8_t fill;
};

/* An mbuf chain, held by @c refs handles (its segments' refcnt), or
 * by the defer ring of lcore @c deferred - 1 (npool_pkt_defer.h) after
 * a consume burst handed it back there. */
struct fz_pkt {
	struct rte_mbuf *m;
	uint32_t refs;
	uint16_t nseg;
	uint16_t deferred;       /* lcore + 1, 0: none */
	int16_t region[FZ_SEGS]; /* per segment, -1: not an npool fragment */
};

/* What the input holds: a raw fragment or a reference to a packet;
 * both -1: an empty handle. */
struct fz_handle {
	int16_t region;
	int16_t pkt;
};

/* Counter moves a step must cause (over the slots the steps run on); a
 * step may refill (or reuse in place) at most @c refills times, take a
 * small chunk for a big cache only when no big one was free (@c no_big),
 * and a big chunk for a small-packet cache only when no small one was
 * (@c no_small). */
struct fz_delta {
	int64_t allocs, frees, remote, failures;
	int64_t pkt_allocs, pkt_builds, pkt_failures, pkt_consumes;
	int64_t refills;
	bool no_big, no_small;
};

extern struct fz_region fz_regions[FZ_REGIONS];
extern struct fz_pkt fz_pkts[FZ_HANDLES];
extern struct fz_handle fz_h[FZ_HANDLES];

/* An empty handle, or -1. */
int fz_empty_handle(void);

/*
 * A new fragment @p p of @p size bytes: aligned to @p align, inside one
 * chunk, over no live one; its first @p fill bytes filled (a packet's
 * shared info follows them). @return its region.
 */
int fz_region_add(void *p, uint32_t size, uint32_t align, uint32_t fill);

/* A new packet of one reference, its segments on no region yet. */
int fz_pkt_add(struct rte_mbuf *m);

/*
 * The model side of handle @p h letting go of its reference (each region
 * whose last reference goes is checked for its fill and counted freed).
 * @return the packet's mbuf to free, or NULL for a raw fragment.
 */
struct rte_mbuf *fz_release(int h, struct fz_delta *want, bool consume);

/*
 * Which of @p n packets npool_napi_consume_bulk(), called now on this
 * thread, hands back to the lcore that carved them (npool_pkt_defer.h),
 * as its code decides from the packets' state: @p to[i] that lcore, or
 * -1 (freed here).
 */
void fz_defer_predict(struct rte_mbuf *const *m, unsigned int n, int *to);

/* The model side of handle @p h's packet going to lcore @p lcore's defer
 * ring: still out, held by no handle. */
void fz_defer(int h, int lcore);

/* The model side of npool_frag_cache_drain_all() on the main lcore
 * freeing what every defer ring holds (rte_pktmbuf_free()). */
void fz_defer_flush(struct fz_delta *want);

/* Free handle @p h: a fragment at inner offset @p off, a packet with
 * rte_pktmbuf_free() (@p how % 3 == 0), npool_napi_consume_pkt() (1) or
 * npool_napi_consume_bulk() (2). */
void fz_free(int h, uint32_t how, uint32_t off, struct fz_delta *want);

/* Counters of the slots the steps run on, added up. */
struct npool_stats fz_stats(void);

/*
 * Counters moved from @p b by @p w, fragments and heads out as the model
 * says; after a drain (@p drained) npool_usage_get() agrees and the chunks
 * in use are those holding live fragments. @return the counters now.
 */
struct npool_stats fz_check(const struct npool_stats *b,
		const struct fz_delta *w, uint32_t op, bool drained);

#endif /* NPOOL_OPS_MODEL_H */
