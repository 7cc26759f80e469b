/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_MCAST_PVT_H
#define FWD_MCAST_PVT_H

/*
 * @internal What fwd_mroute.c (the routes) and fwd_mcast.c (the packets)
 * share: the hash key of a route and the counters of the calling lcore.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_lcore.h>

#include "fwd_mcast.h"

/* Hash key: family, source (0 for (*,G)), group; IPv4 in 4 bytes. */
struct fwd_mroute_key {
	uint8_t v6;
	uint8_t pad[3];
	uint8_t src[16];
	uint8_t grp[16];
};

static inline void
fwd_mroute_key(struct fwd_mroute_key *k, bool v6, const uint8_t *src,
		const uint8_t *grp)
{
	const size_t n = v6 ? 16 : 4;

	memset(k, 0, sizeof(*k));
	k->v6 = v6;
	if (src != NULL)
		memcpy(k->src, src, n);
	memcpy(k->grp, grp, n);
}

/* The calling lcore's counters of route @p i. */
static inline struct fwd_mroute_ctr *
fwd_mroute_ctr_of(const struct fwd_mroutes *mr, unsigned int i)
{
	const unsigned int lcore = rte_lcore_id();
	struct fwd_mroute_ctr *c = lcore < RTE_MAX_LCORE ? mr->ctr[lcore] :
		NULL;

	return (c != NULL ? c : mr->ctr[RTE_MAX_LCORE]) + i;
}

#endif /* FWD_MCAST_PVT_H */
