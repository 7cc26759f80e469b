# SPDX-License-Identifier: BSD-3-Clause
"""The edge cases of the router's own ICMP errors (edgecases.py's
companion for kernel_icmp.py), each with its expectation written by hand
from docs/npool-fwd.md and RFC 1812 / RFC 4443."""

import struct

from edgecases import Case
from packets import eth, inet_csum, ipv4, ipv6, pad60, udp, v6addr


# ICMP errors the router owes (npool-fwd with --port-addr and the kernel
# alike): A (198.18.1.2 / 2001:2:0:1::2) sends into port 0 (198.18.1.1 /
# 2001:2:0:1::1), B's network is behind port 1, whose egress MTU is
# ICMP_MTU; nothing else is routed. A case expects ('icmp', type, code,
# mtu field, quoted bytes) from 198.18.1.1 / 2001:2:0:1::1 back to A,
# ('none',): no error, or ('fwd', L3): no error, and B gets one frame
# of these IP bytes and nothing after them (Ethernet padding removed).
ICMP_MTU = 1400
ICMP_A4, ICMP_B4, ICMP_GW4 = '198.18.1.2', '198.18.2.2', '198.18.1.1'
ICMP_A6, ICMP_B6 = '2001:2:0:1::2', '2001:2:0:2::2'
ICMP_GW6 = '2001:2:0:1::1'


def _icmp4(typ, code=0, rest=b'\0' * 4, data=b'npool-icmp'):
    h = bytearray(struct.pack('!BBH', typ, code, 0) + rest + data)
    h[2:4] = struct.pack('!H', inet_csum(h))
    return bytes(h)


def _icmp6(src, dst, typ, code=0, rest=b'\0' * 4, data=b'npool-icmp6'):
    body = bytearray(struct.pack('!BBH', typ, code, 0) + rest + data)
    ph = v6addr(src) + v6addr(dst) + struct.pack('!IxxxB', len(body), 58)
    body[2:4] = struct.pack('!H', inet_csum(ph + body))
    return bytes(body)


def icmp_cases(a_mac, r0_mac):
    """The ICMP error cases, frames from A's MAC to port 0's."""
    def e(l3, v6=False, dst=r0_mac):
        return eth(l3, 0x86DD if v6 else 0x0800, dst=dst, src=a_mac)

    def q4(n):
        return min(n, 576 - 28)

    def q6(n):
        return min(n, 1280 - 48)

    big = udp(bytes(range(256)) * 4)            # 1032 bytes
    a4, b4, a6, b6 = ICMP_A4, ICMP_B4, ICMP_A6, ICMP_B6
    ttl1 = ipv4(a4, b4, ttl=1)
    # A pure TCP ACK (40 bytes of IP) and an IPv6 packet with 2 bytes of
    # payload (42): Ethernet pads both to 60 bytes.
    ack = struct.pack('!HHIIBBHHH', 40000, 80, 1, 2, 5 << 4, 0x10, 512, 0,
                      0)

    def ack4(ttl, ident):
        return ipv4(a4, b4, ack, ttl=ttl, proto=6, ident=ident)

    def nn6(hlim):
        return ipv6(a6, b6, b'\x01\x02', hlim=hlim, nh=59)
    cases = [
        # First: Linux's ip_error() limits no-route errors with the
        # per-destination tokens icmp_ratelimit 0 leaves empty.
        ('v4-no-route', e(ipv4(a4, '198.18.9.9')), ('icmp', 3, 0, 0, 33)),
        ('v4-ttl1-udp', e(ttl1), ('icmp', 11, 0, 0, q4(len(ttl1)))),
        ('v4-ttl1-echo', e(ipv4(a4, b4, _icmp4(8), ttl=1, proto=1)),
         ('icmp', 11, 0, 0, 20 + 18)),
        ('v4-ttl1-options', e(ipv4(a4, b4, ttl=1, options=b'\1\1\1\0')),
         ('icmp', 11, 0, 0, 24 + 13)),
        ('v4-ttl1-long', e(ipv4(a4, b4, big, ttl=1)),
         ('icmp', 11, 0, 0, q4(20 + len(big)))),
        ('v4-ttl1-about-unreach', e(ipv4(a4, b4, _icmp4(3, 1), ttl=1,
                                         proto=1)), ('none',)),
        ('v4-ttl1-about-type-40', e(ipv4(a4, b4, _icmp4(40), ttl=1,
                                         proto=1)), ('none',)),
        ('v4-ttl1-fragment-2', e(ipv4(a4, b4, ttl=1, frag_off=100)),
         ('none',)),
        ('v4-ttl1-first-fragment', e(ipv4(a4, b4, ttl=1, mf=True)),
         ('icmp', 11, 0, 0, 33)),
        ('v4-ttl1-l2-broadcast', e(ttl1, dst=b'\xff' * 6), ('none',)),
        ('v4-df-above-mtu', e(ipv4(a4, b4, udp(bytes(1450)), df=True)),
         ('icmp', 3, 4, ICMP_MTU, q4(1478))),
        ('v6-hlim1-udp', e(ipv6(a6, b6, hlim=1), True),
         ('icmp', 3, 0, 0, 53)),
        ('v6-hlim1-echo', e(ipv6(a6, b6, _icmp6(a6, b6, 128), hlim=1,
                                 nh=58), True), ('icmp', 3, 0, 0, 59)),
        ('v6-hlim1-long', e(ipv6(a6, b6, udp(bytes(1300)), hlim=1), True),
         ('icmp', 3, 0, 0, q6(1348))),
        ('v6-hlim1-about-unreach', e(ipv6(a6, b6, _icmp6(a6, b6, 1),
                                          hlim=1, nh=58), True), ('none',)),
        ('v6-hlim1-fragment-2', e(ipv6(a6, b6, struct.pack(
            '!BBHI', 17, 0, 100 << 3, 7) + udp(), hlim=1, nh=44), True),
         ('icmp', 3, 0, 0, 61)),
        ('v6-no-route', e(ipv6(a6, '2001:2:0:9::9'), True),
         ('icmp', 1, 0, 0, 53)),
        ('v6-above-mtu', e(ipv6(a6, b6, udp(bytes(1400))), True),
         ('icmp', 2, 0, ICMP_MTU, q6(1448))),
        # Padded frames: forwarded without the padding, and an error
        # quotes the IP packet, not the padding.
        ('v4-padded-fwd', pad60(e(ack4(64, 0x7701))),
         ('fwd', ack4(63, 0x7701))),
        ('v4-ttl1-padded', pad60(e(ack4(1, 0x7702))), ('icmp', 11, 0, 0, 40)),
        ('v6-padded-fwd', pad60(e(nn6(64), True)), ('fwd', nn6(63))),
        ('v6-hlim1-padded', pad60(e(nn6(1), True)), ('icmp', 3, 0, 0, 42)),
    ]
    return [Case(n, f, x) for n, f, x in cases]
