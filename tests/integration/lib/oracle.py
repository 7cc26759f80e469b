# SPDX-License-Identifier: BSD-3-Clause
"""An RFC 1812 forwarding oracle for npool-fwd, written from
docs/npool-fwd.md and nothing else (python3 stdlib only).

decide(frame, cfg) returns a Verdict: a drop reason, or the egress port with
the exact bytes the router must send (VID-0 tag removed, padding trimmed,
TTL / hop limit - 1, IPv4 checksum recomputed, MACs rewritten), or, for an
IPv4 packet longer than the MTU with DF clear, the packet that must leave
as fragments (check_fragments() verifies what the app sent).

Where the contract leaves a combination open, the oracle takes the literal
reading of "checked in this order; the first failing check names the drop
reason" and says so in a comment (INTERPRETATION).
"""

import ipaddress
import struct

REASONS = ('truncated', 'vlan', 'not_ip', 'ip_version', 'ipv4_ihl',
           'ipv4_len', 'ipv4_csum', 'ipv6_len', 'martian_dst', 'martian_src',
           'no_route', 'bad_port', 'ttl_exceeded', 'mtu', 'frag_fail',
           'tx_full', 'local', 'l2_otherhost', 'l2_bcast', 'l2_mcast',
           'bcast', 'mc_local', 'mc_no_route', 'mc_rpf', 'mc_ttl')

# DPDK net_pcap's MAC of the first pcap port of a process (02:70:63:61:70
# is "pcap", the last byte counts the ports): the RX port of the sets.
PCAP_PORT0_MAC = bytes([2, 0x70, 0x63, 0x61, 0x70, 0])

ETH_P_IPV4 = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100
TAG_TYPES = (0x8100, 0x88A8, 0x9100)
IPV4_DF = 0x4000
IPV4_MF = 0x2000
IPV4_OFF_MASK = 0x1FFF

# DPDK net_pcap's transmit writes at most this much of a chained mbuf
# (RTE_ETH_PCAP_SNAPLEN = RTE_ETHER_MAX_JUMBO_FRAME_LEN).
PCAP_TX_SNAPLEN = 0x3F00


def be16(b, off):
    return (b[off] << 8) | b[off + 1]


def csum16(data):
    """RFC 1071 one's-complement sum folded to 16 bits (not inverted)."""
    if len(data) & 1:
        data = bytes(data) + b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def ipv4_checksum(hdr):
    """The header checksum for `hdr` (its checksum field is ignored)."""
    h = bytearray(hdr)
    h[10:12] = b'\0\0'
    return (~csum16(h)) & 0xFFFF


def ipv4_header_ok(hdr):
    return csum16(hdr) == 0xFFFF


def rfc1624_update(hc, old16, new16):
    """RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m')."""
    s = ((~hc) & 0xFFFF) + ((~old16) & 0xFFFF) + new16
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def mac_bytes(text):
    parts = text.split(':')
    if len(parts) != 6:
        raise ValueError('bad MAC %r' % text)
    return bytes(int(p, 16) for p in parts)


def mac_text(b):
    return ':'.join('%02x' % x for x in b)


def default_eth_dest(port):
    return bytes([2, 0, 0, 0, 0, port & 0xFF])


# ---------------------------------------------------------------- routes

class RouteError(Exception):
    """A route line the app must refuse; message names file and line."""


def parse_routes(text, family, name='<routes>'):
    """Parse l3fwd route-file text: `R<prefix>/<depth> <port>` lines, `#`
    comment lines, blank lines.  Returns [(network int, depth, port)]."""
    maxdepth = 32 if family == 4 else 128
    rules = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        fields = s.split()
        if len(fields) != 2 or not fields[0].startswith('R') \
                or '/' not in fields[0]:
            raise RouteError('%s:%d: bad route line %r' % (name, lineno, line))
        addr, depth = fields[0][1:].split('/', 1)
        try:
            ip = ipaddress.ip_address(addr)
            depth = int(depth, 10)
            port = int(fields[1], 10)
        except ValueError as e:
            raise RouteError('%s:%d: %s' % (name, lineno, e))
        if ip.version != family or not 0 <= depth <= maxdepth \
                or not 0 <= port <= 255:
            raise RouteError('%s:%d: bad route line %r' % (name, lineno, line))
        mask = ((1 << maxdepth) - 1) ^ ((1 << (maxdepth - depth)) - 1)
        rules.append((int(ip) & mask, depth, port))
    return rules


