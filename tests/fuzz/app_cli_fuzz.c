/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the apps' command line, as npool-fwd parses it
 * (fwd_cli_parse() over app_cli_next(): -p, --config, --eth-dest, the
 * numbers, --json...) with two ports (net_null) and lcores 0-1. The input
 * is the argument list after "--", NUL-separated; an argument holding a
 * '/' becomes "x", and the parse runs in a temporary folder of its own, so
 * that --json only ever creates (and removes) files there.
 *
 * Checked: the parser returns (never exits), the same arguments parse
 * twice to the same result (no state left from an earlier parse); a
 * command line it takes has a port mask of existing ports and a --config
 * the apps can run (ports enabled, lcores enabled, queues 0..n-1 of each
 * port, no duplicate, at most 16 a lcore), every number in its documented
 * range, and its --config printed back parses to the same entries. The
 * number and MAC parsers, fed each argument alone, take exactly the
 * strings of their documented syntax.
 */
#include <ctype.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "npool.h"
#include "app_cli.h"
#include "fwd.h"
#include "fwd_cli.h"
#include "fuzz_common.h"

#define FZ_MAX_ARGS 64

/* /tmp/np-fz-cli-<pid>: scripts/fuzz.sh removes it after a crash. */
static char fz_dir[64];
static int fz_cwd;

static int
fz_parse(int argc, char *const *args, struct app_opts *o,
		struct fwd_conf *fc)
{
	char *argv[FZ_MAX_ARGS + 2];
	struct app_cli cli;

	/* getopt_long() permutes the array: each parse gets a copy. */
	memcpy(argv, args, (argc + 1) * sizeof(*argv));
	app_opts_defaults(o, "npool-fwd");
	memset(fc, 0, sizeof(*fc));
	fc->t.mtu = RTE_ETHER_MTU;
	fwd_cli_init(&cli, fc);
	/* 0 to run; 1 after --help; -1 after an error line. */
	if (fwd_cli_parse(&cli, o, fc, argc, argv) == 0)
		return 0;
	return cli.status == APP_EXIT_OK ? 1 : -1;
}

