/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_CONN_H
#define FWD_FPM_CONN_H

/**
 * @file
 * The FPM reader (fwd_fpm.h): its parameters from the command line, the
 * listener, the connection, its frames and the resynchronisation.
 */

#include <stddef.h>
#include <stdint.h>

#include "fwd_fpm.h"

struct fwd_fpm;

/** Defaults: 127.0.0.1:2620, no interface, FWD_FPM_SYNC_MS,
 * FWD_FPM_BUF_SIZE, FWD_FPM_NH_MAX, lines to stderr. */
void fwd_fpm_params_init(struct fwd_fpm_params *p);

/**
 * Parse --fpm's "[ADDR][:PORT]" into @p p: an IPv4 address, an IPv6 one
 * (in brackets when a port follows: "[::1]:2620"), either may be left
 * out (127.0.0.1, 2620); PORT 1..65535.
 * @return 0, or -1 with @p why set to what is wrong.
 */
int fwd_fpm_parse_addr(struct fwd_fpm_params *p, const char *arg,
		const char **why);

/**
 * Parse one --fpm-if "PORT,IFNAME" into @p p (PORT 0..63, an interface
 * name of 1..15 bytes, neither given before).
 * @return 0, or -1 with @p why set.
 */
int fwd_fpm_parse_if(struct fwd_fpm_params *p, const char *arg,
		const char **why);

/**
 * Make a reader: no socket yet (fwd_fpm_listen()). Resolves the name
 * table once (if_nametoindex(), in the caller's network namespace).
 * @return the reader, or NULL with errno set (EINVAL: bad parameters,
 *   ENOMEM).
 */
struct fwd_fpm *fwd_fpm_create(const struct fwd_fpm_params *p,
		const struct fwd_fpm_sink *sink);

/** Close everything and free @p f (NULL: nothing). */
void fwd_fpm_free(struct fwd_fpm *f);

/**
 * Listen on the parameters' address: a nonblocking TCP socket, one
 * connection at a time (a new one replaces the old).
 * @return 0, or a negative errno of socket(), bind(), listen().
 */
int fwd_fpm_listen(struct fwd_fpm *f);

/** The port listened on (after fwd_fpm_listen(); 0 before). */
uint16_t fwd_fpm_port(const struct fwd_fpm *f);

/** An fd to poll for reading (an epoll fd over the listening socket and
 * the connection; level-triggered), stable for the reader's life: call
 * fwd_fpm_poll() when readable. -1 before fwd_fpm_listen(). */
int fwd_fpm_fd(const struct fwd_fpm *f);

/**
 * Accept a waiting connection, read what came (a bounded amount: call
 * again while fwd_fpm_fd() stays readable), hand the routes to the sink,
 * and end a resynchronisation whose quiet period is over.
 *
 * @param now_ms
 *   The time, ms, of any monotonic clock (fwd_fpm_now_ms()), never
 *   going back.
 * @return ms until the reader wants to be called again even if nothing
 *   comes (the sync timer), or -1: only when fwd_fpm_fd() is readable.
 */
int fwd_fpm_poll(struct fwd_fpm *f, uint64_t now_ms);

/**
 * Begin a connection on @p fd (accepted elsewhere, or one end of a
 * socketpair; made nonblocking, closed by the reader), as if accepted;
 * or, with @p fd -1, a connection fed only by fwd_fpm_input(). The one
 * open is closed first. Tells the sink sync_begin().
 */
void fwd_fpm_attach(struct fwd_fpm *f, int fd, uint64_t now_ms);

/**
 * Take @p len bytes of the connection's stream, as if read (tests and
 * fuzzing). Ignored when no connection is open (after a bad header).
 * @return 0, or -1 when the stream closed the connection.
 */
int fwd_fpm_input(struct fwd_fpm *f, const void *data, size_t len,
		uint64_t now_ms);

#endif /* FWD_FPM_CONN_H */
