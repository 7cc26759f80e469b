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


def udp_frame(size, i):
    """Ethernet + IPv4 + UDP frame of @size bytes (no FCS) to 198.18.1.x."""
    eth = bytes.fromhex('020000000000' '020000000001' '0800')
    ip_len = size - 14
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, ip_len, i & 0xffff, 0, 64,
                     17, 0, bytes([198, 18, 0, 1 + i % 250]),
                     bytes([198, 18, 1, 1 + i % 254]))
    ip = ip[:10] + struct.pack('!H', _csum(ip)) + ip[12:]
    udp = struct.pack('!HHHH', 1024 + i % 512, 5001, ip_len - 20, 0)
    return eth + ip + udp + bytes(ip_len - 28)


def write_pcap(path, sizes, count=256):
    """@count frames cycling through @sizes, pcap (Ethernet link type)."""
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i in range(count):
            fr = udp_frame(sizes[i % len(sizes)], i)
            f.write(struct.pack('<IIII', i // 1000000, i % 1000000,
                                len(fr), len(fr)) + fr)
    os.replace(tmp, path)
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
