/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How npool-fwd reads its configuration files: line by line
 * (fwd_read_lines()), numbers (fwd_parse_dec()), into growing arrays
 * (routes, EM rules, the router's own addresses: fwd_vec_push()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

int
fwd_vec_push(void *arr, unsigned int *n, unsigned int *cap, size_t size,
		const void *el)
{
	void **a = arr, *na;

	if (*n == *cap) {
		na = realloc(*a, (*cap ? 2 * *cap : 64) * size);
		if (na == NULL)
			return -1;
		*a = na;
		*cap = *cap ? 2 * *cap : 64;
	}
	memcpy((char *)*a + (size_t)*n * size, el, size);
	(*n)++;
	return 0;
}

int
fwd_parse_dec(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno != 0 || *end != '\0' || *v > max ? -1 : 0;
}

int
fwd_read_lines(FILE *f, fwd_line_t cb, void *ctx, unsigned int *lineno,
		const char **why)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	*lineno = 0;
	*why = NULL;
	/* getline(): the length counts NUL bytes, which fgets() hides. */
	while (rc == 0 && (errno = 0, len = getline(&line, &cap, f)) >= 0) {
		(*lineno)++;
		if (memchr(line, '\0', len) != NULL) {
			*why = "NUL byte in the line (not a text file?)";
			rc = -1;
		} else if (len >= LINE_MAX) {
			*why = "line too long";
			rc = -1;
		} else {
			rc = cb(ctx, line, *lineno, why);
		}
	}
	free(line);
	if (rc == 0)
		*why = NULL;
	if (rc == 0 && (ferror(f) || errno != 0)) {
		if (errno == 0)
			errno = EIO;
		rc = -2;
	}
	return rc;
}
