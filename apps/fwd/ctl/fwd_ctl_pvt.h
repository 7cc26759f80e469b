/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_CTL_PVT_H
#define FWD_CTL_PVT_H

/*
 * @internal What the control thread's files share: the state of the
 * control side and what fwd_ctl.c does with it (tables, objects and when
 * they are published, the thread), for fwd_ctl_setup.c (made, stopped,
 * freed), fwd_ctl_route.c (routes), fwd_ctl_nb.c (what the neighbour
 * tables do through it) and fwd_ctl_report.c (report, JSON, telemetry).
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_rcu_qsbr.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include "app_ctr.h"
#include "fwd_ctl_conf.h"
#include "fwd_neigh_table.h"
#include "fwd_rib.h"

/* A free deferred to the end of a grace period. */
struct ctl_defer {
	uint64_t token;   /* rte_rcu_qsbr_start() when it was deferred */
	void *obj;        /* freed, or NULL */
	uint32_t nh;      /* a next-hop id given back, or FWD_NH_MAX */
};

struct fwd_ctl {
	struct fwd_ctl_conf c;
	struct fwd_nht *nht;              /* of every table */
	struct rte_rcu_qsbr *qsv;
	struct rte_ring *hold, *nev, *cmd;
	struct fwd_rib *rib;
	struct fwd_fpm *fpm;              /* NULL: no FPM feed */
	struct fwd_neigh_tbl *nb[2];      /* [v6] */
	/* Next-hop ids RTE_MAX_ETHPORTS .. FWD_NH_MAX - 1 not in use. */
	uint32_t *nh_free;
	uint32_t nh_nfree;
	/* Frees waiting for a grace period, oldest first (a ring). */
	struct ctl_defer *dq;
	uint32_t dq_head, dq_len, dq_cap;
	/* The counters of what the thread drops (fwd_ctl_conf.ctr). */
	struct app_lcore_ctr *ctr;
	uint64_t next_tick;
	pthread_t tid;
	bool running;
	volatile bool stop;
	uint64_t cmd_lost;                /* commands the ring refused */
	/* Commands the ring took, and (written by the command lcore,
	 * fwd_tables.cmd_done) those carried out. */
	uint64_t cmd_seq;
	uint64_t *cmd_done;
	/* Shared with the lcores (fwd_tables.gate): the hold ring's
	 * packets per next hop, and the lock a resolving object is
	 * published under. */
	struct fwd_hold_gate *gate;
	/* Per next-hop id: cmd_seq after the last packet sent by it. */
	uint64_t *nh_sent;
	/* Next hops whose resolving object waits for their packets to be
	 * carried out (fwd_ctl.c): ids, and per id 0, or 1 + v6. */
	uint32_t *pend;
	uint32_t npend;
	uint8_t *nh_pend;
	/* Per id, the ms it began to wait, or the thread last came back
	 * to look after a gap (pend_check()). */
	uint64_t *pend_since;
	uint64_t last_look;               /* ms of the last pend_check() */
	/* Resolving objects published with packets still on the ring
	 * (pend_check()). */
	uint64_t publish_forced;
	uint64_t held;                    /* held packets taken */
	uint64_t events;                  /* neighbour events taken */
	uint64_t last_update;             /* ms of the last route change */
};

/* Held by the control thread while it works, by telemetry while it
 * reads (one control side a process). */
extern rte_spinlock_t fwd_ctl_lock;

/* Milliseconds of a monotonic clock. */
uint64_t fwd_ctl_now_ms(void);

/* Free @p obj and give back next-hop id @p nh (FWD_NH_MAX: none) once
 * every lcore has passed a quiescent state. */
void fwd_ctl_defer(struct fwd_ctl *ctl, void *obj, uint32_t nh);

/* Free what waited for a grace period that has passed (all of it with
 * @p all: no lcore reads any more). */
void fwd_ctl_reclaim(struct fwd_ctl *ctl, bool all);

/* A command to the command lcore; a packet in it is freed (counted
 * cmd_lost) when the ring is full. @return 0, or -ENOBUFS. */
int fwd_ctl_cmd(struct fwd_ctl *ctl, struct fwd_cmd *cmd);

/* Publish neighbour @p n's next hop as its state says: a holding object
 * at once, a resolving one once nothing held for it can leave after what
 * the fast path sends by it (until then it waits, looked at again each
 * turn of the thread). */
void fwd_ctl_publish_neigh(struct fwd_ctl *ctl, const struct fwd_neigh *n);

/* Drop held packet @p m as @p why: answered by the command lcore
 * (neigh_failed), else counted on the port it came in on, off its
 * forwarded count (the pass counted it forwarded when it held it). */
void fwd_ctl_drop(struct fwd_ctl *ctl, struct rte_mbuf *m, unsigned int why);

/* Publish next hop @p id: MACs @p dst, @p src, TX buffer @p tx, port
 * @p port; the object it replaces freed after a grace period. */
int fwd_ctl_publish(struct fwd_ctl *ctl, uint32_t id,
		const struct rte_ether_addr *dst, uint16_t tx, uint16_t port);


/* Next-hop ids (fwd_neigh_tbl_create()'s nh_get / nh_put). */
uint32_t fwd_ctl_nh_get(void *ctx);
void fwd_ctl_nh_put(void *ctx, uint32_t nh);

#endif /* FWD_CTL_PVT_H */
