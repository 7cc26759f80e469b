/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_H
#define FWD_H

/**
 * @file
 * npool-fwd: an l3fwd-compatible LPM forwarder that follows the RFC 1812
 * router rules of docs/npool-fwd.md. Shared by its files: the drop
 * reasons, the read-only forwarding configuration and the entry points.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Drop reasons, in the order the checks run (docs/npool-fwd.md). */
enum fwd_reason {
	FWD_TRUNCATED,
	FWD_VLAN,
	FWD_NOT_IP,
	FWD_IP_VERSION,
	FWD_IPV4_IHL,
	FWD_IPV4_LEN,
	FWD_IPV4_CSUM,
	FWD_IPV6_LEN,
	FWD_MARTIAN_DST,
	FWD_MARTIAN_SRC,
	FWD_NO_ROUTE,
	FWD_BAD_PORT,
	FWD_TTL_EXCEEDED,
	FWD_MTU,
	FWD_FRAG_FAIL,
	FWD_TX_FULL,
	FWD_NB_REASONS,
};

/** Verdicts of the classifier beside the drop reasons. */
#define FWD_PASS     (FWD_NB_REASONS + 0) /**< forward as is */
#define FWD_FRAGMENT (FWD_NB_REASONS + 1) /**< IPv4 above the MTU, DF clear */

/** JSON/table names of the reasons, indexed by enum fwd_reason. */
extern const char *const fwd_reason_names[FWD_NB_REASONS];

/** Ethernet addresses written on a packet leaving a port. */
struct fwd_l2 {
	struct rte_ether_addr dst; /**< --eth-dest, or 02:00:00:00:00:<port> */
	struct rte_ether_addr src; /**< the port's MAC */
};

/** Forwarding configuration: written at setup, read-only while running. */
struct fwd_conf {
	struct rte_lpm *lpm4;
	struct rte_lpm6 *lpm6;
	int32_t def4;          /**< port of the IPv4 default route, -1 none */
	int32_t def6;          /**< port of the IPv6 default route, -1 none */
	uint64_t portmask;     /**< enabled ports (-p) */
	uint16_t mtu;          /**< egress IP MTU of every port */
	uint16_t copybreak;    /**< --copybreak bytes, 0 = off */
	struct rte_mempool *frag_direct;   /**< fragment headers */
	struct rte_mempool *frag_indirect; /**< fragment payload references */
	struct fwd_l2 l2[RTE_MAX_ETHPORTS];
	/* Command line only. */
	const char *rule4;     /**< --rule_ipv4 file, NULL = l3fwd's table */
	const char *rule6;     /**< --rule_ipv6 file, NULL = l3fwd's table */
	uint32_t eth_dest_set; /**< bit per port given by --eth-dest */
	struct rte_ether_addr eth_dest[RTE_MAX_ETHPORTS];
};

/**
 * Load the routes (files or l3fwd's default tables) into new rte_lpm and
 * rte_lpm6 tables; depth 0 becomes fc->def4 / fc->def6.
 *
 * @return 0; -1 after app_err() naming file:line for a bad file (usage
 *   error); -2 after app_err() when the tables cannot be made (setup).
 */
int fwd_routes_load(struct fwd_conf *fc);

/** Free the LPM tables. */
void fwd_routes_free(struct fwd_conf *fc);

/** The lcore loop (lcore_function_t); @p arg is the struct fwd_conf. */
int fwd_lcore_main(void *arg);

#ifdef __cplusplus
}
#endif

#endif /* FWD_H */
