/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The head cache (npool_head_cache.h): creation, the slow halves of its
 * per-lcore get and put, and their out-of-line forms for npool's tests.
 */
#include <errno.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "npool_head_cache.h"
#include "npool_head_cache_pvt.h"
#include "npool_asan.h"

/* Debug builds: "free" mark of a mempool object, in the spare bytes of
 * its header (npool_debug_hc_put_pvt()). */
#define HC_FREE_MARK 0x6e706f6f6c465245ULL /* "npoolFRE" */

struct npool_hc *
npool_hc_create(const char *name, uint32_t size, int socket_id)
{
	struct npool_hc *hc;

	if (name == NULL || size == 0 || size > NPOOL_HC_MAX_OBJS) {
		rte_errno = EINVAL;
		return NULL;
	}
	hc = rte_zmalloc_socket("npool_hc", sizeof(*hc), RTE_CACHE_LINE_SIZE,
			socket_id);
	if (hc == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/*
	 * Multi-producer/multi-consumer: any lcore refills and flushes, and
	 * threads without an lcore id use it directly. Those are preemptible:
	 * in the default sync mode one preempted between moving the head and
	 * the tail makes every lcore's refill or flush spin until it runs
	 * again (a whole time slice on a busy machine). Relaxed tail sync
	 * lets the others go on. But there the consumer tail moves only
	 * when the last of the concurrent dequeues ends: objects taken by
	 * the others, and put back, still count against the free space
	 * (up to 1/8 of the capacity more: the ring's head-tail distance).
	 * Twice the room keeps a put from ever failing.
	 */
	hc->store = rte_ring_create(name, rte_align32pow2(2 * size + 1),
			socket_id, RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ);
	if (hc->store == NULL) {
		rte_free(hc);
		return NULL;
	}
	hc->size = size;
	return hc;
}

void
npool_hc_free(struct npool_hc *hc)
{
	if (hc == NULL)
		return;
	rte_ring_free(hc->store);
	rte_free(hc);
}

unsigned int
npool_hc_count(const struct npool_hc *hc)
{
	unsigned int i, n = rte_ring_count(hc->store);

	for (i = 0; i < RTE_MAX_LCORE; i++)
		n += __atomic_load_n(&hc->lc[i].len, __ATOMIC_RELAXED);
	return n;
}

int
npool_hc_get_slow_pvt(struct npool_hc *hc, struct npool_hc_lcore *c,
		void **objs, unsigned int n)
{
	unsigned int want, got, i, len;

	if (unlikely(n > NPOOL_HC_SIZE)) {
		/* Larger than the cache itself: all the cache holds, hot
		 * ones first, and the rest straight from the store. */
		len = c->len;
		if (rte_ring_dequeue_bulk(hc->store, &objs[len], n - len,
				NULL) != n - len) {
			c->misses++;
			return -ENOBUFS;
		}
		npool_hc_store_acquire_pvt(hc);
		for (i = 0; i < len; i++)
			objs[i] = c->objs[len - 1 - i];
		c->len = 0;
		return 0;
	}
	/* Bulks of NPOOL_HC_BULK, enough for this request. */
	want = RTE_ALIGN_CEIL(n - c->len, NPOOL_HC_BULK);
	if (want > NPOOL_HC_SIZE - c->len)
		want = NPOOL_HC_SIZE - c->len;
	got = rte_ring_dequeue_burst(hc->store, &c->objs[c->len], want, NULL);
	npool_hc_store_acquire_pvt(hc);
	c->len += got;
	c->refills++;
	if (unlikely(c->len < n)) {
		c->misses++;
		return -ENOBUFS;
	}
	for (i = 0; i < n; i++)
		objs[i] = c->objs[c->len - 1 - i];
	c->len -= n;
	return 0;
}

void
npool_hc_flush_pvt(struct npool_hc *hc, struct npool_hc_lcore *c,
		void * const *objs, unsigned int n)
{
	if (n >= NPOOL_HC_HALF) {
		/* A big bulk bypasses the cache: it would only churn it. */
		npool_hc_store_put_pvt(hc, objs, n);
		c->flushes++;
		return;
	}
	/*
	 * Give the coldest half (the bottom of the stack) back in one bulk
	 * and keep the hot half. The kernel frees the top half for brevity;
	 * keeping the objects freed last is kinder to the data cache.
	 */
	npool_hc_store_put_pvt(hc, c->objs, NPOOL_HC_HALF);
	memmove(c->objs, &c->objs[NPOOL_HC_HALF],
			(c->len - NPOOL_HC_HALF) * sizeof(void *));
	c->len -= NPOOL_HC_HALF;
	c->flushes++;
	memcpy(&c->objs[c->len], objs, n * sizeof(void *));
	c->len += n;
}

int
npool_hc_get_bulk(struct npool_hc *hc, void **objs, unsigned int n)
{
	return npool_hc_get_pvt(hc, objs, n);
}

void
npool_hc_put_bulk(struct npool_hc *hc, void * const *objs, unsigned int n)
{
	npool_hc_put_pvt(hc, objs, n);
}

/*
 * The checks of debug builds and the poisoning of ASan builds on every
 * object that crosses a head cache (npool_debug.h).
 */

/* The mark of @obj, or NULL if its pool has no spare header bytes. */
static uint64_t *
hc_mark(const struct rte_mempool *mp, void *obj)
{
	const size_t hdr = sizeof(struct rte_mempool_objhdr);

	if (mp->header_size < hdr + sizeof(uint64_t))
		return NULL;
	return (uint64_t *)((char *)obj - hdr - sizeof(uint64_t));
}

void
npool_debug_hc_put_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n)
{
	struct rte_mempool *mp = hc->mp;
	unsigned int i;

	if (mp == NULL)
		return;
	for (i = 0; i < n; i++) {
		struct rte_mempool *owner = rte_mempool_from_obj(objs[i]);
		uint64_t *mark;

		if (owner != mp && NPOOL_DEBUG)
			rte_panic("npool: object %p put into pool %s belongs to pool %p (wrong pool)\n",
					objs[i], mp->name, owner);
		mark = hc_mark(mp, objs[i]);
		if (mark != NULL && __atomic_exchange_n(mark, HC_FREE_MARK,
				__ATOMIC_RELAXED) == HC_FREE_MARK && NPOOL_DEBUG)
			rte_panic("npool: double free of object %p into pool %s (already free)\n",
					objs[i], mp->name);
		if (hc->asan_armed)
			NPOOL_ASAN_POISON(objs[i], mp->elt_size);
	}
}

void
npool_debug_hc_store_full_pvt(const struct npool_hc *hc, unsigned int n)
{
	rte_panic("npool: store of pool %s refused %u objects (%u of %u in it): they would be lost\n",
			hc->mp != NULL ? hc->mp->name : "(none)", n,
			rte_ring_count(hc->store),
			rte_ring_get_capacity(hc->store));
}

void
npool_debug_hc_got_pvt(const struct npool_hc *hc, void * const *objs,
		unsigned int n)
{
	unsigned int i;

	if (hc->mp == NULL)
		return;
	for (i = 0; i < n; i++) {
		uint64_t *mark = hc_mark(hc->mp, objs[i]);

		/* Unpoisoned whether armed or not: a disarm may have come
		 * between the put and this get. */
		NPOOL_ASAN_UNPOISON(objs[i], hc->mp->elt_size);
		if (mark != NULL)
			__atomic_store_n(mark, 0, __ATOMIC_RELAXED);
	}
}
