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

#ifdef __cplusplus
extern "C" {
#endif

/** Poll rounds between two control checks on a forwarding main lcore. */
#define APP_CTL_EVERY 256

/** @internal Set to stop every loop. */
extern volatile int app_run_quit_pvt;
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
 * Install the SIGINT/SIGTERM handlers (a signal stops the run cleanly).
 * Main lcore, right after rte_eal_init().
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

#ifdef __cplusplus
}
#endif

#endif /* APP_RUN_H */
