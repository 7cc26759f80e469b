#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd as the hosts' default gateway (--port-addr), between the
kernel stacks of two network namespaces (kernel_peers.py's topology and
npool-fwd command line, namespaces nppe-<pid>-a/-r/-b). The hosts have
no static neighbour entry: ARP and NDP resolve the router. npool-fwd runs with --port-mtu 1,1400 (B's
side, below the hosts' 1500), --icmp-ratelimit 0 and --icmp-msgs-per-sec RATE
--icmp-msgs-burst BURST. Then:
  ping        A pings the router's four addresses (its own port's and
              the far port's, IPv4 and IPv6) and port 0's link-local
              address (EUI-64 of its MAC); A pings B both ways through it
  no answer   A pings 198.18.1.99 and 2001:2:0:1::99 (on its link, not
              the router's): no ARP or NDP answer, the router's
              arp_reply / nd_advert counters do not move
  traceroute  A -> B, IPv4 and IPv6 (UDP probes): hop 1 is the router's
              address on A's side, hop 2 is B
  tracepath   A -> B, IPv4 and IPv6: the path MTU found is 1400, the
              far port's (the router's frag needed / packet too big)
  flood       FLOOD UDP datagrams of TTL 1 from A to B as fast as A
              sends: the router sends at most BURST + RATE per second of
              the flood time exceeded messages, the rest counted
              icmp_ratelimited; each TTL-1 packet counted ttl_exceeded
  SIGINT      exit 0, leak block clean, rx == forwarded + dropped

  gateway.py --app build/apps/fwd/npool-fwd [--pool npool|mempool] [--keep]
(with --pool mempool npool does not run: the answers come from the RX
pool of the packet they answer)
Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces or veth,
no traceroute / tracepath).
"""

import argparse
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
import kernel_peers  # noqa: E402
import netns  # noqa: E402
from netns import ADDR  # noqa: E402

MTU = 1400
RATE = 100
BURST = 10
FLOOD = 2000


def link_local(mac):
    """fe80::/64 with the modified EUI-64 of mac."""
    b = [int(x, 16) for x in mac.split(':')]
    b[0] ^= 2
    w = [b[0] << 8 | b[1], b[2] << 8 | 0xff, 0xfe << 8 | b[3],
         b[4] << 8 | b[5]]
    return 'fe80::' + ':'.join('%x' % x for x in w)


class Gateway(kernel_peers.Peers):
    """kernel_peers.py's topology and npool-fwd, with addresses."""

    def fwd_args(self):
        return ['--port-mtu', '1,%d' % MTU,
                '--port-addr', '0,%s/24,%s/64' % (ADDR['GW_A4'],
                                                  ADDR['GW_A6']),
                '--port-addr', '1,%s/24,%s/64' % (ADDR['GW_B4'],
                                                  ADDR['GW_B6']),
                '--icmp-ratelimit', '0', '--icmp-msgs-per-sec', str(RATE),
                '--icmp-msgs-burst', str(BURST)]

    def check(self, ok, msg, out=None):
        if not super().check(ok, msg) and out:
            harness.log('\n'.join('    | ' + l for l in out.splitlines()))
        return ok

    def run_in(self, node, args, timeout=60):
        p = subprocess.run(self.topo.cmd(node, args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode('utf-8', 'replace')

    def router(self, port):
        """The router counters and drops of a port (telemetry)."""
        c = self.tel.query('/app/port,%d' % port)
        out = dict(c['router'])
        out.update({'drop_' + k: v for k, v in c['drops'].items()})
        return out

    def ping(self, addr, want=True, dev=None):
        target = addr + ('%' + dev if dev else '')
        rc, out = self.run_in('a', ['ping', '-n', '-c', '1', '-W',
                                    '3' if want else '2', target])
        self.check((rc == 0) == want, 'ping %s from A: %s' % (
            target, 'answered' if rc == 0 else 'no answer'),
            out if (rc == 0) != want else None)

    def pings(self):
        for v in ('4', '6'):
            for gw in ('GW_A', 'GW_B'):
                self.ping(ADDR[gw + v])
        self.ping(link_local(self.topo.macs['r0']), dev=self.topo.ifs['a'])
        for v in ('4', '6'):
            self.ping(ADDR['B' + v])
        before = self.router(0)
        self.ping('198.18.1.99', want=False)
        self.ping('2001:2:0:1::99', want=False)
        after = self.router(0)
        self.check(after['arp_reply'] == before['arp_reply'] and
                   after['nd_advert'] == before['nd_advert'],
                   'no ARP / NDP answer for an address the router does not '
                   'own: arp_reply %d -> %d, nd_advert %d -> %d' % (
                       before['arp_reply'], after['arp_reply'],
                       before['nd_advert'], after['nd_advert']))

    def traceroute(self, v):
        rc, out = self.run_in('a', ['traceroute', '-' + v, '-n', '-q', '1',
                                    '-w', '2', '-m', '5', ADDR['B' + v]])
        hops = re.findall(r'^\s*(\d+)\s+(\S+)', out, re.M)
        hops = [h for h in hops if h[0].isdigit()]
        self.check(rc == 0 and len(hops) == 2 and
                   hops[0][1] == ADDR['GW_A' + v] and
                   hops[1][1] == ADDR['B' + v],
                   'traceroute -%s A -> B: hops %s (want %s, %s)' % (
                       v, ', '.join(h[1] for h in hops), ADDR['GW_A' + v],
                       ADDR['B' + v]), out)
        harness.log('\n'.join('    | ' + l for l in out.splitlines()))

    def tracepath(self, v):
        rc, out = self.run_in('a', ['tracepath', '-' + v, '-n',
                                    ADDR['B' + v]])
        m = re.search(r'Resume: pmtu (\d+)', out)
        self.check(m is not None and int(m.group(1)) == MTU and
                   ADDR['GW_A' + v] in out,
                   'tracepath -%s A -> B: pmtu %s (want %d, from %s)' % (
                       v, m.group(1) if m else '-', MTU, ADDR['GW_A' + v]),
                   out)
        harness.log('\n'.join('    | ' + l for l in out.splitlines()))

    def flood(self):
        before = self.router(0)
        code = ('import socket,sys\n'
                's=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n'
                's.setsockopt(socket.IPPROTO_IP,socket.IP_TTL,1)\n'
                'for i in range(%d):\n'
                '    while True:\n'
                '        try:\n'
                '            s.sendto(b"x"*32,("%s",33434)); break\n'
                '        except BlockingIOError: pass\n'
                '        except OSError: pass\n' % (FLOOD, ADDR['B4']))
        t0 = time.monotonic()
        rc, out = self.run_in('a', [sys.executable, '-c', code])
        t1 = time.monotonic()
        time.sleep(0.5)
        after = self.router(0)
        d = {k: after[k] - before[k] for k in after}
        most = BURST + RATE * (t1 - t0 + 0.5) + 1
        self.check(rc == 0 and d['icmp_ttl_exceed'] <= most and
                   d['icmp_ttl_exceed'] + d['icmp_ratelimited'] ==
                   d['drop_ttl_exceeded'] and d['icmp_ttl_exceed'] > 0,
                   'flood of %d TTL-1 datagrams in %.2f s: %d seen '
                   '(ttl_exceeded), %d time exceeded sent (at most %d: '
                   'burst %d + %d/s), %d rate-limited' % (
                       FLOOD, t1 - t0, d['drop_ttl_exceeded'],
                       d['icmp_ttl_exceed'], most, BURST, RATE,
                       d['icmp_ratelimited']), out)

    def final(self, js):
        if '_error' in js:
            self.fail('no JSON: %s' % js['_error'])
            return
        self.leak(js)
        for c in js.get('ports', []):
            r = c.get('router', {})
            self.check(c.get('rx') == c.get('forwarded', 0) +
                       c.get('dropped', 0),
                       'port %d: rx %s = forwarded %s + dropped %s; router: '
                       '%s' % (c['port'], c.get('rx'), c.get('forwarded'),
                               c.get('dropped'), ', '.join(
                                   '%s %d' % kv for kv in sorted(r.items())
                                   if kv[1])))

    def run(self):
        self.create()
        self.start_fwd()
        self.topo.configure_gateway_hosts()
        # NDP on a fresh link: let the hosts' link-local addresses settle
        time.sleep(1)
        self.pings()
        for v in ('4', '6'):
            self.traceroute(v)
        for v in ('4', '6'):
            self.tracepath(v)
        self.flood()
        self.final(self.stop_fwd())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--pool', choices=('npool', 'mempool'), default='npool')
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    a.pmd, a.copybreak = 'af_packet', 0
    harness.require_app(a.app, 'npool-fwd')
    if os.geteuid() != 0:
        harness.skip('needs root (network namespaces, veth, AF_PACKET)')
    for tool in ('ip', 'ethtool', 'ping', 'traceroute', 'tracepath'):
        if shutil.which(tool) is None:
            harness.skip("'%s' not found (Debian: iproute2 ethtool "
                         "iputils-ping traceroute iputils-tracepath; "
                         "scripts/deps.sh test)" % tool)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, kernel_peers.on_signal)
    gw = Gateway(a)
    try:
        gw.run()
    except (kernel_peers.Interrupted, RuntimeError, netns.NetnsError, OSError,
            subprocess.TimeoutExpired, KeyError, TypeError) as e:
        gw.fail('%s: %s' % (type(e).__name__, e))
        if gw.fwd is not None:
            harness.log(gw.fwd.tail())
    finally:
        gw.cleanup()
    harness.log('FAIL (%d problems)' % len(gw.probs) if gw.probs
                else 'PASS')
    return 1 if gw.probs else 0


if __name__ == '__main__':
    sys.exit(main())
