/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the neighbour tables (fwd_neigh.h) do through the control thread:
 * a packet sent (a command to the command lcore), a neighbour solicited
 * from the address Linux would choose (arp_announce 0, ndisc_solicit()),
 * a packet dropped or answered, a neighbour's next hop published, its
 * host route made or removed.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "fwd_addr.h"
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

/* The IPv4 sender address of a solicitation for @p n (arp_solicit() with
 * arp_announce 0): the source of the packet waiting, when it is one of
 * the router's; else inet_select_addr(): the port's address whose prefix
 * holds the target, its first one, or any of the router's. */
static bool
src4(const struct fwd_addrs *a, const struct fwd_neigh *n,
		const struct rte_mbuf *last, uint8_t *src)
{
	const uint8_t *p;
	uint32_t s, tgt;
	unsigned int q;

	if (last != NULL && last->pkt_len >= RTE_ETHER_HDR_LEN + 20) {
		p = rte_pktmbuf_mtod(last, const uint8_t *);
		memcpy(&s, p + RTE_ETHER_HDR_LEN + 12, 4);
		if (fwd_addr_own4(a, s)) {
			memcpy(src, &s, 4);
			return true;
		}
	}
	memcpy(&tgt, n->ip, 4);
	if (fwd_addr_src4(a, n->port, tgt, &s)) {
		memcpy(src, &s, 4);
		return true;
	}
	for (q = 0; q < RTE_MAX_ETHPORTS; q++)
		if (a->p[q].n4 != 0) {
			memcpy(src, &a->p[q].v4[0], 4);
			return true;
		}
	return false;
}

/* The IPv6 source of a solicitation for @p n (ndisc_solicit()): the
 * source of the packet waiting, when it is an address of the port; else
 * the port's link-local address. */
static void
src6(const struct fwd_addrs *a, const struct fwd_neigh *n,
		const struct rte_mbuf *last, uint8_t *src)
{
	const uint8_t *p;

	if (last != NULL && last->pkt_len >= RTE_ETHER_HDR_LEN + 40) {
		p = rte_pktmbuf_mtod(last, const uint8_t *) +
			RTE_ETHER_HDR_LEN + 8;
		if (fwd_addr_own6(a, n->port, p)) {
			memcpy(src, p, 16);
			return;
		}
	}
	memcpy(src, a->p[n->port].ll6, 16);
}

static void
nb_solicit(void *ctx, const struct fwd_neigh *n, bool unicast,
		const struct rte_mbuf *last)
{
	struct fwd_ctl *ctl = ctx;
	const struct fwd_addrs *a = ctl->c.tabs[0]->addrs;
	struct fwd_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.kind = FWD_CMD_SOLICIT;
	cmd.v6 = n->v6;
	cmd.port = n->port;
	memcpy(cmd.ip, n->ip, n->v6 ? 16 : 4);
	if (unicast)
		memcpy(cmd.eth, &n->mac, RTE_ETHER_ADDR_LEN);
	if (n->v6)
		src6(a, n, last, cmd.src);
	else if (!src4(a, n, last, cmd.src))
		return;
	fwd_ctl_cmd(ctl, &cmd);
}

static void
nb_drop(void *ctx, struct rte_mbuf *m, unsigned int why)
{
	struct fwd_ctl *ctl = ctx;
	struct fwd_cmd cmd;

	if (why == FWD_NEIGH_FAILED) {
		memset(&cmd, 0, sizeof(cmd));
		cmd.kind = FWD_CMD_ANSWER;
		cmd.m = m;
		cmd.why = (uint8_t)why;
		fwd_ctl_cmd(ctl, &cmd);
		return;
	}
	/* Counted on the port it came in on, off its forwarded count (the
	 * pass counted it forwarded when it held it). */
	if (m->port < RTE_MAX_ETHPORTS) {
		ctl->ctr->port[m->port].fwd--;
		ctl->ctr->port[m->port].drops[why]++;
	}
	rte_pktmbuf_free(m);
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
