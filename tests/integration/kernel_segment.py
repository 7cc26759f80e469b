#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A shared segment behind a router, Linux as the oracle: host A on port
0's link, hosts B, C, D on a Linux bridge behind port 1 (segment.py: veth
and bridge devices only), no static neighbour anywhere: every next hop is
resolved by ARP and NDP. Built twice, in namespaces of their own
(npsk-<pid>-*, npsf-<pid>-*), and run at once:

  kernel    a Linux router namespace: 198.18.1.1/24, 2001:2:0:1::1/64 on
            r0 and 198.18.2.1/24, 2001:2:0:2::1/64 on r1, forwarding on,
            DAD off, no redirects, the kernel's neighbour defaults
  npool-fwd the same addresses (--port-addr, whose connected routes are
            all the routes), no --eth-dest, on net_af_packet ports

The cases, in this order (each host's first contact is in the first case
that names it):
  order   A sends --order N (64) UDP datagrams (peer_tools.py udp-send:
          0 to 1452 bytes each) back to back to D, IPv4 and IPv6 at once,
          which neither router has an entry for yet (the Linux router's
          port-1 table flushed first): D gets all of them, in order, TTL
          63, on both routers. 64 pin at most ~150 KiB on either pool (an
          RX mbuf each with --pool mempool): below unres_qlen_bytes
          however long resolution takes. A larger N (300) makes it a
          stress of the moment the neighbour resolves (packets arriving
          while the queue is sent): for --pool npool only, it passes the
          byte bound with mempool
  reach   ping A -> B, C, D (IPv4, IPv6, all at once): answered, ttl 63;
          then TCP A -> each at once, TCP_BYTES, byte count and SHA-256
          equal at both ends
  dead    ping 198.18.2.9 and 2001:2:0:2::9 (nobody there) at once: A gets
          ICMP host unreachable (3/1) from 198.18.1.1 and ICMPv6 address
          unreachable (1/3) from 2001:2:0:1::1, each quoting the echo
          request with TTL / hop limit 63, ~3 s after the first
          solicitation; on the segment (the bridge port facing the
          router) the router sent mcast_solicit 3 broadcast ARP requests
          from 198.18.2.1 and 3 neighbour solicitations to
          ff02::1:ff00:9 from its link-local address, 1 s apart
  neigh   the routers' neighbour tables at the end (ip -j neigh, npool-fwd's
          --json): A, B, C, D resolved (REACHABLE, STALE, DELAY or PROBE),
          the dead addresses FAILED (or gone)
