/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's control thread (fwd_ctl.h): the next-hop objects and ids
 * (a resolving one published once nothing held for it can leave after
 * it), frees deferred to a grace period, and the loop that takes what the
 * lcores hand it; routes go through fwd_ctl_route.c.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring_elem.h>

#include "app_cli.h"
#include "app_run.h"
#include "fwd_ctl.h"
#include "fwd_ctl_pvt.h"
#include "fwd_fpm_conn.h"
#include "fwd_fpm_stats.h"

/* Elements taken from a ring at a time. */
#define CTL_BURST 64
/* Longest time between two runs of the neighbour timers. */
#define CTL_TICK_MS 10
/* Longest sleep when there is nothing to do (the FPM socket wakes it). */
#define CTL_SLEEP_MS 1
/* Most a resolving object waits for its packets to leave the hold ring
 * (pend_check()), while the thread keeps looking. */
#define FWD_PUBLISH_WAIT_MS 2
/* A look this late after the last one: the thread was kept off its CPU
 * (ms, a clock of ms: 1 is a look in the next ms). */
#define FWD_PUBLISH_GAP_MS 2

rte_spinlock_t fwd_ctl_lock = RTE_SPINLOCK_INITIALIZER;

uint64_t
fwd_ctl_now_ms(void)
{
	return fwd_fpm_now_ms();
}

void
fwd_ctl_defer(struct fwd_ctl *ctl, void *obj, uint32_t nh)
{
	struct ctl_defer *dq;
	uint32_t cap, i;

	if (!FWD_RCU) {
		free(obj);
		if (nh < FWD_NH_MAX)
			ctl->nh_free[ctl->nh_nfree++] = nh;
		return;
	}
	if (ctl->dq_len == ctl->dq_cap) {
		cap = ctl->dq_cap == 0 ? 64 : 2 * ctl->dq_cap;
		dq = malloc(cap * sizeof(*dq));
		if (dq == NULL) {
			/* No room to wait in: wait now. */
			rte_rcu_qsbr_synchronize(ctl->qsv,
					RTE_QSBR_THRID_INVALID);
			free(obj);
			if (nh < FWD_NH_MAX)
				ctl->nh_free[ctl->nh_nfree++] = nh;
			return;
		}
		for (i = 0; i < ctl->dq_len; i++)
			dq[i] = ctl->dq[(ctl->dq_head + i) % ctl->dq_cap];
		free(ctl->dq);
		ctl->dq = dq;
		ctl->dq_cap = cap;
		ctl->dq_head = 0;
	}
	dq = &ctl->dq[(ctl->dq_head + ctl->dq_len) % ctl->dq_cap];
	dq->token = rte_rcu_qsbr_start(ctl->qsv);
	dq->obj = obj;
	dq->nh = nh;
	ctl->dq_len++;
}

void
fwd_ctl_reclaim(struct fwd_ctl *ctl, bool all)
{
	struct ctl_defer *dq;

	while (ctl->dq_len != 0) {
		dq = &ctl->dq[ctl->dq_head];
		if (!all && rte_rcu_qsbr_check(ctl->qsv, dq->token,
				false) != 1)
			break;
		free(dq->obj);
		if (dq->nh < FWD_NH_MAX)
			ctl->nh_free[ctl->nh_nfree++] = dq->nh;
		ctl->dq_head = (ctl->dq_head + 1) % ctl->dq_cap;
		ctl->dq_len--;
	}
}

uint32_t
fwd_ctl_nh_get(void *ctx)
{
	struct fwd_ctl *ctl = ctx;

	return ctl->nh_nfree == 0 ? FWD_NH_MAX :
		ctl->nh_free[--ctl->nh_nfree];
}

void
fwd_ctl_nh_put(void *ctx, uint32_t nh)
{
	struct fwd_ctl *ctl = ctx;
	const struct fwd_nh *old = ctl->nht->nh[nh];
	uint32_t i;

	/* Nothing of it waits to be published any more. */
	if (ctl->nh_pend[nh] != 0) {
		ctl->nh_pend[nh] = 0;
		for (i = 0; ctl->pend[i] != nh; i++)
			;
		ctl->pend[i] = ctl->pend[--ctl->npend];
	}

	fwd_nh_set(ctl->nht, nh, NULL);
	fwd_ctl_defer(ctl, (void *)(uintptr_t)old, nh);
}

