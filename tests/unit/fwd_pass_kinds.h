/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The packet kinds of fwd_pass_test.c: what each one is, what npool-fwd
 * must do with it, and its frame.
 */
#ifndef FWD_PASS_KINDS_H
#define FWD_PASS_KINDS_H

#include <stdint.h>

#include <rte_mbuf.h>

#define FRAME_MAX 1700

enum shape {
	PLAIN, PAD, VLAN0, VLAN5, OPTIONS, CHAIN, ARP, OTHER_MAC, BCAST_MAC,
	MCAST_MAC, FOREIGN_PORT,
};

/* The PMD's word on the IPv4 checksum a kind's packet carries. */
enum flag { NONE, GOOD, BAD };

struct kind {
	const char *name;
	int v6;
	uint8_t dst[16], src[16];
	uint8_t ttl;
	uint16_t ip_len;        /* IP header + payload */
	int df, bad_csum;
	enum flag flag;
	enum shape shape;
	int verdict;            /* what the rules give */
	/* FWD_PASS / FWD_FRAGMENT: out of it; FWD_MCAST: 1, the first of
	 * the route's ports 1 and 2 */
	int port;
	int fast;               /* stays in the one pass */
	/* With the RX checksum offload on port 0: verdict, port, fast. */
	int hw_verdict, hw_port, hw_fast;
};

#define NB_KINDS 33

extern const struct kind kinds[NB_KINDS];
/* The kinds' frames, once kind_build() made them. */
extern uint8_t frame[NB_KINDS][FRAME_MAX];
extern uint32_t frame_len[NB_KINDS];

/* The frame of kind @p k into frame[k]. */
void kind_build(unsigned int k);
/* Kind @p k as a packet from @p pool, received on port 0. */
struct rte_mbuf *kind_packet(unsigned int k, struct rte_mempool *pool);

#endif
