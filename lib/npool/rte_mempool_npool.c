/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The head cache's rte_mempool face (rte_mempool_npool.h): the "npool"
 * mempool ops over npool_hc (npool_head_cache.h), and RX pools on them.
 * npool's own head pool is on them, so they live with the allocator;
 * drivers/mempool/npool builds the EAL plugin on top, on the public API.
 *
 * The ops are the backing store behind DPDK's own per-lcore mempool
 * cache, which rte_mempool_get/put() reach inline (the kernel's napi skb
 * cache in front of its kmem_cache): they are called on a refill or a
 * flush of that cache, or on a get or put too large for it, and count
 * those per lcore. A pool with cache size 0 has no per-lcore cache, as
 * DPDK's contract says: every get and put goes to the shared store, so an
 * object freed on one lcore can be allocated on any other at once, and
 * rte_mempool_avail_count() is what can really be allocated (DPDK's
 * mbuf_autotest allocates on the main lcore what a worker freed).
 * Debug and ASan builds check and poison every object
 * that crosses the ops (npool_debug.h); there npool's own pools have no
 * mempool cache, so that every object crosses them, and the ops keep the
 * per-lcore caches of npool_hc for those pools alone (hc->lcore_cache).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ASan builds call rte_mempool_event_callback_register(), DPDK-internal
 * (npool_debug_hc_arm_pvt() below says why): libnpool is built with
 * ALLOW_INTERNAL_API, as DPDK builds its own libraries. */
#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_mempool_npool.h"
#include "rte_mempool_npool_pvt.h"
#include "npool_asan.h"
#include "npool_head_cache.h"
#include "npool_head_cache_pvt.h"

static int
npool_mp_alloc(struct rte_mempool *mp)
{
	char name[RTE_RING_NAMESIZE];
	struct npool_hc *hc;
	int ret;

	ret = snprintf(name, sizeof(name), "NP_%s", mp->name);
	if (ret < 0 || ret >= (int)sizeof(name)) {
		rte_errno = ENAMETOOLONG;
		return -ENAMETOOLONG;
	}
	hc = npool_hc_create(name, mp->size, mp->socket_id);
	if (hc == NULL)
		return -rte_errno;
	hc->mp = mp;
	mp->pool_data = hc;
	return 0;
}

static void
npool_mp_free(struct rte_mempool *mp)
{
	npool_hc_free(mp->pool_data);
}

static int
npool_mp_enqueue(struct rte_mempool *mp, void * const *obj_table,
		unsigned int n)
{
	struct npool_hc *hc = mp->pool_data;

	if (unlikely(hc->lcore_cache)) {
		npool_hc_put_pvt(hc, obj_table, n);
		return 0;
	}
	NPOOL_DEBUG_HOOK(npool_debug_hc_put_pvt(hc, obj_table, n));
	npool_hc_store_put_pvt(hc, obj_table, n);
	npool_hc_count_pvt(hc, 0, 1, 0);
	return 0;
}

static int
npool_mp_dequeue(struct rte_mempool *mp, void **obj_table, unsigned int n)
{
	struct npool_hc *hc = mp->pool_data;

	if (unlikely(hc->lcore_cache))
		return npool_hc_get_pvt(hc, obj_table, n);
	/* All or none, as every mempool ops must. */
	if (rte_ring_dequeue_bulk(hc->store, obj_table, n, NULL) != n) {
		npool_hc_count_pvt(hc, 0, 0, 1);
		return -ENOBUFS;
	}
	npool_hc_store_acquire_pvt(hc);
	npool_hc_count_pvt(hc, 1, 0, 0);
	NPOOL_DEBUG_HOOK(npool_debug_hc_got_pvt(hc, obj_table, n));
	return 0;
}

/* The store only: DPDK adds what its own caches hold
 * (rte_mempool_avail_count()). */
static unsigned int
npool_mp_get_count(const struct rte_mempool *mp)
{
	const struct npool_hc *hc = mp->pool_data;

	return hc->lcore_cache ? npool_hc_count(hc) :
		rte_ring_count(hc->store);
}

static struct rte_mempool_ops npool_mp_ops = {
	.name = NPOOL_MEMPOOL_OPS_NAME,
	.alloc = npool_mp_alloc,
	.free = npool_mp_free,
	.enqueue = npool_mp_enqueue,
	.dequeue = npool_mp_dequeue,
	.get_count = npool_mp_get_count,
};

