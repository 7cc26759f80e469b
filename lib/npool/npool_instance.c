/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "npool_instance.h"
#include "npool_arena.h"
#include "npool_core.h"
#include "npool_debug.h"
#include "npool_frag.h"
#include "npool_pkt.h"
#include "npool_pkt_defer.h"
#include "npool_stats.h"
#include "rte_mempool_npool.h"
#include "npool_core_pvt.h"
#include "npool_frag_pvt.h"
/* The head store is on the "npool" ops (rte_mempool_npool.c). */
#include "npool_head_cache_pvt.h"
#include "rte_mempool_npool_pvt.h"
#include "npool_log.h"

void
npool_conf_defaults(struct npool_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->nb_pkts = 8192;
	conf->nb_chunks = NPOOL_CONF_AUTO;
	conf->nb_small_chunks = NPOOL_CONF_AUTO;
	conf->nb_heads = NPOOL_CONF_AUTO;
	conf->nb_tiny = NPOOL_CONF_AUTO;
	conf->headroom = RTE_PKTMBUF_HEADROOM;
	conf->tiny_len = NPOOL_PKT_SMALL_LEN;
	conf->tiny_headroom = NPOOL_PKT_TINY_HEADROOM;
	conf->socket_id = SOCKET_ID_ANY;
	conf->mid_len = NPOOL_PKT_MID_LEN;
	conf->nb_mid = NPOOL_CONF_AUTO;
}

/* The instance serving socket @p socket_id exactly, or NULL. */
static struct npool *
instance_of(int socket_id)
{
	unsigned int k;

	for (k = 0; k < npool_nb_instances_pvt; k++)
		if (npool_instances_pvt[k]->socket_id == socket_id)
			return npool_instances_pvt[k];
	return NULL;
}

/*
 * Point every slot at its instance after a create or destroy: an lcore
 * of the EAL (or a service lcore) at the one of its socket, else at the
 * default one, as are the non-EAL slot and the ids rte_thread_register()
 * hands out later (they have no socket yet).
 */
static void
lcore_map_update(void)
{
	struct npool *def = instance_of(SOCKET_ID_ANY);
	unsigned int i;

	if (def == NULL)
		def = npool_nb_instances_pvt != 0 ? npool_instances_pvt[0] :
			NULL;
	npool_g_pvt = def;
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		struct npool *np = NULL;

		if (i < RTE_MAX_LCORE && def != NULL &&
				(rte_lcore_has_role(i, ROLE_RTE) ||
				 rte_lcore_has_role(i, ROLE_SERVICE)))
			np = instance_of((int)rte_lcore_to_socket_id(i));
		npool_lcore_np[i] = np != NULL ? np : def;
	}
}

/* @p n if set, else @p auto_n. */
static uint32_t
conf_size(uint32_t n, uint64_t auto_n)
{
	return n != NPOOL_CONF_AUTO ? n :
		(uint32_t)RTE_MIN(auto_n, (uint64_t)UINT32_MAX - 1);
}

/* @p out: @p in with every size at NPOOL_CONF_AUTO worked out from
 * nb_pkts (npool.h says how). */
static void
conf_resolve(const struct npool_conf *in, struct npool_conf *out)
{
	const uint64_t pkts = in->nb_pkts, lcores = rte_lcore_count();
	const uint32_t per_chunk = NPOOL_CHUNK_SIZE /
		npool_pkt_fragsz_pvt(RTE_MIN(in->headroom, 1024u),
				RTE_ETHER_MAX_LEN);

	uint64_t frames;

	*out = *in;
	out->nb_mid = conf_size(in->nb_mid,
			in->mid_len <= in->tiny_len ? 0 : pkts + 384 * lcores);
	/* With mid-size packets, full-size frames take no chunk. */
	frames = out->nb_mid != 0 ? (pkts + 3) / 4 : pkts;
	out->nb_heads = conf_size(in->nb_heads,
			RTE_MAX(64u, pkts + 96 * lcores));
	out->nb_chunks = conf_size(in->nb_chunks,
			(frames + per_chunk - 1) / RTE_MAX(per_chunk, 1u) +
			2 * lcores);
	out->nb_small_chunks = conf_size(in->nb_small_chunks,
			(pkts + 15) / 16 + 2 * lcores);
	out->nb_tiny = conf_size(in->nb_tiny,
			in->tiny_len == 0 || out->nb_small_chunks == 0 ? 0 :
			pkts + 384 * lcores);
}

