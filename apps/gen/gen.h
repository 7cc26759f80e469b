/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef GEN_H
#define GEN_H

/**
 * @file
 * npool-gen: a packet generator with the kernel pktgen's clone_skb and
 * Brouer's refcount trick (DESIGN.md seed 8). Shared by main.c (command
 * line, setup, report), gen_pkt.c (frames: synthetic IPv4/UDP, IMIX,
 * flows, pcap replay) and gen_lcore.c (the TX loop).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>
#include <rte_mempool.h>

#include "app_cli.h"
#include "app_compat.h"
#include "app_ctr.h"
#include "app_port.h"

/** Frame sizes without FCS that --size takes. */
#define GEN_MIN_SIZE 60u
#define GEN_MAX_SIZE 9000u
/** Longest frame replayed from --pcap: a 9000-byte MTU plus a VLAN tag. */
#define GEN_MAX_FRAME (GEN_MAX_SIZE + RTE_ETHER_HDR_LEN + 4u)
/** Most sizes in one mix (IMIX has three). */
#define GEN_MAX_SIZES 3
/** --flows upper bound: 65536 consecutive source addresses from --src-ip
 * (a range that would wrap past 255.255.255.255 is refused), UDP source
 * ports 1024 + flow mod 64512. */
#define GEN_MAX_FLOWS 65536u
/** Most extra sends per packet: the mbuf refcnt is 16 bits. */
#define GEN_MAX_CLONE (UINT16_MAX - 1u)
/** First UDP source port of the flows, and the destination port. */
#define GEN_UDP_PORT 1024u

/** How the extra sends of a packet take their references (--refcnt). */
enum gen_refcnt {
	/** rte_mbuf_refcnt_set(m, clone + 1) once, at allocation. */
	GEN_REFCNT_SET,
	/** rte_mbuf_refcnt_update(m, 1) once per extra send. */
	GEN_REFCNT_INC,
};

/** UDP payload head of a synthetic packet (network byte order). */
struct __rte_packed_begin gen_payload {
	rte_be64_t seq;    /**< per TX queue, +1 per allocated packet */
	rte_be16_t port;   /**< ethdev port id */
	rte_be16_t queue;  /**< TX queue id */
} __rte_packed_end;

/** Headers of a synthetic frame: Ethernet, IPv4 (no options), UDP. */
struct __rte_aligned(2) __rte_packed_begin gen_hdr {
	struct rte_ether_hdr eth;
	struct rte_ipv4_hdr ip;
	struct rte_udp_hdr udp;
	struct gen_payload pl;
} __rte_packed_end;

/**
 * One frame the generator copies into packets. Synthetic frames are
 * stored with source address, source port, sequence number and both
 * checksums zero; the sums of the rest are kept so that a packet's
 * checksums cost a few additions (gen_pkt_fill()).
 */
struct gen_frame {
	const uint8_t *data;
	uint16_t len;
	uint16_t ip_sum;   /**< folded sum of the IPv4 header as stored */
	uint16_t udp_sum;  /**< folded sum of UDP pseudo header + datagram */
};

/** Settings from the command line (the app's own options). */
struct gen_conf {
	uint32_t size;            /**< --size, bytes without FCS */
	bool size_set;
	bool imix;                /**< --imix */
	uint32_t flows;           /**< --flows, >= 1 */
	uint64_t rate;            /**< --rate packets/s per port (its queues
	                           *   share it), 0 = line */
	uint64_t count;           /**< --count per port, 0 = unlimited */
	uint32_t clone;           /**< --clone: extra sends per packet */
	enum gen_refcnt refcnt;   /**< --refcnt */
	const char *pcap;         /**< --pcap FILE, NULL = synthetic */
	struct rte_ether_addr dst_mac; /**< --dst-mac */
	rte_be32_t src_ip;        /**< --src-ip (first flow) */
	rte_be32_t dst_ip;        /**< --dst-ip */
	unsigned int synth_opts;  /**< synthetic-only options given */
	const char *first_synth;  /**< the first of them, for the error */
};

/** Frames of a run, read-only while running. */
struct gen_frames {
	uint32_t nb;                 /**< entries in @c f (cycle length) */
	struct gen_frame *f;         /**< in send order */
	uint16_t max_len;            /**< longest frame */
	bool synthetic;              /**< patch flow, seq and checksums */
	uint8_t *mem;                /**< storage of the frames' bytes */
	uint64_t pcap_skipped;       /**< --pcap frames too long to send */
};

