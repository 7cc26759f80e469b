/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>
#include <rte_telemetry.h>

#include "npool.h"
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
/* app_pool_init()'s options and packets, for app_pool_npool_up(). */
static const struct app_opts *pool_opts;
static uint32_t pool_pkts;

void
app_pool_init(const struct app_opts *o, uint32_t pkts)
{
	app_numa_init(o);
	mempool_cache = o->mbcache;
	pool_opts = o;
	pool_pkts = pkts;
}

int
app_pool_npool_up(uint32_t ring_pkts)
{
	const struct app_opts *o = pool_opts;
	struct npool_conf conf;
	unsigned int lcore;
	int ret;

	if (o == NULL || npool_up ||
			(o->pool != APP_POOL_NPOOL && o->copybreak == 0))
		return 0;
	npool_conf_defaults(&conf);
	/* Sized from the rings it serves: the packets they, the bursts
	 * and the caches hold (or what the app keeps beyond them). */
	conf.nb_pkts = RTE_MIN(RTE_MAX(ring_pkts, pool_pkts), 1u << 24);
	/* Explicit settings win (exhaustion tests, small machines). */
	if (o->nb_heads != 0)
		conf.nb_heads = o->nb_heads;
	if (o->nb_chunks != 0)
		conf.nb_chunks = o->nb_chunks;
	if (o->nb_small_chunks != APP_NPOOL_DEFAULT)
		conf.nb_small_chunks = o->nb_small_chunks;
	if (o->nb_mid != APP_NPOOL_DEFAULT)
		conf.nb_mid = o->nb_mid;
	if (o->no_numa) {
		/* One instance for every lcore, as l3fwd's one pool. */
		ret = npool_init(&conf);
		if (ret < 0) {
			app_err("npool_init for %u packets: %s",
					conf.nb_pkts, rte_strerror(-ret));
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
			app_err("npool instance on socket %d for %u packets: %s%s",
					conf.socket_id, conf.nb_pkts,
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

/* One line of it for a pool of whole packets (tiny or mid-size), if
 * the instance has one (@p size objects). */
static void
whole_pool_print(FILE *f, const char *what, const char *tag, uint32_t size,
		uint32_t out, uint32_t obj)
{
	char name[32];

	if (size == 0)
		return;
	snprintf(name, sizeof(name), "%s%s", what, tag);
	fprintf(f, "  npool %-10s npool   size %7u  avail %7u  out %d (%u B each)\n",
			name, size, size - out, (int32_t)out, obj);
}

/* The npool part of the leak check's table, instance by instance. */
static void
npool_leak_print(FILE *f)
{
	struct npool *list[RTE_MAX_NUMA_NODES + 1];
	struct npool_usage u;
	unsigned int n, k;

	n = RTE_MIN(npool_instance_list(list, RTE_DIM(list)),
			(unsigned int)RTE_DIM(list));
	for (k = 0; k < n; k++) {
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
		whole_pool_print(f, "small", tag, u.small_pkts,
				u.small_pkts_out, u.small_pkt_size);
		whole_pool_print(f, "mid", tag, u.mid_pkts, u.mid_pkts_out,
				u.mid_pkt_size);
	}
}

void
app_pool_leak_check(FILE *f, struct app_leak *lk)
{
	struct npool_pool_state st;
	unsigned int i;

	memset(lk, 0, sizeof(*lk));
	/* Drains npool's fragment caches first, then checks every pool
	 * (npool's own included) and npool's arenas. */
	lk->ok = npool_leak_check(pools, nb_pools, &lk->n) == 0;
	fprintf(f, "pools:\n");
	for (i = 0; i < nb_pools; i++) {
		npool_pool_check(pools[i], &st);
		fprintf(f, "  %-16s %-7s size %7u  avail %7u  out %u\n",
				pools[i]->name,
				npool_mempool_is_npool(pools[i]) ?
				"npool" : "mempool", st.size, st.free, st.out);
	}
	if (npool_up)
		npool_leak_print(f);
	fprintf(f, "leak check: %s (%" PRIu64 " mbufs, %" PRId64
			" fragments, %u chunks out, %" PRIu64
			" mbufs with refcnt != 1, %" PRIu64 " double frees)\n",
			lk->ok ? "OK" : "LEAK", lk->n.mbufs_out,
			lk->n.frags_out, lk->n.chunks_in_use,
			lk->n.bad_refcnt, lk->n.double_free);
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
		avail = npool_mempool_free_count(pools[i]);
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
