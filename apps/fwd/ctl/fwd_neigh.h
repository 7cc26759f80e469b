/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_NEIGH_H
#define FWD_NEIGH_H

/**
 * @file
 * npool-fwd's neighbour tables (ARP for IPv4, NDP for IPv6), as Linux's
 * net/core/neighbour.c keeps them: an entry per (port, address) with
 * Linux's states (NUD_*), timers and defaults (base_reachable_time_ms
 * 30000, retrans_time_ms 1000, delay_first_probe_time 5 s, mcast_solicit
 * 3, ucast_solicit 3, gc_stale_time 60 s, gc_thresh1/2/3 128/512/1024,
 * unres_qlen_bytes 212992, ARP's locktime 1 s), the packets waiting for
 * an unresolved neighbour queued on it, bounded in bytes (what each
 * packet pins: npool_pkt_truesize()), and learning as arp_process() and
 * ndisc_recv_ns() / ndisc_recv_na() learn.
 *
 * The table decides; what it decides is done through struct
 * fwd_neigh_ops (the control thread: fwd_ctl.h): send a packet, solicit,
 * answer a packet whose neighbour failed, publish the entry's next hop.
 * Time is given in milliseconds by the caller. Control thread only.
 * This header: an entry and what it does (fwd_neigh.c, the state
 * machine); the table of them: fwd_neigh_table.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "fwd_ctlmsg.h"
#include "fwd_tables.h"

/** Linux's NUD_* states, the same bits. */
#define FWD_NUD_NONE       0x00
#define FWD_NUD_INCOMPLETE 0x01
#define FWD_NUD_REACHABLE  0x02
#define FWD_NUD_STALE      0x04
#define FWD_NUD_DELAY      0x08
#define FWD_NUD_PROBE      0x10
#define FWD_NUD_FAILED     0x20
#define FWD_NUD_NOARP      0x40
#define FWD_NUD_PERMANENT  0x80
/** States with a timer running. */
#define FWD_NUD_IN_TIMER (FWD_NUD_INCOMPLETE | FWD_NUD_REACHABLE | \
		FWD_NUD_DELAY | FWD_NUD_PROBE)
/** States whose link-layer address is known. */
#define FWD_NUD_VALID (FWD_NUD_PERMANENT | FWD_NUD_NOARP | \
		FWD_NUD_REACHABLE | FWD_NUD_PROBE | FWD_NUD_STALE | \
		FWD_NUD_DELAY)
/** States whose address is confirmed. */
#define FWD_NUD_CONNECTED (FWD_NUD_PERMANENT | FWD_NUD_NOARP | \
		FWD_NUD_REACHABLE)

/** Permanent entries (--neigh, --neigh-file) a table holds, past its
 * gc_thresh3 others: the command line is refused beyond them. */
#define FWD_NEIGH_PERM_MAX 1024u

/** A neighbour table's parameters (Linux's neigh_parms and thresholds;
 * sysctl names in the field docs). */
struct fwd_neigh_parms {
	uint32_t base_reachable_ms; /**< base_reachable_time_ms, 30000 */
	uint32_t retrans_ms;        /**< retrans_time_ms, 1000 */
	uint32_t delay_probe_ms;    /**< delay_first_probe_time, 5000 */
	uint32_t gc_stale_ms;       /**< gc_stale_time, 60000 */
	uint32_t locktime_ms;       /**< locktime: ARP 1000, NDP 0 */
	uint32_t unres_qlen_bytes;  /**< unres_qlen_bytes, 212992 */
	uint8_t mcast_solicit;      /**< mcast_solicit, 3 */
	uint8_t ucast_solicit;      /**< ucast_solicit, 3 */
	uint32_t gc_thresh1;        /**< gc_thresh1, 128 */
	uint32_t gc_thresh2;        /**< gc_thresh2, 512 */
	uint32_t gc_thresh3;        /**< gc_thresh3, 1024 */
};

