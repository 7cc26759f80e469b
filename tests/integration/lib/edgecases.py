# SPDX-License-Identifier: BSD-3-Clause
"""Self-written edge-case packets for npool-fwd, each with its verdict
written by hand from docs/npool-fwd.md (not computed by the oracle, so that
the oracle is checked against them too).

Three sets:
  main      route files ROUTES_V4 / ROUTES_V6 (with default routes),
            -p 0xf, --eth-dest 1,ETH_DEST_1
  deftables no route file (l3fwd's default tables), -p 0x7: port 3 exists
            but is disabled, ports 4..15 do not exist
  jumbo     as main, with --mtu 9000
  l3fwd-files  deftables' frames through l3fwd's own route files
            (lpm_default_v4/v6.cfg: the default tables as files), -p 0x7:
            the routes to ports 3..15 are left out with a warning each, so
            what deftables drops as bad_port is no_route here
A case's expectation is ('drop', reason), ('fwd', port, l3_out, ethertype)
with the exact L3 bytes the router must send (built here with TTL - 1, not
derived from the input), or ('frag', port, number of fragments).
"""

import functools
import itertools
import os

from packets import (arp, eth, ipv4, ipv6, pad60, udp)

ROUTES_V4 = """\
# npool-fwd integration test routes, IPv4
R0.0.0.0/0 1
R198.18.0.0/15 2
R198.18.2.0/24 3

R198.18.3.0/24 0
R198.18.4.128/25 3
R198.19.255.255/32 0
R10.0.0.0/8 2
R172.16.0.0/12 3
R192.168.0.0/16 0
"""

ROUTES_V6 = """\
# npool-fwd integration test routes, IPv6
R::/0 1
R2001:2::/48 2
R2001:2:0:1::/64 3
R2001:2:0:2::/64 0
R2001:2:0:3:8000::/65 3
R2001:db8::/32 2
R2001::/16 3
"""

ETH_DEST_1 = '02:aa:bb:cc:dd:01'
MAIN_PORTMASK = 0xF
DEFTABLES_PORTMASK = 0x7
MTU = 1500


class Case:
    __slots__ = ('name', 'frame', 'expect')

    def __init__(self, name, frame, expect):
        self.name = name
        self.frame = bytes(frame)
        self.expect = expect

    def __repr__(self):
        return 'Case(%s)' % self.name


def _drop(name, frame, reason):
    return Case(name, frame, ('drop', reason))


_ident = itertools.count()


def _next_ident(kw):
    """Every IPv4 case gets its own IP ID, so that an output frame (or a
    fragment) names the input it came from."""
    if 'ident' not in kw:
        kw['ident'] = 0x2000 + next(_ident)
    return kw


def _reset_idents():
    global _ident
    _ident = itertools.count()


def _fwd4(name, port, frame=None, tags=(), pad=None, **kw):
    """An IPv4 packet the router forwards; expected output = the same
    packet built with ttl - 1 (fresh checksum), untagged, unpadded."""
    _next_ident(kw)
    ttl = kw.pop('ttl', 64)
    l3 = ipv4(ttl=ttl, **kw)
    out = ipv4(ttl=ttl - 1, **kw)
    if frame is None:
        frame = eth(l3, 0x0800, tags=tags)
        if pad is not None:
            frame = pad60(frame, pad)
    return Case(name, frame, ('fwd', port, out, 0x0800))


def _fwd6(name, port, frame=None, tags=(), trailer=b'', **kw):
    hlim = kw.pop('hlim', 64)
    l3 = ipv6(hlim=hlim, **kw)
    out = ipv6(hlim=hlim - 1, **kw)
    if frame is None:
        frame = eth(l3, 0x86DD, tags=tags) + trailer
    return Case(name, frame, ('fwd', port, out, 0x86DD))


def _frag(name, port, nfrags, frame):
    return Case(name, frame, ('frag', port, nfrags))


def v4(**kw):
    return ipv4(**_next_ident(kw))


def e4(**kw):
    return eth(v4(**kw))


def e6(**kw):
    return eth(ipv6(**kw), 0x86DD)


@functools.lru_cache(maxsize=None)
def _zero_csum_after_decrement():
    """A header whose checksum after TTL 64 -> 63 is 0x0000 (the value a
    non-RFC 1624 incremental update gets wrong as 0xffff)."""
    for ident in range(65536):
        out = ipv4(ttl=63, ident=ident, dst='198.18.1.77')
        if out[10:12] == b'\0\0':
            return ident
    raise AssertionError('no ident gives checksum 0')


RR_OPT = bytes([7, 7, 4, 0, 0, 0, 0])          # record route: not copied
RA_OPT = bytes([0x94, 4, 0, 0])                # router alert: copied


