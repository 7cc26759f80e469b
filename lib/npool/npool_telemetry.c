/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry endpoints (dpdk-telemetry.py, or the socket under
 * /var/run/dpdk/<prefix>/):
 *   /npool/stats   counters summed over all lcores
 *   /npool/lcore,<id>  counters of one lcore (id RTE_MAX_LCORE: non-EAL)
 *   /npool/usage   chunks, fragments and heads in use, and the bytes the
 *                  live packets pin by class (npool_usage), summed over
 *                  the instances; /npool/usage,<socket> one instance's
 *                  (-1: the SOCKET_ID_ANY instance)
 */
#include <stdlib.h>

#include <rte_telemetry.h>

#include "npool_arena.h"
#include "npool_instance.h"
#include "npool_stats.h"
#include "npool_usage.h"
#include "npool_compat.h"

/* Every counter of NPOOL_STATS_FIELDS, named as its field. */
static void
stats_to_dict(struct rte_tel_data *d, const struct npool_stats *s)
{
#define STAT(f) rte_tel_data_add_dict_uint(d, #f, s->f);
	NPOOL_STATS_FIELDS(STAT)
#undef STAT
}

static int
tel_stats(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	struct npool_stats s;

	if (npool_stats_sum(&s) != 0)
		return -ENODEV;
	rte_tel_data_start_dict(d);
	stats_to_dict(d, &s);
	return 0;
}

static int
tel_lcore(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct npool_stats s;
	char *end;
	unsigned long id;

	if (params == NULL || *params == '\0')
		return -EINVAL;
	id = strtoul(params, &end, 0);
	if (*end != '\0' || id > NPOOL_NON_EAL_SLOT ||
			npool_stats_get((unsigned int)id, &s) != 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	stats_to_dict(d, &s);
	return 0;
}

static int
tel_usage(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct npool_usage u;
	char *end;
	long socket;

	if (params == NULL || *params == '\0') {
		if (npool_usage_get(&u) != 0)
			return -ENODEV;
	} else {
		/* One instance: its socket id, or -1 for SOCKET_ID_ANY's. */
		socket = strtol(params, &end, 0);
		if (*end != '\0' || socket < SOCKET_ID_ANY ||
				socket >= RTE_MAX_NUMA_NODES ||
				npool_instance_usage_get(npool_lookup_socket(
						(int)socket), &u) != 0)
			return -EINVAL;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "socket", u.socket_id);
	rte_tel_data_add_dict_uint(d, "instances",
			params == NULL || *params == '\0' ?
			npool_instance_list(NULL, 0) : 1);
	rte_tel_data_add_dict_uint(d, "chunks", u.chunks);
	rte_tel_data_add_dict_uint(d, "small_chunks", u.small_chunks);
	rte_tel_data_add_dict_uint(d, "chunks_in_use", u.chunks_in_use);
	rte_tel_data_add_dict_int(d, "frags_out", (int)u.frags_out);
	rte_tel_data_add_dict_uint(d, "heads", u.heads);
	rte_tel_data_add_dict_uint(d, "heads_out", u.heads_out);
	rte_tel_data_add_dict_uint(d, "small_pkts", u.small_pkts);
	rte_tel_data_add_dict_uint(d, "small_pkts_out", u.small_pkts_out);
	rte_tel_data_add_dict_uint(d, "small_pkt_size", u.small_pkt_size);
	rte_tel_data_add_dict_uint(d, "mid_pkts", u.mid_pkts);
	rte_tel_data_add_dict_uint(d, "mid_pkts_out", u.mid_pkts_out);
	rte_tel_data_add_dict_uint(d, "mid_pkt_size", u.mid_pkt_size);
	rte_tel_data_add_dict_uint(d, "head_size", u.head_size);
	rte_tel_data_add_dict_uint(d, "chunk_size", NPOOL_CHUNK_SIZE);
	rte_tel_data_add_dict_uint(d, "small_chunk_size",
			NPOOL_SMALL_CHUNK_SIZE);
	rte_tel_data_add_dict_uint(d, "big_in_use", u.big_in_use);
	rte_tel_data_add_dict_uint(d, "small_in_use", u.small_in_use);
	rte_tel_data_add_dict_uint(d, "big_pinned", u.big_pinned);
	rte_tel_data_add_dict_uint(d, "small_pinned", u.small_pinned);
	rte_tel_data_add_dict_uint(d, "pinned_big", u.pinned_big);
	rte_tel_data_add_dict_uint(d, "pinned_small", u.pinned_small);
	rte_tel_data_add_dict_uint(d, "pinned_tiny", u.pinned_tiny);
	rte_tel_data_add_dict_uint(d, "pinned_mid", u.pinned_mid);
	rte_tel_data_add_dict_uint(d, "pinned_heads", u.pinned_heads);
	rte_tel_data_add_dict_uint(d, "pinned", u.pinned);
	return 0;
}

RTE_INIT(npool_telemetry_init)
{
	rte_telemetry_register_cmd("/npool/stats", tel_stats,
		"npool counters summed over all lcores. No parameters");
	rte_telemetry_register_cmd("/npool/lcore", tel_lcore,
		"npool counters of one lcore. Parameters: lcore id");
	rte_telemetry_register_cmd("/npool/usage", tel_usage,
		"npool memory in use, bytes pinned. Parameters: none (all instances) or a socket id (one instance; -1: SOCKET_ID_ANY's)");
}
