/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>

#include "npool_rx.h"

/*
 * Figures from the kernel drivers: default ring sizes (IXGBE_DEFAULT_RXD,
 * IGB_DEFAULT_RXD, FM10K_DEFAULT_RXD), the header buffer copied into
 * (IXGBE_RX_HDR_SIZE, IGB_RX_HDR_LEN, FM10K_RX_HDR_LEN: 256) and 2 KiB
 * receive buffers (IXGBE_RXBUFFER_2K, IGB_RXBUFFER_2048, FM10K_RX_BUFSZ).
 */
static const struct npool_rx_profile profiles[] = {
	{ "net_ixgbe", "ixgbe", 512, 512, NPOOL_RX_HDR_LEN, 32, 32,
		2048 + RTE_PKTMBUF_HEADROOM },
	{ "net_e1000_igb", "igb", 256, 256, NPOOL_RX_HDR_LEN, 32, 32,
		2048 + RTE_PKTMBUF_HEADROOM },
	{ "net_fm10k", "fm10k", 256, 256, NPOOL_RX_HDR_LEN, 32, 32,
		2048 + RTE_PKTMBUF_HEADROOM },
	/* Any other PMD, virtual devices included. */
	{ "generic", "-", 1024, 1024, NPOOL_RX_HDR_LEN, 32, 32,
		RTE_MBUF_DEFAULT_BUF_SIZE },
};

const struct npool_rx_profile *
npool_rx_profile_find(const char *driver_name)
{
	unsigned int i;

	for (i = 0; driver_name != NULL && i < RTE_DIM(profiles) - 1; i++)
		if (strcmp(profiles[i].driver, driver_name) == 0)
			return &profiles[i];
	return &profiles[RTE_DIM(profiles) - 1];
}

const struct npool_rx_profile *
npool_rx_profile_of_port(uint16_t port_id)
{
	struct rte_eth_dev_info info;

	if (!rte_eth_dev_is_valid_port(port_id) ||
			rte_eth_dev_info_get(port_id, &info) != 0) {
		rte_errno = ENODEV;
		return NULL;
	}
	return npool_rx_profile_find(info.driver_name);
}

int
npool_rx_profile_fit(uint16_t port_id, const struct npool_rx_profile *p,
		struct rte_eth_conf *conf, uint16_t *nb_rxd, uint16_t *nb_txd)
{
	conf->txmode.offloads &= ~RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	*nb_rxd = p->nb_rxd;
	*nb_txd = p->nb_txd;
	return rte_eth_dev_adjust_nb_rx_tx_desc(port_id, nb_rxd, nb_txd);
}

uint16_t
npool_rx_copybreak(struct rte_mbuf **pkts, uint16_t n, uint16_t copybreak)
{
	struct rte_mbuf *done[n > 0 ? n : 1];
	uint16_t i, nd = 0;

	if (copybreak == 0)
		return 0;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *c;

		/* A chain, or a segment whose lengths disagree, stays. */
		if (m->pkt_len > copybreak || m->nb_segs != 1 ||
				m->data_len != m->pkt_len)
			continue;
		c = npool_napi_alloc_pkt(m->pkt_len);
		if (unlikely(c == NULL))
			continue;
		rte_memcpy(rte_pktmbuf_mtod(c, void *),
				rte_pktmbuf_mtod(m, void *), m->data_len);
		c->data_len = m->data_len;
		c->pkt_len = m->pkt_len;
		c->port = m->port;
		c->packet_type = m->packet_type;
		c->ol_flags |= m->ol_flags & ~(RTE_MBUF_F_EXTERNAL |
				RTE_MBUF_F_INDIRECT);
		c->hash = m->hash;
		c->vlan_tci = m->vlan_tci;
		c->vlan_tci_outer = m->vlan_tci_outer;
		/* Dynamic fields (RX timestamp, ...) go with their flags. */
		memcpy(c->dynfield1, m->dynfield1, sizeof(c->dynfield1));
		done[nd++] = m;
		pkts[i] = c;
	}
	/* The RX buffers go back in one bulk, hot for the next refill. */
	if (nd != 0)
		npool_napi_consume_bulk(done, nd);
	return nd;
}

static uint16_t
copybreak_cb(uint16_t port __rte_unused, uint16_t queue __rte_unused,
		struct rte_mbuf **pkts, uint16_t n,
		uint16_t max_pkts __rte_unused, void *arg)
{
	npool_rx_copybreak(pkts, n, (uint16_t)(uintptr_t)arg);
	return n;
}

const struct rte_eth_rxtx_callback *
npool_rx_copybreak_install(uint16_t port_id, uint16_t queue_id,
		uint16_t copybreak)
{
	if (copybreak == 0 || copybreak > NPOOL_PKT_MAX_LEN) {
		rte_errno = EINVAL;
		return NULL;
	}
	return rte_eth_add_rx_callback(port_id, queue_id, copybreak_cb,
			(void *)(uintptr_t)copybreak);
}
