/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef NPOOL_RX_H
#define NPOOL_RX_H

/**
 * @file
 * libnpool_rx, the layer of npool that needs ethdev: copy-break as an
 * ethdev RX callback (below), the RX profiles (npool_rx_profile.h) and
 * the RSS plan (npool_rx_rss.h), both included. Copy-break itself is
 * libnpool's (npool_copybreak.h, included through npool.h).
 */

#include <stdint.h>

#include <rte_ethdev.h>

#include "npool.h"
#include "npool_rx_profile.h"
#include "npool_rx_rss.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Install npool_rx_copybreak() under a port's RX queue as an ethdev RX
 * callback, so that an unchanged application receives npool packets.
 *
 * Context: main lcore (slow path), after the queue is set up.
 *
 * @param port_id
 *   The port.
 * @param queue_id
 *   The RX queue (already set up).
 * @param copybreak
 *   Largest packet to copy, bytes, 1 .. NPOOL_PKT_MAX_LEN.
 * @return
 *   The callback handle (for rte_eth_remove_rx_callback()), or NULL with
 *   rte_errno set: EINVAL (bad copybreak, port or queue), ENOTSUP
 *   (callbacks compiled out), ENOMEM.
 */
const struct rte_eth_rxtx_callback *npool_rx_copybreak_install(
		uint16_t port_id, uint16_t queue_id, uint16_t copybreak);

#ifdef __cplusplus
}
#endif

#endif /* NPOOL_RX_H */
