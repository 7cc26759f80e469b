/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_LOG_H
#define NPOOL_LOG_H

/**
 * @file
 * npool's registered rte_log type ("lib.npool"). Slow paths only: the
 * fast paths never print.
 */

#include <rte_errno.h>
#include <rte_log.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The "lib.npool" log type, registered at load time. */
extern int npool_logtype;

/** Fail with errno value @p err the DPDK way: rte_errno = @p err, and
 * -@p err returned. */
static inline int
npool_err_pvt(int err)
{
	rte_errno = err;
	return -err;
}

/** Log a slow-path message at level RTE_LOG_<level>. */
#define NPOOL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, npool_logtype, "npool: " fmt "\n", \
		##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_LOG_H */
