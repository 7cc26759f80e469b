/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_errno.h>

#include "npool_rx.h"
#include "app_numa.h"
#include "app_pool.h"
#include "app_port.h"
#include "app_rss.h"

struct app_lcore_conf app_lcores[RTE_MAX_LCORE];
struct rte_ether_addr app_port_mac[RTE_MAX_ETHPORTS];

static struct {
	bool configured;
	bool started;
	uint16_t nb_rxq;        /* RX queues polled (--config) */
	uint16_t nb_rxq_dev;    /* RX queues set up: polled and unpolled */
	uint16_t nb_txq;
	uint16_t nb_rxd;
	uint16_t nb_txd;
	const struct npool_rx_profile *prof;
	struct npool_rx_plan plan;  /* pool and queue settings */
	struct rte_mempool *pool;   /* of the polled queues, for the others */
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	bool rx_polled;             /* the lcores poll the RX queues */
	bool rss_read_back;         /* the RETA read back equal */
	bool rss_set;               /* started once: rss is its plan */
	struct npool_rx_rss_plan rss;
} ports[RTE_MAX_ETHPORTS];

static unsigned int nb_fwd_lcores;
static const struct app_opts *opts;
static struct rte_mempool *rx_pools[RTE_MAX_NUMA_NODES];

#define MIN_POOL_MBUFS 8192u

unsigned int
app_fwd_lcore_count(void)
{
	return nb_fwd_lcores;
}

uint16_t
app_port_rxq_polled(uint16_t port)
{
	return port < RTE_MAX_ETHPORTS && ports[port].rss_set &&
		ports[port].rx_polled ? ports[port].nb_rxq : 0;
}

const struct npool_rx_rss_plan *
app_port_rss(uint16_t port, bool *read_back)
{
	if (port >= RTE_MAX_ETHPORTS || !ports[port].rss_set)
		return NULL;
	if (read_back != NULL)
		*read_back = ports[port].rss_read_back;
	return &ports[port].rss;
}

unsigned int
app_ports_tx_descs(void)
{
	unsigned int p, n = 0;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (ports[p].configured)
			n += ports[p].nb_txq * ports[p].nb_txd;
	return n;
}

/* The --config entries, per lcore; TX queue ids 0..n-1 in lcore order. */
static int
build_lcore_map(const struct app_opts *o)
{
	unsigned int i, lcore;

	memset(app_lcores, 0, sizeof(app_lcores));
	for (i = 0; i < o->nb_rxq; i++) {
		const struct app_rxq_map *m = &o->rxq[i];
		struct app_lcore_conf *lc = &app_lcores[m->lcore];

		if (lc->nb_rxq == APP_MAX_RXQ_PER_LCORE) {
			app_err("--config: lcore %u polls more than %d queues",
					m->lcore, APP_MAX_RXQ_PER_LCORE);
			return -1;
		}
		lc->rxq[lc->nb_rxq].port = m->port;
		lc->rxq[lc->nb_rxq].queue = m->queue;
		lc->nb_rxq++;
		ports[m->port].nb_rxq = RTE_MAX(ports[m->port].nb_rxq,
				(uint16_t)(m->queue + 1));
	}
	nb_fwd_lcores = 0;
	RTE_LCORE_FOREACH(lcore)
		if (app_lcores[lcore].nb_rxq != 0)
			app_lcores[lcore].txq = (uint16_t)nb_fwd_lcores++;
	return 0;
}

