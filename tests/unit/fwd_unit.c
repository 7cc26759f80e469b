/* SPDX-License-Identifier: BSD-3-Clause */
/* npool-fwd's unit test configuration (fwd_unit.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ring.h>

#include "fwd_ctlmsg.h"
#include "fwd_mroute.h"
#include "fwd_unit.h"

/* Slots of each port's ring: the fragments of a burst of jumbo frames
 * cut at --mtu 68 fit. */
#define FU_RING_SIZE 16384

/* @p text in a new temporary file; its path, to free(). */
static char *
route_file(const char *text)
{
	char *path = strdup("/tmp/np-fwd-ut-XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* The fragment pools of the tables, as main.c makes them (once). */
static void
fu_frag_pools(struct fwd_conf *fc)
{
	static struct rte_mempool *direct, *indirect;

	if (direct == NULL) {
		direct = rte_pktmbuf_pool_create("fu_frag_dir", 4096, 0, 0,
				RTE_PKTMBUF_HEADROOM + 64, SOCKET_ID_ANY);
		indirect = rte_pktmbuf_pool_create("fu_frag_ind", 8192, 0, 0,
				0, SOCKET_ID_ANY);
	}
	assert_non_null(direct);
	assert_non_null(indirect);
	fc->t.frag_direct = direct;
	fc->t.frag_indirect = indirect;
}

void
fu_conf_init(struct fwd_conf *fc, enum fwd_lookup lookup, uint64_t portmask,
		const char *r4, const char *r6)
{
	fu_conf_init_addrs(fc, lookup, portmask, r4, r6, NULL);
}

void
fu_conf_init_addrs(struct fwd_conf *fc, enum fwd_lookup lookup,
		uint64_t portmask, const char *r4, const char *r6,
		struct fwd_addrs *addrs)
{
	char *p4 = route_file(r4), *p6 = route_file(r6);
	unsigned int p;
	int rc;

	memset(fc, 0, sizeof(*fc));
	fc->t.lookup = lookup;
	fc->t.portmask = portmask;
	fc->t.mtu = 1500;
	fc->rule4 = p4;
	fc->rule6 = p6;
	fc->addrs = addrs;
	rc = fwd_routes_load(fc);
	unlink(p4);
	unlink(p6);
	free(p4);
	free(p6);
	fc->rule4 = fc->rule6 = NULL;
	assert_int_equal(rc, 0);
	fu_frag_pools(fc);
	assert_true(lookup == FWD_LOOKUP_EM ?
			fc->t.em4 != NULL && fc->t.em6 != NULL &&
			fc->t.lpm4 == NULL && fc->t.fib4 == NULL :
			lookup == FWD_LOOKUP_FIB ?
			fc->t.fib4 != NULL && fc->t.fib6 != NULL &&
			fc->t.lpm4 == NULL && fc->t.lpm6 == NULL :
			fc->t.lpm4 != NULL && fc->t.lpm6 != NULL &&
			fc->t.fib4 == NULL && fc->t.fib6 == NULL);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		fc->t.l2[p].dst.addr_bytes[0] = 0x02;
		fc->t.l2[p].dst.addr_bytes[5] = (uint8_t)p;
		fu_port_mac((uint16_t)p, fc->t.l2[p].src.addr_bytes);
	}
	fwd_tables_l2_prepare(&fc->t);
}

void
fu_port_mac(uint16_t port, uint8_t mac[6])
{
	static const uint8_t base[6] = { 0x02, 0, 0, 0, 0x01, 0 };

	memcpy(mac, base, sizeof(base));
	mac[5] = (uint8_t)port;
}

void
fu_conf_mroutes(struct fwd_conf *fc, const char *text)
{
	char *p = route_file(text);

	assert_int_equal(fwd_mroutes_load(fc, p), 0);
	unlink(p);
	free(p);
}

void
fu_conf_portmask(struct fwd_conf *fc, uint64_t portmask)
{
	struct fwd_conf t;

	fc->t.portmask = portmask;
	assert_int_equal(fwd_routes_copy(&t, fc, fc->socket_id), 0);
	fwd_routes_free_tables(fc);
	fc->t.lpm4 = t.t.lpm4;
	fc->t.lpm6 = t.t.lpm6;
	fc->t.fib4 = t.t.fib4;
	fc->t.fib6 = t.t.fib6;
	fc->t.def4 = t.t.def4;
	fc->t.def6 = t.t.def6;
}

void
fu_hold_init(struct fwd_conf *fc, unsigned int slots)
{
	struct fwd_hold_gate *g = calloc(1, sizeof(*g));

	assert_non_null(g);
	rte_spinlock_init(&g->lock);
	fc->t.hold = rte_ring_create("fu_hold", slots, SOCKET_ID_ANY,
			RING_F_SC_DEQ | RING_F_EXACT_SZ);
	assert_non_null(fc->t.hold);
	fc->t.gate = g;
}

unsigned int
fu_hold_free(struct fwd_conf *fc)
{
	struct rte_mbuf *m;
	unsigned int n = 0;

	while (rte_ring_sc_dequeue(fc->t.hold, (void **)&m) == 0) {
		rte_pktmbuf_free(m);
		n++;
	}
	rte_ring_free(fc->t.hold);
	free(fc->t.gate);
	fc->t.hold = NULL;
	fc->t.gate = NULL;
	return n;
}

void
fu_ports_start(void)
{
	static const struct rte_eth_conf conf;
	static int done;
	struct rte_mempool *mp;
	struct rte_ring *r;
	char name[32];
	uint16_t p;
	int id;

	if (done)
		return;
	/* RX queue set-up wants a pool; the ring PMD takes none from it. */
	mp = rte_pktmbuf_pool_create("fu_ring_rx", 64, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	assert_non_null(mp);
	for (p = 0; p < FU_PORTS; p++) {
		snprintf(name, sizeof(name), "fu_ring%u", p);
		r = rte_ring_create(name, FU_RING_SIZE, SOCKET_ID_ANY,
				RING_F_SP_ENQ | RING_F_SC_DEQ);
		assert_non_null(r);
		id = rte_eth_from_rings(name, &r, 1, &r, 1, SOCKET_ID_ANY);
		/* The tables' port p is ethdev port p. */
		assert_int_equal(id, p);
		assert_int_equal(rte_eth_dev_configure(p, 1, 1, &conf), 0);
		assert_int_equal(rte_eth_rx_queue_setup(p, 0, 64,
				SOCKET_ID_ANY, NULL, mp), 0);
		assert_int_equal(rte_eth_tx_queue_setup(p, 0, 64,
				SOCKET_ID_ANY, NULL), 0);
		assert_int_equal(rte_eth_dev_start(p), 0);
	}
	done = 1;
}

void
fu_run_init(struct fu_run *r, const struct fwd_conf *fc)
{
	fu_ports_start();
	memset(r, 0, sizeof(*r));
	r->c.t = &fc->t;
	r->c.tx = &r->tx;
	r->c.ctr = &r->ctr;
	fwd_tx_init(&r->tx, 0, &fc->t);
}

void
fu_decide(struct fu_run *r, uint16_t in_port, struct rte_mbuf **pkts,
		uint16_t n)
{
	r->c.in_port = in_port;
	r->c.ic = &r->ctr.port[in_port];
	fwd_burst_decide(&r->c, pkts, n);
}

void
fu_drops(struct fu_run *r)
{
	fwd_burst_drops(&r->c);
}

uint16_t
fu_out(struct fu_run *r, uint16_t port, struct rte_mbuf **out, uint16_t max)
{
	uint16_t n = 0, k;

	fwd_tx_flush(&r->tx, &r->ctr, port);
	do {
		k = rte_eth_rx_burst(port, 0, out + n,
				(uint16_t)RTE_MIN(max - n, 32));
		n += k;
	} while (k != 0 && n < max);
	k = rte_eth_rx_burst(port, 0, &(struct rte_mbuf *){ NULL }, 1);
	assert_int_equal(k, 0);
	return n;
}

int
fu_decide1(struct fu_run *r, uint16_t in_port, struct rte_mbuf *m,
		uint16_t *port, struct rte_mbuf **out)
{
	struct app_port_ctr *ic = &r->ctr.port[in_port];
	uint64_t before[FWD_NB_REASONS];
	struct rte_mbuf *o[1024];
	uint16_t p, k, i;
	int v;

	memcpy(before, ic->drops, sizeof(before));
	fu_decide(r, in_port, &m, 1);
	if (r->c.nd == 1)
		return r->c.why[0];
	assert_int_equal(r->c.nd, 0);
	for (v = 0; v < FWD_NB_REASONS; v++)
		if (ic->drops[v] != before[v])
			return v;
	for (p = 0; p < FU_PORTS; p++) {
		k = fu_out(r, p, o, RTE_DIM(o));
		if (k == 0)
			continue;
		if (port != NULL)
			*port = p;
		if (k == 1 && out != NULL) {
			*out = o[0];
			return FWD_PASS;
		}
		for (i = 0; i < k; i++)
			rte_pktmbuf_free(o[i]);
		return k == 1 ? FWD_PASS : FWD_FRAGMENT;
	}
	fail_msg("a packet neither dropped nor sent");
	return -1;
}