/* A new object for next hop @p id (fwd_ctl_publish()'s arguments), not
 * published yet; NULL when out of memory. */
static struct fwd_nh *
nh_make(const struct fwd_ctl *ctl, uint32_t id,
		const struct rte_ether_addr *dst, uint16_t tx, uint16_t port)
{
	struct fwd_nh *nh;

	nh = aligned_alloc(RTE_ALIGN(sizeof(*nh), 32), sizeof(*nh));
	if (nh != NULL)
		fwd_nh_fill(nh, dst, &ctl->c.tabs[0]->l2[port].src, tx, port,
				id);
	return nh;
}

/* Object @p old, replaced in the table, freed after a grace period: the
 * ports' own objects live in the table itself. */
static void
nh_retire(struct fwd_ctl *ctl, const struct fwd_nh *old)
{
	if (old != NULL && (old < ctl->nht->port ||
			old >= ctl->nht->port + RTE_MAX_ETHPORTS))
		fwd_ctl_defer(ctl, (void *)(uintptr_t)old, FWD_NH_MAX);
}

int
fwd_ctl_publish(struct fwd_ctl *ctl, uint32_t id,
		const struct rte_ether_addr *dst, uint16_t tx, uint16_t port)
{
	const struct fwd_nh *old = ctl->nht->nh[id];
	struct fwd_nh *nh = nh_make(ctl, id, dst, tx, port);

	if (nh == NULL)
		return -ENOMEM;
	fwd_nh_set(ctl->nht, id, nh);
	nh_retire(ctl, old);
	return 0;
}

int
fwd_ctl_cmd(struct fwd_ctl *ctl, struct fwd_cmd *cmd)
{
	if (rte_ring_sp_enqueue_elem(ctl->cmd, cmd, sizeof(*cmd)) == 0) {
		ctl->cmd_seq++;
		return 0;
	}
	ctl->cmd_lost++;
	rte_pktmbuf_free(cmd->m);
	return -ENOBUFS;
}

void
fwd_ctl_drop(struct fwd_ctl *ctl, struct rte_mbuf *m, unsigned int why)
{
	struct fwd_cmd cmd;

	if (why == FWD_NEIGH_FAILED) {
		memset(&cmd, 0, sizeof(cmd));
		cmd.kind = FWD_CMD_ANSWER;
		cmd.m = m;
		cmd.why = (uint8_t)why;
		fwd_ctl_cmd(ctl, &cmd);
		return;
	}
	/* Counted on the port it came in on, off its forwarded count (the
	 * pass counted it forwarded when it held it). */
	if (m->port < RTE_MAX_ETHPORTS) {
		ctl->ctr->port[m->port].fwd--;
		ctl->ctr->port[m->port].drops[why]++;
	}
	rte_pktmbuf_free(m);
}

/* @p n's holding object. */
static void
publish_holding(struct fwd_ctl *ctl, const struct fwd_neigh *n)
{
	struct rte_ether_addr hold;

	fwd_nh_hold_mac(n->nh, &hold);
	fwd_ctl_publish(ctl, n->nh, &hold, FWD_TX_HOLD, n->port);
}

/* Whether none of @p n's packets, nor of its port's own next hop, is on
 * the hold ring. */
static bool
ring_clear(const struct fwd_hold_gate *g, const struct fwd_neigh *n)
{
	return __atomic_load_n(&g->inflight[n->nh], __ATOMIC_RELAXED) == 0 &&
		__atomic_load_n(&g->inflight[n->port], __ATOMIC_RELAXED) == 0;
}

/*
 * Publish @p n's resolving object if nothing held for it can still leave
 * after what the fast path sends by it: the command lcore has sent every
 * packet asked for by it (the queue, sent when it resolved, and any held
 * since; @p done commands carried out), and none of its packets, nor of
 * its port's own next hop (a destination not routed to it yet), is on
 * the hold ring. Checked and published under the gate's lock, which the
 * lcores hand their hold buffers under: a packet held before is then on
 * the ring, or finds the object when handed and is sent by its lcore
 * before the lcore's TX buffers (fwd_hold_hand()). Only the check and
 * the pointer swap are under it: the object is made before, and the one
 * it replaces deferred after, since fwd_ctl_defer() may wait for a grace
 * period (no room to queue the free), which an lcore spinning on the
 * lock never gives (it reports its quiescent state after its TX buffers
 * are sent). With @p force, published whatever is on the ring (its
 * sends carried out still). @return Whether it was published (not when
 * out of memory: it waits, and is tried again).
 */
