#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Static multicast routes for a Linux namespace router, set as smcroute
sets them (python3 stdlib only, root, run inside the namespace):

  mroute_tool.py [--family 4|6] ROUTES IF0 IF1 ...

ROUTES is an npool-fwd --mroute file (docs/apps/npool-fwd.md), its ports
the interfaces IF0, IF1, ... in that order; --family: the routes of that
IP version only, for a kernel that routes multicast of one version only
(kfeatures.py probes each). The tool opens the kernel's IPv4 and IPv6
multicast routing sockets (MRT_INIT / MRT6_INIT, which set
mc_forwarding), adds a VIF / MIF per interface (VIF k = IF k), adds an
(S,G) entry of the multicast forwarding cache for each (S,G) route (the
TTL thresholds of IPv4 in mfcc_ttls; IPv6's MRT6_ADD_MFC takes a set of
interfaces and gives each threshold 1), and for each (*,G) route answers
the kernel's upcalls (IGMPMSG_NOCACHE / MRT6MSG_NOCACHE: a packet of a
source it has no entry for) with an (S,G) entry of the route's ports, as
smcroute does for its (*,G) routes; an upcall from another interface gets
the same entry (the packet then fails the RPF check), so that a later
packet on the right one is not held behind an unresolved entry. Prints
"ready" once set up, runs until SIGTERM or SIGINT (closing the sockets
removes the routes).
"""

import ipaddress
import select
import signal
import socket
import struct
import sys

# linux/mroute.h and linux/mroute6.h: the same numbers at each level
MRT_INIT, MRT_ADD_VIF, MRT_ADD_MFC = 200, 202, 204
MRT6_INIT, MRT6_ADD_MIF, MRT6_ADD_MFC = 200, 202, 204
VIFF_USE_IFINDEX = 0x8
MAXVIFS = 32
IGMPMSG_NOCACHE = 1
MRT6MSG_NOCACHE = 1
IPPROTO_IGMP = 2


def parse(path):
    """[(v6, src bytes or None, group bytes, in_port, {port: ttl})]."""
    routes = []
    with open(path) as f:
        for line in f:
            w = line.split('#', 1)[0].split()
            if not w:
                continue
            if w[:2] != ['mroute', 'from'] or 'group' not in w or \
                    'to' not in w:
                raise ValueError('bad line %r' % line)
            src = None
            if w[3] == 'source':
                src = ipaddress.ip_address(w[4])
            grp = ipaddress.ip_address(w[w.index('group') + 1])
            oifs = {}
            for o in w[w.index('to') + 1:]:
                p, _, ttl = o.partition(':')
                oifs[int(p)] = int(ttl or 1)
            routes.append((grp.version == 6, src.packed if src else None,
                           grp.packed, int(w[2]), oifs))
    return routes


class Mroute:
    """The multicast routing sockets of IP versions @versions ('4', '6')."""

    def __init__(self, ifaces, versions):
        self.ifaces = ifaces
        self.s4 = self.s6 = None
        if '4' in versions:
            self.s4 = socket.socket(socket.AF_INET, socket.SOCK_RAW,
                                    IPPROTO_IGMP)
            self.s4.setsockopt(socket.IPPROTO_IP, MRT_INIT, 1)
        if '6' in versions:
            self.s6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                                    socket.IPPROTO_ICMPV6)
            self.s6.setsockopt(socket.IPPROTO_IPV6, MRT6_INIT, 1)
        for k, name in enumerate(ifaces):
            idx = socket.if_nametoindex(name)
            # struct vifctl: vifi, flags, threshold, rate_limit,
            # lcl_ifindex, rmt_addr
            if self.s4 is not None:
                self.s4.setsockopt(socket.IPPROTO_IP, MRT_ADD_VIF,
                                   struct.pack('=HBBIiI', k, VIFF_USE_IFINDEX,
                                               1, 0, idx, 0))
            # struct mif6ctl: mifi, flags, threshold, pifi, rate_limit
            if self.s6 is not None:
                self.s6.setsockopt(socket.IPPROTO_IPV6, MRT6_ADD_MIF,
                                   struct.pack('=HBBHxxI', k, 0, 1, idx, 0))

    def add(self, v6, src, grp, parent, oifs):
        if v6:
            sa = [struct.pack('=HHI16sI', socket.AF_INET6, 0, 0, a, 0)
                  for a in (src, grp)]
            fds = [0] * 8
            for p in oifs:
                fds[p // 32] |= 1 << (p % 32)
            # struct mf6cctl: origin, group, parent, if_set
            self.s6.setsockopt(socket.IPPROTO_IPV6, MRT6_ADD_MFC,
                               sa[0] + sa[1] + struct.pack('=Hxx8I', parent,
                                                           *fds))
        else:
            ttls = bytes(oifs.get(k, 0) for k in range(MAXVIFS))
            # struct mfcctl: origin, group, parent, ttls, counters, expire
            self.s4.setsockopt(socket.IPPROTO_IP, MRT_ADD_MFC, struct.pack(
                '=4s4sH32s2xIIIi', src, grp, parent, ttls, 0, 0, 0, 0))

    def upcall(self, sock, v6, star):
        """An upcall: (S,G) for a (*,G) route of G, if there is one."""
        data = sock.recv(65536)
        if v6:
            if len(data) < 40 or data[0] != 0 or data[1] != MRT6MSG_NOCACHE:
                return
            src, grp = data[8:24], data[24:40]
        else:
            if len(data) < 20 or data[8] != IGMPMSG_NOCACHE:
                return
            src, grp = data[12:16], data[16:20]
        r = star.get((v6, grp))
        if r is not None:
            self.add(v6, src, grp, r[0], r[1])


def main(argv):
    versions = '46'
    if argv[1:2] == ['--family'] and len(argv) > 2 and argv[2] in ('4', '6'):
        versions = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    routes = [r for r in parse(argv[1]) if '46'[r[0]] in versions]
    m = Mroute(argv[2:], versions)
    star = {}
    for v6, src, grp, parent, oifs in routes:
        if src is None:
            star[(v6, grp)] = (parent, oifs)
        else:
            m.add(v6, src, grp, parent, oifs)
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.append(1))
    print('ready', flush=True)
    socks = [s for s in (m.s4, m.s6) if s is not None]
    while not stop:
        try:
            r, _, _ = select.select(socks, [], [], 0.5)
        except InterruptedError:
            continue
        if m.s4 in r:
            m.upcall(m.s4, False, star)
        if m.s6 in r:
            m.upcall(m.s6, True, star)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
