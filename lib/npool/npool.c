/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "npool.h"
#include "npool_log.h"
/* The head store is on the "npool" ops (drivers/mempool/npool). */
#include "npool_head_cache.h"

struct npool *npool_g;

RTE_LOG_REGISTER_DEFAULT(npool_logtype, INFO);

void
npool_conf_defaults(struct npool_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->nb_chunks = 1024;
	conf->nb_small_chunks = 256;
	conf->nb_heads = 16383;
	conf->headroom = RTE_PKTMBUF_HEADROOM;
	conf->socket_id = SOCKET_ID_ANY;
}

static int
fail(int err)
{
	rte_errno = err;
	return -err;
}

int
npool_init(const struct npool_conf *conf)
{
	struct npool_conf def;
	struct npool *np;
	unsigned int i;
	int ret, idx;

	if (npool_g != NULL)
		return fail(EALREADY);
	if (conf == NULL) {
		npool_conf_defaults(&def);
		conf = &def;
	}
	if (conf->nb_heads < 64 || conf->nb_heads > (1u << 24) ||
			conf->headroom > 1024)
		return fail(EINVAL);
	idx = npool_mempool_ops_register();
	if (idx < 0) {
		NPOOL_LOG(ERR, "mempool ops \"%s\" cannot be registered: %s",
				NPOOL_MEMPOOL_OPS_NAME, rte_strerror(-idx));
		return fail(-idx);
	}

	np = rte_zmalloc_socket("npool", sizeof(*np), RTE_CACHE_LINE_SIZE,
			conf->socket_id);
	if (np == NULL)
		return fail(ENOMEM);
	ret = npool_arena_create(&np->arena, "main", conf->nb_chunks,
			conf->nb_small_chunks, conf->socket_id);
	if (ret < 0) {
		rte_free(np);
		return fail(-ret);
	}
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		struct npool_lcore *lc = &np->lc[i];

		lc->napi.lcore = (uint16_t)i;
		lc->napi_small.lcore = (uint16_t)i;
		lc->napi_small.small = 1;
		lc->guarded.lcore = (uint16_t)i;
		lc->guarded.guarded = 1;
		lc->guarded_small.lcore = (uint16_t)i;
		lc->guarded_small.guarded = 1;
		lc->guarded_small.small = 1;
		rte_spinlock_init(&lc->lock);
	}
	np->headroom = conf->headroom;
	/* Every copy-break packet is small, whatever the headroom. Without
	 * small chunks no packet is: a second cache would only hold a second
	 * big chunk per lcore. */
	if (conf->nb_small_chunks != 0)
		np->small_fragsz = RTE_MAX((uint32_t)NPOOL_PKT_SMALL_FRAGSZ,
				(uint32_t)RTE_ALIGN_CEIL(conf->headroom +
					NPOOL_PKT_SMALL_LEN +
					NPOOL_SHINFO_SIZE,
					RTE_CACHE_LINE_SIZE));
	/* Heads sit in DPDK's mempool cache of NPOOL_HC_SIZE per lcore,
	 * which every rte_mempool_get/put() of a PMD or of npool reaches
	 * inline; the "npool" ops behind it are the backing store (debug
	 * and ASan builds: the ops' own caches, npool_hc_mempool_cache_size()). */
	np->head_pool = rte_pktmbuf_pool_create_by_ops("npool_heads",
			conf->nb_heads,
			npool_hc_mempool_cache_size(conf->nb_heads), 0, 0,
			conf->socket_id,
			NPOOL_MEMPOOL_OPS_NAME);
	if (np->head_pool == NULL) {
		ret = rte_errno;
		NPOOL_LOG(ERR, "head pool: %s", rte_strerror(ret));
		npool_arena_free(&np->arena);
		rte_free(np);
		return fail(ret);
	}
	np->head_hc = np->head_pool->pool_data;
	/* Populating the pool put every head through the ops: no flush. */
	for (i = 0; i < RTE_MAX_LCORE; i++)
		npool_hc_count_reset_pvt(np->head_hc, i);
	NPOOL_DEBUG_HOOK(npool_debug_hc_arm_pvt(np->head_hc));
	npool_g = np;
	if (NPOOL_DEBUG && npool_debug_lcore_cb_register_pvt() != 0)
		NPOOL_LOG(WARNING, "debug: no lcore callback, napi cache owners are kept across rte_thread_unregister()");
	NPOOL_LOG(DEBUG, "%u chunks of %u B, %u small, %u heads",
			conf->nb_chunks, NPOOL_CHUNK_SIZE,
			conf->nb_small_chunks, conf->nb_heads);
	return 0;
}

