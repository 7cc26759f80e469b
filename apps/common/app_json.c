/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <math.h>

#include "app_json.h"

void
app_json_init(struct app_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void
put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Comma, newline and indentation before a value, then its key. */
static void
put_key(struct app_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth > 0)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	if (key != NULL) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

void
app_json_open(struct app_json *j, const char *key, char c)
{
	put_key(j, key);
	fputc(c, j->f);
	if (j->depth < APP_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void
app_json_close(struct app_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void
app_json_u64(struct app_json *j, const char *key, uint64_t v)
{
	put_key(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void
app_json_i64(struct app_json *j, const char *key, int64_t v)
{
	put_key(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void
app_json_double(struct app_json *j, const char *key, double v)
{
	put_key(j, key);
	fprintf(j->f, "%.9g", isfinite(v) ? v : 0.0);
}

void
app_json_str(struct app_json *j, const char *key, const char *s)
{
	put_key(j, key);
	put_string(j->f, s);
}

void
app_json_bool(struct app_json *j, const char *key, bool v)
{
	put_key(j, key);
	fputs(v ? "true" : "false", j->f);
}
