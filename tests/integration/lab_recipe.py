#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The lab recipe of docs/apps/npool-fwd.md ("FRR and npool-fwd in a lab")
runs as written and shows what the page says it shows.

Each ```sh block of that section starts with "# lab: STEP" (run) or
"# NICs" (needs NICs: not run); any other block fails the test, so that
no command of the recipe goes unchecked. The packages block is checked,
not run (apt-get would fetch from the network): each package it names
must be installed, else the test is skipped. The other blocks run in
order, each with bash -euo pipefail from a scratch folder that stands
for the top of the clone (build/ is the build being tested), and:
  check   zebra shows the static and the BGP route via 198.18.2.2 on z1;
          /fwd/route,198.19.0.1 is that route from FPM on port 1; the
          three pings are answered with ttl 63; /fwd/neigh,4 lists A on
          port 0 and B on port 1
  change  /fwd/route,198.18.101.1 is the new static via 198.18.2.2;
          198.19.0.1 has no route and ping gets net unreachable from
          198.18.1.1
  stop    "leak check: OK"; npool-fwd's log (kept before the block
          removes it) holds no sanitizer report and no FPM line but the
          management link's no_port, as the page says
The recipe's names are fixed (namespaces lab-r, lab-a, lab-b, lab-m;
/tmp/npool-lab, /etc/frr/lab, /var/run/frr/lab; EAL prefix lab): runs
wait for one another on a lock, and what a killed run left is removed
before and after.

  lab_recipe.py --doc docs/apps/npool-fwd.md --build build [--keep]
Exit 0 pass, 1 fail, 77 skip (not root, FRR, bird2 or a package of the
recipe missing).
"""

import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import frr  # noqa: E402
import harness  # noqa: E402
import netns  # noqa: E402

SECTION = '## FRR and npool-fwd in a lab'
NAMESPACES = ('lab-r', 'lab-a', 'lab-b', 'lab-m')
PATHS = ('/tmp/npool-lab', '/etc/frr/lab', '/var/run/frr/lab')
EAL_PREFIX = 'lab'
LOCK = '/run/lock/npool-lab-recipe.lock'
LOCK_WAIT_S = 90
BLOCK_TIMEOUT_S = 120


def recipe(text):
    """The section's sh blocks as [(step, script)]: "# lab: STEP" ones
    run, "# NICs" ones skipped; ValueError for any other."""
    at = text.find('\n' + SECTION + '\n')
    if at < 0:
        raise ValueError('no "%s" section' % SECTION)
    end = text.find('\n## ', at + 1)
    sec = text[at:end if end > 0 else len(text)]
    steps = []
    for block in re.findall(r'^```sh\n(.*?)^```', sec, re.S | re.M):
        first = block.split('\n', 1)[0]
        m = re.fullmatch(r'# lab: (.+)', first)
        if m:
            steps.append((m.group(1), block))
        elif not first.startswith('# NICs'):
            raise ValueError('a block that is neither "# lab: STEP" nor '
                             '"# NICs": %r' % first)
    return steps


def packages(script):
    """The packages of the recipe's apt-get line."""
    m = re.search(r'^apt-get install -y (.+)$', script, re.M)
    if m is None:
        raise ValueError('the packages block has no "apt-get install -y"')
    return m.group(1).split()


def missing_packages(pkgs):
    out = []
    for p in pkgs:
        q = subprocess.run(['dpkg-query', '-W', '-f', '${Status}', p],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if not q.stdout.decode().endswith('installed'):
            out.append(p)
    return out


def clean():
    """Remove what the recipe makes: FRR's watchfrr first (it would start
    the daemons again), every process in the namespaces, the namespaces,
    the files, npool-fwd's EAL folder."""
    try:
        with open('/var/run/frr/lab/watchfrr.pid') as f:
            netns.kill_pid(int(f.read().split()[0]))
    except (OSError, ValueError, IndexError):
        pass
    for _ in range(3):
        pids = [int(p) for ns in NAMESPACES
                if os.path.exists('/var/run/netns/' + ns)
                for p in netns.sh(['ip', 'netns', 'pids', ns], False).split()]
        if not pids:
            break
        for pid in pids:
            netns.kill_pid(pid)
    for ns in NAMESPACES:
        if os.path.exists('/var/run/netns/' + ns):
            netns.sh(['ip', 'netns', 'del', ns], False)
    for p in PATHS + tuple(harness.runtime_dirs(EAL_PREFIX)):
        shutil.rmtree(p, ignore_errors=True)


def telemetry_answers(out, cmd):
    """The JSON answers to @cmd in the output (dpdk-telemetry.py prints one
    line each)."""
    res = []
    for line in out.splitlines():
        if line.startswith('{"%s"' % cmd):
            res.append(json.loads(line)[cmd])
    return res


class Recipe(harness.Checks):
    def __init__(self, a, steps):
        self.a = a
        self.steps = steps
        self.probs = []
        self.work = harness.Workdir('lab', a.keep)
        os.symlink(a.build, self.work.file('build'))
        self.fwd_log = ''

    def run_step(self, step, script):
        env = dict(os.environ)
        t0 = time.monotonic()
        try:
            p = subprocess.run(['bash', '-euo', 'pipefail', '-c', script],
                               cwd=self.work.path, env=env,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL,
                               timeout=BLOCK_TIMEOUT_S *
                               harness.TIMEOUT_MULTIPLIER)
            rc, out = p.returncode, p.stdout.decode('utf-8', 'replace')
        except subprocess.TimeoutExpired as e:
            rc, out = None, (e.stdout or b'').decode('utf-8', 'replace')
        ok = self.check(rc == 0, 'step "%s": exit %s, %.1f s' % (
            step, rc, time.monotonic() - t0))
        if not ok:
            harness.log('\n'.join('    | ' + l
                                  for l in out.splitlines()[-30:]))
        return ok, out

    def check_look(self, out):
        for want in ('S>* 198.18.100.0/24 [1/0] via 198.18.2.2, z1',
                     'B>* 198.19.0.0/24 [20/0] via 198.18.2.2, z1'):
            self.check(want in out, 'zebra shows "%s"' % want)
        r = telemetry_answers(out, '/fwd/route')
        self.check(len(r) == 1 and r[0].get('origin') == 'fpm' and
                   r[0].get('via') == '198.18.2.2' and
                   r[0].get('port') == 1 and
                   r[0].get('prefix') == '198.19.0.0',
                   '/fwd/route,198.19.0.1: %s' % r)
        replies = re.findall(r'^64 bytes from \S+: icmp_seq=\d+ ttl=(\d+)',
                             out, re.M)
        self.check(replies == ['63'] * 6,
                   'pings: %d replies, ttl %s (want 6, 63)' % (
                       len(replies), ','.join(sorted(set(replies)))))
        n = telemetry_answers(out, '/fwd/neigh')
        lines = n[0].get('list', []) if n else []
        self.check(any(l.startswith('198.18.1.2 port 0 ') for l in lines) and
                   any(l.startswith('198.18.2.2 port 1 ') for l in lines),
                   '/fwd/neigh,4 lists A and B: %s' % lines)

    def check_change(self, out):
        r = telemetry_answers(out, '/fwd/route')
        self.check(len(r) == 2 and r[0].get('prefix') == '198.18.101.0' and
                   r[0].get('origin') == 'fpm' and
                   r[0].get('via') == '198.18.2.2' and
                   r[1] == {'route': 'none'},
                   '/fwd/route of the new static, of the withdrawn BGP '
                   'route: %s' % r)
        self.check('From 198.18.1.1 icmp_seq=1 Destination Net Unreachable'
                   in out, 'ping 198.19.0.1: npool-fwd\'s net unreachable')

    def check_log(self):
        rep = harness.sanitizer_reports(self.fwd_log)
        self.check(not rep, 'npool-fwd\'s log: %s' % (
            'no sanitizer report' if not rep else 'a sanitizer report:\n' +
            rep))
        fpm = [l for l in self.fwd_log.splitlines() if ': fpm: ' in l and
               'connected from' not in l and 'closed the connection' not in l]
        self.check(len(fpm) >= 1 and all(
            'no_port: route 198.18.250.0/30' in l for l in fpm),
            'npool-fwd\'s FPM lines: the management link\'s no_port only: '
            '%s' % fpm)

    def run(self):
        for step, script in self.steps:
            if step == 'packages':
                continue
            if step == 'stop':
                try:
                    with open('/tmp/npool-lab/fwd.log',
                              errors='replace') as f:
                        self.fwd_log = f.read()
                except OSError as e:
                    self.fail('npool-fwd\'s log: %s' % e)
            ok, out = self.run_step(step, script)
            if not ok:
                return
            if step == 'check':
                self.check_look(out)
            elif step == 'change':
                self.check_change(out)
            elif step == 'stop':
                self.check('leak check: OK' in out,
                           'npool-fwd\'s exit: "leak check: OK"')
                self.check_log()

    def cleanup(self):
        clean()
        self.work.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--doc', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    harness.require_app(os.path.join(a.build, 'apps', 'fwd', 'npool-fwd'),
                        'npool-fwd')
    with open(a.doc) as f:
        try:
            steps = recipe(f.read())
            pkgs = packages(dict(steps).get('packages', ''))
        except ValueError as e:
            harness.log('FAIL: %s: %s' % (a.doc, e))
            return 1
    why = frr.available() or frr.bird_available()
    if why:
        harness.skip(why)
    miss = missing_packages(pkgs)
    if miss:
        harness.skip('the recipe\'s packages %s are not installed '
                     '(scripts/deps.sh test)' % ' '.join(miss))
    if shutil.which('dpdk-telemetry.py') is None:
        harness.skip('no dpdk-telemetry.py (Debian package dpdk-dev)')
    harness.log('%d steps: %s' % (len(steps), ', '.join(s for s, _ in steps)))
    with open(LOCK, 'w') as lock:
        end = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > end:
                    harness.log('FAIL: another run held %s for %d s'
                                % (LOCK, LOCK_WAIT_S))
                    return 1
                time.sleep(0.5)
        clean()
        r = Recipe(a, steps)
        t0 = time.monotonic()
        try:
            r.run()
        except (OSError, ValueError) as e:
            r.fail('%s: %s' % (type(e).__name__, e))
        finally:
            r.cleanup()
    harness.log('%s (%.1f s)' % ('FAIL (%d problems)' % len(r.probs)
                                 if r.probs else 'PASS',
                                 time.monotonic() - t0))
    return 1 if r.probs else 0


if __name__ == '__main__':
    sys.exit(main())