def main_cases():
    _reset_idents()
    c = []
    # --- IPv4 routing (longest prefix, default route, /32) -------------
    c.append(_fwd4('v4 /15 route', 2, dst='198.18.1.1'))
    c.append(_fwd4('v4 /24 inside /15', 3, dst='198.18.2.9'))
    c.append(_fwd4('v4 /24 to port 0 (hairpin)', 0, dst='198.18.3.7'))
    c.append(_fwd4('v4 /25 upper half', 3, dst='198.18.4.200'))
    c.append(_fwd4('v4 /25 lower half falls to /15', 2, dst='198.18.4.100'))
    c.append(_fwd4('v4 /32 host route', 0, dst='198.19.255.255'))
    c.append(_fwd4('v4 next to /32', 2, dst='198.19.255.254'))
    c.append(_fwd4('v4 default route', 1, dst='203.0.113.5'))
    c.append(_fwd4('v4 10/8', 2, dst='10.1.2.3'))
    c.append(_fwd4('v4 172.16/12', 3, dst='172.31.0.1'))
    c.append(_fwd4('v4 192.168/16', 0, dst='192.168.1.1'))
    c.append(_fwd4('v4 class E dst is not martian', 1, dst='240.0.0.1'))
    c.append(_fwd4('v4 TCP', 2, dst='198.18.1.2', proto=6,
                   payload=bytes(range(40))))
    c.append(_fwd4('v4 DF set, small', 2, dst='198.18.1.3', df=True))
    # --- TTL ------------------------------------------------------------
    c.append(_drop('v4 TTL 0', e4(ttl=0), 'ttl_exceeded'))
    c.append(_drop('v4 TTL 1', e4(ttl=1), 'ttl_exceeded'))
    c.append(_fwd4('v4 TTL 2', 2, ttl=2))
    c.append(_fwd4('v4 TTL 255', 2, ttl=255))
    c.append(_fwd4('v4 checksum becomes 0x0000', 2, dst='198.18.1.77',
                   ident=_zero_csum_after_decrement()))
    # --- checksum, IHL, lengths -----------------------------------------
    good = ipv4()
    bad = bytearray(good)
    bad[11] ^= 1
    c.append(_drop('v4 bad checksum', eth(bad), 'ipv4_csum'))
    c.append(_drop('v4 checksum 0', e4(csum=0), 'ipv4_csum'))
    c.append(_drop('v4 checksum ffff', e4(csum=0xFFFF), 'ipv4_csum'))
    c.append(_drop('v4 IHL 4', e4(ihl=4), 'ipv4_ihl'))
    c.append(_drop('v4 IHL 0', e4(ihl=0), 'ipv4_ihl'))
    c.append(_fwd4('v4 IHL 6 router alert', 2, options=RA_OPT))
    c.append(_fwd4('v4 IHL 15 record route', 3, dst='198.18.2.1',
                   options=bytes([7, 39, 4]) + bytes(36) + b'\0'))
    c.append(_fwd4('v4 IHL 15 NOPs', 2, options=b'\x01' * 40))
    plen = len(good)
    c.append(_drop('v4 total length > frame', e4(tot_len=plen + 1),
                   'ipv4_len'))
    c.append(_drop('v4 total length 19', e4(tot_len=19), 'ipv4_len'))
    c.append(_drop('v4 total length 0', e4(tot_len=0), 'ipv4_len'))
    c.append(_drop('v4 total length < IHL*4 with options',
                   e4(options=RA_OPT, tot_len=23), 'ipv4_len'))
    c.append(_fwd4('v4 header only (total length 20)', 2, payload=b'',
                   pad=b'\0'))
    # --- padding ----------------------------------------------------------
    c.append(_fwd4('v4 padded to 60 with zeros', 2, payload=udp(b'x'),
                   pad=b'\0'))
    c.append(_fwd4('v4 padded to 60 with garbage', 2, payload=udp(b'x'),
                   pad=b'\xaa'))
    c.append(_fwd4('v4 long trailer after IP', 1, dst='203.0.113.9',
                   frame=eth(ipv4(dst='203.0.113.9', ident=0x1235) +
                             b'\x55' * 300), ident=0x1235))
    c.append(_fwd6('v6 trailer after IP', 2, dst='2001:2::9',
                   trailer=b'\xee' * 10))
    c.append(_fwd6('v6 padded to 60', 2, dst='2001:2::9', nh=59,
                   payload=b'\x01\x02', trailer=bytes(4)))
    c.append(_fwd4('v4 TCP ACK padded to 60', 2, dst='198.18.1.9', proto=6,
                   payload=bytes(20), pad=b'\0'))
    # --- truncated --------------------------------------------------------
    full = e4()
    c.append(_drop('empty frame', b'', 'truncated'))
    c.append(_drop('1-byte frame', full[:1], 'truncated'))
    c.append(_drop('13-byte frame', full[:13], 'truncated'))
    c.append(_drop('IPv4 EtherType, no L3', full[:14], 'truncated'))
    c.append(_drop('IPv4 L3 19 bytes', full[:33], 'truncated'))
    c.append(_drop('IPv4 IHL 6, L3 20 bytes', e4(options=RA_OPT)[:34],
                   'truncated'))
    c.append(_drop('IPv4 IHL 15, L3 59 bytes',
                   e4(options=b'\x01' * 40)[:73], 'truncated'))
    c.append(_drop('802.1Q tag cut short (16)',
                   eth(ipv4(), tags=[(0x8100, 0)])[:16], 'truncated'))
    c.append(_drop('802.1Q tag cut short (17)',
                   eth(ipv4(), tags=[(0x8100, 5)])[:17], 'truncated'))
    c.append(_drop('IPv6 L3 39 bytes', e6()[:53], 'truncated'))
    c.append(_drop('IPv6 EtherType, no L3', e6()[:14], 'truncated'))
    c.append(_drop('VID-0 tag then IPv4 L3 19 bytes',
                   eth(ipv4(), tags=[(0x8100, 0)])[:37], 'truncated'))
    # --- VLAN -------------------------------------------------------------
    c.append(_drop('VLAN VID 5', eth(ipv4(), tags=[(0x8100, 5)]), 'vlan'))
    c.append(_drop('VLAN VID 4095 PCP 7',
                   eth(ipv4(), tags=[(0x8100, 0xEFFF)]), 'vlan'))
    c.append(_drop('VLAN VID 1 IPv6', eth(ipv6(), 0x86DD,
                                         tags=[(0x8100, 1)]), 'vlan'))
    c.append(_fwd4('VID-0 priority tag IPv4', 2, tags=[(0x8100, 0xA000)]))
    c.append(_fwd4('VID-0 priority tag, padded', 2, payload=udp(b''),
                   tags=[(0x8100, 0x2000)], pad=b'\x33'))
    c.append(_fwd6('VID-0 priority tag IPv6', 3, dst='2001:2:0:1::7',
                   tags=[(0x8100, 0x6000)]))
    c.append(_drop('VID-0 priority tag ARP', pad60(eth(arp(), 0x0806,
                   tags=[(0x8100, 0)])), 'not_ip'))
    c.append(_drop('QinQ 88a8 outer', eth(ipv4(), tags=[(0x88A8, 100),
                                                       (0x8100, 5)]), 'vlan'))
    c.append(_drop('QinQ 88a8 outer VID 0', eth(ipv4(), tags=[(0x88A8, 0)]),
                   'vlan'))
    c.append(_drop('QinQ 9100 outer', eth(ipv4(), tags=[(0x9100, 7),
                                                       (0x8100, 5)]), 'vlan'))
    c.append(_drop('double 802.1Q', eth(ipv4(), tags=[(0x8100, 10),
                                                     (0x8100, 20)]), 'vlan'))
    # --- not IP, wrong version --------------------------------------------
    c.append(_drop('ARP', pad60(eth(arp(), 0x0806)), 'not_ip'))
    c.append(_drop('LLDP', pad60(eth(b'\x02\x07\x04' + bytes(20), 0x88CC)),
                   'not_ip'))
    c.append(_drop('802.3 length field + LLC',
                   pad60(eth(b'\x42\x42\x03' + bytes(35), 38)), 'not_ip'))
    c.append(_drop('MPLS', eth(b'\x00\x01\x01\x40' + ipv4(), 0x8847),
                   'not_ip'))
    c.append(_drop('ARP EtherType, 14 bytes', eth(b'', 0x0806), 'not_ip'))
    c.append(_drop('IPv4 EtherType, version 6', e4(version=6), 'ip_version'))
    c.append(_drop('IPv4 EtherType, version 0', e4(version=0), 'ip_version'))
    c.append(_drop('IPv6 EtherType, version 4',
                   eth(ipv6(version=4), 0x86DD), 'ip_version'))
    c.append(_drop('IPv6 EtherType, IPv4 packet', eth(ipv4() + bytes(20),
                                                      0x86DD), 'ip_version'))
    # --- IPv4 martians, broadcast, multicast -------------------------------
    for d in ('127.0.0.1', '0.1.2.3'):
        c.append(_drop('v4 martian dst ' + d, e4(dst=d), 'martian_dst'))
    # never forwarded: for the link, without a multicast route, for the
    # router (fwd_cast.h)
    c.append(_drop('v4 dst 224.0.0.5 (link-local group)', e4(dst='224.0.0.5'),
                   'mc_local'))
    c.append(_drop('v4 dst 239.255.255.250, no multicast route',
                   e4(dst='239.255.255.250'), 'mc_no_route'))
    c.append(_drop('v4 dst 255.255.255.255', e4(dst='255.255.255.255'),
                   'bcast'))
    for s in ('127.0.0.1', '0.0.0.0', '224.1.1.1', '255.255.255.255'):
        c.append(_drop('v4 martian src ' + s, e4(src=s), 'martian_src'))
    c.append(_drop('v4 martian src to a group', e4(src='127.0.0.1',
                                                   dst='224.0.0.1'),
                   'martian_src'))
    c.append(_drop('v4 martian dst, TTL 1', e4(dst='127.0.0.1', ttl=1),
                   'martian_dst'))
    c.append(_drop('v4 martian src, TTL 0', e4(src='0.0.0.0', ttl=0),
                   'martian_src'))
    # --- IPv6 -------------------------------------------------------------
    c.append(_fwd6('v6 /48', 2, dst='2001:2::5'))
    c.append(_fwd6('v6 /64', 3, dst='2001:2:0:1::5'))
    c.append(_fwd6('v6 /64 to port 0', 0, dst='2001:2:0:2::1'))
    c.append(_fwd6('v6 /65 upper half', 3, dst='2001:2:0:3:8000::1'))
    c.append(_fwd6('v6 /65 lower half falls to /48', 2, dst='2001:2:0:3::1'))
    c.append(_fwd6('v6 2001:db8::/32', 2, dst='2001:db8::1'))
    c.append(_fwd6('v6 2001::/16', 3, dst='2001:5::1'))
    c.append(_fwd6('v6 default route', 1, dst='3fff::1'))
    c.append(_fwd6('v6 site-local dst is not martian', 1, dst='fec0::1'))
    c.append(_drop('v6 hop limit 0', e6(hlim=0), 'ttl_exceeded'))
    c.append(_drop('v6 hop limit 1', e6(hlim=1), 'ttl_exceeded'))
    c.append(_fwd6('v6 hop limit 2', 3, hlim=2))
    c.append(_fwd6('v6 hop-by-hop header', 3, nh=0,
                   payload=bytes([17, 0, 1, 4, 0, 0, 0, 0]) + udp()))
    c.append(_drop('v6 payload length > frame',
                   e6(plen=len(udp()) + 1), 'ipv6_len'))
    c.append(_drop('v6 payload length 0 (jumbogram)', e6(plen=0), 'ipv6_len'))
    c.append(_fwd6('v6 payload length < frame', 3,
                   frame=e6(payload=udp(b'abc') + b'\x99' * 6,
                            plen=len(udp(b'abc'))),
                   payload=udp(b'abc')))
    for d in ('::1', '::', 'fe80::1', 'febf::1'):
        c.append(_drop('v6 martian dst ' + d, e6(dst=d), 'martian_dst'))
    c.append(_drop('v6 dst ff02::1 (link-local scope)', e6(dst='ff02::1'),
                   'mc_local'))
    c.append(_drop('v6 dst ff0e::1, no multicast route', e6(dst='ff0e::1'),
                   'mc_no_route'))
    for s in ('::1', '::', 'fe80::1', 'ff02::1'):
        c.append(_drop('v6 martian src ' + s, e6(src=s), 'martian_src'))
    c.append(_drop('v6 martian dst, hop limit 1', e6(dst='::1', hlim=1),
                   'martian_dst'))
    # --- IPv4 fragments (forwarded one by one) ----------------------------
    c.append(_fwd4('v4 first fragment', 2, mf=True, payload=bytes(64)))
    c.append(_fwd4('v4 middle fragment', 2, mf=True, frag_off=8,
                   payload=bytes(range(48))))
    c.append(_fwd4('v4 last fragment', 2, frag_off=14, payload=b'end'))
    # --- MTU --------------------------------------------------------------
    c.append(_drop('v4 1501 bytes DF', e4(df=True, payload=bytes(1481)),
                   'mtu'))
    c.append(_fwd4('v4 1500 bytes DF', 2, df=True, payload=bytes(1480)))
    c.append(_fwd4('v4 1500 bytes DF in VID-0 tag', 0, dst='198.18.3.1',
                   df=True, payload=bytes(1480), tags=[(0x8100, 0)]))
    c.append(_frag('v4 1501 bytes, DF clear', 2, 2,
                   e4(payload=bytes(range(256)) * 5 + bytes(201))))
    c.append(_frag('v4 4000 bytes, DF clear', 3, 3,
                   e4(dst='198.18.2.2', payload=bytes(i & 0xFF for i in
                                                      range(3980)))))
    c.append(_frag('v4 9000 bytes, DF clear', 1, 7,
                   e4(dst='203.0.113.1', payload=bytes(i * 7 & 0xFF for i in
                                                       range(8980)))))
    c.append(_frag('v4 3000 bytes with options, DF clear', 2, 3,
                   e4(options=RR_OPT + RA_OPT + b'\0',
                      payload=bytes(i * 3 & 0xFF for i in range(2968)))))
    c.append(_frag('v4 oversize fragment (MF, offset 8000)', 2, 3,
                   e4(mf=True, frag_off=1000,
                      payload=bytes(i * 5 & 0xFF for i in range(3000)))))
    c.append(_frag('v4 oversize last fragment (offset 800)', 2, 2,
                   e4(frag_off=100, payload=bytes(range(200)) * 10)))
    c.append(_drop('v4 oversize fragment ending past 65535', e4(
        frag_off=8100, payload=bytes(2000)), 'frag_fail'))
    c.append(_frag('v4 oversize fragment ending at 65535', 2, 2,
                   e4(frag_off=8000, payload=bytes(range(5)) * 307)))
    c.append(_fwd4('v4 small fragment ending past 65535', 2, frag_off=8191,
                   payload=bytes(100)))
    c.append(_frag('v4 oversize non-first fragment with record route', 2, 2,
                   e4(frag_off=512, mf=True, options=RR_OPT + RA_OPT + b'\0',
                      payload=bytes(i * 7 & 0xFF for i in range(2000)))))
    c.append(_frag('v4 2000 bytes DF clear + Ethernet trailer', 0, 2,
                   eth(v4(dst='198.18.3.3', payload=bytes(1980)) +
                       b'\xfe' * 7)))
    c.append(_frag('v4 2000 bytes DF clear in VID-0 tag', 2, 2,
                   eth(v4(payload=bytes(1980)), tags=[(0x8100, 0)])))
    c.append(_frag('v4 65535 bytes, DF clear', 2, 45,
                   e4(payload=bytes(i * 11 & 0xFF for i in range(65515)))))
    c.append(_drop('v4 65535 bytes, DF', e4(df=True, payload=bytes(65515)),
                   'mtu'))
    c.append(_drop('v6 1501 bytes', e6(payload=udp(bytes(1453))), 'mtu'))
    c.append(_fwd6('v6 1500 bytes', 3, payload=udp(bytes(1452))))
    c.append(_drop('v6 9000 bytes', e6(payload=udp(bytes(8952))), 'mtu'))
    # --- after the big ones, small packets still flow ------------------
    c.append(_fwd4('v4 after jumbo', 1, dst='203.0.113.200'))
    c.append(_fwd6('v6 after jumbo', 1, dst='3fff::2'))
    c += order_cases()
    return c


