/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the neighbour tables (fwd_neigh.h) do through the control thread
 * (fwd_ctl_nb.h): a packet sent, a neighbour solicited (commands to the
 * command lcore, which builds them), a packet dropped or answered, a
 * neighbour's next hop published, its host route made or removed.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "fwd_ctl_nb.h"
#include "fwd_ctl_pvt.h"
#include "fwd_ctl_route.h"

/* Per next hop the last command that sent a packet by it (nh_sent), so
 * that its resolving object is published only once the command lcore
 * has carried that out (fwd_ctl_publish_neigh()). */
static void
nb_send(void *ctx, const struct fwd_neigh *n, struct rte_mbuf *m)
{
	struct fwd_ctl *ctl = ctx;
	struct fwd_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.kind = FWD_CMD_SEND;
	cmd.m = m;
	memcpy(cmd.eth, &n->mac, RTE_ETHER_ADDR_LEN);
	memcpy(cmd.eth + RTE_ETHER_ADDR_LEN, &ctl->c.tabs[0]->l2[n->port].src,
			RTE_ETHER_ADDR_LEN);
	cmd.port = n->port;
	if (fwd_ctl_cmd(ctl, &cmd) == 0)
		ctl->nh_sent[n->nh] = ctl->cmd_seq;
}

static void
nb_solicit(void *ctx, const struct fwd_neigh *n, bool unicast,
		const struct rte_mbuf *last)
{
	struct fwd_ctl *ctl = ctx;
	/* The source address in the IP header, and the header's size. */
	const uint32_t off = n->v6 ? 8 : 12, len = n->v6 ? 16 : 4;
	const uint32_t hdr = n->v6 ? 40 : 20;
	struct fwd_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.kind = FWD_CMD_SOLICIT;
	cmd.v6 = n->v6;
	cmd.port = n->port;
	memcpy(cmd.ip, n->ip, n->v6 ? 16 : 4);
	if (unicast)
		memcpy(cmd.eth, &n->mac, RTE_ETHER_ADDR_LEN);
	/* The lcore chooses the sender address from it (fwd_solicit()). */
	if (last != NULL && last->pkt_len >= RTE_ETHER_HDR_LEN + hdr)
		memcpy(cmd.src, rte_pktmbuf_mtod_offset(last, const uint8_t *,
				RTE_ETHER_HDR_LEN + off), len);
	fwd_ctl_cmd(ctl, &cmd);
}

static void
nb_drop(void *ctx, struct rte_mbuf *m, unsigned int why)
{
	fwd_ctl_drop(ctx, m, why);
}

static void
nb_publish(void *ctx, struct fwd_neigh *n)
{
	fwd_ctl_publish_neigh(ctx, n);
}

static void
nb_life(void *ctx, struct fwd_neigh *n, bool made)
{
	struct fwd_ctl *ctl = ctx;

	if (made) {
		nb_publish(ctl, n);
		if (fwd_ctl_host_ok(ctl, n))
			n->host_route = fwd_rib_host(ctl->rib, n->v6, n->ip,
					n->nh) == 0;
		return;
	}
	/* Its object and id go with fwd_ctl_nh_put(), after a grace
	 * period. */
	if (n->host_route)
		fwd_rib_host(ctl->rib, n->v6, n->ip, UINT32_MAX);
	n->host_route = false;
}

const struct fwd_neigh_ops fwd_ctl_nb_ops = {
	.send = nb_send,
	.solicit = nb_solicit,
	.drop = nb_drop,
	.publish = nb_publish,
	.life = nb_life,
};