/* Why the plan of port @p failed, naming the flag to change. */
static void
plan_error(uint16_t p, const struct npool_rx_plan *pl, int ret,
		uint32_t max_pkt_len)
{
	const char *drv = ports[p].info.driver_name;
	const uint16_t mbuf_size = opts->mbuf_size;

	if (ret == -EINVAL && max_pkt_len != 0 && (pl->mtu > pl->max_mtu ||
			pl->mtu == 0))
		app_err("port %u (%s): --max-pkt-len %u: %s: the device takes MTU %u..%u, frames up to %u bytes",
				p, drv, max_pkt_len, pl->reason != NULL ?
				pl->reason : "MTU out of range",
				ports[p].info.min_mtu, pl->max_mtu,
				ports[p].info.max_rx_pktlen);
	else if (ret == -EINVAL && (pl->mtu > pl->max_mtu ||
			pl->mtu < ports[p].info.min_mtu))
		app_err("port %u (%s): MTU %u (--mtu, or the largest frame to send): %s: the device takes %u..%u",
				p, drv, pl->mtu, pl->reason,
				ports[p].info.min_mtu, pl->max_mtu);
	else if (ret == -EINVAL && mbuf_size != 0 && pl->whole_room != 0)
		app_err("port %u (%s): --mbuf-size %u: %s; a whole %u-byte frame (MTU %u) needs --mbuf-size %u or more",
				p, drv, mbuf_size, pl->reason, pl->max_frame,
				pl->mtu, pl->whole_room);
	else if (ret == -EINVAL && mbuf_size != 0)
		app_err("port %u (%s): --mbuf-size %u: %s", p, drv,
				mbuf_size, pl->reason);
	else
		app_err("port %u (%s): %s", p, drv, pl->reason != NULL ?
				pl->reason : rte_strerror(-ret));
}

/* Log each TX offload the plan switched off, with why. */
static void
log_offloads_off(uint16_t p, uint64_t off)
{
	while (off != 0) {
		uint64_t bit = off & -off;

		printf("port %u: TX offload %s switched off: npool packets are external-buffer mbufs and clones (refcnt > 1), which it would put back into the wrong pool\n",
				p, rte_eth_dev_tx_offload_name(bit));
		off &= ~bit;
	}
}

/* Say where the driver's limits moved --rx/tx-queue-size. */
static void
log_desc_adjusted(uint16_t p)
{
	const struct rte_eth_dev_info *info = &ports[p].info;

	if (opts->nb_rxd != 0 && opts->nb_rxd != ports[p].nb_rxd)
		printf("port %u: --rx-queue-size %u adjusted to %u (%s takes %u..%u descriptors, a multiple of %u)\n",
				p, opts->nb_rxd, ports[p].nb_rxd,
				info->driver_name, info->rx_desc_lim.nb_min,
				info->rx_desc_lim.nb_max,
				info->rx_desc_lim.nb_align);
	if (opts->nb_txd != 0 && ports[p].nb_txq != 0 &&
			opts->nb_txd != ports[p].nb_txd)
		printf("port %u: --tx-queue-size %u adjusted to %u (%s takes %u..%u descriptors, a multiple of %u)\n",
				p, opts->nb_txd, ports[p].nb_txd,
				info->driver_name, info->tx_desc_lim.nb_min,
				info->tx_desc_lim.nb_max,
				info->tx_desc_lim.nb_align);
}