@functools.lru_cache(maxsize=None)
def _csum_ffff_frame():
    """A header whose correct checksum is 0x0000, sent with the other
    one's-complement zero 0xffff: it verifies (RFC 1624 section 3)."""
    for ident in range(65536):
        h = ipv4(ident=ident, dst='198.18.1.5')
        if h[10:12] == b'\0\0':
            return ident, eth(h[:10] + b'\xff\xff' + h[12:])
    raise AssertionError('no ident gives checksum 0')


def order_cases():
    """Combinations where two rows of the table could apply: the first
    row in table order names the reason (the contract's literal reading)."""
    c = []
    c.append(_drop('VID-0 tag, inner 802.1Q VID 5',
                   eth(ipv4(), tags=[(0x8100, 0), (0x8100, 5)]), 'vlan'))
    c.append(_drop('VID-0 tag, inner VID-0 tag',
                   eth(ipv4(), tags=[(0x8100, 0), (0x8100, 0)]), 'vlan'))
    c.append(_drop('VID-0 tag, inner 88a8 tag',
                   eth(ipv4(), tags=[(0x8100, 0), (0x88A8, 0)]), 'vlan'))
    c.append(_drop('88a8 tag cut short (16)',
                   eth(ipv4(), tags=[(0x88A8, 5)])[:16], 'truncated'))
    c.append(_drop('9100 tag cut short (17)',
                   eth(ipv4(), tags=[(0x9100, 5)])[:17], 'truncated'))
    c.append(_drop('VID 5, inner IPv4 L3 10 bytes',
                   eth(ipv4(), tags=[(0x8100, 5)])[:28], 'vlan'))
    c.append(_drop('IPv4 EtherType, version 6, IHL 15, L3 40 bytes',
                   e4(version=6, ihl=15, payload=bytes(20)), 'truncated'))
    c.append(_drop('IPv4 EtherType, version 6, L3 10 bytes',
                   e4(version=6)[:24], 'truncated'))
    c.append(_drop('IPv6 EtherType, version 4, L3 30 bytes',
                   eth(ipv6(version=4), 0x86DD)[:44], 'truncated'))
    c.append(_drop('IPv4 IHL 3, header only', e4(ihl=3, payload=b''),
                   'ipv4_ihl'))
    c.append(_drop('IPv4 IHL 6, total length 20',
                   e4(options=RA_OPT, tot_len=20), 'ipv4_len'))
    c.append(_drop('IPv4 total length > frame, bad checksum',
                   e4(tot_len=200, csum=1), 'ipv4_len'))
    c.append(_drop('IPv4 dst 0.0.0.0', e4(dst='0.0.0.0'), 'martian_dst'))
    c.append(_fwd4('IPv4 src 240.0.0.1 is not martian', 2, src='240.0.0.1'))
    c.append(_fwd4('IPv4 src 255.255.255.254 is not martian', 1,
                   src='255.255.255.254', dst='203.0.113.1'))
    c.append(_fwd6('IPv6 dst ::ffff:127.0.0.1 is not martian', 1,
                   dst='::ffff:127.0.0.1'))
    c.append(_fwd6('IPv6 src fec0::1 is not martian', 3, src='fec0::1'))
    ident, frame = _csum_ffff_frame()
    c.append(_fwd4('IPv4 checksum 0xffff (= 0x0000)', 2, frame=frame,
                   ident=ident, dst='198.18.1.5'))
    c += l2_cases()
    return c


