/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool's log type (npool_log.h), registered when libnpool is loaded.
 */
#include <rte_log.h>

#include "npool_log.h"

RTE_LOG_REGISTER_DEFAULT(npool_logtype, INFO);
