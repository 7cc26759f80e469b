/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * npool-gen frames: synthetic IPv4/UDP frames (one --size, or the IMIX
 * cycle) built once per TX queue, and the frames of a --pcap capture.
 * The per-packet part (flow, sequence number, checksums) is in
 * gen_lcore.c.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include <rte_byteorder.h>

#include "app_log.h"
#include "app_port.h"
#include "gen_pkt.h"

/*
 * The simple IMIX, 7 x 60 : 4 x 590 : 1 x 1514 bytes (without FCS), in
 * a fixed order that spreads the sizes; packet i of a TX queue has size
 * gen_imix_cycle[i % 12].
 */
const uint16_t gen_imix_cycle[12] = {
	60, 590, 60, 60, 590, 60, 60, 590, 60, 60, 590, 1514,
};

int
gen_parse_ipv4(const char *flag, const char *s, rte_be32_t *ip)
{
	struct in_addr a;

	if (s == NULL || inet_pton(AF_INET, s, &a) != 1) {
		app_err("%s: '%s' is not an IPv4 address a.b.c.d", flag,
				s != NULL ? s : "");
		return -1;
	}
	*ip = a.s_addr;
	return 0;
}

void
gen_frames_free(struct gen_frames *fr)
{
	free(fr->f);
	free(fr->mem);
	memset(fr, 0, sizeof(*fr));
}

/*
 * One synthetic frame of @p size bytes at @p buf, with the variable
 * fields zero, and the sums of what stays.
 */
static void
build_frame(uint8_t *buf, uint16_t size, const struct gen_conf *c,
		uint16_t port, uint16_t queue, struct gen_frame *f)
{
	struct gen_hdr *h = (struct gen_hdr *)buf;
	uint16_t l4_len = size - sizeof(h->eth) - sizeof(h->ip);
	uint32_t sum;
	uint16_t k;

	memset(buf, 0, size);
	h->eth.dst_addr = c->dst_mac;
	h->eth.src_addr = app_port_mac[port];
	h->eth.ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	h->ip.version_ihl = RTE_IPV4_VHL_DEF;
	h->ip.total_length = rte_cpu_to_be_16(size - sizeof(h->eth));
	h->ip.fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	h->ip.time_to_live = 64;
	h->ip.next_proto_id = IPPROTO_UDP;
	h->ip.dst_addr = c->dst_ip;
	h->udp.dst_port = rte_cpu_to_be_16(GEN_UDP_PORT);
	h->udp.dgram_len = rte_cpu_to_be_16(l4_len);
	h->pl.port = rte_cpu_to_be_16(port);
	h->pl.queue = rte_cpu_to_be_16(queue);
	/* The rest of the payload: byte k of the frame is k mod 256. */
	for (k = sizeof(*h); k < size; k++)
		buf[k] = (uint8_t)k;
	f->data = buf;
	f->len = size;
	f->ip_sum = rte_raw_cksum(&h->ip, sizeof(h->ip));
	/* Pseudo header without the source address, then the datagram. */
	sum = __rte_raw_cksum(&h->udp, l4_len,
			rte_ipv4_phdr_cksum(&h->ip, 0));
	f->udp_sum = __rte_raw_cksum_reduce(sum);
}

