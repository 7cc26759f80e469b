/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_RUN_H
#define APP_RUN_H

/**
 * @file
 * Run loop plumbing: SIGINT/SIGTERM, --duration, --idle-exit and the
 * --stats period. The lcores with RX queues run the app's loop and ask
 * app_loop_running() once per poll round; the control duties run on the
 * main lcore, inside its poll loop when it forwards too, else in a
 * sleeping loop of their own.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "app_cli.h"

/** Poll rounds between two control checks on a forwarding main lcore. */
#define APP_CTL_EVERY 256

/** @internal Set to stop every loop. */
extern volatile int app_run_quit_pvt;
/** @internal Lcores that entered their loop (app_loop_init()). */
extern unsigned int app_run_started_pvt;
/** @internal Control duties: timers, signals, idle check, stats. */
void app_run_control_pvt(void);

/** Per-lcore loop state. */
struct app_loop {
	uint32_t iter;
	bool ctl;       /**< this lcore runs the control duties */
};

/** Call once at the start of an lcore's loop. */
static inline void
app_loop_init(struct app_loop *l)
{
	l->iter = 0;
	l->ctl = rte_lcore_id() == rte_get_main_lcore();
	/* --idle-exit counts from the moment every lcore polls. */
	__atomic_fetch_add(&app_run_started_pvt, 1, __ATOMIC_RELEASE);
}

/** Whether the loop goes on; once per poll round. */
static __rte_always_inline bool
app_loop_running(struct app_loop *l)
{
	if (unlikely(l->ctl) && (++l->iter & (APP_CTL_EVERY - 1)) == 0)
		app_run_control_pvt();
	return likely(!app_run_quit_pvt);
}

/**
 * Start an app: the signal handlers, rte_eal_init(), app_opts_defaults()
 * and app_cli_parse() of what follows "--".
 *
 * @return -1 to go on; else the exit status to return after
 *   app_run_cleanup() (0 after --help, APP_EXIT_USAGE, APP_EXIT_SETUP).
 */
int app_run_init(int argc, char **argv, struct app_opts *o, const char *prog,
		const struct app_cli *cli);

/**
 * After app_run(): close the ports (their rings give the mbufs back),
 * print the table, check for leaks, write --json.
 *
 * @return The exit status: APP_EXIT_OK, APP_EXIT_LEAK or APP_EXIT_SETUP.
 */
int app_run_report(const struct app_opts *o, double duration_s);

/** Close the ports, free the pools, npool_fini(), rte_eal_cleanup(). */
void app_run_cleanup(void);

/**
 * Install the SIGINT/SIGTERM handlers: the first signal stops the run
 * cleanly (at once if it comes before app_run(): the run ends as it
 * starts), a second one before the app is done takes the signal's default
 * action (the process dies, no report). SA_RESTART. app_run_init() calls
 * it first, before rte_eal_init(); main thread.
 */
void app_run_signals(void);

/** Whether a stop was asked (signal, timer or app_run_stop()). */
bool app_run_stopping(void);

/** Ask every loop to stop. Any thread. */
void app_run_stop(void);

/**
 * Run @p fn on every lcore that polls an RX queue (app_lcores), the main
 * lcore included when it does, until a signal, --duration or
 * --idle-exit; wait for all of them.
 *
 * @return The run's duration in seconds.
 */
double app_run(const struct app_opts *o, lcore_function_t *fn, void *arg);

#endif /* APP_RUN_H */