static int
conf_check(const struct npool_conf *conf)
{
	if (conf->nb_pkts == 0 || conf->nb_pkts > (1u << 24) ||
			conf->nb_tiny > (1u << 24) ||
			conf->nb_mid > (1u << 24) ||
			conf->mid_len > NPOOL_PKT_MID_MAX_LEN ||
			conf->nb_heads < 64 || conf->nb_heads > (1u << 24) ||
			conf->headroom > 1024 ||
			conf->tiny_headroom > 1024 ||
			conf->tiny_len > NPOOL_PKT_SMALL_LEN)
		return -EINVAL;
	if (conf->socket_id != SOCKET_ID_ANY &&
			(conf->socket_id < 0 ||
			 conf->socket_id >= RTE_MAX_NUMA_NODES))
		return -EINVAL;
	return 0;
}

/*
 * A pool of whole packets (the tiny ones, the mid-size ones): @p n
 * direct mbufs with @p room bytes of data room, named @p base (and the
 * socket), on stock ops whatever --mbuf-pool-ops-name says, behind
 * DPDK's inline per-lcore cache (up to 256). Made as
 * rte_pktmbuf_pool_create_by_ops() does, but with
 * RTE_MEMPOOL_F_NO_SPREAD: the spread over memory channels would pad a
 * 512 B tiny object (8 cache lines) to 576 B, 12 % more for every tiny
 * packet, where the kernel's small-head kmem_cache pads nothing.
 * NULL with rte_errno, logged.
 */
static struct rte_mempool *
whole_pool_make(const char *base, uint32_t n, uint16_t room, int socket_id)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room,
	};
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;
	int ret;

	if (socket_id == SOCKET_ID_ANY)
		snprintf(name, sizeof(name), "%s", base);
	else
		snprintf(name, sizeof(name), "%s_s%d", base, socket_id);
	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room,
			RTE_MIN(256u, n * 2 / 3), sizeof(priv), socket_id,
			RTE_MEMPOOL_F_NO_SPREAD);
	if (mp == NULL)
		goto fail;
	ret = rte_mempool_set_ops_byname(mp, "ring_mp_mc", NULL);
	if (ret == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		ret = rte_mempool_populate_default(mp);
	}
	if (ret < 0) {
		rte_mempool_free(mp);
		rte_errno = -ret;
		goto fail;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
fail:
	NPOOL_LOG(ERR, "packet pool %s: %s", name, rte_strerror(rte_errno));
	return NULL;
}

/* The tiny packets' pool: room for tiny_headroom + tiny_len. */
static int
small_pool_create(struct npool *np, const struct npool_conf *conf)
{
	np->tiny_len = conf->tiny_len;
	np->tiny_headroom = conf->tiny_headroom;
	np->small_pool = whole_pool_make("npool_small", conf->nb_tiny,
			(uint16_t)(conf->tiny_headroom + conf->tiny_len),
			conf->socket_id);
	if (np->small_pool == NULL)
		return -1;
	np->tiny_lim = conf->tiny_len + 1;
	return 0;
}

/* The mid-size packets' pool (npool_pkt.h): room for headroom +
 * mid_len, a stock mbuf's object with the defaults. */
static int
mid_pool_create(struct npool *np, const struct npool_conf *conf)
{
	if (conf->nb_mid == 0 || conf->mid_len <= conf->tiny_len)
		return 0;
	np->mid_pool = whole_pool_make("npool_mid", conf->nb_mid,
			(uint16_t)(conf->headroom + conf->mid_len),
			conf->socket_id);
	if (np->mid_pool == NULL)
		return -1;
	np->mid_lim = conf->mid_len + 1;
	return 0;
}

