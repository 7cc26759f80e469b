#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The integration tests' harness sees a sanitizer finding in an app it
runs: canary_test --bug NAME commits one deliberate bug in the process
that tests/integration/lib/harness.py starts, with the environment meson test
gives the python tests (the sanitizer runtime options must reach their
children); run() must raise SanitizerFinding naming the report, after the
app died by SIGABRT. A control run of an unknown bug (exit 2, no report)
must come back as a plain result.

  harness_check.py --canary build/tests/sanitizers/canary_test \\
      --bug heap-overflow|signed-overflow|data-race
Exit 0 pass, 1 fail.
"""

import argparse
import os
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration', 'lib'))

import harness  # noqa: E402

# The first line of each bug's report.
FIRST_LINE = {
    'heap-overflow': 'ERROR: AddressSanitizer: heap-buffer-overflow',
    'signed-overflow': 'runtime error: signed integer overflow',
    'data-race': 'WARNING: ThreadSanitizer: data race',
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--canary', required=True)
    ap.add_argument('--bug', required=True, choices=sorted(FIRST_LINE))
    a = ap.parse_args()
    probs = []
    try:
        res = harness.run([a.canary, '--bug', a.bug], timeout=60)
        probs.append('no SanitizerFinding: %s\n%s'
                     % (res.describe(), res.tail()))
    except harness.SanitizerFinding as e:
        if FIRST_LINE[a.bug] not in str(e):
            probs.append('SanitizerFinding %r lacks %r'
                         % (str(e), FIRST_LINE[a.bug]))
    # The same run, straight: died by SIGABRT (abort_on_error=1 reached
    # the child), and the report is what check_sanitizers() found.
    proc = subprocess.run([a.canary, '--bug', a.bug], capture_output=True,
                          timeout=60 * harness.TIMEOUT_MULTIPLIER)
    if proc.returncode != -signal.SIGABRT:
        probs.append('canary --bug %s: status %d, not SIGABRT'
                     % (a.bug, proc.returncode))
    rep = harness.sanitizer_reports(proc.stderr.decode('utf-8', 'replace'))
    if not rep.splitlines() or 'SUMMARY: ' not in rep.splitlines()[-1]:
        probs.append('report not cut at its SUMMARY line:\n' + rep)
    res = harness.run([a.canary, '--bug', 'no-such-bug'], timeout=60)
    if res.rc != 2:
        probs.append('control run: %s, expected exit status 2'
                     % res.describe())
    for p in probs:
        harness.log('  - ' + p)
    harness.log('FAIL' if probs else 'PASS')
    return 1 if probs else 0


if __name__ == '__main__':
    sys.exit(main())
