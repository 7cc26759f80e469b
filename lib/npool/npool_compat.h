/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_COMPAT_H
#define NPOOL_COMPAT_H

/**
 * @file
 * DPDK API differences between the releases libnpool is tested on
 * (22.11, 24.11, 25.11: scripts/lts-test.sh), in one place. libnpool's
 * .c files are written against the newest API; this header provides it
 * on older releases. Private: not installed, no public header includes
 * it. The apps have their own (apps/common/app_compat.h).
 */

#include <rte_version.h>
#include <rte_telemetry.h>

/*
 * 23.03 renamed rte_tel_data_add_dict_u64() rte_tel_data_add_dict_uint()
 * (same arguments); 24.11 deprecates the old name, 25.11 removed it.
 */
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#endif

#endif /* NPOOL_COMPAT_H */
