# SPDX-License-Identifier: BSD-3-Clause
"""The cases of kernel_cast.py: Linux's forwarding selftests
(tools/testing/selftests/net/forwarding router.sh, router_broadcast.sh,
router_multicast.sh) and the link-layer, broadcast and multicast rules of
docs/apps/npool-fwd.md, each a frame sent from one host of a three-host
topology with what every host must receive, written by hand.

The router has 198.18.N.1/24 and 2001:2:0:N::1/64 on port N - 1 (hosts
A, B, C at .2 / ::2 behind ports 0, 1, 2), routes to the three subnets
and 169.254.1.0/24 via B, and MROUTES. What a host receives is written as
summary() gives it: "<dst MAC><<src MAC> <IP summary>" with the hosts'
and ports' MACs by name (A, B, C, R0, R1, R2).
"""

import ipaddress
import struct

from packets import eth, inet_csum, ipv4, ipv6, udp, v6addr

MROUTES = """\
# (S,G) to two ports (router_multicast.sh mcast_v4, mcast_v6, rpf_*)
mroute from 0 source 198.18.1.2 group 225.1.2.3 to 1 2
mroute from 0 source 2001:2:0:1::2 group ff0e::3 to 1 2
# (*,G): any source on port 0
mroute from 0 group 225.1.2.4 to 1
mroute from 0 group ff0e::4 to 2
# port 2 with TTL threshold 5 (IPv4: Linux's IPv6 MFC has none)
mroute from 0 source 198.18.1.2 group 225.1.2.5 to 1 2:5
"""

BCAST = 'ff:ff:ff:ff:ff:ff'
OTHER = '02:00:00:00:00:fe'


def v4(n, host=2):
    return '198.18.%d.%d' % (n, host)


def v6(n, host=2):
    return '2001:2:0:%d::%x' % (n, host)


def echo4(src, dst, ttl=64, seq=1):
    """An ICMP echo request (ping's: id, seq, 16 bytes of data)."""
    body = bytearray(struct.pack('!BBHHH', 8, 0, 0, 0x4e50, seq) +
                     bytes(range(16)))
    body[2:4] = struct.pack('!H', inet_csum(body))
    return ipv4(src, dst, bytes(body), ttl=ttl, proto=1, ident=0x1000 + seq)


def udp4(src, dst, ttl=64, ident=1, proto=17):
    return ipv4(src, dst, udp(b'npool-cast', 54321, 12345), ttl=ttl,
                proto=proto, ident=ident)


def udp6(src, dst, hlim=64):
    return ipv6(src, dst, udp(b'npool-cast', 54321, 12345), hlim=hlim)


def hbh6(src, dst, ra, l4, nh, hlim=10):
    """IPv6 with a hop-by-hop header holding a Router Alert of value
    @ra (RFC 2711; 0: MLD) before @l4 (next header @nh)."""
    opts = struct.pack('!BBBBH', nh, 0, 5, 2, ra) + bytes([1, 0])
    return ipv6(src, dst, opts + l4, hlim=hlim, nh=0)


def mld_report6(src, group):
    """An MLDv1 report for @group, sent to it (RFC 2710 3), with MLD's
    Router Alert."""
    body = bytearray(struct.pack('!BBHHH', 131, 0, 0, 0, 0) +
                     v6addr(group))
    pseudo = v6addr(src) + v6addr(group) + struct.pack('!IxxxB',
                                                        len(body), 58)
    body[2:4] = struct.pack('!H', inet_csum(pseudo + bytes(body)))
    return hbh6(src, group, 0, bytes(body), 58)


class Case:
    """Frame @frame(macs) (a function of the topology's MACs: 'a', 'r0',
    ...) sent by host @by; @expect: the summaries every host must get;
    @needs: the kernel features (kfeatures.py) a Linux router needs for
    it."""
    __slots__ = ('name', 'by', 'frame', 'expect', 'needs')

    def __init__(self, name, by, frame, expect, needs=()):
        self.name = name
        self.by = by
        self.frame = frame
        self.expect = sorted(expect)
        self.needs = tuple(needs)


def _f(l3, dst, v6=False):
    """A frame builder: @l3 from the sender to @dst (a MAC text, or
    'R<n>': that router port's MAC)."""
    def build(macs, by):
        d = macs['r' + dst[1:]] if dst[0] == 'R' else dst
        return eth(l3, 0x86DD if v6 else 0x0800, dst=d, src=bytes.fromhex(
            macs[by].replace(':', '')))
    build.v6 = v6
    return build


