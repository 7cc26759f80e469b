/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's route tables from a set of routes (fwd_route.c reads the
 * files): rte_lpm / rte_lpm6, or rte_fib / rte_fib6 with --lookup fib,
 * sized for the routes, filled in order; the egress port of each route
 * checked here, once (FWD_HOP_BAD), not per packet, and the martian IPv4
 * destinations given a next hop of their own (FWD_HOP_MARTIAN).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>

#include "app_cli.h"
#include "fwd_addr.h"
#include "fwd_em.h"
#include "fwd_route_fill.h"

/* The martian IPv4 destinations (host order), FWD_HOP_MARTIAN. */
static const struct {
	uint32_t ip;
	uint8_t depth;
} martians4[] = {
	{ UINT32_C(0x00000000), 8 },   /* 0/8 */
	{ UINT32_C(0x7f000000), 8 },   /* 127/8 */
	{ UINT32_C(0xe0000000), 4 },   /* 224/4, multicast */
	{ UINT32_C(0xffffffff), 32 },  /* 255.255.255.255 */
};

/* Whether IPv4 prefix @p ip / @p depth lies inside a martian range. */
static bool
martian_prefix4(uint32_t ip, uint8_t depth)
{
	unsigned int k;

	for (k = 0; k < RTE_DIM(martians4); k++)
		if (depth >= martians4[k].depth &&
				(ip ^ martians4[k].ip) >>
				(32 - martians4[k].depth) == 0)
			return true;
	return false;
}

/* The martian ranges into the new IPv4 table of fc->t.lookup. */
static int
martians_add4(struct fwd_conf *fc)
{
	unsigned int k;
	int ret;

	for (k = 0; k < RTE_DIM(martians4); k++) {
		ret = fc->t.lookup == FWD_LOOKUP_FIB ?
			rte_fib_add(fc->t.fib4, martians4[k].ip,
					martians4[k].depth, FWD_HOP_MARTIAN) :
			rte_lpm_add(fc->t.lpm4, martians4[k].ip,
					martians4[k].depth, FWD_HOP_MARTIAN);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
fwd_routes_add(struct fwd_conf *fc, const struct fwd_route_set *s, bool v6,
		unsigned int *failed)
{
	unsigned int i;
	uint32_t ip;
	int ret;

	for (i = 0; i < s->n; i++) {
		const struct fwd_route *r = &s->r[i];
		uint32_t port;

		/* A route by a gateway waits for its neighbour's next hop:
		 * the control side places it (fwd_ctl_add()). */
		if (r->has_gw)
			continue;
		/* The router's own routes stay as they are. */
		port = r->type == FWD_RT_BLACKHOLE ? FWD_HOP_BLACKHOLE :
			r->type == FWD_RT_UNREACHABLE ? FWD_HOP_UNREACH :
			r->type == FWD_RT_PROHIBIT ? FWD_HOP_PROHIBIT :
			r->origin == FWD_RIB_OWN ? r->port :
			fwd_hop_of_port(fc->t.portmask, r->port);

		if (r->depth == 0) {
			*(v6 ? &fc->t.def6 : &fc->t.def4) = (int32_t)port;
			continue;
		}
		memcpy(&ip, r->ip, sizeof(ip));
		ip = rte_be_to_cpu_32(ip);
		/* Every destination it holds is a martian: a route of the
		 * martian's next hop, so that the longer prefix does not
		 * undo the range's. */
		if (!v6 && martian_prefix4(ip, r->depth))
			port = FWD_HOP_MARTIAN;
		if (fc->t.lookup == FWD_LOOKUP_FIB)
			ret = v6 ? app_fib6_add(fc->t.fib6, r->ip, r->depth,
					port) :
				rte_fib_add(fc->t.fib4, ip, r->depth, port);
		else
			ret = v6 ? app_lpm6_add(fc->t.lpm6, r->ip, r->depth,
					port) :
				rte_lpm_add(fc->t.lpm4, ip, r->depth, port);
		if (ret < 0) {
			*failed = i;
			return ret;
		}
	}
	return 0;
}

/* Most tbl8 groups the routes of @p s can need. */
static uint32_t
tbl8s_needed(const struct fwd_route_set *s, bool v6)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->r[i].depth > 24)
			n += v6 ? (s->r[i].depth - 24 + 7) / 8 : 1;
	return (uint32_t)RTE_MIN(n, (uint64_t)UINT32_MAX - 256);
}

/* Rules a live table keeps room for: --route-max (FPM's routes) and the
 * neighbours' host routes (gc_thresh3 of them and the permanent ones). */
static uint32_t
live_rules(const struct fwd_conf *fc)
{
	return fc->live ? fc->route_max + FWD_LIVE_HOSTS : 0;
}

/* tbl8 groups a live table keeps room for: a group per /24 (IPv4) with a
 * longer route, up to 13 per IPv6 host route. */
static uint32_t
live_tbl8s(const struct fwd_conf *fc)
{
	return fc->live ? RTE_MAX(fc->route_max / 16, FWD_LIVE_TBL8) : 0;
}

/* Make the LPM table of one family; its depth-0 route kept apart.
 * 0, or -2 after app_err(). */
