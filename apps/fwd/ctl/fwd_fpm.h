/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FWD_FPM_H
#define FWD_FPM_H

/**
 * @file
 * The FPM reader's types: npool-fwd listens for FRR zebra's Forwarding
 * Plane Manager connection (`zebra -M dplane_fpm_nl`, FRR's fpm/fpm.h and
 * zebra/dplane_fpm_nl.c) and turns its netlink route and next-hop
 * messages into route records (fwd_rt.h) handed to a sink, the routing
 * information base (fwd_fpm_conn.h: the reader; fwd_fpm_nl.h: the
 * messages; fwd_fpm_nh.h: the next hops; fwd_fpm_stats.h: its counters).
 *
 * No thread of its own: the control thread polls fwd_fpm_fd() (an epoll
 * fd, readable when a connection waits or data came) and calls
 * fwd_fpm_poll() with the time, which also ends a resynchronisation
 * after a quiet period. Everything here runs on that one thread; only
 * fwd_fpm_stats_get() and the telemetry command may run on another.
 *
 * What zebra 8.4 sends and what becomes of it: docs/apps/npool-fwd.md
 * ("Routes from FRR").
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <sys/socket.h>

#include "fwd_rt.h"

/** FPM's TCP port (fpm.h FPM_DEFAULT_PORT). */
#define FWD_FPM_PORT 2620
/** Default quiet period that ends a resynchronisation, ms. */
#define FWD_FPM_SYNC_MS 300
/** Default receive buffer: any FPM frame (16-bit length) fits. */
#define FWD_FPM_BUF_SIZE 65536
/** Default bound of the next-hop table (zebra's next-hop groups). */
#define FWD_FPM_NH_MAX 65536
/** Most --fpm-if entries. */
#define FWD_FPM_IF_MAX 64

/** What a route record handed to the sink asks. */
enum fwd_fpm_op {
	FWD_FPM_ADD,     /**< add, or replace the route of that prefix
	                  *   (FPM's replace semantics) */
	FWD_FPM_DEL,     /**< delete the FPM route of that prefix */
	FWD_FPM_REPLACE, /**< a delete and an add of the prefix in one
	                  *   frame (zebra's route update): replace at once,
	                  *   never a moment without the route */
};

/**
 * Where the reader's output goes (the RIB). Every call is made on the
 * thread that calls fwd_fpm_poll() / fwd_fpm_input().
 */
struct fwd_fpm_sink {
	/**
	 * One route change. For FWD_FPM_DEL only dst, depth and v6 are
	 * meaningful (zebra's delete names the prefix only).
	 * @return 0, or a negative errno when the route cannot be placed
	 *   (-ENOSPC: table full): counted as rib_refused, logged.
	 */
	int (*route)(void *ctx, enum fwd_fpm_op op, const struct fwd_rt *rt);
	/** A frame's changes were all given: a batch to publish. */
	void (*frame_end)(void *ctx);
	/** zebra (re)connected and will send everything again: mark the
	 * FPM routes stale. */
	void (*sync_begin)(void *ctx);
	/** Nothing came for the quiet period since: sweep the FPM routes
	 * still stale. Not called when the connection ends before. */
	void (*sync_done)(void *ctx);
	void *ctx; /**< passed to each call */
};

/** One --fpm-if: the interface zebra names by @c name is port @c port. */
struct fwd_fpm_if {
	char name[IF_NAMESIZE];
	uint16_t port;
};

