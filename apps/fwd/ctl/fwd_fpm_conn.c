/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader's connection (fwd_fpm_conn.h): the listener, one connection
 * at a time, FPM frames (fpm.h: version 1, type 1 netlink, a 16-bit
 * big-endian length counting the 4-byte header) cut out of the TCP
 * stream, and the resynchronisation a connection starts. The netlink
 * inside a frame: fwd_fpm_nl.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "fwd_fpm_conn.h"
#include "fwd_fpm_nh.h"
#include "fwd_fpm_nl.h"
#include "fwd_fpm_stats.h"

/* The FPM header (fpm.h fpm_msg_hdr_t). */
#define FPM_HDR_LEN 4
#define FPM_VERSION 1
#define FPM_TYPE_NETLINK 1
/* Reads a poll takes at most, so that one busy peer cannot hold the
 * control thread. */
#define FPM_READS_MAX 16

void
fwd_fpm_params_init(struct fwd_fpm_params *p)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&p->addr;

	memset(p, 0, sizeof(*p));
	in->sin_family = AF_INET;
	in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	in->sin_port = htons(FWD_FPM_PORT);
	p->sync_ms = FWD_FPM_SYNC_MS;
	p->buf_size = FWD_FPM_BUF_SIZE;
	p->nh_max = FWD_FPM_NH_MAX;
}

/* A decimal 1..65535, all of @p s. */
static int
parse_port(const char *s, uint16_t *port)
{
	unsigned long v = 0;
	const char *c;

	if (*s == '\0' || strlen(s) > 5)
		return -1;
	for (c = s; *c != '\0'; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (unsigned long)(*c - '0');
	}
	if (v == 0 || v > 65535)
		return -1;
	*port = (uint16_t)v;
	return 0;
}

int
fwd_fpm_parse_addr(struct fwd_fpm_params *p, const char *arg,
		const char **why)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&p->addr;
	struct sockaddr_in *in = (struct sockaddr_in *)&p->addr;
	const char *port_s = NULL, *colon;
	char host[INET6_ADDRSTRLEN + 1] = "";
	uint16_t port = FWD_FPM_PORT;
	size_t hl;

	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');

		if (end == NULL || (end[1] != '\0' && end[1] != ':')) {
			*why = "an IPv6 address in brackets is \"[ADDR]\" or \"[ADDR]:PORT\"";
			return -1;
		}
		hl = (size_t)(end - arg - 1);
		if (hl == 0 || hl >= sizeof(host)) {
			*why = "not an IPv6 address in the brackets";
			return -1;
		}
		memcpy(host, arg + 1, hl);
		host[hl] = '\0';
		if (end[1] == ':')
			port_s = end + 2;
	} else {
		colon = strchr(arg, ':');
		if (colon != NULL && strchr(colon + 1, ':') != NULL) {
			/* Two colons or more: an IPv6 address alone. */
			colon = NULL;
		}
		hl = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
		if (hl >= sizeof(host)) {
			*why = "the address is too long";
			return -1;
		}
		memcpy(host, arg, hl);
		host[hl] = '\0';
		if (colon != NULL)
			port_s = colon + 1;
	}
	if (port_s != NULL && parse_port(port_s, &port) < 0) {
		*why = "the port is not a number 1..65535";
		return -1;
	}
	memset(&p->addr, 0, sizeof(p->addr));
	if (host[0] == '\0') {
		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		in->sin_port = htons(port);
	} else if (arg[0] != '[' &&
			inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
	} else {
		*why = "not an IPv4 or IPv6 address";
		return -1;
	}
	return 0;
}

int
fwd_fpm_parse_if(struct fwd_fpm_params *p, const char *arg,
		const char **why)
{
	const char *comma = strchr(arg, ',');
	char port_s[8];
	unsigned int i;
	size_t pl;
	uint16_t port;

	if (comma == NULL || (pl = (size_t)(comma - arg)) == 0 ||
			pl >= sizeof(port_s)) {
		*why = "not PORT,IFNAME";
		return -1;
	}
	memcpy(port_s, arg, pl);
	port_s[pl] = '\0';
	/* parse_port() refuses 0, which is a port here. */
	if (strcmp(port_s, "0") == 0)
		port = 0;
	else if (parse_port(port_s, &port) < 0 || port > 63) {
		*why = "the port is not a number 0..63";
		return -1;
	}
	if (comma[1] == '\0' || strlen(comma + 1) >= IF_NAMESIZE ||
			strchr(comma + 1, '/') != NULL ||
			strchr(comma + 1, ' ') != NULL) {
		*why = "not an interface name (1..15 bytes, no '/' or blank)";
		return -1;
	}
	for (i = 0; i < p->nb_ifs; i++) {
		if (p->ifs[i].port == port) {
			*why = "the port has an interface already";
			return -1;
		}
		if (strcmp(p->ifs[i].name, comma + 1) == 0) {
			*why = "the interface has a port already";
			return -1;
		}
	}
	if (p->nb_ifs == FWD_FPM_IF_MAX) {
		*why = "too many interfaces";
		return -1;
	}
	snprintf(p->ifs[p->nb_ifs].name, IF_NAMESIZE, "%s", comma + 1);
	p->ifs[p->nb_ifs++].port = port;
	return 0;
}

