#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""App benchmarks of make bench (scripts/bench.sh runs this).

npool-drop and npool-fwd against DPDK's own anchors, one forwarding lcore
on core 1 (the main lcore, where a tool needs one, on core 0), on 2 MiB
hugepages (--huge-dir) and, for the cases with a target, on --no-huge too
(--mem), virtual devices (apps_cases.py has the cases, the lcore layout
and the targets):

  drop  npool-drop --pool npool | --pool mempool  vs  dpdk-testpmd
        --forward-mode=rxonly, on net_null and on net_pcap infinite_rx,
        64 B and 1514 B; and with the stock mempool cache at 0
        (npool-drop --mbcache 0, testpmd --mbcache=0).
  fwd   npool-fwd (both pools, --copybreak 0 and 256)  vs  DPDK's l3fwd
        example --lookup lpm (built here from dpdk-doc's source, never
        committed), net_pcap infinite_rx -> net_null, 64 B UDP to
        198.18.1.x (l3fwd's default route 198.18.1.0/24 -> port 1, the
        same table npool-fwd loads by default) and IMIX 7:4:1 of
        60/590/1514 B.
  lcores npool-drop, npool-fwd (both pools), testpmd rxonly and l3fwd-lpm
        on 2 RX queues a port, 1 and 2 forwarding lcores: 2lc/1lc per
        tool, and npool's scaling over the anchor's.
  fib   npool-fwd --lookup fib vs l3fwd --lookup fib.
  sweep (full mode) Mpps vs frame size 64..1514 for drop and fwd, npool
        vs stock vs anchor, plotted with gnuplot into OUT/apps-mpps.png.

