#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""An unmodified dpdk-testpmd in each of its forwarding modes, on stock
ops and with the "npool" ops as a drop-in (EAL's -d
librte_mempool_npool.so --mbuf-pool-ops-name npool), on the same input.

Two net_pcap ports read the same capture once (a mix of IPv4/IPv6
UDP and TCP, ARP requests, ICMP echo requests, non-IP frames, 60 to
1514 bytes) and write what they send to a pcap each. For every mode:
- the run on npool ops selected them ("preferred mempool ops selected:
  npool") and exited 0;
- every mbuf is back in its pool after `stop` (testpmd's dump_mempool:
  common_pool_count + total_cache_count == size);
- deterministic modes (io, mac, macswap, 5tswap, rxonly, csum,
  icmpecho): each port's RX/TX packets, bytes, errors and missed equal
  stock's, and so does every frame sent (the tx pcaps byte for byte);
- generator modes (txonly, flowgen), on two net_null ports instead:
  stock and npool both sent packets (their counts depend on time).
The same for io with --mbuf-size 9000 (a data room over a 4 KiB page)
and with --mp-alloc xmem and xmemhuge (external memory; xmemhuge only
with free 2 MiB hugepages, else it says it skipped that variant).

  testpmd_modes.py --build build [--case io|...|all] [--keep]
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import harness  # noqa: E402
import hugepages  # noqa: E402
import packets as P  # noqa: E402
import pcaplib  # noqa: E402
from dpdk_tools import drop_in_plugin  # noqa: E402

DETERMINISTIC = ['io', 'mac', 'macswap', '5tswap', 'rxonly', 'csum',
                 'icmpecho']
GENERATORS = ['txonly', 'flowgen']
# case: (forward mode, extra testpmd arguments)
CASES = {m: (m, []) for m in DETERMINISTIC + GENERATORS}
CASES['io-mbuf-size-9000'] = ('io', ['--mbuf-size=9000'])
CASES['io-xmem'] = ('io', ['--mp-alloc=xmem'])
CASES['io-xmemhuge'] = ('io', ['--mp-alloc=xmemhuge'])

PORT_KEYS = ('RX-packets', 'RX-missed', 'RX-bytes', 'RX-errors',
             'RX-nombuf', 'TX-packets', 'TX-errors', 'TX-bytes')


def icmp_echo(ident, seq, size=56):
    body = struct.pack('!BBHHH', 8, 0, 0, ident, seq) + bytes(size)
    c = P.inet_csum(body)
    return body[:2] + struct.pack('!H', c) + body[4:]


def tcp(sport=4000, dport=80):
    return struct.pack('!HHIIBBHHH', sport, dport, 1, 0, 0x50, 0x02, 1024,
                       0, 0)


def frames():
    """The input: 160 frames of every kind testpmd's modes look at."""
    out = []
    for i in range(60):
        size = (18, 100, 500, 1000, 1472)[i % 5]
        out.append(P.pad60(P.eth(P.ipv4(src='198.18.0.%d' % (i % 9 + 1),
                                        payload=P.udp(bytes(size),
                                                      sport=1000 + i)))))
    for i in range(30):
        out.append(P.pad60(P.eth(P.ipv6(payload=P.udp(bytes(i * 40),
                                                      sport=2000 + i)),
                                 ethertype=0x86DD)))
    for i in range(20):
        out.append(P.pad60(P.eth(P.ipv4(proto=6, payload=tcp(3000 + i)))))
    for i in range(20):
        out.append(P.pad60(P.eth(P.arp(tip='198.18.0.%d' % (i + 2)),
                                 ethertype=0x0806,
                                 dst='ff:ff:ff:ff:ff:ff')))
    for i in range(20):
        out.append(P.pad60(P.eth(P.ipv4(proto=1, payload=icmp_echo(7, i),
                                        dst='198.18.0.2'))))
    for i in range(10):
        out.append(P.pad60(P.eth(bytes(46), ethertype=0x88B5)))
    return out


def port_stats(text):
    """{port: {key: n}} of the last "show port stats" block of each port."""
    stats = {}
    for port, block in re.findall(
            r'NIC statistics for port (\d+)\s+#+\n(.*?)#####', text, re.S):
        stats[int(port)] = {k: int(v) for k, v in
                            re.findall(r'([A-Z]+-[a-z]+):\s+(\d+)', block)
                            if k in PORT_KEYS}
    return stats


def wait_log(path, proc, done, limit_s):
    """Poll the log at @p path until done(text) or @p proc ends or
    @p limit_s (times the multiplier) passes; returns whether done."""
    deadline = time.monotonic() + limit_s * harness.TIMEOUT_MULTIPLIER
    while time.monotonic() < deadline and proc.poll() is None:
        with open(path, 'rb') as f:
            if done(f.read().decode(errors='replace')):
                return True
        time.sleep(0.05)
    return False


def forwarded(mode, nframes):
    """done() of wait_log(): every port read the capture (a generator:
    sent something), in the last stats printed (none before `start`)."""
    def done(text):
        st = port_stats(text)
        if sorted(st) != [0, 1]:
            return False
        if mode in GENERATORS:
            return all(st[p]['TX-packets'] > 0 for p in (0, 1))
        return all(st[p]['RX-packets'] >= nframes for p in (0, 1))
    return done


def run_testpmd(a, work, mode, extra, plugin, tag, huge_dir):
    """One testpmd run: (exit status, log, {port: {key: n}}, pool state,
    [tx pcap bytes]). Driven by its output, not by sleeps: up (links
    checked), `start`, `show port stats all` until every port read the
    capture (or, generating, sent), then stop, dump, stats and quit in
    one go (testpmd runs its commands in order)."""
    prefix = work.new_prefix()
    inp = work.file('in.pcap')
    outs = [work.file('%s-out%d.pcap' % (tag, p)) for p in (0, 1)]
    logf = work.file(tag + '.log')
    eal = ['--no-pci', '--no-telemetry', '--file-prefix', prefix, '-l',
           '0-1']
    # xmemhuge maps its own hugepages beside EAL's. testpmd mlockall()s
    # its memory: -m 256 (40 MB of mbufs at --mbuf-size 9000) locks in
    # 0.4 s, where -m 1024 took 4 s of page faults a run.
    eal = (['--huge-dir', huge_dir, '-m', '128'] if huge_dir else
           ['--no-huge', '-m', '256']) + eal
    for p in (0, 1):
        # A generator writes millions of frames a second: to net_null,
        # not to a pcap file (that took 40 s and GBs of disk).
        eal += ['--vdev', 'net_null%d,no-rx=1' % p if mode in GENERATORS
                else 'net_pcap%d,rx_pcap=%s,tx_pcap=%s' % (p, inp, outs[p])]
    if plugin:
        eal += ['-d', plugin, '--mbuf-pool-ops-name', 'npool']
    cmd = ['dpdk-testpmd'] + eal + [
        '--', '-i', '--forward-mode=' + mode, '--nb-cores=1',
        '--total-num-mbufs=4096', '--no-flush-rx'] + extra

    def send(p, lines):
        p.stdin.write(''.join(l + '\n' for l in lines).encode())
        p.stdin.flush()

    with open(logf, 'wb') as log:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log,
                             stderr=subprocess.STDOUT)
        try:
            # Up: testpmd checks the links, then reads its commands.
            wait_log(logf, p, lambda t: 'Checking link statuses...' in t, 30)
            send(p, ['start'])
            done = forwarded(mode, len(frames()))
            deadline = time.monotonic() + 10 * harness.TIMEOUT_MULTIPLIER
            while time.monotonic() < deadline and p.poll() is None:
                send(p, ['show port stats all'])
                if wait_log(logf, p, done, 0.2):
                    break
            send(p, ['stop', 'dump_mempool', 'show port stats all',
                     'quit'])
            p.stdin.close()
            rc = p.wait(60)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            p.kill()
            rc = p.wait()
    for d in harness.runtime_dirs(prefix):
        shutil.rmtree(d, ignore_errors=True)
    with open(logf, errors='replace') as f:
        text = f.read()
    # "show port stats all" of the end: the blocks after dump_mempool.
    stats = port_stats(text)
    pool = None
    m = re.search(r'mempool <mb_pool_0>.*?\n  size=(\d+).*?'
                  r'total_cache_count=(\d+).*?common_pool_count=(\d+)',
                  text, re.S)
    if m:
        pool = tuple(int(x) for x in m.groups())
    tx = []
    for o in outs:
        try:
            tx.append([r.data for r in pcaplib.read(o).records])
        except (OSError, pcaplib.PcapError):
            tx.append(None)
    return rc, text, stats, pool, tx


