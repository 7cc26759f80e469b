/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "app_ctr.h"
#include "app_json.h"

#define PORT_OFF(x) offsetof(struct app_port_ctr, x)
#define ALL (APP_CTR_LINE | APP_CTR_TABLE | APP_CTR_JSON | APP_CTR_TEL)
#define REPORT (APP_CTR_TABLE | APP_CTR_JSON | APP_CTR_TEL)

#define PORT APP_CTR_SEC_PORT

/* What a port reports, in the order of every output, then what an lcore
 * (or all) reports. */
/* The app's names (app_ctr_set_desc()). */
static const struct app_stats_desc *ctr_desc;

void
app_ctr_set_desc(const struct app_stats_desc *d)
{
	ctr_desc = d;
}

static const struct app_ctr_def ctr_defs[] = {
	{ "rx", "rx", PORT_OFF(rx), APP_CTR_PORT, ALL,
		APP_CTR_RATE | APP_CTR_RXQ, PORT },
	{ "tx", "tx", PORT_OFF(tx), APP_CTR_PORT, ALL, APP_CTR_RATE, PORT },
	{ "forwarded", "forwarded", PORT_OFF(fwd), APP_CTR_PORT, ALL, 0,
		PORT },
	{ "dropped", "dropped", 0, APP_CTR_DROPPED, ALL, 0, PORT },
	{ "in_flight", "in flight", 0, APP_CTR_IN_FLIGHT,
		APP_CTR_LINE | APP_CTR_TEL, 0, PORT },
	{ "drops", "  ", PORT_OFF(drops), APP_CTR_REASONS, REPORT, 0, PORT },
	/* What the app said itself: in the table where it said something
	 * (JSON and telemetry have them all). */
	{ NULL, "", PORT_OFF(ev), APP_CTR_EVENTS, REPORT, APP_CTR_NONZERO,
		PORT },
	/* What the PMDs counted: frames lost before the app saw them. */
	{ "eth", "eth ", 0, APP_CTR_ETHDEV, APP_CTR_TABLE | APP_CTR_JSON, 0,
		PORT },
	/* Copy-break (npool_rx_stats). */
	{ "copybreak_copied", "copy-break copied",
		offsetof(struct npool_rx_stats, copybreak_copied),
		APP_CTR_RX, REPORT, 0, APP_CTR_SEC_RX },
	{ "copybreak_nomem",
		"kept in the RX mbuf for lack of memory (copybreak_nomem)",
		offsetof(struct npool_rx_stats, copybreak_nomem),
		APP_CTR_RX, REPORT, 0, APP_CTR_SEC_RX },
};

#define ETH(x) { #x, #x, offsetof(struct rte_eth_stats, x), APP_CTR_ETH, \
	0, 0, PORT }

/* The members of the APP_CTR_ETHDEV group. */
static const struct app_ctr_def eth_defs[] = {
	ETH(ipackets), ETH(imissed), ETH(ierrors), ETH(rx_nombuf),
	ETH(opackets), ETH(oerrors),
};

static uint64_t
u64_at(const void *base, uint16_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)base + off, sizeof(v));
	return v;
}

static uint64_t
dropped(const struct app_port_ctr *c, unsigned int nb_reasons)
{
	uint64_t n = 0;
	unsigned int r;

	for (r = 0; r < nb_reasons; r++)
		n += c->drops[r];
	return n;
}

static uint64_t
col_value(const struct app_ctr_def *m, const struct app_ctr_col *col,
		unsigned int nb_reasons)
{
	const struct app_port_ctr *c = col->c;
	uint64_t done;

	switch (m->src) {
	case APP_CTR_DROPPED:
		return dropped(c, nb_reasons);
	case APP_CTR_IN_FLIGHT:
		done = c->fwd + dropped(c, nb_reasons);
		return c->rx > done ? c->rx - done : 0;
	case APP_CTR_ETH:
		return u64_at(col->eth, m->off);
	case APP_CTR_RX:
		return u64_at(col->rx, m->off);
	default:
		return u64_at(c, m->off);
	}
}

