/* SPDX-License-Identifier: BSD-3-Clause */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>

#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_pdump.h>

#include "app_numa.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "app_telemetry.h"

volatile int app_run_quit_pvt;
unsigned int app_run_started_pvt;
static volatile sig_atomic_t signal_seen;
static bool eal_up;
static bool pdump_up;

static struct {
	const struct app_opts *o;
	uint64_t hz;
	uint64_t t0;
	uint64_t t_stop;
	uint64_t next_check;
	uint64_t next_stats;
	uint64_t last_rx;
	uint64_t last_rx_tsc;
	unsigned int nb_loops;  /* lcores that run the app's loop */
} run;

/*
 * The first SIGINT/SIGTERM asks for a clean stop: the lcores finish their
 * burst, flush and stop, the report and the leak check follow. A second
 * one, while the first is being acted on, is the user insisting (a stop
 * stuck in a driver call): the default action, at once, no report.
 */
static void
on_signal(int sig)
{
	if (signal_seen != 0) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	signal_seen = sig;
	app_run_quit_pvt = 1;
}

void
app_run_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* Slow system calls in EAL's and telemetry's threads resume (a
	 * telemetry listener quits on an interrupted accept()); poll() and
	 * sleeps in the lcores still return early. */
	sa.sa_flags = SA_RESTART;
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
		/* Not idle before every lcore has polled once: a worker
		 * launched late on a loaded machine would find its queue
		 * drained at the stop, nothing received. */
		if (__atomic_load_n(&app_run_started_pvt, __ATOMIC_ACQUIRE) <
				run.nb_loops || rx != run.last_rx) {
			run.last_rx = rx;
			run.last_rx_tsc = now;
		} else if (now - run.last_rx_tsc >=
				o->idle_ms * run.hz / 1000) {
			stop_at(now, "--idle-exit: no packet received");
		}
	}
	/* No periodic line once stopping: the final table follows. */
	if (o->stats_s > 0 && now >= run.next_stats && !app_run_quit_pvt) {
		run.next_stats += o->stats_s * run.hz;
		app_stats_print_periodic((double)(now - run.t0) / run.hz);
	}
}

double
app_run(const struct app_opts *o, lcore_function_t *fn, void *arg)
{
	unsigned int main_lcore = rte_get_main_lcore(), l;
	char why[32];
	int ret;

	memset(&run, 0, sizeof(run));
	run.o = o;
	run.hz = rte_get_tsc_hz();
	run.t0 = rte_rdtsc();
	run.last_rx_tsc = run.t0;
	run.next_stats = run.t0 + o->stats_s * run.hz;
	app_run_started_pvt = 0;
	run.nb_loops = app_lcores[main_lcore].nb_rxq != 0;
	RTE_LCORE_FOREACH_WORKER(l) {
		if (app_lcores[l].nb_rxq == 0)
			continue;
		ret = rte_eal_remote_launch(fn, arg, l);
		if (ret == 0)
			run.nb_loops++;
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
	if (run.t_stop == 0) {
		snprintf(why, sizeof(why), "signal %d", (int)signal_seen);
		stop_at(rte_rdtsc(), signal_seen ? why :
				"every lcore finished its work (--count reached)");
	}
	rte_eal_mp_wait_lcore();
	return (double)(run.t_stop - run.t0) / run.hz;
}

/*
 * EAL goes on when a vdev fails to probe (a missing pcap file, an
 * interface that does not exist): the ports are then numbered without it
 * and -p would name the wrong port or none. Every device of the vdev bus
 * (however --vdev was spelled, and whatever its ethdev is called: a
 * net_ring's is its node name) must have probed.
 */
static int
vdevs_check(const char *prog)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;
	int bad = 0;

	RTE_DEV_FOREACH(dev, "bus=vdev", &it) {
		if (rte_dev_is_probed(dev))
			continue;
		fprintf(stderr, "%s: --vdev %s: the device failed to probe (see the EAL and PMD messages above); no port was made for it\n",
				prog, rte_dev_name(dev));
		bad = -1;
	}
	return bad;
}