Each case's outcome (normalised: MACs and link-local addresses by name,
times out) is compared between the routers and with the hand-written
expectation; the times are checked on each. npool-fwd's --json after
SIGINT: exit 0, leak block clean, no sanitizer report, drops neigh_failed
= the ICMP errors it sent for it (icmp_host_unreach +
icmp6_addr_unreach) = 2, no unres_discard, neigh_full or lost neighbour
event, its arp_request / nd_solicit counters = the ARP requests /
solicitations seen on the segment.

  kernel_segment.py --app build/apps/fwd/npool-fwd [--pool npool|mempool]
                    [--order N] [--keep]
Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces, veth or
bridge devices: kfeatures.py).
"""

import argparse
import ipaddress
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import harness  # noqa: E402
import kfeatures  # noqa: E402
import netns  # noqa: E402
import oracle  # noqa: E402
import segment  # noqa: E402
import wire_agent  # noqa: E402
from segment import ADDR, HOSTS  # noqa: E402

TOOLS = os.path.join(HERE, 'lib', 'peer_tools.py')
ORDER_N = 64
UDP_PORT = 7001
TCP_PORT = 5001
TCP_BYTES = 128 << 10
# Linux's ARP / NDP defaults (mcast_solicit, retrans_time_ms)
SOLICIT = 3
RETRANS_S = 1.0
# Linux's timers as measured here (when the kernel took each frame in, on
# A and on the bridge port): never early by more than EARLY_S, late by at
# most LATE_S (on a loaded machine the router's thread or lcore waits for
# a CPU; the counts are exact anyway)
EARLY_S = 0.25
LATE_S = 2.0
# ping's wait for the dead host's answer
DEAD_WAIT_S = 10
RESOLVED = ('REACHABLE', 'STALE', 'DELAY', 'PROBE')


def be16(b, off):
    return struct.unpack_from('!H', b, off)[0]


def solicitation(f):
    """('arp' | 'ns', target, sender address, destination MAC, source MAC)
    of an ARP request or a neighbour solicitation; None for others."""
    if len(f) >= 42 and be16(f, 12) == 0x0806 and be16(f, 20) == 1:
        return ('arp', str(ipaddress.IPv4Address(f[38:42])),
                str(ipaddress.IPv4Address(f[28:32])), f[0:6], f[6:12])
    if len(f) >= 78 and be16(f, 12) == 0x86dd and f[20] == 58 and \
            f[54] == 135:
        return ('ns', str(ipaddress.IPv6Address(f[62:78])),
                str(ipaddress.IPv6Address(f[22:38])), f[0:6], f[6:12])
    return None


def quoted(fam, q):
    """(source, destination, TTL / hop limit, protocol) of a quoted IP
    header."""
    if fam == 4 and len(q) >= 20:
        return (str(ipaddress.IPv4Address(q[12:16])),
                str(ipaddress.IPv4Address(q[16:20])), q[8], q[9])
    if fam == 6 and len(q) >= 40:
        return (str(ipaddress.IPv6Address(q[8:24])),
                str(ipaddress.IPv6Address(q[24:40])), q[7], q[6])
    return None


def json_line(text):
    for line in text.splitlines():
        if line.startswith('{'):
            return json.loads(line)
    return None


class Side:
    """One router under test on its copy of the segment: the cases run in
    a thread of their own, each outcome kept normalised in @out."""

    def __init__(self, name, t, work, order_n):
        self.name = name
        self.t = t
        self.work = work
        self.order_n = order_n
        self.agents = None
        self.out = {}
        self.times = {}
        self.raw = {}
        self.err = None
        self.seen = {}
        self.took = []

    def servers(self, specs):
        """Receiving tools (node, args, log name) started at once, each
        listening on return."""
        srvs = []
        for node, args, name in specs:
            srvs.append(netns.AppProcess(
                self.t, node, [sys.executable, TOOLS] + args,
                self.work.file('%s-%s' % (self.name, name))).start())
        for srv, (_, _, name) in zip(srvs, specs):
            if not srv.wait_for('listening', 20):
                raise RuntimeError('%s: %s did not start:\n%s'
                                   % (self.name, name, srv.tail()))
        return srvs

    def from_a(self, cmds, timeout=60):
        """Commands run in A at once: [(exit status, output)]."""
        ps = [subprocess.Popen(self.t.cmd('a', c), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT) for c in cmds]
        out = []
        for p in ps:
            try:
                o, _ = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                o, _ = p.communicate()
            out.append((p.returncode, o.decode('utf-8', 'replace')))
        return out

    @staticmethod
    def ttl(out):
        """ttl of ping's reply, None when none came."""
        for w in out.split():
            if w.startswith('ttl='):
                return int(w[4:])
        return None

    def pings(self, keys, wait):
        """{key: ttl or None}: one ping of ADDR[key] each, at once."""
        res = self.from_a([['ping', '-n', '-c', '1', '-W', str(wait),
                            ADDR[k]] for k in keys], wait + 20)
        return {k: self.ttl(o) for k, (_, o) in zip(keys, res)}

    def flush(self):
        """Only the Linux router has something to flush."""

    # --- the cases ----------------------------------------------------
    def case_warm(self):
        """A resolves the router (pings of its port-0 addresses), so
        that the cases below measure the router alone."""
        self.agents.case('warm')
        got = self.pings(['GW_A4', 'GW_A6'], 3)
        self.out['warm'] = {k[-1]: v is not None for k, v in got.items()}

    def case_order(self):
        """Both families at once (two neighbours of D)."""
        self.flush()
        self.agents.case('order')
        res, fams = {}, '46'
        srvs = self.servers([('d', ['udp-recv', v, '::' if v == '6' else
                                    '0.0.0.0', str(UDP_PORT + int(v)),
                                    str(self.order_n), '15'],
                              'udp%s.log' % v) for v in fams])
        sends = self.from_a([[sys.executable, TOOLS, 'udp-send', v,
                              ADDR['D' + v], str(UDP_PORT + int(v)),
                              str(self.order_n), '64', str(40 + int(v))]
                             for v in fams])
        for v, srv, (rc, sout) in zip(fams, srvs, sends):
            srv.wait(30)
            sent, got = json_line(sout), json_line(srv.log())
            if rc != 0 or sent is None or got is None:
                raise RuntimeError('%s: UDP IPv%s A -> D: sender exit %d '
                                   '%s, receiver %s' % (self.name, v, rc,
                                                        sout, srv.tail()))
            res[v] = {'received': got['count'],
                      'in_order': got['digests'] == sent['digests'],
                      'ttls': sorted(set(got['ttls']))}
            # the numbers of the datagrams received, '?' for a payload
            # sent more than once (the empty one)
            num = {d: i for i, d in enumerate(sent['digests'])
                   if sent['digests'].count(d) == 1}
            self.raw['order' + v] = ' '.join(str(num.get(d, '?'))
                                             for d in got['digests'])
        self.out['order'] = res

    def case_reach(self):
        """Pings at once, then the TCP transfers at once."""
        self.agents.case('reach')
        keys = [h.upper() + v for h in HOSTS for v in '46']
        self.out['ping'] = self.pings(keys, 3)
        srvs = self.servers([(k[0].lower(), [
            'tcp-sink', k[1], '::' if k[1] == '6' else '0.0.0.0',
            str(TCP_PORT + int(k[1])), '15'], 'tcp-%s.log' % k)
            for k in keys])
        conns = self.from_a([[sys.executable, TOOLS, 'tcp-source', k[1],
                              ADDR[k], str(TCP_PORT + int(k[1])),
                              str(TCP_BYTES), '15'] for k in keys])
        tcp = {}
        for k, srv, (rc, cout) in zip(keys, srvs, conns):
            srv.wait(30)
            c, s = json_line(cout), json_line(srv.log())
            ok = rc == 0 and c is not None and s is not None and \
                c['bytes'] == s['bytes'] == c['sink_bytes'] and \
                s['sha256'] == c['sha256'] == c['sink_sha256']
            tcp[k] = s['bytes'] if ok else \
                'broken: %s %s' % (cout.strip()[-200:], srv.tail(3))
        self.out['tcp'] = tcp

    def case_dead(self):
        self.agents.case('dead')
        procs = [subprocess.Popen(self.t.cmd('a', [
            'ping', '-n', '-c', '1', '-W', str(DEAD_WAIT_S),
            ADDR['DEAD' + v]]), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL) for v in '46']
        for p in procs:
            p.wait(DEAD_WAIT_S + 10)
        # a solicitation after the last one would come RETRANS_S later
        time.sleep(RETRANS_S)
        self.agents.case('end')

    def case_neigh(self):
        self.out['neigh'] = self.neigh()

    def neigh(self):
        """{address: state} of the router's neighbour tables."""
        raise NotImplementedError

    # --- what the agents saw ------------------------------------------
    def names(self):
        """Addresses and MACs of the router and hosts -> names."""
        n = {self.t.link_local(d): 'LL(%s)' % d for d in ('a', 'r0', 'r1')
             + HOSTS}
        n.update({oracle.mac_bytes(self.t.macs[d]): d.upper()
                  for d in ('a', 'r0', 'r1') + HOSTS})
        n[b'\xff' * 6] = 'bcast'
        return n

    def dead_outcome(self):
        names = self.names()
        seen = self.seen.get('a', {}).get('dead', [])
        errors, times = [], {}
        for s, f in seen:
            e = oracle.icmp_error_fields(f)
            if e is None:
                continue
            fam, typ, code, _, src, q, ok = e
            errors.append((fam, typ, code, src, quoted(fam, q), len(q),
                           'checksums ok' if ok else 'BAD CHECKSUM'))
            times.setdefault(fam, []).append(s)
        sol = {'arp': [], 'ns': []}
        stimes = {'arp': [], 'ns': []}
        for s, f in self.seen.get('seg', {}).get('dead', []):
            x = solicitation(f)
            if x is None or x[1] not in (ADDR['DEAD4'], ADDR['DEAD6']):
                continue
            dst = names.get(x[3], x[3].hex(':'))
            if x[3][:3] == b'\x33\x33\xff':
                dst = '33:33:ff:' + x[3][3:].hex(':')
            sol[x[0]].append((names.get(x[2], x[2]), dst,
                              names.get(x[4], x[4].hex(':'))))
            stimes[x[0]].append(s)
        self.out['dead'] = {'errors': sorted(errors),
                            'solicitations': {k: sorted(set(v)) for k, v in
                                              sol.items()},
                            'solicitation_count': {k: len(v) for k, v in
                                                   sol.items()}}
        self.times['dead'] = {'errors': times, 'solicit': stimes}

    def solicitations(self):
        """ARP requests and solicitations the router sent on the segment
        in the whole run: {'arp': n, 'ns': n}."""
        n = {'arp': 0, 'ns': 0}
        rmac = oracle.mac_bytes(self.t.macs['r1'])
        for frames in self.seen.get('seg', {}).values():
            for _, f in frames:
                x = solicitation(f)
                if x is not None and x[4] == rmac:
                    n[x[0]] += 1
        return n

    # --- the run ------------------------------------------------------
    def run(self):
        try:
            for case in (self.case_warm, self.case_order, self.case_reach,
                         self.case_dead, self.case_neigh):
                t0 = time.monotonic()
                case()
                self.took.append('%s %.1f s' % (case.__name__[5:],
                                                time.monotonic() - t0))
        except Exception as e:          # noqa: BLE001 (reported by Run)
            self.err = '%s: %s' % (type(e).__name__, e)