/* What instance @p np is made of, and for how many packets. */
static void
instance_log(const struct npool *np, const struct npool_conf *conf)
{
	const double mib = 1024.0 * 1024.0;
	const struct rte_mempool *hp = np->head_pool, *sp = np->small_pool;
	const struct rte_mempool *mp = np->mid_pool;
	uint32_t hsz = hp->header_size + hp->elt_size + hp->trailer_size;
	uint32_t ssz = sp == NULL ? 0 :
		sp->header_size + sp->elt_size + sp->trailer_size;
	uint32_t msz = mp == NULL ? 0 :
		mp->header_size + mp->elt_size + mp->trailer_size;

	NPOOL_LOG(INFO, "instance %s for %u packets in flight: %u big chunks (%.1f MiB), %u small (%.1f MiB), %u tiny packets of %u B (%.1f MiB), %u mid-size of %u B (%.1f MiB), %u heads of %u B (%.1f MiB)",
			np->name, conf->nb_pkts, conf->nb_chunks,
			(double)conf->nb_chunks * NPOOL_CHUNK_SIZE / mib,
			conf->nb_small_chunks,
			(double)conf->nb_small_chunks * NPOOL_SMALL_CHUNK_SIZE /
			mib, sp == NULL ? 0 : sp->size, ssz,
			sp == NULL ? 0.0 : (double)sp->size * ssz / mib,
			mp == NULL ? 0 : mp->size, msz,
			mp == NULL ? 0.0 : (double)mp->size * msz / mib,
			hp->size, hsz, (double)hp->size * hsz / mib);
}

/* The defer rings of the EAL and service lcores (npool_core.h): the
 * packets other lcores' consume bursts hand back to them. */