/*
 * rte_eal_init() sets rte_errno on some failures only: when it holds 0
 * the likely cause is the runtime folder's lock (another primary process
 * with the same --file-prefix, DPDK 22.11's "Cannot init config").
 */
static int
eal_failed(const char *prog, int err)
{
	const char *hint;

	switch (err) {
	case EINVAL:
		/* EAL's getopt: an option it does not know, often an app
		 * option given before the "--". A command-line error. */
		hint = "a bad EAL option (see above)? EAL options come first, then \"--\", then the app's own such as -p";
		break;
	case 0:
		hint = "is another DPDK process running with the same --file-prefix? give each process its own --file-prefix NAME";
		break;
	case EACCES:
	case ENOMEM:
		hint = "no usable hugepages? reserve them (/proc/sys/vm/nr_hugepages) and mount hugetlbfs (mount -t hugetlbfs nodev /dev/hugepages), or add --no-huge -m 1024";
		break;
	case EALREADY:
		hint = "EAL was already initialised in this process";
		break;
	default:
		hint = "see the EAL messages above";
		break;
	}
	if (err != 0)
		fprintf(stderr, "%s: EAL initialisation failed: %s (%s)\n",
				prog, rte_strerror(err), hint);
	else
		fprintf(stderr, "%s: EAL initialisation failed (%s)\n", prog,
				hint);
	return err == EINVAL ? APP_EXIT_USAGE : APP_EXIT_SETUP;
}

/*
 * DPDK's capture tools (dpdk-dumpcap, dpdk-pdump) are secondary processes
 * that ask the primary, over EAL's multi-process channel, to copy what
 * its ports receive and send. Without that channel (--no-shconf,
 * --in-memory) rte_pdump_init() still succeeds and nothing can attach;
 * a real failure is said once and the run goes on.
 */
static void
pdump_init(const char *prog)
{
	if (rte_pdump_init() == 0) {
		pdump_up = true;
		return;
	}
	printf("%s: rte_pdump_init: %s; dpdk-dumpcap cannot attach to this run\n",
			prog, rte_strerror(rte_errno));
}

int
app_run_init(int argc, char **argv, struct app_opts *o, const char *prog,
		const struct app_cli *cli)
{
	int ret, i;

	/* Before rte_eal_init(), which may take seconds: a signal in the
	 * meantime ends the run as soon as it starts (an inherited SIG_IGN,
	 * as for background jobs, would lose it, SIG_DFL kill the app
	 * half set up). */
	app_run_signals();
	/* Periodic stats read through a pipe (| tee, a test harness) show
	 * up as they are printed, not at exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The app's own help needs no EAL (nor hugepages): answer it first. */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		;
	for (i++; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
				strcmp(argv[i], "--help") == 0) {
			app_opts_defaults(o, prog);
			app_cli_usage(stdout, o, cli);
			return APP_EXIT_OK;
		}
	}
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return eal_failed(prog, rte_errno);
	eal_up = true;
	if (vdevs_check(prog) != 0)
		return APP_EXIT_SETUP;
	pdump_init(prog);
	app_telemetry_register();
	app_opts_defaults(o, prog);
	ret = app_cli_parse(argc - ret, argv + ret, o, cli);
	if (ret != 0)
		return ret > 0 ? APP_EXIT_OK : APP_EXIT_USAGE;
	app_numa_init(o);
	return -1;
}

int
app_run_report(const struct app_opts *o, double duration_s)
{
	struct app_leak lk;
	int status = APP_EXIT_OK;

	app_stats_read_eth();
	app_ports_close();
	app_stats_print_final(stdout, duration_s);
	app_pool_leak_check(stdout, &lk);
	if (o->json != NULL &&
			app_stats_write_json(o->json, duration_s, &lk) < 0)
		status = APP_EXIT_SETUP;
	if (!lk.ok)
		status = APP_EXIT_LEAK;
	return status;
}

void
app_run_cleanup(void)
{
	app_ports_close();
	app_pool_fini();
	if (pdump_up)
		rte_pdump_uninit();
	pdump_up = false;
	if (eal_up)
		rte_eal_cleanup();
	eal_up = false;
}
