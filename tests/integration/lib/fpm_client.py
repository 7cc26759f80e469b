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

Churn drives host routes in and out at a steady rate (the churn test,
the bench's "routes changing" row).
"""

import ipaddress
import socket
import struct
import threading
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
                # Connected: sends block as long as the reader lags.
                self.sock.settimeout(None)
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


class Churn:
    """Host routes /32 in @nets /24s (@net(x) gives the first three
    octets of /24 @x), @live in place at any time, on interface @oif:
    step i deletes the one of /24 i and adds one (another host each
    round of the /24s) to /24 i + live, both mod @nets. With @live odd,
    the delete frees the /24's rte_lpm tbl8 group and the add, in a /24
    of the other parity, takes it at once."""

    HOSTS = 250

    def __init__(self, client, net, nets, live, oif=1):
        self.c = client
        self.net = net
        self.nets = nets
        self.live = live
        self.oif = oif
        self.sent = 0
        self.step = 0
        self._stop = threading.Event()
        self._th = None

    def host(self, x, step):
        return '%s.%d/32' % (self.net(x), 2 + (step // self.nets) %
                             self.HOSTS)

    def begin(self):
        """The first @live host routes."""
        self.c.send([route_msg('add', self.host(x, x - self.live),
                               oif=self.oif) for x in range(self.live)])
        self.sent += self.live

    def run(self, seconds, rate):
        """Steps at @rate changes a second (a batch every 10 ms) for
        @seconds, or until stop(). Returns the changes sent by steps."""
        batch = max(2, rate // 100) & ~1
        t0 = time.monotonic()
        n = 0
        while not self._stop.is_set() and time.monotonic() - t0 < seconds:
            msgs = []
            for _ in range(batch // 2):
                x = self.step % self.nets
                msgs.append(route_msg('del', self.host(
                    x, self.step - self.live)))
                msgs.append(route_msg('add', self.host(
                    (x + self.live) % self.nets, self.step), oif=self.oif))
                self.step += 1
            self.c.send(msgs)
            n += len(msgs)
            pause = t0 + n / float(rate) - time.monotonic()
            if pause > 0:
                self._stop.wait(pause)
        self.sent += n
        return n

    def start(self, rate):
        """run() on a thread of its own until stop()."""
        self.begin()
        self._th = threading.Thread(target=self.run, args=(1e9, rate),
                                    daemon=True)
        self._th.start()

    def stop(self):
        self._stop.set()
        if self._th is not None:
            self._th.join()
            self._th = None