static int
defer_rings_create(struct npool *np)
{
	char name[RTE_RING_NAMESIZE];
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (!rte_lcore_has_role(i, ROLE_RTE) &&
				!rte_lcore_has_role(i, ROLE_SERVICE))
			continue;
		snprintf(name, sizeof(name), "npd_%s_%u", np->name, i);
		np->lc[i].defer = rte_ring_create(name, NPOOL_DEFER_MAX,
				np->socket_id, RING_F_SC_DEQ | RING_F_EXACT_SZ);
		if (np->lc[i].defer == NULL) {
			NPOOL_LOG(ERR, "defer ring %s: %s", name,
					rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

static void
defer_rings_free(struct npool *np)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		rte_ring_free(np->lc[i].defer);
		np->lc[i].defer = NULL;
	}
}

static struct npool *
create_fail(int err)
{
	rte_errno = err;
	return NULL;
}

struct npool *
npool_create(const struct npool_conf *conf)
{
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	struct npool_conf def, sized;
	struct npool *np;
	unsigned int i;
	int ret, idx;

	if (conf == NULL) {
		npool_conf_defaults(&def);
		conf = &def;
	}
	conf_resolve(conf, &sized);
	conf = &sized;
	ret = conf_check(conf);
	if (ret < 0)
		return create_fail(-ret);
	if (instance_of(conf->socket_id) != NULL)
		return create_fail(EEXIST);
	if (npool_nb_instances_pvt == RTE_DIM(npool_instances_pvt))
		return create_fail(ENOSPC);
	idx = npool_mempool_ops_register();
	if (idx < 0) {
		NPOOL_LOG(ERR, "mempool ops \"%s\" cannot be registered: %s",
				NPOOL_MEMPOOL_OPS_NAME, rte_strerror(-idx));
		return create_fail(-idx);
	}

	np = rte_zmalloc_socket("npool", sizeof(*np), RTE_CACHE_LINE_SIZE,
			conf->socket_id);
	if (np == NULL)
		return create_fail(ENOMEM);
	np->socket_id = conf->socket_id;
	if (conf->socket_id == SOCKET_ID_ANY)
		snprintf(np->name, sizeof(np->name), "any");
	else
		snprintf(np->name, sizeof(np->name), "s%d", conf->socket_id);
	ret = npool_arena_create(&np->arena, np->name, conf->nb_chunks,
			conf->nb_small_chunks, conf->socket_id);
	if (ret < 0) {
		rte_free(np);
		return create_fail(-ret);
	}
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++) {
		struct npool_lcore *lc = &np->lc[i];
		struct npool_frag_cache *caches[5] = {
			&lc->napi, &lc->napi_small, &lc->guarded,
			&lc->guarded_small, &lc->keep,
		};
		unsigned int k;

		for (k = 0; k < RTE_DIM(caches); k++) {
			caches[k]->lcore = (uint16_t)i;
			caches[k]->small = k == 1 || k == 3;
			caches[k]->guarded = k < 2 ? 0 : k < 4 ? 1 :
				NPOOL_CACHE_KEEP;
			caches[k]->np = np;
		}
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
	/* Heads sit in DPDK's mempool cache of NPOOL_MEMPOOL_CACHE_SIZE,
	 * which every rte_mempool_get/put() of a PMD or of npool reaches
	 * inline; the "npool" ops behind it are the backing store (debug
	 * and ASan builds: the ops' own caches, npool_hc_mempool_cache_size()). */
	/* The default name for SOCKET_ID_ANY, as with one instance. */
	if (conf->socket_id == SOCKET_ID_ANY)
		snprintf(pool_name, sizeof(pool_name), "npool_heads");
	else
		snprintf(pool_name, sizeof(pool_name), "npool_heads_s%d",
				conf->socket_id);
	np->head_pool = rte_pktmbuf_pool_create_by_ops(pool_name,
			conf->nb_heads,
			npool_hc_mempool_cache_size(conf->nb_heads), 0, 0,
			conf->socket_id,
			NPOOL_MEMPOOL_OPS_NAME);
	if (np->head_pool == NULL) {
		ret = rte_errno;
		NPOOL_LOG(ERR, "head pool %s: %s", pool_name,
				rte_strerror(ret));
		npool_arena_free(&np->arena);
		rte_free(np);
		return create_fail(ret);
	}
	np->head_hc = np->head_pool->pool_data;
	npool_hc_own_pool_pvt(np->head_pool);
	if ((conf->nb_tiny != 0 && conf->tiny_len != 0 &&
			small_pool_create(np, conf) < 0) ||
			mid_pool_create(np, conf) < 0 ||
			defer_rings_create(np) < 0) {
		ret = rte_errno;
		defer_rings_free(np);
		rte_mempool_free(np->mid_pool);
		rte_mempool_free(np->small_pool);
		rte_mempool_free(np->head_pool);
		npool_arena_free(&np->arena);
		rte_free(np);
		return create_fail(ret);
	}
	/* Populating the pool put every head through the ops: no flush. */
	for (i = 0; i < RTE_MAX_LCORE; i++)
		npool_hc_count_reset_pvt(np->head_hc, i);
	NPOOL_DEBUG_HOOK(npool_debug_hc_arm_pvt(np->head_hc));
	if (NPOOL_DEBUG && npool_nb_instances_pvt == 0 &&
			npool_debug_lcore_cb_register_pvt() != 0)
		NPOOL_LOG(WARNING, "debug: no lcore callback, napi cache owners are kept across rte_thread_unregister()");
	npool_instances_pvt[npool_nb_instances_pvt++] = np;
	lcore_map_update();
	instance_log(np, conf);
	return np;
}

int
npool_init(const struct npool_conf *conf)
{
	if (npool_nb_instances_pvt != 0)
		return npool_err_pvt(EALREADY);
	return npool_create(conf) != NULL ? 0 : -rte_errno;
}

struct npool *
npool_lookup_socket(int socket_id)
{
	return instance_of(socket_id);
}

struct npool *
npool_default(void)
{
	return npool_g_pvt;
}

struct npool *
npool_local(void)
{
	return npool_lcore_np[npool_slot()];
}

int
npool_socket_id(const struct npool *np)
{
	return np != NULL ? np->socket_id : SOCKET_ID_ANY;
}

const char *
npool_name(const struct npool *np)
{
	return np != NULL ? np->name : NULL;
}

unsigned int
npool_instance_list(struct npool **out, unsigned int max)
{
	unsigned int k;

	for (k = 0; k < npool_nb_instances_pvt && k < max; k++)
		out[k] = npool_instances_pvt[k];
	return npool_nb_instances_pvt;
}

struct npool *
npool_of_addr(const void *p)
{
	struct npool_chunk *c;

	return npool_owner_pvt(p, &c);
}

struct rte_mempool *
npool_head_pool(void)
{
	return npool_g_pvt != NULL ? npool_g_pvt->head_pool : NULL;
}

struct rte_mempool *
npool_instance_head_pool(const struct npool *np)
{
	return np != NULL ? np->head_pool : NULL;
}

/* Whether instance @p np has anything out (fragments, heads). */
static int
instance_busy(const struct npool *np)
{
	return npool_instance_frags_outstanding(np) != 0 ||
		rte_mempool_in_use_count(np->head_pool) != 0 ||
		(np->small_pool != NULL &&
		 rte_mempool_in_use_count(np->small_pool) != 0) ||
		(np->mid_pool != NULL &&
		 rte_mempool_in_use_count(np->mid_pool) != 0);
}

/* Free instance @p np, its caches drained and nothing out. */
static void
instance_free(struct npool *np)
{
	unsigned int k;

	for (k = 0; k < npool_nb_instances_pvt; k++)
		if (npool_instances_pvt[k] == np)
			break;
	memmove(&npool_instances_pvt[k], &npool_instances_pvt[k + 1],
			(npool_nb_instances_pvt - k - 1) *
			sizeof(npool_instances_pvt[0]));
	npool_nb_instances_pvt--;
	lcore_map_update();
	if (npool_nb_instances_pvt == 0)
		NPOOL_DEBUG_CHECK(npool_debug_lcore_cb_unregister_pvt());
	defer_rings_free(np);
	rte_mempool_free(np->head_pool);
	rte_mempool_free(np->small_pool);
	rte_mempool_free(np->mid_pool);
	npool_arena_free(&np->arena);
	rte_free(np);
}

/* Free what waits in @p np's defer rings: no other thread uses npool. */
static void
defer_rings_flush(struct npool *np)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		npool_defer_ring_flush_pvt(np, i);
}

