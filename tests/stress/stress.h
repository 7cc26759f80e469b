/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_STRESS_H
#define NPOOL_STRESS_H

/*
 * npool-stress: lcores 0 and 1 and one non-EAL pthread allocate fragments
 * and packets of random sizes and alignments, write a pattern into each,
 * pass them to one another through rte_rings (or keep them a while,
 * condensed or not), and the receiver checks the pattern and frees them
 * with a random release call (consume bursts hand packets back to the
 * lcore that made them, npool_pkt_defer.h). Shared state and the worker
 * entry point.
 */

#include <stdint.h>
#include <rte_common.h>
#include <rte_ring.h>

/* Workers: lcore 0 (main), lcore 1, the non-EAL thread. */
#define ST_WORKERS 3
#define ST_THREAD 2 /* index of the non-EAL worker */

/* What a ring message carries. */
enum st_obj {
	ST_OBJ_FRAG, /* a fragment: obj is its start */
	ST_OBJ_PKT,  /* a packet, clone or extra reference: obj is the mbuf */
};

/* Counted events. Acquisitions first, then releases, then the rest. */
enum st_ev {
	EV_FRAG_NAPI,     /* npool_napi_alloc_frag[_align]() */
	EV_FRAG_GUARDED,  /* npool_alloc_frag[_align]() */
	EV_PKT_NAPI,      /* npool_napi_alloc_pkt() */
	EV_PKT_GUARDED,   /* npool_alloc_pkt() */
	EV_PKT_BUILD,     /* npool_build_pkt() on a fragment */
	EV_CLONE,         /* rte_pktmbuf_clone() */
	EV_REF,           /* one reference of rte_mbuf_refcnt_update(m, +k) */
	EV_FREE_FRAG,     /* npool_free_frag() */
	EV_FREE_PKT,      /* rte_pktmbuf_free() */
	EV_CONSUME,       /* npool_napi_consume_pkt() */
	EV_CONSUME_BULK,  /* one packet of npool_napi_consume_bulk() */
	EV_NB_OPS,        /* events below are not operations */
	EV_REMOTE = EV_NB_OPS, /* released by another worker than made it */
	EV_RING_FULL,     /* a destination ring was full: released here */
	EV_NOMEM,         /* allocation refused: ENOMEM (arena empty) */
	EV_NOBUFS,        /* allocation refused: ENOBUFS (no head) */
	EV_CONDENSE,      /* a kept packet moved by npool_pkt_condense() */
	EV_DEFER_DRAIN,   /* a packet freed by npool_napi_defer_drain() */
	EV_PKT_MID,       /* a packet allocated as a mid-size object */
	EV_NB,
};
#define EV_FIRST_RELEASE EV_FREE_FRAG

/* One ring element (rte_ring_*_elem, 24 bytes). */
struct st_msg {
	void *obj;     /* fragment start or mbuf */
	uint64_t tag;  /* pattern key: maker << 56 | sequence */
	uint32_t len;  /* fragment size or packet data length, bytes */
	uint16_t type; /* enum st_obj */
	uint16_t pad;
};

/* Faults --inject plants once, on lcore 1, to show the checks fail. */
enum st_inject {
	ST_INJECT_NONE,
	ST_INJECT_SCRIBBLE, /* a byte of a live fragment overwritten */
	ST_INJECT_LEAK,     /* a fragment never freed */
};

/* Settings, fixed before the workers start. */
struct st_conf {
	uint64_t ops;       /* operations wanted in all (at least) */
	uint64_t seed;      /* PRNG seed; worker w uses seed + w */
	uint32_t chunks;    /* arena big chunks */
	uint32_t small;     /* arena small chunks */
	uint32_t heads;     /* head pool size */
	uint32_t ring_size; /* elements per ring (one per worker pair) */
	unsigned int progress; /* seconds between progress lines, 0: none */
	enum st_inject inject; /* a fault to plant, to test the checks */
};

/* One worker; written only by its own thread until it is joined. */
struct st_worker {
	unsigned int id;           /* 0 .. ST_WORKERS - 1 */
	uint64_t rng;              /* xorshift64* state */
	uint64_t seq;              /* objects made */
	uint64_t ev[EV_NB];        /* counted events */
	uint32_t done;             /* set (release) after its last send */
} __rte_cache_aligned;

/* Everything the workers share. */
struct st_shared {
	const struct st_conf *conf;
	/* in[dst][src]: single producer, single consumer. One ring per
	 * pair, so that a preempted sender (the non-EAL thread shares the
	 * CPUs) never makes another sender spin on a multi-producer tail. */
	struct rte_ring *in[ST_WORKERS][ST_WORKERS];
	struct st_worker w[ST_WORKERS];
	uint64_t errors;                 /* pattern or field mismatches */
	uint64_t start_tsc;
};

/* Run worker @arg (a struct st_worker * inside an st_shared). */
int st_worker_main(void *arg);

/* The shared state (one per process). */
extern struct st_shared st_g;

/* Worker 0: print a progress line when one is due (--progress). */
void st_progress(void);

/* Report an inconsistency found by a worker (first ones printed). */
void st_error(const char *fmt, ...) __rte_format_printf(1, 2);

/* Names of the events, for the report. */
extern const char * const st_ev_names[EV_NB];

#endif /* NPOOL_STRESS_H */