int
gen_frames_build(struct gen_frames *fr, const struct gen_conf *c,
		uint16_t port, uint16_t queue)
{
	static const uint16_t imix_sizes[GEN_MAX_SIZES] = { 60, 590, 1514 };
	struct gen_frame one[GEN_MAX_SIZES];
	uint16_t sizes[GEN_MAX_SIZES];
	unsigned int nb_sizes, i, j;
	size_t off = 0;

	memset(fr, 0, sizeof(*fr));
	fr->synthetic = true;
	if (c->imix) {
		memcpy(sizes, imix_sizes, sizeof(sizes));
		nb_sizes = GEN_MAX_SIZES;
		fr->nb = RTE_DIM(gen_imix_cycle);
	} else {
		sizes[0] = (uint16_t)c->size;
		nb_sizes = 1;
		fr->nb = 1;
	}
	for (i = 0; i < nb_sizes; i++)
		off += sizes[i];
	fr->mem = malloc(off);
	fr->f = calloc(fr->nb, sizeof(*fr->f));
	if (fr->mem == NULL || fr->f == NULL) {
		app_err("out of memory for the frames");
		gen_frames_free(fr);
		return -1;
	}
	for (i = 0, off = 0; i < nb_sizes; i++) {
		build_frame(fr->mem + off, sizes[i], c, port, queue, &one[i]);
		off += sizes[i];
		fr->max_len = RTE_MAX(fr->max_len, sizes[i]);
	}
	for (j = 0; j < fr->nb; j++) {
		if (!c->imix) {
			fr->f[j] = one[0];
			continue;
		}
		for (i = 0; i < nb_sizes; i++)
			if (sizes[i] == gen_imix_cycle[j])
				fr->f[j] = one[i];
	}
	return 0;
}

/* Append one captured frame; offsets now, pointers once all are read. */
static int
pcap_append(struct gen_frames *fr, size_t *cap_f, size_t *cap_mem,
		size_t *used, const uint8_t *data, uint16_t len)
{
	void *p;

	if (fr->nb == *cap_f) {
		*cap_f = *cap_f != 0 ? 2 * *cap_f : 256;
		p = realloc(fr->f, *cap_f * sizeof(*fr->f));
		if (p == NULL)
			return -1;
		fr->f = p;
	}
	while (*used + len > *cap_mem) {
		*cap_mem = *cap_mem != 0 ? 2 * *cap_mem : 65536;
		p = realloc(fr->mem, *cap_mem);
		if (p == NULL)
			return -1;
		fr->mem = p;
	}
	memcpy(fr->mem + *used, data, len);
	fr->f[fr->nb].data = (const uint8_t *)(uintptr_t)*used;
	fr->f[fr->nb].len = len;
	fr->nb++;
	*used += len;
	fr->max_len = RTE_MAX(fr->max_len, len);
	return 0;
}

int
gen_frames_load_pcap(struct gen_frames *fr, const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	size_t cap_f = 0, cap_mem = 0, used = 0;
	struct pcap_pkthdr *hdr;
	const u_char *data;
	uint32_t i;
	pcap_t *pc;
	int ret;

	memset(fr, 0, sizeof(*fr));
	pc = pcap_open_offline(path, errbuf);
	if (pc == NULL) {
		/* libpcap names the file in some messages only. */
		if (strstr(errbuf, path) != NULL)
			app_err("--pcap: %s", errbuf);
		else
			app_err("--pcap: %s: %s", path, errbuf);
		return -1;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		app_err("--pcap: %s: link type %s, not Ethernet", path,
				pcap_datalink_val_to_name(pcap_datalink(pc)));
		pcap_close(pc);
		return -1;
	}
	while ((ret = pcap_next_ex(pc, &hdr, &data)) == 1) {
		if (hdr->caplen == 0 || hdr->caplen > GEN_MAX_FRAME) {
			fr->pcap_skipped++;
			continue;
		}
		if (pcap_append(fr, &cap_f, &cap_mem, &used, data,
				(uint16_t)hdr->caplen) < 0) {
			app_err("--pcap: %s: out of memory", path);
			ret = -3;
			break;
		}
	}
	if (ret == -1)
		app_err("--pcap: %s: %s", path, pcap_geterr(pc));
	pcap_close(pc);
	if (ret != -2) {
		gen_frames_free(fr);
		return ret == -3 ? -2 : -1;
	}
	if (fr->nb == 0) {
		app_err("--pcap: %s: no frame of 1..%u bytes to send", path,
				GEN_MAX_FRAME);
		gen_frames_free(fr);
		return -1;
	}
	for (i = 0; i < fr->nb; i++)
		fr->f[i].data = fr->mem + (uintptr_t)fr->f[i].data;
	return 0;
}