/* Drain every cache; -EBUSY (logged) if a chunk of @p np is still held. */
static int
instance_drain(const struct npool *np)
{
	unsigned int left = npool_frag_cache_drain_all();

	if (npool_arena_in_use(&np->arena) != 0) {
		NPOOL_LOG(ERR, "instance %s: %u chunks still in use (%u napi caches left to lcores that run or threads still registered)",
				np->name, npool_arena_in_use(&np->arena), left);
		return npool_err_pvt(EBUSY);
	}
	return 0;
}

int
npool_destroy(struct npool *np)
{
	int ret;

	if (np == NULL || instance_of(np->socket_id) != np)
		return npool_err_pvt(EINVAL);
	defer_rings_flush(np);
	if (instance_busy(np))
		return npool_err_pvt(EBUSY);
	ret = instance_drain(np);
	if (ret < 0)
		return ret;
	instance_free(np);
	return 0;
}

int
npool_fini(void)
{
	unsigned int k;
	int ret;

	if (npool_nb_instances_pvt == 0)
		return npool_err_pvt(ENODEV);
	/* All or nothing: check every instance before freeing any (packets
	 * handed back to an lcore and not freed yet are free already). */
	for (k = 0; k < npool_nb_instances_pvt; k++)
		defer_rings_flush(npool_instances_pvt[k]);
	for (k = 0; k < npool_nb_instances_pvt; k++)
		if (instance_busy(npool_instances_pvt[k]))
			return npool_err_pvt(EBUSY);
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		ret = instance_drain(npool_instances_pvt[k]);
		if (ret < 0)
			return ret;
	}
	while (npool_nb_instances_pvt != 0)
		instance_free(npool_instances_pvt[npool_nb_instances_pvt - 1]);
	return 0;
}
