#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""After a failed `meson test`: each test that did not pass, by name,
with the last lines of its output, as the last lines of the log (the part
a CI log keeps), and the slowest tests of the run.

  test-tail.py BUILD_DIR [--lines N] [--slowest K]
Exit 0 (it only reports).
"""

import argparse
import json
import os
import sys

BAD = ('FAIL', 'TIMEOUT', 'UNEXPECTEDPASS', 'ERROR')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build')
    ap.add_argument('--lines', type=int, default=15)
    ap.add_argument('--slowest', type=int, default=0)
    a = ap.parse_args()
    path = os.path.join(a.build, 'meson-logs', 'testlog.json')
    try:
        with open(path) as f:
            runs = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        print('test-tail: no test log %s: %s' % (path, e))
        return 0
    if a.slowest:
        print('slowest tests:')
        for r in sorted(runs, key=lambda r: -r['duration'])[:a.slowest]:
            print('  %6.1f s  %s' % (r['duration'], r['name']))
    bad = [r for r in runs if r['result'] in BAD]
    for r in bad:
        out = (r.get('stdout') or '').rstrip().splitlines()
        print('---- %s: %s (exit %s) after %.1f s, last %d lines:'
              % (r['name'], r['result'], r['returncode'], r['duration'],
                 min(a.lines, len(out))))
        for line in out[-a.lines:]:
            print('   | ' + line)
    if bad:
        print('failed: ' + ' '.join(r['name'] for r in bad))
    return 0


if __name__ == '__main__':
    sys.exit(main())
