#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The performance table of one `make bench` run, from its results.json.

docs/perf/ keeps one file per CPU model measured (docs/perf/amd-epyc.md).
This prints the block for the run's CPU model (markdown: a heading line
with the CPU, commit, memory, load; every row, hugepages and --no-huge
side by side; the instruction counts of the missed targets), between
markers naming the CPU model, so that a later run on the same model
replaces it:

  scripts/bench-readme.py [build-bench/bench/results.json]
      print the block
  scripts/bench-readme.py --perf-dir docs/perf [results.json]
      write it into DIR/<cpu-model>.md (the model in lower case, each run
      of other characters a '-': "AMD EPYC" -> amd-epyc.md), replacing
      the block of this CPU model, or create the file (scripts/bench.sh
      does this after a full run)
  scripts/bench-readme.py --update FILE.md [results.json]
      replace the block of this CPU model in FILE.md, or insert it
      before the line "<!-- bench-tables -->" when there is none yet

Exit 2 on a bad command line or a results.json that is not one.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tests', 'bench'))
from miss_reasons import instr_list, reason  # noqa: E402

END = '<!-- /bench-table -->'
INSERT = '<!-- bench-tables -->'


def begin_marker(model):
    return '<!-- bench-table: %s -->' % model


def fmt(x, unit=''):
    if x is None:
        return '–'
    if unit == 'x':
        return '%.2f×' % x
    if abs(x) >= 100:
        return '%.1f' % x
    return '%.2f' % x


def cell(r):
    """value unit, ratio, target of one row."""
    if r is None:
        return ['', '', '']
    unit = r.get('unit', '')
    val = fmt(r.get('value'), unit)
    if unit and unit != 'x' and r.get('value') is not None:
        val += ' ' + unit
    tgt = r.get('target') or ''
    if tgt:
        word = tgt.split()[0]
        tgt = '**%s** %s' % (word, tgt[len(word):].strip())
    return [val, fmt(r.get('ratio')), tgt]


def missed(out, rows):
    """A line per missed target: where it missed, the instruction counts
    (callgrind) and why (tests/bench/miss_reasons.py)."""
    order, by = [], {}
    for r in rows:
        if not (r.get('target') or '').startswith('MISS'):
            continue
        key = (r['bench'], r.get('case_base', r['case']), r['variant'])
        if key not in by:
            order.append(key)
            by[key] = []
        by[key].append(r)
    if not order:
        return
    out.append('')
    out.append('Missed targets: where, instructions a packet or an op '
               '(callgrind: apps, Ir of the forwarding lcores over a '
               'window / packets; allocator, Ir inside the variant / ops) '
               'and why:')
    for key in order:
        rs = by[key]
        where = ', '.join('%s %s' % (r.get('mem', 'no-huge'), r['target'])
                          for r in rs)
        line = '- %s / %s / %s (%s)' % (key[0], key[1], key[2], where)
        cg = next((r['callgrind'] for r in rs if r.get('callgrind')), None)
        if cg:
            line += '; instructions: ' + instr_list(cg)
        why = reason(*key)
        if why:
            line += '. Why: ' + why
        out.append(line)