def case(a, work, name):
    mode, extra = CASES[name]
    pcaplib.write(work.file('in.pcap'), frames())
    huge_dir = None
    hp = None
    if 'xmemhuge' in name:
        hp = hugepages.Hugepages(128, mount=work.file('huge'),
                                     exclusive=True)
        os.makedirs(work.file('huge'), exist_ok=True)
        if hp.reserve() < 128:
            hp.release()
            harness.log('io-xmemhuge: fewer than 128 free 2 MiB hugepages:'
                        ' variant skipped')
            return []
        huge_dir = hp.dir
    probs = []
    try:
        runs = {}
        for ops, plugin in (('stock', None), ('npool', a.plugin)):
            runs[ops] = run_testpmd(a, work, mode, extra, plugin, ops,
                                    huge_dir)
    finally:
        if hp:
            hp.release()
    rc, text = runs['stock'][:2]
    if rc != 0:
        # Not npool's to pass: DPDK's rule for a drop-in is "wherever it
        # passes on stock ops" (xmemhuge cannot map its external
        # hugepages in this VM: "Cannot create memory area").
        cause = [l for l in text.splitlines() if 'Cause' in l] or ['?']
        harness.skip('%s fails on stock ops too: %s'
                     % (name, cause[-1].strip()))
    for ops, (rc, text, stats, pool, tx) in runs.items():
        if rc != 0:
            probs.append('%s ops: testpmd exited %r:\n%s'
                         % (ops, rc, '\n'.join(text.splitlines()[-8:])))
        if ops == 'npool' and \
                'preferred mempool ops selected: npool' not in text:
            probs.append('testpmd did not select the "npool" ops')
        if pool is None:
            # DPDK 25.11's testpmd printed no dump_mempool here, on stock
            # ops too: the pool check is then skipped, and said.
            if runs['stock'][3] is None:
                harness.log('%s ops: testpmd printed no dump_mempool of '
                            'mb_pool_0 (stock neither): pool check '
                            'skipped' % ops)
            else:
                probs.append('%s ops: no dump_mempool of mb_pool_0' % ops)
        elif pool[1] + pool[2] != pool[0]:
            probs.append('%s ops: %d of %d mbufs not back after stop '
                         '(cache %d, pool %d)'
                         % (ops, pool[0] - pool[1] - pool[2], pool[0],
                            pool[1], pool[2]))
        if sorted(stats) != [0, 1]:
            probs.append('%s ops: no port stats' % ops)
    if probs:
        return probs
    s, n = runs['stock'], runs['npool']
    if mode in GENERATORS:
        for ops, r in runs.items():
            sent = sum(r[2][p]['TX-packets'] for p in (0, 1))
            if sent == 0:
                probs.append('%s ops: %s sent nothing' % (ops, mode))
        harness.log('%s: TX stock %s, npool %s' % (
            name, [s[2][p]['TX-packets'] for p in (0, 1)],
            [n[2][p]['TX-packets'] for p in (0, 1)]))
        return probs
    if s[2] != n[2]:
        probs.append('port counters differ:\n  stock %s\n  npool %s'
                     % (s[2], n[2]))
    for port in (0, 1):
        if len(n[4][port] or []) != n[2][port]['TX-packets']:
            probs.append('port %d: %s frames in its tx pcap, %d sent'
                         % (port, len(n[4][port] or []),
                            n[2][port]['TX-packets']))
        if s[4][port] != n[4][port]:
            probs.append('port %d sent other frames on npool ops (%s vs '
                         '%s frames)' % (port, len(s[4][port] or []),
                                         len(n[4][port] or [])))
    rx = [s[2][p]['RX-packets'] for p in (0, 1)]
    if rx != [len(frames())] * 2:
        probs.append('stock read %s frames, not %d a port'
                     % (rx, len(frames())))
    harness.log('%s: RX %s TX %s on both ops, frames equal, pool %s'
                % (name, rx, [s[2][p]['TX-packets'] for p in (0, 1)],
                   'full' if n[3] else 'not dumped'))
    return probs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True)
    a, names = harness.case_arguments(ap, CASES)
    if names is None:
        return 0
    if shutil.which('dpdk-testpmd') is None:
        harness.log('FAIL: dpdk-testpmd not found (Debian package dpdk)')
        return 1
    with drop_in_plugin(a.build) as a.plugin:
        return harness.run_cases(names, 'testpmd',
                                 lambda n, work: case(a, work, n), a.keep)

if __name__ == '__main__':
    sys.exit(main())
