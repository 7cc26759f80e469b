#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SIGINT and SIGTERM stop npool-fwd cleanly: port 0 replays the edge-case
set without end (net_pcap infinite_rx=1; ports 1..3 are net_null no-rx=1
so that millions of packets leave no files), the signal comes after a
while, and then: exit status 0, JSON written, leak block clean, per-reason
and per-port counts those of k whole passes over the set plus a prefix of
the next pass, and port 0's tx pcap the oracle's outputs for port 0
repeated in order.

  run_signal.py --app build/apps/fwd/npool-fwd [--pool npool|mempool]
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import harness  # noqa: E402
import oracle  # noqa: E402
import pcaplib  # noqa: E402
import run_fwd  # noqa: E402

RUN_S = 1.0


def replay_inputs():
    """The main edge set without what infinite_rx cannot replay (frames
    larger than one mbuf) or the oracle cannot count in whole passes
    (fragmented output)."""
    inputs = run_fwd.edge_inputs('main')
    keep = [i for i, f in enumerate(inputs.frames) if 14 <= len(f) <= 1514]
    inputs.frames = [inputs.frames[i] for i in keep]
    inputs.labels = [inputs.labels[i] for i in keep]
    inputs.hand = inputs.hand_verdicts = None
    return inputs


def run_once(app, work, inputs, pool, sig):
    rx = work.file('in.pcap')
    pcaplib.write(rx, inputs.frames)
    tx0 = work.file('tx_0.pcap')
    vdevs = ['net_pcap0,rx_pcap=%s,infinite_rx=1,tx_pcap=%s' % (rx, tx0)]
    vdevs += ['net_null%d,no-rx=1' % p for p in range(1, run_fwd.NPORTS)]
    jpath = work.file('sig.json')
    args = ['-p', '0xf', '--pool', pool, '--json', jpath]
    for fam, text in zip(('ipv4', 'ipv6'), inputs.rules):
        path = work.file('routes_%s.cfg' % fam)
        with open(path, 'w') as f:
            f.write(text)
        args += ['--rule_%s' % fam, path]
    for port, mac in inputs.eth_dest.items():
        args += ['--eth-dest', '%d,%s' % (port, mac)]
    cmd = [app] + harness.eal_args(work.new_prefix(), vdevs) + ['--'] + args
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    # The signal comes RUN_S after forwarding began (port 0's tx pcap
    # grows past its header), not after start: on a loaded machine EAL
    # and the ports took 4 s, and a signal after 1 s stopped the app
    # before it had forwarded one pass (fwd-signal-* failed under load).
    deadline = time.monotonic() + 60 * harness.TIMEOUT_MULTIPLIER
    while time.monotonic() < deadline and proc.poll() is None:
        if os.path.exists(tx0) and os.path.getsize(tx0) > 24:
            break
        time.sleep(0.05)
    time.sleep(RUN_S)
    proc.send_signal(sig)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=30 * harness.TIMEOUT_MULTIPLIER)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    res = harness.check_sanitizers(harness.Result(
        cmd, proc.returncode, out.decode('utf-8', 'replace'),
        err.decode('utf-8', 'replace'), timed_out))
    res.json = harness.load_json(jpath)
    res.tx0 = harness.read_tx(tx0)
    return res


def check(res, inputs):
    probs = []
    if res.timed_out or res.rc != 0:
        probs.append('npool-fwd: %s after the signal\n%s'
                     % (res.describe(), res.tail()))
    js = res.json
    if '_error' in js:
        return probs + ['no JSON: %s' % js['_error']]
    probs += harness.leak_problems(js)
    cfg = run_fwd.make_config(inputs, run_fwd.port_macs(res))
    verdicts = [oracle.decide(f, cfg) for f in inputs.frames]
    ports = {p.get('port'): p for p in js.get('ports', [])}
    n = ports.get(0, {}).get('rx', 0)
    if not n:
        return probs + ['port 0 received nothing in %.1f s' % RUN_S]
    whole, part = divmod(n, len(verdicts))
    drops, tx = run_fwd.expected_counts(verdicts)
    pdrops, ptx = run_fwd.expected_counts(verdicts[:part])
    got = ports[0].get('drops', {})
    for r in oracle.REASONS:
        want = whole * drops.get(r, 0) + pdrops.get(r, 0)
        if got.get(r) != want:
            probs.append('drops[%s] = %r, %d passes + %d packets give %d'
                         % (r, got.get(r), whole, part, want))
    for p in range(run_fwd.NPORTS):
        want = whole * tx.get(p, 0) + ptx.get(p, 0)
        if ports.get(p, {}).get('tx') != want:
            probs.append('port %d: JSON tx %r, expected %d'
                         % (p, ports.get(p, {}).get('tx'), want))
    if len(res.tx0) != ports.get(0, {}).get('tx'):
        probs.append('port 0: %d frames in its tx pcap, JSON tx %r'
                     % (len(res.tx0), ports.get(0, {}).get('tx')))
    outs = [v.out for v in verdicts if not v.reason and v.port == 0]
    for j, (d, orig_len) in enumerate(res.tx0):
        diff = oracle.compare_frame(d, orig_len, outs[j % len(outs)])
        if diff:
            probs.append('port 0 frame %d: %s' % (j, diff))
            break
    return probs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--pool', default='npool')
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    inputs = replay_inputs()
    fails = 0
    for sig in (signal.SIGINT, signal.SIGTERM):
        with harness.Workdir('fwd-signal-%s' % a.pool, a.keep) as work:
            res = run_once(a.app, work, inputs, a.pool, sig)
            probs = check(res, inputs)
        rx = (res.json.get('ports') or [{}])[0].get('rx')
        harness.log('npool-fwd --pool %s, %s after %.1f s: %s, %s packets '
                    'received' % (a.pool, sig.name, RUN_S, res.describe(), rx))
        for p in probs[:20]:
            harness.log('  - ' + p)
        fails += bool(probs)
    harness.log('FAIL' if fails else 'PASS')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
