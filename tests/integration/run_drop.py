#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run npool-drop on a net_pcap vdev and check: exit status 0, rx == the
number of frames in the input, every packet dropped, leak block clean.

  run_drop.py --app build/apps/drop/npool-drop --set edge|captures
              [--captures DIR] [--pool npool|mempool] [--copybreak N]
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import edgecases  # noqa: E402
import harness  # noqa: E402
import pcaplib  # noqa: E402
import run_fwd  # noqa: E402


def input_frames(which, captures):
    if which == 'edge':
        return edgecases.frames(edgecases.main_cases() +
                                edgecases.deftables_cases())
    harness.require_captures(captures)
    frames = run_fwd.capture_inputs(captures).frames
    if not frames:
        harness.skip('no Ethernet pcap in %s' % captures)
    return frames


def run(app, work, frames, pool, copybreak, extra=()):
    """One npool-drop run on net_pcap0 reading `frames`; the result with
    its JSON."""
    rx = work.file('in.pcap')
    pcaplib.write(rx, frames)
    jpath = work.file('drop.json')
    args = ['-p', '0x1', '--pool', pool, '--idle-exit', '300',
            '--json', jpath]
    if copybreak is not None:
        args += ['--copybreak', str(copybreak)]
    cmd = [app] + harness.eal_args(
        work.new_prefix(), ['net_pcap0,rx_pcap=%s' % rx]) + ['--'] + \
        args + list(extra)
    res = harness.run(cmd)
    res.json = harness.load_json(jpath)
    return res


def check(res, n, pool, copybreak):
    probs = []
    if res.timed_out or res.rc != 0:
        probs.append('npool-drop: %s\n%s' % (res.describe(), res.tail()))
    js = res.json
    if '_error' in js:
        return probs + ['no JSON: %s' % js['_error']]
    if js.get('app') != 'npool-drop':
        probs.append('JSON app = %r' % js.get('app'))
    if js.get('pool') != pool or js.get('copybreak') != (copybreak or 0):
        probs.append('JSON pool/copybreak = %r/%r' % (js.get('pool'),
                                                      js.get('copybreak')))
    probs += harness.leak_problems(js)
    p0 = [p for p in js.get('ports', []) if p.get('port') == 0]
    if not p0:
        return probs + ['JSON has no port 0']
    p0 = p0[0]
    if p0.get('rx') != n:
        probs.append('port 0: rx %r, %d frames in the input'
                     % (p0.get('rx'), n))
    if p0.get('dropped') != p0.get('rx') or p0.get('tx') != 0:
        probs.append('port 0: rx %r, dropped %r, tx %r'
                     % (p0.get('rx'), p0.get('dropped'), p0.get('tx')))
    lc = sum(x.get('rx', 0) for x in js.get('lcores', []))
    if lc != n:
        probs.append('lcores rx sum %d, %d frames' % (lc, n))
    return probs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--set', choices=('edge', 'captures'), required=True)
    ap.add_argument('--captures')
    ap.add_argument('--pool', default='npool')
    ap.add_argument('--copybreak', type=int)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-drop')
    frames = input_frames(a.set, a.captures)
    with harness.Workdir('drop-%s-%s' % (a.set, a.pool), a.keep) as work:
        res = run(a.app, work, frames, a.pool, a.copybreak)
        probs = check(res, len(frames), a.pool, a.copybreak)
    harness.log('npool-drop --pool %s%s, set %s: %d frames, %s' % (
        a.pool, ' --copybreak %d' % a.copybreak if a.copybreak is not None
        else '', a.set, len(frames), res.describe()))
    if probs:
        harness.log('FAIL:')
        for p in probs:
            harness.log('  - ' + p)
        return 1
    harness.log('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