struct fwd_fpm *
fwd_fpm_create(const struct fwd_fpm_params *p,
		const struct fwd_fpm_sink *sink)
{
	struct fwd_fpm *f;

	if (p->buf_size < 64 || p->buf_size > FWD_FPM_BUF_SIZE ||
			p->sync_ms == 0 || p->sync_ms > 60000 ||
			p->nh_max == 0 || p->nh_max > (1u << 20) ||
			p->nb_ifs > FWD_FPM_IF_MAX || sink->route == NULL) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->buf = malloc(p->buf_size);
	if (f->buf == NULL) {
		free(f);
		errno = ENOMEM;
		return NULL;
	}
	f->p = *p;
	f->sink = *sink;
	f->lfd = f->cfd = f->efd = -1;
	fpm_nh_init(&f->nh, p->nh_max);
	fpm_if_resolve(f);
	return f;
}

/* End the connection: the held deletes go, the sync is cut. */
static void
conn_close(struct fwd_fpm *f)
{
	if (!f->open)
		return;
	fpm_nl_flush(f);
	if (f->cfd >= 0) {
		if (f->efd >= 0)
			epoll_ctl(f->efd, EPOLL_CTL_DEL, f->cfd, NULL);
		close(f->cfd);
		f->cfd = -1;
	}
	f->open = false;
	f->len = 0;
	f->skip = 0;
	if (f->syncing) {
		f->syncing = false;
		FPM_INC(f->st.syncs_aborted);
	}
	__atomic_store_n(&f->st.syncing, false, __ATOMIC_RELAXED);
	__atomic_store_n(&f->st.connected, false, __ATOMIC_RELAXED);
}

void
fwd_fpm_free(struct fwd_fpm *f)
{
	if (f == NULL)
		return;
	conn_close(f);
	if (f->lfd >= 0)
		close(f->lfd);
	if (f->efd >= 0)
		close(f->efd);
	fpm_nh_fini(&f->nh);
	free(f->buf);
	free(f);
}

int
fwd_fpm_listen(struct fwd_fpm *f)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	int one = 1, rc;

	f->lfd = socket(f->p.addr.ss_family,
			SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (f->lfd < 0)
		return -errno;
	setsockopt(f->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(f->lfd, (const struct sockaddr *)&f->p.addr,
			f->p.addr.ss_family == AF_INET6 ?
			sizeof(struct sockaddr_in6) :
			sizeof(struct sockaddr_in)) < 0 ||
			listen(f->lfd, 4) < 0 ||
			getsockname(f->lfd, (struct sockaddr *)&a, &alen) < 0)
		goto fail;
	f->port = ntohs(a.ss_family == AF_INET6 ?
			((struct sockaddr_in6 *)&a)->sin6_port :
			((struct sockaddr_in *)&a)->sin_port);
	f->efd = epoll_create1(EPOLL_CLOEXEC);
	ev.data.fd = f->lfd;
	if (f->efd < 0 || epoll_ctl(f->efd, EPOLL_CTL_ADD, f->lfd, &ev) < 0)
		goto fail;
	return 0;
fail:
	rc = -errno;
	close(f->lfd);
	f->lfd = -1;
	if (f->efd >= 0)
		close(f->efd);
	f->efd = -1;
	return rc;
}

uint16_t
fwd_fpm_port(const struct fwd_fpm *f)
{
	return f->port;
}

int
fwd_fpm_fd(const struct fwd_fpm *f)
{
	return f->efd;
}

void
fwd_fpm_attach(struct fwd_fpm *f, int fd, uint64_t now_ms)
{
	struct epoll_event ev = { .events = EPOLLIN };

	f->now = now_ms;
	if (f->open) {
		FPM_INC(f->st.replaced);
		conn_close(f);
	}
	if (fd >= 0) {
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		ev.data.fd = fd;
		if (f->efd >= 0)
			epoll_ctl(f->efd, EPOLL_CTL_ADD, fd, &ev);
	}
	/* zebra sends every next hop again before the routes. */
	fpm_nh_fini(&f->nh);
	fpm_nh_init(&f->nh, f->p.nh_max);
	__atomic_store_n(&f->st.nexthops, 0, __ATOMIC_RELAXED);
	f->cfd = fd;
	f->open = true;
	f->syncing = true;
	f->quiet_since = now_ms;
	__atomic_store_n(&f->st.connect_ms, now_ms, __ATOMIC_RELAXED);
	if (f->st.connects != 0)
		FPM_INC(f->st.reconnects);
	FPM_INC(f->st.connects);
	__atomic_store_n(&f->st.connected, true, __ATOMIC_RELAXED);
	__atomic_store_n(&f->st.syncing, true, __ATOMIC_RELAXED);
	if (f->sink.sync_begin != NULL)
		f->sink.sync_begin(f->sink.ctx);
}

