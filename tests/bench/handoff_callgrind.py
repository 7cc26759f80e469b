#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Instructions and atomic operations a packet of the hand-off bench
(tests/bench/bench_handoff.c), counted by callgrind: exact on a busy
machine, where its packets/s are not.

For each case, npool-bench-handoff runs once more under valgrind
--tool=callgrind --collect-bus=yes with --instr --quick --only CASE
--no-huge, collecting only inside the functions that make the packets
(ho_cg_make_v<i>, on the lcore that allocates) and free them
(ho_cg_free_v<i>, on the worker lcores, or the same lcore for the one-lcore
variants) of each variant i; the program names them on stderr with the
packets they handled ("handoff-instr: i|bench|case|variant|packets").
Instructions a packet = inclusive Ir of the pair / packets; atomic
operations a packet = their inclusive Ge (callgrind's "global bus events":
the LOCK-prefixed and other atomic read-modify-write instructions, each an
IR compare-and-swap to valgrind) / packets. The rings' enqueue and dequeue
are outside both functions, the same for every variant. Needs a build
without -march=native (valgrind decodes no AVX-512).

  handoff_callgrind.py --prog BUILD/tests/bench/npool-bench-handoff
                       [--case CASE]... [--json ROWS] [--work DIR]
      prints one table; with --json, appends one JSON line per variant
      and figure (bench "handoff", units instr/pkt and atomics/pkt) to
      ROWS, as the bench programs do
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from alloc_callgrind import run_case  # noqa: E402

CASES = ['pkt 64B 1w', 'pkt 1500B 1w', 'rx 64B 1w', 'rx 1500B 1w',
         'cb 64B 1w', 'pkt 64B 2w', 'pkt 1500B 2w', 'rx 64B 2w',
         'rx 1500B 2w', 'cb 64B 2w', 'pkt 1500B work 1w']


def inclusive(outfile):
    """{function: (Ir, Ge)} of the ho_cg_* functions."""
    p = subprocess.run(['callgrind_annotate', '--inclusive=yes', outfile],
                       capture_output=True, text=True, check=True)
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r'\s*([\d,]+)\s+\([^)]*\)\s+(?:([\d,]+)\s+\([^)]*\)|'
                     r'\.)\s.*:(ho_cg_(?:make|free)_v\d+)\b', line)
        if m:
            ge = int(m.group(2).replace(',', '')) if m.group(2) else 0
            res[m.group(3)] = (int(m.group(1).replace(',', '')), ge)
    return res


def count_case(prog, case, work):
    """[{variant, packets, make/free Ir and Ge}] of @case, or raise
    RuntimeError."""
    out, stderr = run_case(prog, case, work, 'ho_cg_*',
                           ['--collect-bus=yes'])
    slots = []
    for line in stderr.splitlines():
        if line.startswith('handoff-instr: '):
            slot, _, cname, variant, pkts = line[15:].split('|')
            slots.append((int(slot), cname, variant, int(pkts)))
    if not slots or any(s[1] != case for s in slots):
        raise RuntimeError('--only %r selects %s' % (
            case, sorted({s[1] for s in slots}) or 'nothing'))
    cg = inclusive(out)
    res = []
    for slot, _, variant, pkts in slots:
        mk = cg.get('ho_cg_make_v%d' % slot, (0, 0))
        fr = cg.get('ho_cg_free_v%d' % slot, (0, 0))
        res.append({'variant': variant, 'packets': pkts,
                    'make_ir': mk[0] / pkts, 'free_ir': fr[0] / pkts,
                    'make_ge': mk[1] / pkts, 'free_ge': fr[1] / pkts})
    return res


def row(case, variant, what, value, unit, ratio, anchor):
    return {'bench': 'handoff', 'case': case, 'variant': variant + ' ' +
            what, 'unit': unit, 'value': round(value, 4), 'cycles': 0,
            'min': value, 'max': value, 'ratio': round(ratio, 4),
            'anchor': anchor, 'target': '', 'seed': 'callgrind',
            'note': '', 'mem': 'no-huge', 'rounds': 1,
            'ops_per_round': 0, 'tsc_hz': 0, 'samples_ns': []}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--prog', required=True)
    ap.add_argument('--case', action='append')
    ap.add_argument('--json')
    ap.add_argument('--work')
    a = ap.parse_args()
    if shutil.which('valgrind') is None or \
            shutil.which('callgrind_annotate') is None:
        print('handoff_callgrind: valgrind not found (scripts/deps.sh '
              'bench)', file=sys.stderr)
        return 1
    work = os.path.abspath(a.work or os.path.join(
        os.path.dirname(os.path.abspath(a.json or a.prog)),
        'callgrind-handoff'))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rows = []
    print('Hand-off, a packet (callgrind, --no-huge, DPDK baseline -march;'
          ' make = the allocating lcore, free = the freeing one):')
    print('| case | variant | instr | make | free | atomics | make | free '
          '|')
    print('|---|---|--:|--:|--:|--:|--:|--:|')
    failed = 0
    for i, case in enumerate(a.case or CASES):
        d = os.path.join(work, 'run%d' % i)
        os.makedirs(d)
        try:
            res = count_case(os.path.abspath(a.prog), case, d)
        except (RuntimeError, OSError, ValueError,
                subprocess.CalledProcessError) as e:
            print('| %s | callgrind: %s | | | | | | |' % (case, e))
            failed += 1
            continue
        anchor = next((r for r in res if r['variant'] == 'stock handoff'),
                      res[0])
        for r in res:
            ir = r['make_ir'] + r['free_ir']
            ge = r['make_ge'] + r['free_ge']
            print('| %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f | %.3f |' % (
                case, r['variant'], ir, r['make_ir'], r['free_ir'], ge,
                r['make_ge'], r['free_ge']))
            air = anchor['make_ir'] + anchor['free_ir']
            age = anchor['make_ge'] + anchor['free_ge']
            rows.append(row(case, r['variant'], 'instr', ir, 'instr/pkt',
                            ir / air if air else 0, anchor['variant']))
            rows.append(row(case, r['variant'], 'atomics', ge,
                            'atomics/pkt', ge / age if age else 0,
                            anchor['variant']))
    if a.json:
        with open(a.json, 'a') as f:
            for r in rows:
                f.write(json.dumps(r) + '\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