/* Walk state: the columns and what they need. */
struct walk {
	const struct app_ctr_visit *vis;
	const struct app_ctr_col *cols;
	unsigned int n;
	bool total;
	unsigned int nb_reasons;
};

/* Counter @p m (of group, or alone, @p d): a value per column, the sum. */
static void
visit_one(const struct walk *w, const struct app_ctr_def *d,
		const struct app_ctr_def *m, const char *label)
{
	uint64_t v[RTE_MAX_ETHPORTS + 1], sum = 0;
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		v[i] = col_value(m, &w->cols[i], w->nb_reasons);
		sum += v[i];
	}
	if (w->total)
		v[w->n] = sum;
	w->vis->value(w->vis->arg, d, m->key, label, v);
}

static int
walk_group(const struct walk *w, const struct app_ctr_def *d,
		const struct app_stats_desc *desc)
{
	const char *const *names = desc->reasons;
	unsigned int nb = desc->nb_reasons, k;
	const char *key = d->key;
	struct app_ctr_def m;
	char label[48];
	int ret;

	if (d->src == APP_CTR_EVENTS) {
		names = desc->events;
		nb = desc->nb_events;
		key = desc->events_key;
		if (nb == 0)
			return 0;
	} else if (d->src == APP_CTR_ETHDEV) {
		nb = RTE_DIM(eth_defs);
		for (k = 0; k < w->n; k++)
			if (w->cols[k].eth == NULL)
				return 0;
	}
	ret = w->vis->open != NULL ? w->vis->open(w->vis->arg, key) : 0;
	if (ret != 0)
		return ret;
	for (k = 0; k < nb; k++) {
		if (d->src == APP_CTR_ETHDEV) {
			m = eth_defs[k];
		} else {
			m = (struct app_ctr_def){ names[k], names[k],
				d->off + k * sizeof(uint64_t), APP_CTR_PORT,
				d->out, d->hint, d->sec };
		}
		snprintf(label, sizeof(label), "%s%s", d->label, m.label);
		visit_one(w, d, &m, label);
	}
	if (w->vis->close != NULL)
		w->vis->close(w->vis->arg);
	return 0;
}

int
app_ctr_walk(const struct app_ctr_visit *vis, unsigned int sec,
		const struct app_ctr_col *cols, unsigned int n, bool total)
{
	const struct app_stats_desc *desc = ctr_desc;
	struct walk w = { vis, cols, RTE_MIN(n, (unsigned int)RTE_MAX_ETHPORTS),
		total, 0 };
	const struct app_ctr_def *d;
	int ret;

	/* A port's counters need the app's names; copy-break's do not. */
	if (desc == NULL && sec == APP_CTR_SEC_PORT)
		return -ENODEV;
	w.nb_reasons = desc != NULL ? desc->nb_reasons : 0;
	for (d = ctr_defs; d < ctr_defs + RTE_DIM(ctr_defs); d++) {
		if (d->sec != sec || !(d->out & vis->out))
			continue;
		if (d->src < APP_CTR_REASONS) {
			visit_one(&w, d, d, d->label);
			continue;
		}
		ret = walk_group(&w, d, desc);
		if (ret != 0)
			return ret;
	}
	return 0;
}

static int
json_open(void *arg, const char *key)
{
	app_json_obj_begin(arg, key);
	return 0;
}

static void
json_close(void *arg)
{
	app_json_obj_end(arg);
}

static void
json_value(void *arg, const struct app_ctr_def *d __rte_unused,
		const char *key, const char *label __rte_unused,
		const uint64_t *v)
{
	app_json_u64(arg, key, v[0]);
}

void
app_ctr_json(struct app_json *j, unsigned int sec,
		const struct app_ctr_col *col)
{
	const struct app_ctr_visit vis = {
		APP_CTR_JSON, json_open, json_close, json_value, j,
	};

	app_ctr_walk(&vis, sec, col, 1, false);
}