int
npool_usage_get(struct npool_usage *u)
{
	if (u == NULL)
		return -EINVAL;
	if (npool_g == NULL)
		return -ENODEV;
	memset(u, 0, sizeof(*u));
	u->chunks = npool_g->arena.nb_chunks;
	u->small_chunks = npool_g->arena.nb_small;
	u->chunks_in_use = npool_arena_in_use(&npool_g->arena);
	u->frags_out = npool_frags_outstanding();
	u->heads = npool_g->head_pool->size;
	u->heads_out = rte_mempool_in_use_count(npool_g->head_pool);
	return 0;
}

struct rte_mempool *
npool_head_pool(void)
{
	return npool_g != NULL ? npool_g->head_pool : NULL;
}

int
npool_fini(void)
{
	struct npool *np = npool_g;
	unsigned int left;

	if (np == NULL)
		return -ENODEV;
	if (npool_frags_outstanding() != 0 ||
			rte_mempool_in_use_count(np->head_pool) != 0)
		return -EBUSY;
	left = npool_frag_cache_drain_all();
	if (npool_arena_in_use(&np->arena) != 0) {
		NPOOL_LOG(ERR, "fini: %u chunks still in use (%u napi caches left to lcores that run or threads still registered)",
				npool_arena_in_use(&np->arena), left);
		return -EBUSY;
	}
	NPOOL_DEBUG_CHECK(npool_debug_lcore_cb_unregister_pvt());
	npool_g = NULL;
	rte_mempool_free(np->head_pool);
	npool_arena_free(&np->arena);
	rte_free(np);
	return 0;
}

/*
 * The counters of slot @p slot of @p np: its own, and those its lcore's
 * head cache keeps (refills, flushes, misses; none for the non-EAL slot,
 * whose threads use the head store directly).
 */
static void
slot_stats(const struct npool *np, unsigned int slot, struct npool_stats *s)
{
	const struct npool_hc_lcore *c;

	*s = np->lc[slot].stats;
	if (slot >= RTE_MAX_LCORE)
		return;
	c = &np->head_hc->lc[slot];
	s->head_refills = c->refills;
	s->head_flushes = c->flushes;
	s->head_misses = c->misses;
}

/* Zero what slot_stats() reads of slot @p slot of @p np. */
static void
slot_stats_reset(struct npool *np, unsigned int slot)
{
	memset(&np->lc[slot].stats, 0, sizeof(np->lc[slot].stats));
	if (slot < RTE_MAX_LCORE)
		npool_hc_count_reset_pvt(np->head_hc, slot);
}

int
npool_stats_get(unsigned int slot, struct npool_stats *out)
{
	if (npool_g == NULL || out == NULL || slot > NPOOL_NON_EAL_SLOT)
		return -EINVAL;
	slot_stats(npool_g, slot, out);
	return 0;
}

int
npool_stats_sum(struct npool_stats *out)
{
	unsigned int i;

	if (npool_g == NULL || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		struct npool_stats s;

		slot_stats(npool_g, i, &s);
		npool_stats_add_pvt(out, &s);
	}
	return 0;
}

void
npool_stats_reset(void)
{
	unsigned int i;

	if (npool_g == NULL)
		return;
	/* Keep npool_frags_outstanding() true across the reset. */
	npool_g->frags_out_base = npool_frags_outstanding();
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++)
		slot_stats_reset(npool_g, i);
}
