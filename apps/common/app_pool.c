/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>
#include <rte_telemetry.h>
/* gcc says -fsanitize=address with __SANITIZE_ADDRESS__, clang with
 * __has_feature(address_sanitizer). */
#if defined(__SANITIZE_ADDRESS__)
#define APP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define APP_ASAN 1
#endif
#endif
#ifdef APP_ASAN
#include <sanitizer/asan_interface.h>
#endif

#include "npool.h"
#include "rte_mempool_npool.h"
#include "app_compat.h"
#include "app_json.h"
#include "app_numa.h"
#include "app_pool.h"

#define MAX_POOLS 64

static struct rte_mempool *pools[MAX_POOLS];
static unsigned int nb_pools;
static bool npool_up;
/* Telemetry reads pools[] and npool while the main lcore may free them. */
static rte_spinlock_t pools_lock = RTE_SPINLOCK_INITIALIZER;
static unsigned int mempool_cache = APP_MEMPOOL_CACHE;

int
app_pool_init(const struct app_opts *o, uint32_t heads)
{
	struct npool_conf conf;
	unsigned int lcore;
	int ret;

	mempool_cache = o->mbcache;
	if (o->pool != APP_POOL_NPOOL && o->copybreak == 0)
		return 0;
	npool_conf_defaults(&conf);
	if (heads > conf.nb_heads)
		conf.nb_heads = RTE_MIN(heads, 1u << 24);
	/* Explicit settings win (exhaustion tests, small machines). */
	if (o->nb_heads != 0)
		conf.nb_heads = o->nb_heads;
	if (o->nb_chunks != 0)
		conf.nb_chunks = o->nb_chunks;
	if (o->nb_small_chunks != APP_NPOOL_DEFAULT)
		conf.nb_small_chunks = o->nb_small_chunks;
	if (o->no_numa) {
		/* One instance for every lcore, as l3fwd's one pool. */
		ret = npool_init(&conf);
		if (ret < 0) {
			app_err("npool_init (%u + %u chunks, %u heads): %s",
					conf.nb_chunks, conf.nb_small_chunks,
					conf.nb_heads, rte_strerror(-ret));
			return -1;
		}
		npool_up = true;
		return 0;
	}
	/* One instance per socket of an lcore (page_pool per node): each
	 * lcore carves and builds from memory on its own socket. */
	npool_up = true;
	RTE_LCORE_FOREACH(lcore) {
		conf.socket_id = (int)app_numa_lcore_socket(lcore);
		if (npool_lookup_socket(conf.socket_id) != NULL)
			continue;
		if (npool_create(&conf) == NULL) {
			app_err("npool instance on socket %d (%u + %u chunks, %u heads): %s%s",
					conf.socket_id, conf.nb_chunks,
					conf.nb_small_chunks, conf.nb_heads,
					rte_strerror(rte_errno),
					rte_errno == ENOMEM ?
					" (EAL memory on that socket: --socket-mem, or --no-numa)" :
					"");
			app_pool_fini();
			return -1;
		}
	}
	return 0;
}

struct rte_mempool *
app_pool_create(const char *name, unsigned int n, uint16_t data_room,
		int socket, enum app_pool_kind kind)
{
	struct rte_mempool *mp;
	unsigned int cache;

	if (nb_pools == MAX_POOLS) {
		app_err("pool %s: too many pools", name);
		return NULL;
	}
	if (kind == APP_POOL_NPOOL) {
		mp = npool_pktmbuf_pool_create(name, n, 0, data_room, socket);
	} else {
		/* The mempool library wants cache <= n / 1.5. */
		cache = RTE_MIN(mempool_cache, n * 2 / 3);
		mp = rte_pktmbuf_pool_create(name, n, cache, 0, data_room,
				socket);
	}
	if (mp == NULL) {
		app_err("pool %s (%u mbufs of %u bytes): %s", name, n,
				data_room, rte_strerror(rte_errno));
		return NULL;
	}
	rte_spinlock_lock(&pools_lock);
	pools[nb_pools++] = mp;
	rte_spinlock_unlock(&pools_lock);
	return mp;
}

