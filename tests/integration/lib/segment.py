# SPDX-License-Identifier: BSD-3-Clause
"""A shared segment behind a router, of veth and bridge devices only
(python3 stdlib, iproute2, ethtool; root): what tests/integration/
kernel_segment.py builds twice, once routed by a Linux namespace router,
once by npool-fwd on net_af_packet ports.

  host A        router               switch                hosts
  <ns>-a        <ns>-r               <ns>-s                <ns>-b, -c, -d
  <if>-a0 ----- <if>-r0 (port 0)
                <if>-r1 (port 1) --- <if>-s0 --+
                                     <if>-br (bridge)
                                     <if>-sb --+---------- <if>-b0 .2
                                     <if>-sc --+---------- <if>-c0 .3
                                     <if>-sd --+---------- <if>-d0 .4

A has 198.18.1.2/24 and 2001:2:0:1::2/64, B, C, D 198.18.2.N/24 and
2001:2:0:2::N/64 (N = 2, 3, 4), the router .1 / ::1 on each link.
Every host's default route is the router's address on its link (.1 /
::1), resolved by ARP and NDP: no static neighbour anywhere. The hosts
have DAD and router advertisements off and checksum offloads off
(AF_PACKET would see partial checksums); the switch namespace has no
IPv6 and no address (it says nothing), its bridge no STP and no
multicast snooping (it floods what it does not know, as a plain switch).
The router namespace is left bare (router_wire(): the npool-fwd side, a
plain wire for its AF_PACKET ports) or made a Linux router
(linux_router()).

Namespaces and interfaces are made and deleted by exact name (netns.py's
Topology does the deleting); sweep_stale() removes what a killed run
left.
"""

import json
import os
import re
import shlex
import subprocess

import netns
from netns import NetnsError, sh

HOSTS = ('b', 'c', 'd')
ADDR = {'A4': '198.18.1.2', 'A6': '2001:2:0:1::2',
        'B4': '198.18.2.2', 'B6': '2001:2:0:2::2',
        'C4': '198.18.2.3', 'C6': '2001:2:0:2::3',
        'D4': '198.18.2.4', 'D6': '2001:2:0:2::4',
        'GW_A4': '198.18.1.1', 'GW_A6': '2001:2:0:1::1',
        'GW_S4': '198.18.2.1', 'GW_S6': '2001:2:0:2::1',
        # on the segment, nobody there
        'DEAD4': '198.18.2.9', 'DEAD6': '2001:2:0:2::9'}
PREFIX = {'A4': 24, 'A6': 64, 'S4': 24, 'S6': 64}
# npool-fwd's --port-addr for the two ports
PORT_ADDR = ['0,%s/24,%s/64' % (ADDR['GW_A4'], ADDR['GW_A6']),
             '1,%s/24,%s/64' % (ADDR['GW_S4'], ADDR['GW_S6'])]


class NoBridge(Exception):
    """The kernel makes no bridge device (its stderr inside)."""