def block(doc):
    meta, rows = doc['meta'], doc['results']
    cpu = meta.get('cpu')
    if not isinstance(cpu, dict):   # results.json of an older bench.sh
        cpu = {'model': cpu or '?', 'vendor': '', 'mhz': '', 'cpus': ''}
    model = cpu.get('model') or '?'
    out = [begin_marker(model)]
    out.append('**%s** (%s, %s MHz, %s CPUs), commit %s: `%smake bench`, '
               '%s s, %s; memory %s; kernel %s, DPDK %s, build %s; load '
               'average %s at the start, %s at the end.' % (
                   model, cpu.get('vendor') or '?', cpu.get('mhz') or '?',
                   cpu.get('cpus') or '?', meta.get('git', '?'),
                   'QUICK=1 ' if meta.get('quick') else '',
                   meta.get('seconds', '?'), meta.get('date', '?'),
                   meta.get('memory', meta.get('memory_mode', '?')),
                   meta.get('kernel', '?'), meta.get('dpdk', '?'),
                   meta.get('build', '?'), meta.get('loadavg_at_start', '?'),
                   meta.get('loadavg_at_end', '?')))
    out.append('')
    # One line per (bench, case, variant); hugepages and --no-huge beside.
    order, by = [], {}
    for r in rows:
        key = (r['bench'], r.get('case_base', r['case']), r['variant'])
        if key not in by:
            order.append(key)
            by[key] = {}
        by[key][r.get('mem', 'no-huge')] = r
    out.append('| bench | case | variant | hugepages | ratio | target | '
               '--no-huge | ratio | target | anchor |')
    out.append('|---|---|---|--:|--:|---|--:|--:|---|---|')
    for key in order:
        m = by[key]
        anchor = next(r.get('anchor', '') for r in m.values())
        out.append('| %s | %s | %s | %s | %s | %s |' % (
            key[0], key[1], key[2].replace('|', '/'),
            ' | '.join(cell(m.get('hugepages'))),
            ' | '.join(cell(m.get('no-huge'))), anchor))
    missed(out, rows)
    if doc.get('budget'):
        # apps_budget.py's table (issue 17): instructions per packet per
        # stage, npool-fwd and l3fwd side by side.
        out.append('')
        out.append('```')
        out.extend(doc['budget'].rstrip('\n').split('\n'))
        out.append('```')
    out.append(END)
    return model, '\n'.join(out) + '\n'


def perf_name(model):
    """The file name of a CPU model: "AMD EPYC" -> amd-epyc.md."""
    return (re.sub(r'[^a-z0-9]+', '-', model.lower()).strip('-') or
            'unknown') + '.md'


def perf_file(folder, model, text):
    """Write the block into folder/<model>.md; returns the path."""
    path = os.path.join(folder, perf_name(model))
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
        if begin_marker(model) in old or INSERT in old:
            update(path, model, text)
        else:
            with open(path, 'a') as f:
                f.write('\n' + text)
        return path
    os.makedirs(folder, exist_ok=True)
    with open(path, 'w') as f:
        f.write('# Performance: %s\n\nMethod, anchors and targets: '
                '[methodology.md](methodology.md). The table between the '
                '`bench-table`\nmarkers is written by '
                '`scripts/bench-readme.py --perf-dir docs/perf` after a '
                'full\n`make bench`.\n\n%s' % (model, text))
    return path


def update(readme, model, text):
    with open(readme) as f:
        old = f.read()
    begin = begin_marker(model)
    if begin in old:
        a = old.index(begin)
        b = old.index(END, a) + len(END)
        if old[b:b + 1] == '\n':
            b += 1
        new = old[:a] + text + old[b:]
    elif INSERT in old:
        a = old.index(INSERT)
        new = old[:a] + text + '\n' + old[a:]
    else:
        sys.exit('bench-readme: %s has neither a block for "%s" nor the '
                 'line %s' % (readme, model, INSERT))
    with open(readme, 'w') as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('results', nargs='?',
                    default='build-bench/bench/results.json')
    ap.add_argument('--update', metavar='FILE',
                    help='replace or insert the block in this file')
    ap.add_argument('--perf-dir', metavar='DIR',
                    help='write the block into DIR/<cpu-model>.md')
    a = ap.parse_args()
    try:
        with open(a.results) as f:
            doc = json.load(f)
        model, text = block(doc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print('bench-readme: %s: %s' % (a.results, e), file=sys.stderr)
        return 2
    if a.perf_dir:
        path = perf_file(a.perf_dir, model, text)
        print('bench-readme: %s: table of "%s" updated' % (path, model))
    elif a.update:
        update(a.update, model, text)
        print('bench-readme: %s: table of "%s" updated' % (a.update, model))
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
