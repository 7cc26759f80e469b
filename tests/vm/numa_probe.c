/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * make vm-test, device "numa": an lcore allocates npool memory of its own
 * NUMA socket, and a free from another socket gives it back to the
 * instance that owns it.
 *
 * Run in the two-node guest of tests/vm/vm_numa.py, after npool-fwd, as
 *   numa_probe -l 0-2 --no-pci --socket-mem 128,128 [EAL options]
 * with hugepages on both nodes. It creates one npool per socket
 * (npool_create(), conf.socket_id), then on every lcore allocates
 * PROBE_N fragments (npool_napi_alloc_frag()) and PROBE_N packets
 * (npool_napi_alloc_pkt()) and counts the memseg socket of each
 * (rte_mem_virt2memseg(): fragment, packet head, packet data); then each
 * lcore's objects are freed by an lcore of another socket
 * (npool_free_frag(), rte_pktmbuf_free()), all at once. With the workers
 * idle the main lcore drains the fragment caches
 * (npool_frag_cache_drain_all()); each instance must then have nothing
 * out (npool_instance_usage_get()) and npool_destroy() must return 0.
 *
 * Prints one line per lcore and per instance, key=value, read by
 * vm_numa.probe_check() on the host:
 *   numa_probe: lcore lcore=L socket=S frags=N frag_memseg=S:N
 *     pkts=N head_memseg=S:N data_memseg=S:N freed_by=L2 freed_by_socket=S2
 *   numa_probe: instance socket=S lcores=K held_frags=F held_heads=H
 *     frags_out=0 heads_out=0 chunks_in_use=0 destroy=0
 * (memseg histograms: socket:count,...; "none" for an address in no
 * memseg). Exit status: 0 if every object came from the allocating
 * lcore's socket and everything went back, 1 otherwise, 2 for bad EAL
 * options or lcores not on two sockets.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memory.h>

#include <npool.h>

#define PROBE_N 256             /* objects of each kind per lcore */
#define PROBE_FRAG_SIZE 512     /* bytes per fragment */
#define PROBE_PKT_LEN 1024      /* room per packet: a big-chunk fragment */
#define PROBE_NB_CHUNKS 64      /* 2 MiB arena per instance */
#define PROBE_NB_HEADS 2047

/* Memseg sockets of a set of addresses: [socket + 1]; [0] counts none. */
struct probe_histo {
	unsigned int n[RTE_MAX_NUMA_NODES + 1];
};

struct probe_lcore {
	bool used;
	int socket;
	unsigned int freer;       /* the lcore that frees these objects */
	void *frag[PROBE_N];
	struct rte_mbuf *pkt[PROBE_N];
	struct probe_histo frag_on, head_on, data_on;
	int err;                  /* rte_errno of a failed allocation */
};

static struct probe_lcore probe_lc[RTE_MAX_LCORE];
static struct npool *probe_np[RTE_MAX_NUMA_NODES];

static void
histo_add(struct probe_histo *h, const void *p)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(p, NULL);

	if (ms == NULL || ms->socket_id < 0 ||
			ms->socket_id >= RTE_MAX_NUMA_NODES)
		h->n[0]++;
	else
		h->n[ms->socket_id + 1]++;
}

/* True if all PROBE_N addresses are on @p socket. */
static bool
histo_only(const struct probe_histo *h, int socket)
{
	return h->n[socket + 1] == PROBE_N;
}

static void
histo_print(const char *key, const struct probe_histo *h)
{
	const char *sep = "";
	unsigned int i;

	printf(" %s=", key);
	for (i = 0; i <= RTE_MAX_NUMA_NODES; i++) {
		if (h->n[i] == 0)
			continue;
		if (i == 0)
			printf("%snone:%u", sep, h->n[i]);
		else
			printf("%s%u:%u", sep, i - 1, h->n[i]);
		sep = ",";
	}
	if (*sep == '\0')
		printf("none:0");
}

