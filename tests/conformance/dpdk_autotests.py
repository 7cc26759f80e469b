#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""DPDK's own unit tests as a conformance run of the "npool" mempool ops.

Every autotest of Debian's dpdk-test (DPDK's app/test) that builds mbuf
pools through rte_pktmbuf_pool_create() (or other pools on the default
ops) runs twice: on stock ops (the control) and with npool as the default
ops, as a drop-in user runs it:

  dpdk-test ... -d librte_mempool_npool.so --mbuf-pool-ops-name npool

Every test that passes on stock must pass on npool; for a suite
(link_bonding_*, ...) every case that succeeds on stock must succeed on
npool, so a case that fails on stock (link_bonding_mode4's test_mode4_rx
does on some machines) takes only itself out. npool runs first; stock,
the control, runs only for a test that does not pass on npool (a pass
meets the rule whatever stock does): the stock column then reads '-'.
A test that fails on stock without cases fails nothing here (it is
reported, with its log); a test the installed dpdk-test does not have
(renamed or dropped in that release) is skipped; EXCLUDED says why each
of the others is left out. A loss on npool is run once more, its reason
printed, before it counts, since some autotests time interrupts and
threads (link_bonding) and CI machines are loaded.

The list: `git grep -l rte_pktmbuf_pool_create` in app/test of DPDK
v22.11, v24.11 and v25.11, plus sample_packet_forward.c's users
(bitratestats, latencystats, pdump) and tests whose pools come from the
default ops through a library (graph, bpf, event adapters).

  dpdk_autotests.py --plugin build/librte_mempool_npool.so [--only T..]
  dpdk_autotests.py --slow --plugin ...   the SLOW ones (make check-all)
  dpdk_autotests.py --perf --plugin ...   mempool_perf_autotest, both ops

Exit 0 pass, 1 fail, 77 skip (no dpdk-test).
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77

# name: extra EAL arguments. Each runs on lcores 0-1, --no-huge, -m 1024
# unless it says otherwise (the rx adapter's and table's pools need more;
# pcapng needs a port, cryptodev_null its device).
TESTS = {
    'mbuf_autotest': [],
    'mempool_autotest': [],
    'ring_pmd_autotest': [],
    'reorder_autotest': [],
    'distributor_autotest': [],
    'ipfrag_autotest': [],
    'pdump_autotest': [],
    'link_bonding_autotest': [],
    'link_bonding_rssconf_autotest': [],
    'link_bonding_mode4_autotest': [],
    'sched_autotest': [],
    'latencystats_autotest': [],
    'bitratestats_autotest': [],
    'event_eth_tx_adapter_autotest': [],
    'event_eth_rx_adapter_autotest': ['-m', '3072'],
    'bpf_autotest': [],
    'graph_autotest': [],
    'pcapng_autotest': ['--vdev', 'net_null0'],
    'cksum_autotest': [],
    'table_autotest': ['-m', '3072'],
    'func_reentrancy_autotest': [],
    'cryptodev_null_autotest': ['--vdev', 'crypto_null'],
    'dmadev_autotest': [],
    'security_autotest': [],
    'ipsec_autotest': [],
    'event_crypto_adapter_autotest': [],
    'event_timer_adapter_test': [],
}

# Tests of TESTS that run only with --slow (make check-all, meson suite
# 'slow'), and why.
SLOW = {
    'link_bonding_mode4_autotest': 'LACP state machines on timers: 20 s a '
                                   'run, and 1-3 of its 8 cases fail on '
                                   'stock ops too on a loaded 2-core '
                                   'machine',
}

# Tests that build mbuf pools but cannot run here, and why.
EXCLUDED = {
    'pmd_perf_autotest': 'needs physical NIC ports',
    'kni_autotest': 'needs the rte_kni kernel module (gone since 23.11)',
    'compressdev_autotest': 'needs a compress device (none is probed '
                            'without a vdev argument)',
    'security_inline_proto_autotest': 'needs an inline IPsec NIC',
    'inline_ipsec_autotest': 'needs an inline IPsec NIC',
    'flow_classify_autotest': 'not built into Debian\'s dpdk-test',
    'distributor_perf_autotest': 'a benchmark (no pass/fail)',
    'ipsec_perf_autotest': 'a benchmark (no pass/fail)',
    'timer_secondary_autotest': 'runs a secondary process: needs a '
                                'shared config on hugepages',
    'multiprocess_autotest': 'secondary processes on hugepages; npool in '
                             'a secondary: tests/integration/multiprocess',
}