class Segment(netns.Topology):
    """Host A on port 0's link; B, C, D on a bridge behind port 1.
    Namespaces <ns>-{a,r,s,b,c,d}; keep @ifp within 11 characters."""

    def __init__(self, ns, ifp):
        if len(ifp) > 11:
            raise ValueError('interface prefix %r: more than 11 characters'
                             % ifp)
        # netns.Topology.remove() deletes self.hosts + ('r',)
        self.hosts = ('a', 's') + HOSTS
        self.ns = {n: '%s-%s' % (ns, n) for n in self.hosts + ('r',)}
        self.ifs = {'a': ifp + '-a0', 'r0': ifp + '-r0', 'r1': ifp + '-r1',
                    's0': ifp + '-s0', 'br': ifp + '-br'}
        for h in HOSTS:
            self.ifs[h] = '%s-%s0' % (ifp, h)
            self.ifs['s' + h] = '%s-s%s' % (ifp, h)
        self.macs = {}

    @staticmethod
    def node_of(dev):
        """The namespace ('a', 'r', 's', 'b', ...) of interface dev."""
        return dev[0] if dev[0] in 'rs' else dev

    def script(self, node, cmds):
        """Commands (argv lists) run in @node's namespace by one shell,
        stopping at the first that fails (NetnsError, its stderr
        inside): one process where a command each would take dozens."""
        p = subprocess.run(self.cmd(node, ['sh', '-exc', '\n'.join(
            shlex.join(c) if isinstance(c, list) else c for c in cmds)]),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            # sh -x: each command on stderr as "+ ...", the last one
            # failed
            err = p.stderr.decode('utf-8', 'replace').splitlines()
            ran = [ln[2:] for ln in err if ln.startswith('+ ')]
            raise NetnsError('%s (in %s): exit %d: %s' % (
                ran[-1] if ran else 'sh', self.ns[node], p.returncode,
                ' '.join(ln for ln in err if not ln.startswith('+ '))))
        return p.stdout.decode('utf-8', 'replace')

    @staticmethod
    def offloads(dev, gro=False):
        """netns.Topology.offloads_off() as a shell line: checksum
        offloads off; GRO too where the driver lets it change."""
        off = ['ethtool', '-K', dev, 'tx', 'off', 'rx', 'off']
        if not gro:
            return off
        return '%s gro off 2>/dev/null || %s' % (shlex.join(off),
                                                 shlex.join(off))

    def create(self):
        """Namespaces, veths, the bridge; the router's side bare (no
        address, down). NoBridge when the kernel has no bridge devices
        (the namespaces stay for remove())."""
        ns, ifs = self.ns, self.ifs
        p = subprocess.run(['ip', '-batch', '-'], input=''.join(
            'netns add %s\n' % ns[n] for n in self.hosts + ('r',)).encode(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise NetnsError('ip netns add: exit %d: %s' % (
                p.returncode, p.stderr.decode('utf-8', 'replace').strip()))
        for node in self.hosts:
            if node != 's':
                sh(['ip', '-n', ns[node], 'link', 'set', 'lo', 'up'])
        try:
            self.script('s', [
                ['sysctl', '-qw', 'net.ipv6.conf.all.disable_ipv6=1',
                 'net.ipv6.conf.default.disable_ipv6=1'],
                ['ip', 'link', 'set', 'lo', 'up'],
                ['ip', 'link', 'add', ifs['br'], 'type', 'bridge',
                 'stp_state', '0', 'mcast_snooping', '0']])
        except NetnsError as e:
            raise NoBridge(str(e))
        self.script('r', [
            ['ip', 'link', 'set', 'lo', 'up'],
            ['sysctl', '-qw', 'net.ipv4.ip_forward=0',
             'net.ipv6.conf.all.forwarding=0'],
            ['ip', 'link', 'add', ifs['r0'], 'type', 'veth', 'peer', 'name',
             ifs['a'], 'netns', ns['a']],
            ['ip', 'link', 'add', ifs['r1'], 'type', 'veth', 'peer', 'name',
             ifs['s0'], 'netns', ns['s']],
            self.offloads(ifs['r0'], gro=True),
            self.offloads(ifs['r1'], gro=True)])
        cmds = [['ip', 'link', 'add', ifs['s' + h], 'type', 'veth', 'peer',
                 'name', ifs[h], 'netns', ns[h]] for h in HOSTS]
        for dev in ['s0'] + ['s' + h for h in HOSTS]:
            cmds += [['sysctl', '-qw', 'net.ipv6.conf.%s.disable_ipv6=1'
                      % ifs[dev]],
                     self.offloads(ifs[dev]),
                     ['ip', 'link', 'set', ifs[dev], 'master', ifs['br']],
                     ['ip', 'link', 'set', ifs[dev], 'up']]
        self.script('s', cmds + [['ip', 'link', 'set', ifs['br'], 'up']])
        return self.read_macs()

    def read_macs(self):
        self.macs = {}
        for node, devs in (('r', ('r0', 'r1')), ('a', ('a',))) + tuple(
                (h, (h,)) for h in HOSTS):
            links = {ln['ifname']: ln.get('address') for ln in json.loads(
                sh(['ip', '-n', self.ns[node], '-j', 'link', 'show']))}
            for d in devs:
                self.macs[d] = links[self.ifs[d]]
        return self.macs

    def router_wire(self):
        """The router's ports as plain wires for an app's AF_PACKET
        sockets: up, no IPv6, no address (the kernel says nothing)."""
        self.script('r', [c for dev in ('r0', 'r1') for c in (
            ['sysctl', '-qw', 'net.ipv6.conf.%s.disable_ipv6=1'
             % self.ifs[dev]],
            ['ip', 'link', 'set', self.ifs[dev], 'up'])])

    def linux_router(self):
        """The router namespace as a Linux router with npool-fwd's
        addresses: forwarding on, DAD off, no redirects, no static
        neighbour, the kernel's other defaults."""
        cmds = [['sysctl', '-qw', 'net.ipv4.ip_forward=1',
                 'net.ipv6.conf.all.forwarding=1',
                 'net.ipv4.conf.all.send_redirects=0',
                 'net.ipv4.conf.default.send_redirects=0']]
        for dev, me in (('r0', 'A'), ('r1', 'S')):
            ifn = self.ifs[dev]
            cmds += [['sysctl', '-qw',
                      'net.ipv6.conf.%s.disable_ipv6=0' % ifn,
                      'net.ipv6.conf.%s.accept_dad=0' % ifn,
                      'net.ipv4.conf.%s.send_redirects=0' % ifn],
                     ['ip', 'addr', 'add', '%s/%d' % (
                         ADDR['GW_%s4' % me], PREFIX[me + '4']), 'dev', ifn],
                     ['ip', '-6', 'addr', 'add', '%s/%d' % (
                         ADDR['GW_%s6' % me], PREFIX[me + '6']), 'dev', ifn,
                      'nodad'],
                     ['ip', 'link', 'set', ifn, 'up']]
        self.script('r', cmds)

    def configure_hosts(self):
        """Addresses and default routes of A, B, C, D (via .1 / ::1)."""
        for node, me, gw in [('a', 'A', 'A')] + [(h, h.upper(), 'S')
                                                  for h in HOSTS]:
            dev = self.ifs[node]
            self.script(node, [
                ['sysctl', '-qw', 'net.ipv6.conf.%s.accept_dad=0' % dev,
                 'net.ipv6.conf.%s.accept_ra=0' % dev],
                self.offloads(dev),
                ['ip', 'addr', 'add', '%s/%d' % (ADDR[me + '4'],
                                                 PREFIX[gw + '4']),
                 'dev', dev],
                ['ip', '-6', 'addr', 'add', '%s/%d' % (ADDR[me + '6'],
                                                       PREFIX[gw + '6']),
                 'dev', dev, 'nodad'],
                ['ip', 'link', 'set', dev, 'up']] + [
                ['ip', '-' + v, 'route', 'add', 'default', 'via',
                 ADDR['GW_%s%s' % (gw, v)], 'dev', dev] for v in '46'])

    def link_local(self, dev):
        """fe80:: of interface dev's MAC (modified EUI-64)."""
        b = [int(x, 16) for x in self.macs[dev].split(':')]
        b[0] ^= 2
        w = [b[0] << 8 | b[1], b[2] << 8 | 0xff, 0xfe << 8 | b[3],
             b[4] << 8 | b[5]]
        return 'fe80::' + ':'.join('%x' % x for x in w)


def sweep_stale(tag):
    """Remove the segments <tag><pid>-* that a killed run left (its process
    <pid> gone), by exact name, with their processes. Returns those
    pids."""
    try:
        names = os.listdir('/var/run/netns')
    except OSError:
        return []
    gone = set()
    for name in names:
        m = re.fullmatch(re.escape(tag) + r'(\d+)-[arsbcd]', name)
        if m and not os.path.exists('/proc/' + m.group(1)):
            gone.add(m.group(1))
    for pid in sorted(gone):
        Segment(tag + pid, 'x').remove()
    return sorted(gone)
