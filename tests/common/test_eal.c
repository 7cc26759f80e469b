/* SPDX-License-Identifier: BSD-3-Clause */
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "test_eal.h"

#define TEST_EAL_MAX_ARGS 64

int
test_eal_init(const struct test_eal *e, int extra_argc,
		const char **extra_argv)
{
	char *argv[TEST_EAL_MAX_ARGS];
	const char *lcores = e->lcores != NULL ? e->lcores : "0-1";
	char mem[16], log[64];
	int argc = 0, i;

	if (extra_argc < 0 || extra_argc > TEST_EAL_MAX_ARGS - 16) {
		fprintf(stderr, "%s: too many EAL arguments\n", e->prog);
		return -1;
	}
	snprintf(mem, sizeof(mem), "%u", e->mem_mb != 0 ? e->mem_mb : 1024);
	snprintf(log, sizeof(log), "--log-level=lib.eal:%s",
			e->log_level != NULL ? e->log_level : "warning");
	argv[argc++] = (char *)(uintptr_t)e->prog;
	argv[argc++] = (char *)(uintptr_t)(strchr(lcores, '@') != NULL ?
			"--lcores" : "-l");
	argv[argc++] = (char *)(uintptr_t)lcores;
	argv[argc++] = (char *)(uintptr_t)"-m";
	argv[argc++] = mem;
	argv[argc++] = (char *)(uintptr_t)"--no-pci";
	argv[argc++] = (char *)(uintptr_t)"--no-shconf";
	argv[argc++] = (char *)(uintptr_t)"--no-telemetry";
	argv[argc++] = log;
	argv[argc++] = (char *)(uintptr_t)"--file-prefix";
	argv[argc++] = (char *)(uintptr_t)e->prefix;
	if (e->huge_dir != NULL) {
		argv[argc++] = (char *)(uintptr_t)"--huge-dir";
		argv[argc++] = (char *)(uintptr_t)e->huge_dir;
	} else {
		argv[argc++] = (char *)(uintptr_t)"--no-huge";
	}
	for (i = 0; i < extra_argc; i++)
		argv[argc++] = (char *)(uintptr_t)extra_argv[i];
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "%s: rte_eal_init: %s\n", e->prog,
				rte_strerror(rte_errno));
		test_eal_remove_runtime_dir(e->prefix);
		return -1;
	}
	return 0;
}

static int
rm_entry(const char *path, const struct stat *sb __rte_unused,
		int type __rte_unused, struct FTW *ftw __rte_unused)
{
	remove(path);
	return 0;
}

void
test_eal_remove_runtime_dir(const char *prefix)
{
	const char *base = "/var/run";
	char path[PATH_MAX];

	/* Where EAL puts it (eal_create_runtime_dir()). */
	if (getuid() != 0) {
		base = getenv("XDG_RUNTIME_DIR");
		if (base == NULL)
			base = "/tmp";
	}
	if (prefix == NULL || prefix[0] == '\0' || strchr(prefix, '/') != NULL)
		return;
	snprintf(path, sizeof(path), "%s/dpdk/%s", base, prefix);
	nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}
