/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_STATS_H
#define FWD_FPM_STATS_H

/**
 * @file
 * The FPM reader's counters, its lines (each reason said at most once a
 * minute), --json and telemetry, the clock it runs on.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "app_json.h"
#include "fwd_fpm_pvt.h"

/** @p p's address as text ("127.0.0.1:2620", "[::1]:2620") into @p buf
 * of @p size bytes (48 is enough). @return @p buf. */
const char *fwd_fpm_addr_text(const struct sockaddr_storage *a, char *buf,
		size_t size);

/** CLOCK_MONOTONIC in ms, for fwd_fpm_poll(). */
uint64_t fwd_fpm_now_ms(void);

/** Copy the counters into @p s; any thread. */
void fwd_fpm_stats_get(const struct fwd_fpm *f, struct fwd_fpm_stats *s);

/** The name of reason @p e (FWD_FPM_ERRORS), NULL beyond. */
const char *fwd_fpm_error_name(unsigned int e);

/**
 * Write "fpm": {counters, "errors": {reason: n}, "nexthops",
 * "last_update_ms", "connected", "syncing", "listen"} into @p j.
 */
void fwd_fpm_json(struct app_json *j, const struct fwd_fpm *f);

/**
 * Make /fwd/fpm answer @p f's counters (as the JSON object) over DPDK
 * telemetry; NULL: answer -ENODEV (before fwd_fpm_free()). Main lcore.
 */
void fwd_fpm_telemetry(const struct fwd_fpm *f);

/*
 * Count reason @p e and log it (the first time, then
 * at most once per FPM_LOG_MS with the count in between); the rest is
 * a printf message saying what was refused.
 */
void fpm_err(struct fwd_fpm *f, enum fwd_fpm_error e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One line through the parameters' log. */
void fpm_log(struct fwd_fpm *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* @p rt's prefix as text, "198.18.0.0/24". */
const char *fpm_rt_text(const struct fwd_rt *rt, char *buf, size_t size);

#endif /* FWD_FPM_STATS_H */