BCAST_MAC = 'ff:ff:ff:ff:ff:ff'
OTHER_MAC = '02:00:00:00:00:ee'


def l2_cases():
    """Frames not to port 0's MAC, IP broadcast and multicast (RFC 1812
    5.3.4, Linux's PACKET_OTHERHOST and ip_forward(); no --mroute)."""
    c = []
    c.append(_drop('to another MAC, IPv4', eth(v4(), dst=OTHER_MAC),
                   'l2_otherhost'))
    c.append(_drop('to another MAC, IPv6', eth(ipv6(), 0x86DD,
                                               dst=OTHER_MAC),
                   'l2_otherhost'))
    c.append(_drop('to another MAC, ARP', pad60(eth(arp(), 0x0806,
                                                    dst=OTHER_MAC)),
                   'l2_otherhost'))
    c.append(_drop('to another MAC, IPv4 cut short',
                   eth(v4()[:12], dst=OTHER_MAC), 'l2_otherhost'))
    c.append(_drop('to another MAC, VLAN 5', eth(v4(), dst=OTHER_MAC,
                                                 tags=[(0x8100, 5)]),
                   'l2_otherhost'))
    c.append(_drop('L2 broadcast, unicast IPv4', eth(v4(), dst=BCAST_MAC),
                   'l2_bcast'))
    c.append(_drop('L2 broadcast, unicast IPv4, TTL 1',
                   eth(v4(ttl=1), dst=BCAST_MAC), 'l2_bcast'))
    c.append(_drop('L2 broadcast, unicast IPv4 above the MTU, DF clear',
                   eth(v4(payload=bytes(1600)), dst=BCAST_MAC), 'l2_bcast'))
    c.append(_drop('L2 multicast 01:02:03:04:05:06, unicast IPv4',
                   eth(v4(), dst='01:02:03:04:05:06'), 'l2_mcast'))
    c.append(_drop('L2 multicast 33:33:00:00:00:01, unicast IPv6',
                   eth(ipv6(), 0x86DD, dst='33:33:00:00:00:01'), 'l2_mcast'))
    c.append(_drop('L2 broadcast, ARP', pad60(eth(arp(), 0x0806,
                                                  dst=BCAST_MAC)), 'not_ip'))
    c.append(_drop('L2 broadcast, bad IPv4 checksum',
                   eth(v4(csum=1), dst=BCAST_MAC), 'ipv4_csum'))
    c.append(_drop('L2 broadcast, martian dst 127.0.0.1',
                   eth(v4(dst='127.0.0.1'), dst=BCAST_MAC), 'martian_dst'))
    c.append(_drop('L2 broadcast, VLAN 5', eth(v4(), dst=BCAST_MAC,
                                               tags=[(0x8100, 5)]), 'vlan'))
    c.append(_drop('L2 broadcast, 255.255.255.255', eth(
        v4(dst='255.255.255.255'), dst=BCAST_MAC), 'bcast'))
    c.append(_drop('255.255.255.255 from 0.0.0.0 (DHCP)', e4(
        src='0.0.0.0', dst='255.255.255.255'), 'bcast'))
    c.append(_drop('255.255.255.255 from 224.1.1.1', e4(
        src='224.1.1.1', dst='255.255.255.255'), 'martian_src'))
    c.append(_drop('L2 multicast, IPv4 225.1.2.3, no route', eth(
        v4(dst='225.1.2.3'), dst='01:00:5e:01:02:03'), 'mc_no_route'))
    c.append(_drop('L2 broadcast, IPv4 225.1.2.3, no route', eth(
        v4(dst='225.1.2.3'), dst=BCAST_MAC), 'mc_no_route'))
    c.append(_drop('IGMP from 0.0.0.0 to 225.1.2.3', e4(
        src='0.0.0.0', dst='225.1.2.3', proto=2), 'mc_local'))
    c.append(_drop('UDP from 0.0.0.0 to 225.1.2.3', e4(
        src='0.0.0.0', dst='225.1.2.3'), 'martian_src'))
    c.append(_drop('IGMP to 225.1.2.3', e4(dst='225.1.2.3', proto=2),
                   'mc_local'))
    c.append(_drop('L2 multicast, IPv6 ff05::2 from fe80::1, no route',
                   eth(ipv6(src='fe80::1', dst='ff05::2'), 0x86DD,
                       dst='33:33:00:00:00:02'), 'mc_no_route'))
    c.append(_drop('IPv6 ff0e::3 from ::, no route', e6(src='::',
                                                         dst='ff0e::3'),
                   'martian_src'))
    c.append(_drop('IPv6 ff00::1 (scope 0)', e6(dst='ff00::1'), 'mc_local'))
    return c


