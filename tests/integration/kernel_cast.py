#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd against a Linux router on the link layer, IP broadcast and
multicast: Linux's forwarding selftests (router.sh, router_broadcast.sh,
router_multicast.sh of tools/testing/selftests/net/forwarding) and the
rules of docs/apps/npool-fwd.md, each case run on two copies of one
three-host topology (netns.py, hosts as plain wires):

  kernel    a namespace forwarding IPv4 and IPv6 with 198.18.N.1/24 and
            2001:2:0:N::1/64 on port N-1, permanent neighbours for the
            hosts, a route to 169.254.1.0/24 via B, the multicast routes
            of cast_cases.MROUTES set as smcroute sets them
            (mroute_tool.py), no ICMP rate limit, no redirects, rp_filter 0
  npool-fwd the same addresses (--port-addr), routes (route files),
            multicast routes (--mroute), --icmp-ratelimit 0
            --icmp-msgs-per-sec 0, on net_af_packet ports
in namespaces of their own (npck-<pid>-*, npcf-<pid>-*). Each case's
frame goes out of one host (wire_agent.py); what every host receives
meanwhile is compared: the summaries of cast_cases.summary() against the
case's hand-written expectation, for both routers, and the frames
themselves between the routers (MACs by name; for what the router sends
itself the IPv4 ID and checksum, checked first, and the IPv6 flow label
left out). Four settings, as the selftests run them: Linux's defaults
(bc_forwarding 0, icmp_echo_ignore_broadcasts 1) with port 0
promiscuous, then the broadcast pings with echo requests answered
(--icmp-echo-ignore-broadcasts 0) and each bc_forwarding; npool-fwd's
counters by reason and per multicast route checked after each, its exit
clean (leak check, sanitizers).

  kernel_cast.py --app build/apps/fwd/npool-fwd [--pool npool|mempool]
                 [--keep]
Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces or veth).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import cast_cases  # noqa: E402
import harness  # noqa: E402
import netns  # noqa: E402
import oracle  # noqa: E402

AGENT = os.path.join(HERE, 'lib', 'wire_agent.py')
MROUTE_TOOL = os.path.join(HERE, 'lib', 'mroute_tool.py')
WAIT_S = 0.25
HOSTS = ('a', 'b', 'c')
PORTS = ('r0', 'r1', 'r2')

# (name, bc_forwarding, echo answered, promiscuous, cases, npool-fwd's
# drops by reason and multicast route counters after it)
DEFAULT_DROPS = {'l2_otherhost': 2, 'l2_bcast': 2, 'l2_mcast': 2,
                 'martian_src': 2, 'local': 1, 'bcast': 11, 'mc_rpf': 3,
                 'mc_ttl': 2, 'mc_local': 5, 'mc_no_route': 1}
# pkts, copies, wrong_if of each route of cast_cases.MROUTES
DEFAULT_MROUTES = [(4, 8, 1), (3, 6, 1), (1, 1, 1), (2, 2, 0), (2, 3, 0)]


def settings():
    bc = cast_cases.bcast_cases
    return [
        ('default', False, False, True,
         cast_cases.unicast_cases() + bc(False, False) +
         cast_cases.mcast_cases(), DEFAULT_DROPS, DEFAULT_MROUTES),
        ('echo', False, True, False, bc(False, True),
         {'bcast': 11, 'local': 0}, None),
        ('bc_forwarding echo', True, True, False, bc(True, True),
         {'bcast': 3, 'l2_bcast': 2, 'ttl_exceeded': 1}, None),
        ('bc_forwarding', True, False, False, bc(True, False),
         {'bcast': 3, 'l2_bcast': 2, 'ttl_exceeded': 1}, None),
    ]


