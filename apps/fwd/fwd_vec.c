/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The growing arrays npool-fwd reads its configuration into (routes, EM
 * rules, the router's own addresses): fwd_vec_push().
 */
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