def fwd4(host, port, src, dst, ttl, what='udp', dmac=None):
    """What @host gets of a packet forwarded out of port @port."""
    return '%s: %s<R%d IPv4 %s>%s ttl %d %s' % (
        host, dmac or host.upper(), port, src, dst, ttl, what)


def fwd6(host, port, src, dst, hlim, what='udp', dmac=None):
    return '%s: %s<R%d IPv6 %s>%s hlim %d %s' % (
        host, dmac or host.upper(), port, src, dst, hlim, what)


def unicast_cases():
    """router.sh and the frames not sent to the port (issue 28)."""
    a4, b4 = v4(1), v4(2)
    a6, b6 = v6(1), v6(2)
    return [
        Case('v4 A->B', 'a', _f(udp4(a4, b4), 'R0'),
             [fwd4('b', 1, a4, b4, 63)]),
        Case('v6 A->B', 'a', _f(udp6(a6, b6), 'R0', True),
             [fwd6('b', 1, a6, b6, 63)]),
        Case('v4 class E source (sip_in_class_e)', 'a',
             _f(udp4('240.0.0.1', b4), 'R0'),
             [fwd4('b', 1, '240.0.0.1', b4, 63)]),
        Case('v4 source = destination (ipv4_sip_equal_dip)', 'a',
             _f(udp4(b4, b4), 'R0'), [fwd4('b', 1, b4, b4, 63)]),
        Case('v6 source = destination (ipv6_sip_equal_dip)', 'a',
             _f(udp6(b6, b6), 'R0', True), [fwd6('b', 1, b6, b6, 63)]),
        Case('v4 link-local destination routed (ipv4_dip_link_local)',
             'a', _f(udp4(a4, '169.254.1.1'), 'R0'),
             [fwd4('b', 1, a4, '169.254.1.1', 63)]),
        Case('v4 in a link broadcast', 'a', _f(udp4(a4, b4), BCAST), []),
        Case('v4 in link multicast 01:02:03:04:05:06', 'a',
             _f(udp4(a4, b4), '01:02:03:04:05:06'), []),
        Case('v6 in link multicast 33:33:00:00:00:01', 'a',
             _f(udp6(a6, b6), '33:33:00:00:00:01', True), []),
        Case('v4 to another MAC (promiscuous port)', 'a',
             _f(udp4(a4, b4), OTHER), []),
        Case('v6 to another MAC (promiscuous port)', 'a',
             _f(udp6(a6, b6), OTHER, True), []),
        Case('v4 TTL 1 in a link broadcast', 'a',
             _f(udp4(a4, b4, ttl=1), BCAST), []),
        Case('ping of the router in a link broadcast', 'a',
             _f(echo4(a4, v4(1, 1)), BCAST),
             [fwd4('a', 0, v4(1, 1), a4, 64, 'icmp 0')]),
        Case('v4 source is the router (B side)', 'a',
             _f(udp4(v4(2, 1), b4), 'R0'), []),
        Case('v4 source is the router (A side)', 'a',
             _f(udp4(v4(1, 1), b4), 'R0'), []),
        Case('v6 source is the router', 'a',
             _f(udp6(v6(2, 1), b6), 'R0', True),
             [fwd6('b', 1, v6(2, 1), b6, 63)]),
        Case('v4 source is a prefix broadcast', 'a',
             _f(udp4('198.18.1.255', b4), 'R0'),
             [fwd4('b', 1, '198.18.1.255', b4, 63)]),
    ]


