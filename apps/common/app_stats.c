/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>

#include "npool_rx.h"
#include "app_ctr.h"
#include "app_json.h"
#include "app_port.h"
#include "app_rss.h"
#include "app_numa.h"
#include "app_stats.h"

unsigned int app_stats_rx_bad_pvt;

static struct {
	struct app_stats_desc d;
	const struct app_opts *o;
	struct app_lcore_ctr *ctr; /* RTE_MAX_LCORE, by lcore id */
	const struct app_stats_extra *x;
	double prev_s;
	/* The --stats line's last values, for its rates (APP_CTR_RATE). */
	struct app_port_ctr prev[RTE_MAX_ETHPORTS];
	uint64_t prev_rxq[RTE_MAX_LCORE][APP_MAX_RXQ_PER_LCORE];
	bool eth_ok[RTE_MAX_ETHPORTS];
	struct rte_eth_stats eth[RTE_MAX_ETHPORTS];
	/* rte_eth_dev_socket_id(), read with eth: a closed port has none. */
	int socket[RTE_MAX_ETHPORTS];
} st;

void
app_stats_init(const struct app_stats_desc *d, const struct app_opts *o,
		struct app_lcore_ctr *ctr)
{
	uint16_t p;

	memset(ctr, 0, RTE_MAX_LCORE * sizeof(*ctr));
	memset(&st, 0, sizeof(st));
	st.ctr = ctr;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		st.socket[p] = SOCKET_ID_ANY;
	npool_rx_stats_reset();
	st.d = *d;
	st.d.nb_reasons = RTE_MIN(d->nb_reasons, APP_MAX_REASONS);
	st.d.nb_events = d->events_key == NULL ? 0 :
		RTE_MIN(d->nb_events, APP_MAX_EVENTS);
	if (st.d.rx_bad >= st.d.nb_reasons)
		st.d.rx_bad = 0;
	app_stats_rx_bad_pvt = st.d.rx_bad;
	app_ctr_set_desc(&st.d);
	st.o = o;
}

void
app_stats_set_extra(const struct app_stats_extra *x)
{
	st.x = x;
}

static bool
port_enabled(uint16_t p)
{
	return (st.o->portmask & (UINT64_C(1) << p)) != 0;
}

/* Add @p c into @p sum. */
static void
add_ctr(struct app_port_ctr *sum, const volatile struct app_port_ctr *c)
{
	unsigned int r;

	sum->rx += c->rx;
	sum->tx += c->tx;
	sum->fwd += c->fwd;
	for (r = 0; r < st.d.nb_reasons; r++)
		sum->drops[r] += c->drops[r];
	for (r = 0; r < st.d.nb_events; r++)
		sum->ev[r] += c->ev[r];
}

/* Counters of port @p p over all lcores. */
static void
sum_port(uint16_t p, struct app_port_ctr *out)
{
	unsigned int l;

	memset(out, 0, sizeof(*out));
	for (l = 0; l < RTE_MAX_LCORE; l++)
		add_ctr(out, &st.ctr[l].port[p]);
}

/* The lcore @l and its slot @i that poll RX queue @q of port @p: false
 * when none does. */
static bool
rxq_slot(uint16_t p, uint16_t q, unsigned int *l, unsigned int *i)
{
	unsigned int k;

	for (*l = 0; *l < RTE_MAX_LCORE; (*l)++)
		for (k = 0; k < app_lcores[*l].nb_rxq; k++)
			if (app_lcores[*l].rxq[k].port == p &&
					app_lcores[*l].rxq[k].queue == q) {
				*i = k;
				return true;
			}
	return false;
}

/* RX packets of queue @q of port @p so far (0 when nobody polls it). */
static uint64_t
rxq_rx(uint16_t p, uint16_t q)
{
	unsigned int l, i;

	return rxq_slot(p, q, &l, &i) ?
		__atomic_load_n(&st.ctr[l].rxq[i], __ATOMIC_RELAXED) : 0;
}

