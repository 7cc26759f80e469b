/* SPDX-License-Identifier: BSD-3-Clause */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"

volatile int app_run_quit_pvt;
static volatile sig_atomic_t signal_seen;

static struct {
	const struct app_opts *o;
	uint64_t hz;
	uint64_t t0;
	uint64_t t_stop;
	uint64_t next_check;
	uint64_t next_stats;
	uint64_t last_rx;
	uint64_t last_rx_tsc;
} run;

static void
on_signal(int sig)
{
	signal_seen = sig;
	app_run_quit_pvt = 1;
}

void
app_run_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool
app_run_stopping(void)
{
	return app_run_quit_pvt != 0;
}

void
app_run_stop(void)
{
	app_run_quit_pvt = 1;
}

static void
stop_at(uint64_t now, const char *why)
{
	if (run.t_stop == 0) {
		run.t_stop = now;
		printf("stopping: %s\n", why);
		fflush(stdout);
	}
	app_run_quit_pvt = 1;
}

void
app_run_control_pvt(void)
{
	const struct app_opts *o = run.o;
	uint64_t now = rte_rdtsc(), rx;
	char why[64];

	if (now < run.next_check)
		return;
	/* Timers are checked once a millisecond. */
	run.next_check = now + run.hz / 1000;
	if (signal_seen != 0) {
		snprintf(why, sizeof(why), "signal %d", (int)signal_seen);
		stop_at(now, why);
	}
	if (o->duration_s > 0 &&
			now - run.t0 >= (uint64_t)(o->duration_s * run.hz))
		stop_at(now, "--duration reached");
	if (o->idle_ms > 0) {
		rx = app_stats_rx_total();
		if (rx != run.last_rx) {
			run.last_rx = rx;
			run.last_rx_tsc = now;
		} else if (now - run.last_rx_tsc >=
				o->idle_ms * run.hz / 1000) {
			stop_at(now, "--idle-exit: no packet received");
		}
	}
	if (o->stats_s > 0 && now >= run.next_stats) {
		run.next_stats += o->stats_s * run.hz;
		app_stats_print_periodic((double)(now - run.t0) / run.hz);
	}
}

double
app_run(const struct app_opts *o, lcore_function_t *fn, void *arg)
{
	unsigned int main_lcore = rte_get_main_lcore(), l;
	int ret;

	memset(&run, 0, sizeof(run));
	run.o = o;
	run.hz = rte_get_tsc_hz();
	run.t0 = rte_rdtsc();
	run.last_rx_tsc = run.t0;
	run.next_stats = run.t0 + o->stats_s * run.hz;
	RTE_LCORE_FOREACH_WORKER(l) {
		if (app_lcores[l].nb_rxq == 0)
			continue;
		ret = rte_eal_remote_launch(fn, arg, l);
		if (ret != 0) {
			app_err("lcore %u: launch: %s", l, strerror(-ret));
			app_run_quit_pvt = 1;
		}
	}
	if (app_lcores[main_lcore].nb_rxq != 0) {
		fn(arg);
	} else {
		while (!app_run_quit_pvt) {
			rte_delay_us_sleep(1000);
			app_run_control_pvt();
		}
	}
	if (run.t_stop == 0)
		stop_at(rte_rdtsc(), signal_seen ? "signal" : "stopped");
	rte_eal_mp_wait_lcore();
	return (double)(run.t_stop - run.t0) / run.hz;
}
