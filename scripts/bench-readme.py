#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The README's table of one `make bench` run, from its results.json.

README.md's Performance section keeps one table per CPU model measured.
This prints the block for the run's CPU model (markdown: a heading line
with the CPU, commit, memory, load; every row, hugepages and --no-huge
side by side; the instruction counts of the missed targets), between
markers naming the CPU model, so that a later run on the same model
replaces it:

  scripts/bench-readme.py [build-bench/bench/results.json]
      print the block
  scripts/bench-readme.py --update README.md [results.json]
      replace the block of this CPU model in README.md, or insert it
      before the line "<!-- bench-tables -->" when there is none yet

Exit 2 on a bad command line or a results.json that is not one.
"""

import argparse
import json
import sys

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
    cg = [r for r in rows if r.get('callgrind')]
    if cg:
        out.append('')
        out.append('Missed targets, instructions per packet (callgrind, '
                   'Ir of the busiest thread over a window / packets):')
        for r in cg:
            out.append('- %s / %s / %s: %s' % (
                r['bench'], r['case'], r['variant'],
                ', '.join('%s %.0f' % (v['variant'], v['ir_per_pkt'])
                          if v.get('ir_per_pkt') is not None else
                          '%s: %s' % (v['variant'], v.get('error', '?'))
                          for v in r['callgrind'])))
    out.append(END)
    return model, '\n'.join(out) + '\n'


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
    ap.add_argument('--update', metavar='README',
                    help='replace or insert the block in this file')
    a = ap.parse_args()
    try:
        with open(a.results) as f:
            doc = json.load(f)
        model, text = block(doc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print('bench-readme: %s: %s' % (a.results, e), file=sys.stderr)
        return 2
    if a.update:
        update(a.update, model, text)
        print('bench-readme: %s: table of "%s" updated' % (a.update, model))
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