unsigned int
app_stats_rxq_snapshot(uint16_t port, uint64_t *rx, unsigned int n)
{
	unsigned int q, nq;

	if (st.o == NULL || port >= RTE_MAX_ETHPORTS || !port_enabled(port))
		return 0;
	nq = RTE_MIN((unsigned int)app_port_rxq_polled(port), n);
	for (q = 0; q < nq; q++)
		rx[q] = rxq_rx(port, (uint16_t)q);
	return nq;
}

bool
app_stats_idle(unsigned int nb_loops)
{
	/* Each lcore's empty polls when a packet last came. */
	static uint64_t empty_mark[RTE_MAX_LCORE];
	static uint64_t last_rx;
	unsigned int l, polling = 0;
	bool moved, all_empty = true;
	uint64_t rx = 0, e;

	for (l = 0; l < RTE_MAX_LCORE; l++) {
		polling += __atomic_load_n(&st.ctr[l].polling,
				__ATOMIC_ACQUIRE);
		rx += __atomic_load_n(&st.ctr[l].rx, __ATOMIC_RELAXED);
	}
	moved = rx != last_rx || polling < nb_loops;
	last_rx = rx;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (app_lcores[l].nb_rxq == 0)
			continue;
		e = __atomic_load_n(&st.ctr[l].empty, __ATOMIC_RELAXED);
		if (moved)
			empty_mark[l] = e;
		else if (e == empty_mark[l])
			all_empty = false;
	}
	return !moved && all_empty;
}

/*
 * Port @p p over all lcores while they run. An lcore counts a packet in
 * rx before it forwards or drops it: the outcomes are read first, then
 * rx, so that rx >= forwarded + dropped; the rest is in flight.
 */
static void
snap_port(uint16_t p, struct app_port_ctr *out)
{
	uint64_t rx = 0;
	unsigned int l;

	sum_port(p, out);
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (l = 0; l < RTE_MAX_LCORE; l++)
		rx += __atomic_load_n(&st.ctr[l].port[p].rx,
				__ATOMIC_RELAXED);
	out->rx = rx;
}

/* The RX queues of a port polled on several: rx and rate of each. */
static void
print_periodic_rxq(uint16_t p, double elapsed_s, double dt)
{
	uint16_t nq = app_port_rxq_polled(p), q;
	unsigned int l, i;
	uint64_t rx;

	if (nq < 2)
		return;
	printf("[%8.1f s] port %u queues: rx", elapsed_s, p);
	for (q = 0; q < nq; q++) {
		if (!rxq_slot(p, q, &l, &i))
			continue;
		rx = __atomic_load_n(&st.ctr[l].rxq[i], __ATOMIC_RELAXED);
		printf(" %u: %" PRIu64 " (%.3f Mpps)", q, rx,
				(rx - st.prev_rxq[l][i]) / dt / 1e6);
		st.prev_rxq[l][i] = rx;
	}
	putchar('\n');
}

/* Counters on one line, "label value" (app_ctr_walk() visit): the
 * --stats line of port p, and the copy-break line of the table. */
struct line {
	FILE *f;
	uint16_t p;
	double dt;
	const char *sep;  /* before the next counter */
	const char *next; /* between two counters */
};

static void
line_value(void *arg, const struct app_ctr_def *d,
		const char *key __rte_unused, const char *label,
		const uint64_t *v)
{
	struct line *a = arg;
	uint64_t *prev = RTE_PTR_ADD(&st.prev[a->p], d->off);

	fprintf(a->f, "%s%s %" PRIu64, a->sep, label, v[0]);
	a->sep = a->next;
	if (d->hint & APP_CTR_RATE) {
		fprintf(a->f, " (%.3f Mpps)", (v[0] - *prev) / a->dt / 1e6);
		*prev = v[0];
	}
}

