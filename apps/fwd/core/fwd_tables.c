/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tables of npool-fwd's pipeline are made with (fwd_tables.h):
 * the names of the drop reasons and events, the MACs of each port as the
 * pass reads and writes them, the ports' own next hops, the octet tables
 * of the sources.
 */
#include <string.h>

#include <rte_ip.h>

#include "fwd_addr.h"
#include "fwd_tables.h"

#define FWD_NAME_(e, name) #name,
const char *const fwd_reason_names[FWD_NB_REASONS] = {
	FWD_REASONS(FWD_NAME_)
};
const char *const fwd_event_names[FWD_NB_EVENTS] = {
	FWD_EVENTS(FWD_NAME_)
};
#undef FWD_NAME_

void
fwd_tables_l2_prepare(struct fwd_tables *t)
{
	unsigned int p;

	RTE_BUILD_BUG_ON(sizeof(t->l2[0]) != 12);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (t->nht != NULL) {
			fwd_nh_fill(&t->nht->port[p], &t->l2[p].dst,
					&t->l2[p].src, (uint16_t)p, (uint16_t)p,
					p);
			fwd_nh_set(t->nht, p, &t->nht->port[p]);
		}
		/* What a plain IPv4 frame received on p starts with. */
		memset(t->rx16[p], 0, sizeof(t->rx16[p]));
		memcpy(t->rx16[p], &t->l2[p].src, RTE_ETHER_ADDR_LEN);
		t->rx16[p][12] = RTE_ETHER_TYPE_IPV4 >> 8;
		t->rx16[p][13] = RTE_ETHER_TYPE_IPV4 & 0xff;
		t->rx16[p][14] = 4 << 4 | sizeof(struct rte_ipv4_hdr) / 4;
		/* fwd_eth_to_port(): the MAC as the low 6 bytes in memory. */
		t->rx_mac[p] = 0;
		memcpy(&t->rx_mac[p], &t->l2[p].src, RTE_ETHER_ADDR_LEN);
	}
}

void
fwd_tables_octets_prepare(struct fwd_tables *t)
{
	const struct fwd_addrs *a = t->addrs;
	unsigned int p, i;

	memset(t->src_odd4, 0, sizeof(t->src_odd4));
	t->src_odd4[0] = 1;
	t->src_odd4[127] = 1;
	memset(t->src_odd4 + 224, 1, 256 - 224);
	memset(t->own4_octet, 0, sizeof(t->own4_octet));
	for (p = 0; a != NULL && p < RTE_MAX_ETHPORTS; p++)
		for (i = 0; i < a->p[p].n4; i++)
			t->own4_octet[((const uint8_t *)&a->p[p].v4[i])[3]] = 1;
}