static bool
publish_resolving(struct fwd_ctl *ctl, const struct fwd_neigh *n,
		uint64_t done, bool force)
{
	const struct fwd_nh *old = ctl->nht->nh[n->nh];
	struct fwd_hold_gate *g = ctl->gate;
	struct fwd_nh *nh;
	bool ok, clear;

	/* Looked at without the lock first: no object made for nothing. */
	if (ctl->nh_sent[n->nh] > done || !(force || ring_clear(g, n)))
		return false;
	nh = nh_make(ctl, n->nh, &n->mac, n->port, n->port);
	if (nh == NULL)
		return false;
	rte_spinlock_lock(&g->lock);
	clear = ring_clear(g, n);
	ok = force || clear;
	if (ok)
		fwd_nh_set(ctl->nht, n->nh, nh);
	rte_spinlock_unlock(&g->lock);
	if (ok)
		nh_retire(ctl, old);
	else
		free(nh);
	ctl->publish_forced += ok && !clear;
	return ok;
}

/*
 * A resolving object goes out only once nothing held for @p n can leave
 * after it (publish_resolving()): until then the lcores keep holding, the
 * packets they hold are sent after the queue. So the queue leaves before
 * what the fast path sends by the object, as Linux's neigh_update()
 * sends the arp_queue under the neighbour's lock before the output path
 * lets anything else by. A holding object goes at once.
 */
void
fwd_ctl_publish_neigh(struct fwd_ctl *ctl, const struct fwd_neigh *n)
{
	if (!n->published) {
		publish_holding(ctl, n);
		return;
	}
	if (publish_resolving(ctl, n, __atomic_load_n(ctl->cmd_done,
			__ATOMIC_ACQUIRE), false))
		return;
	if (ctl->nh_pend[n->nh] == 0) {
		ctl->nh_pend[n->nh] = (uint8_t)(1 + n->v6);
		/* The thread's clock (pend_check()): its last look. */
		ctl->pend_since[n->nh] = ctl->last_look;
		ctl->pend[ctl->npend++] = n->nh;
	}
}

/*
 * Publish the resolving objects that waited and may go now. One whose
 * packets keep coming (the lcores hand more to the ring each loop turn
 * than the thread takes between two looks) goes anyway after
 * FWD_PUBLISH_WAIT_MS once its sends are carried out, counted
 * publish_forced: what is still on the ring then may leave after the
 * fast path's first packets, and the neighbour gets the fast path.
 * The wait counts while the thread looks: after a gap (the thread kept
 * off its CPU, the lcores holding meanwhile) it starts again, so that
 * what they held then is taken off the ring and sent first, not left
 * behind the fast path for the thread's own delay.
 * @return How many still wait.
 */
static uint32_t
pend_check(struct fwd_ctl *ctl, uint64_t now)
{
	const uint64_t done = __atomic_load_n(ctl->cmd_done,
			__ATOMIC_ACQUIRE);
	const bool back = now - ctl->last_look >= FWD_PUBLISH_GAP_MS;
	const struct fwd_neigh *n;
	uint32_t i, k, nh;
	bool force;

	ctl->last_look = now;
	for (i = k = 0; i < ctl->npend; i++) {
		nh = ctl->pend[i];
		if (back)
			ctl->pend_since[nh] = now;
		/* As the entry is now (it may have gone, or changed). */
		n = fwd_neigh_of_nh(ctl->nb[ctl->nh_pend[nh] - 1], nh);
		force = now - ctl->pend_since[nh] >= FWD_PUBLISH_WAIT_MS;
		if (n != NULL && n->published &&
				!publish_resolving(ctl, n, done, force)) {
			ctl->pend[k++] = nh;
			continue;
		}
		ctl->nh_pend[nh] = 0;
		if (n != NULL && !n->published)
			publish_holding(ctl, n);
	}
	ctl->npend = k;
	return k;
}

