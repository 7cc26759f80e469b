/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Head cache: bulk refill 16 / flush half (Lobakin's NAPI skb cache, seed
 * 7) vs one object at a time. The library's npool_hc is one variant; the
 * others run a test-only copy of its get/put in this file, parameterised
 * by the refill bulk and the flush size, on the same struct npool_hc:
 * "copy 16/half" must match the library, "copy 1/one" takes one object
 * from the store when empty and gives one back when full (the kernel
 * before the bulk cache: kmem_cache_alloc/free per skb). Stock mempools
 * (cache 256 and cache 0) run beside them.
 *
 * Patterns: get+put one at a time (the cache always hits), 256 gets then
 * 256 puts (deeper than the 64-object cache), gets on lcore 0 with puts on
 * lcore 1 (one cache always empty, the other always full).
 */
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "npool.h"
#include "npool_head_cache.h"
#include "bench_common.h"

enum hv { HV_LIB, HV_COPY16, HV_COPY1, HV_MP256, HV_MP0, HV_NB };
enum hmode { H_OP, H_DEEP, H_REMOTE };

#define DEEP 256
#define NB_OBJS 4096

static const char * const hv_name[] = {
	[HV_LIB] = "npool_hc 16/half",
	[HV_COPY16] = "copy 16/half",
	[HV_COPY1] = "copy 1/one",
	[HV_MP256] = "mempool cache256",
	[HV_MP0] = "mempool cache0",
};
static const char * const hmode_name[] = {
	[H_OP] = "op get+put", [H_DEEP] = "deep 256 get, 256 put",
	[H_REMOTE] = "get lcore0, put lcore1",
};

static struct npool_hc *hcs[HV_NB];
static struct rte_mempool *mps[HV_NB];

/* Test-only copy of npool_hc_get_bulk(.., 1) with a refill of @p bulk. */
static __rte_always_inline void *
copy_get(struct npool_hc *hc, unsigned int bulk)
{
	struct npool_hc_lcore *c = &hc->lc[rte_lcore_id()];
	void *obj;

	if (unlikely(c->len == 0)) {
		if (bulk == 1) {
			if (rte_ring_dequeue(hc->store, &obj) != 0)
				return NULL;
			return obj;
		}
		c->len = rte_ring_dequeue_burst(hc->store, c->objs, bulk,
				NULL);
		c->refills++;
		if (c->len == 0)
			return NULL;
	}
	return c->objs[--c->len];
}

/* Test-only copy of npool_hc_put_bulk(.., 1) flushing @p flush. */
static __rte_always_inline void
copy_put(struct npool_hc *hc, unsigned int flush, void *obj)
{
	struct npool_hc_lcore *c = &hc->lc[rte_lcore_id()];

	if (unlikely(c->len == NPOOL_HC_SIZE)) {
		if (flush == 1) {
			rte_ring_enqueue(hc->store, obj);
			return;
		}
		/* As the library: the coldest @p flush go, the hot stay. */
		rte_ring_enqueue_bulk(hc->store, c->objs, flush, NULL);
		memmove(c->objs, &c->objs[flush],
				(c->len - flush) * sizeof(void *));
		c->len -= flush;
		c->flushes++;
	}
	c->objs[c->len++] = obj;
}

static __rte_always_inline void *
hv_get(enum hv v)
{
	void *obj = NULL;

	switch (v) {
	case HV_LIB:
		if (npool_hc_get_bulk(hcs[v], &obj, 1) != 0)
			obj = NULL;
		break;
	case HV_COPY16:
		obj = copy_get(hcs[v], NPOOL_HC_BULK);
		break;
	case HV_COPY1:
		obj = copy_get(hcs[v], 1);
		break;
	default:
		if (rte_mempool_get(mps[v], &obj) != 0)
			obj = NULL;
	}
	if (unlikely(obj == NULL))
		rte_panic("bench hc: %s empty\n", hv_name[v]);
	return obj;
}

static __rte_always_inline void
hv_put(enum hv v, void *obj)
{
	switch (v) {
	case HV_LIB:
		npool_hc_put_bulk(hcs[v], &obj, 1);
		break;
	case HV_COPY16:
		copy_put(hcs[v], NPOOL_HC_HALF, obj);
		break;
	case HV_COPY1:
		copy_put(hcs[v], 1, obj);
		break;
	default:
		rte_mempool_put(mps[v], obj);
	}
}