def jumbo_cases():
    """--mtu 9000: mbuf chains in and out, fragments of a jumbo MTU."""
    _reset_idents()
    c = []
    c.append(_fwd4('jumbo v4 9000 DF', 2, df=True,
                   payload=bytes(i & 0xFF for i in range(8980))))
    c.append(_drop('jumbo v4 9001 DF', e4(df=True, payload=bytes(8981)),
                   'mtu'))
    c.append(_frag('jumbo v4 9001 DF clear', 2, 2,
                   e4(payload=bytes(i * 13 & 0xFF for i in range(8981)))))
    c.append(_frag('jumbo v4 20000 DF clear', 1, 3,
                   e4(dst='203.0.113.7',
                      payload=bytes(i * 17 & 0xFF for i in range(19980)))))
    c.append(_frag('jumbo v4 65535 DF clear', 3, 8,
                   e4(dst='198.18.2.77',
                      payload=bytes(i * 19 & 0xFF for i in range(65515)))))
    c.append(_fwd6('jumbo v6 9000', 3,
                   payload=udp(bytes(i & 0xFF for i in range(8952)))))
    c.append(_drop('jumbo v6 9001', e6(payload=udp(bytes(8953))), 'mtu'))
    c.append(_fwd4('jumbo v4 1501 DF', 2, df=True, payload=bytes(1481)))
    c.append(_frag('jumbo v4 12000 with options, DF clear', 2, 2,
                   e4(options=RR_OPT + RA_OPT + b'\0',
                      payload=bytes(i * 23 & 0xFF for i in range(11968)))))
    c.append(_fwd4('jumbo v4 small', 1, dst='203.0.113.8'))
    c.append(_fwd6('jumbo v6 8000 in VID-0 tag', 0, dst='2001:2:0:2::1',
                   payload=udp(bytes(7952)), tags=[(0x8100, 0x2000)]))
    return c