static int
make_lpm(struct fwd_conf *fc, const struct fwd_route_set *s, bool v6)
{
	/* tbl8 groups by depth: an IPv4 route needs one only past /24, an
	 * IPv6 one one per byte past 24 bits (a /128 13, a /48 3). Sized
	 * per route, a million /24s asked for a gigabyte they never use. */
	struct rte_lpm6_config cfg6 = {
		.max_rules = s->n + 1 + live_rules(fc),
		.number_tbl8s = tbl8s_needed(s, true) + 256 + live_tbl8s(fc),
	};
	struct rte_lpm_config cfg4 = {
		.max_rules = s->n + 1 + RTE_DIM(martians4) + live_rules(fc),
		.number_tbl8s = tbl8s_needed(s, false) + 256 + 1 +
			live_tbl8s(fc),
	};
	/* Names are unique per process: a load does not need the tables of
	 * an earlier one gone (the fuzz targets hold several). */
	static unsigned int seq;
	char name[RTE_LPM_NAMESIZE];

	snprintf(name, sizeof(name), "fwd_lpm%c_%u", v6 ? '6' : '4', seq++);
	if (v6)
		fc->t.lpm6 = rte_lpm6_create(name, fc->socket_id, &cfg6);
	else
		fc->t.lpm4 = rte_lpm_create(name, fc->socket_id, &cfg4);
	if (v6 ? fc->t.lpm6 == NULL : fc->t.lpm4 == NULL) {
		app_err("%s: LPM table for %u routes: %s (EAL memory: -m)",
				v6 ? "--rule_ipv6" : "--rule_ipv4", s->n,
				rte_strerror(rte_errno));
		return -2;
	}
	return 0;
}

/*
 * The FIB table of one family (l3fwd's --lookup fib: DIR24_8, TRIE for
 * IPv6); its depth-0 route kept apart as with LPM. Next hops of 2 bytes
 * (half the 4-byte tbl24 of rte_lpm), or 4 past 32767 tbl8 groups: a
 * tbl8 index lives in a next-hop entry. The lookup is the vector one when
 * the CPU and EAL's SIMD width (--force-max-simd-bitwidth) allow it,
 * else DPDK's default choice.
 */
static int
make_fib(struct fwd_conf *fc, const struct fwd_route_set *s, bool v6)
{
	/* The RIB below a FIB holds a node per route and at most as many
	 * branch nodes more. */
	const int nodes = (int)RTE_MIN(2 * ((uint64_t)s->n + 1 +
			RTE_DIM(martians4) + live_rules(fc)) + 16,
			(uint64_t)INT_MAX);
	const uint32_t tbl8 = tbl8s_needed(s, v6) + 256 + live_tbl8s(fc);
	const bool wide = tbl8 > FWD_FIB_MISS;
	struct rte_fib6_conf cfg6 = {
		.type = RTE_FIB6_TRIE,
		.default_nh = FWD_FIB_MISS,
		.max_routes = nodes,
		.trie = {
			.nh_sz = wide ? RTE_FIB6_TRIE_4B : RTE_FIB6_TRIE_2B,
			.num_tbl8 = tbl8,
		},
	};
	struct rte_fib_conf cfg4 = {
		.type = RTE_FIB_DIR24_8,
		.default_nh = FWD_FIB_MISS,
		.max_routes = nodes,
		.dir24_8 = {
			.nh_sz = wide ? RTE_FIB_DIR24_8_4B : RTE_FIB_DIR24_8_2B,
			.num_tbl8 = tbl8,
		},
	};
	static unsigned int seq;
	char name[32];

	snprintf(name, sizeof(name), "fwd_fib%c_%u", v6 ? '6' : '4', seq++);
	if (v6)
		fc->t.fib6 = rte_fib6_create(name, fc->socket_id, &cfg6);
	else
		fc->t.fib4 = rte_fib_create(name, fc->socket_id, &cfg4);
	if (v6 ? fc->t.fib6 == NULL : fc->t.fib4 == NULL) {
		app_err("%s: FIB table for %u routes: %s (EAL memory: -m)",
				v6 ? "--rule_ipv6" : "--rule_ipv4", s->n,
				rte_strerror(rte_errno));
		return -2;
	}
	if (v6) {
		fc->fib_vec6 = rte_fib6_select_lookup(fc->t.fib6,
				RTE_FIB6_LOOKUP_TRIE_VECTOR_AVX512) == 0;
		if (!fc->fib_vec6)
			rte_fib6_select_lookup(fc->t.fib6,
					RTE_FIB6_LOOKUP_DEFAULT);
	} else {
		fc->fib_vec4 = rte_fib_select_lookup(fc->t.fib4,
				RTE_FIB_LOOKUP_DIR24_8_VECTOR_AVX512) == 0;
		if (!fc->fib_vec4)
			rte_fib_select_lookup(fc->t.fib4,
					RTE_FIB_LOOKUP_DEFAULT);
	}
	return 0;
}

int
fwd_routes_fill(struct fwd_conf *fc, const struct fwd_route_set *s, bool v6)
{
	const bool fib = fc->t.lookup == FWD_LOOKUP_FIB;
	unsigned int i = 0;
	int ret;

	if ((fib ? make_fib(fc, s, v6) : make_lpm(fc, s, v6)) < 0)
		return -2;
	ret = v6 ? 0 : martians_add4(fc);
	if (ret == 0)
		ret = fwd_routes_add(fc, s, v6, &i);
	if (ret < 0) {
		app_err("IPv%c route %u: %s add: %s", v6 ? '6' : '4', i,
				fib ? "FIB" : "LPM", rte_strerror(-ret));
		return -2;
	}
	return 0;
}

void
fwd_routes_free_tables(struct fwd_conf *fc)
{
	rte_lpm_free(fc->t.lpm4);
	rte_lpm6_free(fc->t.lpm6);
	rte_fib_free(fc->t.fib4);
	rte_fib6_free(fc->t.fib6);
	fwd_em_free(fc, true);
	fc->t.lpm4 = NULL;
	fc->t.lpm6 = NULL;
	fc->t.fib4 = NULL;
	fc->t.fib6 = NULL;
}
