/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "npool_rx_rss.h"

/* testpmd's names (app/test-pmd/config.c rss_type_table). */
static const struct {
	uint64_t bit;
	const char *name;
} rss_names[] = {
	{ RTE_ETH_RSS_IPV4, "ipv4" },
	{ RTE_ETH_RSS_FRAG_IPV4, "ipv4-frag" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_TCP, "ipv4-tcp" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_UDP, "ipv4-udp" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_SCTP, "ipv4-sctp" },
	{ RTE_ETH_RSS_NONFRAG_IPV4_OTHER, "ipv4-other" },
	{ RTE_ETH_RSS_IPV6, "ipv6" },
	{ RTE_ETH_RSS_FRAG_IPV6, "ipv6-frag" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_TCP, "ipv6-tcp" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_UDP, "ipv6-udp" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_SCTP, "ipv6-sctp" },
	{ RTE_ETH_RSS_NONFRAG_IPV6_OTHER, "ipv6-other" },
	{ RTE_ETH_RSS_L2_PAYLOAD, "l2-payload" },
	{ RTE_ETH_RSS_IPV6_EX, "ipv6-ex" },
	{ RTE_ETH_RSS_IPV6_TCP_EX, "ipv6-tcp-ex" },
	{ RTE_ETH_RSS_IPV6_UDP_EX, "ipv6-udp-ex" },
	{ RTE_ETH_RSS_PORT, "port" },
};

const char *
npool_rx_rss_type_name(uint64_t bit)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rss_names); i++)
		if (rss_names[i].bit == bit)
			return rss_names[i].name;
	return NULL;
}

int
npool_rx_rss_types_str(uint64_t rss_hf, char *buf, size_t len)
{
	size_t n = 0;
	int w;

	if (len != 0)
		buf[0] = '\0';
	if (rss_hf == 0)
		return snprintf(buf, len, "none");
	while (rss_hf != 0) {
		uint64_t bit = rss_hf & -rss_hf;
		const char *name = npool_rx_rss_type_name(bit);
		char *at = n < len ? buf + n : NULL;
		size_t room = n < len ? len - n : 0;

		w = name != NULL ?
			snprintf(at, room, "%s%s", n != 0 ? " " : "", name) :
			snprintf(at, room, "%s0x%" PRIx64, n != 0 ? " " : "",
					bit);
		n += (size_t)w;
		rss_hf &= ~bit;
	}
	return (int)n;
}

static int
rss_fail(struct npool_rx_rss_plan *plan, int err, const char *reason)
{
	uint64_t hf = plan->rss_hf, lacking = plan->rss_hf_lacking;

	memset(plan, 0, sizeof(*plan));
	plan->rss_hf = hf;
	plan->rss_hf_lacking = lacking;
	plan->reason = reason;
	rte_errno = err;
	return -err;
}

/* RSS off: queue 0 (or each queue, by the device's own rule) takes it. */
static int
rss_off(struct npool_rx_rss_plan *plan, const char *reason)
{
	plan->on = false;
	plan->rss_hf = 0;
	plan->reason = reason;
	return 0;
}

int
npool_rx_rss_plan(const struct npool_rx_profile *p,
		const struct rte_eth_dev_info *info,
		const struct npool_rx_rss_req *req,
		struct npool_rx_rss_plan *plan)
{
	uint64_t want;
	uint16_t n, i;