JUMBO_MTU = 9000
JUMBO_EXPECTED = {
    'rx': 11,
    'drops': {'mtu': 2},
    'tx': {0: 1, 1: 4, 2: 6, 3: 9},
}


# Hand count of main_cases() by outcome (kept apart from the list so that an
# edit of the list that changes the totals is noticed).
MAIN_EXPECTED = {
    'rx': 177,
    'drops': {'truncated': 17, 'vlan': 12, 'not_ip': 7, 'ip_version': 4,
              'ipv4_ihl': 3, 'ipv4_len': 6, 'ipv4_csum': 4, 'ipv6_len': 2,
              'martian_dst': 10, 'martian_src': 13, 'ttl_exceeded': 4,
              'mtu': 4, 'frag_fail': 1, 'mc_local': 5, 'mc_no_route': 5,
              'bcast': 3, 'l2_otherhost': 5, 'l2_bcast': 3, 'l2_mcast': 2},
    # tx per port, fragments counted one by one
    'tx': {0: 7, 1: 16, 2: 90, 3: 16},
}


def deftables_cases():
    """No route files: l3fwd's tables (198.18.N.0/24 and 2001:200:0:N::/64
    -> port N, N = 0..15, no default route) with -p 0x7."""
    _reset_idents()
    c = []
    c.append(_fwd4('tbl v4 port 0', 0, dst='198.18.0.1'))
    c.append(_fwd4('tbl v4 port 1', 1, dst='198.18.1.9'))
    c.append(_fwd4('tbl v4 port 2', 2, dst='198.18.2.9'))
    c.append(_drop('tbl v4 route to disabled port 3', e4(dst='198.18.3.9'),
                   'bad_port'))
    c.append(_drop('tbl v4 route to absent port 9', e4(dst='198.18.9.9'),
                   'bad_port'))
    c.append(_drop('tbl v4 route to absent port 15', e4(dst='198.18.15.1'),
                   'bad_port'))
    c.append(_drop('tbl v4 no route 198.18.16.1', e4(dst='198.18.16.1'),
                   'no_route'))
    c.append(_drop('tbl v4 no route 203.0.113.1', e4(dst='203.0.113.1'),
                   'no_route'))
    c.append(_drop('tbl v4 TTL 1, routed', e4(dst='198.18.0.1', ttl=1),
                   'ttl_exceeded'))
    c.append(_drop('tbl v4 TTL 1, no route', e4(dst='203.0.113.1', ttl=1),
                   'no_route'))
    c.append(_drop('tbl v4 TTL 0, disabled port', e4(dst='198.18.3.1', ttl=0),
                   'bad_port'))
    c.append(_fwd6('tbl v6 port 0', 0, dst='2001:200::1'))
    c.append(_fwd6('tbl v6 port 2', 2, dst='2001:200:0:2::1'))
    c.append(_drop('tbl v6 route to disabled port 3', e6(dst='2001:200:0:3::1'),
                   'bad_port'))
    c.append(_drop('tbl v6 no route', e6(dst='2001:200:0:10::1'), 'no_route'))
    c.append(_drop('tbl v6 no route 2001:db8::1', e6(dst='2001:db8::1'),
                   'no_route'))
    c.append(_drop('tbl v6 hop limit 1, routed', e6(dst='2001:200:0:1::1',
                                                   hlim=1), 'ttl_exceeded'))
    c.append(_drop('tbl v6 hop limit 1, no route', e6(dst='2001:db8::1',
                                                     hlim=1), 'no_route'))
    c.append(_drop('tbl v4 martian beats no route', e4(dst='127.0.0.1'),
                   'martian_dst'))
    return c


