/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How npool-fwd reads its configuration files: line by line
 * (fwd_read_lines(), fwd_read_file(): the one error line of a file),
 * numbers (fwd_parse_dec()), into growing arrays (routes, EM rules, the
 * router's own addresses: fwd_vec_push()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "app_log.h"
#include "fwd_vec.h"

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

/*
 * One line of @p f into @p buf (LINE_MAX bytes): its length, the newline
 * included; LINE_MAX for a line that long or longer, whose rest stays
 * unread; 0 at the end of the file or on a read error (ferror()). A line
 * costs no more memory than that, whatever the file (getline() would
 * take all of a file without newlines, /dev/zero without end).
 */
static size_t
read_line(FILE *f, char *buf)
{
	size_t n = 0;
	int c;

	errno = 0;
	while (n < LINE_MAX && (c = getc_unlocked(f)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	return n;
}

int
fwd_read_lines(FILE *f, fwd_line_t cb, void *ctx, unsigned int *lineno,
		const char **why)
{
	char line[LINE_MAX + 1];
	size_t len;
	int rc = 0;

	*lineno = 0;
	*why = NULL;
	flockfile(f);
	while (rc == 0 && (len = read_line(f, line)) != 0) {
		(*lineno)++;
		/* The length counts NUL bytes, which fgets() hides. */
		if (memchr(line, '\0', len) != NULL) {
			*why = "NUL byte in the line (not a text file?)";
			rc = -1;
		} else if (len >= LINE_MAX) {
			*why = "line too long";
			rc = -1;
		} else {
			line[len] = '\0';
			rc = cb(ctx, line, *lineno, why);
		}
	}
	if (rc == 0)
		*why = NULL;
	if (rc == 0 && ferror(f)) {
		if (errno == 0)
			errno = EIO;
		rc = -2;
	}
	funlockfile(f);
	return rc;
}

int
fwd_read_file(const char *flag, const char *path, fwd_line_t cb, void *ctx)
{
	FILE *f = fopen(path, "r");
	unsigned int lineno;
	const char *why;
	int rc;

	if (f == NULL) {
		app_err("%s: %s: %s", flag, path, strerror(errno));
		return -1;
	}
	rc = fwd_read_lines(f, cb, ctx, &lineno, &why);
	if (rc == -1)
		app_err("%s:%u: %s", path, lineno, why);
	else if (rc == -2)
		/* A directory opens, then reads fail with EISDIR. */
		app_err("%s: %s: %s", flag, path, strerror(errno));
	fclose(f);
	return rc < 0 ? -1 : 0;
}