/** What the reader is made from (fwd_fpm_params_init() for defaults). */
struct fwd_fpm_params {
	struct sockaddr_storage addr; /**< listening address; port 0: any
	                               *   (fwd_fpm_port() says which) */
	struct fwd_fpm_if ifs[FWD_FPM_IF_MAX]; /**< the name table */
	unsigned int nb_ifs;
	uint32_t sync_ms;  /**< quiet period ending a sync, 1..60000 */
	uint32_t buf_size; /**< receive buffer, 64..FWD_FPM_BUF_SIZE bytes;
	                    *   a longer frame is skipped (frame_too_long) */
	uint32_t nh_max;   /**< next hops kept at most, 1..1048576 */
	/** Where the reader's lines go (one line, no newline); NULL:
	 * stderr as "<prog>: fpm: ..." (app_err()). */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

/** The reader's counters; each reason of FWD_FPM_ERRORS also names a
 * refused frame or message. */
#define FWD_FPM_COUNTERS(X) \
	X(connects,        "connections accepted") \
	X(reconnects,      "connections after the first (zebra restarted or reconnected)") \
	X(replaced,        "connections closed because a new one came") \
	X(disconnects,     "connections ended by zebra or by an error") \
	X(frames,          "FPM frames read whole") \
	X(bytes,           "bytes read") \
	X(messages,        "netlink messages in them") \
	X(routes_added,    "routes given to the sink as added") \
	X(routes_deleted,  "routes given as deleted") \
	X(routes_replaced, "delete + add pairs given as one replace") \
	X(nexthops_added,  "next-hop messages taken (RTM_NEWNEXTHOP)") \
	X(nexthops_deleted, "next hops deleted (RTM_DELNEXTHOP)") \
	X(multipath,       "routes with several next hops: the first taken") \
	X(oif_unmapped,    "routes via a gateway whose interface maps to no port: given with port any") \
	X(syncs,           "resynchronisations ended by the quiet period") \
	X(syncs_aborted,   "resynchronisations cut by the connection's end")

/** Why a frame or message was refused or ignored. */
#define FWD_FPM_ERRORS(X) \
	X(frame_header,   "FPM header not version 1, netlink, length >= 4: connection closed") \
	X(frame_too_long, "frame longer than the receive buffer: skipped") \
	X(nl_len,         "netlink message length out of its frame: rest of the frame skipped") \
	X(attr_len,       "attribute or header length wrong: message refused") \
	X(msg_type,       "netlink message neither route nor next hop: ignored") \
	X(family,         "route family not IPv4 or IPv6 (MPLS, bridge)") \
	X(route_type,     "route type not unicast, blackhole, unreachable or prohibit") \
	X(table,          "route of another table than main (254)") \
	X(src_prefix,     "source-specific route (rtm_src_len not 0)") \
	X(prefix_len,     "prefix length beyond the family's") \
	X(no_nexthop,     "unicast route without gateway, interface or next-hop id") \
	X(via,            "gateway of the other family (RTA_VIA, RFC 5549)") \
	X(encap,          "encapsulated route or next hop (EVPN, SRv6, MPLS)") \
	X(nh_unknown,     "route naming a next-hop id not given (or its group's first member)") \
	X(nh_full,        "next-hop table full") \
	X(nh_bad,         "next-hop message refused (no id, nested group, bad family)") \
	X(no_port,        "interface maps to no port and no gateway to find one") \
	X(rib_refused,    "the sink could not place the route (table full)")

#define FWD_FPM_ENUM_(name, doc) FWD_FPM_ERR_##name,
/** The reasons, in FWD_FPM_ERRORS order. */
enum fwd_fpm_error {
	FWD_FPM_ERRORS(FWD_FPM_ENUM_)
	FWD_FPM_NB_ERRORS
};
#undef FWD_FPM_ENUM_

#define FWD_FPM_FIELD_(name, doc) uint64_t name;
/** A snapshot of the counters (fwd_fpm_stats_get()). */
struct fwd_fpm_stats {
	FWD_FPM_COUNTERS(FWD_FPM_FIELD_)
	uint64_t err[FWD_FPM_NB_ERRORS]; /**< by enum fwd_fpm_error */
	uint64_t nexthops;       /**< next hops held now */
	uint64_t last_update_ms; /**< the time of the last route given to
	                          *   the sink (fwd_fpm_poll()'s clock),
	                          *   0: none yet */
	uint64_t connect_ms;     /**< the time the last connection began,
	                          *   0: none yet */
	uint64_t sync_ms;        /**< the time the last sync ended (its
	                          *   quiet period over), 0: none yet */
	bool connected;          /**< a connection is open */
	bool syncing;            /**< in a resynchronisation */
};
#undef FWD_FPM_FIELD_

#endif /* FWD_FPM_H */