DEFTABLES_EXPECTED = {
    'rx': 19,
    'drops': {'bad_port': 5, 'no_route': 6, 'ttl_exceeded': 2,
              'martian_dst': 1},
    'tx': {0: 2, 1: 1, 2: 2, 3: 0},
}


# examples/l3fwd/lpm_default_v4.cfg and lpm_default_v6.cfg of DPDK 22.11
# (dpdk-doc installs them): a comment line, then the default tables, port
# N on line N + 2. Used as they are when installed, else written the same.
L3FWD_CFG_DIR = '/usr/share/dpdk/examples/l3fwd'


def l3fwd_route_file(family):
    """(text, where it came from) of l3fwd's LPM route file."""
    path = os.path.join(L3FWD_CFG_DIR, 'lpm_default_v%d.cfg' % family)
    try:
        with open(path) as f:
            return f.read(), path
    except OSError:
        pass
    if family == 4:
        rules = ['R198.18.%d.0/24 %d' % (i, i) for i in range(16)]
    else:
        rules = ['R2001:0200:0000:%04X:0000:0000:0000:0000/64 %d' % (i, i)
                 for i in range(16)]
    return ('# l3fwd default IPv%d LPM table as a route file\n' % family +
            '\n'.join(rules) + '\n', 'written as l3fwd ships it')


