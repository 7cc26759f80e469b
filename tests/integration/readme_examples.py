#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The no-NIC examples of the README and of docs/ run as written and print
what the docs say they print (a newcomer found one that exited 2 and no
test ran it).

An example is a ```sh block holding a line that starts with "# no NICs":
the shell lines from the first such line to the end of the block, run by
bash in a scratch folder that sees the tree's tests/ (commands start "from
the top of the clone"), with the apps on PATH and a unique --file-prefix /
--no-shconf added to each app's EAL arguments so that runs in parallel do
not meet. Blocks without the marker need a NIC, root or hugepages and are
not run. Every example must exit 0 and end with a clean leak check; the
capture replay ("# no NICs: replay a capture") is also checked packet by
packet. The README must hold that one. A testpmd example ("# no NICs:
testpmd", docs/drop-in.md) is checked by what testpmd prints: the "npool"
ops selected, 264 packets in on port 0 and out on port 1, out1.pcap equal
to the capture; the scratch folder also sees the build as build/.

  readme_examples.py --readme README.md [--docs docs] --build build
Exit 0 pass, 1 fail.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import harness  # noqa: E402
import pcaplib  # noqa: E402

APPS = ('npool-fwd', 'npool-drop', 'npool-gen', 'dpdk-testpmd')


def sh_blocks(text):
    return re.findall(r'^```sh\n(.*?)^```', text, re.S | re.M)


MARKER = '# no NICs'
CAPTURE = '# no NICs: replay a capture'
TESTPMD = '# no NICs: testpmd'
PLUGIN = 'build/librte_mempool_npool.so'


def example(text, marker):
    """The lines of the sh block holding `marker`, after it."""
    for block in sh_blocks(text):
        if marker in block:
            return block[block.index(marker):].split('\n', 1)[1]
    return None


def examples(text):
    """Each runnable example of a markdown text: (line number, script)."""
    out = []
    for m in re.finditer(r'^```sh\n(.*?)^```', text, re.S | re.M):
        block = m.group(1)
        at = re.search(r'^%s' % re.escape(MARKER), block, re.M)
        if at is None:
            continue
        line = text.count('\n', 0, m.start(1) + at.start()) + 1
        out.append((line, block[at.start():]))
    return out


def doc_files(readme, docs):
    files = [readme]
    if docs:
        for top, dirs, names in os.walk(docs):
            dirs.sort()
            files += [os.path.join(top, n) for n in sorted(names)
                      if n.endswith('.md')]
    return files


def isolate(script, work):
    """Each app gets its own EAL runtime: --no-shconf --file-prefix."""
    def add(m):
        return '%s --no-shconf --file-prefix %s' % (m.group(1),
                                                      work.new_prefix())
    return re.sub(r'^(\s*(?:%s))\b' % '|'.join(APPS), add, script,
                  flags=re.M)


def run(script, work, build, root):
    os.symlink(os.path.join(root, 'tests'), work.file('tests'))
    os.symlink(build, work.file('build'))
    plugin_dir = None
    if PLUGIN in script:
        # EAL refuses build/'s plugin when the clone is under /tmp:
        # the same file, from a folder it accepts.
        plugin_dir, plugin = harness.plugin_copy(build)
        script = script.replace(PLUGIN, plugin)
    try:
        return run_script(script, work, build)
    finally:
        if plugin_dir is not None:
            shutil.rmtree(plugin_dir, ignore_errors=True)


def run_script(script, work, build):
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


def check_example(script, work, build, root):
    """Exit 0 and a clean leak check; the capture replay in detail."""
    rc, out, err = run(isolate(script, work), work, build, root)
    if rc != 0:
        return ['the example exited %d:\n%s' % (rc, err[-800:])]
    if CAPTURE in script:
        return check_fwd_capture(rc, out, err, work, root)
    if TESTPMD in script:
        return check_testpmd(out + err, work, root)
    if 'leak check: OK' not in out:
        return ['no "leak check: OK" in the output']
    return []


def check_testpmd(text, work, root):
    """# no NICs: testpmd ... : npool ops, 264 in and out, out1.pcap."""
    probs = []
    if 'preferred mempool ops selected: npool' not in text:
        probs.append('testpmd did not select the "npool" ops')
    stats = {int(p): (int(rx), int(tx)) for p, rx, tx in re.findall(
        r'Forward statistics for port (\d+)\s+-+\n\s+RX-packets:\s+(\d+)'
        r'.*?\n\s+TX-packets:\s+(\d+)', text)}
    if stats.get(0, (0, 0))[0] != 264 or stats.get(1, (0, 0))[1] != 264:
        probs.append('port stats %r: the page says 264 in on port 0, 264 '
                     'out on port 1' % stats)
    try:
        outs = [r.data for r in pcaplib.read(work.file('out1.pcap')).records]
        ins = [r.data for r in pcaplib.read(os.path.join(
            root, 'tests', 'data', 'captures', 'mptcp-v0.pcap')).records]
    except (OSError, pcaplib.PcapError) as e:
        return probs + ['out1.pcap: %s' % e]
    if outs != ins:
        probs.append('out1.pcap: %d packets, want the 264 inputs unchanged'
                     % len(outs))
    return probs


def check_fwd_capture(rc, out, err, work, root):
    """# no NICs: replay a capture ... : forwarded 264, leak check OK."""
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
    ap.add_argument('--docs', help='a folder of markdown files')
    ap.add_argument('--build', required=True)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    harness.require_app(os.path.join(a.build, 'apps', 'fwd', 'npool-fwd'),
                        'npool-fwd')
    root = os.path.dirname(os.path.abspath(a.readme))
    cases = {}
    for path in doc_files(a.readme, a.docs):
        with open(path) as f:
            text = f.read()
        rel = os.path.relpath(path, root)
        if path == a.readme and example(text, CAPTURE) is None:
            print('README: no "%s" example' % CAPTURE)
            return 1
        for line, script in examples(text):
            name = '%s-%d' % (re.sub(r'[^A-Za-z0-9_.-]', '-', rel), line)
            if PLUGIN in script and harness.sanitized(
                    os.path.join(a.build, 'librte_mempool_npool.so')):
                # DPDK's own tools cannot load a sanitizer build's plugin
                # (it needs the runtime loaded first).
                print('SKIP %s: a sanitizer build\'s plugin in '
                      'dpdk-testpmd' % name)
                continue
            cases[name] = script
    return harness.run_cases(
        list(cases), 'readme',
        lambda name, work: check_example(cases[name], work, a.build, root),
        a.keep)

if __name__ == '__main__':
    sys.exit(main())
