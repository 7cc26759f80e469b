#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How fast FPM's routes reach npool-fwd's tables, on net_null
ports: an FPM peer (tests/integration/lib/fpm_client.py, as zebra's
dplane_fpm_nl sends them: several netlink messages a frame) sends
--routes /24s via a gateway on port 1 (a permanent neighbour), then
replaces every one of them by another gateway, then deletes them; the
rate is what telemetry (/fwd/fpm's routes counters, /fwd/routes) shows
applied, from the first byte sent. Then the latency: one route added at a
time, /fwd/route polled until it names it, --samples times (the poll
itself takes about 0.1 ms: the figure is an upper bound).

  route_rate.py --fwd build/apps/fwd/npool-fwd [--routes 100000]
                [--samples 50] [--lookup lpm|fib] [--json FILE]
Prints a table; exit 0 (no threshold: make bench prints the target).
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration', 'lib'))

import fpm_client  # noqa: E402

TARGET = 50000   # route updates a second applied at 100k routes


def prefix(i):
    return '10.%d.%d.0/24' % (i >> 8 & 255, i & 255) if i < 65536 else \
        '11.%d.%d.0/24' % (i - 65536 >> 8 & 255, i & 255)


class Tel:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.s.connect(path)
        self.s.recv(16384)

    def q(self, cmd):
        self.s.send(cmd.encode())
        return json.loads(self.s.recv(1 << 16))[cmd.split(',')[0]]


def wait_for(tel, cmd, ok, timeout=60):
    """Poll @cmd until @ok(answer); the time it took it, from now."""
    t0 = time.monotonic()
    while True:
        a = tel.q(cmd)
        if a is not None and ok(a):
            return time.monotonic()
        if time.monotonic() - t0 > timeout:
            raise RuntimeError('%s: not there after %d s: %r' % (
                cmd, timeout, a))


def phase(c, tel, msgs, what, done):
    t0 = time.monotonic()
    c.send(msgs)
    t1 = wait_for(tel, '/fwd/fpm', done)
    return len(msgs) / (t1 - t0), t1 - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--fwd', required=True)
    ap.add_argument('--routes', type=int, default=100000)
    ap.add_argument('--samples', type=int, default=50)
    ap.add_argument('--json')
    ap.add_argument('--lookup', choices=('lpm', 'fib'), default='lpm')
    a = ap.parse_args()
    n = a.routes
    prefix_ = 'nprr%d' % os.getpid()
    port = 20000 + os.getpid() % 20000
    cmd = [a.fwd, '--no-huge', '-m', '1024', '--no-pci', '--no-shconf',
           '--file-prefix', prefix_, '-l', '0-1',
           '--vdev', 'net_null0,no-rx=1', '--vdev', 'net_null1,no-rx=1',
           '--', '-p', '0x3', '--port-addr', '1,198.18.200.1/24',
           '--neigh', '1,198.18.200.2,02:00:00:00:00:02',
           '--neigh', '1,198.18.200.3,02:00:00:00:00:03',
           '--route-max', str(max(n + 1024, 1024)),
           '--fpm', '127.0.0.1:%d' % port, '--fpm-sync-ms', '60000',
           '--lookup', a.lookup]
    app = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    res = {}
    try:
        c = fpm_client.FpmClient(port=port).connect(60)
        tel = Tel('/var/run/dpdk/%s/dpdk_telemetry.v2' % prefix_
                  if os.geteuid() == 0 else os.path.join(
                      os.environ.get('XDG_RUNTIME_DIR', '/tmp'), 'dpdk',
                      prefix_, 'dpdk_telemetry.v2'))
        wait_for(tel, '/fwd/fpm', lambda s: s['connected'] == 1)
        base = tel.q('/fwd/fpm')
        add = [fpm_client.route_msg('add', prefix(i), gw='198.18.200.2')
               for i in range(n)]
        res['add'] = phase(c, tel, add, 'add', lambda s: s[
            'routes_added'] >= base['routes_added'] + n)
        rep = [fpm_client.route_msg('add', prefix(i), gw='198.18.200.3')
               for i in range(n)]
        res['replace'] = phase(c, tel, rep, 'replace', lambda s: s[
            'routes_added'] >= base['routes_added'] + 2 * n)
        assert tel.q('/fwd/route,10.0.7.1')['via'] == '198.18.200.3'
        dels = [fpm_client.route_msg('del', prefix(i)) for i in range(n)]
        res['delete'] = phase(c, tel, dels, 'delete', lambda s: s[
            'routes_deleted'] >= base['routes_deleted'] + n)
        lat = []
        for k in range(a.samples):
            p = '12.%d.%d.0/24' % (k >> 8, k & 255)
            addr = '12.%d.%d.1' % (k >> 8, k & 255)
            t0 = time.monotonic()
            c.send([fpm_client.route_msg('add', p, gw='198.18.200.2')])
            t1 = wait_for(tel, '/fwd/route,' + addr,
                          lambda r: r.get('prefix') == p.split('/')[0])
            lat.append((t1 - t0) * 1000)
        res['latency_ms'] = (statistics.median(lat), max(lat))
        c.close()
    finally:
        app.terminate()
        app.wait(30)
    print('FPM routes into npool-fwd --lookup %s (%d routes via a gateway, '
          'net_null, telemetry polled):' % (a.lookup, n))
    for k in ('add', 'replace', 'delete'):
        rate, secs = res[k]
        print('  %-8s %8.0f routes/s  (%6.3f s)%s' % (
            k, rate, secs, '' if k == 'add' else
            '  %s target %d/s' % ('PASS' if rate >= TARGET else 'MISS',
                                  TARGET)))
    print('  FPM to lookup: median %.2f ms, max %.2f ms (%d routes, one '
          'at a time)' % (res['latency_ms'] + (a.samples,)))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'routes': n, 'lookup': a.lookup, 'rates': {k: res[k][0] for k in (
                'add', 'replace', 'delete')}, 'latency_ms': {
                    'median': res['latency_ms'][0],
                    'max': res['latency_ms'][1]}, 'target': TARGET}, f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