static __rte_always_inline uint64_t
hc_loop(enum hv v, const void *arg, unsigned int n)
{
	enum hmode mode = *(const enum hmode *)arg;
	void *objs[DEEP];
	unsigned int i, j;
	uint64_t t0;

	t0 = rte_rdtsc_precise();
	switch (mode) {
	case H_OP:
		for (i = 0; i < n; i++)
			hv_put(v, hv_get(v));
		break;
	case H_DEEP:
		for (i = 0; i < n; i += DEEP) {
			for (j = 0; j < DEEP; j++)
				objs[j] = hv_get(v);
			for (j = 0; j < DEEP; j++)
				hv_put(v, objs[DEEP - 1 - j]);
		}
		break;
	case H_REMOTE:
		for (i = 0; i < n; i += BENCH_BURST) {
			for (j = 0; j < BENCH_BURST; j++)
				objs[j] = hv_get(v);
			bench_remote_send(objs, BENCH_BURST);
		}
		bench_remote_drain();
		break;
	}
	return rte_rdtsc_precise() - t0;
}

/* Specialisations: one loop and one remote put per variant. */
#define HC_RUN(V) \
BENCH_RUN_FN(hc_loop, V) \
static void put_##V(void **objs, unsigned int n) \
{ \
	unsigned int i; \
	for (i = 0; i < n; i++) \
		hv_put(V, objs[i]); \
}
HC_RUN(HV_LIB)
HC_RUN(HV_COPY16)
HC_RUN(HV_COPY1)
HC_RUN(HV_MP256)
HC_RUN(HV_MP0)

static uint64_t (* const hv_run[])(void *, unsigned int) = {
	[HV_LIB] = run_HV_LIB, [HV_COPY16] = run_HV_COPY16,
	[HV_COPY1] = run_HV_COPY1, [HV_MP256] = run_HV_MP256,
	[HV_MP0] = run_HV_MP0,
};
static const bench_free_bulk_t hv_put_remote[] = {
	[HV_LIB] = put_HV_LIB, [HV_COPY16] = put_HV_COPY16,
	[HV_COPY1] = put_HV_COPY1, [HV_MP256] = put_HV_MP256,
	[HV_MP0] = put_HV_MP0,
};

struct hc_arg {
	enum hmode mode; /* first: run_* read it through arg */
	enum hv v;
};

static uint64_t
run_variant(void *arg, unsigned int n)
{
	struct hc_arg *a = arg;

	if (a->mode == H_REMOTE)
		bench_remote_set(hv_put_remote[a->v]);
	return hv_run[a->v](&a->mode, n);
}

static void
hc_case(enum hmode mode)
{
	struct hc_arg args[HV_NB];
	struct bench_case bc;
	unsigned int v;

	memset(&bc, 0, sizeof(bc));
	bc.bench = "hc";
	snprintf(bc.name, sizeof(bc.name), "%s", hmode_name[mode]);
	if (!bench_selected(bc.name))
		return;
	bc.seed = "7 Lobakin 64/16/half";
	bc.n = bench_scale(1u << 19);
	bc.ops_per_call = 1;
	for (v = 0; v < HV_NB; v++) {
		args[v].mode = mode;
		args[v].v = (enum hv)v;
		bench_add(&bc, hv_name[v], run_variant, &args[v]);
	}
	bc.anchor = HV_COPY1;
	bench_case_run(&bc);
	bench_case_print(&bc);
}

static void
setup(void)
{
	char name[RTE_RING_NAMESIZE];
	unsigned int v, i;
	char *objs;

	objs = rte_zmalloc("bench_hc_objs", (size_t)NB_OBJS * 64 * 3, 64);
	if (objs == NULL)
		rte_exit(1, "bench hc: no memory\n");
	for (v = HV_LIB; v <= HV_COPY1; v++) {
		snprintf(name, sizeof(name), "bench_hc%u", v);
		hcs[v] = npool_hc_create(name, NB_OBJS, SOCKET_ID_ANY);
		if (hcs[v] == NULL)
			rte_exit(1, "npool_hc_create: %s\n",
					rte_strerror(rte_errno));
		for (i = 0; i < NB_OBJS; i++)
			rte_ring_enqueue(hcs[v]->store,
				objs + ((size_t)v * NB_OBJS + i) * 64);
	}
	mps[HV_MP256] = rte_mempool_create("bench_mp256", NB_OBJS - 1, 64,
			256, 0, NULL, NULL, NULL, NULL, SOCKET_ID_ANY, 0);
	mps[HV_MP0] = rte_mempool_create("bench_mp0", NB_OBJS - 1, 64,
			0, 0, NULL, NULL, NULL, NULL, SOCKET_ID_ANY, 0);
	if (mps[HV_MP256] == NULL || mps[HV_MP0] == NULL)
		rte_exit(1, "mempools: %s\n", rte_strerror(rte_errno));
}

int
main(int argc, char **argv)
{
	unsigned int m;

	bench_init(argc, argv, "hc", 256, 1);
	setup();
	bench_remote_start();
	bench_table_header();
	for (m = H_OP; m <= H_REMOTE; m++)
		hc_case((enum hmode)m);
	bench_remote_stop();
	return bench_fini(0);
}
