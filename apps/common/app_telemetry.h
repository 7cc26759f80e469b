/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_TELEMETRY_H
#define APP_TELEMETRY_H

/**
 * @file
 * The apps' own telemetry commands, for monitoring a long run (soak) and
 * for operators: /app/stats, /app/port,<id> (packet counters and drops by
 * reason, as the end-of-run table) and /app/pools (mbufs out of each
 * pool, npool's fragments, chunks and heads out, copy-break counters).
 * /app/stats and /app/port answer -ENODEV until the app has set up its
 * counters.
 */

/**
 * Register the commands with DPDK telemetry (once; later calls do
 * nothing). Main lcore, after rte_eal_init(). With EAL's --no-telemetry
 * nobody can ask them.
 */
void app_telemetry_register(void);

#endif /* APP_TELEMETRY_H */
