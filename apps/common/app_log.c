/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The apps' one error line, "<prog>: <message>" on stderr (app_log.h).
 * Below every other file of apps/common: it calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>

#include "app_log.h"

static const char *err_prog = "npool";

void
app_err_set_prog(const char *prog)
{
	err_prog = prog;
}

void
app_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", err_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
