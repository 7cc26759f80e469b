# SPDX-License-Identifier: BSD-3-Clause
"""Deterministic header fuzzing: frames derived from the edge-case set (and
the captures when given) by mutating the fields a router reads (destination
MAC, tags, EtherType, version/IHL, lengths, TTL, flags, addresses, checksum,
frame length), with the IPv4 checksum repaired on most of them so that the
mutation reaches the later checks.  The oracle decides each one."""

import ipaddress
import random
import struct

import edgecases
import oracle

V4_ADDRS = ('0.0.0.1', '127.1.2.3', '224.0.0.1', '239.1.1.1', '240.0.0.1',
            '255.255.255.255', '255.255.255.254', '198.18.0.1', '198.18.2.3',
            '198.18.4.128', '198.18.4.127', '198.19.255.255', '10.0.0.1',
            '203.0.113.9', '1.0.0.0', '126.255.255.255', '223.255.255.255',
            '225.1.2.3', '224.0.0.251')
V6_ADDRS = ('::', '::1', '::2', 'fe80::1', 'febf:ffff::1', 'fec0::1',
            'ff00::', 'feff::1', '2001:2::1', '2001:2:0:1::1',
            '2001:2:0:3:8000::1', '2001:db8::1', '3fff::1', '::ffff:7f00:1',
            'ff02::1', 'ff0e::3', 'ff05::2')
# Destination MACs: port 0's, a link broadcast, groups, another station
MACS = (oracle.PCAP_PORT0_MAC, b'\xff' * 6, bytes.fromhex('01005e010203'),
        bytes.fromhex('333300000001'), bytes.fromhex('010203040506'),
        bytes.fromhex('0200000000fe'))


def _l3_offset(f):
    if len(f) >= 18 and oracle.be16(f, 12) == 0x8100:
        return 18, oracle.be16(f, 16)
    if len(f) >= 14:
        return 14, oracle.be16(f, 12)
    return None, None


def _fix_v4_csum(f, off):
    if len(f) < off + 20:
        return
    ihl = (f[off] & 15) * 4
    if ihl >= 20 and len(f) >= off + ihl:
        f[off + 10:off + 12] = oracle.ipv4_checksum(
            f[off:off + ihl]).to_bytes(2, 'big')


def _addr(rnd, v6):
    return ipaddress.ip_address(rnd.choice(V6_ADDRS if v6 else V4_ADDRS)) \
        .packed


def mutate(rnd, frame):
    f = bytearray(frame)
    off, et = _l3_offset(f)
    if off is None:
        return bytes(f)
    kind = rnd.randrange(15)
    v4 = et == 0x0800 and len(f) >= off + 20
    v6 = et == 0x86DD and len(f) >= off + 40
    if kind == 0:                                   # truncate anywhere
        f = f[:rnd.randrange(len(f) + 1)]
    elif kind == 1:                                 # tag in front
        tpid = rnd.choice((0x8100, 0x8100, 0x88A8, 0x9100))
        tci = rnd.choice((0, 0, 1, 0xFFF, 0xE000, rnd.randrange(65536)))
        f = f[:12] + struct.pack('!HH', tpid, tci) + f[12:]
    elif kind == 2:                                 # EtherType
        f[off - 2:off] = struct.pack('!H', rnd.choice(
            (0x0800, 0x86DD, 0x0806, 0x8100, 0x88CC, 0x0000, 0x05DC)))
    elif kind == 3 and (v4 or v6):                  # version nibble
        f[off] = (rnd.randrange(16) << 4) | (f[off] & 15)
    elif kind == 4 and v4:                          # IHL
        f[off] = 0x40 | rnd.randrange(16)
    elif kind == 5 and v4:                          # total length
        tot = oracle.be16(f, off + 2)
        f[off + 2:off + 4] = struct.pack('!H', max(0, min(0xFFFF, rnd.choice(
            (0, 19, 20, tot - 1, tot + 1, len(f) - off, len(f) - off + 1,
             rnd.randrange(65536))))))
    elif kind == 5 and v6:                          # payload length
        pl = oracle.be16(f, off + 4)
        f[off + 4:off + 6] = struct.pack('!H', max(0, min(0xFFFF, rnd.choice(
            (0, pl - 1, pl + 1, len(f) - off - 40, len(f) - off - 39,
             rnd.randrange(65536))))))
    elif kind == 6 and v4:                          # TTL
        f[off + 8] = rnd.choice((0, 1, 2, 255, rnd.randrange(256)))
    elif kind == 6 and v6:                          # hop limit
        f[off + 7] = rnd.choice((0, 1, 2, 255))
    elif kind == 7 and v4:                          # DF / MF / offset
        fo = rnd.choice((0x4000, 0x2000, 0x6000, 0, rnd.randrange(65536)))
        f[off + 6:off + 8] = struct.pack('!H', fo)
    elif kind in (8, 9) and v4:                     # addresses
        at = off + (12 if kind == 8 else 16)
        f[at:at + 4] = _addr(rnd, False)
    elif kind in (8, 9) and v6:
        at = off + (8 if kind == 8 else 24)
        f[at:at + 16] = _addr(rnd, True)
    elif kind == 10:                                # trailing padding
        f += bytes(rnd.randrange(1, 80))
    elif kind == 11 and len(f) > off:               # random header byte
        i = off + rnd.randrange(min(40, len(f) - off))
        f[i] = rnd.randrange(256)
    elif kind == 12 and v4:                         # checksum off by one
        f[off + 11] ^= 1 << rnd.randrange(8)
        return bytes(f)
    elif kind == 14:                                # destination MAC
        f[0:6] = rnd.choice(MACS)
    elif kind == 13 and len(f) < 1400:              # grow the payload
        f += bytes(rnd.randrange(256) for _ in range(rnd.randrange(1200)))
        if v4:
            f[off + 2:off + 4] = struct.pack('!H', min(0xFFFF, len(f) - off))
        elif v6:
            f[off + 4:off + 6] = struct.pack('!H',
                                             min(0xFFFF, len(f) - off - 40))
    off2, et2 = _l3_offset(f)
    if et2 == 0x0800 and rnd.random() < 0.85 and off2 is not None:
        _fix_v4_csum(f, off2)
    return bytes(f)


def fuzz_frames(n, seed=1812, extra_seeds=()):
    """n frames, each one of the edge cases the router forwards (or, one
    time in four, an IP frame of extra_seeds) mutated one to three times."""
    rnd = random.Random(seed)
    edge = [k.frame for k in edgecases.main_cases() + edgecases.jumbo_cases()
            if k.expect[0] != 'drop' and len(k.frame) <= 9100]
    ip = [f for f in extra_seeds if 34 <= len(f) <= 9100 and
          _l3_offset(f)[1] in (0x0800, 0x86DD)]
    out = []
    for _ in range(n):
        f = rnd.choice(ip if ip and rnd.random() < 0.25 else edge)
        for _ in range(rnd.choice((1, 1, 1, 1, 1, 1, 2, 2, 2, 3))):
            f = mutate(rnd, f)
        out.append(f)
    return out