class Kernel(Side):
    def setup(self):
        self.t.linux_router()

    def flush(self):
        netns.sh(['ip', '-n', self.t.ns['r'], 'neigh', 'flush', 'dev',
                  self.t.ifs['r1']])

    def neigh(self):
        got = {}
        for fam in ('-4', '-6'):
            for e in json.loads(self.t.run('r', ['ip', '-j', fam, 'neigh',
                                                 'show'])):
                if e.get('dst', '').startswith('fe80:'):
                    continue
                got[e['dst']] = '/'.join(e.get('state', ['?']))
        return got


class Npool(Side):
    def __init__(self, name, t, work, a):
        super().__init__(name, t, work, a.order)
        self.a = a
        self.fwd = None
        self.js = {}
        self.rc = None
        self.prefix = 'np-sf%d' % os.getpid()
        work.prefixes.append(self.prefix)
        self.jpath = work.file('fwd.json')

    def setup(self):
        self.t.router_wire()
        t = self.t
        cmd = [self.a.app, '--no-huge', '-m', '1024', '--no-pci',
               '--no-shconf', '--no-telemetry', '--file-prefix', self.prefix,
               '-l', '0-1', '--vdev', 'net_af_packet0,iface=' + t.ifs['r0'],
               '--vdev', 'net_af_packet1,iface=' + t.ifs['r1'], '--',
               '-p', '0x3', '--pool', self.a.pool, '--json', self.jpath]
        # Route files without a route: without them npool-fwd would take
        # l3fwd's default tables, whose 198.18.2.0/24 to port 2 would
        # replace the connected route of port 1 (docs/apps/npool-fwd.md).
        for v in '46':
            path = self.work.file('routes%s.cfg' % v)
            with open(path, 'w') as f:
                f.write('# none: the connected routes of --port-addr\n')
            cmd += ['--rule_ipv' + v, path]
        for pa in segment.PORT_ADDR:
            cmd += ['--port-addr', pa]
        harness.log('npool-fwd: ip netns exec %s %s'
                    % (t.ns['r'], ' '.join(cmd)))
        self.fwd = netns.AppProcess(t, 'r', cmd, self.work.file('fwd.log'))
        self.fwd.start()
        if not self.fwd.wait_for('port 1:', 60):
            raise RuntimeError('npool-fwd did not start:\n' +
                               self.fwd.tail())

    def neigh(self):
        """After SIGINT, from --json (so npool-fwd stops here)."""
        self.fwd.signal(signal.SIGINT)
        self.rc = self.fwd.wait(30)
        self.js = harness.load_json(self.jpath)
        got = {}
        for tab in ('arp', 'ndp'):
            for e in self.js.get('neighbours', {}).get(tab, {}).get(
                    'entries_list', []):
                if not e['ip'].startswith('fe80:'):
                    got[e['ip']] = e['state']
        return got