/** One entry. */
struct fwd_neigh {
	uint8_t ip[16];         /**< IPv4 in the first 4 bytes */
	uint16_t port;
	bool v6;
	uint8_t state;          /**< FWD_NUD_* */
	uint8_t probes;         /**< solicitations sent in this state */
	bool router;            /**< NDP: the R flag last heard */
	bool host_route;        /**< a host route to it is in the tables */
	bool published;         /**< its next hop's object resolves it */
	struct rte_ether_addr mac;
	uint32_t nh;            /**< its next hop (fwd_nh.h) */
	uint32_t refs;          /**< routes by it as a gateway */
	uint64_t confirmed;     /**< ms */
	uint64_t used;          /**< ms */
	uint64_t updated;       /**< ms */
	uint64_t timer;         /**< ms, 0: none */
	/** Packets waiting for it, oldest first (a ring of @c qcap). */
	struct rte_mbuf **q;
	uint32_t qhead, qlen, qcap;
	uint32_t qbytes;        /**< what they pin */
	struct fwd_neigh_tbl *tbl;
};

/** What the table has done through the control thread. */
struct fwd_neigh_ops {
	/** Send @p m to resolved (or stale) neighbour @p n now. */
	void (*send)(void *ctx, const struct fwd_neigh *n,
			struct rte_mbuf *m);
	/** Solicit @p n: a unicast probe to its known address when
	 * @p unicast, else broadcast / solicited-node. @p last is the
	 * newest packet waiting for it (NULL: none), for the sender
	 * address (arp_announce 0: its source when that is the
	 * router's). */
	void (*solicit)(void *ctx, const struct fwd_neigh *n, bool unicast,
			const struct rte_mbuf *last);
	/** Drop @p m as @p why (enum fwd_reason): FWD_NEIGH_FAILED is
	 * answered (host / address unreachable), FWD_UNRES_DISCARD and
	 * FWD_NEIGH_FULL are not. */
	void (*drop)(void *ctx, struct rte_mbuf *m, unsigned int why);
	/** @p n's next hop must now resolve it (@c published) or hold
	 * its packets: publish a new object for it (MAC or state). Called
	 * after @c send for the packets it lets by, which the caller may
	 * have the fast path wait for (the control thread does). */
	void (*publish)(void *ctx, struct fwd_neigh *n);
	/** @p n was made (@p made) or is about to go: its host route. */
	void (*life)(void *ctx, struct fwd_neigh *n, bool made);
};

/** Counters of a table. */
struct fwd_neigh_stats {
	uint64_t allocs;          /**< entries made */
	uint64_t destroys;        /**< entries removed */
	uint64_t res_failed;      /**< resolutions failed */
	uint64_t unres_discards;  /**< packets dropped from a full queue */
	uint64_t table_fulls;     /**< entries not made: table full */
	uint64_t periodic_gc_runs;
	uint64_t forced_gc_runs;
	uint64_t rcv_probes;      /**< learnt from a solicitation for us */
	uint64_t updates;         /**< events that changed an entry */
	uint64_t ignored;         /**< events about no entry */
};

struct fwd_neigh_tbl;

/**
 * A packet to send by @p n (Linux's neigh_event_send() then the output):
 * sent now when its address is known (a STALE entry goes DELAY), else
 * queued (an entry that is NONE or FAILED starts resolving: INCOMPLETE,
 * a broadcast solicitation at once); the oldest queued packets are
 * dropped (unres_discard) while the queue would pin more than
 * unres_qlen_bytes.
 */
void fwd_neigh_output(struct fwd_neigh *n, struct rte_mbuf *m,
		uint64_t now);

/** Drop what waits for @p n (unres_discard, nothing answered). */
void fwd_neigh_flush(struct fwd_neigh *n);

/** Linux's name of a state (ip neigh): "REACHABLE", ... */
const char *fwd_nud_name(uint8_t state);

#endif /* FWD_NEIGH_H */
