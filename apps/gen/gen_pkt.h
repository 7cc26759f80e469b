/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef GEN_PKT_H
#define GEN_PKT_H

/**
 * @file
 * npool-gen's frames (the kernel pktgen's, DESIGN.md seed 9): the
 * settings of its command line, the synthetic IPv4/UDP frames, IMIX,
 * flows, and the frames of a capture replayed (--pcap); built at set-up,
 * read-only while the lcores send them (gen_lcore.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>
#include <rte_mempool.h>

#include "app_compat.h"

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
 * checksums cost a few additions when the TX loop writes those
 * (gen_lcore.c).
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

/** Parse a dotted IPv4 address; on error names @p flag. 0 / -1. */
int gen_parse_ipv4(const char *flag, const char *s, rte_be32_t *ip);

/**
 * Read --pcap into @p fr (Ethernet frames up to GEN_MAX_FRAME).
 *
 * @return 0; -1 for a file that cannot be read or holds no frame to send
 *   (a bad option: exit 2); -2 when memory ran out (a set-up error: exit
 *   1). The error line is printed.
 */
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

#endif /* GEN_PKT_H */
