/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FPM_BUILD_H
#define FPM_BUILD_H

/*
 * FPM frames built by hand for the FPM reader's tests, as zebra's
 * dplane_fpm_nl writes them: an FPM header (version 1, type 1, length
 * with the header, big-endian), netlink messages (host order, 4-byte
 * aligned), rtmsg / nhmsg and rtattrs, nests for RTA_MULTIPATH.
 */

#include <stddef.h>
#include <stdint.h>

/* A stream of frames being written. */
struct fb {
	uint8_t b[16384];
	size_t len;     /* bytes written */
	size_t frame;   /* offset of the open frame */
	size_t msg;     /* offset of the open message */
	size_t nest;    /* offset of the open nest (RTA_MULTIPATH) */
	size_t rtnh;    /* offset of the open rtnexthop */
};

/* Open a frame (its header written by fb_frame_end()). */
void fb_frame(struct fb *b);
/* Close the frame: its length into the header. */
void fb_frame_end(struct fb *b);
/* Open a netlink message of @p type. */
void fb_msg(struct fb *b, uint16_t type);
/* Close the message: its length, padding to 4. */
void fb_msg_end(struct fb *b);
/* An rtmsg: @p family, /@p dst_len, table @p table, rtm_type @p type. */
void fb_rtmsg(struct fb *b, uint8_t family, uint8_t dst_len, uint8_t table,
		uint8_t type);
/* An nhmsg of @p family. */
void fb_nhmsg(struct fb *b, uint8_t family);
/* An attribute of @p len bytes. */
void fb_attr(struct fb *b, uint16_t type, const void *data, uint16_t len);
/* A 4-byte attribute. */
void fb_attr32(struct fb *b, uint16_t type, uint32_t v);
/* An address attribute from text (IPv4 or IPv6 by a ':'). */
void fb_addr(struct fb *b, uint16_t type, const char *text);
/* Open RTA_MULTIPATH; each hop by fb_hop() .. fb_hop_end(). */
void fb_mp(struct fb *b);
void fb_mp_end(struct fb *b);
void fb_hop(struct fb *b, uint32_t ifindex);
void fb_hop_end(struct fb *b);

/* One route message in a frame of its own: RTM_NEWROUTE (@p del:
 * RTM_DELROUTE) of @p dst (text, "198.18.0.0/24"), rtm_type @p type,
 * via @p gw (text or NULL), on @p oif (0: none), table main. */
void fb_route(struct fb *b, int del, const char *dst, uint8_t type,
		const char *gw, uint32_t oif);
/* The same message inside the open frame. */
void fb_route_msg(struct fb *b, int del, const char *dst, uint8_t type,
		const char *gw, uint32_t oif);

/* A next hop in a frame of its own, as zebra sends it: id @p id, via
 * @p gw (text, or NULL: on @p oif alone, or a blackhole without it). */
void fb_nh(struct fb *b, uint32_t id, const char *gw, uint32_t oif);
/* A unicast route naming next hop @p id (RTA_NH_ID), in a frame of its
 * own, as zebra 8.4 sends them by default. */
void fb_nh_route(struct fb *b, const char *dst, uint32_t id);

#endif /* FPM_BUILD_H */