def known_tests(binary):
    """The autotest names the binary registers (its command strings)."""
    with open(binary, 'rb') as f:
        data = f.read()
    return {n for n in list(TESTS) + ['mempool_perf_autotest']
            if b'\0' + n.encode() + b'\0' in data}


def cases(out):
    """{case: verdict} of a suite-based autotest's "+ TestCase [ n] :
    name succeeded|failed|skipped|unsupported" lines (empty for a test
    that is not a suite)."""
    return dict(re.findall(r'^ \+ TestCase \[ *\d+\] : (\S+) (\w+)',
                           out, re.M))


def run_one(binary, name, extra, plugin, timeout):
    """One autotest in its own EAL: (verdict, seconds, log text)."""
    # Letters and digits only: pdump_autotest's secondary finds the
    # primary by parsing the prefix out of a path ('-' broke it, and the
    # secondary spun forever).
    prefix = 'npconf%d%s' % (os.getpid(), name.replace('_', ''))
    mem = [] if '-m' in extra else ['-m', '1024']
    # A shared config (no --no-shconf): the tests that fork secondaries
    # (pdump) find the primary through it, and spin forever without it.
    args = [binary, '--no-huge'] + mem + ['--no-pci', '--no-telemetry',
            '--file-prefix', prefix, '-l', '0-1'] + extra
    if plugin:
        args += ['-d', plugin, '--mbuf-pool-ops-name', 'npool']
    env = dict(os.environ, DPDK_TEST=name)
    t0 = time.monotonic()
    # A session of its own: secondaries the test forks (pdump, mp) are
    # killed with it, whatever happened.
    p = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = 'timeout'
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    out = out.decode(errors='replace')
    secs = time.monotonic() - t0
    for d in ('/var/run/dpdk/' + prefix, '/tmp/dpdk/' + prefix):
        shutil.rmtree(d, ignore_errors=True)
    if rc == 0 and 'Test OK' in out:
        return 'ok', secs, out
    if 'Test Skipped' in out or rc == SKIP:
        return 'skip', secs, out
    return 'fail(%s)' % rc, secs, out


def lost_cases(stock_out, npool_out):
    """Cases that succeeded on stock and not on npool."""
    s, n = cases(stock_out), cases(npool_out)
    return sorted(c for c, v in s.items()
                  if v == 'succeeded' and n.get(c) != 'succeeded')


def compare(binary, name, extra, plugin, timeout):
    """npool ops, and stock ops when needed: (stock verdict, npool
    verdict, note, npool log, stock log). What passes on stock must pass
    on npool, case by case for a suite (link_bonding_mode4's
    test_mode4_rx fails on stock on some machines: its other cases still
    count). A test that passes on npool meets that whatever stock does:
    stock (the control) runs only when npool does not pass. A loss on
    npool is run again, once, with its reason printed (autotests that
    time interrupts and threads, on a loaded machine)."""
    vn, sn, outn = run_one(binary, name, extra, plugin, timeout)
    if vn == 'ok':
        return '-', '%s %.1fs' % (vn, sn), 'ok', outn, ''
    vs, ss, outs = run_one(binary, name, extra, None, timeout)

    def lost_of(v, out):
        if vs == 'ok':
            return [] if v == 'ok' else lost_cases(outs, out) or [name]
        if vs.startswith('fail') and cases(outs):
            return lost_cases(outs, out)
        return []

    lost = lost_of(vn, outn)
    if lost:
        print('%s: %s on npool ops (stock %s): run once more' % (
            name, ', '.join(lost), vs), flush=True)
        vn2, sn2, outn2 = run_one(binary, name, extra, plugin, timeout)
        sn += sn2
        lost = lost_of(vn2, outn2)
        if not lost:
            vn, outn = vn2 + '(2nd)', outn2
    if lost:
        note = 'FAIL: passes on stock, not on npool: ' + ', '.join(lost)
    elif vs == 'ok':
        note = 'ok'
    elif vs == 'skip':
        note = 'skipped by the test itself on stock'
    elif cases(outs):
        ok = [c for c, v in cases(outs).items() if v == 'succeeded']
        note = ('fails on stock: %d of %d cases pass on both, compared'
                % (len(ok), len(cases(outs))))
    else:
        note = 'fails on stock too: not counted'
    return ('%s %.1fs' % (vs, ss), '%s %.1fs' % (vn, sn), note, outn, outs)


def tail(text, n=15):
    return '\n'.join('    | ' + l for l in text.splitlines()[-n:])