def bcast_cases(bc, echo):
    """router_broadcast.sh from two sides, for --bc-forwarding @bc and
    answered echo requests @echo (icmp_echo_ignore_broadcasts 0)."""
    out = []
    for me, n in (('a', 1), ('b', 2)):
        port = n - 1
        reply = [fwd4(me, port, v4(n, 1), v4(n), 64, 'icmp 0')] if echo \
            else []
        for to in (1, 2, 3):
            dst = '198.18.%d.255' % to
            own = to == n
            if own:
                # ping -b of its own subnet: a link broadcast
                frame = _f(echo4(v4(n), dst), BCAST)
                want = [] if bc else reply
            else:
                frame = _f(echo4(v4(n), dst), 'R%d' % port)
                peer = 'abc'[to - 1]
                want = [fwd4(peer, to - 1, v4(n), dst, 63, 'icmp 8',
                             dmac=BCAST)] if bc else reply
            out.append(Case('%s ping -b %s' % (me.upper(), dst), me, frame,
                            want))
        out.append(Case('%s ping -b 255.255.255.255' % me.upper(), me,
                        _f(echo4(v4(n), '255.255.255.255'), BCAST), reply))
    # its own subnet's broadcast sent to the router's MAC: with
    # bc_forwarding back out of the port it came in on, as Linux does
    out.append(Case('A ping 198.18.1.255 to the router MAC', 'a',
                    _f(echo4(v4(1), '198.18.1.255'), 'R0'),
                    [fwd4('a', 0, v4(1), '198.18.1.255', 63, 'icmp 8',
                          dmac=BCAST)] if bc else
                    [fwd4('a', 0, v4(1, 1), v4(1), 64, 'icmp 0')]
                    if echo else []))
    # DHCP's source: for the router, and no echo reply (Linux has no
    # route back to 0.0.0.0)
    out.append(Case('A ping 255.255.255.255 from 0.0.0.0', 'a',
                    _f(echo4('0.0.0.0', '255.255.255.255'), BCAST), []))
    # TTL 1: for the router without bc_forwarding; forwarded with it, so
    # time exceeded (Linux's forward route has no RTCF_BROADCAST)
    out.append(Case('A ping 198.18.2.255 TTL 1 to the router MAC', 'a',
                    _f(echo4(v4(1), '198.18.2.255', ttl=1), 'R0'),
                    [fwd4('a', 0, v4(1, 1), v4(1), 64, 'icmp 11')] if bc
                    else [fwd4('a', 0, v4(1, 1), v4(1), 64, 'icmp 0')]
                    if echo else []))
    return out


def mcast_cases():
    """router_multicast.sh, router.sh mc_mac_mismatch and the rules of
    --mroute."""
    a4, a6 = v4(1), v6(1)
    g4, g6 = '225.1.2.3', 'ff0e::3'
    m4, m6 = '01:00:5e:01:02:03', '33:33:00:00:00:03'
    both4 = [fwd4('b', 1, a4, g4, 9, dmac=m4), fwd4('c', 2, a4, g4, 9,
                                                     dmac=m4)]
    both6 = [fwd6('b', 1, a6, g6, 9, dmac=m6), fwd6('c', 2, a6, g6, 9,
                                                     dmac=m6)]
    cases = [
        Case('v4 (S,G) to two ports (mcast_v4)', 'a',
             _f(udp4(a4, g4, ttl=10), m4), both4),
        Case('v6 (S,G) to two ports (mcast_v6)', 'a',
             _f(udp6(a6, g6, hlim=10), m6, True), both6),
        Case('v4 group MAC mismatch (mc_mac_mismatch)', 'a',
             _f(udp4(a4, g4, ttl=10), '01:02:03:04:05:06'), both4),
        Case('v6 group MAC mismatch (mc_mac_mismatch)', 'a',
             _f(udp6(a6, g6, hlim=10), '01:02:03:04:05:06', True), both6),
        Case('v4 group in a link broadcast', 'a',
             _f(udp4(a4, g4, ttl=10), BCAST), both4),
        Case('v4 group in a frame to the router', 'a',
             _f(udp4(a4, g4, ttl=10), 'R0'), both4),
        Case('v4 RPF: in on port 2 (rpf_v4)', 'c',
             _f(udp4(a4, g4, ttl=10), m4), []),
        Case('v6 RPF: in on port 2 (rpf_v6)', 'c',
             _f(udp6(a6, g6, hlim=10), m6, True), []),
        Case('v4 (*,G)', 'a', _f(udp4('198.18.1.7', '225.1.2.4', ttl=10),
                                 '01:00:5e:01:02:04'),
             [fwd4('b', 1, '198.18.1.7', '225.1.2.4', 9,
                   dmac='01:00:5e:01:02:04')]),
        Case('v4 (*,G) from port 1: RPF', 'b',
             _f(udp4(v4(2), '225.1.2.4', ttl=10), '01:00:5e:01:02:04'), []),
        Case('v6 (*,G)', 'a', _f(udp6(v6(1, 7), 'ff0e::4', hlim=10),
                                 '33:33:00:00:00:04', True),
             [fwd6('c', 2, v6(1, 7), 'ff0e::4', 9,
                   dmac='33:33:00:00:00:04')]),
        Case('v6 (*,G) from a link-local source', 'a',
             _f(udp6('fe80::2', 'ff0e::4', hlim=10), '33:33:00:00:00:04',
                True),
             [fwd6('c', 2, 'fe80::2', 'ff0e::4', 9,
                   dmac='33:33:00:00:00:04')]),
        Case('v4 TTL 5, port 2 threshold 5', 'a',
             _f(udp4(a4, '225.1.2.5', ttl=5), '01:00:5e:01:02:05'),
             [fwd4('b', 1, a4, '225.1.2.5', 4, dmac='01:00:5e:01:02:05')]),
        Case('v4 TTL 6, port 2 threshold 5', 'a',
             _f(udp4(a4, '225.1.2.5', ttl=6), '01:00:5e:01:02:05'),
             [fwd4('b', 1, a4, '225.1.2.5', 5, dmac='01:00:5e:01:02:05'),
              fwd4('c', 2, a4, '225.1.2.5', 5, dmac='01:00:5e:01:02:05')]),
        Case('v4 group, TTL 1', 'a', _f(udp4(a4, g4, ttl=1), m4), []),
        Case('v6 group, hop limit 1', 'a', _f(udp6(a6, g6, hlim=1), m6,
                                              True), []),
        Case('v4 link-local group 224.0.0.251', 'a',
             _f(udp4(a4, '224.0.0.251'), '01:00:5e:00:00:fb'), []),
        Case('v6 link-local group ff02::fb', 'a',
             _f(udp6(a6, 'ff02::fb'), '33:33:00:00:00:fb', True), []),
        Case('v4 group without a route', 'a',
             _f(udp4(a4, '225.9.9.9'), '01:00:5e:09:09:09'), []),
        Case('v4 IGMP to a routed group', 'a',
             _f(udp4(a4, g4, ttl=10, proto=2), m4), []),
        # ip6_mc_input(): a Router Alert for MLD is for the router (an
        # MLDv1 report goes to the group itself), another one is not
        Case('v6 MLD report to a routed group', 'a',
             _f(mld_report6(a6, g6), m6, True), []),
        Case('v6 UDP with the MLD Router Alert', 'a',
             _f(hbh6(a6, g6, 0, udp(b'npool-cast'), 17), m6, True), []),
        Case('v6 UDP with Router Alert 2', 'a',
             _f(hbh6(a6, g6, 2, udp(b'npool-cast'), 17), m6, True),
             [fwd6('b', 1, a6, g6, 9, 'nh 0', dmac=m6),
              fwd6('c', 2, a6, g6, 9, 'nh 0', dmac=m6)]),
    ]
    # a Linux router needs multicast routing of the frame's IP version
    for c in cases:
        c.needs = ('mroute6' if c.frame.v6 else 'mroute4',)
    return cases


