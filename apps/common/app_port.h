/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef APP_PORT_H
#define APP_PORT_H

/**
 * @file
 * Ports and queues of the apps: the --config map per lcore, RX pools per
 * NUMA socket, each port configured with the plan of its driver's npool
 * RX profile (npool_rx_profile_fit(): MTU, data room, scattered RX,
 * offloads, ring sizes; never RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, each
 * offload switched off logged), one TX queue per forwarding lcore on
 * every port, RSS over the polled RX queues (npool_rx_rss_plan(): the
 * RETA spread over them, each hash type the device lacks logged; a NIC
 * that needs RSS for them and cannot have it is refused). Each port
 * prints its profile, MTU, RX buffer, whether RX scatters and its RSS
 * set-up when it starts.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_lcore.h>

#include "npool_rx.h"
#include "app_cli.h"

/** Packets per rte_eth_rx_burst() / rte_eth_tx_burst(). */
#define APP_BURST 32u

/** What an lcore does, from --config. Read-only while running. */
struct app_lcore_conf {
	uint16_t nb_rxq;   /**< RX queues it polls; 0 = idle lcore */
	uint16_t txq;      /**< its TX queue id on every port */
	struct {
		uint16_t port;
		uint16_t queue;
	} rxq[APP_MAX_RXQ_PER_LCORE];
};

/** Per-lcore map, indexed by lcore id. */
extern struct app_lcore_conf app_lcores[RTE_MAX_LCORE];
/** MAC address of each started port. */
extern struct rte_ether_addr app_port_mac[RTE_MAX_ETHPORTS];

/** How the app wants its ports. */
struct app_port_params {
	bool tx;         /**< set up one TX queue per forwarding lcore */
	/** Port MTU wanted (rxmode.mtu: the largest IP packet a received or
	 * sent frame carries), 0 = RTE_ETHER_MTU. A port's MTU is at least
	 * 1500: a smaller value (npool-fwd --mtu 576, an egress limit) is
	 * the app's to apply in software. */
	uint16_t mtu;
	/** Instead of @c tx: every --config entry (port, queue, lcore) names
	 * TX queue @c queue of @c port too, used by @c lcore alone (the TX
	 * queues of a generator's lcores); the RX queues are then not
	 * polled (no RSS). */
	bool tx_per_rxq;
	/** l3fwd's --max-pkt-len: largest frame, CRC included; the port MTU
	 * is this less the device's overhead, at least @c mtu and 1500
	 * (npool_rx_req.max_pkt_len); 0 = none. */
	uint32_t max_pkt_len;
};

/**
 * Build the lcore map from @p o, create the RX pools, configure and start
 * every enabled port.
 *
 * @return 0, or -1 after app_err() (what was started is stopped by
 *   app_ports_close()).
 */
int app_ports_start(const struct app_opts *o,
		const struct app_port_params *pp);

/** Number of lcores that poll at least one RX queue. */
unsigned int app_fwd_lcore_count(void);

/** TX descriptors over all started ports and queues (for pool sizing). */
unsigned int app_ports_tx_descs(void);

/**
 * RX queues the lcores poll on port @p port (queues 0..n-1 in --config);
 * 0 for a port not started or whose queues are not polled (tx_per_rxq).
 * Still valid after app_ports_close(), for the report. Main lcore or
 * telemetry, after app_ports_start().
 */
uint16_t app_port_rxq_polled(uint16_t port);

/**
 * The RSS plan port @p port was started with (still after
 * app_ports_close()); NULL for a port not started. @p read_back (may be NULL) tells whether its RETA was read
 * back from the device equal to the plan's.
 */
const struct npool_rx_rss_plan *app_port_rss(uint16_t port,
		bool *read_back);

/**
 * Stop and close every started port, so that the RX and TX rings give
 * their mbufs back. Main lcore, after the lcores stopped.
 */
void app_ports_close(void);

#endif /* APP_PORT_H */
