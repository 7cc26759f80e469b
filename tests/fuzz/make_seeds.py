#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Seed corpora of the fuzz targets, from the integration tests' inputs:

  fwd_pkt    the edge-case frames (tests/integration/lib/edgecases.py) with
             the flags byte of their set, and with --captures DIR the first
             frames of each capture (--per-capture, cut to --max-frame),
             each also as a chain of small segments and copy-broken
  fwd_route  the route files of bad_input.py and edgecases.py, and the
             multicast routes of cast_cases.py
  app_cli    bad_input.py's command lines and good ones (NUL-separated)
  npool_ops  one of each operation, and random sequences (fixed seed)
  fwd_fpm    FPM streams as zebra 8.4 sends them (fpm_build.c's frames in
             python): each route type and family, multipath, next hops
             and groups, delete + add, garbage, under several flags

  make_seeds.py --out DIR [--captures DIR] [--per-capture N] [--max-frame N]

The committed corpus (tests/fuzz/corpus) is `make_seeds.py --out
tests/fuzz/corpus --captures tests/data/captures --per-capture 1
--max-frame 1600` plus what libFuzzer found that adds coverage (after
10-minute runs: `TARGET_fuzz -merge=1 tests/fuzz/corpus/T
build-fuzz/fuzz/corpus/T`); scripts/fuzz.sh makes more seeds at run time.
"""

import argparse
import hashlib
import os
import random
import socket
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
sys.path.insert(0, os.path.join(HERE, '..', 'integration', 'lib'))

import bad_input  # noqa: E402
import cast_cases  # noqa: E402
import edgecases  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402

# fwd_pkt flags (fwd_pkt_fuzz.c): bit 0 l3fwd's default tables, bits 1-2
# MTU 1500/68/576/9000, bit 3 stock pool, bit 4 copy-break, bit 5
# IP_CKSUM_BAD, bit 6 IP_CKSUM_GOOD when right, bit 7 a chain cut wrong.
DEFTABLES, MTU68, MTU9000, STOCK, COPYBREAK, CUT = 1, 2, 6, 8, 16, 128
# fwd_pkt_fuzz.c's port 0 MAC: the edge-case frames sent to the sets' port
# 0 (packets.PORT0_MAC) are sent to it instead.
FZ_PORT0_MAC = bytes.fromhex('0200000000fe')

GOOD_CLI = [
    ['-p', '0x3'],
    ['-p', '3', '--config', '(0,0,0),(1,0,1)', '--pool', 'mempool'],
    ['-p', '0x1', '--config', '(0,0,0),(0,1,0)', '--copybreak', '256',
     '--nb-mbufs', '8192', '--mbuf-size', '2176', '--mbcache', '0'],
    ['-p', '0x3', '--nb-chunks', '16', '--nb-small-chunks', '0',
     '--nb-heads', '64', '--nb-mbufs', '1'],
    ['-p', '0x3', '--eth-dest', '1,02:aa:bb:cc:dd:01', '--mtu', '9000',
     '--lookup', 'lpm', '--rule_ipv4', 'r4', '--rule_ipv6', 'r6'],
    ['-P', '-p', '0x2', '--stats', '1', '--duration', '0.5',
     '--idle-exit', '300', '--json', 'out.json'],
    ['-h'],
    ['--help'],
    # refused: a gap in a port's queues, a queue twice, an absent port
    ['-p', '0x1', '--config', '(0,1,0)'],
    ['-p', '0x3', '--config', '(0,0,0),(1,0,0),(0,0,1)'],
    ['-p', '0x3', '--eth-dest', '7,02:00:00:00:00:07'],
]

# npool_ops_fuzz.c's opcodes
OPS = 18


def write(out, target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def fz_frame(frame):
    """@frame as sent to fwd_pkt_fuzz.c's port 0 when it was to the sets'
    port 0."""
    if frame[:6] == packets.PORT0_MAC:
        return FZ_PORT0_MAC + frame[6:]
    return frame


def fwd_pkt(out, captures, per_capture, max_frame):
    sets = ((edgecases.main_cases(), 0), (edgecases.order_cases(), 0),
            (edgecases.jumbo_cases(), MTU9000),
            (edgecases.deftables_cases(), DEFTABLES))
    for cases, flags in sets:
        for k in cases:
            k.frame = fz_frame(k.frame)
            write(out, 'fwd_pkt', bytes([flags, 0, 0]) + k.frame)
    # A few as chains of small segments, copy-broken, on a stock pool,
    # with a 68-byte MTU (fragments).
    for k in edgecases.main_cases()[:8]:
        f = fz_frame(k.frame)
        write(out, 'fwd_pkt', bytes([STOCK, 20, 2]) + f)
        write(out, 'fwd_pkt', bytes([COPYBREAK | 64, 0, 0]) + f)
        write(out, 'fwd_pkt', bytes([MTU68 | 32, 0, 8]) + f)
    # Chains cut wrong by the PMD: pkt_len long, short, nb_segs + 1.
    for cut, k in enumerate(edgecases.main_cases()[:3]):
        write(out, 'fwd_pkt', bytes([CUT, 0, 0, cut]) + fz_frame(k.frame))
    if captures is None:
        return
    for name in sorted(os.listdir(captures)):
        if not name.endswith('.pcap'):
            continue
        try:
            pcap = pcaplib.read(os.path.join(captures, name))
        except pcaplib.PcapError:
            continue
        if pcap.linktype != pcaplib.LINKTYPE_ETHERNET:
            continue
        for i, rec in enumerate(pcap.records[:per_capture]):
            frame = bytes(rec.data[:max_frame])
            flags = (i % 2) * STOCK
            write(out, 'fwd_pkt', bytes([flags, 0, 0]) + frame)
            if i == 0:
                write(out, 'fwd_pkt', bytes([flags | MTU68, 40, 4]) + frame)


def fwd_route(out):
    files = dict(bad_input.ROUTE_FILES)
    files['nulls4'] = files['nulls4'][:200]
    files['nulcomment4'] = files['nulcomment4'][:200] + '\n'
    files['edge4'] = edgecases.ROUTES_V4
    files['edge6'] = edgecases.ROUTES_V6
    # multicast routes (the target parses --mroute files too)
    files['mroutes'] = cast_cases.MROUTES
    for text in files.values():
        write(out, 'fwd_route', text.encode('latin-1'))


def app_cli(out):
    for case in bad_input.CASES:
        args = [a if '{' not in a else 'x' for a in case[1]]
        write(out, 'app_cli', '\0'.join(args).encode())
    for args in GOOD_CLI:
        write(out, 'app_cli', '\0'.join(args).encode())


def npool_ops(out):
    rnd = random.Random(20261129)
    # Each operation with plausible arguments, then frees.
    one = bytearray()
    for op in range(OPS):
        one += bytes([op]) + bytes([64, 1, 6, 0, 0])
    write(out, 'npool_ops', bytes(one))
    # Allocate until the arena runs dry, then free everything.
    dry = bytearray()
    for _ in range(40):
        dry += bytes([0, 0x00, 0x80])          # napi frag, 32 KiB
    for h in range(40):
        dry += bytes([4, h, 0, 0])
    write(out, 'npool_ops', bytes(dry))
    for n in (64, 256, 1024):
        write(out, 'npool_ops', bytes(rnd.randrange(256) for _ in range(n)))


def fpm_frame(*msgs):
    """An FPM frame (version 1, type 1, length with its header) of the
    netlink messages @msgs."""
    body = b''.join(msgs)
    return struct.pack('>BBH', 1, 1, 4 + len(body)) + body


def nl_attr(t, data):
    a = struct.pack('=HH', 4 + len(data), t) + data
    return a + bytes(-len(a) % 4)


def nl_msg(t, body):
    m = struct.pack('=IHHII', 16 + len(body), t, 0x501, 0, 0) + body
    return m + bytes(-len(m) % 4)


def addr(text):
    return socket.inet_pton(socket.AF_INET6 if ':' in text else
                            socket.AF_INET, text)


def fpm_route(dst, rtype=1, gw=None, oif=0, dele=False, nh_id=0,
              multipath=(), table=254):
    """RTM_NEWROUTE (24) or RTM_DELROUTE (25) of @dst 'a/len'."""
    pfx, length = dst.split('/')
    fam = 10 if ':' in pfx else 2
    body = struct.pack('=BBBBBBBBI', fam, int(length), 0, 0, table, 196, 0,
                       0 if dele else rtype, 0)
    body += nl_attr(1, addr(pfx)) + nl_attr(6, struct.pack('=I', 20))
    if gw:
        body += nl_attr(5, addr(gw))
    if oif:
        body += nl_attr(4, struct.pack('=I', oif))
    if nh_id:
        body += nl_attr(30, struct.pack('=I', nh_id))
    if multipath:
        hops = b''
        for g, i in multipath:
            h = nl_attr(5, addr(g))
            hops += struct.pack('=HBBi', 8 + len(h), 0, 0, i) + h
        body += nl_attr(9 | 0x8000, hops)
    return nl_msg(25 if dele else 24, body)


def fpm_nexthop(nh_id, gw=None, oif=0, group=(), dele=False):
    """RTM_NEWNEXTHOP (104) / RTM_DELNEXTHOP (105), as zebra writes it."""
    fam = 0 if group else 10 if gw and ':' in gw else 2
    body = struct.pack('=BBBBI', fam, 0, 11, 0, 0)
    body += nl_attr(1, struct.pack('=I', nh_id))
    if group:
        body += nl_attr(2, b''.join(struct.pack('=IBBH', g, 0, 0, 0)
                                    for g in group))
    elif gw:
        body += nl_attr(6, addr(gw))
    elif not oif:
        body += nl_attr(4, b'')
    if oif:
        body += nl_attr(5, struct.pack('=I', oif))
    return nl_msg(105 if dele else 104, body)


def fwd_fpm(out):
    """Streams of frames; the lo of fwd_fpm_fuzz.c is port 3 (ifindex 1
    in a fresh namespace, else some other: both kinds are seeds)."""
    lo = 1
    routes = [
        fpm_frame(fpm_route('198.18.10.0/24', gw='198.18.1.2', oif=lo)),
        fpm_frame(fpm_route('198.18.11.0/24', gw='198.18.1.2')),
        fpm_frame(fpm_route('198.18.12.0/24', rtype=6)),
        fpm_frame(fpm_route('198.18.13.0/24', rtype=7)),
        fpm_frame(fpm_route('198.18.14.0/24', rtype=8)),
        fpm_frame(fpm_route('198.18.15.0/24', oif=lo)),
        fpm_frame(fpm_route('0.0.0.0/0', gw='198.18.1.9', oif=lo)),
        fpm_frame(fpm_route('2001:2:0:10::/64', gw='fe80::2', oif=lo)),
        fpm_frame(fpm_route('2001:2:0:11::/64', gw='2001:2:0:1::2')),
        fpm_frame(fpm_route('2001:2:0:12::/64', rtype=6)),
        fpm_frame(fpm_route('198.18.20.0/24', multipath=(
            ('198.18.1.2', lo), ('198.18.1.3', lo)))),
        fpm_frame(fpm_route('198.18.30.0/24', dele=True),
                  fpm_route('198.18.30.0/24', gw='198.18.1.3', oif=lo)),
        fpm_frame(fpm_route('198.18.31.0/24', dele=True)),
        fpm_frame(fpm_route('198.18.0.1/32', rtype=2, oif=lo),
                  fpm_route('198.18.40.0/24', gw='198.18.1.2', table=10),
                  nl_msg(16, b'')),
    ]
    nhg = [
        fpm_frame(fpm_nexthop(19, gw='198.18.1.2', oif=lo)),
        fpm_frame(fpm_nexthop(20, gw='fe80::2', oif=lo)),
        fpm_frame(fpm_nexthop(16)),
        fpm_frame(fpm_nexthop(4, oif=lo)),
        fpm_frame(fpm_nexthop(22, group=(21, 23))),
        fpm_frame(fpm_nexthop(21, gw='198.18.1.3', oif=lo)),
        fpm_frame(fpm_nexthop(23, gw='198.18.1.4', oif=9999)),
        fpm_frame(fpm_route('198.18.10.0/24', nh_id=19)),
        fpm_frame(fpm_route('2001:2:0:12::/64', nh_id=20)),
        fpm_frame(fpm_route('198.18.15.0/24', nh_id=22)),
        fpm_frame(fpm_route('198.18.1.0/24', nh_id=4)),
        fpm_frame(fpm_route('198.18.16.0/24', nh_id=16)),
        fpm_frame(fpm_route('198.18.17.0/24', nh_id=99)),
        fpm_frame(fpm_nexthop(19, dele=True)),
    ]
    streams = [b''.join(routes), b''.join(nhg), b''.join(nhg + routes),
               b''.join(routes[:3]) + b'\x02\x01\x00\x08garbage' +
               b''.join(routes[3:6]),
               b''.join(routes) + b'\x01\x01\x02\x00' + bytes(508)]
    for s in streams:
        for flags in (0x03, 0x00, 0x25, 0x4e, 0x97, 0x7d, 0xe1):
            write(out, 'fwd_fpm', bytes([flags]) + s)
    for r in routes + nhg:
        write(out, 'fwd_fpm', bytes([0x03]) + r)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--captures')
    ap.add_argument('--per-capture', type=int, default=1)
    ap.add_argument('--max-frame', type=int, default=1600)
    a = ap.parse_args()
    captures = a.captures if a.captures and os.path.isdir(a.captures) \
        else None
    fwd_pkt(a.out, captures, a.per_capture, a.max_frame)
    fwd_route(a.out)
    app_cli(a.out)
    npool_ops(a.out)
    fwd_fpm(a.out)
    for t in ('fwd_pkt', 'fwd_route', 'app_cli', 'npool_ops', 'fwd_fpm'):
        d = os.path.join(a.out, t)
        print('%-10s %4d seeds, %7d bytes' % (
            t, len(os.listdir(d)),
            sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