/* Profile, queue counts, offloads and rte_eth_dev_configure(). */
static int
configure_port(uint16_t p, const struct app_port_params *pp)
{
	struct rte_eth_dev_info *info = &ports[p].info;
	struct rte_eth_conf *conf = &ports[p].conf;
	struct npool_rx_plan *pl = &ports[p].plan;
	struct npool_rx_req req;
	int ret;

	ret = rte_eth_dev_info_get(p, info);
	if (ret != 0) {
		app_err("port %u: rte_eth_dev_info_get: %s", p,
				rte_strerror(-ret));
		return -1;
	}
	ports[p].prof = npool_rx_profile_find(info->driver_name);
	ports[p].rx_polled = !pp->tx_per_rxq;
	/* A receive-only app still sets up one TX queue, unused, as
	 * testpmd's rxonly does: dpdk-dumpcap asks for RX and TX capture
	 * and is refused on a port without TX queues. */
	ports[p].nb_txq = pp->tx_per_rxq ? ports[p].nb_rxq :
		pp->tx ? (uint16_t)nb_fwd_lcores : 1;
	if (ports[p].nb_rxq > info->max_rx_queues ||
			ports[p].nb_txq > info->max_tx_queues) {
		app_err("port %u (%s): needs %u RX and %u TX queues (%s), the driver has %u and %u",
				p, info->driver_name, ports[p].nb_rxq,
				ports[p].nb_txq, pp->tx_per_rxq ?
				"one RX and one TX queue per --config entry" :
				pp->tx ? "one TX queue per forwarding lcore" :
				"the --config RX queues and one TX queue",
				info->max_rx_queues, info->max_tx_queues);
		return -1;
	}
	/* A PMD may loop TX queue q into RX queue q (net_ring): RX queues
	 * up to the TX queue count are set up even when nobody polls them,
	 * so that what lands there is released at the stop. */
	ports[p].nb_rxq_dev = RTE_MAX(ports[p].nb_rxq,
			RTE_MIN(ports[p].nb_txq, info->max_rx_queues));
	/* These vdevs make their RX queues at probe (af_packet's fanout
	 * sockets, one capture or interface per net_pcap rx_pcap/rx_iface,
	 * af_xdp's queue_count): what they put on a queue not set up is
	 * never read, and no counter says so. */
	if (npool_rx_queues_made_at_probe(info->driver_name) &&
			info->max_rx_queues > ports[p].nb_rxq_dev)
		printf("port %u: warning: %s made %u RX queues at probe and --config sets up %u: what it puts on the others is never read (poll them all, or give the vdev fewer queues)\n",
				p, info->driver_name, info->max_rx_queues,
				ports[p].nb_rxq_dev);
	/* The port MTU takes at least standard frames: a smaller egress MTU
	 * (npool-fwd --mtu 576) is the app's own limit, applied in software
	 * to what it sends. Chains (frames above the data room, fragments)
	 * must go out; fast free is asked as l3fwd does, and the profile
	 * switches it off. */
	memset(&req, 0, sizeof(req));
	req.mtu = RTE_MAX(pp->mtu, (uint16_t)RTE_ETHER_MTU);
	req.max_pkt_len = pp->max_pkt_len;
	req.data_room = opts->mbuf_size;
	req.nb_rxq = ports[p].nb_rxq_dev;
	req.nb_txq = ports[p].nb_txq;
	req.nb_rxd = opts->nb_rxd;
	req.nb_txd = opts->nb_txd;
	req.rx_offloads = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
	req.tx_offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
		RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	memset(conf, 0, sizeof(*conf));
	ret = npool_rx_profile_fit(p, ports[p].prof, &req, conf, pl);
	if (ret != 0) {
		plan_error(p, pl, ret, pp->max_pkt_len);
		return -1;
	}
	if (app_rss_plan(p, ports[p].prof, info, ports[p].rx_polled ?
			ports[p].nb_rxq : 0, ports[p].nb_rxq_dev,
			&ports[p].rss, conf) < 0)
		return -1;
	log_offloads_off(p, pl->tx_offloads_off);
	ports[p].nb_rxd = pl->nb_rxd;
	ports[p].nb_txd = pl->nb_txd;
	ret = rte_eth_dev_configure(p, ports[p].nb_rxq_dev, ports[p].nb_txq,
			conf);
	if (ret != 0) {
		app_err("port %u (%s): configure: %s", p, info->driver_name,
				rte_strerror(-ret));
		return -1;
	}
	ports[p].configured = true;
	/* Again: configure may have changed the descriptor limits. */
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(p, &ports[p].nb_rxd,
			&ports[p].nb_txd);
	/* rxmode.mtu set it; a PMD that keeps the MTU elsewhere too
	 * (net_af_packet: the interface's) hears it here. */
	if (ret == 0 && pl->mtu != RTE_ETHER_MTU) {
		ret = rte_eth_dev_set_mtu(p, pl->mtu);
		if (ret == -ENOTSUP)
			ret = 0;
	}
	if (ret != 0) {
		app_err("port %u (%s): %s", p, info->driver_name,
				rte_strerror(-ret));
		return -1;
	}
	/* The pool holds what the rings hold, as adjusted. */
	pl->nb_mbufs = (uint32_t)ports[p].nb_rxq_dev * ports[p].nb_rxd +
		(uint32_t)ports[p].nb_txq * ports[p].nb_txd;
	log_desc_adjusted(p);
	return 0;
}