/* What the apps may start with (app_cli.h, the usage). */
static void
fz_check_taken(const struct app_opts *o, const struct fwd_conf *fc)
{
	uint32_t nq[RTE_MAX_ETHPORTS] = { 0 }, per_lcore[RTE_MAX_LCORE] = { 0 };
	uint8_t seen[RTE_MAX_ETHPORTS][APP_MAX_RXQ] = { { 0 } };
	/* The usage's ranges; unset: the value meaning "not given". */
	const struct {
		const char *flag;
		uint64_t v, unset, min, max;
	} ranges[] = {
		{ "--copybreak", o->copybreak, 0, 0, NPOOL_PKT_MAX_LEN },
		{ "--nb-mbufs", o->nb_mbufs, 0, 1, 1 << 24 },
		{ "--nb-chunks", o->nb_chunks, 0, 1, 1 << 20 },
		{ "--nb-small-chunks", o->nb_small_chunks, APP_NPOOL_DEFAULT,
			0, 1 << 20 },
		{ "--nb-heads", o->nb_heads, 0, 64, 1 << 24 },
		{ "--nb-mid", o->nb_mid, APP_NPOOL_DEFAULT, 0, 1 << 24 },
		{ "--mbuf-size", o->mbuf_size, 0, RTE_PKTMBUF_HEADROOM + 64,
			UINT16_MAX },
		{ "--mbcache", o->mbcache, 0, 0, RTE_MEMPOOL_CACHE_MAX_SIZE },
		{ "--stats", o->stats_s, 0, 0, 86400 },
		{ "--idle-exit", o->idle_ms, 0, 0, UINT32_MAX },
		{ "--mtu", fc->t.mtu, 0, RTE_ETHER_MIN_MTU, UINT16_MAX },
		{ "--rx-queue-size", o->nb_rxd, 0, 1, UINT16_MAX },
		{ "--tx-queue-size", o->nb_txd, 0, 1, UINT16_MAX },
		{ "--max-pkt-len", fc->max_pkt_len, 0, 86, 9600 },
	};
	unsigned int i, p;

	FZ_CHECK(o->portmask != 0, "no port");
	for (p = 0; p < 64; p++)
		FZ_CHECK(!((o->portmask >> p) & 1) || (p < RTE_MAX_ETHPORTS &&
				rte_eth_dev_is_valid_port(p)),
				"port %u is not there", p);
	FZ_CHECK(o->nb_rxq >= 1 && o->nb_rxq <= APP_MAX_RXQ, "%u queues",
			o->nb_rxq);
	for (i = 0; i < o->nb_rxq; i++) {
		const struct app_rxq_map *m = &o->rxq[i];

		FZ_CHECK(m->port < RTE_MAX_ETHPORTS &&
				((o->portmask >> m->port) & 1) &&
				rte_lcore_is_enabled(m->lcore) &&
				m->queue < APP_MAX_RXQ && !seen[m->port][m->queue],
				"entry %u (%u,%u,%u)", i, m->port, m->queue,
				m->lcore);
		seen[m->port][m->queue] = 1;
		nq[m->port]++;
		FZ_CHECK(++per_lcore[m->lcore] <= APP_MAX_RXQ_PER_LCORE,
				"lcore %u: too many queues", m->lcore);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		FZ_CHECK(((o->portmask >> p) & 1) == (nq[p] != 0),
				"port %u: %u queues", p, nq[p]);
		for (i = 0; i < nq[p]; i++)
			FZ_CHECK(seen[p][i], "port %u: queue %u missing", p, i);
	}
	for (i = 0; i < RTE_DIM(ranges); i++)
		FZ_CHECK(ranges[i].v == ranges[i].unset ||
				(ranges[i].v >= ranges[i].min &&
				 ranges[i].v <= ranges[i].max),
				"%s %lu out of %lu..%lu", ranges[i].flag,
				(unsigned long)ranges[i].v,
				(unsigned long)ranges[i].min,
				(unsigned long)ranges[i].max);
	FZ_CHECK(o->duration_s >= 0 && o->duration_s <= 1e9 &&
			(o->json == NULL || o->json[0] != '\0'),
			"--duration %g or an empty --json", o->duration_s);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		FZ_CHECK(!((fc->eth_dest_set >> p) & 1) ||
				rte_eth_dev_is_valid_port(p),
				"--eth-dest of port %u", p);
	/* --max-pkt-len N is --mtu N - 18; never both. */
	FZ_CHECK(fc->max_pkt_len == 0 || (!fc->mtu_set &&
			fc->t.mtu == fc->max_pkt_len - 18),
			"--max-pkt-len %u with --mtu %u (given: %d)",
			fc->max_pkt_len, fc->t.mtu, fc->mtu_set);
}

/* The --config taken, printed back, parses to the same entries. */
static void
fz_config_round_trip(const struct app_opts *o)
{
	static struct app_opts again;
	char text[APP_MAX_RXQ * 24];
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < o->nb_rxq; i++)
		len += snprintf(text + len, sizeof(text) - len, "%s(%u,%u,%u)",
				i ? "," : "", o->rxq[i].port, o->rxq[i].queue,
				o->rxq[i].lcore);
	FZ_CHECK(app_parse_config("--config", text, again.rxq,
			&again.nb_rxq) == 0 &&
			again.nb_rxq == o->nb_rxq &&
			memcmp(again.rxq, o->rxq,
				o->nb_rxq * sizeof(o->rxq[0])) == 0,
			"--config %s does not parse back", text);
}

/* Decimal digits, or hexadecimal digits after 0x (all of them with
 * @p hex), at least one, nothing else. */
static bool
fz_number_syntax(const char *s, bool hex)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		hex = true;
	}
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!(hex ? isxdigit((unsigned char)*s) :
				isdigit((unsigned char)*s)))
			return false;
	return true;
}

