#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Frames for the app benchmarks: UDP frames to 198.18.1.x and IMIX pcaps."""

import os
import struct

IMIX = [(60, 7), (590, 4), (1514, 1)]


def _csum(b):
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def flow(i):
    """(src, dst, sport, dport) of frame @i: 198.18.0.x -> 198.18.1.y,
    UDP to port 5001."""
    return (bytes([198, 18, 0, 1 + i % 250]), bytes([198, 18, 1, 1 + i % 254]),
            1024 + i % 512, 5001)


# The RX port's MAC: net_pcap's first port (02:70:63:61:70:00, "pcap" and
# the port's index). npool-fwd, as a Linux router, drops a frame sent to
# another MAC (l2_otherhost); l3fwd checks none.
RX_MAC = '027063617000'


def udp_frame(size, i, ttl=64):
    """Ethernet + IPv4 + UDP frame of @size bytes (no FCS) to 198.18.1.x,
    sent to the RX port's MAC."""
    eth = bytes.fromhex(RX_MAC + '020000000001' '0800')
    ip_len = size - 14
    src, dst, sport, dport = flow(i)
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, ip_len, i & 0xffff, 0, ttl,
                     17, 0, src, dst)
    ip = ip[:10] + struct.pack('!H', _csum(ip)) + ip[12:]
    udp = struct.pack('!HHHH', sport, dport, ip_len - 20, 0)
    return eth + ip + udp + bytes(ip_len - 28)


def write_pcap(path, sizes, count=256, ttl1_every=0):
    """@count frames cycling through @sizes, pcap (Ethernet link type);
    with @ttl1_every N, every Nth frame has TTL 1 (a router drops it and
    answers time exceeded)."""
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i in range(count):
            ttl = 1 if ttl1_every and i % ttl1_every == 0 else 64
            fr = udp_frame(sizes[i % len(sizes)], i, ttl)
            f.write(struct.pack('<IIII', i // 1000000, i % 1000000,
                                len(fr), len(fr)) + fr)
    os.replace(tmp, path)
    return path


def write_em_rules(path, count=256, port=1):
    """An l3fwd EM route file ("R<dst> <src> <dport> <sport> <proto>
    <port>") with the 5-tuple of each of the first @count frames to
    @port: every frame of write_pcap() hits."""
    seen, lines = set(), []
    for i in range(count):
        src, dst, sport, dport = flow(i)
        key = (src, dst, sport)
        if key in seen:
            continue
        seen.add(key)
        lines.append('R%s %s %d %d 0x11 %d\n' % (
            '.'.join(map(str, dst)), '.'.join(map(str, src)), dport, sport,
            port))
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write('# EM routes of the bench frames (apps_frames.py)\n')
        f.writelines(lines)
    os.replace(tmp, path)
    return path


def write_em6_rules(path):
    """An IPv6 EM route file of one route (l3fwd wants both files)."""
    with open(path, 'w') as f:
        f.write('R2001:200:0:1::1 2001:200::1 9 9 0x11 1\n')
    return path


def imix_sizes():
    """7:4:1 of 60/590/1514, interleaved (12 frames a cycle)."""
    seq, left = [], {s: n for s, n in IMIX}
    while any(left.values()):
        for s, _ in IMIX:
            if left[s]:
                seq.append(s)
                left[s] -= 1
    return seq
