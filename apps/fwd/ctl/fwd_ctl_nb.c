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

/* Per next hop the last command that sent a packet by it (nh_sent), so
 * that its resolving object is published only once the command lcore
 * has carried that out (nb_publish()). */
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

/* @p n's object as its state says: resolving, or holding. */
static void
publish_now(struct fwd_ctl *ctl, const struct fwd_neigh *n)
{
	struct rte_ether_addr hold;

	if (n->published) {
		fwd_ctl_publish(ctl, n->nh, &n->mac, n->port, n->port);
	} else {
		fwd_nh_hold_mac(n->nh, &hold);
		fwd_ctl_publish(ctl, n->nh, &hold, FWD_TX_HOLD, n->port);
	}
}

/*
 * A resolving object goes out only once the command lcore has carried
 * out the sends of the packets held for @p n (its queue, sent when it
 * resolved, and any held since): until then the lcores keep holding, the
 * packets they hold are sent after the queue. So the queue leaves before
 * what the fast path sends by the object, as Linux's neigh_update()
 * sends the arp_queue before the output path lets anything else by;
 * publishing at once let the lcore's next RX bursts overtake the queue,
 * which the command lcore takes a burst a loop turn. A holding object
 * goes at once.
 */
static void
nb_publish(void *ctx, struct fwd_neigh *n)
{
	struct fwd_ctl *ctl = ctx;

	if (n->published && ctl->nh_sent[n->nh] >
			__atomic_load_n(ctl->cmd_done, __ATOMIC_ACQUIRE)) {
		if (ctl->nh_pend[n->nh] == 0) {
			ctl->nh_pend[n->nh] = (uint8_t)(1 + n->v6);
			ctl->pend[ctl->npend++] = n->nh;
		}
		return;
	}
	publish_now(ctl, n);
}

uint32_t
fwd_ctl_pend_check(struct fwd_ctl *ctl)
{
	const uint64_t done = __atomic_load_n(ctl->cmd_done,
			__ATOMIC_ACQUIRE);
	const struct fwd_neigh *n;
	uint32_t i, k, nh;

	for (i = k = 0; i < ctl->npend; i++) {
		nh = ctl->pend[i];
		if (ctl->nh_sent[nh] > done) {
			ctl->pend[k++] = nh;
			continue;
		}
		/* As the entry is now (it may have gone, or changed). */
		n = fwd_neigh_of_nh(ctl->nb[ctl->nh_pend[nh] - 1], nh);
		ctl->nh_pend[nh] = 0;
		if (n != NULL)
			publish_now(ctl, n);
	}
	ctl->npend = k;
	return k;
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