void
app_stats_print_periodic(double elapsed_s)
{
	struct line a = { stdout, 0, elapsed_s - st.prev_s, "", " " };
	const struct app_ctr_visit vis = {
		APP_CTR_LINE, NULL, NULL, line_value, &a,
	};
	struct app_port_ctr c;
	struct app_ctr_col col = { &c, NULL, NULL };

	if (a.dt <= 0)
		return;
	for (a.p = 0; a.p < RTE_MAX_ETHPORTS; a.p++) {
		if (!port_enabled(a.p))
			continue;
		snap_port(a.p, &c);
		printf("[%8.1f s] port %u: ", elapsed_s, a.p);
		a.sep = "";
		app_ctr_walk(&vis, APP_CTR_SEC_PORT, &col, 1, false);
		putchar('\n');
		print_periodic_rxq(a.p, elapsed_s, a.dt);
	}
	st.prev_s = elapsed_s;
	fflush(stdout);
}

/*
 * Packets per second of an lcore between its first and last burst: the
 * packets after the first burst up to the last TSC read (app_ctr_rx()).
 */
static double
lcore_pps(const struct app_lcore_ctr *c)
{
	uint64_t cycles = c->last_tsc - c->first_tsc;

	if (c->first_tsc == 0 || cycles == 0 || c->last_rx <= c->first_n)
		return 0;
	return (double)(c->last_rx - c->first_n) * rte_get_tsc_hz() / cycles;
}

static void
print_row(FILE *f, const char *name, const uint64_t *v, unsigned int n)
{
	unsigned int i;

	fprintf(f, "%-16s", name);
	for (i = 0; i < n; i++)
		fprintf(f, " %14" PRIu64, v[i]);
	fputc('\n', f);
}

/* Under the rx row: "  rx queue q" for each queue of the ports that poll
 * several ("-" where a port has no such queue, none in the total). */
static void
print_rxq_rows(FILE *f, const uint16_t *pid, unsigned int n)
{
	uint16_t most = 0, nq, q;
	char name[32];
	unsigned int k;

	for (k = 0; k < n; k++)
		most = RTE_MAX(most, app_port_rxq_polled(pid[k]));
	for (q = 0; most > 1 && q < most; q++) {
		snprintf(name, sizeof(name), "  rx queue %u", q);
		fprintf(f, "%-16s", name);
		for (k = 0; k < n; k++) {
			nq = app_port_rxq_polled(pid[k]);
			if (nq > 1 && q < nq)
				fprintf(f, " %14" PRIu64, rxq_rx(pid[k], q));
			else
				fprintf(f, " %14s", "-");
		}
		fprintf(f, " %14s\n", "-");
	}
}

void
app_stats_read_eth(void)
{
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!port_enabled(p))
			continue;
		st.eth_ok[p] = rte_eth_stats_get(p, &st.eth[p]) == 0;
		st.socket[p] = rte_eth_dev_socket_id(p);
	}
}

const struct rte_eth_stats *
app_stats_eth(uint16_t port)
{
	return port < RTE_MAX_ETHPORTS && st.eth_ok[port] ?
		&st.eth[port] : NULL;
}

/* Copy-break counters of lcore @l, or of all of them (UINT_MAX). */
static void
print_copybreak(FILE *f, unsigned int l)
{
	struct npool_rx_stats s;
	struct line a = { f, 0, 0, "", ", " };
	const struct app_ctr_visit vis = {
		APP_CTR_TABLE, NULL, NULL, line_value, &a,
	};

	if (st.o->copybreak == 0)
		return;
	if (l == UINT_MAX) {
		npool_rx_stats_sum(&s);
		fprintf(f, "total: ");
	} else {
		npool_rx_stats_get(l, &s);
		fprintf(f, "lcore %u: ", l);
	}
	app_ctr_walk(&vis, APP_CTR_SEC_RX, &(struct app_ctr_col){ .rx = &s },
			1, false);
	fputc('\n', f);
}

/* The end-of-run table's rows (app_ctr_walk() visit). */
struct table {
	FILE *f;
	const uint16_t *pid;
	unsigned int n;
};