def l3fwd_files_cases():
    """deftables_cases() with l3fwd's route files: a file's routes to
    ports outside -p are not loaded, so bad_port becomes no_route."""
    c = deftables_cases()
    for k in c:
        if k.expect == ('drop', 'bad_port'):
            k.expect = ('drop', 'no_route')
            k.name = k.name.replace('route to', 'skipped route to')
    return c


L3FWD_FILES_EXPECTED = {
    'rx': 19,
    'drops': {'no_route': 11, 'ttl_exceeded': 2, 'martian_dst': 1},
    'tx': {0: 2, 1: 1, 2: 2, 3: 0},
}


def tally(cases):
    """Counts from the hand-written expectations (no oracle involved)."""
    drops = {}
    tx = {}
    for k in cases:
        e = k.expect
        if e[0] == 'drop':
            drops[e[1]] = drops.get(e[1], 0) + 1
        elif e[0] == 'fwd':
            tx[e[1]] = tx.get(e[1], 0) + 1
        else:
            tx[e[1]] = tx.get(e[1], 0) + e[2]
    return {'rx': len(cases), 'drops': drops, 'tx': tx}


def frames(cases):
    return [k.frame for k in cases]


def _selfcheck():
    for cases, want in ((main_cases(), MAIN_EXPECTED),
                        (deftables_cases(), DEFTABLES_EXPECTED),
                        (l3fwd_files_cases(), L3FWD_FILES_EXPECTED),
                        (jumbo_cases(), JUMBO_EXPECTED)):
        got = tally(cases)
        tx = {p: n for p, n in want['tx'].items() if n}
        assert got['rx'] == want['rx'], (got['rx'], want['rx'])
        assert got['drops'] == want['drops'], (got['drops'], want['drops'])
        assert got['tx'] == tx, (got['tx'], tx)


if __name__ == '__main__':
    _selfcheck()
    print('edge cases: main %d, deftables %d, jumbo %d'
          % (len(main_cases()), len(deftables_cases()), len(jumbo_cases())))
