/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_RUN_H
#define APP_RUN_H

/**
 * @file
 * The steps of an app's run that its main() calls in order, as DPDK's
 * examples/l3fwd main.c does: app_run_init() (signals, EAL, the command
 * line's defaults), the app's own parse and set-up, app_run_start() and
 * the launch of the lcores' loops (rte_eal_mp_remote_launch()), then
 * app_run_wait(): the control duties - SIGINT/SIGTERM, --duration,
 * --idle-exit, the --stats lines - until they set app_quit, which ends
 * every loop; app_run_report() and app_run_cleanup() last.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "app_cli.h"

/** Set to end every lcore's loop (read once a poll round): by a signal,
 * the control duties or app_run_stop(). */
extern volatile int app_quit;

/** The control duties' state (app_run_start()). */
struct app_run {
	const struct app_opts *o;
	uint64_t hz, t0, t_stop;          /**< TSC: its rate, start, stop */
	uint64_t next_check, next_stats;  /**< TSC of the next check, line */
	uint64_t last_rx_tsc;   /**< --idle-exit: TSC the lcores last were busy */
	unsigned int nb_loops;  /**< lcores that poll RX queues */
	bool thread;            /**< the duties run on @c tid */
	pthread_t tid;
};

/**
 * Start an app: the signal handlers (a first SIGINT/SIGTERM stops the
 * run cleanly, at once if it comes before the lcores run; a second one
 * takes the signal's default action), stdout line-buffered, -h answered
 * without EAL, rte_eal_init() (every --vdev must have probed),
 * dpdk-dumpcap's channel, the apps' telemetry, app_opts_defaults().
 *
 * @return The arguments rte_eal_init() took (the app's own follow); -1
 *   when the app is to exit with cli->status (0 after -h,
 *   APP_EXIT_USAGE, APP_EXIT_SETUP), after app_run_cleanup().
 */
int app_run_init(int argc, char **argv, struct app_opts *o, const char *prog,
		struct app_cli *cli);

/**
 * Start the control duties' clocks, before the lcores are launched. When
 * the main lcore polls RX queues itself, the duties run on a thread of
 * their own (app_thread_start()), else on the main thread in
 * app_run_wait(). The ports are started (app_fwd_lcore_count()).
 */
void app_run_start(struct app_run *r, const struct app_opts *o);

/**
 * The main thread's part once the lcores are launched: the control
 * duties, a check a millisecond, until app_quit is set (or the duties'
 * thread ended); then the line that says why the run stopped.
 *
 * @return The run's duration in seconds.
 */
double app_run_wait(struct app_run *r);

/** Ask every loop to stop. Any thread. */
void app_run_stop(void);

/**
 * After the lcores returned: close the ports (their rings give the mbufs
 * back), print the table, check for leaks, write --json.
 *
 * @return The exit status: APP_EXIT_OK, APP_EXIT_LEAK or APP_EXIT_SETUP.
 */
int app_run_report(const struct app_opts *o, double duration_s);

/** Close the ports, free the pools, npool_fini(), rte_eal_cleanup(). */
void app_run_cleanup(void);

/**
 * A plain pthread named @p name running @p fn(@p arg), on the CPUs no
 * lcore runs on (DPDK's control threads' set), else on any.
 *
 * @return 0, or -1 after app_err().
 */
int app_thread_start(pthread_t *tid, const char *name, void *(*fn)(void *),
		void *arg);

#endif /* APP_RUN_H */
