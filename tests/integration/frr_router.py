#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd as FRR's forwarding plane, with the real components: FRR
8.4's zebra (dplane_fpm_nl), staticd and bgpd in the router's namespace,
bird2 as a BGP peer, Linux hosts behind npool-fwd's ports.

  host A (-a) 198.18.1.2 --- r0 = port 0 [npool-fwd] port 1 = r1 --- host B (-b) 198.18.2.2
                                  port 2 = r2 --- host C (-c) 198.18.3.2
  router (-r): npool-fwd on net_af_packet r0 r1 r2, --port-addr .1 / ::1
               of each, no --eth-dest (next hops by ARP / NDP), --fpm;
               zebra + staticd + bgpd; per port a veth z<k> (peer y<k>)
               up with the port's addresses, --fpm-if k,z<k> (what zebra
               needs to resolve a gateway); the ports' own kernel side
               left alone (arp_ignore 8, rp_filter 1, no IPv6)
  bird (-m):   bird2, eBGP to bgpd over a management veth m1 -- m0
               (198.18.250.2/30 -- .1), not an npool port

B answers for 198.19.0.0/16 and 198.18.100-101.0/24 (local routes), C
for 198.18.100-101.0/24 too; C's TTL is 60 and hop limit 60, B's 64, so
the TTL of a reply A reads says who answered (63: B, 59: C).

Phases, each checked and timed:
  static   staticd: 198.18.100.0/24 via B, 198.18.101.0/24 via C,
           2001:2:0:100::/64 via B: A pings each through npool-fwd, the
           right host answers; 198.18.100.0/24 moved to C (the new
           gateway added, the old removed): the next ping is C's
  bgp      bird announces BULK /32s (a static protocol enabled by birdc,
           next hop B) and withdraws them (disabled), while two threads
           sample zebra's vty (`show ip route summary`: BGP routes in its
           RIB and FIB; `show fpm counters`: bytes written to FPM) and
           npool-fwd's telemetry (/fwd/routes, /fwd/fpm bytes): the time
           of each from the birdc command; npool-fwd's table complete at
           most WITHIN_MS after zebra's last FPM byte (the cycle runs once
           more when a loaded machine misses it); three announced prefixes
           by the gateway in /fwd/route and answered by B; withdrawn, no
           route and npool-fwd's net unreachable
  restart  zebra killed (SIGKILL: a crash, no deletes sent), then
           restarted as FRR's watchfrr does (bgpd and staticd stopped,
           zebra started, then them: they do not give a new zebra their
           routes again by themselves), 198.18.101.0/24 taken out of
           staticd's configuration meanwhile: zebra's FPM connection
           counted (/fwd/fpm connects + 1) and the sync over (syncs + 1,
           syncing false) within SYNC_S of it (connect_ms, sync_ms:
           npool-fwd's own clock); 198.18.101.0/24 gone once
           synced; staticd's other routes there all along (sent again
           within the sync), bird's back (its gaps printed)
  exit     SIGINT: exit 0, leak block clean, no sanitizer report, FPM
           errors only no_port for the management link's prefix

  frr_router.py --app build/apps/fwd/npool-fwd [--pool npool|mempool]
                [--bulk N] [--keep]