static bool
fz_mac_syntax(const char *s)
{
	unsigned int i;

	if (strlen(s) != 17)
		return false;
	for (i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Each parser alone on @p s. */
static void
fz_check_value_parsers(const char *s)
{
	struct rte_ether_addr mac;
	unsigned long long want;
	uint64_t v = 0, mask = 0;
	bool dec = fz_number_syntax(s, false), hex = fz_number_syntax(s, true);
	char *end;
	int rc;

	errno = 0;
	want = strtoull(s + (s[0] == '0' && (s[1] | 0x20) == 'x' ? 2 : 0),
			&end, dec && !(s[0] == '0' && (s[1] | 0x20) == 'x') ?
			10 : 16);
	rc = app_parse_u64("-n", s, 0, UINT64_MAX, &v);
	FZ_CHECK((rc == 0) == (dec && errno == 0) && (rc != 0 || v == want),
			"app_parse_u64(\"%s\"): %d, %lu", s, rc,
			(unsigned long)v);
	errno = 0;
	want = strtoull(s, &end, 16);
	rc = app_parse_portmask("-p", s, &mask);
	FZ_CHECK((rc == 0) == (hex && errno == 0 && want != 0) &&
			(rc != 0 || mask == want),
			"app_parse_portmask(\"%s\"): %d", s, rc);
	rc = app_parse_mac("--eth-dest", s, &mac);
	FZ_CHECK((rc == 0) == fz_mac_syntax(s), "app_parse_mac(\"%s\"): %d",
			s, rc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct app_opts o1, o2;
	static struct fwd_conf fc1, fc2;
	char *args[FZ_MAX_ARGS + 2];
	char *buf = malloc(size + 1);
	int argc = 1, rc1, rc2, i;
	size_t k = 0;

	FZ_CHECK(buf != NULL, "malloc");
	memcpy(buf, data, size);
	buf[size] = '\0';
	args[0] = (char *)(uintptr_t)"npool-fwd";
	while (k < size && argc <= FZ_MAX_ARGS) {
		args[argc] = buf + k;
		if (strchr(args[argc], '/') != NULL)
			args[argc] = (char *)(uintptr_t)"x";
		k += strlen(buf + k) + 1;
		argc++;
	}
	args[argc] = NULL;
	/* --json files come and go in the target's own folder. */
	FZ_CHECK(chdir(fz_dir) == 0, "chdir %s", fz_dir);
	rc1 = fz_parse(argc, args, &o1, &fc1);
	rc2 = fz_parse(argc, args, &o2, &fc2);
	FZ_CHECK(fchdir(fz_cwd) == 0, "back to the working folder");
	/* The --neigh array is a parse's one allocation: the same entries,
	 * then freed (a parse is not the app's whole life here). */
	FZ_CHECK(fc1.nb_neigh == fc2.nb_neigh && (fc1.nb_neigh == 0 ||
			memcmp(fc1.neigh, fc2.neigh,
			fc1.nb_neigh * sizeof(*fc1.neigh)) == 0),
			"--neigh parsed twice: %u then %u entries, or others",
			fc1.nb_neigh, fc2.nb_neigh);
	free(fc1.neigh);
	free(fc2.neigh);
	fc1.neigh = NULL;
	fc2.neigh = NULL;
	FZ_CHECK(rc1 == rc2 && memcmp(&o1, &o2, sizeof(o1)) == 0 &&
			memcmp(&fc1, &fc2, sizeof(fc1)) == 0,
			"parsed twice: %d then %d, or another result", rc1, rc2);
	FZ_CHECK(rc1 >= -1 && rc1 <= 1, "fwd_cli_parse: %d", rc1);
	if (rc1 == 0) {
		fz_check_taken(&o1, &fc1);
		fz_config_round_trip(&o1);
	}
	for (i = 1; i < argc; i++)
		fz_check_value_parsers(args[i]);
	free(buf);
	return 0;
}

static int
fz_rm(const char *path, const struct stat *sb __rte_unused,
		int type __rte_unused, struct FTW *ftw __rte_unused)
{
	return remove(path);
}

static void
fz_rm_dir(void)
{
	nftw(fz_dir, fz_rm, 8, FTW_DEPTH | FTW_PHYS);
}

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	static const char *vdevs[] = { "--vdev=net_null0", "--vdev=net_null1" };

	fz_eal_init("app_cli", 2, vdevs);
	fz_cwd = open(".", O_RDONLY | O_DIRECTORY);
	snprintf(fz_dir, sizeof(fz_dir), "/tmp/np-fz-cli-%d", (int)getpid());
	fz_rm_dir();
	FZ_CHECK(mkdir(fz_dir, 0700) == 0 && fz_cwd >= 0, "folder %s",
			fz_dir);
	atexit(fz_rm_dir);
	return 0;
}
