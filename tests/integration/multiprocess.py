#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""DPDK's multi-process model on pools of the "npool" ops (root;
hugepages are reserved for the run and given back).

  proc-info       an unmodified dpdk-testpmd primary with -d
                  librte_mempool_npool.so --mbuf-pool-ops-name npool
                  forwards between two net_null ports; dpdk-proc-info, a
                  secondary given the same -d, reads its pool: the pool's
                  ops index names "npool" in the secondary too (the
                  plugin registers after EAL's default drivers, so every
                  process agrees on every index), and the objects it
                  counts (common pool + lcore caches) are within the pool.
  client-server   DPDK's examples/multi_process/client_server_mp (Debian's
                  dpdk-doc), built in a temp folder: mp_server (primary,
                  npool as the default ops) allocates mbufs on RX of two
                  net_null ports and hands them to mp_client (secondary,
                  with the plugin), which sends them, so DPDK's TX frees
                  them in the other process. Both processes' counters
                  move, and after 6 s of that the pool has not run dry:
                  what it lacks is at most what the client's ring and TX
                  buffers and the lcore caches can hold (a free lost in
                  the secondary would empty it within milliseconds).

A process without the plugin cannot use an npool pool at all (DPDK calls
the ops of its own table by the pool's index): docs/drop-in.md.

  multiprocess.py --build build --case proc-info|client-server|all
Exit 0 pass, 1 fail, 77 skip.
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import harness  # noqa: E402
import netns  # noqa: E402
from dpdk_tools import Hugepages, drop_in_plugin  # noqa: E402

HUGEPAGES = 256
EXAMPLE = '/usr/share/dpdk/examples/multi_process/client_server_mp'
# client_server_mp's shared/common.h and mp_server/init.c
CLIENT_QUEUE_RINGSIZE = 128
MBUF_CACHE_SIZE = 512


def eal(prefix, huge_dir, lcores, plugin, ops=True):
    args = ['-l', lcores, '-m', '256', '--no-pci', '--huge-dir', huge_dir,
            '--file-prefix', prefix, '-d', plugin]
    if ops:
        args += ['--mbuf-pool-ops-name', 'npool']
    return args


def proc_info(prefix, huge_dir, plugin, what):
    p = subprocess.run(['dpdk-proc-info', '--file-prefix', prefix,
                        '--huge-dir', huge_dir, '-d', plugin, '--', what],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    return p.returncode, p.stdout.decode(errors='replace')


def pool_dump(text, name):
    """(ops_name, size, common_pool_count, total_cache_count) of one pool
    in rte_mempool_dump() output, or None."""
    m = re.search(r'mempool <%s>.*?\n  size=(\d+).*?ops_name: <([^>]*)>'
                  r'(.*?)common_pool_count=(\d+)' % re.escape(name),
                  text, re.S)
    if not m:
        return None
    caches = re.search(r'total_cache_count=(\d+)', m.group(3))
    return (m.group(2), int(m.group(1)), int(m.group(4)),
            int(caches.group(1)) if caches else 0)


def case_proc_info(a, work, huge_dir):
    prefix = 'npmp%d' % os.getpid()
    work.prefixes.append(prefix)
    cmd = ['dpdk-testpmd'] + eal(prefix, huge_dir, '0-1', a.plugin) + [
        '--vdev', 'net_null0', '--vdev', 'net_null1', '--',
        '--forward-mode=io', '--nb-cores=1', '--stats-period', '1',
        '--total-num-mbufs=8192']
    app = netns.AppProcess(None, None, cmd, work.file('testpmd.log'))
    app.start()
    probs = []
    try:
        if not app.wait_for('Port statistics', 60):
            return ['testpmd did not forward:\n' + app.tail()]
        rc, out = proc_info(prefix, huge_dir, a.plugin, '--show-mempool')
        with open(work.file('proc-info.log'), 'w') as f:
            f.write(out)
        if rc != 0:
            probs.append('dpdk-proc-info --show-mempool exited %d:\n%s'
                         % (rc, '\n'.join(out.splitlines()[-6:])))
        d = pool_dump(out, 'mb_pool_0')
        if d is None:
            probs.append('dpdk-proc-info showed no mb_pool_0')
        else:
            ops, size, common, cached = d
            if ops != 'npool':
                probs.append('the secondary reads mb_pool_0 as ops "%s", '
                             'not "npool": the ops tables differ' % ops)
            if size != 8192 or not 0 < common + cached <= size:
                probs.append('mb_pool_0: size %d, %d in the store + %d in '
                             'caches' % (size, common, cached))
            harness.log('dpdk-proc-info: mb_pool_0 on "%s", %d of %d in '
                        'the store, %d in lcore caches'
                        % (ops, common, size, cached))
        rc, out = proc_info(prefix, huge_dir, a.plugin, '--stats')
        rx = [int(x) for x in re.findall(r'RX-packets:\s*(\d+)', out)]
        if rc != 0 or not rx or max(rx) == 0:
            probs.append('dpdk-proc-info --stats: exit %d, RX %s' % (rc, rx))
    finally:
        app.signal(signal.SIGINT)
        rc = app.wait(60)
    if rc != 0:
        probs.append('testpmd exited %r\n%s' % (rc, app.tail(8)))
    return probs


def build_example(work):
    src = work.file('client_server_mp')
    shutil.copytree(EXAMPLE, src)
    for d in ('mp_server', 'mp_client'):
        p = subprocess.run(['make', '-C', os.path.join(src, d)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            return None, 'make %s failed:\n%s' % (
                d, p.stdout.decode(errors='replace')[-2000:])
    return src, None


def counters(text):
    """The last stats screen of mp_server: ({port: (rx, tx)},
    {client: (rx, rx_drop, tx, tx_drop)})."""
    ports = {int(p): (int(r), int(t)) for p, r, t in re.findall(
        r'Port (\d+) - rx:\s+(\d+)\s+tx:\s+(\d+)', text)}
    clients = {int(c): tuple(int(x) for x in v) for c, *v in re.findall(
        r'Client\s+(\d+) - rx:\s+(\d+), rx_drop:\s+(\d+)\s+'
        r'tx:\s+(\d+), tx_drop:\s+(\d+)', text)}
    return ports, clients


def case_client_server(a, work, huge_dir):
    if not os.path.isdir(EXAMPLE):
        harness.skip('no %s (Debian package dpdk-doc)' % EXAMPLE)
    src, err = build_example(work)
    if err:
        return [err]
    prefix = 'npmpcs%d' % os.getpid()
    work.prefixes.append(prefix)
    # Line-buffered: the server prints its stats screen from another
    # lcore and exits from a signal handler; block-buffered, the last
    # screens were lost (seen once under load: no counters at all).
    server = netns.AppProcess(None, None, [
        'stdbuf', '-oL',
        os.path.join(src, 'mp_server', 'build', 'mp_server')] +
        eal(prefix, huge_dir, '0-1', a.plugin) +
        ['--vdev', 'net_null0', '--vdev', 'net_null1', '--',
         '-p', '3', '-n', '1'], work.file('server.log'))
    client = netns.AppProcess(None, None, [
        'stdbuf', '-oL',
        os.path.join(src, 'mp_client', 'build', 'mp_client'),
        '--proc-type=secondary'] +
        eal(prefix, huge_dir, '1', a.plugin, ops=False) +
        ['--', '-n', '0'], work.file('client.log'))
    probs = []
    out, d = '', None
    server.start()
    try:
        if not server.wait_for('APP: Finished Process Init', 60):
            return ['mp_server did not start:\n' + server.tail()]
        client.start()
        if not client.wait_for('Client process 0 handling packets', 60):
            return ['mp_client did not start:\n' + client.tail()]
        # mp_server's stats lcore waits 3 s, then shows its counters
        # every second: let it show two screens.
        time.sleep(6 * harness.TIMEOUT_MULTIPLIER)
        rc, out = proc_info(prefix, huge_dir, a.plugin, '--show-mempool')
        with open(work.file('proc-info.log'), 'w') as f:
            f.write(out)
        d = pool_dump(out, 'MProc_pktmbuf_pool')
    finally:
        if client.proc is not None:
            client.signal(signal.SIGINT)
            client.wait(30)
        server.signal(signal.SIGINT)
        src_rc = server.wait(30)
    ports, clients = counters(server.log())
    if 'preferred mempool ops selected: npool' not in server.log() and \
            d and d[0] != 'npool':
        probs.append('mp_server did not create its pool on "npool"')
    if d is None:
        probs.append('dpdk-proc-info showed no MProc_pktmbuf_pool:\n%s'
                     % '\n'.join(out.splitlines()[-6:]))
    else:
        ops, size, common, cached = d
        # ring + TX buffers (one each port) + the lcore caches of 2
        # processes and the server's stats lcore + a burst in flight.
        slack = CLIENT_QUEUE_RINGSIZE + 2 * 32 + 3 * MBUF_CACHE_SIZE + 64
        harness.log('MProc_pktmbuf_pool on "%s": %d of %d in the store, '
                    '%d in caches; ports %s, client %s'
                    % (ops, common, size, cached, ports, clients))
        if ops != 'npool':
            probs.append('the pool is on "%s", not "npool"' % ops)
        if common + cached < size - slack:
            probs.append('%d of %d mbufs missing after 6 s (at most %d '
                         'can be in flight): a leak across processes'
                         % (size - common - cached, size, slack))
    if not ports or min(r for r, _ in ports.values()) == 0:
        probs.append('mp_server received nothing: %s' % ports)
    if not clients or clients[0][2] == 0:
        probs.append('mp_client sent nothing (freed nothing in the '
                     'secondary): %s' % clients)
    if src_rc not in (0, -signal.SIGINT):
        probs.append('mp_server exited %r' % src_rc)
    return probs


CASES = {'proc-info': case_proc_info, 'client-server': case_client_server}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True)
    a, names = harness.case_arguments(ap, CASES)
    if names is None:
        return 0
    if os.geteuid() != 0:
        harness.skip('needs root (hugepages)')
    for tool in ('dpdk-testpmd', 'dpdk-proc-info'):
        if shutil.which(tool) is None:
            harness.log('FAIL: %s not found (Debian package dpdk)' % tool)
            return 1
    mnt = tempfile.mkdtemp(prefix='npool-mp-huge-', dir='/run')
    try:
        with drop_in_plugin(a.build) as a.plugin, \
                Hugepages(HUGEPAGES, mount=mnt, exclusive=True) as hp:
            return harness.run_cases(
                names, 'mp', lambda n, work: CASES[n](a, work, hp.dir),
                a.keep)
    finally:
        shutil.rmtree(mnt, ignore_errors=True)

if __name__ == '__main__':
    sys.exit(main())