Exit 0 pass, 1 fail, 77 skip (not root, no FRR or bird2, no network
namespaces or veth).
"""

import argparse
import ipaddress
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import frr  # noqa: E402
import harness  # noqa: E402
import netns  # noqa: E402
from apps_measure import RunError, Telemetry, connect  # noqa: E402
from netns import ADDR  # noqa: E402

BULK = 10000
BULK_NET = ipaddress.ip_network('198.19.0.0/16')
STEADY = ['198.19.200.0/24', '198.19.201.0/24']
STEADY_HOST = '198.19.200.1'
MGMT_R, MGMT_M, MGMT_NET = '198.18.250.1', '198.18.250.2', '198.18.250.0/30'
AS_R, AS_M = 65000, 65001
WITHIN_MS = 500     # npool-fwd's table after zebra's last FPM byte
SYNC_S = 1.0        # the sync's end after zebra's reconnect
TTL_C = 60          # C's TTL and hop limit (B keeps 64)
STATICS = ('ip route 198.18.100.0/24 198.18.2.2\n'
           'ip route 198.18.101.0/24 198.18.3.2\n'
           'ipv6 route 2001:2:0:100::/64 2001:2:0:2::2\n')
MOVED = ('ip route 198.18.100.0/24 198.18.3.2',
         'no ip route 198.18.100.0/24 198.18.2.2')
REMOVED_LINE = 'ip route 198.18.101.0/24 198.18.3.2\n'
BGPD = '''router bgp %d
 bgp router-id %s
 no bgp ebgp-requires-policy
 neighbor %s remote-as %d
 neighbor %s timers connect 1
''' % (AS_R, MGMT_R, MGMT_M, AS_M, MGMT_M)


def bulk_prefix(i):
    return str(BULK_NET.network_address + i)


def first(net):
    """The first host address of prefix @net."""
    return str(ipaddress.ip_network(net).network_address + 1)


def bird_conf(n):
    """bird2: a steady static protocol, a bulk one of @n /32s started
    disabled, eBGP to bgpd with next hop B."""
    routes = ''.join('  route %s/32 blackhole;\n' % bulk_prefix(i)
                     for i in range(n))
    steady = ''.join('  route %s blackhole;\n' % p for p in STEADY)
    return '''router id %s;
protocol device { }
protocol static steady {
  ipv4;
%s}
protocol static bulk {
  disabled;
  ipv4;
%s}
protocol bgp frr {
  local %s as %d;
  neighbor %s as %d;
  connect delay time 1;
  connect retry time 1;
  error wait time 1, 2;
  ipv4 { import none; export filter { bgp_next_hop = %s; accept; }; };
}
''' % (MGMT_M, steady, routes, MGMT_M, AS_M, MGMT_R, AS_R, ADDR['B4'])


class Vty:
    """A daemon's vty socket, spoken to as vtysh does (a command ending
    in NUL; the answer ends with three NULs and a status byte): a few ms
    a command, where a vtysh process takes tens."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(30)
        self.s.connect(path)

    def cmd(self, line):
        self.s.sendall(line.encode() + b'\0')
        buf = b''
        while len(buf) < 4 or buf[-4:-1] != b'\0\0\0':
            d = self.s.recv(65536)
            if not d:
                raise OSError('vty closed')
            buf += d
        return buf[:-4].decode('utf-8', 'replace')

    def close(self):
        self.s.close()


def route_text(r):
    """A /fwd/route answer in a few words."""
    if 'prefix' not in r:
        return 'no route' if r.get('route') == 'none' else str(r)
    return '%s/%s %s%s port %s %s (%s)' % (
        r['prefix'], r['depth'], r['type'],
        ' via ' + r['via'] if 'via' in r else '', r.get('port', '-'),
        r.get('state', ''), r['origin'])


def route_summary(text):
    """`show ip route summary`: {source: (routes, fib)}."""
    out = {}
    for m in re.finditer(r'^(\w+)\s+(\d+)\s+(\d+)\s*$', text, re.M):
        out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


