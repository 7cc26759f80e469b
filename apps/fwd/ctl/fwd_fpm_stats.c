/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader's counters and lines: each refused frame or message
 * counted by reason and said on one line, the first time and then at
 * most once a minute per reason with the count between; the counters in
 * --json ("fpm") and over DPDK telemetry (/fwd/fpm).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <rte_telemetry.h>

#include "app_compat.h"
#include "app_json.h"
#include "app_log.h"
#include "fwd_fpm_stats.h"

#define NAME_(name, doc) #name,
static const char *const err_names[] = { FWD_FPM_ERRORS(NAME_) };
#undef NAME_

const char *
fwd_fpm_addr_text(const struct sockaddr_storage *a, char *buf, size_t size)
{
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in *in = (const struct sockaddr_in *)a;
	char host[INET6_ADDRSTRLEN];

	if (a->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(buf, size, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(buf, size, "%s:%u", host, ntohs(in->sin_port));
	}
	return buf;
}

uint64_t
fwd_fpm_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void
fpm_log(struct fwd_fpm *f, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (f->p.log != NULL)
		f->p.log(f->p.log_ctx, line);
	else
		app_err("fpm: %s", line);
}

void
fpm_err(struct fwd_fpm *f, enum fwd_fpm_error e, const char *fmt, ...)
{
	uint64_t n = f->st.err[e] + 1, since;
	char line[200];
	va_list ap;

	FPM_INC(f->st.err[e]);
	if (f->logged[e] && f->now - f->logged_ms[e] < FPM_LOG_MS)
		return;
	since = f->logged[e] ? n - f->logged_n[e] - 1 : 0;
	f->logged[e] = true;
	f->logged_ms[e] = f->now;
	f->logged_n[e] = n;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (since != 0)
		fpm_log(f, "%s: %s (%" PRIu64 " more since the last line)",
				err_names[e], line, since);
	else
		fpm_log(f, "%s: %s (said once a minute at most)",
				err_names[e], line);
}

const char *
fpm_rt_text(const struct fwd_rt *rt, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(rt->v6 ? AF_INET6 : AF_INET, rt->dst, a, sizeof(a));
	snprintf(buf, size, "%s/%u", a, rt->depth);
	return buf;
}

const char *
fwd_fpm_error_name(unsigned int e)
{
	return e < FWD_FPM_NB_ERRORS ? err_names[e] : NULL;
}

void
fwd_fpm_stats_get(const struct fwd_fpm *f, struct fwd_fpm_stats *s)
{
	unsigned int e;

#define GET_(name, doc) \
	s->name = __atomic_load_n(&f->st.name, __ATOMIC_RELAXED);
	FWD_FPM_COUNTERS(GET_)
#undef GET_
	for (e = 0; e < FWD_FPM_NB_ERRORS; e++)
		s->err[e] = __atomic_load_n(&f->st.err[e], __ATOMIC_RELAXED);
	s->nexthops = __atomic_load_n(&f->st.nexthops, __ATOMIC_RELAXED);
	s->last_update_ms = __atomic_load_n(&f->st.last_update_ms,
			__ATOMIC_RELAXED);
	s->connect_ms = __atomic_load_n(&f->st.connect_ms, __ATOMIC_RELAXED);
	s->sync_ms = __atomic_load_n(&f->st.sync_ms, __ATOMIC_RELAXED);
	s->connected = __atomic_load_n(&f->st.connected, __ATOMIC_RELAXED);
	s->syncing = __atomic_load_n(&f->st.syncing, __ATOMIC_RELAXED);
}

/* Where stats_walk() puts each value: JSON or a telemetry dict. */
struct put {
	void (*u64)(void *dst, const char *key, uint64_t v);
	void *top;   /* the object of the counters */
	void *errs;  /* the object of the reasons */
	void (*errs_begin)(void *top); /* before the reasons, or NULL */
};

/* The counters of @p s, then the reasons, through @p p. */
static void
stats_walk(const struct fwd_fpm_stats *s, const struct put *p)
{
	unsigned int e;

#define PUT_(name, doc) p->u64(p->top, #name, s->name);
	FWD_FPM_COUNTERS(PUT_)
#undef PUT_
	p->u64(p->top, "nexthops", s->nexthops);
	p->u64(p->top, "last_update_ms", s->last_update_ms);
	p->u64(p->top, "connect_ms", s->connect_ms);
	p->u64(p->top, "sync_ms", s->sync_ms);
	if (p->errs_begin != NULL)
		p->errs_begin(p->top);
	for (e = 0; e < FWD_FPM_NB_ERRORS; e++)
		p->u64(p->errs, err_names[e], s->err[e]);
}

static void
json_u64(void *dst, const char *key, uint64_t v)
{
	app_json_u64(dst, key, v);
}

static void
json_errs_begin(void *j)
{
	app_json_obj_begin(j, "errors");
}

void
fwd_fpm_json(struct app_json *j, const struct fwd_fpm *f)
{
	struct put p = { json_u64, j, j, json_errs_begin };
	struct fwd_fpm_stats s;
	char addr[64];

	fwd_fpm_stats_get(f, &s);
	app_json_obj_begin(j, "fpm");
	app_json_str(j, "listen", fwd_fpm_addr_text(&f->p.addr, addr,
				sizeof(addr)));
	app_json_bool(j, "connected", s.connected);
	app_json_bool(j, "syncing", s.syncing);
	stats_walk(&s, &p);
	app_json_obj_end(j); /* errors */
	app_json_obj_end(j);
}

static void
tel_u64(void *dst, const char *key, uint64_t v)
{
	rte_tel_data_add_dict_uint(dst, key, v);
}

/* The reader /fwd/fpm reads (main lcore sets it). */
static const struct fwd_fpm *tel_f;

static int
tel_fpm(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	const struct fwd_fpm *f = __atomic_load_n(&tel_f, __ATOMIC_ACQUIRE);
	struct rte_tel_data *errs;
	struct fwd_fpm_stats s;

	if (f == NULL)
		return -ENODEV;
	fwd_fpm_stats_get(f, &s);
	errs = rte_tel_data_alloc();
	if (errs == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(d);
	rte_tel_data_start_dict(errs);
	rte_tel_data_add_dict_int(d, "connected", s.connected);
	rte_tel_data_add_dict_int(d, "syncing", s.syncing);
	stats_walk(&s, &(struct put){ tel_u64, d, errs, NULL });
	rte_tel_data_add_dict_uint(d, "now_ms", fwd_fpm_now_ms());
	rte_tel_data_add_dict_container(d, "errors", errs, 0);
	return 0;
}

void
fwd_fpm_telemetry(const struct fwd_fpm *f)
{
	static bool registered;

	__atomic_store_n(&tel_f, f, __ATOMIC_RELEASE);
	if (registered || f == NULL)
		return;
	registered = true;
	rte_telemetry_register_cmd("/fwd/fpm", tel_fpm,
		"npool-fwd's FPM reader: connection, frames, messages, routes, errors by reason");
}
