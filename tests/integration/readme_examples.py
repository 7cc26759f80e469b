#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The README's no-NIC examples run as written and print what the README
says they print (a newcomer found one that exited 2 and no test ran it).

Each example is the README's own text: the shell lines after a marker
comment up to the end of its ```sh block, run by bash in a scratch folder
that sees the tree's tests/ (commands start "from the top of the clone"),
with the apps on PATH and a unique --file-prefix / --no-shconf added to
each app's EAL arguments so that runs in parallel do not meet.

  readme_examples.py --readme README.md --build build
Exit 0 pass, 1 fail.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
import pcaplib  # noqa: E402

APPS = ('npool-fwd', 'npool-drop', 'npool-gen')


def sh_blocks(text):
    return re.findall(r'^```sh\n(.*?)^```', text, re.S | re.M)


def example(text, marker):
    """The lines of the sh block holding `marker`, after it."""
    for block in sh_blocks(text):
        if marker in block:
            return block[block.index(marker):].split('\n', 1)[1]
    return None


def isolate(script, work):
    """Each app gets its own EAL runtime: --no-shconf --file-prefix."""
    def add(m):
        return '%s --no-shconf --file-prefix %s' % (m.group(1),
                                                      work.new_prefix())
    return re.sub(r'^(\s*(?:%s))\b' % '|'.join(APPS), add, script,
                  flags=re.M)


def run(script, work, build, root):
    os.symlink(os.path.join(root, 'tests'), work.file('tests'))
    env = dict(os.environ)
    env['PATH'] = ':'.join(os.path.join(build, 'apps', a)
                           for a in ('fwd', 'drop', 'gen')) + ':' + \
        env.get('PATH', '')
    p = subprocess.run(['bash', '-euo', 'pipefail', '-c', script],
                       cwd=work.path, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120 *
                       harness.TIMEOUT_MULTIPLIER)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), \
        p.stderr.decode('utf-8', 'replace')


def check_fwd_capture(text, work, build, root):
    """# no NICs: replay a capture ... : forwarded 264, leak check OK."""
    script = example(text, '# no NICs: replay a capture')
    if script is None:
        return ['README: no "# no NICs: replay a capture" example']
    rc, out, err = run(isolate(script, work), work, build, root)
    probs = []
    if rc != 0:
        return ['the example exited %d:\n%s' % (rc, err[-800:])]
    js = harness.load_json(work.file('result.json'))
    ports = {p.get('port'): p for p in js.get('ports', [])}
    fwd0 = ports.get(0, {}).get('forwarded')
    tx1 = ports.get(1, {}).get('eth', {}).get('opackets')
    if fwd0 != 264 or tx1 != 264:
        probs.append('port 0 forwarded %r, port 1 sent %r: the README says '
                     '264 and 264' % (fwd0, tx1))
    if 'leak check: OK' not in out:
        probs.append('no "leak check: OK" in the output')
    if not re.search(r'^forwarded\s+264\b', out, re.M):
        probs.append('the table has no "forwarded 264" row')
    try:
        recs = pcaplib.read(work.file('out1.pcap')).records
        ins = pcaplib.read(os.path.join(
            root, 'tests', 'data', 'captures', 'mptcp-v0.pcap')).records
    except (OSError, pcaplib.PcapError) as e:
        return probs + ['out1.pcap: %s' % e]
    if len(recs) != 264 or any(o.data[22] != i.data[22] - 1
                               for o, i in zip(recs, ins)):
        probs.append('out1.pcap: %d packets, want the 264 inputs with TTL '
                     '- 1' % len(recs))
    return probs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--readme', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    harness.require_app(os.path.join(a.build, 'apps', 'fwd', 'npool-fwd'),
                        'npool-fwd')
    with open(a.readme) as f:
        text = f.read()
    root = os.path.dirname(os.path.abspath(a.readme))
    return harness.run_cases(
        ['fwd-capture'], 'readme',
        lambda name, work: check_fwd_capture(text, work, a.build, root),
        a.keep)


if __name__ == '__main__':
    sys.exit(main())
