/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * librte_mempool_npool.so: the "npool" mempool ops for an unmodified DPDK
 * app, loaded as an EAL driver plugin:
 *   dpdk-testpmd -d <libdir>/librte_mempool_npool.so \
 *       --mbuf-pool-ops-name npool ...
 * EAL runs this constructor while it loads its plugins, before the app
 * creates its pools. libnpool itself registers the ops only once EAL is
 * up (npool_mempool_ops_register()).
 *
 * A pool records its ops as an index into the per-process ops table, so
 * a secondary process (dpdk-proc-info, dpdk-pdump, a multi_process
 * client) can use the primary's pools only if every ops sits at the same
 * index in both. EAL loads the -d plugins before its default driver
 * folder (RTE_EAL_PMD_PATH), so registering here at once would put
 * "npool" ahead of ring_mp_mc and the other stock ops, and a process
 * without the plugin would see them all one slot off: dpdk-proc-info
 * --show-mempool read a testpmd pool as octeontx_fpavf's. So the
 * constructor first loads the default folder the way EAL will (readdir
 * order, the same file names), then registers: "npool" comes after every
 * stock ops, where an npool app registers it after rte_eal_init(), and
 * every process that loads the plugin agrees on every index. EAL's own
 * pass over the folder then finds each driver loaded already.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_config.h>
#include <rte_eal.h>

#include "rte_mempool_npool.h"

/* The names EAL loads from a plugin folder: "*.so" and "*.so.<ABI>", ABI
 * being the folder's suffix (pmds-23.0: "23.0"). */
static int
eal_plugin_name(const char *name, const char *abi)
{
	size_t n = strlen(name), a = strlen(abi);
	char tail[32];

	if (n > 3 && strcmp(name + n - 3, ".so") == 0)
		return 1;
	if (snprintf(tail, sizeof(tail), ".so.%s", abi) >= (int)sizeof(tail))
		return 0;
	a += 4;
	return n > a && strcmp(name + n - a, tail) == 0;
}

static void
load_default_drivers(void)
{
#ifdef RTE_EAL_PMD_PATH
	const char *dir = RTE_EAL_PMD_PATH;
	const char *abi = strstr(dir, "pmds-");
	char path[PATH_MAX];
	struct dirent *e;
	Dl_info info;
	DIR *d;

	/* EAL loads the folder only when it is itself a shared object. */
	if (abi == NULL || dladdr((void *)rte_eal_init, &info) == 0 ||
			info.dli_fname == NULL ||
			strstr(info.dli_fname, "librte_eal.so") == NULL)
		return;
	abi += strlen("pmds-");
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!eal_plugin_name(e->d_name, abi))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
				(int)sizeof(path))
			continue;
		/* Kept loaded, as EAL keeps them; one that fails to load
		 * fails again in EAL, which reports it. */
		dlopen(path, RTLD_NOW);
	}
	closedir(d);
#endif
}

RTE_INIT(npool_mempool_plugin_init)
{
	load_default_drivers();
	npool_mempool_ops_register();
}
