#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Instructions per operation of the allocator cases whose target was
missed (scripts/bench.sh in full mode, beside apps_callgrind.py).

For every allocator row of ROWS (the bench programs' JSON lines) whose
target is MISS and whose unit is ns/op, its program runs that case once
more under valgrind --tool=callgrind with --instr --quick --only CASE
--no-huge, built without -march=native (valgrind decodes no AVX-512).
--instr calls each variant through a function of its own,
bench_instr_v<i>, and names it on stderr; callgrind collects only inside
those functions (--collect-atstart=no --toggle-collect), so the
inclusive Ir of bench_instr_v<i> over the ops it ran is the variant's
instructions per op, set-up and warm-up left out. Every variant of the
case is counted: npool's and the anchor side by side.

  alloc_callgrind.py --rows ROWS --build BUILD --out OUT.json
      runs, prints the counts, writes OUT.json in apps_callgrind.py's
      shape (apps_callgrind.py --show OUT.json --targets ... prints it
      beside the target list)
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apps_callgrind import missed_rows  # noqa: E402


def alloc_row(r):
    """An allocator timing row (not a metric, not an app's)."""
    return r.get('bench') not in ('drop', 'fwd') and \
        r.get('unit') == 'ns/op'


def inclusive(outfile):
    """{function: inclusive Ir} of the bench_instr_v* functions."""
    p = subprocess.run(['callgrind_annotate', '--inclusive=yes', outfile],
                       capture_output=True, text=True, check=True)
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r'\s*([\d,]+)\s.*:(bench_instr_v\d+)\b', line)
        if m:
            res[m.group(2)] = int(m.group(1).replace(',', ''))
    return res


def run_case(prog, case, work, toggle, cg_opts=()):
    """Run case @case of bench program @prog once under callgrind,
    collecting only in the functions @toggle names, in folder @work (its
    run.log has the command and stderr): (callgrind output file, stderr),
    or raise RuntimeError."""
    out = os.path.join(work, 'cg.out')
    cmd = ['valgrind', '--tool=callgrind', '--collect-atstart=no',
           '--toggle-collect=' + toggle, '--callgrind-out-file=' + out] + \
        list(cg_opts) + \
        [prog, '--no-huge', '--instr', '--quick', '--only', case]
    with open(os.path.join(work, 'run.log'), 'w') as log:
        log.write(' '.join(cmd) + '\n')
        log.flush()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        log.write(p.stderr)
    if p.returncode != 0:
        raise RuntimeError('exit %d (%s)' % (p.returncode, work))
    return out, p.stderr


def count_case(prog, case, work):
    """[(variant, Ir per op, ops)] of every variant of @case, or raise
    RuntimeError."""
    out, stderr = run_case(prog, case, work, 'bench_instr_v*')
    slots = []
    for line in stderr.splitlines():
        if line.startswith('bench-instr: '):
            fn, _, cname, variant, ops = line[13:].split('|')
            slots.append((fn, cname, variant, float(ops)))
    if len({s[1] for s in slots}) != 1 or slots[0][1] != case:
        raise RuntimeError('--only %r selects %s' % (
            case, sorted({s[1] for s in slots}) or 'nothing'))
    irs = inclusive(out)
    return [(v, irs[fn] / ops if fn in irs else None, ops)
            for fn, _, v, ops in slots]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rows', required=True)
    ap.add_argument('--build', required=True,
                    help='build folder of tests/bench (no -march=native)')
    ap.add_argument('--out', required=True)
    ap.add_argument('--work', default=None)
    a = ap.parse_args()
    if shutil.which('valgrind') is None or \
            shutil.which('callgrind_annotate') is None:
        print('alloc_callgrind: valgrind not found (scripts/deps.sh bench)',
              file=sys.stderr)
        return 1
    work = os.path.abspath(a.work or os.path.join(
        os.path.dirname(os.path.abspath(a.out)), 'callgrind-alloc'))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    counted, res = {}, {}
    print('Missed allocator targets, instructions per op (callgrind,'
          ' --no-huge, DPDK baseline -march; Ir inside the variant / ops):')
    for r in missed_rows(a.rows, alloc_row):
        key = '%s|%s|%s' % (r['bench'], r['case'], r['variant'])
        ck = (r['bench'], r['case'])
        if ck not in counted:
            d = os.path.join(work, 'run%d' % len(counted))
            os.makedirs(d)
            prog = os.path.join(os.path.abspath(a.build), 'tests', 'bench',
                                'npool-bench-%s' % r['bench'])
            try:
                counted[ck] = [{'variant': v, 'ir_per_pkt': ipo,
                                'packets': ops, 'unit': 'op'}
                               for v, ipo, ops in count_case(prog, r['case'],
                                                             d)]
            except (RuntimeError, OSError, ValueError,
                    subprocess.CalledProcessError) as e:
                counted[ck] = [{'variant': r['variant'],
                                'error': 'callgrind: %s' % e}]
        # The missed variant first, then the others of its case.
        vs = counted[ck]
        res[key] = sorted(vs, key=lambda v: v['variant'] != r['variant'])
        print('  %s:' % key.replace('|', ' / '))
        for v in res[key]:
            if v.get('ir_per_pkt') is None:
                print('    %-26s %s' % (v['variant'], v.get('error', '?')))
            else:
                print('    %-26s %7.1f instr/op' % (v['variant'],
                                                    v['ir_per_pkt']))
    with open(a.out, 'w') as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
