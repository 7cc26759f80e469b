# SPDX-License-Identifier: BSD-3-Clause
"""A Forwarding Plane Manager peer as FRR zebra's dplane_fpm_nl is one
(python3 stdlib): it connects to npool-fwd's --fpm listener and sends
netlink RTM_NEWROUTE / RTM_DELROUTE messages in FPM frames (FRR's
fpm/fpm.h: version 1, type 1 netlink, a 16-bit big-endian length that
counts the 4-byte header), several messages a frame, for tests that
drive routes faster or more exactly than zebra does (churn, bad input).

  c = FpmClient(port=2620); c.connect()
  c.send([route_msg('add', '10.1.2.0/24', oif=5),
          route_msg('del', '10.9.0.0/16')])
"""

import ipaddress
import socket
import struct
import time

RTM_NEWROUTE = 24
RTM_DELROUTE = 25
NLM_F_REQUEST = 0x1
NLM_F_REPLACE = 0x100
NLM_F_CREATE = 0x400
RTA_DST = 1
RTA_OIF = 4
RTA_GATEWAY = 5
RTA_PRIORITY = 6
RTA_TABLE = 15
RT_TABLE_MAIN = 254
RTPROT_ZEBRA = 11
RT_SCOPE_UNIVERSE = 0
RT_SCOPE_LINK = 253
TYPES = {'unicast': 1, 'blackhole': 6, 'unreachable': 7, 'prohibit': 8}
FPM_HDR = struct.Struct('!BBH')
FPM_MAX = 65535


def _attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack('=HH', n, kind) + payload + b'\0' * (-n % 4)


def route_msg(op, prefix, gw=None, oif=None, kind='unicast', seq=0,
              table=RT_TABLE_MAIN):
    """One netlink route message: @op 'add' or 'del' of @prefix (text),
    by gateway @gw (text) and / or interface index @oif, of route type
    @kind."""
    net = ipaddress.ip_network(prefix, strict=False)
    fam = socket.AF_INET6 if net.version == 6 else socket.AF_INET
    scope = RT_SCOPE_LINK if gw is None and oif is not None and \
        kind == 'unicast' else RT_SCOPE_UNIVERSE
    rtm = struct.pack('=BBBBBBBBI', fam, net.prefixlen, 0, 0,
                      table if table < 256 else 252, RTPROT_ZEBRA, scope,
                      TYPES[kind], 0)
    attrs = _attr(RTA_TABLE, struct.pack('=I', table))
    if net.prefixlen:
        attrs += _attr(RTA_DST, net.network_address.packed)
    attrs += _attr(RTA_PRIORITY, struct.pack('=I', 20))
    if gw is not None:
        attrs += _attr(RTA_GATEWAY, ipaddress.ip_address(gw).packed)
    if oif is not None:
        attrs += _attr(RTA_OIF, struct.pack('=I', oif))
    body = rtm + attrs
    typ = RTM_NEWROUTE if op == 'add' else RTM_DELROUTE
    flags = NLM_F_REQUEST | (NLM_F_CREATE | NLM_F_REPLACE
                             if op == 'add' else 0)
    return struct.pack('=IHHII', 16 + len(body), typ, flags, seq, 0) + body


def frames(msgs, most=FPM_MAX):
    """@msgs packed into FPM frames of at most @most bytes each."""
    out, cur = [], b''
    for m in msgs:
        if cur and 4 + len(cur) + len(m) > most:
            out.append(FPM_HDR.pack(1, 1, 4 + len(cur)) + cur)
            cur = b''
        cur += m
    if cur:
        out.append(FPM_HDR.pack(1, 1, 4 + len(cur)) + cur)
    return out


class FpmClient:
    """A TCP connection to an FPM listener (zebra's side of it)."""

    def __init__(self, host='127.0.0.1', port=2620):
        self.addr = (host, port)
        self.sock = None

    def connect(self, timeout=10.0):
        """Connect, retrying while the listener is not up yet."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.create_connection(self.addr, 1.0)
                self.sock.setsockopt(socket.IPPROTO_TCP,
                                     socket.TCP_NODELAY, 1)
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def send(self, msgs, most=FPM_MAX):
        """@msgs (netlink messages) in as few frames as fit."""
        for f in frames(msgs, most):
            self.sock.sendall(f)

    def send_raw(self, data):
        self.sock.sendall(data)

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None
