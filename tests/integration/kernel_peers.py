#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd between two Linux hosts: the kernel's IPv4/IPv6 stacks in
network namespaces of their own on either side of npool-fwd's AF_PACKET
(or AF_XDP) ports (netns.py's topology, namespaces nppe-<pid>-a/-r/-b).

npool-fwd starts first, then the hosts come up, so that every frame a
host puts on its veth is one npool-fwd could see. Then:
  ping     A->B and B->A over IPv4 and IPv6: PINGS echo requests (one
           ping -c 1 -W 5 each), all answered, each reply with ttl 63
           (the far host sends 64, npool-fwd takes one)
  UDP      A->B and B->A over IPv4 and IPv6, UDP_COUNT datagrams of 0 to
           1452 bytes sent with TTL / hop limit 200 (A) or 100 (B): the
           receiver gets each one once with the same payload (SHA-256)
           and reads TTL - 1 from IP_RECVTTL / IPV6_RECVHOPLIMIT; the
           receiving host's veth counts exactly UDP_COUNT more frames, and
           so do npool-fwd's own counters (telemetry /app/port: forwarded
           on the in-port, tx on the out-port) and the out-port's ethdev
           opackets; the other way none
  TCP      A->B and B->A over IPv4 and IPv6, --tcp-bytes each: byte count
           and SHA-256 equal on both ends
  SIGINT   exit status 0 (AF_XDP: see --pmd), leak block clean, per port
           rx == forwarded + dropped, tx == the ethdev's opackets +
           oerrors, every drop an IPv6 link-local multicast (MLD) report
           (mc_local: for the link, never routed), forwarded >= what the test sent (ping, UDP, TCP
           segments of at most one MSS), what a port sent == what the host
           behind it received (its veth's rx counter), what a port
           received <= what the host sent (the AF_PACKET ring may
           overflow uncounted under TCP: DPDK 22.11 reads no
           PACKET_STATISTICS)

The namespaces are deleted by exact name and the EAL folder removed on
every exit path (try/finally; SIGTERM/SIGHUP/SIGINT turn into an
exception).

  kernel_peers.py --app build/apps/fwd/npool-fwd [--pmd af_packet|af_xdp]
                  [--pool npool|mempool] [--copybreak N] [--keep]
Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces or veth;
af_xdp on a kernel without AF_XDP sockets: kfeatures.py).
"""

import argparse
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import harness  # noqa: E402
import kfeatures  # noqa: E402
import netns  # noqa: E402
from apps_measure import Telemetry  # noqa: E402
from netns import ADDR  # noqa: E402

PINGS = 5
UDP_COUNT = 64
UDP_PORT = 7001
TCP_PORT = 5001
TTL = {'a': 200, 'b': 100}      # what each host sends UDP with
MSS = {'4': 1460, '6': 1440}    # the most a TCP segment carries (MTU 1500)
TOOLS = os.path.join(HERE, 'lib', 'peer_tools.py')
# The mbufs DPDK 22.11's af_xdp puts in the fill ring of each RX queue
# (ETH_AF_XDP_DFLT_NUM_DESCS) and never gives back at close; and the most
# of its last TX burst whose completions it has not read yet (APP_BURST).
XDP_FILL_RING = 2048
APP_BURST = 32
XDP_MODES = {1: 'native (driver)', 2: 'generic (skb)', 3: 'offloaded'}


class Interrupted(Exception):
    pass


def on_signal(sig, frame):
    raise Interrupted('signal %d' % sig)


class Peers(harness.Checks):
    def __init__(self, a):
        super().__init__()
        self.a = a
        pid = os.getpid()
        self.topo = netns.Topology('nppe-%d' % pid, 'pe%d' % pid)
        self.prefix = 'np-pe%d' % pid
        self.work = harness.Workdir('peers', a.keep)
        self.work.prefixes.append(self.prefix)
        self.fwd = None
        self.tel = None
        self.sent = {0: 0, 1: 0}        # packets npool-fwd must forward
                                        # in through port 0 / port 1

    def file(self, name):
        return self.work.file(name)

    # --- setup ------------------------------------------------------------
    def create(self):
        for pid in netns.sweep_stale('nppe-'):
            harness.log('removed nppe-%s-*, left by a run that was killed'
                        % pid)
            for d in harness.runtime_dirs('np-pe' + pid):
                shutil.rmtree(d, ignore_errors=True)
        harness.create_topology(self.topo)

    def fwd_args(self):
        """More npool-fwd arguments (a subclass's)."""
        return []

    def start_fwd(self):
        a, t = self.a, self.topo
        routes = {}
        for v in ('4', '6'):
            routes[v] = self.file('routes%s.cfg' % v)
            with open(routes[v], 'w') as f:
                f.write('R%s 0\nR%s 1\n' % (ADDR['NET_A' + v],
                                            ADDR['NET_B' + v]))
        if a.pmd == 'af_xdp':
            vdev = 'net_af_xdp%d,iface=%s,start_queue=0,queue_count=1'
        else:
            vdev = 'net_af_packet%d,iface=%s'
        cmd = [a.app, '--no-huge', '-m', '1024', '--no-pci', '--no-shconf',
               '--file-prefix', self.prefix, '-l', '0-1',
               '--vdev', vdev % (0, t.ifs['r0']),
               '--vdev', vdev % (1, t.ifs['r1']),
               '--', '-p', '0x3', '--pool', a.pool,
               '--copybreak', str(a.copybreak),
               '--rule_ipv4', routes['4'], '--rule_ipv6', routes['6'],
               '--eth-dest', '0,' + t.macs['a'],
               '--eth-dest', '1,' + t.macs['b'],
               '--json', self.file('fwd.json')] + self.fwd_args()
        harness.log('npool-fwd: ip netns exec %s %s'
                    % (t.ns['r'], ' '.join(cmd)))
        self.fwd = netns.AppProcess(t, 'r', cmd, self.file('fwd.log'))
        self.fwd.start()
        if not self.fwd.wait_for('port 1:', 60):
            raise RuntimeError('npool-fwd did not start its ports:\n'
                               + self.fwd.tail())
        if a.pmd == 'af_xdp':
            for dev in ('r0', 'r1'):
                link = json.loads(t.run('r', ['ip', '-j', '-d', 'link', 'show',
                                              'dev', t.ifs[dev]]))[0]
                mode = link.get('xdp', {}).get('mode')
                harness.log('XDP program on %s: %s' % (
                    t.ifs[dev], XDP_MODES.get(mode, 'none (%r)' % mode)))
        sock = os.path.join('/var/run/dpdk', self.prefix,
                            'dpdk_telemetry.v2')
        self.tel = Telemetry(sock)

    # --- traffic ----------------------------------------------------------
    def tool(self, node, args, timeout=60):
        p = subprocess.run(self.topo.cmd(node, [sys.executable, TOOLS]
                                         + args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    def server(self, node, args, name):
        """A receiving tool in the background, once it listens."""
        srv = netns.AppProcess(self.topo, node, [sys.executable, TOOLS]
                               + args, self.file(name))
        srv.start()
        if not srv.wait_for('listening', 10):
            raise RuntimeError('%s did not start:\n%s' % (name, srv.tail()))
        return srv

    @staticmethod
    def json_line(text):
        for line in text.splitlines():
            if line.startswith('{'):
                return json.loads(line)
        return None

    def ping(self, src, dst, v):
        """PINGS echo requests src->dst, one ping each: every one answered
        within 5 s, with ttl 63. (One ping -c N waits for two round trips
        only once a reply came: a late one under load counts lost; with
        -w it sends more while replies are late.)"""
        addr = ADDR[dst.upper() + v]
        ttls, outs = [], []
        for _ in range(PINGS):
            p = subprocess.run(self.topo.cmd(src, [
                'ping', '-n', '-c', '1', '-W', '5', addr]),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
            out = p.stdout.decode()
            outs.append(out)
            ttls += re.findall(r' ttl=(\d+) ', out)
        what = 'ping IPv%s %s->%s' % (v, src.upper(), dst.upper())
        ok = self.check(ttls == ['63'] * PINGS,
                        '%s: %d sent, %d answered, reply ttl %s (want %d, '
                        'ttl 63 each)' % (what, PINGS, len(ttls),
                                          ','.join(ttls) or '-', PINGS))
        if not ok:
            harness.log('\n'.join('    | ' + l for o in outs
                                   for l in o.splitlines()))
        self.sent[0 if src == 'a' else 1] += PINGS
        self.sent[1 if src == 'a' else 0] += len(ttls)

    def udp(self, src, dst, v):
        """UDP_COUNT datagrams src->dst: count, payloads, TTL - 1, and
        the receiving veth's and npool-fwd's counters exactly."""
        out_port = 1 if dst == 'b' else 0
        what = 'UDP IPv%s %s->%s' % (v, src.upper(), dst.upper())
        bind = '::' if v == '6' else '0.0.0.0'
        k0 = self.topo.link_stats(dst)['rx']['packets']
        e0 = self.counters_now()
        srv = self.server(dst, ['udp-recv', v, bind, str(UDP_PORT),
                                str(UDP_COUNT), '5'], 'udp.log')
        rc, sout, serr = self.tool(src, [
            'udp-send', v, ADDR[dst.upper() + v], str(UDP_PORT),
            str(UDP_COUNT), str(TTL[src]), str(ord(src) * 10 + int(v))])
        srv.wait(15)
        sent, got = self.json_line(sout), self.json_line(srv.log())
        self.sent[1 - out_port] += UDP_COUNT
        if rc != 0 or sent is None or got is None:
            self.fail('%s: sender exit %d %s, receiver %s' % (
                what, rc, serr.strip(), srv.tail()))
            return
        # the receiver stops at UDP_COUNT: one more would be missed here,
        # the veth count below sees it
        time.sleep(0.2)
        k1 = self.topo.link_stats(dst)['rx']['packets']
        e1 = self.counters_now()
        want_ttl = TTL[src] - 1
        self.check(got['count'] == UDP_COUNT and
                   sorted(got['digests']) == sorted(sent['digests']),
                   '%s: %d datagrams sent, %d received, payloads (SHA-256) '
                   '%s%s' % (what, sent['count'], got['count'],
                             'equal' if sorted(got['digests']) ==
                             sorted(sent['digests']) else 'DIFFER',
                             ', in order' if got['digests'] ==
                             sent['digests'] else ''))
        self.check(got['ttls'] == [want_ttl] * got['count'],
                   '%s: sent with %s %d, received with %s' % (
                       what, 'hop limit' if v == '6' else 'TTL', TTL[src],
                       sorted(set(got['ttls']), key=str)))
        d = {k: e1[k] - e0[k] for k in e0}
        in_port = 1 - out_port
        want = {(in_port, 'forwarded'): UDP_COUNT, (out_port, 'forwarded'): 0,
                (out_port, 'tx'): UDP_COUNT, (in_port, 'tx'): 0,
                (out_port, 'opackets'): UDP_COUNT, (in_port, 'opackets'): 0}
        self.check(k1 - k0 == UDP_COUNT and d == want,
                   '%s: %s veth rx +%d; npool-fwd port %d forwarded +%d, '
                   'port %d tx +%d, opackets +%d; the other way +%d, +%d, '
                   '+%d (want +%d each, +0)' % (
                       what, dst.upper(), k1 - k0, in_port,
                       d[in_port, 'forwarded'], out_port,
                       d[out_port, 'tx'], d[out_port, 'opackets'],
                       d[out_port, 'forwarded'], d[in_port, 'tx'],
                       d[in_port, 'opackets'], UDP_COUNT))

    def counters_now(self):
        """npool-fwd's own counters (telemetry /app/port) and its ports'
        ethdev opackets, live: {(port, key): value}."""
        out = {}
        for p in (0, 1):
            c = self.tel.query('/app/port,%d' % p)
            out[p, 'forwarded'], out[p, 'tx'] = c['forwarded'], c['tx']
            out[p, 'opackets'] = self.tel.stats(p)['opackets']
        return out

    def tcp(self, src, dst, v):
        what = 'TCP IPv%s %s->%s' % (v, src.upper(), dst.upper())
        srv = self.server(dst, ['tcp-sink', v, '::' if v == '6' else
                                '0.0.0.0', str(TCP_PORT), '20'], 'tcp.log')
        t0 = time.monotonic()
        rc, sout, serr = self.tool(src, [
            'tcp-source', v, ADDR[dst.upper() + v], str(TCP_PORT),
            str(self.a.tcp_bytes), '20'])
        dt = time.monotonic() - t0
        srv.wait(25)
        c, s = self.json_line(sout), self.json_line(srv.log())
        n = self.a.tcp_bytes
        segs = math.ceil(n / MSS[v])
        self.sent[0 if src == 'a' else 1] += segs
        if rc != 0 or c is None or s is None:
            self.fail('%s: source exit %d %s, sink %s' % (
                what, rc, serr.strip()[-300:], srv.tail()))
            return
        want = c['sha256']
        self.check(c['bytes'] == s['bytes'] == c['sink_bytes'] == n and
                   s['sha256'] == c['sink_sha256'] == want,
                   '%s: %d bytes sent, %d received, SHA-256 %s %s, %.2f s'
                   % (what, c['bytes'], s['bytes'], want[:16],
                      'equal' if s['sha256'] == want else
                      '!= ' + s['sha256'][:16], dt))

    # --- stop and counters ------------------------------------------------
    def stop_fwd(self):
        if self.tel is not None:
            self.tel.close()
            self.tel = None
        t0 = time.monotonic()
        self.fwd.signal(signal.SIGINT)
        rc = self.fwd.wait(30)
        want = 3 if self.a.pmd == 'af_xdp' else 0
        self.check(rc == want, 'npool-fwd after SIGINT: exit status %s '
                   '(want %d) %.2f s later' % (rc, want,
                                               time.monotonic() - t0))
        if rc != want:
            harness.log(self.fwd.tail())
        return harness.load_json(self.file('fwd.json'))

    def leak(self, js):
        if self.a.pmd != 'af_xdp':
            probs = harness.leak_problems(js)
            self.check(not probs, 'leak block: %s' % (
                '; '.join(probs) or 'clean (0 mbufs, 0 fragments, '
                '0 chunks out)'))
            return
        # DPDK 22.11's af_xdp (zero-copy umem on the RX pool) never gives
        # back the mbufs of its fill ring at close: exactly
        # XDP_FILL_RING per port out of the RX pool, plus frames still in
        # its TX/completion rings; npool's heads, fragments and the
        # fragment pools all back.
        lk = js.get('leak', {})
        log = self.fwd.log()
        m = re.search(r'^\s*rx_s0\s+\S+\s+size\s+\d+\s+avail\s+\d+\s+out (\d+)',
                      log, re.M)
        rx_out = int(m.group(1)) if m else None
        others = re.findall(r'^\s*(frag_dir|frag_ind|npool heads)\s.*out '
                            r'(\d+)$', log, re.M)
        held = 2 * XDP_FILL_RING
        self.check(rx_out is not None and
                   held <= rx_out <= held + 2 * APP_BURST
                   and lk.get('mbufs_out') == rx_out and
                   all(o == '0' for _, o in others) and
                   lk.get('frags_out') == 0 and
                   lk.get('chunks_in_use') == 0 and
                   lk.get('bad_refcnt') == 0 and lk.get('double_free') == 0,
                   'leak block (af_xdp): RX pool %s mbufs out (the PMD '
                   'keeps %d in its fill rings), other pools %s, '
                   'fragments %s, chunks %s' % (
                       rx_out, held, ','.join(o for _, o in others),
                       lk.get('frags_out'), lk.get('chunks_in_use')))

    def counters(self, js):
        if '_error' in js:
            self.fail('no JSON: %s' % js['_error'])
            return
        self.leak(js)
        ports = {p['port']: p for p in js.get('ports', [])}
        host = {0: 'a', 1: 'b'}
        for p in (0, 1):
            c = ports.get(p, {})
            eth = c.get('eth', {})
            drops = {k: v for k, v in c.get('drops', {}).items() if v}
            ks = self.topo.link_stats(host[p])
            self.check(c.get('rx') == c.get('forwarded', 0) +
                       c.get('dropped', 0) and
                       c.get('rx') == eth.get('ipackets') and
                       c.get('tx') == eth.get('opackets', 0) +
                       eth.get('oerrors', 0),
                       'port %d: rx %s = forwarded %s + dropped %s; '
                       'ethdev ipackets %s, opackets %s + oerrors %s = tx %s'
                       % (p, c.get('rx'), c.get('forwarded'),
                          c.get('dropped'), eth.get('ipackets'),
                          eth.get('opackets'), eth.get('oerrors'),
                          c.get('tx')))
            self.check(set(drops) <= {'mc_local'},
                       'port %d: drops by reason %s (only mc_local: the '
                       'host\'s MLD reports to ff02::16)' % (p, drops or
                                                             'none'))
            self.check(c.get('forwarded', 0) >= self.sent[p],
                       'port %d: forwarded %s >= %d sent into it by the '
                       'test (ping, UDP, TCP data segments)'
                       % (p, c.get('forwarded'), self.sent[p]))
            self.check(c.get('tx') == ks['rx']['packets'],
                       'port %d: tx %s == host %s veth rx_packets %d'
                       % (p, c.get('tx'), host[p].upper(),
                          ks['rx']['packets']))
            seen = c.get('rx', 0)
            self.check(seen <= ks['tx']['packets'],
                       'port %d: rx %s <= host %s veth tx_packets %d (%d '
                       'not seen: AF_PACKET/XDP ring full, uncounted)' % (
                           p, seen, host[p].upper(), ks['tx']['packets'],
                           ks['tx']['packets'] - seen))

    # --- the whole run ----------------------------------------------------
    def run(self):
        self.create()
        self.start_fwd()
        self.topo.configure_hosts()
        for v in ('4', '6'):
            for src, dst in (('a', 'b'), ('b', 'a')):
                self.ping(src, dst, v)
        for v in ('4', '6'):
            for src, dst in (('a', 'b'), ('b', 'a')):
                self.udp(src, dst, v)
        for v in ('4', '6'):
            for src, dst in (('a', 'b'), ('b', 'a')):
                self.tcp(src, dst, v)
        self.counters(self.stop_fwd())

    def cleanup(self):
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if self.tel is not None:
            self.tel.close()
        if self.fwd is not None:
            self.fwd.kill()
        for e in self.topo.remove():
            harness.log('cleanup: ' + e)
        self.work.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--pmd', choices=('af_packet', 'af_xdp'),
                    default='af_packet')
    ap.add_argument('--pool', choices=('npool', 'mempool'), default='npool')
    ap.add_argument('--copybreak', type=int, default=0)
    ap.add_argument('--tcp-bytes', type=int, default=4 << 20)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    if os.geteuid() != 0:
        harness.skip('needs root (network namespaces, veth, AF_PACKET)')
    for tool in ('ip', 'ethtool', 'ping'):
        if shutil.which(tool) is None:
            harness.skip("'%s' not found (Debian: iproute2 ethtool "
                         "iputils-ping)" % tool)
    if a.pmd == 'af_xdp':
        why = kfeatures.probe()['af_xdp']
        if why:
            harness.skip('kernel: %s: net_af_xdp cannot run here'
                         % kfeatures.missing_text('af_xdp', why))
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    peers = Peers(a)
    harness.log('npool-fwd on net_%s, --pool %s --copybreak %d, namespaces '
                '%s' % (a.pmd, a.pool, a.copybreak,
                        ' '.join(peers.topo.ns.values())))
    try:
        peers.run()
    except (Interrupted, RuntimeError, netns.NetnsError, OSError,
            subprocess.TimeoutExpired) as e:
        peers.fail('%s: %s' % (type(e).__name__, e))
        if peers.fwd is not None:
            harness.log(peers.fwd.tail())
    finally:
        peers.cleanup()
    harness.log('FAIL (%d problems)' % len(peers.probs) if peers.probs
                else 'PASS')
    return 1 if peers.probs else 0


if __name__ == '__main__':
    sys.exit(main())
