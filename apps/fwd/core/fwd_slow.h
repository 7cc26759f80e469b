/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_SLOW_H
#define FWD_SLOW_H

/**
 * @file
 * npool-fwd's slow path: a packet the one pass (fwd_pass.h) did not take.
 */

#include <rte_mbuf.h>

#include "fwd_ctx.h"

/**
 * The slow path of one packet (fwd_slow.c): the RX checks (mbuf->port
 * set, a chain whose segments do not add up dropped as truncated:
 * fwd_pkt_chain_ok()), copy-break, then plain IPv6 or fwd_classify(), and the
 * rewrite and TX buffer, the fragments, or the drop (counted, into
 * c->drop). Counts itself in c->nslow.
 */
void fwd_slow(struct fwd_ctx *c, struct rte_mbuf *m);

#endif /* FWD_SLOW_H */