/* Launched on every lcore: PROBE_N fragments and PROBE_N packets. */
static int
probe_alloc(void *arg __rte_unused)
{
	struct probe_lcore *lc = &probe_lc[rte_lcore_id()];
	unsigned int i;

	for (i = 0; i < PROBE_N; i++) {
		lc->frag[i] = npool_napi_alloc_frag(PROBE_FRAG_SIZE);
		lc->pkt[i] = npool_napi_alloc_pkt(PROBE_PKT_LEN);
		if (lc->frag[i] == NULL || lc->pkt[i] == NULL) {
			lc->err = rte_errno;
			return -1;
		}
		histo_add(&lc->frag_on, lc->frag[i]);
		histo_add(&lc->head_on, lc->pkt[i]);
		histo_add(&lc->data_on, lc->pkt[i]->buf_addr);
	}
	return 0;
}

/* Launched on every lcore: free the objects of the lcores it frees for. */
static int
probe_free(void *arg __rte_unused)
{
	unsigned int me = rte_lcore_id(), l, i;

	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct probe_lcore *lc = &probe_lc[l];

		if (!lc->used || lc->freer != me)
			continue;
		for (i = 0; i < PROBE_N; i++) {
			npool_free_frag(lc->frag[i]);
			rte_pktmbuf_free(lc->pkt[i]);
			lc->frag[i] = NULL;
			lc->pkt[i] = NULL;
		}
	}
	return 0;
}

/* Run @p fn on every lcore, the main one included; 0 if all returned 0. */
static int
probe_everywhere(lcore_function_t *fn)
{
	unsigned int l;
	int ret;

	RTE_LCORE_FOREACH_WORKER(l)
		if (rte_eal_remote_launch(fn, NULL, l) != 0)
			return -1;
	ret = fn(NULL);
	RTE_LCORE_FOREACH_WORKER(l)
		ret |= rte_eal_wait_lcore(l);
	return ret;
}

/* Each lcore's freer: the first lcore of another socket. */
static int
probe_plan(void)
{
	unsigned int l, f;

	RTE_LCORE_FOREACH(l) {
		probe_lc[l].used = true;
		probe_lc[l].socket = (int)rte_lcore_to_socket_id(l);
		probe_lc[l].freer = RTE_MAX_LCORE;
		RTE_LCORE_FOREACH(f) {
			if ((int)rte_lcore_to_socket_id(f) != probe_lc[l].socket) {
				probe_lc[l].freer = f;
				break;
			}
		}
		if (probe_lc[l].freer == RTE_MAX_LCORE ||
				probe_lc[l].socket >= RTE_MAX_NUMA_NODES) {
			fprintf(stderr, "numa_probe: lcore %u (socket %d) has no "
					"lcore on another socket: give -l lcores of two "
					"NUMA nodes\n", l, probe_lc[l].socket);
			return -1;
		}
	}
	return 0;
}

/* One npool per socket of an lcore; the API's contract on the way. */
static int
probe_create(void)
{
	struct npool_conf conf;
	unsigned int l;
	int s;

	RTE_LCORE_FOREACH(l) {
		s = probe_lc[l].socket;
		if (probe_np[s] != NULL)
			continue;
		npool_conf_defaults(&conf);
		conf.socket_id = s;
		conf.nb_chunks = PROBE_NB_CHUNKS;
		conf.nb_heads = PROBE_NB_HEADS;
		/* Head + fragment packets, whose heads and data it counts
		 * (a mid-size packet is one object of another pool). */
		conf.mid_len = 0;
		probe_np[s] = npool_create(&conf);
		if (probe_np[s] == NULL) {
			fprintf(stderr, "numa_probe: npool_create(socket %d): %s\n",
					s, rte_strerror(rte_errno));
			return -1;
		}
		if (npool_lookup_socket(s) != probe_np[s] ||
				npool_socket_id(probe_np[s]) != s) {
			fprintf(stderr, "numa_probe: socket %d: npool_lookup_socket() "
					"%p, npool_socket_id() %d (want %p, %d)\n", s,
					(void *)npool_lookup_socket(s),
					npool_socket_id(probe_np[s]), (void *)probe_np[s], s);
			return -1;
		}
		if (npool_create(&conf) != NULL || rte_errno != EEXIST) {
			fprintf(stderr, "numa_probe: a second npool_create(socket %d) "
					"did not fail with EEXIST\n", s);
			return -1;
		}
	}
	return 0;
}