def summary(frame, names):
    """A received frame as its case's expectations are written."""
    def mac(b):
        return names.get(bytes(b), ':'.join('%02x' % x for x in b))
    head = '%s<%s' % (mac(frame[:6]), mac(frame[6:12]))
    et = struct.unpack('!H', frame[12:14])[0]
    l3 = frame[14:]
    if et == 0x0800 and len(l3) >= 20:
        what = {17: 'udp', 2: 'igmp'}.get(l3[9], 'proto %d' % l3[9])
        if l3[9] == 1:
            what = 'icmp %d' % l3[(l3[0] & 15) * 4]
        return '%s IPv4 %s>%s ttl %d %s' % (
            head, ipaddress.IPv4Address(l3[12:16]),
            ipaddress.IPv4Address(l3[16:20]), l3[8], what)
    if et == 0x86DD and len(l3) >= 40:
        what = {17: 'udp'}.get(l3[6], 'nh %d' % l3[6])
        if l3[6] == 58:
            what = 'icmp6 %d' % l3[40]
        return '%s IPv6 %s>%s hlim %d %s' % (
            head, ipaddress.IPv6Address(l3[8:24]),
            ipaddress.IPv6Address(l3[24:40]), l3[7], what)
    if et == 0x0806:
        return '%s ARP' % head
    return '%s type 0x%04x' % (head, et)


def link_noise(frame, router_macs):
    """What a Linux router sends on its own whatever the test does (MLD
    and neighbour discovery to ff02::/16, IGMP to 224.0.0.0/24): left out
    of the comparison."""
    if bytes(frame[6:12]) not in router_macs or len(frame) < 54:
        return False
    et = struct.unpack('!H', frame[12:14])[0]
    return (et == 0x86DD and frame[38] == 0xFF and frame[39] & 0x0F <= 2) or \
        (et == 0x0800 and frame[30:33] == bytes([224, 0, 0]))
