/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_JSON_H
#define APP_JSON_H

/**
 * @file
 * A small streaming JSON writer: objects, arrays, numbers, strings,
 * booleans; commas and indentation are handled here. Keys are NULL
 * inside arrays and for the top-level value.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** Deepest nesting. */
#define APP_JSON_MAX_DEPTH 8

/** Writer state. */
struct app_json {
	FILE *f;
	int depth;
	bool first[APP_JSON_MAX_DEPTH + 1];
};

/** Start writing to @p f. */
void app_json_init(struct app_json *j, FILE *f);
/** Open an object ('{') or an array ('['), under @p key. */
void app_json_open(struct app_json *j, const char *key, char c);
/** Close what app_json_open() opened: '}' or ']'. */
void app_json_close(struct app_json *j, char c);

/** Shorthands of app_json_open() / app_json_close(). */
#define app_json_obj_begin(j, key) app_json_open((j), (key), '{')
#define app_json_obj_end(j) app_json_close((j), '}')
#define app_json_arr_begin(j, key) app_json_open((j), (key), '[')
#define app_json_arr_end(j) app_json_close((j), ']')

void app_json_u64(struct app_json *j, const char *key, uint64_t v);
void app_json_i64(struct app_json *j, const char *key, int64_t v);
/** Non-finite values are written as 0. */
void app_json_double(struct app_json *j, const char *key, double v);
void app_json_str(struct app_json *j, const char *key, const char *s);
void app_json_bool(struct app_json *j, const char *key, bool v);

#endif /* APP_JSON_H */
