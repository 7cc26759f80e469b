/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_PKT_MODEL_H
#define FWD_PKT_MODEL_H

/*
 * fwd_pkt_fuzz.c's oracle: the verdict docs/apps/npool-fwd.md's ordered
 * rules give a flat frame, written from the doc.
 */

#include <stdint.h>

#include <rte_ether.h>

#include "fwd.h"

/* Port 0's MAC (the frames' destination to take them). */
extern const struct rte_ether_addr fz_port0_mac;

static inline uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The verdict of flat frame @p f (@p len bytes, the PMD's @p ol_flags,
 * @p hw when port 0 has the RX checksum offload), received on port 0
 * with the multicast routes of fwd_pkt_fuzz.c; for a packet that leaves,
 * its L2 length, IP length and port (FWD_MCAST: the route) in @p md. */
int fz_expect(const struct fwd_conf *fc, const uint8_t *f, uint32_t len,
		uint64_t ol_flags, int hw, struct fwd_meta *md);

#endif
