/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Copy-break (libnpool's npool_rx_copybreak()) as an ethdev RX callback,
 * for applications that do not call it themselves.
 */
#include <errno.h>

#include <rte_errno.h>
#include <rte_ethdev.h>

#include "npool_rx.h"

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