def conformance(args):
    have = known_tests(args.dpdk_test)
    names = args.only or [n for n in TESTS if (n in SLOW) == args.slow]
    rows, bad, counts = [], [], dict(passed=0, stock_fail=0, absent=0,
                                     skipped=0)
    for name in names:
        if name not in have:
            rows.append((name, '-', '-', 'not in this dpdk-test'))
            counts['absent'] += 1
            continue
        extra = TESTS.get(name, [])
        vs, vn, note, outn, outs = compare(args.dpdk_test, name, extra,
                                           args.plugin, args.timeout)
        if note.startswith('FAIL'):
            bad.append((name, outn))
        elif note == 'ok' or note.startswith('fails on stock:'):
            counts['passed'] += 1
        elif note.startswith('skipped'):
            counts['skipped'] += 1
        else:
            counts['stock_fail'] += 1
            print('%s on stock:\n%s' % (name, tail(outs)))
        rows.append((name, vs, vn, note))
        print('%s: stock %s, npool %s: %s' % rows[-1], flush=True)
    w = max(len(r[0]) for r in rows)
    print('%-*s  %-16s  %-16s  %s' % (w, 'autotest', 'stock ops',
                                      'npool ops', 'verdict'))
    for r in rows:
        print('%-*s  %-16s  %-16s  %s' % (w, r[0], r[1], r[2], r[3]))
    if not args.slow and not args.only:
        print('slow (run by --slow: make check-all):')
        for name, why in SLOW.items():
            print('  %-32s %s' % (name, why))
    print('excluded (build mbuf pools, cannot run here):')
    for name, why in EXCLUDED.items():
        print('  %-32s %s' % (name, why))
    for name, out in bad:
        print('%s on npool ops:\n%s' % (name, tail(out, 30)))
    print('conformance: %d pass on npool ops, %d fail on stock too, %d '
          'skipped by the test, %d not in this dpdk-test, %d excluded'
          % (counts['passed'], counts['stock_fail'], counts['skipped'],
             counts['absent'], len(EXCLUDED)))
    print('%d passed, %d failed' % (counts['passed'], len(bad)))
    return 1 if bad else 0


def perf(args):
    """mempool_perf_autotest on stock and on npool as the default ops.
    Its "start performance test for <ops> (without cache)" section runs
    a cache-0 pool on rte_mbuf_best_mempool_ops(): ring_mp_mc on stock,
    npool with --mbuf-pool-ops-name npool. Prints that section's rows
    side by side (rate_persec, objects a second), with their ratio."""
    rows = {}
    for side, plugin in (('stock', None), ('npool', args.plugin)):
        v, s, text = run_one(args.dpdk_test, 'mempool_perf_autotest', [],
                             plugin, args.timeout * 20)
        sect, rows[side] = None, []
        for line in text.splitlines():
            if line.startswith('start performance test'):
                sect = ' for ' in line
            elif sect and 'rate_persec=' in line:
                rows[side].append(line)
        print('%s ops: %s in %.0f s, %d rows' % (side, v, s,
                                                  len(rows[side])))
    print('%-70s %14s %14s %6s' % ('default ops, cache 0: parameters',
                                    'stock /s', 'npool /s', 'ratio'))
    for a, b in zip(rows['stock'], rows['npool']):
        key = a.split(' rate_persec=')[0].replace('mempool_autotest ', '')
        ra = int(a.split('rate_persec=')[1])
        rb = int(b.split('rate_persec=')[1])
        print('%-70s %14d %14d %6.2f' % (key, ra, rb, rb / ra if ra else 0))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--plugin', required=True,
                    help='librte_mempool_npool.so of the build')
    ap.add_argument('--dpdk-test', default=shutil.which('dpdk-test'))
    ap.add_argument('--only', nargs='*', help='these autotests only')
    ap.add_argument('--slow', action='store_true',
                    help='the SLOW autotests only (else all but those)')
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--perf', action='store_true')
    args = ap.parse_args()
    if not args.dpdk_test:
        print('SKIP: no dpdk-test (Debian package dpdk)')
        return SKIP
    args.plugin = os.path.abspath(args.plugin)
    if not os.path.isfile(args.plugin):
        print('FAIL: no plugin %s' % args.plugin)
        return 1
    # EAL loads a -d plugin only from a folder no parent of which is
    # world-writable (a clone under /tmp would be refused): a private
    # copy, with the libnpool it finds through $ORIGIN.
    safe = tempfile.mkdtemp(prefix='npool-conf-',
                            dir='/run' if os.access('/run', os.W_OK)
                            else None)
    try:
        for lib in ('librte_mempool_npool.so', 'libnpool.so.0'):
            shutil.copy(os.path.join(os.path.dirname(args.plugin), lib),
                        safe)
        args.plugin = os.path.join(safe, 'librte_mempool_npool.so')
        return perf(args) if args.perf else conformance(args)
    finally:
        shutil.rmtree(safe, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
