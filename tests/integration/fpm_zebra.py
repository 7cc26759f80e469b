#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd's FPM reader against the real FRR zebra (Debian 12: 8.4.4).

In a network namespace of its own (a veth end, fpm0a, up with
198.18.1.1/24 and 2001:2:0:1::1/64, its peer up in a second namespace, so
that zebra's static routes via 198.18.1.x / 2001:2:0:1::x are active),
fpm-dump (the reader alone, --fpm-if 1,fpm0a) listens on FPM's port and
zebra (-M dplane_fpm_nl) with staticd connects to it, once with zebra's
default next-hop groups and once with `no fpm use-next-hop-groups`:

- the routes zebra sends at connect are those its RIB holds: statics via
  a gateway (IPv4, IPv6, an IPv6 link-local one on fpm0a), ECMP (the
  first next hop), blackhole, reject (unreachable), a kernel prohibit
  route, the connected prefixes of fpm0a; a sync begins and ends;
- a change of gateway (add the new one, remove the old) comes as
  replaces, never a delete of the prefix; a removed static as a delete;
- zebra restarted: the reader sees the connection replaced or closed,
  a new sync begins and ends, and the routes come again;
- nothing refused or ignored (every error counter 0 in fpm-dump's JSON).

  fpm_zebra.py --dump BUILD/tests/integration/fpm-dump [--keep]
Exit 0 pass, 1 fail, 77 skipped (not root, FRR not installed).
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import frr  # noqa: E402
import harness  # noqa: E402
from netns import sh  # noqa: E402

STATICS = '''ip route 198.18.10.0/24 198.18.1.2
ip route 198.18.11.0/24 blackhole
ip route 198.18.12.0/24 reject
ip route 198.18.14.0/24 198.18.1.3
ip route 198.18.14.0/24 198.18.1.4
ipv6 route 2001:2:0:10::/64 2001:2:0:1::2
ipv6 route 2001:2:0:11::/64 blackhole
ipv6 route 2001:2:0:12::/64 reject
ipv6 route 2001:2:0:13::/64 fe80::2 fpm0a
'''

# What the reader makes of zebra's table (fpm-dump's words).
EXPECTED = {
    '198.18.10.0/24': 'unicast via 198.18.1.2 port 1',
    '198.18.11.0/24': 'blackhole',
    '198.18.12.0/24': 'unreachable',
    '198.18.13.0/24': 'prohibit',
    '198.18.14.0/24': 'unicast via 198.18.1.3 port 1',
    '2001:2:0:10::/64': 'unicast via 2001:2:0:1::2 port 1',
    '2001:2:0:11::/64': 'blackhole',
    '2001:2:0:12::/64': 'unreachable',
    '2001:2:0:13::/64': 'unicast via fe80::2 port 1',
    '198.18.1.0/24': 'unicast port 1',
    '2001:2:0:1::/64': 'unicast port 1',
    'fe80::/64': 'unicast port 1',
}


class Dump:
    """fpm-dump in the namespace; its lines gathered by a thread."""

    def __init__(self, ns, path, json_path):
        self.lines = []
        self.cv = threading.Condition()
        self.p = subprocess.Popen(
            ['ip', 'netns', 'exec', ns, path, '--fpm', '127.0.0.1:2620',
             '--fpm-if', '1,fpm0a', '--fpm-sync-ms', '300',
             '--json', json_path],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            with self.cv:
                self.lines.append(line.rstrip('\n'))
                self.cv.notify_all()

    def mark(self):
        with self.cv:
            return len(self.lines)

    def wait(self, pred, since, timeout, what):
        """Wait until pred(lines from @since) holds."""
        end = time.monotonic() + timeout * harness.TIMEOUT_MULTIPLIER
        with self.cv:
            while not pred(self.lines[since:]):
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError('%s: not seen in %.0f s; lines:\n  %s'
                                         % (what, timeout, '\n  '.join(
                                             self.lines[since:][-40:])))
                self.cv.wait(left)
            return self.lines[since:]

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def table(lines):
    """The state the lines leave: prefix -> what the last add said."""
    t = {}
    for line in lines:
        w = line.split(' ', 2)
        if w[0] in ('add', 'replace'):
            t[w[1]] = w[2]
        elif w[0] == 'del':
            t.pop(w[1], None)
    return t


def synced(lines):
    return 'sync done' in lines and table(lines) == EXPECTED


def check_change(z, d):
    """A new gateway (added, then the old one removed): replaces only;
    a removed blackhole: a delete."""
    since = d.mark()
    z.configure('ip route 198.18.10.0/24 198.18.1.5')
    z.configure('no ip route 198.18.10.0/24 198.18.1.2')
    z.configure('no ip route 198.18.11.0/24 blackhole')
    got = d.wait(lambda ls: table(ls).get('198.18.10.0/24') ==
                 'unicast via 198.18.1.5 port 1' and
                 any(x == 'del 198.18.11.0/24' for x in ls),
                 since, 10, 'the change of gateway and the delete')
    bad = [x for x in got if x.startswith('del 198.18.10.0/24') or
           x.startswith('add 198.18.10.0/24')]
    if bad:
        raise AssertionError('the gateway change was not replaces only: %s'
                             % bad)
    if not any(x.startswith('replace 198.18.10.0/24') for x in got):
        raise AssertionError('no replace for 198.18.10.0/24: %s' % got)
    harness.log('change: %s' % '; '.join(
        x for x in got if '198.18.1' in x.split(' ')[1]))
    # Back as it was, for the restart.
    z.configure('ip route 198.18.10.0/24 198.18.1.2')
    z.configure('no ip route 198.18.10.0/24 198.18.1.5')
    z.configure('ip route 198.18.11.0/24 blackhole')
    before = d.lines[:since]
    d.wait(lambda ls: table(before + ls) == EXPECTED, since, 10,
           'the routes back')


def phase(ns, work, d, nhg):
    name = 'nhg' if nhg else 'no-nhg'
    zconf = 'fpm address 127.0.0.1\n'
    if not nhg:
        zconf += 'no fpm use-next-hop-groups\n'
    z = frr.Frr(ns, os.path.join(work, name), zebra=zconf, staticd=STATICS)
    since = d.mark()
    t0 = time.monotonic()
    z.start()
    try:
        got = d.wait(synced, since, 20, name + ': the first sync')
        harness.log('%s: %d lines, synced in %.2f s after zebra started'
                    % (name, len(got), time.monotonic() - t0))
        check_change(z, d)
        # zebra restarted: a new connection, the same table again.
        since = d.mark()
        t0 = time.monotonic()
        z.restart('zebra')
        d.wait(lambda ls: 'sync done' in ls, since, 10,
               name + ': a sync after zebra restarted')
        t1 = time.monotonic()
        got = d.wait(lambda ls: ls.count('sync begin') >= 1 and
                     synced(ls[ls.index('sync begin'):]), since, 30,
                     name + ': the table after zebra restarted')
        # The static routes come back when staticd connects again to
        # zebra, which it tries every 10 s (FRR's zclient).
        harness.log('%s: zebra restarted: first sync done in %.2f s, the '
                    'whole table again in %.2f s (%d lines)'
                    % (name, t1 - t0, time.monotonic() - t0, len(got)))
        harness.log('%s: zebra: %s' % (name, z.fpm_counters()))
    except Exception:
        harness.log('zebra log:\n' + z.log_tail('zebra', 30))
        raise
    finally:
        z.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dump', required=True)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.dump, 'fpm-dump')
    why = frr.available()
    if why:
        harness.skip(why)
    ns, peer = 'npfpm%d' % os.getpid(), 'npfpmp%d' % os.getpid()
    work = harness.Workdir('fpm', keep=a.keep)
    os.chmod(work.path, 0o755)
    d = None
    try:
        for n in (ns, peer):
            sh(['ip', 'netns', 'add', n])
            sh(['ip', '-n', n, 'link', 'set', 'lo', 'up'])
        sh(['ip', '-n', ns, 'link', 'add', 'fpm0a', 'type', 'veth', 'peer',
            'name', 'fpm0b', 'netns', peer])
        sh(['ip', '-n', ns, 'addr', 'add', '198.18.1.1/24', 'dev', 'fpm0a'])
        sh(['ip', '-n', ns, 'addr', 'add', '2001:2:0:1::1/64', 'dev',
            'fpm0a', 'nodad'])
        sh(['ip', '-n', ns, 'link', 'set', 'fpm0a', 'up'])
        sh(['ip', '-n', peer, 'link', 'set', 'fpm0b', 'up'])
        # A kernel route zebra reads at start and sends (staticd has no
        # prohibit).
        sh(['ip', '-n', ns, 'route', 'add', 'prohibit', '198.18.13.0/24'])
        js = work.file('fpm.json')
        d = Dump(ns, a.dump, js)
        d.wait(lambda ls: any(x.startswith('listening') for x in ls), 0,
               10, 'fpm-dump listening')
        phase(ns, work.path, d, nhg=True)
        phase(ns, work.path, d, nhg=False)
        d.stop()
        with open(js) as f:
            st = json.load(f)['fpm']
        harness.log('fpm-dump: %s' % json.dumps(st, sort_keys=True))
        errs = {k: v for k, v in st['errors'].items() if v}
        if errs:
            raise AssertionError('refused or ignored: %s' % errs)
        if st['nexthops_added'] == 0 or st['routes_replaced'] == 0 or \
                st['syncs'] < 4 or st['connects'] < 4:
            raise AssertionError('counters: %s' % st)
    except (AssertionError, frr.FrrError) as e:
        harness.log('FAIL: %s' % e)
        return 1
    finally:
        if d is not None:
            d.stop()
        for n in (ns, peer):
            sh(['ip', 'netns', 'del', n], check=False)
        work.cleanup()
    harness.log('PASS: zebra 8.4 over FPM, with and without next-hop '
                'groups, a change, a delete and a restart')
    return 0


if __name__ == '__main__':
    sys.exit(main())
