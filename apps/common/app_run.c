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

volatile int app_quit;
static volatile sig_atomic_t signal_seen;
static bool eal_up;
static bool pdump_up;

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
	app_quit = 1;
}

static void
signals_set(void)
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

void
app_run_stop(void)
{
	app_quit = 1;
}

static void
stop_at(struct app_run *r, uint64_t now, const char *why)
{
	if (r->t_stop == 0) {
		r->t_stop = now;
		printf("stopping: %s\n", why);
		fflush(stdout);
	}
	app_quit = 1;
}

/* The control duties, once a millisecond at most: false once stopping. */
static bool
run_check(struct app_run *r)
{
	const struct app_opts *o = r->o;
	uint64_t now = rte_rdtsc();
	char why[64];

	if (now < r->next_check)
		return !app_quit;
	r->next_check = now + r->hz / 1000;
	if (signal_seen != 0) {
		snprintf(why, sizeof(why), "signal %d", (int)signal_seen);
		stop_at(r, now, why);
	}
	if (o->duration_s > 0 &&
			now - r->t0 >= (uint64_t)(o->duration_s * r->hz))
		stop_at(r, now, "--duration reached");
	if (o->idle_ms > 0) {
		/* Not idle before every lcore has polled once (a worker
		 * launched late on a loaded machine would find its queue
		 * drained at the stop), nor while one is kept off its CPU
		 * mid-stream: idle time counts from their last packet or
		 * the last check one had not polled an empty queue. */
		if (!app_stats_idle(r->nb_loops))
			r->last_rx_tsc = now;
		else if (now - r->last_rx_tsc >= o->idle_ms * r->hz / 1000) {
			stop_at(r, now, "--idle-exit: no packet received");
		}
	}
	/* No periodic line once stopping: the final table follows. */
	if (o->stats_s > 0 && now >= r->next_stats && !app_quit) {
		r->next_stats += o->stats_s * r->hz;
		app_stats_print_periodic((double)(now - r->t0) / r->hz);
	}
	return !app_quit;
}

static void *
run_thread(void *arg)
{
	while (run_check(arg))
		rte_delay_us_sleep(1000);
	return NULL;
}

int
app_thread_start(pthread_t *tid, const char *name, void *(*fn)(void *),
		void *arg)
{
	unsigned int cpu, lcore;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE && cpu < 1024; cpu++)
		CPU_SET(cpu, &set);
	RTE_LCORE_FOREACH(lcore)
		CPU_CLR(rte_lcore_to_cpu_id((int)lcore), &set);
	ret = pthread_create(tid, NULL, fn, arg);
	if (ret != 0) {
		app_err("%s thread: %s", name, strerror(ret));
		return -1;
	}
	if (CPU_COUNT(&set) != 0)
		pthread_setaffinity_np(*tid, sizeof(set), &set);
	pthread_setname_np(*tid, name);
	return 0;
}

void
app_run_start(struct app_run *r, const struct app_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->hz = rte_get_tsc_hz();
	r->t0 = rte_rdtsc();
	r->last_rx_tsc = r->t0;
	r->next_stats = r->t0 + o->stats_s * r->hz;
	r->nb_loops = app_fwd_lcore_count();
	/* The main lcore's loop cannot look at the clock for them; without
	 * their thread the run ends as it starts. */
	r->thread = app_lcores[rte_get_main_lcore()].nb_rxq != 0;
	if (r->thread && app_thread_start(&r->tid, "app-run", run_thread,
			r) < 0) {
		r->thread = false;
		app_quit = 1;
	}
}

double
app_run_wait(struct app_run *r)
{
	char why[32];

	if (r->thread)
		pthread_join(r->tid, NULL);
	else
		run_thread(r);
	if (r->t_stop == 0) {
		snprintf(why, sizeof(why), "signal %d", (int)signal_seen);
		stop_at(r, rte_rdtsc(), signal_seen ? why :
				"every lcore finished its work (--count reached)");
	}
	return (double)(r->t_stop - r->t0) / r->hz;
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
		struct app_cli *cli)
{
	int ret, i;

	/* Before rte_eal_init(), which may take seconds: a signal in the
	 * meantime ends the run as soon as it starts (an inherited SIG_IGN,
	 * as for background jobs, would lose it, SIG_DFL kill the app
	 * half set up). */
	signals_set();
	/* Periodic stats read through a pipe (| tee, a test harness) show
	 * up as they are printed, not at exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	app_opts_defaults(o, prog);
	cli->status = APP_EXIT_SETUP;
	/* The app's own help needs no EAL (nor hugepages): answer it first. */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		;
	for (i++; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
				strcmp(argv[i], "--help") == 0) {
			app_cli_usage(stdout, o, cli);
			cli->status = APP_EXIT_OK;
			return -1;
		}
	}
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		cli->status = eal_failed(prog, rte_errno);
		return -1;
	}
	eal_up = true;
	if (vdevs_check(prog) != 0)
		return -1;
	pdump_init(prog);
	app_telemetry_register();
	return ret;
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
