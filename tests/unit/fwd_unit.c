/* SPDX-License-Identifier: BSD-3-Clause */
/* npool-fwd's unit test configuration (fwd_unit.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fwd_mcast.h"
#include "fwd_unit.h"

/* @p text in a new temporary file; its path, to free(). */
static char *
route_file(const char *text)
{
	char *path = strdup("/tmp/np-fwd-ut-XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

void
fu_conf_init(struct fwd_conf *fc, enum fwd_lookup lookup, uint64_t portmask,
		const char *r4, const char *r6)
{
	fu_conf_init_addrs(fc, lookup, portmask, r4, r6, NULL);
}

void
fu_conf_init_addrs(struct fwd_conf *fc, enum fwd_lookup lookup,
		uint64_t portmask, const char *r4, const char *r6,
		struct fwd_addrs *addrs)
{
	char *p4 = route_file(r4), *p6 = route_file(r6);
	unsigned int p;
	int rc;

	memset(fc, 0, sizeof(*fc));
	fc->lookup = lookup;
	fc->portmask = portmask;
	fc->mtu = 1500;
	fc->rule4 = p4;
	fc->rule6 = p6;
	fc->addrs = addrs;
	rc = fwd_routes_load(fc);
	unlink(p4);
	unlink(p6);
	free(p4);
	free(p6);
	fc->rule4 = fc->rule6 = NULL;
	assert_int_equal(rc, 0);
	assert_true(lookup == FWD_LOOKUP_EM ?
			fc->em4 != NULL && fc->em6 != NULL &&
			fc->lpm4 == NULL && fc->fib4 == NULL :
			lookup == FWD_LOOKUP_FIB ?
			fc->fib4 != NULL && fc->fib6 != NULL &&
			fc->lpm4 == NULL && fc->lpm6 == NULL :
			fc->lpm4 != NULL && fc->lpm6 != NULL &&
			fc->fib4 == NULL && fc->fib6 == NULL);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		fc->l2[p].dst.addr_bytes[0] = 0x02;
		fc->l2[p].dst.addr_bytes[5] = (uint8_t)p;
		fc->l2[p].src.addr_bytes[0] = 0x02;
		fc->l2[p].src.addr_bytes[4] = 0x01;
		fc->l2[p].src.addr_bytes[5] = (uint8_t)p;
	}
	fwd_conf_l2_prepare(fc);
}

void
fu_conf_mroutes(struct fwd_conf *fc, const char *text)
{
	char *p = route_file(text);

	assert_int_equal(fwd_mroutes_load(fc, p), 0);
	unlink(p);
	free(p);
}

void
fu_conf_portmask(struct fwd_conf *fc, uint64_t portmask)
{
	struct fwd_conf t;

	fc->portmask = portmask;
	assert_int_equal(fwd_routes_copy(&t, fc, fc->socket_id), 0);
	fwd_routes_free_tables(fc);
	fc->lpm4 = t.lpm4;
	fc->lpm6 = t.lpm6;
	fc->fib4 = t.fib4;
	fc->fib6 = t.fib6;
	fc->def4 = t.def4;
	fc->def6 = t.def6;
}
