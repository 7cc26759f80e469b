/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "npool.h"
#include "app_json.h"
#include "app_numa.h"

struct numa_note {
	enum app_numa_kind kind;
	char name[RTE_MEMPOOL_NAMESIZE];
	int socket;
	const void *mem;
};

static struct numa_note notes[APP_NUMA_MAX_NOTES];
static unsigned int nb_notes;
static bool no_numa;

void
app_numa_init(const struct app_opts *o)
{
	no_numa = o->no_numa;
	nb_notes = 0;
}

unsigned int
app_numa_lcore_socket(unsigned int lcore)
{
	unsigned int socket = rte_lcore_to_socket_id(lcore);

	return no_numa || socket >= RTE_MAX_NUMA_NODES ? 0 : socket;
}

int
app_numa_memseg_socket(const void *p)
{
	const struct rte_memseg *ms = p != NULL ?
		rte_mem_virt2memseg(p, NULL) : NULL;

	return ms != NULL ? ms->socket_id : -1;
}

void
app_numa_note(enum app_numa_kind kind, const char *name, int socket,
		const void *mem)
{
	struct numa_note *n;

	if (nb_notes == APP_NUMA_MAX_NOTES) {
		app_err("warning: more than %u pools and tables: %s is left out of --json numa",
				APP_NUMA_MAX_NOTES, name);
		return;
	}
	n = &notes[nb_notes++];
	n->kind = kind;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->socket = socket;
	n->mem = mem;
}

void
app_numa_forget(enum app_numa_kind kind)
{
	unsigned int i, k = 0;

	for (i = 0; i < nb_notes; i++)
		if (notes[i].kind != kind)
			notes[k++] = notes[i];
	nb_notes = k;
}

static void
json_notes(struct app_json *j, const char *key, enum app_numa_kind kind)
{
	unsigned int i;

	app_json_arr_begin(j, key);
	for (i = 0; i < nb_notes; i++) {
		if (notes[i].kind != kind)
			continue;
		app_json_obj_begin(j, NULL);
		app_json_str(j, "name", notes[i].name);
		app_json_i64(j, "socket", notes[i].socket);
		app_json_i64(j, "memseg_socket",
				app_numa_memseg_socket(notes[i].mem));
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
}

/* First object of @p mp, for its memseg (NULL if it has none). */
static void
first_obj(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
		unsigned int idx)
{
	if (idx == 0)
		*(void **)opaque = obj;
}

static void
json_npool(struct app_json *j)
{
	struct npool *list[RTE_MAX_NUMA_NODES + 1];
	unsigned int n, k;

	n = npool_instance_list(list, RTE_DIM(list));
	app_json_arr_begin(j, "npool");
	for (k = 0; k < n && k < RTE_DIM(list); k++) {
		struct rte_mempool *hp = npool_instance_head_pool(list[k]);
		struct npool_stats s;
		struct npool_usage u;
		void *head = NULL;

		npool_instance_usage_get(list[k], &u);
		npool_instance_stats_sum(list[k], &s);
		rte_mempool_obj_iter(hp, first_obj, &head);
		app_json_obj_begin(j, NULL);
		app_json_i64(j, "socket", npool_socket_id(list[k]));
		app_json_str(j, "name", npool_name(list[k]));
		app_json_i64(j, "arena_memseg_socket",
				app_numa_memseg_socket(list[k]->arena.base));
		app_json_i64(j, "heads_memseg_socket",
				app_numa_memseg_socket(head));
		app_json_u64(j, "refills", s.refills);
		app_json_u64(j, "pkt_allocs", s.pkt_allocs);
		app_json_u64(j, "chunks_in_use", u.chunks_in_use);
		app_json_i64(j, "frags_out", u.frags_out);
		app_json_u64(j, "heads_out", u.heads_out);
		/* What live packets pin, by class (npool_usage). */
		app_json_u64(j, "pinned_big", u.pinned_big);
		app_json_u64(j, "pinned_small", u.pinned_small);
		app_json_u64(j, "pinned_tiny", u.pinned_tiny);
		app_json_u64(j, "pinned_mid", u.pinned_mid);
		app_json_u64(j, "pinned_heads", u.pinned_heads);
		app_json_u64(j, "pinned", u.pinned);
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
}

void
app_numa_json(struct app_json *j)
{
	app_json_obj_begin(j, "numa");
	app_json_bool(j, "no_numa", no_numa);
	json_notes(j, "rx_pools", APP_NUMA_RX_POOL);
	json_npool(j);
	json_notes(j, "routes", APP_NUMA_ROUTES);
	app_json_obj_end(j);
}