static void
table_value(void *arg, const struct app_ctr_def *d,
		const char *key __rte_unused, const char *label,
		const uint64_t *v)
{
	const struct table *a = arg;

	if ((d->hint & APP_CTR_NONZERO) && v[a->n] == 0)
		return;
	print_row(a->f, label, v, a->n + 1);
	if (d->hint & APP_CTR_RXQ)
		print_rxq_rows(a->f, a->pid, a->n);
}

void
app_stats_print_final(FILE *f, double duration_s)
{
	struct app_port_ctr c[RTE_MAX_ETHPORTS];
	struct rte_eth_stats e[RTE_MAX_ETHPORTS];
	struct app_ctr_col col[RTE_MAX_ETHPORTS];
	uint16_t pid[RTE_MAX_ETHPORTS];
	struct table a = { f, pid, 0 };
	const struct app_ctr_visit vis = {
		APP_CTR_TABLE, NULL, NULL, table_value, &a,
	};
	char name[32];
	unsigned int l;
	uint16_t p;

	memset(e, 0, sizeof(e));
	fprintf(f, "\n%s: %.3f s, pool %s, copybreak %u\n%-16s", st.d.app,
			duration_s, st.o->pool == APP_POOL_NPOOL ?
			"npool" : "mempool", st.o->copybreak, "");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!port_enabled(p))
			continue;
		sum_port(p, &c[a.n]);
		if (st.eth_ok[p])
			e[a.n] = st.eth[p];
		col[a.n] = (struct app_ctr_col){ &c[a.n], &e[a.n], NULL };
		snprintf(name, sizeof(name), "port %u", p);
		fprintf(f, " %14s", name);
		pid[a.n++] = p;
	}
	fprintf(f, " %14s\n", "total");
	app_ctr_walk(&vis, APP_CTR_SEC_PORT, col, a.n, true);
	RTE_LCORE_FOREACH(l) {
		double pps = lcore_pps(&st.ctr[l]);

		if (st.ctr[l].rx == 0)
			continue;
		fprintf(f, "lcore %u: rx %" PRIu64, l, st.ctr[l].rx);
		if (pps > 0)
			fprintf(f, ", %.3f Mpps, %.1f ns/packet (first to last burst; idle time included)\n",
					pps / 1e6, 1e9 / pps);
		else
			fprintf(f, " in one burst: no rate\n");
		print_copybreak(f, l);
		app_pool_stats_print(f, l);
	}
	print_copybreak(f, UINT_MAX);
	app_pool_stats_print(f, APP_POOL_STATS_ALL);
	if (st.x != NULL && st.x->print != NULL)
		st.x->print(f, duration_s);
	fflush(f);
}

/* Each polled RX queue: queue, the lcore polling it, rx. */
static void
json_rxq(struct app_json *j, uint16_t p)
{
	uint16_t nq = app_port_rxq_polled(p), q;
	unsigned int l, i;

	app_json_arr_begin(j, "rx_queues");
	for (q = 0; q < nq; q++) {
		if (!rxq_slot(p, q, &l, &i))
			continue;
		app_json_obj_begin(j, NULL);
		app_json_u64(j, "queue", q);
		app_json_u64(j, "lcore", l);
		app_json_u64(j, "rx", st.ctr[l].rxq[i]);
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
}

/* How the port's RX queues are fed. */
static void
json_rss(struct app_json *j, uint16_t p)
{
	const struct npool_rx_rss_plan *rss;
	bool back = false;

	rss = app_port_rss(p, &back);
	if (rss != NULL)
		app_rss_json(j, rss, back);
}

static void
json_ports(struct app_json *j)
{
	struct npool_rx_stats cb;
	struct app_port_ctr c, total;
	uint16_t p;

	memset(&total, 0, sizeof(total));
	app_json_arr_begin(j, "ports");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!port_enabled(p))
			continue;
		sum_port(p, &c);
		add_ctr(&total, &c);
		app_json_obj_begin(j, NULL);
		app_json_u64(j, "port", p);
		app_json_i64(j, "socket", st.socket[p]);
		app_ctr_json(j, APP_CTR_SEC_PORT, &(struct app_ctr_col){ &c,
				st.eth_ok[p] ? &st.eth[p] : NULL, NULL });
		json_rxq(j, p);
		json_rss(j, p);
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
	app_json_obj_begin(j, "total");
	app_ctr_json(j, APP_CTR_SEC_PORT,
			&(struct app_ctr_col){ &total, NULL, NULL });
	npool_rx_stats_sum(&cb);
	app_ctr_json(j, APP_CTR_SEC_RX, &(struct app_ctr_col){ .rx = &cb });
	app_pool_stats_json(j, APP_POOL_STATS_ALL);
	app_json_obj_end(j);
}

