/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_LOG_H
#define APP_LOG_H

/**
 * @file
 * The apps' error line: every error of the command line, the set-up and
 * the run is one line "<prog>: <message>" on stderr.
 */

#include <rte_common.h>

/** Print "<prog>: <message>\n" on stderr. */
void app_err(const char *fmt, ...) __rte_format_printf(1, 2);

/** Name used by app_err() (set by app_opts_defaults()). */
void app_err_set_prog(const char *prog);

#endif /* APP_LOG_H */