def neigh_classes(states):
    """{name: 'resolved' | 'FAILED' | 'none' | other state} of the
    addresses the cases touched."""
    out = {}
    for key in ['A4', 'A6'] + [h.upper() + v for h in HOSTS for v in '46'] \
            + ['DEAD4', 'DEAD6']:
        s = states.get(ADDR[key], 'none')
        out[key] = 'resolved' if s in RESOLVED else s
        # a FAILED entry may be collected: gone is as good
        if key.startswith('DEAD') and s == 'none':
            out[key] = 'FAILED'
    return out


def expected(order_n):
    """The hand-written outcome of every case (Linux's defaults)."""
    ll = 'LL(r1)'
    return {
        'warm': {'4': True, '6': True},
        'order': {v: {'received': order_n, 'in_order': True, 'ttls': [63]}
                  for v in '46'},
        'ping': {h.upper() + v: 63 for h in HOSTS for v in '46'},
        'tcp': {h.upper() + v: TCP_BYTES for h in HOSTS for v in '46'},
        'dead': {
            'errors': sorted([
                (4, 3, 1, ADDR['GW_A4'],
                 (ADDR['A4'], ADDR['DEAD4'], 63, 1), 84, 'checksums ok'),
                (6, 1, 3, ADDR['GW_A6'],
                 (ADDR['A6'], ADDR['DEAD6'], 63, 58), 104,
                 'checksums ok')]),
            'solicitations': {
                'arp': [(ADDR['GW_S4'], 'bcast', 'R1')],
                'ns': [(ll, '33:33:ff:00:00:09', 'R1')]},
            'solicitation_count': {'arp': SOLICIT, 'ns': SOLICIT}},
        'neigh': dict([(k, 'resolved') for k in
                       ['A4', 'A6'] + [h.upper() + v for h in HOSTS
                                       for v in '46']] +
                      [('DEAD4', 'FAILED'), ('DEAD6', 'FAILED')]),
    }


