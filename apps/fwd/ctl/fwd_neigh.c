/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-fwd's neighbours (fwd_neigh.h), one entry's life: Linux's
 * neighbour state machine (net/core/neighbour.c: __neigh_update(),
 * neigh_timer_handler(), __neigh_event_send(), neigh_probe()) and the
 * packets an entry holds while it resolves. The table the entries live
 * in, and what it learns: fwd_neigh_table.c.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>

#include "npool.h"
#include "fwd_neigh.h"
#include "fwd_neigh_pvt.h"

/* Linux's HZ / 100: the shortest timer. */
#define TICK_MIN_MS 10u
/* Whether @p n's next hop resolves it: its address known and in use
 * (a STALE entry holds, so that its first use is seen: DELAY). */
static bool
resolves(const struct fwd_neigh *n)
{
	return (n->state & (FWD_NUD_CONNECTED | FWD_NUD_DELAY |
			FWD_NUD_PROBE)) != 0;
}

/* Publish @p n's next hop if what it does changed (@p mac_changed). */
static void
republish(struct fwd_neigh *n, bool mac_changed)
{
	if (resolves(n) != n->published || (mac_changed && n->published)) {
		n->published = resolves(n);
		n->tbl->ops->publish(n->tbl->ctx, n);
	}
}

static struct rte_mbuf *
q_pop(struct fwd_neigh *n)
{
	struct rte_mbuf *m;

	if (n->qlen == 0)
		return NULL;
	m = n->q[n->qhead];
	n->qhead = (n->qhead + 1) % n->qcap;
	n->qlen--;
	n->qbytes -= npool_pkt_truesize(m);
	return m;
}

static int
q_push(struct fwd_neigh *n, struct rte_mbuf *m)
{
	struct rte_mbuf **q;
	uint32_t cap, i;

	if (n->qlen == n->qcap) {
		cap = n->qcap == 0 ? 8 : 2 * n->qcap;
		q = malloc(cap * sizeof(*q));
		if (q == NULL)
			return -ENOMEM;
		for (i = 0; i < n->qlen; i++)
			q[i] = n->q[(n->qhead + i) % n->qcap];
		free(n->q);
		n->q = q;
		n->qcap = cap;
		n->qhead = 0;
	}
	n->q[(n->qhead + n->qlen) % n->qcap] = m;
	n->qlen++;
	n->qbytes += npool_pkt_truesize(m);
	return 0;
}

/* The queue dropped as @p why. */
static void
q_drop(struct fwd_neigh *n, unsigned int why)
{
	struct rte_mbuf *m;

	while ((m = q_pop(n)) != NULL)
		n->tbl->ops->drop(n->tbl->ctx, m, why);
}

/* neigh_max_probes() (app_probes 0, mcast_reprobes 0). */
static uint8_t
max_probes(const struct fwd_neigh *n)
{
	return (uint8_t)(n->tbl->p.ucast_solicit +
			(n->state & FWD_NUD_PROBE ? 0 :
			 n->tbl->p.mcast_solicit));
}

/* neigh_probe(): arp_solicit() / ndisc_solicit() unicast while fewer
 * than ucast_solicit probes went in this state. */
static void
probe(struct fwd_neigh *n)
{
	const struct rte_mbuf *last = n->qlen == 0 ? NULL :
		n->q[(n->qhead + n->qlen - 1) % n->qcap];
	const bool unicast = n->probes < n->tbl->p.ucast_solicit &&
		(n->state & FWD_NUD_VALID);

	n->tbl->ops->solicit(n->tbl->ctx, n, unicast, last);
	n->probes++;
}

/* neigh_invalidate(): the queue answered as failed. */
static void
invalidate(struct fwd_neigh *n)
{
	n->tbl->st.res_failed++;
	q_drop(n, FWD_NEIGH_FAILED);
}

static uint64_t
retrans(const struct fwd_neigh_tbl *t, uint64_t now)
{
	return now + RTE_MAX(t->p.retrans_ms, TICK_MIN_MS);
}

/* __neigh_update() (fwd_neigh_pvt.h). */
void
fwd_neigh_update(struct fwd_neigh *n, const struct rte_ether_addr *lladdr,
		uint8_t new, unsigned int flags, uint64_t now)
{
	struct fwd_neigh_tbl *t = n->tbl;
	const uint8_t old = n->state;
	bool same = true;
	struct rte_mbuf *m;

	if (!(flags & FWD_NEIGH_F_ADMIN) &&
			(old & (FWD_NUD_NOARP | FWD_NUD_PERMANENT)))
		return;
	if (!(new & FWD_NUD_VALID)) {
		n->timer = 0;
		n->state = new;
		if ((old & (FWD_NUD_INCOMPLETE | FWD_NUD_PROBE)) &&
				(new & FWD_NUD_FAILED))
			invalidate(n);
		republish(n, false);
		return;
	}
	if (lladdr != NULL)
		same = (old & FWD_NUD_VALID) &&
			rte_is_same_ether_addr(lladdr, &n->mac);
	else if (!(old & FWD_NUD_VALID))
		return;
	if (new & FWD_NUD_CONNECTED)
		n->confirmed = now;
	if (old & FWD_NUD_VALID) {
		if (!same && !(flags & FWD_NEIGH_F_OVERRIDE)) {
			if (!(flags & FWD_NEIGH_F_WEAK_OVERRIDE) ||
					!(old & FWD_NUD_CONNECTED))
				return;
			same = true;
			new = FWD_NUD_STALE;
		} else if (same && new == FWD_NUD_STALE &&
				!(flags & FWD_NEIGH_F_ADMIN)) {
			new = old;
		}
	}
	if (new != old || !same)
		n->updated = now;
	if (new != old) {
		n->timer = 0;
		if (new & FWD_NUD_PROBE)
			n->probes = 0;
		if (new & FWD_NUD_IN_TIMER)
			n->timer = now + (new & FWD_NUD_REACHABLE ?
					t->reach_ms : 0);
		n->state = new;
	}
	if (!same) {
		n->mac = *lladdr;
		if (!(new & FWD_NUD_CONNECTED))
			n->confirmed = fwd_neigh_unconfirmed(t, now);
	}
	if (new != old && !(old & FWD_NUD_VALID)) {
		/* What waited goes first, then the fast path. */
		while ((n->state & FWD_NUD_VALID) &&
				(m = q_pop(n)) != NULL)
			t->ops->send(t->ctx, n, m);
	}
	republish(n, !same);
	t->st.updates++;
}

