/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_VEC_H
#define FWD_VEC_H

/**
 * @file
 * What npool-fwd's file readers share: a strict decimal, the lines of a
 * file, a growing array.
 */

#include <stddef.h>
#include <stdio.h>

/**
 * An unsigned decimal (digits only, no sign, no blank) of at most @p max.
 * @return 0 with @p v set, or -1.
 */
int fwd_parse_dec(const char *s, unsigned long max, unsigned long *v);

/**
 * One line of fwd_read_lines(), its newline kept, writable.
 * @return 0, or -1 with @p why set (a bad line: reading stops).
 */
typedef int (*fwd_line_t)(void *ctx, char *line, unsigned int lineno,
		const char **why);

/**
 * Read @p f to its end, one call of @p cb per line; a line holding a NUL
 * byte or of LINE_MAX bytes or more is bad. Reads at most LINE_MAX bytes
 * of a line (memory stays bounded whatever the file).
 *
 * @param lineno
 *   Set to the number of the last line read (1-based; 0: none).
 * @param why
 *   Set to the reason of a bad line, else NULL.
 * @return 0; -1 for a bad line; -2 when reading failed (errno set).
 */
int fwd_read_lines(FILE *f, fwd_line_t cb, void *ctx, unsigned int *lineno,
		const char **why);

/**
 * Read the file @p path that option @p flag names, as fwd_read_lines().
 * Its one error line (app_err()) is "<flag>: <path>: <errno text>" when
 * it cannot be opened or read, "<path>:<line>: <why>" for a bad line.
 *
 * @return 0, or -1 after the error line.
 */
int fwd_read_file(const char *flag, const char *path, fwd_line_t cb,
		void *ctx);

/**
 * Append @p el (@p size bytes) to a growing array @p *arr of @p *n
 * elements and room for @p *cap (doubled from 64 when full).
 * @return 0, or -1 when out of memory (the array unchanged).
 */
int fwd_vec_push(void *arr, unsigned int *n, unsigned int *cap, size_t size,
		const void *el);

#endif /* FWD_VEC_H */
