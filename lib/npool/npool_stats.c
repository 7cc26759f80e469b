/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool's counters read out (npool_stats.h): per slot, per instance and
 * summed, and their reset. The fragments outstanding by the same counters
 * (npool_frags_outstanding()) are the fragment API's (npool_frag.c).
 */
#include <errno.h>
#include <string.h>

#include "npool_head_cache.h"
#include "npool_stats.h"
#include "npool_core_pvt.h"
#include "npool_log.h"

/*
 * The counters of slot @p slot of @p np since its creation: its own, and
 * those its lcore's head cache keeps (refills, flushes, misses; none for
 * the non-EAL slot, whose threads use the head store directly).
 */
static void
slot_raw(const struct npool *np, unsigned int slot, struct npool_stats *s)
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

/* Slot @p slot of @p np since the last reset (its raw counters less the
 * base the reset took), added to @p dst. */
static void
slot_add(struct npool_stats *dst, const struct npool *np, unsigned int slot)
{
	const struct npool_stats *base = &np->stats_base[slot];
	struct npool_stats raw;

	slot_raw(np, slot, &raw);
#define NPOOL_STATS_SINCE_RESET(name) dst->name += raw.name - base->name;
	NPOOL_STATS_FIELDS(NPOOL_STATS_SINCE_RESET)
#undef NPOOL_STATS_SINCE_RESET
}

int
npool_stats_get(unsigned int slot, struct npool_stats *out)
{
	unsigned int k;

	if (npool_nb_instances_pvt == 0 || out == NULL ||
			slot > NPOOL_NON_EAL_SLOT)
		return npool_err_pvt(EINVAL);
	memset(out, 0, sizeof(*out));
	for (k = 0; k < npool_nb_instances_pvt; k++)
		slot_add(out, npool_instances_pvt[k], slot);
	return 0;
}

int
npool_instance_stats_sum(const struct npool *np, struct npool_stats *out)
{
	unsigned int i;

	if (np == NULL || out == NULL)
		return npool_err_pvt(EINVAL);
	memset(out, 0, sizeof(*out));
	for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++)
		slot_add(out, np, i);
	return 0;
}

int
npool_stats_sum(struct npool_stats *out)
{
	struct npool_stats one;
	unsigned int k;

	if (npool_nb_instances_pvt == 0 || out == NULL)
		return npool_err_pvt(EINVAL);
	memset(out, 0, sizeof(*out));
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		npool_instance_stats_sum(npool_instances_pvt[k], &one);
		npool_stats_add_pvt(out, &one);
	}
	return 0;
}

void
npool_stats_reset(void)
{
	unsigned int i, k;

	/* The counters run on (npool_audit() reads them whole); a reset
	 * moves the base that readers subtract. */
	for (k = 0; k < npool_nb_instances_pvt; k++) {
		struct npool *np = npool_instances_pvt[k];

		for (i = 0; i <= NPOOL_NON_EAL_SLOT; i++)
			slot_raw(np, i, &np->stats_base[i]);
	}
}