class Run(harness.Checks):
    def __init__(self, a):
        super().__init__()
        self.a = a
        pid = os.getpid()
        self.work = harness.Workdir('kseg', a.keep)
        self.kern = Kernel('kernel', segment.Segment('npsk-%d' % pid,
                                                     'sk%d' % pid), self.work,
                           a.order)
        self.npool = Npool('npool-fwd', segment.Segment('npsf-%d' % pid,
                                                        'sf%d' % pid),
                           self.work, a)
        self.fwd = None

    def build(self, side):
        try:
            side.t.create()
        except segment.NoBridge as e:
            harness.skip('kernel: %s' % kfeatures.missing_text('bridge', e))
        except netns.NetnsError as e:
            if 'netns add' in str(e) or 'type veth' in str(e):
                harness.skip('no network namespaces or veth here: %s' % e)
            raise

    def run(self):
        why = kfeatures.probe().get('bridge')
        if why:
            harness.skip('kernel: %s: the shared segment cannot be built'
                         % kfeatures.missing_text('bridge', why))
        t0 = time.monotonic()
        sides = (self.kern, self.npool)
        for side in sides:
            self.build(side)
            side.setup()
            if side is self.npool:
                self.fwd = side.fwd
            side.t.configure_hosts()
            # what A receives, and the bridge port facing the router
            side.agents = wire_agent.Agents(side.t, {'a': ('a', 'a'),
                                                     'seg': ('s', 's0')})
        harness.log('two segments built, routers up: %.1f s'
                    % (time.monotonic() - t0))
        t1 = time.monotonic()
        ths = [threading.Thread(target=s.run) for s in sides]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
        harness.log('cases on both routers at once: %.1f s (%s)'
                    % (time.monotonic() - t1, '; '.join(
                        '%s: %s' % (s.name, ', '.join(s.took))
                        for s in sides)))
        self.fwd = None
        for side in sides:
            side.seen = {name: {k: [(t, bytes.fromhex(h)) for t, h in v]
                                for k, v in cases.items()}
                         for name, cases in side.agents.dump().items()}
            side.agents = None
            if side.err:
                self.fail('%s: %s' % (side.name, side.err))
            else:
                side.dead_outcome()
        if self.probs:
            return
        self.compare()
        self.timing()
        self.npool_checks()

    def compare(self):
        want = expected(self.a.order)
        for case in ('warm', 'order', 'ping', 'tcp', 'dead', 'neigh'):
            k, n = self.kern.out[case], self.npool.out[case]
            if case == 'neigh':
                harness.log('  neighbours, kernel: %s' % json.dumps(
                    k, sort_keys=True))
                harness.log('  neighbours, npool-fwd: %s' % json.dumps(
                    n, sort_keys=True))
                k, n = neigh_classes(k), neigh_classes(n)
            w = want[case]
            if k == n == w:
                harness.log('  ok   %-6s kernel == npool-fwd == expected: %s'
                            % (case, json.dumps(w, sort_keys=True)))
                continue
            self.fail('%s:\n         expected:  %s\n         kernel:    %s\n'
                      '         npool-fwd: %s' % (
                          case, json.dumps(w, sort_keys=True),
                          json.dumps(k, sort_keys=True),
                          json.dumps(n, sort_keys=True)))
            for side in (self.kern, self.npool):
                for key, val in side.raw.items():
                    harness.log('         %s %s: %s' % (side.name, key, val))

    def timing(self):
        """Solicitations RETRANS_S apart, the error SOLICIT x RETRANS_S
        after the first, on each router."""
        for side in (self.kern, self.npool):
            tm = side.times['dead']
            for fam, kind in ((4, 'arp'), (6, 'ns')):
                st, et = tm['solicit'][kind], tm['errors'].get(fam, [])
                if not st or not et:
                    continue
                gaps = [round(b - a, 2) for a, b in zip(st, st[1:])]
                delay = et[0] - st[0]
                self.check(all(-EARLY_S <= g - RETRANS_S <= LATE_S
                               for g in gaps) and
                           -EARLY_S <= delay - SOLICIT * RETRANS_S <= LATE_S,
                           '%-9s IPv%d dead host: %s %s s apart, the error '
                           '%.2f s after the first (Linux: %g s apart, '
                           '%g s; %g s early to %g s late taken)'
                           % (side.name, fam, kind, gaps, delay, RETRANS_S,
                              SOLICIT * RETRANS_S, EARLY_S, LATE_S))

    def npool_checks(self):
        side, js = self.npool, self.npool.js
        log = side.fwd.log()
        self.check(side.rc == 0, 'npool-fwd after SIGINT: exit status %s'
                   % side.rc)
        if side.rc != 0:
            harness.log(side.fwd.tail())
        rep = harness.sanitizer_reports(log)
        self.check(not rep, 'no sanitizer report' if not rep else
                   'sanitizer report:\n' + rep)
        if '_error' in js:
            self.fail('npool-fwd: no JSON: %s' % js['_error'])
            return
        probs = harness.leak_problems(js)
        self.check(not probs, 'leak block: %s' % ('; '.join(probs) or
                                                  'clean'))
        tot = js.get('total', {})
        drops, rt = tot.get('drops', {}), tot.get('router', {})
        answered = rt.get('icmp_host_unreach', 0) + \
            rt.get('icmp6_addr_unreach', 0)
        self.check(drops.get('neigh_failed') == answered == 2 and
                   rt.get('icmp_host_unreach') == 1,
                   'npool-fwd: neigh_failed %s = icmp_host_unreach %s + '
                   'icmp6_addr_unreach %s (want 2 = 1 + 1)' % (
                       drops.get('neigh_failed'),
                       rt.get('icmp_host_unreach'),
                       rt.get('icmp6_addr_unreach')))
        bad = {k: drops.get(k, 0) for k in ('unres_discard', 'neigh_full')
               if drops.get(k, 0)}
        bad.update({k: rt[k] for k in ('neigh_ev_lost', 'no_route_back')
                    if rt.get(k, 0)})
        self.check(not bad, 'npool-fwd: no unres_discard, neigh_full, '
                   'neigh_ev_lost, no_route_back: %s' % (bad or 'none'))
        p1 = next((p for p in js.get('ports', []) if p.get('port') == 1),
                  {}).get('router', {})
        seen = side.solicitations()
        self.check(p1.get('arp_request') == seen['arp'] and
                   p1.get('nd_solicit') == seen['ns'],
                   'npool-fwd port 1: arp_request %s, nd_solicit %s = seen '
                   'on the segment %d, %d' % (p1.get('arp_request'),
                                              p1.get('nd_solicit'),
                                              seen['arp'], seen['ns']))
        kseen = self.kern.solicitations()
        nb = js.get('neighbours', {})
        harness.log('  (whole run: kernel sent %d ARP requests, %d '
                    'solicitations on the segment, npool-fwd %d, %d; '
                    'npool-fwd held %s packets for resolution, %s of them '
                    'sent by their lcore as their neighbour resolved; %s '
                    'neighbours published past packets on the hold ring)'
                    % (kseen['arp'], kseen['ns'], seen['arp'], seen['ns'],
                       nb.get('held'), rt.get('hold_late', 0),
                       nb.get('publish_forced')))

    def cleanup(self):
        for side in (self.kern, self.npool):
            if side.agents is not None:
                side.agents.kill()
        if self.npool.fwd is not None:
            self.npool.fwd.kill()
        for side in (self.kern, self.npool):
            for e in side.t.remove():
                harness.log('cleanup: ' + e)
        self.work.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--pool', choices=('npool', 'mempool'), default='npool')
    ap.add_argument('--order', type=int, default=ORDER_N, metavar='N')
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    if os.geteuid() != 0:
        harness.skip('needs root (network namespaces, veth, bridge, '
                     'AF_PACKET)')
    for tool in ('ip', 'ethtool', 'ping', 'unshare'):
        if shutil.which(tool) is None:
            harness.skip("'%s' not found (Debian: iproute2 ethtool "
                         "iputils-ping util-linux; scripts/deps.sh test)"
                         % tool)
    for tag in ('npsk-', 'npsf-'):
        for pid in segment.sweep_stale(tag):
            for d in harness.runtime_dirs('np-sf' + pid):
                shutil.rmtree(d, ignore_errors=True)
    return harness.run_netns(a, Run, (), 'np-sf')


if __name__ == '__main__':
    sys.exit(main())