/** State of one TX queue, owned by one lcore. */
struct gen_txq {
	uint16_t port;
	uint16_t queue;
	bool done;                /**< quota sent */
	uint64_t quota;           /**< send slots to fill, UINT64_MAX = no end */
	/* Counters, read by the main lcore after the run. */
	uint64_t slots;           /**< send slots filled (tx + unsent) */
	uint64_t tx;              /**< accepted by rte_eth_tx_burst() */
	uint64_t tx_bytes;        /**< their bytes, without FCS */
	uint64_t unsent;          /**< refused slots: one reference freed each */
	uint64_t allocs;          /**< packets allocated */
	uint64_t alloc_fail;      /**< failed allocations (retried) */
	uint64_t tsc_first;       /**< TSC before the first TX burst */
	uint64_t tsc_last;        /**< TSC after the last TX burst */
	/* Packet being sent again: its references held by the generator. */
	struct rte_mbuf *cur;     /**< NULL: the next slot allocates */
	uint32_t cur_left;        /**< sends of @c cur not yet in a slot */
	/* Where the next allocated packet comes from. */
	uint64_t seq;
	uint32_t flow;
	uint32_t frame;           /**< index into the frames (mix or pcap) */
	/* Token bucket (--rate), 16.16 fixed point in TSC cycles. */
	uint64_t cost;            /**< cycles per send << 16, 0 = no limit */
	uint64_t credit;
	uint64_t credit_max;      /**< depth: GEN_RATE_DEPTH_MS of sends */
	uint64_t credit_lost;     /**< credit cut at the depth (stalls) */
	uint64_t tsc_prev;
	/* The run's frames with this queue's MACs, port and queue ids. */
	struct gen_frames *fr;
} __rte_cache_aligned;

/**
 * Depth of the --rate token bucket in milliseconds of sends: how long a
 * stall (a preempted lcore, a slow TX ring) the generator catches up on
 * at full speed afterwards. What a longer stall loses is counted and
 * reported (rate_lost), not silently dropped.
 */
#define GEN_RATE_DEPTH_MS 100

/** Most TX queues one lcore serves (as RX queues in apps/common). */
#define GEN_MAX_TXQ_PER_LCORE APP_MAX_RXQ_PER_LCORE

/** TX queues of one lcore. */
struct gen_lcore {
	uint16_t nb_txq;
	struct gen_txq txq[GEN_MAX_TXQ_PER_LCORE];
};

/** Everything the lcores read: filled by main.c, defined in gen_lcore.c. */
struct gen {
	struct gen_conf c;
	enum app_pool_kind pool;
	struct rte_mempool *tx_pool;   /**< --pool mempool: packets' pool */
	uint32_t src_ip_host;          /**< --src-ip in host order */
	struct gen_lcore lc[RTE_MAX_LCORE];
};

extern struct gen gen;

/* gen_pkt.c */

/** Parse a dotted IPv4 address; on error names @p flag. 0 / -1. */
int gen_parse_ipv4(const char *flag, const char *s, rte_be32_t *ip);

/** Read --pcap into @p fr (Ethernet frames up to GEN_MAX_FRAME). */
int gen_frames_load_pcap(struct gen_frames *fr, const char *path);

/**
 * Build the synthetic frames (one per --size, or the IMIX cycle) sent by
 * TX queue @p queue of @p port into @p fr.
 */
int gen_frames_build(struct gen_frames *fr, const struct gen_conf *c,
		uint16_t port, uint16_t queue);

/** Free what gen_frames_*() allocated. */
void gen_frames_free(struct gen_frames *fr);

/** The IMIX cycle (exported for the usage text and tests). */
extern const uint16_t gen_imix_cycle[12];

/* gen_lcore.c */

/** Each lcore's counters (app_stats.h reports them). */
extern struct app_lcore_ctr gen_ctr[RTE_MAX_LCORE];

/** The TX loop of one lcore (lcore_function_t); returns at once on an
 * lcore with no TX queue. */
int gen_lcore_main(void *arg);

/** Number of lcores still sending; the last to finish stops the run. */
void gen_lcore_set_active(unsigned int n);

#endif /* GEN_H */
