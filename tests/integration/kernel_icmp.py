#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd's ICMP errors against the Linux kernel's, as routers with the
same addresses: icmp_cases.icmp_cases() sent from host A's veth (AF_PACKET,
peer_tools.py raw-exchange) into port 0 of
  kernel    a namespace forwarding IPv4 and IPv6 with 198.18.1.1/24,
            2001:2:0:1::1/64 on r0 and 198.18.2.1/24, 2001:2:0:2::1/64 on
            r1 (MTU 1400), permanent neighbours for A and B, no other
            route, per-destination ICMP rate limits off
            (net.ipv4.icmp_ratelimit, net.ipv6.icmp.ratelimit 0)
  npool-fwd the same addresses (--port-addr), the connected networks as
            route files, --port-mtu 1,1400, --icmp-ratelimit 0
            --icmp-msgs-per-sec 0
in namespaces of their own (netns.py's topology, hosts as plain wires:
npkk-<pid>-*, npkf-<pid>-*). For each case the ICMP errors that come back
to A are compared: type, code, the MTU field, source address and the
quoted bytes (oracle.icmp_error_fields(), checksums checked), and both
against the case's hand-written expectation (type, code, MTU, quote
length). Fields left out: the IPv4 header's ID and options (Linux echoes
the packet's options, npool-fwd does not: docs/apps/npool-fwd.md), IPv6
flow label (Linux's auto flow labels). For the cases a router forwards
(padded frames: Linux trims them, pskb_trim_rcsum()), what B receives
(peer_tools.py raw-capture) is compared too: one frame of exactly the
expected IP bytes, from both routers.

Two things of the set-up, not of the routers, that the cases work
around: Linux's ip_error() shares the per-destination tokens with the
ICMP limit (net.ipv4.route.error_cost is not per namespace), so the
no-route case comes first; DPDK 22.11's net_af_packet joins a fanout
group with PACKET_FANOUT_FLAG_DEFRAG, so the kernel reassembles IPv4
fragments before npool-fwd's socket sees them and a lone fragment never
reaches npool-fwd: for the IPv4 fragment cases only the kernel's answer
is checked here (tests/unit/fwd_icmp_test.c checks npool-fwd's).

  kernel_icmp.py --app build/apps/fwd/npool-fwd [--keep]
Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces or veth).
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import icmp_cases  # noqa: E402
import harness  # noqa: E402
import netns  # noqa: E402
import oracle  # noqa: E402
from netns import ADDR  # noqa: E402

TOOLS = os.path.join(HERE, 'lib', 'peer_tools.py')
WAIT_S = 0.3


class Run:
    def __init__(self, a):
        self.a = a
        pid = os.getpid()
        self.kern = netns.Topology('npkk-%d' % pid, 'kk%d' % pid)
        self.fwdt = netns.Topology('npkf-%d' % pid, 'kf%d' % pid)
        self.prefix = 'np-kf%d' % pid
        self.work = harness.Workdir('kicmp', a.keep)
        self.work.prefixes.append(self.prefix)
        self.fwd = None
        self.probs = []

    def fail(self, msg):
        harness.log('  FAIL ' + msg)
        self.probs.append(msg)

    def create(self, t):
        harness.create_topology(t)
        t.wire_hosts()

    def kernel_router(self):
        t = self.kern
        r = ['ip', '-n', t.ns['r']]
        t.run('r', ['sysctl', '-qw', 'net.ipv4.ip_forward=1',
                    'net.ipv6.conf.all.forwarding=1',
                    'net.ipv4.icmp_ratelimit=0', 'net.ipv6.icmp.ratelimit=0'])
        for dev, me, host in (('r0', 'A', 'a'), ('r1', 'B', 'b')):
            ifn = t.ifs[dev]
            t.run('r', ['sysctl', '-qw',
                        'net.ipv6.conf.%s.disable_ipv6=0' % ifn,
                        'net.ipv6.conf.%s.accept_dad=0' % ifn])
            netns.sh(r + ['addr', 'add', ADDR['GW_%s4' % me] + '/24', 'dev',
                          ifn])
            netns.sh(r + ['-6', 'addr', 'add', ADDR['GW_%s6' % me] + '/64',
                          'dev', ifn, 'nodad'])
            for v in ('4', '6'):
                netns.sh(r + ['-' + v, 'neigh', 'replace', ADDR[me + v],
                              'lladdr', t.macs[host], 'dev', ifn, 'nud',
                              'permanent'])
        netns.sh(r + ['link', 'set', t.ifs['r1'], 'mtu',
                      str(icmp_cases.ICMP_MTU)])

    def npool_router(self):
        t = self.fwdt
        routes = {}
        for v in ('4', '6'):
            routes[v] = self.work.file('routes%s.cfg' % v)
            with open(routes[v], 'w') as f:
                f.write('R%s 0\nR%s 1\n' % (ADDR['NET_A' + v],
                                            ADDR['NET_B' + v]))
        cmd = [self.a.app, '--no-huge', '-m', '1024', '--no-pci',
               '--no-shconf', '--no-telemetry', '--file-prefix', self.prefix,
               '-l', '0-1', '--vdev', 'net_af_packet0,iface=' + t.ifs['r0'],
               '--vdev', 'net_af_packet1,iface=' + t.ifs['r1'], '--',
               '-p', '0x3', '--rule_ipv4', routes['4'],
               '--rule_ipv6', routes['6'], '--eth-dest', '0,' + t.macs['a'],
               '--eth-dest', '1,' + t.macs['b'],
               '--port-mtu', '1,%d' % icmp_cases.ICMP_MTU,
               '--port-addr', '0,%s/24,%s/64' % (ADDR['GW_A4'],
                                                 ADDR['GW_A6']),
               '--port-addr', '1,%s/24,%s/64' % (ADDR['GW_B4'],
                                                 ADDR['GW_B6']),
               '--icmp-ratelimit', '0', '--icmp-msgs-per-sec', '0']
        harness.log('npool-fwd: ' + ' '.join(cmd))
        self.fwd = netns.AppProcess(t, 'r', cmd,
                                    self.work.file('fwd.log'))
        self.fwd.start()
        if not self.fwd.wait_for('port 1:', 60):
            raise RuntimeError('npool-fwd did not start:\n' +
                               self.fwd.tail())

    def exchange(self, t, cases):
        """Each case's frame from A; the ICMP errors A got for each, and
        every frame B received meanwhile."""
        cap = subprocess.Popen(t.cmd('b', [sys.executable, TOOLS,
                                           'raw-capture', t.ifs['b']]),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        try:
            if cap.stdout.readline().strip() != b'ready':
                raise RuntimeError('raw-capture did not start: ' +
                                   cap.stderr.read().decode())
            p = subprocess.run(t.cmd('a', [sys.executable, TOOLS,
                                           'raw-exchange', t.ifs['a'],
                                           str(WAIT_S)]),
                               input='\n'.join(c.frame.hex()
                                               for c in cases).encode(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=60)
            if p.returncode != 0:
                raise RuntimeError('raw-exchange: ' + p.stderr.decode())
            out, err = cap.communicate(b'', timeout=30)
        finally:
            if cap.poll() is None:
                cap.kill()
                cap.wait()
        got = json.loads(p.stdout.decode().splitlines()[-1])['frames']
        at_b = [bytes.fromhex(h) for h in
                json.loads(out.decode().splitlines()[-1])['frames']]
        return [[f for f in (oracle.icmp_error_fields(bytes.fromhex(h))
                             for h in seen) if f is not None]
                for seen in got], at_b

    def run(self):
        for t in (self.kern, self.fwdt):
            self.create(t)
        self.kernel_router()
        self.npool_router()
        res, at_b = {}, {}
        for name, t in (('kernel', self.kern), ('npool-fwd', self.fwdt)):
            cases = icmp_cases.icmp_cases(
                oracle.mac_bytes(t.macs['a']), oracle.mac_bytes(t.macs['r0']))
            res[name], at_b[name] = self.exchange(t, cases)
        same = konly = 0
        for i, c in enumerate(cases):
            k, n = res['kernel'][i], res['npool-fwd'][i]
            want = c.expect
            if want[0] == 'fwd':
                # One frame of the IP bytes at B, no padding after them.
                l3 = want[1]
                seen = {r: [len(f) - 14 for f in at_b[r]
                            if f[14:14 + len(l3)] == l3]
                        for r in at_b}
                ok_want = not k and not n and all(
                    v == [len(l3)] for v in seen.values())
                shown = 'forwarded, %d bytes of IP at B' % len(l3)
                same += ok_want
                line = '%-26s %s' % (c.name, shown)
                if ok_want:
                    harness.log('  ok   ' + line + ': kernel == npool-fwd')
                else:
                    self.fail(line + ': errors kernel %s, npool-fwd %s; IP '
                              'lengths at B %s' % (k, n, seen))
                continue
            if want[0] == 'none':
                ok_want = not k and not n
                shown = 'no error'
            else:
                fam = 6 if c.name.startswith('v6') else 4
                src = ADDR['GW_A%d' % fam]
                ok_want = all(len(x) == 1 and x[0][:5] == (
                    fam, want[1], want[2], want[3], src) and
                    len(x[0][5]) == want[4] and x[0][6] for x in (k, n))
                shown = 'type %d code %d mtu %d from %s, %d bytes quoted' % (
                    want[1], want[2], want[3], src, want[4])
            if c.name.startswith('v4') and 'fragment' in c.name:
                # net_af_packet's fanout reassembles: never delivered
                ok_want = (len(k) == 1) == (want[0] == 'icmp') and (
                    not k or k[0][:5] == (4, want[1], want[2], want[3],
                                          ADDR['GW_A4']))
                konly += 1
                line = '%-26s %s' % (c.name, shown)
                if ok_want:
                    harness.log('  ok   ' + line + ': kernel (npool-fwd '
                                'never gets it here: unit test)')
                else:
                    self.fail(line + ': kernel %s' % k)
                continue
            equal = [f[:6] for f in k] == [f[:6] for f in n]
            same += equal
            line = '%-26s %s' % (c.name, shown)
            if ok_want and equal:
                harness.log('  ok   ' + line + ': kernel == npool-fwd')
            else:
                self.fail(line + ': kernel %s, npool-fwd %s' % (
                    [f[:5] + (len(f[5]), f[6]) for f in k],
                    [f[:5] + (len(f[5]), f[6]) for f in n]))
        harness.log('ICMP errors: %d of %d cases identical to the kernel\'s '
                    '(%d checked on the kernel only)'
                    % (same, len(cases) - konly, konly))

    def cleanup(self):
        if self.fwd is not None:
            self.fwd.kill()
        for t in (self.kern, self.fwdt):
            for e in t.remove():
                harness.log('cleanup: ' + e)
        self.work.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--keep', action='store_true')
    return harness.run_netns(ap.parse_args(), Run, ('npkk-', 'npkf-'),
                             'np-kf')


if __name__ == '__main__':
    sys.exit(main())