class Agents:
    """A wire_agent.py per host of topology @t."""

    def __init__(self, t):
        self.p = {}
        for h in HOSTS:
            self.p[h] = subprocess.Popen(
                t.cmd(h, [sys.executable, AGENT, t.ifs[h]]),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.ack(h)

    def ack(self, h):
        line = self.p[h].stdout.readline()
        if line.strip() != 'ok':
            raise RuntimeError('wire agent of %s: %r' % (h, line))

    def say(self, h, line):
        self.p[h].stdin.write(line + '\n')
        self.p[h].stdin.flush()
        self.ack(h)

    def dump(self):
        got = {}
        for h in HOSTS:
            self.p[h].stdin.write('dump\n')
            self.p[h].stdin.flush()
            got[h] = json.loads(self.p[h].stdout.readline())['frames']
            self.p[h].wait(10)
        return got

    def kill(self):
        for p in self.p.values():
            if p.poll() is None:
                p.kill()
                p.wait()


class Side:
    """One router under test: its topology and its wire agents."""

    def __init__(self, name, t):
        self.name = name
        self.t = t
        self.agents = None
        self.seen = {}

    def names(self):
        """MAC bytes -> name, for summaries and comparisons."""
        return {oracle.mac_bytes(self.t.macs[d]): d.upper()
                for d in HOSTS + PORTS}

    def run_cases(self, tag, cases):
        for i, c in enumerate(cases):
            key = '%s-%d' % (tag, i)
            for h in HOSTS:
                self.agents.say(h, 'case ' + key)
            self.agents.say(c.by, 'send ' + c.frame(self.t.macs, c.by).hex())
            time.sleep(WAIT_S)

    def frames(self, key):
        """{host: [frame bytes]} of case @key, the router's noise out."""
        rmacs = {oracle.mac_bytes(self.t.macs[p]) for p in PORTS}
        return {h: [f for f in (bytes.fromhex(x) for _, x in
                                self.seen.get(h, {}).get(key, []))
                    if not cast_cases.link_noise(f, rmacs)]
                for h in HOSTS}


ROUTER_ADDRS = {'198.18.%d.1' % n for n in (1, 2, 3)} | \
    {'2001:2:0:%d::1' % n for n in (1, 2, 3)}


def normal(frame, names):
    """@frame with MACs by name; for a packet of the router's own the
    IPv4 ID and checksum (checked first) and the IPv6 flow label out.
    Returns (bytes, problem or None)."""
    f = bytearray(frame)
    for at in (0, 6):
        n = names.get(bytes(f[at:at + 6]))
        if n is not None:
            f[at:at + 6] = n.encode().ljust(6, b'.')
    s = cast_cases.summary(frame, names)
    own = any('IPv%s %s>' % (v, a) in s for v in '46' for a in ROUTER_ADDRS)
    if own and f[12:14] == b'\x08\x00':
        ihl = (f[14] & 15) * 4
        if not oracle.ipv4_header_ok(bytes(f[14:14 + ihl])):
            return bytes(f), 'bad IPv4 header checksum: ' + s
        f[18:20] = f[24:26] = b'\0\0'
    if own and f[12:14] == b'\x86\xdd':
        f[15] &= 0xF0
        f[16:18] = b'\0\0'
    return bytes(f), None


class Run:
    def __init__(self, a):
        self.a = a
        pid = os.getpid()
        self.kern = Side('kernel', netns.Topology('npck-%d' % pid,
                                                  'ck%d' % pid, third=True))
        self.fwdt = Side('npool-fwd', netns.Topology('npcf-%d' % pid,
                                                     'cf%d' % pid,
                                                     third=True))
        self.work = harness.Workdir('kcast', a.keep)
        self.fwd = None
        self.mroute = None
        self.probs = []
        self.prefixes = 0

    def fail(self, msg):
        harness.log('  FAIL ' + msg)
        self.probs.append(msg)

    def ksysctl(self, *kv):
        self.kern.t.run('r', ['sysctl', '-qw'] + list(kv))

    def kernel_router(self):
        t = self.kern.t
        r = ['ip', '-n', t.ns['r']]
        self.ksysctl('net.ipv4.ip_forward=1', 'net.ipv6.conf.all.forwarding=1',
                     'net.ipv4.icmp_ratelimit=0', 'net.ipv6.icmp.ratelimit=0',
                     'net.ipv4.conf.all.send_redirects=0',
                     'net.ipv4.conf.default.send_redirects=0',
                     'net.ipv4.conf.all.rp_filter=0',
                     'net.ipv4.conf.default.rp_filter=0')
        for k, (dev, host) in enumerate(zip(PORTS, HOSTS)):
            ifn, n = t.ifs[dev], k + 1
            self.ksysctl('net.ipv6.conf.%s.disable_ipv6=0' % ifn,
                         'net.ipv6.conf.%s.accept_dad=0' % ifn,
                         'net.ipv4.conf.%s.send_redirects=0' % ifn,
                         'net.ipv4.conf.%s.rp_filter=0' % ifn)
            netns.sh(r + ['addr', 'add', '198.18.%d.1/24' % n, 'dev', ifn])
            netns.sh(r + ['-6', 'addr', 'add', '2001:2:0:%d::1/64' % n,
                          'dev', ifn, 'nodad'])
            for addr in ('198.18.%d.2' % n, '2001:2:0:%d::2' % n):
                netns.sh(r + ['neigh', 'replace', addr, 'lladdr',
                              t.macs[host], 'dev', ifn, 'nud', 'permanent'])
        # router.sh ipv4_dip_link_local: 169.254.1.1 behind B
        netns.sh(r + ['route', 'add', '169.254.1.0/24', 'dev', t.ifs['r1']])
        netns.sh(r + ['neigh', 'replace', '169.254.1.1', 'lladdr',
                      t.macs['b'], 'dev', t.ifs['r1'], 'nud', 'permanent'])
        self.mroute = netns.AppProcess(t, 'r', [
            sys.executable, MROUTE_TOOL, self.mroute_file()] +
            [t.ifs[p] for p in PORTS], self.work.file('mroute.log'))
        self.mroute.start()
        if not self.mroute.wait_for('ready', 20):
            raise RuntimeError('mroute_tool.py did not start:\n' +
                               self.mroute.tail())

    def mroute_file(self):
        path = self.work.file('mroutes.cfg')
        with open(path, 'w') as f:
            f.write(cast_cases.MROUTES)
        return path

    def kernel_setting(self, bc, echo, promisc):
        t = self.kern.t
        self.ksysctl('net.ipv4.icmp_echo_ignore_broadcasts=%d' % (not echo),
                     'net.ipv4.conf.all.bc_forwarding=%d' % bc,
                     *['net.ipv4.conf.%s.bc_forwarding=%d' % (t.ifs[p], bc)
                       for p in PORTS])
        netns.sh(['ip', '-n', t.ns['r'], 'link', 'set', t.ifs['r0'],
                  'promisc', 'on' if promisc else 'off'])

    def npool_start(self, bc, echo, promisc):
        t = self.fwdt.t
        files = {}
        for fam, routes in (('4', ['198.18.%d.0/24 %d' % (n, n - 1)
                                   for n in (1, 2, 3)] +
                             ['169.254.1.0/24 1']),
                            ('6', ['2001:2:0:%d::/64 %d' % (n, n - 1)
                                   for n in (1, 2, 3)])):
            files[fam] = self.work.file('routes%s.cfg' % fam)
            with open(files[fam], 'w') as f:
                f.write(''.join('R%s\n' % r for r in routes))
        self.prefixes += 1
        prefix = 'np-kc%d' % os.getpid()
        if prefix not in self.work.prefixes:
            self.work.prefixes.append(prefix)
        self.jpath = self.work.file('fwd%d.json' % self.prefixes)
        cmd = [self.a.app, '--no-huge', '-m', '1024', '--no-pci',
               '--no-shconf', '--no-telemetry', '--file-prefix', prefix,
               '-l', '0-1']
        for k, p in enumerate(PORTS):
            cmd += ['--vdev', 'net_af_packet%d,iface=%s' % (k, t.ifs[p])]
        cmd += ['--', '-p', '0x7', '--pool', self.a.pool,
                '--rule_ipv4', files['4'], '--rule_ipv6', files['6'],
                '--mroute', self.mroute_file(),
                '--icmp-ratelimit', '0', '--icmp-msgs-per-sec', '0',
                '--bc-forwarding', '%d' % bc,
                '--icmp-echo-ignore-broadcasts', '%d' % (not echo),
                '--json', self.jpath]
        for k, h in enumerate(HOSTS):
            cmd += ['--eth-dest', '%d,%s' % (k, t.macs[h]), '--port-addr',
                    '%d,198.18.%d.1/24,2001:2:0:%d::1/64' % (k, k + 1, k + 1)]
        if promisc:
            cmd.append('-P')
        harness.log('npool-fwd: ' + ' '.join(cmd))
        self.fwd = netns.AppProcess(t, 'r', cmd, self.work.file(
            'fwd%d.log' % self.prefixes))
        self.fwd.start()
        if not self.fwd.wait_for('port 2:', 60):
            raise RuntimeError('npool-fwd did not start:\n' +
                               self.fwd.tail())

    def npool_stop(self, drops, mroutes):
        """SIGINT, a clean exit; the counters of the setting."""
        self.fwd.signal(signal.SIGINT)
        rc = self.fwd.wait(30)
        log = self.fwd.log()
        if rc != 0:
            self.fail('npool-fwd exit %r\n%s' % (rc, self.fwd.tail()))
        rep = harness.sanitizer_reports(log)
        if rep:
            self.fail('sanitizer report:\n' + rep)
        js = harness.load_json(self.jpath)
        self.probs += harness.leak_problems(js)
        got = js.get('total', {}).get('drops', {})
        for r, n in sorted(drops.items()):
            if got.get(r) != n:
                self.fail('npool-fwd drops[%s] = %r, want %d'
                          % (r, got.get(r), n))
        for k, want in enumerate(mroutes or []):
            m = (js.get('mroutes') or [{}] * (k + 1))[k]
            have = (m.get('pkts'), m.get('copies'), m.get('wrong_if'))
            if have != want:
                self.fail('npool-fwd mroute %d (%s, %s): pkts, copies, '
                          'wrong_if %r, want %r' % (k, m.get('source'),
                                                    m.get('group'), have,
                                                    want))
        self.fwd = None

    def compare(self, tag, cases):
        same = 0
        for i, c in enumerate(cases):
            key = '%s-%d' % (tag, i)
            got, norm = {}, {}
            for side in (self.kern, self.fwdt):
                names = side.names()
                fr = side.frames(key)
                got[side.name] = sorted('%s: %s' % (
                    h, cast_cases.summary(f, names))
                    for h in HOSTS for f in fr[h])
                norm[side.name] = []
                for h in HOSTS:
                    for f in fr[h]:
                        b, prob = normal(f, names)
                        if prob:
                            self.fail('%s, %s: %s' % (side.name, c.name,
                                                      prob))
                        norm[side.name].append((h, b))
                norm[side.name].sort()
            k, n = got['kernel'], got['npool-fwd']
            ok = k == c.expect and n == c.expect and \
                norm['kernel'] == norm['npool-fwd']
            same += k == n and norm['kernel'] == norm['npool-fwd']
            line = '%-52s %s' % (c.name, '; '.join(c.expect) or 'nothing')
            if ok:
                harness.log('  ok   ' + line)
            else:
                self.fail('%s\n         kernel:    %s\n         npool-fwd: %s'
                          % (line, k or 'nothing', n or 'nothing'))
        return same

    def run(self):
        for side in (self.kern, self.fwdt):
            harness.create_topology(side.t)
            side.t.wire_hosts()
        self.kernel_router()
        for side in (self.kern, self.fwdt):
            side.agents = Agents(side.t)
        plan = settings()
        for tag, (name, bc, echo, promisc, cases, drops, mr) in \
                enumerate(plan):
            harness.log('setting %s: bc_forwarding %d, echo requests to '
                        'broadcasts %s, port 0 %spromiscuous, %d cases'
                        % (name, bc, 'answered' if echo else 'ignored',
                           '' if promisc else 'not ', len(cases)))
            self.kernel_setting(bc, echo, promisc)
            self.npool_start(bc, echo, promisc)
            # The two routers' topologies are apart: both at once.
            ths = [threading.Thread(target=side.run_cases,
                                    args=('s%d' % tag, cases))
                   for side in (self.kern, self.fwdt)]
            for th in ths:
                th.start()
            for th in ths:
                th.join()
            time.sleep(WAIT_S)
            self.npool_stop(drops, mr)
        for side in (self.kern, self.fwdt):
            side.seen = side.agents.dump()
        same = total = 0
        for tag, (name, _, _, _, cases, _, _) in enumerate(plan):
            harness.log('setting %s:' % name)
            same += self.compare('s%d' % tag, cases)
            total += len(cases)
        harness.log('%d of %d outcomes identical to the kernel\'s'
                    % (same, total))

    def cleanup(self):
        for p in (self.fwd, self.mroute):
            if p is not None:
                p.kill()
        for side in (self.kern, self.fwdt):
            if side.agents is not None:
                side.agents.kill()
            for e in side.t.remove():
                harness.log('cleanup: ' + e)
        self.work.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--pool', default='npool',
                    choices=('npool', 'mempool'))
    ap.add_argument('--keep', action='store_true')
    return harness.run_netns(ap.parse_args(), Run, ('npck-', 'npcf-'),
                             'np-kc')


if __name__ == '__main__':
    sys.exit(main())