	if (plan == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	memset(plan, 0, sizeof(*plan));
	if (p == NULL || info == NULL || req == NULL)
		return rss_fail(plan, EINVAL, "no profile, dev_info or request");
	if (req->nb_rxq_dev < req->nb_rxq)
		return rss_fail(plan, EINVAL,
				"fewer RX queues set up than polled");
	n = req->nb_rxq;
	if (n == 0)
		return rss_off(plan, "no RX queue polled");
	if (n == 1)
		return rss_off(plan, "one RX queue polled");
	want = req->rss_hf != 0 ? req->rss_hf : NPOOL_RX_RSS_HF;
	plan->rss_hf = want & info->flow_type_rss_offloads;
	plan->rss_hf_lacking = want & ~info->flow_type_rss_offloads;
	if (plan->rss_hf == 0) {
		/* Without RSS the NICs put every packet in queue 0: the
		 * other queues would never receive. */
		if (p->rss_needed)
			return rss_fail(plan, ENOTSUP,
					"several RX queues need RSS and the device offers none of the hash types wanted");
		return rss_off(plan,
				"the device offers no RSS hash (flow_type_rss_offloads 0): each RX queue gets what the device puts there");
	}
	if (p->rss_max_queues != 0 && n > p->rss_max_queues)
		return rss_fail(plan, ENOTSUP,
				"more RX queues than the hardware's RSS spreads over");
	if (info->reta_size == 0) {
		/* The PMD spreads over every queue set up, its own way. */
		if (req->nb_rxq_dev > n)
			return rss_fail(plan, ENOTSUP,
					"the device has no redirection table (reta_size 0): its RSS would fill RX queues nobody polls");
	} else if (info->reta_size > NPOOL_RX_RSS_RETA_MAX) {
		return rss_fail(plan, ENOTSUP,
				"redirection table larger than npool handles");
	} else if (n > info->reta_size) {
		return rss_fail(plan, ENOTSUP,
				"more RX queues than redirection table entries");
	}
	plan->on = true;
	plan->nb_queues = n;
	plan->reta_size = info->reta_size;
	/* ethtool_rxfh_indir_default(): round-robin, an even spread. */
	for (i = 0; i < plan->reta_size; i++)
		plan->reta[i] = i % n;
	if (plan->reta_size != 0) {
		plan->reta_min = plan->reta_size / n;
		plan->reta_max = plan->reta_min +
			(plan->reta_size % n != 0 ? 1 : 0);
	}
	return 0;
}

void
npool_rx_rss_conf(const struct npool_rx_rss_plan *plan,
		struct rte_eth_conf *conf)
{
	conf->rxmode.mq_mode = plan->on ? RTE_ETH_MQ_RX_RSS :
		RTE_ETH_MQ_RX_NONE;
	conf->rx_adv_conf.rss_conf.rss_key = NULL;
	conf->rx_adv_conf.rss_conf.rss_key_len = 0;
	conf->rx_adv_conf.rss_conf.rss_hf = plan->on ? plan->rss_hf : 0;
}

int
npool_rx_rss_reta_apply(uint16_t port_id,
		const struct npool_rx_rss_plan *plan, bool *read_back)
{
	struct rte_eth_rss_reta_entry64
		conf[NPOOL_RX_RSS_RETA_MAX / RTE_ETH_RETA_GROUP_SIZE];
	const unsigned int size = plan->reta_size;
	const unsigned int groups = (size + RTE_ETH_RETA_GROUP_SIZE - 1) /
		RTE_ETH_RETA_GROUP_SIZE;
	unsigned int i;
	int ret;

	if (read_back != NULL)
		*read_back = false;
	if (size == 0)
		return 0;
	memset(conf, 0, sizeof(conf));
	for (i = 0; i < size; i++) {
		conf[i / RTE_ETH_RETA_GROUP_SIZE].mask |=
			UINT64_C(1) << (i % RTE_ETH_RETA_GROUP_SIZE);
		conf[i / RTE_ETH_RETA_GROUP_SIZE].reta[i %
			RTE_ETH_RETA_GROUP_SIZE] = plan->reta[i];
	}
	ret = rte_eth_dev_rss_reta_update(port_id, conf, (uint16_t)size);
	if (ret != 0) {
		rte_errno = -ret;
		return ret;
	}
	/* Read it back: what the PMD programs is what the stats show. */
	for (i = 0; i < groups; i++)
		memset(conf[i].reta, 0xff, sizeof(conf[i].reta));
	if (rte_eth_dev_rss_reta_query(port_id, conf, (uint16_t)size) != 0)
		return 0;
	for (i = 0; i < size; i++)
		if (conf[i / RTE_ETH_RETA_GROUP_SIZE].reta[i %
				RTE_ETH_RETA_GROUP_SIZE] != plan->reta[i]) {
			rte_errno = EIO;
			return -EIO;
		}
	if (read_back != NULL)
		*read_back = true;
	return 0;
}