def load_routes(path, family):
    with open(path) as f:
        return parse_routes(f.read(), family, path)


# l3fwd's default tables (examples/l3fwd/main.c of DPDK 22.11)
L3FWD_DEFAULT_V4 = [((198 << 24) | (18 << 16) | (i << 8), 24, i)
                    for i in range(16)]
L3FWD_DEFAULT_V6 = [((0x20010200 << 96) | (i << 64), 64, i)
                    for i in range(16)]


class Lpm:
    """Longest prefix match; depth 0 is the default route."""

    def __init__(self, rules, bits):
        self.bits = bits
        self.by_depth = {}
        for net, depth, port in rules:
            self.by_depth.setdefault(depth, {})[net] = port
        self.depths = sorted(self.by_depth, reverse=True)

    def lookup(self, addr):
        full = (1 << self.bits) - 1
        for depth in self.depths:
            mask = full ^ ((1 << (self.bits - depth)) - 1)
            port = self.by_depth[depth].get(addr & mask)
            if port is not None:
                return port
        return None


class Config:
    """What the oracle needs to know about one npool-fwd run."""

    def __init__(self, routes4, routes6, enabled_ports, mtu=1500,
                 eth_dest=None, port_macs=None, forward_otherhost=False):
        self.lpm4 = Lpm(routes4, 32)
        self.lpm6 = Lpm(routes6, 128)
        self.enabled = set(enabled_ports)
        self.mtu = mtu
        self.eth_dest = dict(eth_dest or {})
        # port -> 6 bytes; a port missing here has an unknown source MAC
        self.port_macs = dict(port_macs or {})
        # the MAC of the port the frames come in on (port 0), and
        # --forward-otherhost (frames to other MACs taken as to it)
        self.rx_mac = self.port_macs.get(0, PCAP_PORT0_MAC)
        self.forward_otherhost = forward_otherhost

    def dst_mac(self, port):
        return self.eth_dest.get(port, default_eth_dest(port))

    def src_mac(self, port):
        return self.port_macs.get(port, b'\0' * 6)


class Verdict:
    """reason set: dropped.  Else port and either out (the exact frame) or,
    when frag is True, eth (the 14 bytes each fragment starts with) and l3
    (the IPv4 packet, TTL already decremented, before fragmentation)."""

    __slots__ = ('reason', 'port', 'out', 'frag', 'eth', 'l3', 'nfrags')

    def __init__(self, reason=None, port=None, out=None, frag=False,
                 eth=None, l3=None, nfrags=1):
        self.reason = reason
        self.port = port
        self.out = out
        self.frag = frag
        self.eth = eth
        self.l3 = l3
        self.nfrags = nfrags

    @property
    def kind(self):
        if self.reason:
            return self.reason
        return 'frag->%d' % self.port if self.frag else 'fwd->%d' % self.port

    def __repr__(self):
        return 'Verdict(%s)' % self.kind


def drop(reason):
    assert reason in REASONS, reason
    return Verdict(reason=reason)


def v4_martian(a):
    """0/8, 127/8, 224/4, 255.255.255.255."""
    return (a >> 24) in (0, 127) or (a >> 28) == 0xE or a == 0xFFFFFFFF


V6_LOOPBACK = 1


def v6_martian(a):
    """::, ::1, fe80::/10, ff00::/8."""
    return a in (0, V6_LOOPBACK) or (a >> 118) == (0xFE80 >> 6) \
        or (a >> 120) == 0xFF


