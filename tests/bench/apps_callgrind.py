#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Instructions per packet of the app cases whose target was missed
(scripts/bench-callgrind.sh runs this; scripts/bench.sh in full mode).

For every row of ROWS (apps_bench.py's JSON lines) whose target is MISS,
the variants it compares (npool's and its anchor or reference: the row's
"involves") run once more under valgrind --tool=callgrind, with the same
command line as in the bench but --no-huge, built without -march=native
(valgrind decodes no AVX-512): npool's apps from BUILD (make's build/),
l3fwd built for DPDK's baseline in L3FWD_DIR. After the warm-up the
counters are zeroed (callgrind_control -z), the port counter is read
over a window from telemetry, and the counts dumped (callgrind_control
-d); instructions per packet = Ir of the busiest thread (the forwarding
lcore: it never sleeps) over the window / packets counted in it. With
two forwarding lcores, the Ir of all lcores that ran over 10 % of the
busiest, summed, over all packets.

  apps_callgrind.py --rows ROWS --out OUT.json [--build build] ...
      runs and prints the table, writes OUT.json (keyed by row)
  apps_callgrind.py --show OUT.json [OUT2.json ...] [--targets TARGETS]
      prints the table of OUT.json (and of alloc_callgrind.py's); with
      TARGETS (bench.sh's list of targets) that list, each MISS line
      followed by its counts
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apps_cases import make_cases, pcap_files  # noqa: E402
from apps_frames import imix_sizes, write_pcap  # noqa: E402
from apps_measure import NotReady, RunError, _pdeathsig, _stop  # noqa
from apps_measure import connect, runtime_dir  # noqa: E402
from apps_tools import Tools  # noqa: E402
from miss_reasons import instr_list, reason  # noqa: E402


def app_row(r):
    return r.get('bench') in ('drop', 'fwd') and bool(r.get('involves'))


def missed_rows(path, want=app_row):
    """The rows of @path whose target is MISS and that @want keeps."""
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            if (r.get('target') or '').startswith('MISS ') and want(r):
                rows.append(r)
    return rows


def thread_irs(pattern):
    """Ir of each thread dump file matching pattern."""
    irs = []
    for fn in sorted(glob.glob(pattern)):
        with open(fn) as f:
            for line in f:
                if line.startswith(('summary:', 'totals:')):
                    irs.append(int(line.split()[1]))
                    break
    return irs


def callgrind(cmd, prefix, counters, stop, work, warmup, window,
              lines=False):
    """(Ir per packet, packets, Ir) of @cmd under callgrind; with @lines
    the dump has line and inline-file positions and its path comes
    fourth (the busiest thread's)."""
    rdir = runtime_dir(prefix)
    sock = os.path.join(rdir, 'dpdk_telemetry.v2')
    shutil.rmtree(rdir, ignore_errors=True)
    out = os.path.join(work, 'cg.%p')
    # --fair-sched: valgrind runs one thread at a time; without it the
    # spinning lcore starves the telemetry thread.
    vg = ['valgrind', '--tool=callgrind', '--separate-threads=yes',
          '--fair-sched=yes',
          '--dump-line=%s' % ('yes' if lines else 'no'),
          '--callgrind-out-file=' + out]
    log = open(os.path.join(work, 'run.log'), 'w')
    log.write(' '.join(vg + cmd) + '\n')
    log.flush()
    p = subprocess.Popen(vg + cmd, stdin=subprocess.PIPE, stdout=log,
                         stderr=subprocess.STDOUT, preexec_fn=_pdeathsig)
    ctl = ['callgrind_control']
    tel = None
    try:
        tel = connect(p, sock, timeout=180)
        tel.s.settimeout(60)
        key = counters[0]
        deadline = time.monotonic() + 120
        while True:
            try:
                if tel.read([key])[1][key] != 0:
                    break
            except NotReady:
                pass
            if p.poll() is not None or time.monotonic() > deadline:
                raise RunError('no packets under valgrind')
            time.sleep(0.2)
        time.sleep(warmup)
        subprocess.run(ctl + ['-z', str(p.pid)], check=True,
                       stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        c0 = tel.read([key])[1][key]
        time.sleep(window)
        c1 = tel.read([key])[1][key]
        subprocess.run(ctl + ['-d', str(p.pid)], check=True,
                       stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    except (OSError, ValueError, KeyError, NotReady,
            subprocess.CalledProcessError) as e:
        raise RunError('%s' % e)
    finally:
        if tel is not None:
            tel.close()
        _stop(p, stop)
        log.close()
        shutil.rmtree(rdir, ignore_errors=True)
    dumps = sorted(glob.glob(os.path.join(work, 'cg.%d.1-*' % p.pid)))
    irs = thread_irs(os.path.join(work, 'cg.%d.1-*' % p.pid))
    pkts = c1 - c0
    if not irs or pkts <= 0:
        raise RunError('no dump or no packet (%d)' % pkts)
    busy = max(irs)
    ir = sum(x for x in irs if x > busy / 10)
    if lines:
        return ir / pkts, pkts, ir, dumps[irs.index(busy)]
    return ir / pkts, pkts, ir


def show(res):
    print('Missed targets, instructions per packet (callgrind, --no-huge,'
          ' DPDK baseline -march; Ir of the forwarding lcores / packets):')
    for key, vs in res.items():
        print('  %s:' % key.replace('|', ' / '))
        for v in vs:
            if v.get('ir_per_pkt') is None:
                print('    %-26s %s' % (v['variant'], v.get('error')))
            else:
                unit = v.get('unit', 'packet')
                print('    %-26s %7.1f instr/%s (%d %ss)' % (
                    v['variant'], v['ir_per_pkt'], unit, v['packets'],
                    unit))
    sys.stdout.flush()


def annotate(res, targets):
    """bench.sh's target list, the counts beside each MISS line."""
    print('Targets, with the instructions per packet of the missed ones'
          ' (callgrind):')
    with open(targets) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.startswith('  '):
                continue
            print(line)
            m = re.match(r'\s*MISS \S+: (\S+) / (.*?) / (.*?) = ', line)
            why = reason(*m.groups()) if m else None
            if why:
                print('      why: %s' % why)
            for key, vs in res.items():
                if ' %s = ' % key.replace('|', ' / ') in line:
                    print('      instructions/%s: %s' % (
                        vs[0].get('unit', 'packet'), instr_list(vs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rows')
    ap.add_argument('--out')
    ap.add_argument('--show', nargs='+')
    ap.add_argument('--targets', help='with --show: annotate this list')
    ap.add_argument('--build', default='build',
                    help='build folder of npool-drop/npool-fwd (no '
                    '-march=native)')
    ap.add_argument('--l3fwd-dir', default='build/l3fwd-baseline')
    ap.add_argument('--work', default=None)
    ap.add_argument('--warmup', type=float, default=1.0)
    ap.add_argument('--window', type=float, default=3.0)
    a = ap.parse_args()
    if a.show:
        res = {}
        for fn in a.show:
            with open(fn) as f:
                res.update(json.load(f))
        if a.targets:
            annotate(res, a.targets)
        else:
            show(res)
        return 0
    if not a.rows or not a.out:
        ap.error('--rows and --out (or --show)')
    if shutil.which('valgrind') is None or \
            shutil.which('callgrind_control') is None:
        print('apps_callgrind: valgrind not found (scripts/deps.sh bench)',
              file=sys.stderr)
        return 1
    rows = missed_rows(a.rows)
    work = os.path.abspath(a.work or os.path.join(
        os.path.dirname(os.path.abspath(a.out)), 'callgrind'))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    targs = argparse.Namespace(
        drop=os.path.abspath(os.path.join(a.build, 'apps/drop/npool-drop')),
        fwd=os.path.abspath(os.path.join(a.build, 'apps/fwd/npool-fwd')),
        l3fwd_dir=os.path.abspath(a.l3fwd_dir), pkg_config_path='')
    tools = Tools(targs)
    pcaps = pcap_files(os.path.join(work, 'pcap'), write_pcap, imix_sizes)
    cases = {c.base: c for c in make_cases(tools, pcaps, False,
                                           ['drop', 'fwd'], ['nohuge'],
                                           None)}
    done, res = {}, {}
    for r in rows:
        c = cases.get(r.get('case_base'))
        key = '%s|%s|%s' % (r['bench'], r['case'], r['variant'])
        res[key] = []
        for label in r['involves']:
            v = next((x for x in c.variants if x.label == label), None) \
                if c else None
            if (r.get('case_base'), label) not in done:
                ent = {'variant': label}
                if v is None or v.tool not in tools.bin:
                    ent['error'] = 'MISSING: %s' % (
                        tools.why.get(v.tool, '?') if v else 'no such case')
                else:
                    build, counters, stop = v.run()
                    d = os.path.join(work, 'run%d' % len(done))
                    os.makedirs(d)
                    try:
                        ipp, pkts, ir = callgrind(
                            build('npcg%d_%d' % (os.getpid(), len(done))),
                            'npcg%d_%d' % (os.getpid(), len(done)),
                            counters, stop, d, a.warmup, a.window)
                        ent.update(ir_per_pkt=ipp, packets=pkts, ir=ir)
                    except RunError as e:
                        ent['error'] = 'callgrind: %s (%s)' % (e, d)
                done[(r.get('case_base'), label)] = ent
            res[key].append(done[(r.get('case_base'), label)])
    with open(a.out, 'w') as f:
        json.dump(res, f, indent=1)
    show(res)
    return 0


if __name__ == '__main__':
    sys.exit(main())