void
fwd_neigh_output(struct fwd_neigh *n, struct rte_mbuf *m, uint64_t now)
{
	struct fwd_neigh_tbl *t = n->tbl;
	bool immediate = false;
	struct rte_mbuf *old;

	n->used = now;
	if (n->state & (FWD_NUD_CONNECTED | FWD_NUD_DELAY | FWD_NUD_PROBE)) {
		t->ops->send(t->ctx, n, m);
		return;
	}
	if (!(n->state & (FWD_NUD_STALE | FWD_NUD_INCOMPLETE))) {
		if (t->p.mcast_solicit == 0) {
			n->state = FWD_NUD_FAILED;
			n->updated = now;
			t->ops->drop(t->ctx, m, FWD_NEIGH_FAILED);
			return;
		}
		n->probes = t->p.ucast_solicit;
		n->state = FWD_NUD_INCOMPLETE;
		n->updated = now;
		n->timer = retrans(t, now);
		immediate = true;
	} else if (n->state & FWD_NUD_STALE) {
		n->state = FWD_NUD_DELAY;
		n->updated = now;
		n->timer = now + t->p.delay_probe_ms;
		/* Sent first: its object then waits for it (ops->publish). */
		t->ops->send(t->ctx, n, m);
		republish(n, false);
		return;
	}
	/* INCOMPLETE: queued, the oldest dropped past the byte bound. */
	while (n->qlen != 0 && n->qbytes + npool_pkt_truesize(m) >
			t->p.unres_qlen_bytes) {
		old = q_pop(n);
		t->ops->drop(t->ctx, old, FWD_UNRES_DISCARD);
		t->st.unres_discards++;
	}
	if (q_push(n, m) != 0)
		t->ops->drop(t->ctx, m, FWD_UNRES_DISCARD);
	if (immediate)
		probe(n);
}

void
fwd_neigh_flush(struct fwd_neigh *n)
{
	q_drop(n, FWD_UNRES_DISCARD);
}

/* neigh_timer_handler() (fwd_neigh_pvt.h). */
void
fwd_neigh_timer(struct fwd_neigh *n, uint64_t now)
{
	struct fwd_neigh_tbl *t = n->tbl;
	uint64_t next = now + 1000;

	if (!(n->state & FWD_NUD_IN_TIMER)) {
		n->timer = 0;
		return;
	}
	if (n->state & FWD_NUD_REACHABLE) {
		if (now <= n->confirmed + t->reach_ms) {
			next = n->confirmed + t->reach_ms;
		} else if (now <= n->used + t->p.delay_probe_ms) {
			n->state = FWD_NUD_DELAY;
			n->updated = now;
			next = now + t->p.delay_probe_ms;
		} else {
			n->state = FWD_NUD_STALE;
			n->updated = now;
			republish(n, false);
		}
	} else if (n->state & FWD_NUD_DELAY) {
		if (now <= n->confirmed + t->p.delay_probe_ms) {
			n->state = FWD_NUD_REACHABLE;
			n->updated = now;
			next = n->confirmed + t->reach_ms;
		} else {
			n->state = FWD_NUD_PROBE;
			n->updated = now;
			n->probes = 0;
			next = retrans(t, now);
		}
	} else {
		next = retrans(t, now);
	}
	if ((n->state & (FWD_NUD_INCOMPLETE | FWD_NUD_PROBE)) &&
			n->probes >= max_probes(n)) {
		n->state = FWD_NUD_FAILED;
		n->timer = 0;
		invalidate(n);
		republish(n, false);
		return;
	}
	n->timer = (n->state & FWD_NUD_IN_TIMER) ?
		RTE_MAX(next, now + TICK_MIN_MS) : 0;
	if (n->state & (FWD_NUD_INCOMPLETE | FWD_NUD_PROBE))
		probe(n);
}

const char *
fwd_nud_name(uint8_t state)
{
	switch (state) {
	case FWD_NUD_NONE:
		return "NONE";
	case FWD_NUD_INCOMPLETE:
		return "INCOMPLETE";
	case FWD_NUD_REACHABLE:
		return "REACHABLE";
	case FWD_NUD_STALE:
		return "STALE";
	case FWD_NUD_DELAY:
		return "DELAY";
	case FWD_NUD_PROBE:
		return "PROBE";
	case FWD_NUD_FAILED:
		return "FAILED";
	case FWD_NUD_NOARP:
		return "NOARP";
	case FWD_NUD_PERMANENT:
		return "PERMANENT";
	}
	return "?";
}
