#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Soak: npool-fwd on a looping mix of every capture for a long time,
checked every few seconds over DPDK telemetry; exit 1 on any drift.

  soak.py --app build/apps/fwd/npool-fwd --captures tests/data/captures
          (--minutes M | --seconds S) [--every K] [--variants LIST]
          [--report FILE] [--keep]

The mix is every Ethernet frame of the captures (run_fwd.capture_inputs) that
fits one RX mbuf (net_pcap's infinite_rx refuses chains), in file order, read
over and over by net_pcap0,infinite_rx=1; ports 1..3 are net_null (no RX).
Routes, MTU and --eth-dest are the integration tests' main set, so the RFC
1812 oracle knows each frame's verdict, and after M packets the counters are
known: M // N passes of the whole mix plus the first M % N frames.

Each variant (LIST, default npool-cb256,mempool: --pool npool --copybreak
256, and --pool mempool) runs an equal share of the time, one lcore. Every K
seconds (/app/stats, /app/pools, /ethdev/stats,0 and /proc/<pid>/status):
  - the app is alive and rx grew; no counter went backwards;
  - drops of every reason, forwarded and tx between the oracle's figures
    for the packets handled before and after they were read (SLACK: a
    burst counted half); a frame misjudged once a pass drifts by thousands
    within seconds;
  - outstanding: RX pool mbufs <= N (held by net_pcap's ring) + OUT_MAX, npool
    fragments and heads <= OUT_MAX, chunks <= CHUNKS_MAX; RSS no more than
    RSS_GROWTH_MAX above the first check's (not under a sanitizer, whose
    quarantine keeps freed heap memory: the telemetry replies' grow it).
At the end: SIGINT, exit status 0, leak check clean, and every reason, tx
and forwarded exactly the oracle's for the packets received.
Exit 0 pass, 1 fail (the message names the drift), 77 skip.
"""

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import apps_measure  # noqa: E402  (the telemetry client)
import edgecases  # noqa: E402
import harness  # noqa: E402
import oracle  # noqa: E402
import pcaplib  # noqa: E402
import run_fwd  # noqa: E402

MBUF_SIZE = 2176            # --mbuf-size: RTE_MBUF_DEFAULT_BUF_SIZE
HEADROOM = 128              # RTE_PKTMBUF_HEADROOM
SLACK = 64                  # two bursts: counters are added per burst
OUT_MAX = 512               # in flight and in caches, beyond the preload
CHUNKS_MAX = 16
RSS_GROWTH_MAX = 16 << 20
COPYBREAK = 256
VARIANTS = {
    'npool-cb256': ['--pool', 'npool', '--copybreak', str(COPYBREAK)],
    'npool': ['--pool', 'npool'],
    'mempool': ['--pool', 'mempool'],
}
COPYBREAK_KEYS = ('copybreak_copied', 'copybreak_nomem')


class Fail(Exception):
    """A drift or a dead app: the message says what."""


def one_mbuf_inputs(captures):
    """run_fwd.capture_inputs() without the frames longer than one RX mbuf
    of MBUF_SIZE; and how many were left out."""
    inputs = run_fwd.capture_inputs(captures)
    keep = [i for i, f in enumerate(inputs.frames)
            if len(f) <= MBUF_SIZE - HEADROOM]
    left_out = len(inputs.frames) - len(keep)
    inputs.frames = [inputs.frames[i] for i in keep]
    inputs.labels = [inputs.labels[i] for i in keep]
    return inputs, left_out


class Mix:
    """The frames, their verdicts and prefix sums of every counter."""

    def __init__(self, captures):
        inputs, self.left_out = one_mbuf_inputs(captures)
        self.inputs = inputs
        self.n = len(inputs.frames)
        cfg = run_fwd.make_config(inputs, {})
        verdicts = [oracle.decide(f, cfg) for f in inputs.frames]
        keys = ['forwarded', 'tx', 'small'] + list(oracle.REASONS)
        self.prefix = {k: [0] for k in keys}
        for f, v in zip(inputs.frames, verdicts):
            one = collections.Counter(small=len(f) <= COPYBREAK)
            if v.reason:
                one[v.reason] = 1
            else:
                one['forwarded'] = 1
                one['tx'] = v.nfrags
            for k in keys:
                self.prefix[k].append(self.prefix[k][-1] + one[k])

    def per_pass(self, key):
        return self.prefix[key][self.n]

    def at(self, m, copybreak=True):
        """{counter: value} the oracle expects after m packets; 'small'
        (copy-break's copybreak_copied + copybreak_nomem): the frames of at
        most COPYBREAK bytes, 0 without copy-break."""
        q, r = divmod(m, self.n)
        want = {k: q * p[self.n] + p[r] for k, p in self.prefix.items()}
        if not copybreak:
            want['small'] = 0
        return want


def sanitized(pid):
    """Whether the process runs a sanitizer runtime (ASan, TSan)."""
    with open('/proc/%d/maps' % pid) as f:
        return any(x in f.read() for x in ('libasan', 'libtsan'))


def read_rss(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) * 1024
    raise Fail('no VmRSS for pid %d' % pid)


def loadavg():
    with open('/proc/loadavg') as f:
        return float(f.read().split()[0])


def processed(stats):
    return stats['forwarded'] + stats['dropped']


class Sample:
    """One check's reads. The lcore runs on meanwhile, and the reads of one
    reply are not one instant (the telemetry thread may even be preempted
    in the middle): the counters checked (stats) are bracketed by a read
    before (pre) and one after (post), and each must lie between what the
    oracle expects for the packets handled by then."""

    def __init__(self, tel, pid):
        self.t = time.monotonic()
        self.pre = tel.query('/app/stats')
        self.stats = tel.query('/app/stats')
        self.eth = tel.query('/ethdev/stats,0')
        self.pools = tel.query('/app/pools')
        self.post = tel.query('/app/stats')
        self.rss = read_rss(pid)
        self.sanitized = sanitized(pid)
        self.load = loadavg()
        if not all(isinstance(x, dict) for x in (
                self.pre, self.stats, self.eth, self.pools, self.post)):
            raise Fail('telemetry gave no answer (/app/stats %r, '
                       '/app/pools %r)' % (self.stats, self.pools))

    def counters(self):
        c = {k: self.stats[k] for k in ('rx', 'tx', 'forwarded', 'dropped')}
        c.update(self.stats['drops'])
        c['ipackets'] = self.eth['ipackets']
        return c


def copybreak_problems(pools, lo, hi, when):
    """Copy-break never runs out of memory here, and copies the small
    frames received: lo['small'] <= copied <= hi['small']."""
    probs = []
    if pools.get('copybreak_nomem') != 0:
        probs.append('%scopybreak_nomem %r: npool ran out of memory'
                     % (when, pools.get('copybreak_nomem')))
    got = pools.get('copybreak_copied', -1)
    if not lo['small'] <= got <= hi['small']:
        probs.append('%scopybreak_copied %d, expected %s' % (
            when, got, lo['small'] if lo is hi else
            '%d..%d' % (lo['small'], hi['small'])))
    return probs


def check_sample(s, prev, first, mix, copybreak):
    """Problems of one sample (against the previous and the first)."""
    probs = []
    st = s.stats
    c = s.counters()
    if prev is not None:
        back = [k for k, v in c.items() if v < prev.counters().get(k, 0)]
        if back:
            probs.append('counters went backwards: %s' % ', '.join(
                '%s %d -> %d' % (k, prev.counters()[k], c[k])
                for k in back))
        if st['rx'] == prev.stats['rx']:
            probs.append('no packet received for %.1f s (rx %d)'
                         % (s.t - prev.t, st['rx']))
    if st['rx'] != processed(st) + st['in_flight']:
        probs.append('rx %d != forwarded %d + dropped %d + in flight %d'
                     % (st['rx'], st['forwarded'], st['dropped'],
                        st['in_flight']))
    lo, hi = mix.at(processed(s.pre)), mix.at(processed(s.post))
    got = dict(st['drops'], forwarded=st['forwarded'], tx=st['tx'])
    off = ['%s %d not in %d..%d' % (k, got.get(k, 0), lo[k] - SLACK,
                                    hi[k] + SLACK)
           for k in sorted(lo) if k != 'small'
           if not lo[k] - SLACK <= got.get(k, 0) <= hi[k] + SLACK]
    if off:
        probs.append('drift from the oracle after %d packets (%.2f passes):'
                     ' %s' % (processed(st), processed(st) / mix.n,
                              ', '.join(off)))
    # The PMD counts a burst before the app does.
    if not s.pre['rx'] <= c['ipackets'] <= s.post['rx'] + SLACK:
        probs.append('port 0 ipackets %d not in app rx %d..%d' % (
            c['ipackets'], s.pre['rx'], s.post['rx'] + SLACK))
    # Copied on receipt: bracketed by rx, a burst late at most.
    probs += copybreak_problems(
        s.pools,
        {'small': mix.at(max(0, s.pre['rx'] - SLACK), copybreak)['small']},
        {'small': mix.at(s.post['rx'], copybreak)['small']}, '')
    for k, v in s.pools.items():
        if k in COPYBREAK_KEYS:
            continue
        bound = {'rx_s0': mix.n + OUT_MAX,
                 'npool_chunks': CHUNKS_MAX}.get(k, OUT_MAX)
        if v > bound:
            probs.append('%s: %d out, more than %d' % (k, v, bound))
    if s.rss > first.rss + RSS_GROWTH_MAX and not s.sanitized:
        probs.append('RSS grew from %.1f to %.1f MiB' % (
            first.rss / 2**20, s.rss / 2**20))
    return probs


def start_app(a, work, variant, mix_path):
    prefix = 'np-sk-%d-%s' % (os.getpid(), variant)
    work.prefixes.append(prefix)     # removed with the work folder
    vdevs = ['net_pcap0,rx_pcap=%s,infinite_rx=1' % mix_path] + \
        ['net_null%d,no-rx=1' % p for p in (1, 2, 3)]
    routes = []
    for fam, text in (('ipv4', edgecases.ROUTES_V4),
                      ('ipv6', edgecases.ROUTES_V6)):
        path = work.file('routes_%s.cfg' % fam)
        with open(path, 'w') as f:
            f.write(text)
        routes += ['--rule_%s' % fam, path]
    jpath = work.file('%s.json' % variant)
    cmd = [a.app, '--no-huge', '-m', '1024', '--no-pci', '--no-shconf',
           '--file-prefix', prefix, '-l', '0']
    for v in vdevs:
        cmd += ['--vdev', v]
    cmd += ['--', '-p', '0x%x' % edgecases.MAIN_PORTMASK, '--eth-dest',
            '1,%s' % edgecases.ETH_DEST_1, '--mbuf-size', str(MBUF_SIZE),
            '--json', jpath] + routes + VARIANTS[variant]
    log = open(work.file('%s.log' % variant), 'w')
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    log.close()
    sock = os.path.join(apps_measure.runtime_dir(prefix),
                        'dpdk_telemetry.v2')
    return proc, sock, jpath, cmd


def stop_app(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return None


def final_problems(rc, js, mix, copybreak):
    probs = []
    if rc != 0:
        probs.append('npool-fwd exit status %r after SIGINT' % rc)
    if '_error' in js:
        return probs + ['no JSON: %s' % js['_error']]
    probs += harness.leak_problems(js)
    tot = js.get('total', {})
    want = mix.at(tot.get('rx', 0), copybreak)
    got = dict(tot.get('drops', {}), forwarded=tot.get('forwarded'),
               tx=tot.get('tx'))
    probs += copybreak_problems(tot, want, want, 'final ')
    del want['small']
    for k, w in sorted(want.items()):
        if got.get(k) != w:
            probs.append('final %s = %r, oracle %d for %d packets'
                         % (k, got.get(k), w, tot.get('rx', 0)))
    return probs


def run_variant(a, work, variant, seconds, mix, mix_path):
    """Run one variant; returns (problems, figures)."""
    proc, sock, jpath, cmd = start_app(a, work, variant, mix_path)
    harness.log('%s: %s' % (variant, ' '.join(cmd)))
    samples, probs, tel = [], [], None
    copybreak = '--copybreak' in VARIANTS[variant]
    try:
        tel = apps_measure.connect(proc, sock, 30)
        # The socket answers once EAL runs; /app/stats once the app has
        # set up its ports and pools (slower on a loaded machine).
        deadline = time.monotonic() + 60
        while not isinstance(tel.query('/app/stats'), dict):
            if proc.poll() is not None:
                raise Fail('npool-fwd died (status %d)' % proc.returncode)
            if time.monotonic() > deadline:
                raise Fail('no /app/stats 60 s after telemetry answered')
            time.sleep(0.1)
        t_end = time.monotonic() + seconds
        while not probs:
            time.sleep(min(a.every, max(0.0, t_end - time.monotonic())))
            if proc.poll() is not None:
                raise Fail('npool-fwd died (status %d)' % proc.returncode)
            s = Sample(tel, proc.pid)
            probs = check_sample(s, samples[-1] if samples else None,
                                 samples[0] if samples else s, mix,
                                 copybreak)
            samples.append(s)
            if len(samples) == 1 or len(samples) % a.log_every == 0:
                harness.log('  [%7.1f s] rx %d, %.2f passes, rx_s0 out %d,'
                            ' RSS %.1f MiB, load %.2f' % (
                                s.t - samples[0].t, s.stats['rx'],
                                s.stats['rx'] / mix.n, s.pools['rx_s0'],
                                s.rss / 2**20, s.load))
            if time.monotonic() >= t_end:
                break
    except (Fail, apps_measure.RunError, OSError, ValueError,
            KeyError) as e:
        probs.append('%s: %s' % (type(e).__name__, e))
    finally:
        if tel is not None:
            tel.close()
        rc = stop_app(proc)
    js = harness.load_json(jpath)
    probs += final_problems(rc, js, mix, copybreak)
    if probs:
        with open(work.file('%s.log' % variant)) as f:
            probs.append('app output (last lines):\n' + ''.join(
                '    | ' + l for l in f.readlines()[-12:]))
    return probs, figures(variant, samples, js, mix)


def figures(variant, samples, js, mix):
    tot = js.get('total', {}) if isinstance(js, dict) else {}
    fig = {'variant': variant, 'checks': len(samples)}
    if len(samples) >= 2:
        s0, s1 = samples[0], samples[-1]
        dt = s1.t - s0.t
        fig.update({
            'seconds': round(dt, 1),
            'mpps': round((s1.stats['rx'] - s0.stats['rx']) / dt / 1e6, 3),
            'rss_mib_first': round(s0.rss / 2**20, 1),
            'rss_mib_last': round(s1.rss / 2**20, 1),
            'rss_checked': not s1.sanitized,
            'load_min': min(s.load for s in samples),
            'load_max': max(s.load for s in samples),
        })
    for k in samples[0].pools if samples else ():
        if k not in COPYBREAK_KEYS:
            fig['max_out_' + k] = max(s.pools[k] for s in samples)
    fig.update({
        'rx': tot.get('rx'), 'passes': round(tot.get('rx', 0) / mix.n, 1),
        'forwarded': tot.get('forwarded'), 'tx': tot.get('tx'),
        'drops': {k: v for k, v in tot.get('drops', {}).items() if v},
        'copybreak_copied': tot.get('copybreak_copied'),
        'copybreak_nomem': tot.get('copybreak_nomem'),
        'eth_rx_nombuf': sum(p.get('eth', {}).get('rx_nombuf', 0)
                             for p in js.get('ports', [])),
        'duration_s': js.get('duration_s'),
    })
    return fig


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--captures')
    t = ap.add_mutually_exclusive_group(required=True)
    t.add_argument('--minutes', type=float)
    t.add_argument('--seconds', type=float)
    ap.add_argument('--every', type=float, default=10.0,
                    help='seconds between checks')
    ap.add_argument('--log-every', type=int, default=6,
                    help='print every n-th check')
    ap.add_argument('--variants', default='npool-cb256,mempool')
    ap.add_argument('--report', help='write the figures as JSON here')
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    variants = a.variants.split(',')
    for v in variants:
        if v not in VARIANTS:
            ap.error('unknown variant %s (%s)' % (v, ', '.join(VARIANTS)))
    harness.require_captures(a.captures)
    total = a.seconds if a.seconds is not None else a.minutes * 60
    mix = Mix(a.captures)
    if not mix.n:
        harness.skip('no Ethernet frame in %s' % a.captures)
    harness.log('mix: %d frames of %s (%d left out: longer than one %d-byte '
                'mbuf); one pass: %d forwarded (%d sent), drops %s' % (
                    mix.n, a.captures, mix.left_out, MBUF_SIZE - HEADROOM,
                    mix.per_pass('forwarded'), mix.per_pass('tx'),
                    {r: mix.per_pass(r) for r in oracle.REASONS
                     if mix.per_pass(r)}))
    failed, report = False, []
    with harness.Workdir('soak', a.keep) as work:
        mix_path = work.file('mix.pcap')
        pcaplib.write(mix_path, mix.inputs.frames)
        for v in variants:
            probs, fig = run_variant(a, work, v, total / len(variants), mix,
                                     mix_path)
            report.append(fig)
            harness.log('%s: %s' % (v, json.dumps(fig)))
            if probs:
                failed = True
                harness.log('FAIL %s:' % v)
                for p in probs:
                    harness.log('  - ' + p)
            else:
                harness.log('PASS %s' % v)
    if a.report:
        with open(a.report, 'w') as f:
            json.dump({'mix_frames': mix.n, 'left_out': mix.left_out,
                       'variants': report}, f, indent=1)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
