/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control side made and taken down (fwd_ctl_setup.h): its rings and
 * next-hop ids, the RIB, the neighbour tables with the permanent entries
 * (their operations: fwd_ctl_nb.h), the resolving ports' next hops; at
 * the end every packet it holds given back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_ring_elem.h>

#include "app_cli.h"
#include "fwd_ctl_nb.h"
#include "fwd_ctl_pvt.h"
#include "fwd_ctl_report.h"
#include "fwd_ctl_route.h"
#include "fwd_ctl_setup.h"
#include "fwd_fpm_conn.h"
#include "fwd_fpm_stats.h"

static int
rings_make(struct fwd_ctl *ctl)
{
	ctl->hold = rte_ring_create("fwd_hold", FWD_HOLD_RING, SOCKET_ID_ANY,
			RING_F_SC_DEQ);
	ctl->nev = rte_ring_create_elem("fwd_nev", sizeof(struct fwd_nev),
			FWD_NEV_RING, SOCKET_ID_ANY, RING_F_SC_DEQ);
	ctl->cmd = rte_ring_create_elem("fwd_cmd", sizeof(struct fwd_cmd),
			FWD_CMD_RING, SOCKET_ID_ANY,
			RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (ctl->hold == NULL || ctl->nev == NULL || ctl->cmd == NULL) {
		app_err("control rings: %s (EAL memory: -m)",
				rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/* The permanent neighbours of the command line and files. */
static int
statics_set(struct fwd_ctl *ctl)
{
	const uint64_t now = fwd_ctl_now_ms();
	unsigned int i;

	for (i = 0; i < ctl->c.nb_neigh; i++) {
		const struct fwd_static_neigh *s = &ctl->c.neigh[i];

		if (fwd_neigh_set_permanent(ctl->nb[s->v6], s->port, s->ip,
				&s->mac, now) != 0) {
			/* At most FWD_NEIGH_PERM_MAX (fwd_neigh_load()):
			 * the next hops or the hash ran out. */
			app_err("control side: no %s table entry for a permanent neighbour (next hops or hash slots)",
					s->v6 ? "NDP" : "ARP");
			return -1;
		}
	}
	return 0;
}

/* The FPM reader, listening (--fpm); its telemetry. */
static int
fpm_make(struct fwd_ctl *ctl)
{
	struct fwd_fpm_sink sink = fwd_ctl_fpm_sink;
	char addr[64];
	int rc;

	if (ctl->c.fpm == NULL)
		return 0;
	sink.ctx = ctl;
	fwd_fpm_addr_text(&ctl->c.fpm->addr, addr, sizeof(addr));
	ctl->fpm = fwd_fpm_create(ctl->c.fpm, &sink);
	rc = ctl->fpm != NULL ? fwd_fpm_listen(ctl->fpm) : -errno;
	if (rc < 0) {
		app_err("--fpm: cannot listen on %s: %s", addr, strerror(-rc));
		return -1;
	}
	printf("fpm: listening on %s for FRR zebra (dplane_fpm_nl)\n", addr);
	fwd_fpm_telemetry(ctl->fpm);
	return 0;
}

struct fwd_ctl *
fwd_ctl_create(const struct fwd_ctl_conf *c)
{
	struct fwd_neigh_parms np;
	struct rte_ether_addr hold;
	struct fwd_ctl *ctl;
	unsigned int i;
	uint32_t id;
	uint16_t p;
	int v6;

	ctl = calloc(1, sizeof(*ctl));
	if (ctl == NULL) {
		app_err("control side: out of memory");
		return NULL;
	}
	ctl->c = *c;
	ctl->nht = c->tabs[0]->nht;
	ctl->qsv = c->qsv;
	ctl->ctr = c->ctr;
	ctl->nh_free = malloc(FWD_NH_MAX * sizeof(*ctl->nh_free));
	ctl->nh_sent = calloc(FWD_NH_MAX, sizeof(*ctl->nh_sent));
	ctl->pend = malloc(FWD_NH_MAX * sizeof(*ctl->pend));
	ctl->nh_pend = calloc(FWD_NH_MAX, sizeof(*ctl->nh_pend));
	ctl->pend_since = calloc(FWD_NH_MAX, sizeof(*ctl->pend_since));
	/* Written by the command lcore: a cache line of its own. */
	ctl->cmd_done = aligned_alloc(RTE_CACHE_LINE_SIZE,
			RTE_CACHE_LINE_SIZE);
	ctl->gate = aligned_alloc(RTE_CACHE_LINE_SIZE,
			RTE_ALIGN(sizeof(*ctl->gate), RTE_CACHE_LINE_SIZE));
	if (ctl->nh_free == NULL || ctl->nh_sent == NULL ||
			ctl->pend == NULL || ctl->nh_pend == NULL ||
			ctl->pend_since == NULL ||
			ctl->cmd_done == NULL || ctl->gate == NULL) {
		app_err("control side: out of memory");
		goto fail;
	}
	*ctl->cmd_done = 0;
	memset(ctl->gate, 0, sizeof(*ctl->gate));
	rte_spinlock_init(&ctl->gate->lock);
	if (ctl->ctr == NULL || rings_make(ctl) < 0)
		goto fail;
	for (id = FWD_NH_MAX - 1; id >= RTE_MAX_ETHPORTS; id--)
		ctl->nh_free[ctl->nh_nfree++] = id;
	ctl->rib = fwd_rib_create(c->tabs, c->ntabs, c->qsv, c->max_routes);
	if (ctl->rib == NULL)
		goto fail;
	for (v6 = 0; v6 < 2; v6++) {
		fwd_neigh_parms_default(&np, v6);
		ctl->nb[v6] = fwd_neigh_tbl_create(&np, v6, &fwd_ctl_nb_ops,
				ctl, fwd_ctl_nh_get, fwd_ctl_nh_put);
		if (ctl->nb[v6] == NULL) {
			app_err("neighbour table: out of memory");
			goto fail;
		}
	}
	for (i = 0; i < c->ntabs; i++) {
		struct fwd_tables *t = c->tabs[i];

		t->hold = ctl->hold;
		t->gate = ctl->gate;
		t->nev = ctl->nev;
		t->cmd = ctl->cmd;
		t->cmd_lcore = c->cmd_lcore;
		t->cmd_done = ctl->cmd_done;
		t->qsv = c->qsv;
		t->ctl_pool = c->pool;
	}
	/* A resolving port's own next hop (its link routes') holds: the
	 * control side finds the neighbour of each destination. */
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!((c->resolve >> p) & 1))
			continue;
		fwd_nh_hold_mac(p, &hold);
		if (fwd_ctl_publish(ctl, p, &hold, FWD_TX_HOLD, p) != 0) {
			app_err("next hops: out of memory");
			goto fail;
		}
	}
	if (statics_set(ctl) < 0 || fpm_make(ctl) < 0)
		goto fail;
	fwd_ctl_tel_register(ctl);
	return ctl;
fail:
	fwd_ctl_free(ctl);
	return NULL;
}

/* Everything in a ring given back (no lcore runs any more). */
static void
rings_drain(struct fwd_ctl *ctl)
{
	struct fwd_cmd cmd;
	struct fwd_nev ev;
	void *m;

	while (ctl->cmd != NULL &&
			rte_ring_dequeue_elem(ctl->cmd, &cmd, sizeof(cmd)) == 0)
		rte_pktmbuf_free(cmd.m);
	while (ctl->nev != NULL &&
			rte_ring_dequeue_elem(ctl->nev, &ev, sizeof(ev)) == 0)
		;
	while (ctl->hold != NULL && rte_ring_dequeue(ctl->hold, &m) == 0)
		fwd_ctl_drop(ctl, m, FWD_UNRES_DISCARD);
}

void
fwd_ctl_stop(struct fwd_ctl *ctl)
{
	struct fwd_neigh *n;
	uint32_t i;
	int v6;

	if (ctl == NULL)
		return;
	if (ctl->running) {
		__atomic_store_n(&ctl->stop, true, __ATOMIC_RELEASE);
		pthread_join(ctl->tid, NULL);
		ctl->running = false;
	}
	/* What waits on a neighbour, dropped as when its queue is full:
	 * the ANSWER commands it would make have no lcore left. */
	for (v6 = 0; v6 < 2; v6++)
		for (i = 0; ctl->nb[v6] != NULL &&
				(n = fwd_neigh_next(ctl->nb[v6], &i)) != NULL;)
			fwd_neigh_flush(n);
	rings_drain(ctl);
}

void
fwd_ctl_free(struct fwd_ctl *ctl)
{
	unsigned int i;
	int v6;

	if (ctl == NULL)
		return;
	fwd_ctl_tel_forget(ctl);
	fwd_ctl_stop(ctl);
	if (ctl->fpm != NULL)
		fwd_fpm_telemetry(NULL);
	fwd_fpm_free(ctl->fpm);
	for (v6 = 0; v6 < 2; v6++)
		fwd_neigh_tbl_free(ctl->nb[v6]);
	rings_drain(ctl);
	fwd_rib_free(ctl->rib);
	/* No lcore reads: every object goes now, the resolving ports'
	 * too. */
	fwd_ctl_reclaim(ctl, true);
	for (i = 0; i < RTE_MAX_ETHPORTS && ctl->nht != NULL; i++) {
		const struct fwd_nh *o = ctl->nht->nh[i];

		if (o != NULL && o != &ctl->nht->port[i]) {
			fwd_nh_set(ctl->nht, i, &ctl->nht->port[i]);
			free((void *)(uintptr_t)o);
		}
	}
	for (i = 0; i < ctl->c.ntabs; i++) {
		struct fwd_tables *t = ctl->c.tabs[i];

		t->hold = NULL;
		t->gate = NULL;
		t->nev = NULL;
		t->cmd = NULL;
		t->cmd_done = NULL;
		t->qsv = NULL;
	}
	rte_ring_free(ctl->hold);
	rte_ring_free(ctl->nev);
	rte_ring_free(ctl->cmd);
	free(ctl->nh_free);
	free(ctl->nh_sent);
	free(ctl->pend);
	free(ctl->nh_pend);
	free(ctl->pend_since);
	free(ctl->cmd_done);
	free(ctl->gate);
	free(ctl->dq);
	free(ctl);
}