static bool
probe_report_lcores(void)
{
	bool ok = true;
	unsigned int l;

	RTE_LCORE_FOREACH(l) {
		const struct probe_lcore *lc = &probe_lc[l];

		printf("numa_probe: lcore lcore=%u socket=%d frags=%u", l,
				lc->socket, PROBE_N);
		histo_print("frag_memseg", &lc->frag_on);
		printf(" pkts=%u", PROBE_N);
		histo_print("head_memseg", &lc->head_on);
		histo_print("data_memseg", &lc->data_on);
		printf(" freed_by=%u freed_by_socket=%d\n", lc->freer,
				probe_lc[lc->freer].socket);
		ok &= histo_only(&lc->frag_on, lc->socket) &&
			histo_only(&lc->head_on, lc->socket) &&
			histo_only(&lc->data_on, lc->socket);
	}
	return ok;
}

/* Objects the instance of @p s must hold after the allocations. */
static unsigned int
lcores_on(int s)
{
	unsigned int l, n = 0;

	RTE_LCORE_FOREACH(l)
		n += probe_lc[l].socket == s;
	return n;
}

int
main(int argc, char **argv)
{
	struct npool_usage held[RTE_MAX_NUMA_NODES], u;
	bool ok = true;
	int s, ret;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "numa_probe: rte_eal_init: %s\n",
				rte_strerror(rte_errno));
		return 2;
	}
	if (probe_plan() != 0) {
		rte_eal_cleanup();
		return 2;
	}
	memset(held, 0, sizeof(held));
	if (probe_create() != 0)
		ok = false;
	if (ok && probe_everywhere(probe_alloc) != 0) {
		fprintf(stderr, "numa_probe: an allocation failed\n");
		ok = false;
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (probe_np[s] != NULL)
			npool_instance_usage_get(probe_np[s], &held[s]);
	if (ok) {
		ok = probe_report_lcores();
		/* Cross-socket frees, every lcore at once. */
		ok &= probe_everywhere(probe_free) == 0;
	}
	/* The workers are idle now: their napi caches can be drained. */
	npool_frag_cache_drain_all();
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		unsigned int k;

		if (probe_np[s] == NULL)
			continue;
		k = lcores_on(s);
		memset(&u, 0xff, sizeof(u));
		ret = npool_instance_usage_get(probe_np[s], &u);
		ok &= ret == 0 && u.frags_out == 0 && u.heads_out == 0 &&
			u.chunks_in_use == 0;
		/* Fragments and packets of its own lcores only. */
		ok &= held[s].frags_out >= PROBE_N * k &&
			held[s].heads_out >= PROBE_N * k;
		ret = npool_destroy(probe_np[s]);
		ok &= ret == 0;
		printf("numa_probe: instance socket=%d lcores=%u held_frags=%" PRId64
				" held_heads=%u frags_out=%" PRId64 " heads_out=%u "
				"chunks_in_use=%u destroy=%d\n", s, k,
				held[s].frags_out, held[s].heads_out, u.frags_out,
				u.heads_out, u.chunks_in_use, ret);
		probe_np[s] = NULL;
	}
	printf("numa_probe: %s\n", ok ? "PASS" : "FAIL");
	rte_eal_cleanup();
	return ok ? 0 : 1;
}