/* A held packet: to its neighbour, made for a destination on a link. */
static void
held(struct fwd_ctl *ctl, struct rte_mbuf *m, uint64_t now)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const bool v6 = m->pkt_len >= RTE_ETHER_HDR_LEN + 40 &&
		p[12] == (RTE_ETHER_TYPE_IPV6 >> 8) &&
		p[13] == (RTE_ETHER_TYPE_IPV6 & 0xff);
	const uint32_t id = fwd_nh_hold_id(p);
	struct fwd_neigh *n;
	uint8_t ip[16] = { 0 };

	ctl->held++;
	if (!v6 && m->pkt_len < RTE_ETHER_HDR_LEN + 20) {
		fwd_ctl_drop(ctl, m, FWD_UNRES_DISCARD);
		return;
	}
	if (id < RTE_MAX_ETHPORTS) {
		memcpy(ip, p + RTE_ETHER_HDR_LEN + (v6 ? 24 : 16),
				v6 ? 16 : 4);
		n = fwd_neigh_get(ctl->nb[v6], (uint16_t)id, ip, now);
		if (n == NULL) {
			fwd_ctl_drop(ctl, m, FWD_NEIGH_FULL);
			return;
		}
	} else {
		n = fwd_neigh_of_nh(ctl->nb[v6], id);
		if (n == NULL) {
			/* Its neighbour went meanwhile. */
			fwd_ctl_drop(ctl, m, FWD_UNRES_DISCARD);
			return;
		}
	}
	fwd_neigh_output(n, m, now);
}

unsigned int
fwd_ctl_poll(struct fwd_ctl *ctl, uint64_t now)
{
	struct rte_mbuf *m[CTL_BURST];
	struct fwd_nev ev[CTL_BURST];
	unsigned int n, k, done = 0;

	/* First the objects whose sends the command lcore has carried
	 * out, before the hold ring is read (pend_check()). Waiting is
	 * work: no sleep while the lcore catches up. */
	done += pend_check(ctl, now);
	n = rte_ring_sc_dequeue_burst_elem(ctl->nev, ev, sizeof(ev[0]),
			CTL_BURST, NULL);
	for (k = 0; k < n; k++)
		fwd_neigh_event(ctl->nb[ev[k].v6 != 0], &ev[k], now);
	ctl->events += n;
	done += n;
	n = rte_ring_sc_dequeue_burst(ctl->hold, (void **)m, CTL_BURST, NULL);
	for (k = 0; k < n; k++) {
		/* Off the ring: no longer keeps its next hop holding. */
		__atomic_fetch_sub(&ctl->gate->inflight[fwd_nh_hold_id(
				rte_pktmbuf_mtod(m[k], const uint8_t *)) &
				(FWD_NH_MAX - 1)], 1, __ATOMIC_RELAXED);
		held(ctl, m[k], now);
	}
	done += n;
	/* At least every CTL_TICK_MS: an entry made since the last tick
	 * may have a timer before the next one the tables named. */
	if (now >= ctl->next_tick)
		ctl->next_tick = RTE_MIN(RTE_MIN(fwd_neigh_tick(ctl->nb[0],
				now), fwd_neigh_tick(ctl->nb[1], now)),
				now + CTL_TICK_MS);
	fwd_ctl_reclaim(ctl, false);
	return done;
}

static void *
ctl_main(void *arg)
{
	struct fwd_ctl *ctl = arg;
	struct pollfd pfd = { .fd = -1, .events = POLLIN };
	unsigned int done;

	if (ctl->fpm != NULL)
		pfd.fd = fwd_fpm_fd(ctl->fpm);
	while (!__atomic_load_n(&ctl->stop, __ATOMIC_ACQUIRE)) {
		rte_spinlock_lock(&fwd_ctl_lock);
		done = fwd_ctl_poll(ctl, fwd_ctl_now_ms());
		if (ctl->fpm != NULL)
			fwd_fpm_poll(ctl->fpm, fwd_ctl_now_ms());
		rte_spinlock_unlock(&fwd_ctl_lock);
		/* Nothing from the lcores: wait for FPM (or the next
		 * look at the rings and timers). */
		if (done == 0)
			poll(&pfd, pfd.fd >= 0 ? 1 : 0, CTL_SLEEP_MS);
	}
	return NULL;
}

int
fwd_ctl_start(struct fwd_ctl *ctl)
{
	if (app_thread_start(&ctl->tid, "fwd-ctl", ctl_main, ctl) < 0)
		return -1;
	ctl->running = true;
	return 0;
}