static void
json_lcores(struct app_json *j)
{
	struct npool_rx_stats cb;
	unsigned int l;

	app_json_arr_begin(j, "lcores");
	RTE_LCORE_FOREACH(l) {
		double pps = lcore_pps(&st.ctr[l]);

		if (st.ctr[l].rx == 0)
			continue;
		app_json_obj_begin(j, NULL);
		app_json_u64(j, "lcore", l);
		app_json_u64(j, "rx", st.ctr[l].rx);
		app_json_double(j, "mpps", pps / 1e6);
		app_json_double(j, "ns_per_pkt", pps > 0 ? 1e9 / pps : 0.0);
		npool_rx_stats_get(l, &cb);
		app_ctr_json(j, APP_CTR_SEC_RX,
				&(struct app_ctr_col){ .rx = &cb });
		app_pool_stats_json(j, l);
		app_json_obj_end(j);
	}
	app_json_arr_end(j);
}

int
app_stats_write_json(const char *path, double duration_s,
		const struct app_leak *lk)
{
	struct app_json j;
	FILE *f;

	f = fopen(path, "w");
	if (f == NULL) {
		app_err("--json: cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	app_json_init(&j, f);
	app_json_obj_begin(&j, NULL);
	app_json_str(&j, "app", st.d.app);
	app_json_str(&j, "pool", st.o->pool == APP_POOL_NPOOL ?
			"npool" : "mempool");
	app_json_u64(&j, "copybreak", st.o->copybreak);
	app_json_double(&j, "duration_s", duration_s);
	json_ports(&j);
	json_lcores(&j);
	if (st.x != NULL && st.x->json != NULL)
		st.x->json(&j, duration_s);
	app_numa_json(&j);
	app_json_obj_begin(&j, "leak");
	app_json_u64(&j, "mbufs_out", lk->n.mbufs_out);
	app_json_i64(&j, "frags_out", lk->n.frags_out);
	app_json_u64(&j, "chunks_in_use", lk->n.chunks_in_use);
	app_json_u64(&j, "bad_refcnt", lk->n.bad_refcnt);
	app_json_u64(&j, "double_free", lk->n.double_free);
	app_json_bool(&j, "ok", lk->ok);
	app_json_obj_end(&j);
	app_json_obj_end(&j);
	if (fclose(f) != 0) {
		app_err("--json: cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

const struct app_stats_desc *
app_stats_desc_get(void)
{
	return st.o != NULL ? &st.d : NULL;
}

int
app_stats_port_snapshot(uint16_t port, struct app_port_ctr *out)
{
	struct app_port_ctr c;
	uint16_t p;

	if (st.o != NULL && port == APP_STATS_ALL_PORTS) {
		memset(out, 0, sizeof(*out));
		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			if (port_enabled(p)) {
				snap_port(p, &c);
				add_ctr(out, &c);
			}
		}
		return 0;
	}
	if (st.o == NULL || port >= RTE_MAX_ETHPORTS || !port_enabled(port))
		return -EINVAL;
	snap_port(port, out);
	return 0;
}