/*
 * An AddressSanitizer build of libnpool poisons the free mbufs of pools on
 * the "npool" ops; the leak check reads every mbuf on purpose, so it
 * unpoisons one for the read and poisons it again. Other builds read it.
 */
static uint16_t
mbuf_refcnt_peek(const struct rte_mbuf *m)
{
#ifdef APP_ASAN
	uint16_t refcnt;

	if (__asan_address_is_poisoned(m)) {
		ASAN_UNPOISON_MEMORY_REGION(m, sizeof(*m));
		refcnt = rte_mbuf_refcnt_read(m);
		ASAN_POISON_MEMORY_REGION(m, sizeof(*m));
		return refcnt;
	}
#endif
	return rte_mbuf_refcnt_read(m);
}

/* rte_mempool_obj_iter() callback: count mbufs whose refcnt is not 1. */
static void
count_bad_refcnt(struct rte_mempool *mp __rte_unused, void *arg, void *obj,
		unsigned int idx __rte_unused)
{
	uint64_t *bad = arg;

	if (mbuf_refcnt_peek(obj) != 1)
		(*bad)++;
}

/*
 * Free objects of @p mp, not clamped to its size as
 * rte_mempool_avail_count() is: more than the size is a double free.
 */
static unsigned int
free_count(const struct rte_mempool *mp)
{
	const struct rte_mempool_ops *ops = rte_mempool_get_ops(mp->ops_index);
	unsigned int n = ops->get_count(mp), l;

	if (mp->cache_size != 0)
		for (l = 0; l < RTE_MAX_LCORE; l++)
			n += mp->local_cache[l].len;
	return n;
}

/* The npool part of the leak check, instance by instance. */
static void
npool_leak_check(FILE *f, struct app_leak *lk)
{
	struct npool *list[RTE_MAX_NUMA_NODES + 1];
	struct npool_usage u;
	unsigned int n, k;

	/* Caches keep their current chunk: give them back first. */
	npool_frag_cache_drain_all();
	n = RTE_MIN(npool_instance_list(list, RTE_DIM(list)),
			(unsigned int)RTE_DIM(list));
	for (k = 0; k < n; k++) {
		struct rte_mempool *hp = npool_instance_head_pool(list[k]);

		char tag[24] = "";

		/* One instance prints as before there were several. */
		if (n > 1)
			snprintf(tag, sizeof(tag), " %s", npool_name(list[k]));
		npool_instance_usage_get(list[k], &u);
		fprintf(f, "  npool heads%-5s npool   size %7u  avail %7u  out %d\n",
				tag, u.heads, u.heads - u.heads_out,
				(int32_t)u.heads_out);
		fprintf(f, "  npool arena%s: %" PRId64 " fragments out, %u of %u+%u chunks in use (socket %d)\n",
				tag, u.frags_out, u.chunks_in_use, u.chunks,
				u.small_chunks, u.socket_id);
		if (u.small_pkts != 0)
			fprintf(f, "  npool small%-5s npool   size %7u  avail %7u  out %d (%u B each)\n",
					tag, u.small_pkts,
					u.small_pkts - u.small_pkts_out,
					(int32_t)u.small_pkts_out,
					u.small_pkt_size);
		/* More heads back than handed out: a double free. */
		if ((int32_t)u.heads_out < 0)
			lk->double_free += -(int64_t)(int32_t)u.heads_out;
		else
			lk->mbufs_out += u.heads_out;
		if ((int32_t)u.small_pkts_out < 0)
			lk->double_free +=
				-(int64_t)(int32_t)u.small_pkts_out;
		else
			lk->mbufs_out += u.small_pkts_out;
		rte_mempool_obj_iter(hp, count_bad_refcnt, &lk->bad_refcnt);
		lk->frags_out += u.frags_out;
		lk->chunks_in_use += u.chunks_in_use;
	}
}

