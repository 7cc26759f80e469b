#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Frames for the app benchmarks: UDP frames to 198.18.1.x, IMIX, and the
three frame sets of the fwd rows (FRAME_SETS). Every frame is addressed to
the MAC of the port that receives it, as a real sender's would be: the
MAC net_pcap gives a port that reads a file (eth_addr in DPDK's
rte_eth_pcap.c, 22.11 to 25.11), so that npool-fwd's check of the
destination MAC (RFC 1812 5.3.4) passes and its fast path is what is
measured."""

import os
import random
import struct

IMIX = [(60, 7), (590, 4), (1514, 1)]

# net_pcap's MAC for an rx_pcap port (DPDK: 02:70:63:61:70:00, "pcap").
PCAP_MAC = bytes.fromhex('027063617000')
SRC_MAC = bytes.fromhex('020000000001')


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


def _ipv4(src, dst, proto, l4, ident, ttl=64):
    """IPv4 header (checksum right) + @l4."""
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(l4), ident & 0xffff,
                     0, ttl, proto, 0, src, dst)
    return ip[:10] + struct.pack('!H', _csum(ip)) + ip[12:] + l4


def _eth(l3, pad_to=60):
    """Ethernet header to PCAP_MAC + @l3, padded with zeros to @pad_to
    bytes (no FCS) as Ethernet pads a short frame."""
    fr = PCAP_MAC + SRC_MAC + b'\x08\x00' + l3
    return fr + bytes(max(0, pad_to - len(fr)))


def udp_frame(size, i, ttl=64):
    """Ethernet + IPv4 + UDP frame of @size bytes (no FCS) to 198.18.1.x."""
    ip_len = size - 14
    src, dst, sport, dport = flow(i)
    udp = struct.pack('!HHHH', sport, dport, ip_len - 20, 0)
    return _eth(_ipv4(src, dst, 17, udp + bytes(ip_len - 28), i, ttl))


def rand_udp_frame(rnd, i, size=60):
    """A 60-byte UDP frame from 198.19.0.x to 198.18.1.y, x, y and the
    ports random (l3fwd's default route 198.18.1.0/24 -> port 1)."""
    src = bytes([198, 19, 0, rnd.randint(1, 254)])
    dst = bytes([198, 18, 1, rnd.randint(1, 254)])
    plen = size - 14 - 20 - 8
    udp = struct.pack('!HHHH', rnd.randint(1024, 65535),
                      rnd.randint(1, 65535), 8 + plen, 0)
    return _eth(_ipv4(src, dst, 17, udp + bytes(plen), i))


def tcp_ack_frame(rnd, i):
    """A pure TCP ACK (IP length 40) from 198.19.0.x to 198.18.1.y: 54
    bytes, padded to 60 as Ethernet does (6 bytes after the IP packet)."""
    src = bytes([198, 19, 0, rnd.randint(1, 254)])
    dst = bytes([198, 18, 1, rnd.randint(1, 254)])
    sport, dport = rnd.randint(1024, 65535), rnd.choice((80, 443, 5001))
    tcp = struct.pack('!HHIIBBHHH', sport, dport, rnd.getrandbits(32),
                      rnd.getrandbits(32), 5 << 4, 0x10, 502, 0, 0)
    ph = src + dst + struct.pack('!BBH', 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack('!H', _csum(ph + tcp)) + tcp[18:]
    return _eth(_ipv4(src, dst, 6, tcp, i))


def _write(path, frames):
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack('<IIII', i // 1000000, i % 1000000,
                                len(fr), len(fr)) + fr)
    os.replace(tmp, path)
    return path


def write_pcap(path, sizes, count=256, ttl1_every=0):
    """@count frames cycling through @sizes, pcap (Ethernet link type);
    with @ttl1_every N, every Nth frame has TTL 1 (a router drops it and
    answers time exceeded)."""
    return _write(path, [
        udp_frame(sizes[i % len(sizes)], i,
                  1 if ttl1_every and i % ttl1_every == 0 else 64)
        for i in range(count)])


# A unicast MAC that is no port's: frames to another station (npool-fwd
# takes them with --forward-otherhost, as l3fwd, which checks no MAC).
OTHER_MAC = bytes.fromhex('02000000beef')


def write_pcap_other_mac(path, count=256):
    """write_pcap()'s 64-byte frames, to OTHER_MAC."""
    return _write(path, [OTHER_MAC + udp_frame(64, i)[6:]
                         for i in range(count)])


def write_rand_udp(path, count=1024, seed=1):
    """@count rand_udp_frame()s (a fixed seed: the same file each run)."""
    rnd = random.Random(seed)
    return _write(path, [rand_udp_frame(rnd, i) for i in range(count)])


def write_tcp_acks(path, count=1024, seed=2):
    """@count tcp_ack_frame()s, each padded to 60 bytes."""
    rnd = random.Random(seed)
    return _write(path, [tcp_ack_frame(rnd, i) for i in range(count)])


# The frame sets of the fwd rows (make bench, apps_budget.py): name ->
# (label, writer of the pcap into a folder).
FRAME_SETS = {
    'udp64': ('256 UDP 64 B',
              lambda d: write_pcap(os.path.join(d, 'udp64.pcap'), [64])),
    'rand60': ('1024 random UDP 60 B',
               lambda d: write_rand_udp(os.path.join(d, 'rand60.pcap'))),
    'ack60': ('1024 TCP ACK padded 60 B',
              lambda d: write_tcp_acks(os.path.join(d, 'ack60.pcap'))),
}


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