/* One RX pool per socket of a forwarding lcore, sized as l3fwd does. */
static int
create_rx_pools(const struct app_opts *o)
{
	unsigned int n = 0, lcore, p, socket;
	uint16_t data_room = o->mbuf_size;
	char name[RTE_MEMPOOL_NAMESIZE];

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!ports[p].configured)
			continue;
		n += ports[p].plan.nb_mbufs + nb_fwd_lcores * APP_BURST;
		/* The largest plan: a whole frame in one buffer on every
		 * port that can have it. */
		if (o->mbuf_size == 0)
			data_room = RTE_MAX(data_room,
					ports[p].plan.data_room);
	}
	n += nb_fwd_lcores * (APP_MEMPOOL_CACHE + APP_BURST);
	/* npool serves what those rings hold (copy-break's copies take the
	 * RX mbufs' places): sized now. */
	if (app_pool_npool_up(RTE_MAX(n, MIN_POOL_MBUFS)) < 0)
		return -1;
	if (o->nb_mbufs != 0 && o->nb_mbufs < n)
		app_err("warning: --nb-mbufs %u is below the %u mbufs the rings, bursts and caches may hold: RX will run out (rx_nombuf), and a PMD that fills its RX ring at start fails",
				o->nb_mbufs, n);
	n = o->nb_mbufs != 0 ? o->nb_mbufs : RTE_MAX(n, MIN_POOL_MBUFS);
	RTE_LCORE_FOREACH(lcore) {
		if (app_lcores[lcore].nb_rxq == 0)
			continue;
		socket = app_numa_lcore_socket(lcore);
		if (rx_pools[socket] != NULL)
			continue;
		snprintf(name, sizeof(name), "rx_s%u", socket);
		rx_pools[socket] = app_pool_create(name, n, data_room,
				(int)socket, o->pool);
		if (rx_pools[socket] == NULL)
			return -1;
		app_numa_note(APP_NUMA_RX_POOL, name, (int)socket,
				STAILQ_FIRST(&rx_pools[socket]->mem_list)->addr);
	}
	return 0;
}

static int
setup_rxq(uint16_t p, uint16_t q, struct rte_mempool *pool)
{
	struct rte_eth_rxconf rxconf = ports[p].info.default_rxconf;
	int ret;

	rxconf.offloads = ports[p].conf.rxmode.offloads;
	rxconf.rx_free_thresh = ports[p].plan.rx_free_thresh;
	ret = rte_eth_rx_queue_setup(p, q, ports[p].nb_rxd, pool->socket_id,
			&rxconf, pool);
	if (ret != 0) {
		app_err("port %u: RX queue %u: %s", p, q, rte_strerror(-ret));
		return -1;
	}
	ports[p].pool = pool;
	return 0;
}

static int
setup_queues(void)
{
	unsigned int lcore, i, socket;
	struct rte_eth_txconf txconf;
	uint16_t p, q;
	int ret;

	RTE_LCORE_FOREACH(lcore) {
		const struct app_lcore_conf *lc = &app_lcores[lcore];

		socket = app_numa_lcore_socket(lcore);
		for (i = 0; i < lc->nb_rxq; i++) {
			p = lc->rxq[i].port;
			/* l3fwd's warning: it works, across the interconnect. */
			if (!opts->no_numa && rte_eth_dev_socket_id(p) >= 0 &&
					(unsigned int)rte_eth_dev_socket_id(p) !=
					socket)
				app_err("warning: port %u is on socket %d, polled by lcore %u on socket %u: its RX pool and route tables are on the lcore's",
						p, rte_eth_dev_socket_id(p),
						lcore, socket);
			if (setup_rxq(p, lc->rxq[i].queue,
					rx_pools[socket]) < 0)
				return -1;
		}
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!ports[p].configured)
			continue;
		/* The unpolled RX queues, from a pool of the polled ones. */
		for (q = ports[p].nb_rxq; q < ports[p].nb_rxq_dev; q++)
			if (setup_rxq(p, q, ports[p].pool) < 0)
				return -1;
		txconf = ports[p].info.default_txconf;
		txconf.offloads = ports[p].conf.txmode.offloads;
		for (q = 0; q < ports[p].nb_txq; q++) {
			ret = rte_eth_tx_queue_setup(p, q, ports[p].nb_txd,
					opts->no_numa ? 0 :
					rte_eth_dev_socket_id(p), &txconf);
			if (ret != 0) {
				app_err("port %u: TX queue %u: %s", p, q,
						rte_strerror(-ret));
				return -1;
			}
		}
	}
	return 0;
}