void
app_pool_leak_check(FILE *f, struct app_leak *lk)
{
	unsigned int i;

	memset(lk, 0, sizeof(*lk));
	fprintf(f, "pools:\n");
	for (i = 0; i < nb_pools; i++) {
		const struct rte_mempool *mp = pools[i];
		unsigned int avail = free_count(mp);
		unsigned int out = avail < mp->size ? mp->size - avail : 0;

		fprintf(f, "  %-16s %-7s size %7u  avail %7u  out %u\n",
				mp->name, npool_mempool_is_npool(mp) ?
				"npool" : "mempool", mp->size, avail, out);
		lk->mbufs_out += out;
		if (avail > mp->size)
			lk->double_free += avail - mp->size;
		rte_mempool_obj_iter(pools[i], count_bad_refcnt,
				&lk->bad_refcnt);
	}
	if (npool_up)
		npool_leak_check(f, lk);
	lk->ok = lk->mbufs_out == 0 && lk->frags_out == 0 &&
		lk->chunks_in_use == 0 && lk->bad_refcnt == 0 &&
		lk->double_free == 0;
	fprintf(f, "leak check: %s (%" PRIu64 " mbufs, %" PRId64
			" fragments, %u chunks out, %" PRIu64
			" mbufs with refcnt != 1, %" PRIu64 " double frees)\n",
			lk->ok ? "OK" : "LEAK", lk->mbufs_out, lk->frags_out,
			lk->chunks_in_use, lk->bad_refcnt, lk->double_free);
}

/* npool's counters of @p lcore or of all (APP_POOL_STATS_ALL): 0 or -1. */
static int
npool_stats_of(unsigned int lcore, struct npool_stats *s)
{
	if (!npool_up)
		return -1;
	if (lcore == APP_POOL_STATS_ALL)
		return npool_stats_sum(s) == 0 ? 0 : -1;
	return npool_stats_get(lcore, s) == 0 ? 0 : -1;
}

void
app_pool_stats_print(FILE *f, unsigned int lcore)
{
	struct npool_stats s;
	const char *sep = "";

	if (npool_stats_of(lcore, &s) != 0)
		return;
	if (lcore == APP_POOL_STATS_ALL)
		fprintf(f, "total: npool");
	else
		fprintf(f, "lcore %u: npool", lcore);
#define PRINT(x) fprintf(f, "%s " #x " %" PRIu64, sep, s.x); sep = ",";
	NPOOL_STATS_FIELDS(PRINT)
#undef PRINT
	fprintf(f, "\n");
}

void
app_pool_stats_json(struct app_json *j, unsigned int lcore)
{
	struct npool_stats s;

	if (npool_stats_of(lcore, &s) != 0)
		return;
	app_json_obj_begin(j, "npool");
#define KEY(x) app_json_u64(j, #x, s.x);
	NPOOL_STATS_FIELDS(KEY)
#undef KEY
	app_json_obj_end(j);
}

int
app_pool_usage_to_dict(struct rte_tel_data *d)
{
	struct npool_usage u;
	unsigned int i, avail;

	rte_spinlock_lock(&pools_lock);
	for (i = 0; i < nb_pools; i++) {
		avail = free_count(pools[i]);
		rte_tel_data_add_dict_uint(d, pools[i]->name,
				avail < pools[i]->size ?
				pools[i]->size - avail : 0);
	}
	if (npool_up && npool_usage_get(&u) == 0) {
		rte_tel_data_add_dict_uint(d, "npool_heads", u.heads_out);
		rte_tel_data_add_dict_int(d, "npool_frags", (int)u.frags_out);
		rte_tel_data_add_dict_uint(d, "npool_chunks", u.chunks_in_use);
	}
	rte_spinlock_unlock(&pools_lock);
	return 0;
}

void
app_pool_fini(void)
{
	int ret;

	rte_spinlock_lock(&pools_lock);
	while (nb_pools > 0)
		rte_mempool_free(pools[--nb_pools]);
	if (npool_up) {
		ret = npool_fini();
		if (ret < 0)
			app_err("npool_fini: %s", rte_strerror(-ret));
		npool_up = false;
	}
	rte_spinlock_unlock(&pools_lock);
}