/*
 * Registered once EAL is up (npool_init(), npool_pktmbuf_pool_create()),
 * not from a constructor. Mempool ops are found by index, and the index
 * is per process: a constructor in libnpool runs before EAL loads its
 * driver plugins, so every stock ops of an npool app would sit one slot
 * later than in a DPDK tool without npool. A secondary such as
 * dpdk-dumpcap creates its pool on "ring_mp_sc" by its own index, the
 * primary's capture callback then allocated from another ops and every
 * packet was dropped ("received/dropped 0/123"). Registered after the
 * plugins, the stock ops keep the indexes every DPDK process gives them.
 */
int
npool_mempool_ops_register(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name,
				NPOOL_MEMPOOL_OPS_NAME) == 0)
			return (int)i;
	ret = rte_mempool_register_ops(&npool_mp_ops);
	if (ret < 0)
		rte_errno = -ret;
	return ret;
}

struct rte_mempool *
npool_pktmbuf_pool_create(const char *name, unsigned int n,
		uint16_t priv_size, uint16_t data_room_size, int socket_id)
{
	struct rte_mempool *mp;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (strlen(name) + 4 > RTE_RING_NAMESIZE) {
		rte_errno = ENAMETOOLONG;
		return NULL;
	}
	if (npool_mempool_ops_register() < 0)
		return NULL;
	/* DPDK's cache, reached inline; the ops are its backing store. */
	mp = rte_pktmbuf_pool_create_by_ops(name, n,
			npool_hc_mempool_cache_size(n), priv_size,
			data_room_size, socket_id, NPOOL_MEMPOOL_OPS_NAME);
	if (mp == NULL)
		return NULL;
	npool_hc_own_pool_pvt(mp);
	/* Initialised: ASan builds poison its free mbufs from now on. */
	NPOOL_DEBUG_HOOK(npool_debug_hc_arm_pvt(mp->pool_data));
	return mp;
}

int
npool_mempool_is_npool(const struct rte_mempool *mp)
{
	return mp != NULL &&
		strcmp(rte_mempool_get_ops(mp->ops_index)->name,
			NPOOL_MEMPOOL_OPS_NAME) == 0;
}

/*
 * ASan builds: the free objects of npool's own pools poisoned, armed once
 * a pool is initialised (npool_debug_hc_arm_pvt()) and disarmed before
 * rte_mempool_free().
 */

/* Apply @p fn to every object free in @p hc now: its store (taken and
 * put back in order) and every lcore's cache. */
static void
hc_each_free(struct npool_hc *hc, void (*fn)(void *obj, uint32_t size))
{
	const uint32_t size = hc->mp->elt_size;
	unsigned int i, k, n = rte_ring_count(hc->store);
	void *obj;

	for (k = 0; k < n; k++) {
		if (rte_ring_dequeue(hc->store, &obj) != 0)
			break;
		fn(obj, size);
		if (rte_ring_enqueue(hc->store, obj) != 0)
			rte_panic("npool: head store refused an object back\n");
	}
	for (i = 0; i < RTE_MAX_LCORE; i++)
		for (k = 0; k < hc->lc[i].len; k++)
			fn(hc->lc[i].objs[k], size);
}

static void
hc_poison(void *obj, uint32_t size)
{
	NPOOL_ASAN_POISON(obj, size);
}

#if NPOOL_ASAN
static void
hc_unpoison(void *obj, uint32_t size)
{
	NPOOL_ASAN_UNPOISON(obj, size);
}

/*
 * Before rte_mempool_free() of an armed pool: unpoison every free object.
 * DPDK takes them out through the ops one by one (which unpoisons them),
 * but not those in another lcore's cache, and then the heap writes all
 * of the pool's memory.
 */
static void
hc_destroy_cb(enum rte_mempool_event event, struct rte_mempool *mp,
		void *arg __rte_unused)
{
	struct npool_hc *hc;

	if (event != RTE_MEMPOOL_EVENT_DESTROY ||
			strcmp(rte_mempool_get_ops(mp->ops_index)->name,
				NPOOL_MEMPOOL_OPS_NAME) != 0)
		return;
	hc = mp->pool_data;
	if (hc == NULL || !hc->asan_armed)
		return;
	hc->asan_armed = 0;
	hc_each_free(hc, hc_unpoison);
}
#endif

void
npool_debug_hc_arm_pvt(struct npool_hc *hc)
{
#if NPOOL_ASAN
	static int cb_registered;

	if (hc == NULL || hc->mp == NULL || hc->asan_armed)
		return;
	if (!cb_registered &&
			rte_mempool_event_callback_register(hc_destroy_cb,
				NULL) == 0)
		cb_registered = 1;
	if (!cb_registered)
		return; /* without it, rte_mempool_free() would be reported */
	hc->asan_armed = 1;
	hc_each_free(hc, hc_poison);
#else
	RTE_SET_USED(hc);
	RTE_SET_USED(hc_each_free);
	RTE_SET_USED(hc_poison);
#endif
}
