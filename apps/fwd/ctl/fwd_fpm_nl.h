/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_NL_H
#define FWD_FPM_NL_H

/**
 * @file
 * The FPM reader's netlink route messages: a frame's routes to the sink,
 * the deletes held back for an add of the same prefix, interfaces to
 * ports.
 */

#include <stdint.h>

#include "fwd_fpm_pvt.h"

/*
 * One frame's netlink messages (the FPM header taken
 * off), to the sink; the frame's held deletes flushed and frame_end()
 * told at its end.
 */
void fpm_nl_frame(struct fwd_fpm *f, const uint8_t *p, uint32_t len);

/* Give the held deletes to the sink (a frame's end, a
 * connection's). */
void fpm_nl_flush(struct fwd_fpm *f);

/* Re-read the name table now (if_nametoindex()). */
void fpm_if_resolve(struct fwd_fpm *f);

#endif /* FWD_FPM_NL_H */