static int
start_port(uint16_t p, bool promisc)
{
	char extra[32];
	int ret;

	ret = rte_eth_dev_start(p);
	if (ret != 0) {
		app_err("port %u: start: %s", p, rte_strerror(-ret));
		return -1;
	}
	ports[p].started = true;
	ret = rte_eth_macaddr_get(p, &app_port_mac[p]);
	if (ret != 0) {
		app_err("port %u: MAC address: %s", p, rte_strerror(-ret));
		return -1;
	}
	if (promisc) {
		ret = rte_eth_promiscuous_enable(p);
		if (ret != 0 && ret != -ENOTSUP) {
			app_err("port %u: promiscuous mode: %s", p,
					rte_strerror(-ret));
			return -1;
		}
	}
	extra[0] = '\0';
	if (ports[p].nb_rxq_dev != ports[p].nb_rxq)
		snprintf(extra, sizeof(extra), " (+%u not polled)",
				ports[p].nb_rxq_dev - ports[p].nb_rxq);
	printf("port %u: %s, profile %s, %u RX queue(s)%s x %u desc, %u TX queue(s) x %u desc, MAC "
			RTE_ETHER_ADDR_PRT_FMT "\n", p,
			ports[p].info.driver_name, ports[p].prof->driver,
			ports[p].nb_rxq, extra, ports[p].nb_rxd,
			ports[p].nb_txq, ports[p].nb_txd,
			RTE_ETHER_ADDR_BYTES(&app_port_mac[p]));
	printf("port %u: MTU %u (frames up to %u B), RX buffers of %u B in %u B mbufs (pool of %u B), scattered RX %s\n",
			p, ports[p].plan.mtu, ports[p].plan.max_frame,
			ports[p].plan.rx_buf_size, ports[p].plan.data_room,
			rte_pktmbuf_data_room_size(ports[p].pool),
			ports[p].plan.scatter ? "on" : "off");
	ports[p].rss_set = true;
	return app_rss_start(p, &ports[p].info, ports[p].nb_rxq_dev,
			&ports[p].rss, &ports[p].rss_read_back);
}

int
app_ports_start(const struct app_opts *o, const struct app_port_params *pp)
{
	uint16_t p;

	memset(ports, 0, sizeof(ports));
	opts = o;
	if (build_lcore_map(o) < 0)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if ((o->portmask & (UINT64_C(1) << p)) &&
				configure_port(p, pp) < 0)
			return -1;
	if (create_rx_pools(o) < 0 || setup_queues() < 0)
		return -1;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (ports[p].configured && start_port(p, o->promisc) < 0)
			return -1;
	return 0;
}

/*
 * Release what still waits in a port's RX queues, polled or not, once the
 * lcores stopped: a software ring (net_ring) keeps its mbufs across close.
 * At most a ring's worth per queue, so that a capture file is not read to
 * its end.
 */
static uint64_t
drain_rx(uint16_t p)
{
	struct rte_mbuf *pkts[APP_BURST];
	uint64_t total = 0;
	uint32_t got;
	uint16_t q, n;

	for (q = 0; q < ports[p].nb_rxq_dev; q++) {
		got = 0;
		do {
			n = rte_eth_rx_burst(p, q, pkts, (uint16_t)RTE_MIN(
					APP_BURST, ports[p].nb_rxd - got));
			rte_pktmbuf_free_bulk(pkts, n);
			got += n;
		} while (n != 0 && got < ports[p].nb_rxd);
		total += got;
	}
	return total;
}

void
app_ports_close(void)
{
	uint64_t drained;
	uint16_t p;
	int ret;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!ports[p].started)
			continue;
		drained = drain_rx(p);
		if (drained != 0)
			printf("port %u: %" PRIu64 " packets waiting in the RX queues at the stop, released uncounted\n",
					p, drained);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (!ports[p].configured)
			continue;
		if (ports[p].started) {
			ret = rte_eth_dev_stop(p);
			if (ret != 0)
				app_err("port %u: stop: %s", p,
						rte_strerror(-ret));
		}
		ret = rte_eth_dev_close(p);
		if (ret != 0)
			app_err("port %u: close: %s", p, rte_strerror(-ret));
		ports[p].configured = false;
		ports[p].started = false;
	}
}