Every tool is measured the same way: its packet counters read from DPDK
telemetry (/ethdev/stats on the process's socket) at the start and the end
of a fixed window after a warm-up; Mpps = packets counted in the window /
window length. drop counts the RX port's ipackets, fwd the TX port's
opackets. Rounds alternate the variants of each case (rotated order), the
value is the median over rounds, the ratio the median of the per-round
ratios to the anchor measured in the same round.

Rows go to stdout in the table format of tests/bench (11 columns) and, with
--json, one JSON object per row. A tool that cannot be built or run gives
a MISSING row, never a failure of the whole run.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apps_frames import imix_sizes, write_pcap  # noqa: E402
from apps_measure import RunError, measure  # noqa: E402
from apps_tools import Tools  # noqa: E402
from apps_cases import (MEM_LABEL, SWEEP_SIZES, make_cases,  # noqa: E402
                        pcap_files)


# ---------------------------------------------------------------- stats

def median(xs):
    return statistics.median(xs) if xs else None


def summarize(case):
    """Per variant: (median, min, max, ratio, per-round ratios)."""
    anc = case.variants[case.anchor].mpps
    out = []
    for v in case.variants:
        ok = [x for x in v.mpps if x is not None]
        ratios = [x / a for x, a in zip(v.mpps, anc)
                  if x is not None and a]
        out.append((median(ok), min(ok) if ok else None,
                    max(ok) if ok else None, median(ratios), ratios))
    return out


HDR = ('| %-6s | %-24s | %-22s | %8s | %9s | %-6s | %-17s | %6s | %-14s '
       '| %-14s | %s |')
SEP = ('|--------|--------------------------|------------------------|'
       '---------:|----------:|--------|-------------------|-------:|'
       '----------------|----------------|------|')


def print_header():
    print(HDR % ('bench', 'case', 'variant', 'cyc/op', 'value', 'unit',
                 'min-max', 'ratio', 'anchor', 'target', 'seed'))
    print(SEP)


def fmt(x, f='%.2f'):
    return '-' if x is None else f % x


def target_cell(thr, value, missing):
    if thr is None:
        return '-'
    if missing:
        return 'MISSING >=%.2fx' % thr
    return '%s >=%.2fx' % ('PASS' if value >= thr else 'MISS', thr)


def why_missing(case, v, tools):
    return tools.why.get(v.tool) or (v.errors[-1] if v.errors else '')


def derived_values(case, d):
    """Per-round values of Derived d (None where a run failed)."""
    vs = case.variants
    out = []
    for r in range(len(vs[d.num].mpps)):
        x = [vs[i].mpps[r] for i in d.involves()]
        if any(not y for y in x):
            continue
        val = x[0] / x[1]
        if d.num2 is not None:
            val /= x[2] / x[3]
        out.append(val)
    return out


def json_row(case, args, **kw):
    row = {'bench': case.bench, 'case': case.name, 'case_base': case.base,
           'mem': MEM_LABEL[case.mem], 'warmup_s': args.warmup,
           'window_s': args.window, 'size': case.size}
    row.update(kw)
    return row


def emit(case, args, tools, hz, json_fp):
    stats = summarize(case)
    anchor = case.variants[case.anchor]
    anchor_missing = stats[case.anchor][0] is None
    rows = []
    for i, (v, (med, lo, hi, ratio, ratios)) in enumerate(
            zip(case.variants, stats)):
        missing = med is None
        why = why_missing(case, v, tools)
        target = target_cell(case.targets.get(i), ratio,
                             missing or anchor_missing)
        seed = '(anchor)' if i == case.anchor else case.seed
        if missing:
            seed = 'MISSING: %s' % why
        cyc = hz / (med * 1e6) if med else None
        print('| %-6s | %-24s | %-22s | %8s | %9s | %-6s | %-17s | %6s '
              '| %-14s | %-14s | %s |' % (
                  case.bench, case.name, v.label, fmt(cyc, '%.1f'),
                  fmt(med), 'Mpps',
                  '-' if missing else '%.2f-%.2f' % (lo, hi),
                  fmt(ratio), anchor.label, target, seed))
        cmd = v.run()[0]('PREFIX') if v.tool in tools.bin else None
        rows.append(json_row(
            case, args, variant=v.label, unit='Mpps', value=med,
            cycles=cyc, min=lo, max=hi, ratio=ratio, anchor=anchor.label,
            target='' if target == '-' else target,
            seed='(anchor)' if i == case.anchor else case.seed,
            note=why if missing or v.errors else '', rounds=len(v.mpps),
            samples_mpps=v.mpps, samples_ratio=ratios, tool=v.tool,
            lcores=v.lcores, cmd=cmd,
            involves=[v.label, anchor.label] if i in case.targets
            else []))
    for d in case.derived:
        vals = derived_values(case, d)
        med = median(vals)
        missing = med is None
        target = target_cell(d.target, med, missing)
        ref = case.variants[d.den].label
        if d.num2 is not None:
            ref = '%s 2lc/1lc' % case.variants[d.num2].label.split()[0]
        lost = [case.variants[i] for i in d.involves()
                if median([x for x in case.variants[i].mpps
                           if x is not None]) is None]
        seed = case.seed if not lost else 'MISSING: %s: %s' % (
            lost[0].label, why_missing(case, lost[0], tools))
        print('| %-6s | %-24s | %-22s | %8s | %9s | %-6s | %-17s | %6s '
              '| %-14s | %-14s | %s |' % (
                  case.bench, case.name, d.label, '-', fmt(med), 'x',
                  '-' if missing else '%.2f-%.2f' % (min(vals), max(vals)),
                  fmt(med), ref, target, seed))
        rows.append(json_row(
            case, args, variant=d.label, unit='x', value=med, cycles=None,
            min=min(vals) if vals else None,
            max=max(vals) if vals else None, ratio=med, anchor=ref,
            target='' if target == '-' else target, seed=seed, note='',
            rounds=len(vals), samples_ratio=vals, tool='derived',
            involves=[case.variants[i].label for i in d.involves()]))
    for v in case.variants:
        for r, (ok, text) in enumerate(v.checks):
            print('  check %s / %s round %d: %s %s' % (
                case.name, v.label, r, text, 'PASS' if ok else 'MISS'))
        if v.checks:
            rows.append(json_row(
                case, args, variant=v.label + ' check', unit='check',
                value=None, target='PASS' if all(
                    ok for ok, _ in v.checks) else 'MISS',
                note='; '.join(t for _, t in v.checks), tool='check'))
    sys.stdout.flush()
    if json_fp:
        for row in rows:
            json_fp.write(json.dumps(row) + '\n')
        json_fp.flush()


# ----------------------------------------------------------------- plot

def plot(cases, out, png):
    series = {}   # (plot, kind) -> {size: (med, lo, hi)}
    kinds = {'npool-drop npool': 'npool', 'npool-drop mempool': 'mempool',
             'testpmd rxonly': 'anchor', 'npool-fwd npool cb0': 'npool',
             'npool-fwd mempool cb0': 'mempool', 'l3fwd-lpm': 'anchor'}
    for c in cases:
        # The sweep is of the first memory mode only.
        if not c.plot or c.mem != cases[0].mem:
            continue
        for v, (med, lo, hi, _, _) in zip(c.variants, summarize(c)):
            k = kinds.get(v.label)
            if k and med is not None:
                series.setdefault((c.plot, k), {})[c.size] = (med, lo, hi)
    if not series:
        return None
    dat = os.path.join(out, 'apps-mpps.dat')
    with open(dat, 'w') as f:
        f.write('# size drop_npool lo hi drop_mempool lo hi drop_testpmd lo'
                ' hi fwd_npool lo hi fwd_mempool lo hi fwd_l3fwd lo hi\n')
        for s in SWEEP_SIZES:
            cols = [str(s)]
            for p in ('drop', 'fwd'):
                for k in ('npool', 'mempool', 'anchor'):
                    v = series.get((p, k), {}).get(s)
                    cols += ['%.4f' % x for x in v] if v else ['NaN'] * 3
            f.write(' '.join(cols) + '\n')
    if shutil.which('gnuplot') is None:
        print('apps_bench: gnuplot not found: no plot (%s has the data)'
              % dat, file=sys.stderr)
        return None
    gp = os.path.join(out, 'apps-mpps.gp')
    with open(gp, 'w') as f:
        f.write('''set terminal pngcairo size 1400,560 font "sans,11" noenhanced
set output "%(png)s"
set multiplot layout 1,2 title "npool apps vs DPDK anchors, 1 forwarding lcore, %(mem)s (median, min-max over rounds)"
set logscale x 2
set xtics (64, 128, 256, 512, 1024, 1514)
set xrange [56:1750]
set yrange [0:*]
set grid
set key bottom left
set xlabel "frame size (bytes, no FCS)"
set ylabel "Mpps"
set style data yerrorlines
set title "drop: net_pcap infinite_rx (RX port ipackets)"
plot "%(dat)s" u ($1*0.97):2:3:4 t "npool-drop --pool npool" lw 2 pt 7, \\
     "" u 1:5:6:7 t "npool-drop --pool mempool (stock)" lw 2 pt 5, \\
     "" u ($1*1.03):8:9:10 t "dpdk-testpmd rxonly (anchor)" lw 2 pt 9 dt 2
set title "fwd: net_pcap infinite_rx -> net_null (TX port opackets)"
plot "%(dat)s" u ($1*0.97):11:12:13 t "npool-fwd --pool npool" lw 2 pt 7, \\
     "" u 1:14:15:16 t "npool-fwd --pool mempool (stock)" lw 2 pt 5, \\
     "" u ($1*1.03):17:18:19 t "l3fwd --lookup lpm (anchor)" lw 2 pt 9 dt 2
unset multiplot
''' % {'png': png, 'dat': dat, 'mem': MEM_LABEL[cases[0].mem]})
    r = subprocess.run(['gnuplot', gp], capture_output=True, text=True)
    if r.returncode != 0:
        print('apps_bench: gnuplot failed: %s' % r.stderr.strip(),
              file=sys.stderr)
        return None
    return png


# ----------------------------------------------------------------- main

def last_error(log):
    """': <the tool's first error line>' (a line starting with its name
    and a colon, e.g. "npool-fwd: --lookup: ..."), else ''."""
    try:
        with open(log) as f:
            lines = f.read().splitlines()
    except OSError:
        return ''
    tool = os.path.basename(lines[0].split()[0]) if lines else ''
    for l in lines[1:]:
        if tool and l.startswith(tool + ':'):
            return ': ' + l.strip()[:160]
    return ''


def loadavg():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def tsc_hz():
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('cpu MHz'):
                    return float(line.split(':')[1]) * 1e6
    except (OSError, ValueError):
        pass
    return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--drop', help='npool-drop binary')
    ap.add_argument('--fwd', help='npool-fwd binary')
    ap.add_argument('--out', required=True, help='output folder')
    ap.add_argument('--l3fwd-dir', required=True,
                    help='where to build l3fwd (a temp copy)')
    ap.add_argument('--pkg-config-path', default='',
                    help='libdpdk.pc folder for l3fwd (same -march)')
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--rounds', type=int)
    ap.add_argument('--warmup', type=float)
    ap.add_argument('--window', type=float)
    ap.add_argument('--only', default='drop fwd',
                    help='"drop", "fwd" or both')
    ap.add_argument('--json', help='append one JSON object per row')
    ap.add_argument('--no-header', action='store_true')
    ap.add_argument('--plot', action='store_true',
                    help='write OUT/apps-mpps.png')
    ap.add_argument('--mem', default='nohuge',
                    help='memory modes, first the main one: "huge nohuge",'
                    ' "huge" or "nohuge" (default)')
    ap.add_argument('--huge-dir', help='hugetlbfs mount for --mem huge')
    ap.add_argument('--case', help='only the cases whose name matches '
                    'this regular expression')
    ap.add_argument('--build-label',
                    help='a word that ends every case name (the build: '
                    '"native")')
    ap.add_argument('--show-cmds', action='store_true',
                    help='print the command of every variant and exit')
    args = ap.parse_args()
    for a in ('drop', 'fwd', 'out', 'l3fwd_dir', 'pkg_config_path'):
        if getattr(args, a):
            setattr(args, a, os.path.abspath(getattr(args, a)))
    quick = args.quick
    rounds = args.rounds or (2 if quick else 5)
    if args.warmup is None:
        args.warmup = 0.2 if quick else 0.5
    if args.window is None:
        args.window = 0.5 if quick else 1.0
    only = args.only.split()
    out = args.out
    logs = os.path.join(out, 'apps-logs')
    os.makedirs(logs, exist_ok=True)
    pcaps = pcap_files(os.path.join(out, 'pcap'), write_pcap, imix_sizes)
    tools = Tools(args)
    mems = args.mem.split()
    if 'huge' in mems and not args.huge_dir:
        ap.error('--mem huge needs --huge-dir')
    cases = make_cases(tools, pcaps, quick, only, mems, args.huge_dir)
    if args.case:
        cases = [c for c in cases if re.search(args.case, c.name)]
    if args.build_label:
        # The name only: callgrind (apps_callgrind.py) counts a missed
        # row on the baseline build, by its base case.
        for c in cases:
            c.name += ' ' + args.build_label
    if args.show_cmds:
        for c in cases:
            for v in c.variants:
                if v.tool in tools.bin:
                    print('%s / %s / %s:\n  %s' % (
                        c.bench, c.name, v.label,
                        ' '.join(v.run()[0]('npb_show'))))
        return 0

    load0 = loadavg()
    hz = tsc_hz()
    print('npool app benchmarks: %d rounds, warm-up %.1f s, window %.1f s;'
          ' memory %s; l3fwd %s; load %s' % (
              rounds, args.warmup, args.window,
              ' + '.join(MEM_LABEL[m] + (' (all cases)' if i == 0 and
                                         len(mems) > 1 else
                                         ' (cases with a target)' if i
                                         else '')
                         for i, m in enumerate(mems)),
              tools.l3fwd_march, load0))
    print('  lcores: 1 forwarding lcore on core 1 (npool apps, testpmd: main'
          ' lcore asleep on core 0; l3fwd -l 1); 2 lcores: npool apps and'
          ' testpmd --lcores 0@0,1@0,2@1 (main asleep beside lcore 1),'
          ' l3fwd -l 0-1 (its main lcore forwards)')
    used = {'drop': ('npool-drop', 'testpmd'), 'fwd': ('npool-fwd', 'l3fwd')}
    for t, why in sorted(tools.why.items()):
        if any(t in used.get(b, ()) for b in only):
            print('  MISSING %s: %s' % (t, why))
    print()
    if not args.no_header:
        print_header()
    sys.stdout.flush()
    json_fp = open(args.json, 'a') if args.json else None
    start = time.monotonic()
    run_no = 0
    for r in range(rounds):
        for c in cases:
            n = len(c.variants)
            for k in range(n):
                v = c.variants[(k + r) % n]
                if v.tool not in tools.bin:
                    v.mpps.append(None)
                    continue
                build, counters, stop = v.run()
                run_no += 1
                prefix = 'npb%d_%d' % (os.getpid(), run_no)
                tag = '%s_%s_%s_r%d' % (c.bench, c.name, v.label, r)
                log = os.path.join(logs, ''.join(
                    ch if ch.isalnum() else '_' for ch in tag) + '.log')
                try:
                    d, secs, status = measure(
                        build(prefix), prefix, counters, stop,
                        args.warmup, args.window, log,
                        v.sidecar() if v.sidecar else None)
                    mpps = d[counters[0]] / secs / 1e6
                    v.mpps.append(mpps)
                    if v.check:
                        v.checks.append(v.check(d, secs))
                    if v.tool.startswith('npool') and status != 0:
                        v.errors.append('round %d: exit status %d (%s)'
                                        % (r, status, log))
                    if len(counters) > 1 and d[counters[1]] and \
                            d[counters[0]] < 0.98 * d[counters[1]]:
                        v.errors.append('round %d: only %.1f%% of RX sent'
                                        % (r, 100.0 * d[counters[0]] /
                                           d[counters[1]]))
                except RunError as e:
                    v.mpps.append(None)
                    v.errors.append('round %d: %s%s (%s)' % (
                        r, e, last_error(log), log))
    for c in cases:
        emit(c, args, tools, hz, json_fp)
    if json_fp:
        json_fp.close()
    errors = [(c, v) for c in cases for v in c.variants if v.errors]
    print()
    print('Mpps: packets counted by the port (DPDK telemetry /ethdev/stats:'
          ' drop = RX port ipackets, fwd = TX port opackets) over a %.1f s'
          ' window after a %.1f s warm-up, the same for every tool;' % (
              args.window, args.warmup))
    print('  value = median over %d rounds (variants alternate within each'
          ' round), ratio = median of per-round Mpps / anchor Mpps (higher'
          ' = faster); cyc/op = CPU cycles per packet at %.0f MHz.' % (
              rounds, hz / 1e6))
    print('  net_pcap infinite_rx copies each frame from its ring into a'
          ' new mbuf (driver cost paid by every tool); l3fwd runs with'
          ' --parse-ptype (vdevs set no packet type) and RX offloads'
          ' masked; npool-fwd checks the IPv4 checksum in software.')
    print('  load average %s at the start, %s at the end; %.0f s.' % (
        load0, loadavg(), time.monotonic() - start))
    for c, v in errors:
        for e in v.errors[:3]:
            print('  note: %s / %s / %s: %s' % (c.bench, c.name, v.label, e))
    if args.plot:
        png = plot(cases, out, os.path.join(out, 'apps-mpps.png'))
        if png:
            print('  plot: %s' % png)
    return 0


if __name__ == '__main__':
    sys.exit(main())