def dpdk_nfrags(l3_len, ihl_bytes, mtu):
    """How many fragments rte_ipv4_fragment_packet() makes: every fragment
    but the last carries floor8(mtu - first header length) payload bytes."""
    frag_size = (mtu - ihl_bytes) & ~7
    payload = l3_len - ihl_bytes
    return -(-payload // frag_size)


# net_pcap (DPDK 22.11) copies a frame into a chain with a 16-bit count of
# the bytes left after the first mbuf's tailroom (2048 with the default data
# room): a frame longer than 65535 + 2048 bytes comes as a chain shorter
# than its pkt_len, which the apps' RX path drops as malformed (truncated).
NET_PCAP_WHOLE_MAX = 65535 + 2048


def l2_kind(frame, cfg):
    """What the frame is sent to: 'host' (the RX port's MAC, or any with
    --forward-otherhost), 'bcast', 'mcast' (a group address) or
    'other' (another station's MAC: Linux's PACKET_OTHERHOST)."""
    d = frame[:6]
    if d == b'\xff' * 6:
        return 'bcast'
    if d[0] & 1:
        return 'mcast'
    return 'host' if d == cfg.rx_mac or cfg.forward_otherhost else 'other'


# Verdicts Linux's ip_forward() reaches: with a frame that is no
# PACKET_HOST it drops the packet there (RFC 1812 5.3.4).
_FORWARDING = ('bad_port', 'ttl_exceeded', 'mtu')


def decide(frame, cfg):
    """The RFC 1812 verdict for one received frame (bytes as the PMD gave
    them to the app): the destination MAC first (a frame to another
    station is dropped whatever it holds), then the IP checks; unicast IP
    in a link broadcast or multicast frame is not forwarded."""
    n = len(frame)
    if n < 14 or n > NET_PCAP_WHOLE_MAX:
        return drop('truncated')
    l2 = l2_kind(frame, cfg)
    if l2 == 'other':
        return drop('l2_otherhost')
    v = _decide_l3(frame, cfg)
    if l2 != 'host' and (not v.reason or v.reason in _FORWARDING):
        return drop('l2_' + l2)
    return v


def _decide_l3(frame, cfg):
    n = len(frame)
    et = be16(frame, 12)
    off = 14
    if et in TAG_TYPES:
        # INTERPRETATION: any tag cut short is `truncated` (first row).
        if n < 18:
            return drop('truncated')
        if et != ETH_P_8021Q or be16(frame, 14) & 0x0FFF:
            return drop('vlan')
        et = be16(frame, 16)
        off = 18
        # INTERPRETATION: one VID-0 tag is removed; a second tag of any
        # kind behind it is a tag the router does not handle: `vlan`.
        if et in TAG_TYPES:
            return drop('vlan')
    l3 = frame[off:]
    if et == ETH_P_IPV4:
        return _decide_v4(l3, cfg)
    if et == ETH_P_IPV6:
        return _decide_v6(l3, cfg)
    return drop('not_ip')


def _mcast4(l3):
    """IPv4 multicast without a route (the sets have no --mroute): the
    source and scope checks of Linux's ip_route_input_mc()."""
    src = int.from_bytes(l3[12:16], 'big')
    local = l3[16:19] == bytes([224, 0, 0])
    igmp = l3[9] == 2
    if src >> 28 == 0xE or src == 0xFFFFFFFF or src >> 24 == 127:
        return drop('martian_src')
    if src >> 24 == 0:
        return drop('mc_local' if local or igmp else 'martian_src')
    return drop('mc_local' if local or igmp else 'mc_no_route')


def _mld_alert(l3):
    """Whether IPv6 packet @l3 has a hop-by-hop header, within its
    payload, whose last Router Alert (option 5, 2 bytes) says MLD (0):
    Linux's ipv6_hop_ra()."""
    if l3[6] != 0 or len(l3) < 42:
        return False
    h = l3[40:]
    n = (h[1] + 1) * 8
    if n > be16(l3, 4):
        return False
    ra, i = None, 2
    while i < n:
        if h[i] == 0:
            i += 1
            continue
        if i + 2 > n or i + 2 + h[i + 1] > n:
            break
        if h[i] == 5 and h[i + 1] == 2:
            ra = be16(h, i + 2)
        i += 2 + h[i + 1]
    return ra == 0


def _mcast6(l3):
    """IPv6 multicast without a route: scopes up to link-local are for
    the link; the source must name a node; an MLD message (a Router
    Alert of value 0) is for the router."""
    src = int.from_bytes(l3[8:24], 'big')
    if l3[25] & 0x0F <= 2:
        return drop('mc_local')
    if src >> 120 == 0xFF or src in (0, V6_LOOPBACK):
        return drop('martian_src')
    if _mld_alert(l3):
        return drop('mc_local')
    return drop('mc_no_route')


def _route(src, dst, hops, martian, lpm, cfg):
    """The checks common to both families, from martian_dst to
    ttl_exceeded: a drop Verdict, or the egress port."""
    src = int.from_bytes(src, 'big')
    dst = int.from_bytes(dst, 'big')
    if martian(dst):
        return drop('martian_dst')
    if martian(src):
        return drop('martian_src')
    port = lpm.lookup(dst)
    if port is None:
        return drop('no_route')
    if port not in cfg.enabled:
        return drop('bad_port')
    if hops <= 1:
        return drop('ttl_exceeded')
    return port


def _decide_v4(l3, cfg):
    n = len(l3)
    if n < 20:
        return drop('truncated')
    ihl = (l3[0] & 0x0F) * 4
    # INTERPRETATION: "IPv4 L3 shorter than IHL x 4" is in the first row,
    # so it wins over ip_version and ipv4_ihl (literal order).
    if n < ihl:
        return drop('truncated')
    if l3[0] >> 4 != 4:
        return drop('ip_version')
    if ihl < 20:
        return drop('ipv4_ihl')
    tot = be16(l3, 2)
    if tot < ihl or tot > n:
        return drop('ipv4_len')
    if not ipv4_header_ok(l3[:ihl]):
        return drop('ipv4_csum')
    dst = int.from_bytes(l3[16:20], 'big')
    if dst >> 28 == 0xE:
        return _mcast4(l3)
    if dst == 0xFFFFFFFF:
        # the limited broadcast is for the router (Linux brd_input)
        src = int.from_bytes(l3[12:16], 'big')
        return drop('martian_src' if src >> 28 == 0xE or
                    src == 0xFFFFFFFF or src >> 24 == 127 else 'bcast')
    port = _route(l3[12:16], l3[16:20], l3[8], v4_martian, cfg.lpm4, cfg)
    if isinstance(port, Verdict):
        return port
    ttl = l3[8]
    out = bytearray(l3[:tot])
    out[8] = ttl - 1
    out[10:12] = ipv4_checksum(out[:ihl]).to_bytes(2, 'big')
    eth = cfg.dst_mac(port) + cfg.src_mac(port) + b'\x08\x00'
    if tot > cfg.mtu:
        fo = be16(l3, 6)
        if fo & IPV4_DF:
            return drop('mtu')
        # A fragment that ends past 65535 (RFC 791's largest datagram, the
        # "ping of death") cannot be cut again: the pieces' offsets would not
        # fit in 13 bits.
        if (fo & IPV4_OFF_MASK) * 8 + tot - ihl > 0xFFFF:
            return drop('frag_fail')
        return Verdict(port=port, frag=True, eth=eth, l3=bytes(out),
                       nfrags=dpdk_nfrags(tot, ihl, cfg.mtu))
    return Verdict(port=port, out=eth + bytes(out))


def _decide_v6(l3, cfg):
    n = len(l3)
    if n < 40:
        return drop('truncated')
    if l3[0] >> 4 != 6:
        return drop('ip_version')
    plen = be16(l3, 4)
    if plen == 0 or plen + 40 > n:
        return drop('ipv6_len')
    if l3[24] == 0xFF:
        return _mcast6(l3)
    port = _route(l3[8:24], l3[24:40], l3[7], v6_martian, cfg.lpm6, cfg)
    if isinstance(port, Verdict):
        return port
    if plen + 40 > cfg.mtu:
        return drop('mtu')
    out = bytearray(l3[:40 + plen])
    out[7] -= 1
    eth = cfg.dst_mac(port) + cfg.src_mac(port) + b'\x86\xdd'
    return Verdict(port=port, out=eth + bytes(out))


# ------------------------------------------------------------- checking

def compare_frame(got, got_orig_len, want, check_src_mac=True):
    """Compare one transmitted record against the expected frame.  Returns
    None when equal, else a short description of the first difference.
    A chained frame longer than PCAP_TX_SNAPLEN is stored cut short by
    net_pcap: then the stored prefix and the original length must match."""
    if got_orig_len != len(want):
        return 'length %d, expected %d' % (got_orig_len, len(want))
    if len(got) != len(want) and not (len(got) == PCAP_TX_SNAPLEN
                                      and len(want) > PCAP_TX_SNAPLEN):
        return 'stored %d bytes of %d' % (len(got), len(want))
    w = want[:len(got)]
    if not check_src_mac:
        got = got[:6] + w[6:12] + got[12:]
    if got == w:
        return None
    i = next(i for i in range(len(got)) if got[i] != w[i])
    field = 'dst MAC' if i < 6 else 'src MAC' if i < 12 else \
        'ethertype' if i < 14 else 'L3 byte %d' % (i - 14)
    return 'differs at byte %d (%s): got %s, expected %s' % (
        i, field, got[max(0, i - 2):i + 6].hex(), w[max(0, i - 2):i + 6].hex())


def check_fragments(verdict, records, mtu, check_src_mac=True):
    """Verify the fragments the app sent for a `frag` verdict.  `records` is
    the rest of the port's output (list of (data, orig_len)); fragments are
    taken from its start until they cover the payload.  Returns
    (number consumed, list of problems)."""
    orig = verdict.l3
    ihl0 = (orig[0] & 0x0F) * 4
    payload = orig[ihl0:]
    base_fo = be16(orig, 6)
    base_off = (base_fo & IPV4_OFF_MASK) * 8
    base_mf = bool(base_fo & IPV4_MF)
    opts = orig[20:ihl0]
    problems = []
    got_payload = bytearray()
    used = 0
    expect_off = base_off
    while len(got_payload) < len(payload):
        if used >= len(records):
            problems.append('only %d fragment(s), payload %d of %d bytes'
                            % (used, len(got_payload), len(payload)))
            break
        data, orig_len = records[used]
        used += 1
        tag = 'fragment %d' % used
        if orig_len != len(data):
            problems.append('%s stored cut short' % tag)
        if len(data) < 34:
            problems.append('%s: %d bytes' % (tag, len(data)))
            break
        eth = verdict.eth if check_src_mac else \
            verdict.eth[:6] + data[6:12] + verdict.eth[12:]
        if data[:14] != eth:
            problems.append('%s: Ethernet header %s, expected %s'
                            % (tag, data[:14].hex(), eth.hex()))
        h = data[14:]
        ihl = (h[0] & 0x0F) * 4
        tot = be16(h, 2)
        if h[0] >> 4 != 4 or ihl < 20 or tot != len(h):
            problems.append('%s: version/IHL/total length %02x/%d/%d for '
                            '%d L3 bytes' % (tag, h[0], ihl, tot, len(h)))
            break
        if tot > mtu:
            problems.append('%s: %d bytes > MTU %d' % (tag, tot, mtu))
        if not ipv4_header_ok(h[:ihl]):
            problems.append('%s: bad header checksum %04x (want %04x)'
                            % (tag, be16(h, 10), ipv4_checksum(h[:ihl])))
        same = (1, 4, 5, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19)
        for i in same:   # tos, id, ttl (already - 1), proto, src, dst
            if h[i] != orig[i]:
                problems.append('%s: header byte %d is %02x, expected %02x'
                                % (tag, i, h[i], orig[i]))
                break
        fo = be16(h, 6)
        if fo & IPV4_DF:
            problems.append('%s: DF set' % tag)
        if (fo & IPV4_OFF_MASK) * 8 != expect_off:
            problems.append('%s: offset %d, expected %d'
                            % (tag, (fo & IPV4_OFF_MASK) * 8, expect_off))
        chunk = h[ihl:]
        last = len(got_payload) + len(chunk) >= len(payload)
        want_mf = base_mf if last else True
        if bool(fo & IPV4_MF) != want_mf:
            problems.append('%s: MF %d, expected %d'
                            % (tag, bool(fo & IPV4_MF), want_mf))
        if not last and len(chunk) % 8:
            problems.append('%s: payload %d bytes, not a multiple of 8'
                            % (tag, len(chunk)))
        hopts = h[20:ihl]
        if used == 1 or (base_off and hopts == opts):
            # a piece of a non-first fragment may keep the options that
            # fragment came with (rte_ipv4_fragment_packet does)
            if hopts != opts:
                problems.append('%s: options %s, expected %s'
                                % (tag, hopts.hex(), opts.hex()))
        elif not _copied_options_ok(hopts, opts):
            problems.append('%s: options %s not the copied subset of %s'
                            % (tag, hopts.hex(), opts.hex()))
        got_payload += chunk
        expect_off += len(chunk)
    if bytes(got_payload[:len(payload)]) != payload:
        problems.append('fragment payloads do not concatenate to the '
                        'original payload')
    elif len(got_payload) > len(payload):
        problems.append('fragments carry %d payload bytes, original %d'
                        % (len(got_payload), len(payload)))
    return used, problems


def _split_options(opts):
    """The options up to EOL as a list, and whether the list is well formed
    (every option's length at least 2 and inside the header)."""
    out = []
    i = 0
    while i < len(opts):
        t = opts[i]
        if t == 0:
            break
        if t == 1:
            i += 1
            continue
        if i + 1 >= len(opts) or opts[i + 1] < 2 or \
                i + opts[i + 1] > len(opts):
            return out, False
        out.append(bytes(opts[i:i + opts[i + 1]]))
        i += opts[i + 1]
    return out, True


def _copied_options_ok(hopts, opts):
    """A non-first fragment keeps the options with the copied flag (RFC 791)
    and only those (padding aside); anything else is wrong.  Malformed
    options have no right answer: any whole number of words is accepted."""
    have, have_ok = _split_options(hopts)
    orig, orig_ok = _split_options(opts)
    if not orig_ok:
        return len(hopts) % 4 == 0
    return have_ok and have == [o for o in orig if o[0] & 0x80] \
        and len(hopts) % 4 == 0


# ---------------------------------------------------------- ICMP errors

def icmp_error_fields(frame):
    """What two routers' ICMP errors are compared by: (family, type, code,
    the 4 bytes after the checksum as an int (the MTU field), source
    address, quoted bytes), with both checksums checked; None when the
    frame is no ICMP / ICMPv6 error (echo, NDP, MLD, ARP)."""
    if len(frame) < 14:
        return None
    et, l3 = be16(frame, 12), frame[14:]
    if et == ETH_P_IPV4 and len(l3) >= 28 and l3[9] == 1:
        ihl = (l3[0] & 15) * 4
        tot = be16(l3, 2)
        body = l3[ihl:tot]
        if len(body) < 8 or body[0] not in (3, 4, 5, 11, 12):
            return None
        ok = ipv4_header_ok(l3[:ihl]) and csum16(body) == 0xFFFF
        return (4, body[0], body[1], struct.unpack('!I', body[4:8])[0],
                str(ipaddress.IPv4Address(l3[12:16])), bytes(body[8:]), ok)
    if et == ETH_P_IPV6 and len(l3) >= 48 and l3[6] == 58:
        body = l3[40:40 + be16(l3, 4)]
        if len(body) < 8 or body[0] >= 128:
            return None
        ph = l3[8:40] + struct.pack('!IxxxB', len(body), 58)
        ok = csum16(ph + body) == 0xFFFF
        return (6, body[0], body[1], struct.unpack('!I', body[4:8])[0],
                str(ipaddress.IPv6Address(l3[8:24])), bytes(body[8:]), ok)
    return None