/* The whole frames held in the buffer, to fwd_fpm_nl.c; a bad header
 * closes the connection. @return 0, or -1 when closed. */
static int
stream_take(struct fwd_fpm *f)
{
	uint32_t off = 0, flen;
	const uint8_t *h;

	while (f->len - off >= FPM_HDR_LEN) {
		if (off & 3) {
			/* Netlink wants its 4-byte alignment: a frame after
			 * one of an odd length moves to the start. */
			memmove(f->buf, f->buf + off, f->len - off);
			f->len -= off;
			off = 0;
		}
		h = f->buf + off;
		flen = (uint32_t)h[2] << 8 | h[3];
		if (h[0] != FPM_VERSION || h[1] != FPM_TYPE_NETLINK ||
				flen < FPM_HDR_LEN) {
			fpm_err(f, FWD_FPM_ERR_frame_header,
					"FPM header %02x %02x length %u (want version 1, type 1 netlink, length >= 4): connection closed",
					h[0], h[1], flen);
			conn_close(f);
			return -1;
		}
		if (flen > f->p.buf_size) {
			fpm_err(f, FWD_FPM_ERR_frame_too_long,
					"a frame of %u bytes, above the %u-byte buffer: skipped",
					flen, f->p.buf_size);
			f->skip = flen - (f->len - off);
			f->len = 0;
			return 0;
		}
		if (f->len - off < flen)
			break;
		FPM_INC(f->st.frames);
		f->quiet_since = f->now;
		fpm_nl_frame(f, h + FPM_HDR_LEN, flen - FPM_HDR_LEN);
		off += flen;
	}
	if (off != 0) {
		memmove(f->buf, f->buf + off, f->len - off);
		f->len -= off;
	}
	return 0;
}

int
fwd_fpm_input(struct fwd_fpm *f, const void *data, size_t len,
		uint64_t now_ms)
{
	const uint8_t *p = data;
	size_t n;

	f->now = now_ms;
	if (!f->open)
		return -1;
	FPM_ADD(f->st.bytes, len);
	while (len != 0) {
		if (f->skip != 0) {
			n = len < f->skip ? len : f->skip;
			f->skip -= (uint32_t)n;
			p += n;
			len -= n;
			continue;
		}
		n = f->p.buf_size - f->len;
		if (n > len)
			n = len;
		memcpy(f->buf + f->len, p, n);
		f->len += (uint32_t)n;
		p += n;
		len -= n;
		if (stream_take(f) < 0)
			return -1;
	}
	return 0;
}

/* Read what the connection has, a bounded number of reads. */
static void
conn_read(struct fwd_fpm *f)
{
	unsigned int i;
	ssize_t n;

	for (i = 0; i < FPM_READS_MAX && f->cfd >= 0; i++) {
		if (f->skip != 0) {
			n = read(f->cfd, f->buf, f->skip < f->p.buf_size ?
					f->skip : f->p.buf_size);
			if (n > 0) {
				f->skip -= (uint32_t)n;
				FPM_ADD(f->st.bytes, n);
				continue;
			}
		} else {
			n = read(f->cfd, f->buf + f->len,
					f->p.buf_size - f->len);
			if (n > 0) {
				FPM_ADD(f->st.bytes, n);
				f->len += (uint32_t)n;
				stream_take(f);
				continue;
			}
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n < 0)
			fpm_log(f, "connection: %s: closed", strerror(errno));
		else
			fpm_log(f, "zebra closed the connection");
		FPM_INC(f->st.disconnects);
		conn_close(f);
		return;
	}
}

/* Take every waiting connection: the last one stays (zebra restarted
 * and connected again). */
static void
accept_all(struct fwd_fpm *f)
{
	char text[64];
	struct sockaddr_storage a;
	socklen_t alen;
	int fd;

	for (;;) {
		alen = sizeof(a);
		fd = accept4(f->lfd, (struct sockaddr *)&a, &alen,
				SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		fpm_log(f, "zebra connected from %s%s",
				fwd_fpm_addr_text(&a, text, sizeof(text)),
				f->open ? " (replacing the connection open)" :
				"");
		fwd_fpm_attach(f, fd, f->now);
	}
}

int
fwd_fpm_poll(struct fwd_fpm *f, uint64_t now_ms)
{
	uint64_t left;

	f->now = now_ms;
	if (f->lfd >= 0)
		accept_all(f);
	if (f->cfd >= 0)
		conn_read(f);
	if (!f->syncing)
		return -1;
	if (now_ms - f->quiet_since >= f->p.sync_ms) {
		f->syncing = false;
		__atomic_store_n(&f->st.sync_ms, now_ms, __ATOMIC_RELAXED);
		__atomic_store_n(&f->st.syncing, false, __ATOMIC_RELAXED);
		FPM_INC(f->st.syncs);
		if (f->sink.sync_done != NULL)
			f->sink.sync_done(f->sink.ctx);
		return -1;
	}
	left = f->p.sync_ms - (now_ms - f->quiet_since);
	return (int)left;
}