class Lab(harness.Checks):
    def __init__(self, a):
        self.a = a
        pid = os.getpid()
        self.tag = 'npfr-%d' % pid
        self.ifp = 'fr%d' % pid
        self.topo = netns.Topology(self.tag, self.ifp, third=True)
        self.mns = self.tag + '-m'
        self.prefix = 'np-fr%d' % pid
        self.work = harness.Workdir('frr', a.keep)
        os.chmod(self.work.path, 0o755)
        self.work.prefixes.append(self.prefix)
        self.fwd = self.tel = self.zebra = self.bird = None
        self.probs = []
        self.times = {}

    def zif(self, k, side='z'):
        return '%s-%s%d' % (self.ifp, side, k)

    # --- setup -------------------------------------------------------------
    def create(self):
        """The topology: netns.py's three hosts and router, zebra's veths
        and the management link (few commands: each is a process, slow
        on a loaded machine)."""
        t, r = self.topo, self.topo.ns['r']
        harness.create_topology(t)
        netns.sh(['ip', 'netns', 'add', self.mns])
        m0, m1 = self.zif(0, 'm'), self.zif(1, 'm')
        ip_batch(r, ['link add %s type veth peer name %s' % (
            self.zif(k), self.zif(k, 'y')) for k in range(3)] +
            ['link add %s type veth peer name %s netns %s' % (m0, m1,
                                                              self.mns)])
        # The ports are npool-fwd's: the router's kernel answers no ARP on
        # them and takes no IPv4 from them (the reverse path of every
        # source is a z<k>: rp_filter 1), and has no IPv6 there (netns.py).
        keys = ['net.ipv6.conf.%s.disable_ipv6=1' % d
                for d in [self.zif(k, 'y') for k in range(3)] + [m0]]
        for dev in t.ports:
            keys += ['net.ipv4.conf.%s.arp_ignore=8' % t.ifs[dev],
                     'net.ipv4.conf.%s.rp_filter=1' % t.ifs[dev]]
        t.run('r', ['sysctl', '-qw'] + keys)
        # zebra's view of port k: a veth up with the port's addresses
        lines = []
        for k, h in enumerate('ABC'):
            z = self.zif(k)
            lines += ['addr add %s/24 dev %s' % (ADDR['GW_%s4' % h], z),
                      'addr add %s/64 dev %s nodad' % (ADDR['GW_%s6' % h], z),
                      'link set %s up' % self.zif(k, 'y'),
                      'link set %s up' % z]
        ip_batch(r, lines + ['addr add %s/30 dev %s' % (MGMT_R, m0),
                             'link set %s up' % m0])
        ip_batch(self.mns, ['link set lo up',
                            'addr add %s/30 dev %s' % (MGMT_M, m1),
                            'link set %s up' % m1])

    def hosts(self):
        """A, B, C: addresses, npool-fwd's port addresses as default
        gateways (no neighbour entry). B answers for the BGP prefixes and
        both static ones, C for the static ones, with TTL 60."""
        t = self.topo
        local = {'b': [str(BULK_NET), '198.18.100.0/24', '198.18.101.0/24',
                       '2001:2:0:100::/64'],
                 'c': ['198.18.100.0/24', '198.18.101.0/24']}
        for h in t.hosts:
            H, dev = h.upper(), t.ifs[h]
            keys = ['net.ipv6.conf.%s.%s=0' % (dev, k)
                    for k in ('accept_dad', 'accept_ra')]
            if h == 'c':
                keys += ['net.ipv4.ip_default_ttl=%d' % TTL_C,
                         'net.ipv6.conf.all.hop_limit=%d' % TTL_C,
                         'net.ipv6.conf.%s.hop_limit=%d' % (dev, TTL_C)]
            t.run(h, ['sysctl', '-qw'] + keys)
            t.offloads_off(h, dev)
            ip_batch(t.ns[h], [
                'addr add %s/24 dev %s' % (ADDR[H + '4'], dev),
                'addr add %s/64 dev %s nodad' % (ADDR[H + '6'], dev),
                'link set %s up' % dev,
                'route add default via %s' % ADDR['GW_%s4' % H],
                'route add default via %s' % ADDR['GW_%s6' % H]] +
                ['route add local %s dev lo' % n for n in local.get(h, [])])

    def start_fwd(self):
        t = self.topo
        empty = self.work.file('empty.cfg')
        open(empty, 'w').close()
        cmd = [self.a.app, '--no-huge', '-m', '1024', '--no-pci',
               '--no-shconf', '--file-prefix', self.prefix, '-l', '0-1']
        for k, dev in enumerate(t.ports):
            cmd += ['--vdev', 'net_af_packet%d,iface=%s' % (k, t.ifs[dev])]
        cmd += ['--', '-p', '0x7', '--pool', self.a.pool,
                '--rule_ipv4', empty, '--rule_ipv6', empty,
                '--fpm', '127.0.0.1:2620', '--json', self.work.file(
                    'fwd.json')]
        for k in range(3):
            h = 'ABC'[k]
            cmd += ['--port-addr', '%d,%s/24,%s/64' % (
                k, ADDR['GW_%s4' % h], ADDR['GW_%s6' % h]),
                '--fpm-if', '%d,%s' % (k, self.zif(k))]
        harness.log('npool-fwd: ip netns exec %s %s' % (t.ns['r'],
                                                       ' '.join(cmd)))
        self.fwd = netns.AppProcess(t, 'r', cmd, self.work.file('fwd.log'))
        self.fwd.start()
        if not self.fwd.wait_for('fpm: listening', 60):
            raise RuntimeError('npool-fwd did not start:\n' +
                               self.fwd.tail())
        try:
            self.tel = connect(self.fwd.proc, self.tel_path())
        except RunError as e:
            raise RuntimeError('npool-fwd: %s' % e)

    def tel_path(self):
        return os.path.join('/var/run/dpdk', self.prefix, 'dpdk_telemetry.v2')

    def start_frr(self):
        self.bird = frr.Bird(self.mns, self.work.file('bird'),
                             bird_conf(self.a.bulk))
        self.bird.start()
        self.zebra = frr.Frr(self.topo.ns['r'], self.work.file('frr'),
                             zebra='fpm address 127.0.0.1 port 2620\n',
                             staticd=STATICS, bgpd=BGPD)
        self.zebra.start()

    # --- queries -----------------------------------------------------------
    def fpm(self):
        return self.tel.query('/fwd/fpm')

    def fpm_routes(self, v6=False):
        return self.tel.query('/fwd/routes')['ipv6' if v6 else 'ipv4']['fpm']

    def route(self, addr):
        return self.tel.query('/fwd/route,' + addr)

    def wait(self, pred, timeout, what, every=0.01):
        """Poll pred() until true: the time it took; RuntimeError after
        @timeout s."""
        t0 = time.monotonic()
        end = t0 + timeout * harness.TIMEOUT_MULTIPLIER
        while True:
            v = pred()
            if v:
                return time.monotonic() - t0
            if time.monotonic() > end:
                raise RuntimeError('%s: not after %.0f s' % (what, timeout))
            time.sleep(every)

    def via(self, addr, gw):
        r = self.route(addr)
        return r.get('via') == gw and r.get('origin') == 'fpm'

    def ping(self, addr, v='4'):
        """One echo from A: (answered, the reply's TTL or None, output)."""
        p = subprocess.run(self.topo.cmd('a', [
            'ping', '-' + v, '-n', '-c', '1', '-W', '3', addr]),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=20)
        out = p.stdout.decode('utf-8', 'replace')
        m = re.search(r' (?:ttl|hlim)=(\d+)', out)
        return p.returncode == 0, int(m.group(1)) if m else None, out

    def ping_from(self, addr, who, v='4'):
        want = {'B': 63, 'C': TTL_C - 1}[who]
        ok, ttl, out = self.ping(addr, v)
        if not self.check(ok and ttl == want,
                          'ping %s from A: %s (want %s: ttl %d)' % (
                              addr, 'answered, ttl %s' % ttl if ok else
                              'no answer', who, want)):
            harness.log(out)

    # --- phases ------------------------------------------------------------
    def phase_static(self):
        harness.log('static routes (staticd, next hops by ARP / NDP)')
        self.wait(lambda: self.via('198.18.100.1', ADDR['B4']) and
                  self.via('198.18.101.1', ADDR['C4']) and
                  self.via('2001:2:0:100::1', ADDR['B6']), 20,
                  'staticd\'s routes in npool-fwd')
        self.ping_from('198.18.100.1', 'B')
        self.ping_from('198.18.101.1', 'C')
        self.ping_from('2001:2:0:100::1', 'B', '6')
        r = self.route('198.18.100.1')
        self.check(r.get('port') == 1 and r.get('state') == 'REACHABLE',
                   '/fwd/route,198.18.100.1: %s' % route_text(r))
        self.zebra.configure(*MOVED)
        dt = self.wait(lambda: self.via('198.18.100.1', ADDR['C4']), 10,
                       '198.18.100.0/24 moved to C')
        harness.log('  vtysh: %s; npool-fwd: %s, %.0f ms after vtysh '
                    'returned' % ('; '.join(MOVED), route_text(
                        self.route('198.18.100.1')), dt * 1000))
        self.ping_from('198.18.100.1', 'C')
        # what `write memory` keeps, for the restart
        self.zebra.conf['staticd'] = STATICS.replace(
            '198.18.100.0/24 198.18.2.2', '198.18.100.0/24 198.18.3.2')

    def timed(self, cmd, want_fwd, want_bgp):
        """birdc @cmd while two threads sample zebra (its vty: BGP routes
        in its RIB and FIB, bytes written to FPM) and npool-fwd
        (telemetry: its FPM routes, bytes read). The times, in ms after
        the command, of: zebra's RIB and FIB counts at @want_bgp, zebra's
        last FPM byte, npool-fwd's count at @want_fwd."""
        vty = Vty(self.zebra.path('zebra.vty'))
        vty.cmd('enable')
        tel = Telemetry(self.tel_path())
        # a loaded machine may answer late: late is measured, not fatal
        tel.s.settimeout(30)
        zs, fs, done = [], [], threading.Event()

        def poll_zebra():
            while not done.is_set():
                rib, fib = route_summary(vty.cmd(
                    'show ip route summary')).get('ebgp', (0, 0))
                out = int(re.search(r'Output bytes: (\d+)', vty.cmd(
                    'show fpm counters')).group(1))
                zs.append((time.monotonic(), rib, fib, out))
                time.sleep(0.005)

        def poll_fwd():
            while not done.is_set():
                n = tel.query('/fwd/routes')['ipv4']['fpm']
                fs.append((time.monotonic(), n, tel.query('/fwd/fpm')[
                    'bytes']))
                if n == want_fwd:
                    return
                time.sleep(0.002)

        ths = [threading.Thread(target=f) for f in (poll_zebra, poll_fwd)]
        t0 = time.monotonic()
        for th in ths:
            th.start()
        out = self.bird.birdc(*cmd.split())
        ths[1].join(30 * harness.TIMEOUT_MULTIPLIER)
        # zebra's last bytes are written by the time npool-fwd has them
        time.sleep(0.2)
        done.set()
        for th in ths:
            th.join()
        vty.close()
        tel.close()
        if not re.search(r'(enabled|disabled)', out):
            raise RuntimeError('birdc %s: %s' % (cmd, out.strip()))

        def first(samples, pred):
            return next(((x[0] - t0) * 1000 for x in samples if pred(x)),
                        None)
        t = {'rib': first(zs, lambda x: x[1] == want_bgp),
             'fib': first(zs, lambda x: x[2] == want_bgp),
             'sent': first(zs, lambda x: x[3] == zs[-1][3]),
             'fwd': first(fs, lambda x: x[1] == want_fwd)}
        t['bytes'] = (zs[-1][3] - zs[0][3], fs[-1][2] - fs[0][2])
        return t

    def phase_bgp(self):
        n = self.a.bulk
        harness.log('BGP: bird announces and withdraws %d routes' % n)
        self.wait(lambda: 'Established' in self.bird.birdc('show',
                                                           'protocols',
                                                           'frr'),
                  30, 'the BGP session', every=0.1)
        self.wait(lambda: all(self.via(first(p), ADDR['B4'])
                              for p in STEADY),
                  20, 'bird\'s steady routes in npool-fwd')
        base = self.fpm_routes()
        harness.log('  session up; npool-fwd holds %d IPv4 FPM routes' % base)
        # A bound on time on a shared machine: missed, the cycle runs
        # once more and says why (docs/testing.md); both are printed.
        for attempt in (1, 2):
            lags = self.bgp_cycle(n, base)
            missed = {w: l for w, l in lags.items()
                      if l is None or l > WITHIN_MS}
            if not missed or attempt == 2:
                break
            harness.log('  npool-fwd more than %d ms behind zebra\'s last '
                        'FPM byte (%s; the machine\'s load is %s): the '
                        'cycle once more' % (WITHIN_MS, ', '.join(
                            '%s %s' % (w, 'never' if l is None else
                                       '%+.0f ms' % l)
                            for w, l in missed.items()),
                            os.getloadavg()[0]))
        self.check(not missed, 'npool-fwd\'s table complete at most %d ms '
                   'after zebra\'s last FPM byte, announce and withdrawal '
                   '(%s)' % (WITHIN_MS, ', '.join(
                       '%s %s' % (w, 'never' if l is None else '%+.0f ms' % l)
                       for w, l in lags.items())))

    def bgp_cycle(self, n, base):
        """bird announces the bulk routes, then withdraws them: the
        timings, traffic to three of them; npool-fwd's lag behind
        zebra's last FPM byte, by step."""
        lags = {}
        for what, cmd, want_fwd, want_bgp in (
                ('announce', 'enable bulk', base + n, n + len(STEADY)),
                ('withdraw', 'disable bulk', base, len(STEADY))):
            t = self.timed(cmd, want_fwd, want_bgp)
            self.times[what] = t
            ms = {k: '%.0f ms' % t[k] if t[k] is not None else 'never'
                  for k in ('rib', 'fib', 'sent', 'fwd')}
            lags[what] = None if None in (t['sent'], t['fwd']) else \
                t['fwd'] - t['sent']
            harness.log('  %s of %d routes (birdc %s): in zebra\'s RIB %s, '
                        'its FIB %s, its last FPM byte sent %s, npool-fwd\'s '
                        'table %s after the command (FPM bytes: zebra sent '
                        '%d, npool-fwd read %d)' % (
                            what, n, cmd, ms['rib'], ms['fib'], ms['sent'],
                            ms['fwd'], *t['bytes']))
            samples = [bulk_prefix(i) for i in (1, n // 2, n - 1)]
            for p in samples:
                r = self.route(p)
                if what == 'announce':
                    self.check(r.get('via') == ADDR['B4'] and
                               r.get('depth') == 32 and
                               r.get('port') == 1 and
                               r.get('state') in ('REACHABLE', 'STALE'),
                               '/fwd/route,%s: %s' % (p, route_text(r)))
                    self.ping_from(p, 'B')
                    continue
                ok, ttl, out = self.ping(p)
                lines = out.splitlines()
                self.check(r.get('route') == 'none' and not ok and
                           'Unreachable' in out,
                           'withdrawn: /fwd/route,%s: %s; ping: %s' % (
                               p, route_text(r), lines[1] if len(lines) > 1
                               else out))
        return lags

    def phase_restart(self):
        """zebra crashes; FRR's watchfrr then restarts in phases: every
        daemon stopped, zebra started, then the others (bgpd and staticd
        do not give a new zebra their routes again by themselves: seen
        with 8.4, bgpd kept bird's routes and sent zebra none)."""
        harness.log('zebra restarted (SIGKILL; then, as watchfrr does, the '
                    'other daemons stopped, zebra started, then them)')
        before = self.fpm()
        n0 = self.fpm_routes()
        pid = self.zebra.pid('zebra')
        os.kill(pid, signal.SIGKILL)
        while netns.pid_alive(pid):
            time.sleep(0.01)
        for d in ('bgpd', 'staticd'):
            self.zebra.stop(only=d)
        # a static route taken out of the configuration meanwhile
        self.zebra.conf['staticd'] = self.zebra.conf['staticd'].replace(
            REMOVED_LINE, '')
        t_start = time.monotonic()
        # npool-fwd's clock (now_ms, connect_ms, sync_ms): what it did,
        # not when a poll saw it
        fwd_start = self.fpm()['now_ms']
        self.zebra.start()
        got = {}
        # when each route was missing (telemetry), from zebra's start
        watch = {'198.18.100.1': ADDR['C4'], '2001:2:0:100::1': ADDR['B6'],
                 STEADY_HOST: ADDR['B4']}
        gaps = {a: [] for a in watch}

        def look():
            now = time.monotonic()
            missing = [a for a, gw in watch.items() if not self.via(a, gw)]
            for a in missing:
                gaps[a].append(now - t_start)
            f = self.fpm()
            if f['syncs'] > before['syncs'] and not f['syncing']:
                got.update(f)
            return bool(got) and not missing
        self.wait(look, 30, 'the sync after zebra restarted and every route '
                  'back', every=0.005)
        n1 = self.fpm_routes()
        conn = got['connect_ms'] - fwd_start
        sync = got['sync_ms'] - got['connect_ms']
        self.times['restart'] = {'conn': conn, 'sync': sync}
        self.check(got['connects'] == before['connects'] + 1 and
                   got['syncs'] == before['syncs'] + 1 and
                   sync <= SYNC_S * 1000,
                   'zebra restarted: its FPM connection %d ms after its '
                   'start, the sync over %d ms after that (at most %.0f; '
                   '/fwd/fpm connect_ms, sync_ms); connects %d -> %d, syncs '
                   '%d -> %d; IPv4 FPM routes %d before, %d after' % (
                       conn, sync, SYNC_S * 1000, before['connects'],
                       got['connects'], before['syncs'], got['syncs'], n0,
                       n1))
        r101 = self.route('198.18.101.1')
        self.check(r101.get('route') == 'none',
                   '198.18.101.0/24 (taken out of staticd\'s configuration) '
                   'gone after the sync: %s' % route_text(r101))
        for a, g in gaps.items():
            harness.log('  %s: %s' % (a, 'in npool-fwd all along' if not g
                                      else 'missing from %.2f s to %.2f s' %
                                      (g[0], g[-1])))
        # staticd is back before zebra's FPM connection (3 s): its routes
        # come again within the sync and never leave
        self.check(not gaps['198.18.100.1'] and
                   not gaps['2001:2:0:100::1'],
                   'staticd\'s routes in npool-fwd all along')
        self.ping_from('198.18.100.1', 'C')
        self.ping_from('198.19.200.1', 'B')
        self.check(self.route('198.18.101.1').get('route') == 'none',
                   '198.18.101.0/24 still gone')

    def stop(self):
        self.tel.close()
        self.tel = None
        self.fwd.signal(signal.SIGINT)
        rc = self.fwd.wait(30)
        log = self.fwd.log()
        rep = harness.sanitizer_reports(log)
        self.check(not rep, 'no sanitizer report' if not rep else
                   'sanitizer report:\n' + rep)
        self.check(rc == 0, 'npool-fwd after SIGINT: exit status %s' % rc)
        js = harness.load_json(self.work.file('fwd.json'))
        probs = harness.leak_problems(js)
        self.check(not probs, 'leak block: %s' % ('; '.join(probs) or
                                                  'clean'))
        errs = {k: v for k, v in js.get('fpm', {}).get('errors', {}).items()
                if v}
        bad = [l for l in log.splitlines() if 'fpm: ' in l and
               ('no_port' in l and MGMT_NET not in l or
                re.search(r'fpm: (?!no_port)\w+: ', l))]
        self.check(set(errs) <= {'no_port'} and not bad,
                   'FPM errors %s (no_port: the management link\'s %s)%s'
                   % (errs, MGMT_NET, ''.join('\n    | ' + l for l in bad)))

    def run(self):
        t0 = time.monotonic()
        steps = []
        for f in (self.create, self.start_fwd, self.hosts, self.start_frr):
            t1 = time.monotonic()
            f()
            steps.append('%s %.1f s' % (f.__name__, time.monotonic() - t1))
        harness.log('set up in %.1f s (%s)' % (time.monotonic() - t0,
                                             ', '.join(steps)))
        self.phase_static()
        self.phase_bgp()
        self.phase_restart()
        self.stop()
        t = self.times
        harness.log('figures: %d BGP routes announced: zebra RIB %.0f ms, '
                    'FIB %.0f ms, FPM sent %.0f ms, npool-fwd %.0f ms; '
                    'withdrawn: %.0f, %.0f, %.0f, %.0f ms; zebra restarted: '
                    'its FPM connection %.0f ms after its start, the sync '
                    'over %.0f ms after that; %.1f s in all' % (
                        self.a.bulk, *(t[w][k] or -1 for w in (
                            'announce', 'withdraw') for k in (
                                'rib', 'fib', 'sent', 'fwd')),
                        t['restart']['conn'], t['restart']['sync'],
                        time.monotonic() - t0))

    def diagnose(self):
        """What FRR held, for a failure."""
        harness.log('zebra log:\n' + self.zebra.log_tail('zebra', 20))
        for c in ('show ip route summary', 'show ip route 198.18.100.1',
                  'show ip route 198.19.200.1', 'show bgp ipv4 summary',
                  'show fpm counters', 'show ip nht'):
            harness.log('vtysh %s:\n%s' % (c, self.zebra.vtysh(
                c, check=False)))
        if self.tel is not None:
            harness.log('/fwd/fpm: %s' % self.fpm())

    def cleanup(self):
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if self.zebra is not None and self.probs:
            self.diagnose()
        if self.tel is not None:
            self.tel.close()
        if self.fwd is not None:
            self.fwd.kill()
        if self.fwd is not None and self.probs:
            harness.log(self.fwd.tail(40))
        remove_ns(self.mns)
        for e in self.topo.remove():
            harness.log('cleanup: ' + e)
        self.work.cleanup()


def ip_batch(ns, lines):
    """iproute2 commands in namespace @ns, one process."""
    p = subprocess.run(['ip', '-n', ns, '-batch', '-'],
                       input='\n'.join(lines) + '\n', text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise netns.NetnsError('ip -n %s -batch: %s' % (ns, p.stdout.strip()))


def remove_ns(name):
    if os.path.exists('/var/run/netns/' + name):
        for pid in netns.sh(['ip', 'netns', 'pids', name], False).split():
            netns.kill_pid(int(pid))
        netns.sh(['ip', 'netns', 'del', name], False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--pool', choices=('npool', 'mempool'), default='npool')
    ap.add_argument('--bulk', type=int, default=BULK)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    why = frr.available() or frr.bird_available()
    if why:
        harness.skip(why)
    for tool in ('ip', 'ethtool', 'ping'):
        if shutil.which(tool) is None:
            harness.skip("'%s' not found (scripts/deps.sh test)" % tool)
    # bird's namespaces that killed runs left (run_netns sweeps the rest)
    for name in os.listdir('/var/run/netns') if os.path.isdir(
            '/var/run/netns') else []:
        m = re.fullmatch(r'npfr-(\d+)-m', name)
        if m and not os.path.exists('/proc/' + m.group(1)):
            remove_ns(name)
    return harness.run_netns(a, Lab, ['npfr-'], 'np-fr')


if __name__ == '__main__':
    sys.exit(main())
