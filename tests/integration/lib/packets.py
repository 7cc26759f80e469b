# SPDX-License-Identifier: BSD-3-Clause
"""Small packet builders for the edge-case set (python3 stdlib only).

Every field can be forced to a wrong value so that malformed packets are
easy to write; checksums are computed from scratch here (not by the oracle)
unless a value is forced.
"""

import ipaddress
import struct

SRC_MAC = bytes.fromhex('020000aa0001')   # the "host" sending into port 0
# What frames are sent to: DPDK net_pcap's MAC of the first pcap port of a
# process (02:70:63:61:70:00, "pcap" and the port's index), port 0 of the
# sets, which takes only frames to its own MAC (docs/apps/npool-fwd.md).
PORT0_MAC = bytes.fromhex('027063617000')


def _sum16(data):
    if len(data) & 1:
        data += b'\0'
    s = 0
    for i in range(0, len(data), 2):
        s += (data[i] << 8) | data[i + 1]
    while s > 0xFFFF:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def inet_csum(data):
    return (~_sum16(bytes(data))) & 0xFFFF


def mac(text):
    return bytes(int(x, 16) for x in text.split(':'))


def eth(payload, ethertype=0x0800, dst=PORT0_MAC, src=SRC_MAC,
        tags=()):
    """Ethernet frame; tags: (tpid, tci) pairs, outermost first."""
    d = mac(dst) if isinstance(dst, str) else dst
    hdr = d + src
    for tpid, tci in tags:
        hdr += struct.pack('!HH', tpid, tci)
    return hdr + struct.pack('!H', ethertype) + bytes(payload)


def pad60(frame, fill=b'\0'):
    """Pad to the 60-byte Ethernet minimum (FCS not included)."""
    if len(frame) < 60:
        frame += (fill * 60)[:60 - len(frame)]
    return frame


def v4addr(a):
    return ipaddress.IPv4Address(a).packed


def v6addr(a):
    return ipaddress.IPv6Address(a).packed


def udp(payload=b'npool', sport=4000, dport=5000):
    return struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload


def ipv4(src='198.18.0.1', dst='198.18.1.1', payload=None, ttl=64, proto=17,
         ident=0x1234, tos=0, df=False, mf=False, frag_off=0, options=b'',
         version=4, ihl=None, tot_len=None, csum=None):
    """IPv4 header + payload (a UDP datagram by default)."""
    if payload is None:
        payload = udp()
    if len(options) % 4:
        raise ValueError('options must be a multiple of 4 bytes')
    hl = 20 + len(options)
    if ihl is None:
        ihl = hl // 4
    if tot_len is None:
        tot_len = hl + len(payload)
    fo = (0x4000 if df else 0) | (0x2000 if mf else 0) | (frag_off & 0x1FFF)
    h = bytearray(struct.pack('!BBHHHBBH4s4s', (version << 4) | (ihl & 0xF),
                              tos, tot_len & 0xFFFF, ident, fo, ttl, proto, 0,
                              v4addr(src), v4addr(dst)) + options)
    if csum is None:
        csum = inet_csum(h)
    h[10:12] = struct.pack('!H', csum)
    return bytes(h) + bytes(payload)


def ipv6(src='2001:2::1', dst='2001:2:0:1::1', payload=None, hlim=64, nh=17,
         version=6, plen=None, tclass=0, flow=0):
    if payload is None:
        payload = udp()
    if plen is None:
        plen = len(payload)
    vtf = (version << 28) | (tclass << 20) | flow
    return struct.pack('!IHBB16s16s', vtf, plen & 0xFFFF, nh, hlim,
                       v6addr(src), v6addr(dst)) + bytes(payload)


def arp(sip='198.18.0.1', tip='198.18.0.2'):
    return struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, SRC_MAC,
                       v4addr(sip), bytes(6), v4addr(tip))


def forwarded(frame_l3, port_dst_mac, port_src_mac, ethertype):
    """What a router sends: new MACs, the (already rewritten) L3 packet."""
    return port_dst_mac + port_src_mac + struct.pack('!H', ethertype) + \
        bytes(frame_l3)
