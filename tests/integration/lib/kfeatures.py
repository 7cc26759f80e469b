#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The kernel features the namespace tests use beyond what `make demo`
needs (network namespaces, veth, AF_PACKET, IPv4 and IPv6), each probed by
using it, in a network namespace of its own (python3 stdlib, root):

  mroute4        IPv4 multicast routing (CONFIG_IP_MROUTE): MRT_INIT on a
                 raw IGMP socket, as smcroute and mroute_tool.py start
  mroute6        IPv6 multicast routing (CONFIG_IPV6_MROUTE, apart from
                 IPv4's): MRT6_INIT on a raw ICMPv6 socket
  bc_forwarding  directed broadcast forwarding (Linux 5.3):
                 net.ipv4.conf.all.bc_forwarding
  af_xdp         AF_XDP sockets (CONFIG_XDP_SOCKETS): socket(AF_XDP)
  tun            tun/tap devices (CONFIG_TUN), QEMU's -netdev tap in make
                 vm-test: open /dev/net/tun
  bridge         bridge devices (CONFIG_BRIDGE), the shared segment of
                 kernel_segment.py: ip link add ... type bridge (under
                 unshare --net)

  kfeatures.py       probe here (in this network namespace), print JSON:
                     {feature: null when present, else why not}
As a module: probe() runs that in a new network namespace (unshare --net),
so that MRT_INIT never touches the host's, and returns the dict.
"""

import errno
import json
import os
import socket
import subprocess
import sys

# linux/mroute.h, linux/mroute6.h; linux/socket.h
MRT_INIT = MRT6_INIT = 200
AF_XDP = 44
IPPROTO_IGMP = 2

FEATURES = {
    'mroute4': 'IPv4 multicast routing',
    'mroute6': 'IPv6 multicast routing',
    'bc_forwarding': 'IPv4 directed broadcast forwarding',
    'af_xdp': 'AF_XDP sockets',
    'tun': 'tun/tap devices',
    'bridge': 'bridge devices',
}


def _err(what, e):
    return '%s: %s' % (what, errno.errorcode.get(e.errno, e.errno))


def _mroute(family, proto, level, opt, name):
    try:
        s = socket.socket(family, socket.SOCK_RAW, proto)
    except OSError as e:
        return _err('socket', e)
    try:
        s.setsockopt(level, opt, 1)     # closing it is MRT_DONE
    except OSError as e:
        return _err(name, e)
    finally:
        s.close()
    return None


def probe_here():
    """{feature: None or why not}, in the caller's network namespace."""
    got = {
        'mroute4': _mroute(socket.AF_INET, IPPROTO_IGMP, socket.IPPROTO_IP,
                           MRT_INIT, 'MRT_INIT'),
        'mroute6': _mroute(socket.AF_INET6, socket.IPPROTO_ICMPV6,
                           socket.IPPROTO_IPV6, MRT6_INIT, 'MRT6_INIT'),
        'bc_forwarding': None if os.path.exists(
            '/proc/sys/net/ipv4/conf/all/bc_forwarding') else
        'no net.ipv4.conf.all.bc_forwarding',
    }
    try:
        socket.socket(AF_XDP, socket.SOCK_RAW, 0).close()
        got['af_xdp'] = None
    except OSError as e:
        got['af_xdp'] = _err('socket(AF_XDP)', e)
    try:
        os.close(os.open('/dev/net/tun', os.O_RDWR))
        got['tun'] = None
    except OSError as e:
        got['tun'] = _err('/dev/net/tun', e)
    # in a namespace of its own whoever calls: nothing left behind
    p = subprocess.run(['unshare', '--net', 'ip', 'link', 'add', 'kfbr0',
                        'type', 'bridge'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       text=True)
    got['bridge'] = None if p.returncode == 0 else \
        'ip link add type bridge: %s' % (p.stderr.strip() or
                                         'exit %d' % p.returncode)
    return got


def probe():
    """probe_here() in a network namespace of its own."""
    p = subprocess.run(['unshare', '--net', sys.executable,
                        os.path.abspath(__file__)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       text=True, timeout=30)
    if p.returncode != 0:
        raise RuntimeError('kfeatures.py under unshare --net: exit %d: %s'
                           % (p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def missing_text(feature, why):
    """'no IPv4 multicast routing (MRT_INIT: ENOPROTOOPT)'."""
    return 'no %s (%s)' % (FEATURES[feature], why)


if __name__ == '__main__':
    print(json.dumps(probe_here()))
