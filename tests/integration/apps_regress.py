#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Regression checks of the apps for defects found by testers, one case
each (python3 stdlib only):

  over-64k       a 70000-byte capture frame (net_pcap hands over pkt_len
                 70000 with 4464 bytes in the chain): npool-fwd drops it
                 as truncated at --mtu 65535 and 1500 (no crash, nothing
                 sent), npool-drop counts it as truncated; a 60-byte frame
                 beside it is forwarded
  ring-leak      npool-fwd, a net_ring port and two forwarding lcores: the
                 ring's second RX queue (TX queue 1 loops into it) is
                 drained at the stop: no leak, exit 0
  ring-tx-full   the same with 9014-byte frames cut into 68-byte fragments
                 that fill the unpolled ring: tx_full is charged to the
                 port the packet came in on (net_ring does not set
                 mbuf->port): rx == forwarded + dropped per port
  eth-stats      npool-drop with an RX pool too small for 9014-byte
                 chains: the frames the PMD lost show in the ethdev
                 counters of the table and of the JSON ("eth"): rx + lost
                 == frames in the capture
  periodic       --stats lines add up (rx == forwarded + dropped + in
                 flight) and none comes after "stopping:"; with two RX
                 queues each port line is followed by its queue line
                 (SIGINT once two lines came); with --duration 1 and
                 --stats 1 the stop and the first line fall due at the
                 same check: no line at all

  apps_regress.py --fwd build/apps/fwd/npool-fwd
                  --drop build/apps/drop/npool-drop --case NAME
  apps_regress.py --list
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import harness  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402

U64_HALF = 1 << 63


def frame(size, df=False):
    """An IPv4 frame of `size` bytes from 198.18.0.2 to 198.18.1.1 (port 1
    in l3fwd's default table), to port 0's MAC; IP total length capped at
    65535."""
    body = b'a' * max(0, size - 14 - 20)
    ip = packets.ipv4(src='198.18.0.2', dst='198.18.1.1', payload=body,
                      proto=253, df=df, tot_len=min(20 + len(body), 65535))
    return packets.eth(ip)


def balance_problems(js, what):
    """rx == forwarded + dropped per port and in total, no counter
    underflow (a huge value)."""
    probs = []
    rows = [('port %r' % p.get('port'), p) for p in js.get('ports', [])]
    for name, c in rows + [('total', js.get('total', {}))]:
        vals = [c.get('rx'), c.get('forwarded'), c.get('dropped')]
        if not all(isinstance(v, int) for v in vals):
            probs.append('%s: %s: counters %r' % (what, name, vals))
            continue
        if any(v >= U64_HALF for v in vals + list(c['drops'].values())):
            probs.append('%s: %s: counter underflow %r' % (what, name, c))
        elif vals[0] != vals[1] + vals[2]:
            probs.append('%s: %s: rx %d != forwarded %d + dropped %d'
                         % ((what, name) + tuple(vals)))
    return probs


def case_over_64k(a, work):
    rx = work.file('big.pcap')
    pcaplib.write(rx, [frame(70000), frame(60)])
    empty = work.file('empty.pcap')
    pcaplib.write_empty(empty)
    probs = []
    for mtu in ('65535', '1500'):
        txs = [work.file('tx0-%s.pcap' % mtu), work.file('tx1-%s.pcap' % mtu)]
        vdevs = ['net_pcap0,rx_pcap=%s,tx_pcap=%s' % (rx, txs[0]),
                 'net_pcap1,rx_pcap=%s,tx_pcap=%s' % (empty, txs[1])]
        what = 'npool-fwd --mtu %s' % mtu
        res = harness.run_json(a.fwd, work, vdevs, ['-p', '0x3', '--mtu', mtu,
                                                    '--idle-exit', '300'])
        probs += harness.run_problems(res, what)
        probs += balance_problems(res.json, what)
        t = res.json.get('total', {})
        got = (t.get('rx'), t.get('drops', {}).get('truncated'),
               t.get('forwarded'), t.get('tx'))
        if got != (2, 1, 1, 1):
            probs.append('%s: rx, truncated, forwarded, tx = %r, want '
                         '(2, 1, 1, 1)' % (what, got))
        sent = [len(d) for d, _ in harness.read_tx(txs[1])]
        if sent != [60]:
            probs.append('%s: port 1 sent frames of %r bytes, want [60]'
                         % (what, sent))
    res = harness.run_json(a.drop, work, ['net_pcap0,rx_pcap=%s' % rx],
                           ['-p', '0x1', '--idle-exit', '300'])
    probs += harness.run_problems(res, 'npool-drop')
    t = res.json.get('total', {})
    got = (t.get('rx'), t.get('dropped'), t.get('drops'))
    if got != (2, 2, {'rx_drop': 1, 'truncated': 1}):
        probs.append('npool-drop: rx, dropped, drops = %r, want 2, 2, 1 '
                     'rx_drop + 1 truncated' % (got,))
    return probs


# --eth-dest of a port whose TX loops into its RX: net_ring's MAC (zero)
RING_LOOP = ['--eth-dest', '1,00:00:00:00:00:00']


def ring_vdevs(work, frames):
    """net_pcap0 reads `frames` and writes one capture per TX queue (two
    forwarding lcores); net_ring1 loops each TX queue into its RX queue:
    RING_LOOP makes port 1 its own next hop, so that what comes back in is
    sent to its MAC and forwarded again."""
    rx = work.file('in.pcap')
    pcaplib.write(rx, frames)
    return ['net_pcap0,rx_pcap=%s,tx_pcap=%s,tx_pcap=%s'
            % (rx, work.file('a.pcap'), work.file('b.pcap')), 'net_ring0']


def case_ring_leak(a, work):
    res = harness.run_json(a.fwd, work, ring_vdevs(work, [frame(60)]),
                           ['-p', '0x3', '--config', '(0,0,0),(1,0,1)',
                            '--idle-exit', '300'] + RING_LOOP, lcores='0-1')
    probs = harness.run_problems(res, 'npool-fwd, net_ring port, 2 lcores')
    return probs + balance_problems(res.json, 'npool-fwd')


def case_ring_tx_full(a, work):
    res = harness.run_json(a.fwd, work, ring_vdevs(work, [frame(9014)] * 10),
                           ['-p', '0x3', '--config', '(0,0,0),(1,0,1)',
                            '--mtu', '68', '--idle-exit', '300'] + RING_LOOP,
                           lcores='0-1')
    probs = harness.run_problems(res, 'npool-fwd --mtu 68, net_ring port')
    probs += balance_problems(res.json, 'npool-fwd --mtu 68')
    tx_full = res.json.get('total', {}).get('drops', {}).get('tx_full')
    if not tx_full:
        harness.log('note: the ring never filled (tx_full %r)' % tx_full)
    return probs


ETH_KEYS = ('ipackets', 'imissed', 'ierrors', 'rx_nombuf', 'opackets',
            'oerrors')


def case_eth_stats(a, work):
    rx = work.file('in.pcap')
    pcaplib.write(rx, [frame(9014)] * 200)
    res = harness.run_json(a.drop, work, ['net_pcap0,rx_pcap=%s' % rx],
                           ['-p', '0x1', '--nb-mbufs', '1024',
                            '--mbuf-size', '192', '--idle-exit', '300'])
    probs = harness.run_problems(res, 'npool-drop --mbuf-size 192')
    p0 = (res.json.get('ports') or [{}])[0]
    eth = p0.get('eth', {})
    if sorted(eth) != sorted(ETH_KEYS):
        return probs + ['JSON ports[0].eth = %r, want the keys %s'
                        % (eth, ', '.join(ETH_KEYS))]
    lost = eth['imissed'] + eth['ierrors'] + eth['rx_nombuf']
    if p0.get('rx') != eth['ipackets'] or p0.get('rx', 0) + lost != 200:
        probs.append('rx %r, eth %r: rx + imissed + ierrors + rx_nombuf '
                     '!= 200 frames' % (p0.get('rx'), eth))
    if lost == 0:
        harness.log('note: the RX pool never ran out')
    for k in ETH_KEYS:
        if not any(l.split()[:2] == ['eth', k]
                   for l in res.stdout.splitlines()):
            probs.append('no "eth %s" row in the table' % k)
    return probs


PERIODIC_RE = re.compile(r'^\[ *[0-9.]+ s\] port (\d+): rx (\d+) \(.*\) '
                         r'tx (\d+) \(.*\) forwarded (\d+) dropped (\d+) '
                         r'in flight (\d+)$')
QUEUES_RE = re.compile(r'^\[ *[0-9.]+ s\] port (\d+) queues: rx 0: \d+ '
                       r'\([0-9.]+ Mpps\) 1: \d+ \([0-9.]+ Mpps\)$')


def run_until_lines(a, work, args, nlines, timeout=45):
    """npool-drop with `args` and --json, stopped by SIGINT once its
    stdout holds `nlines` queue lines (each after its port line): no
    --duration, so that a control thread kept off its CPU delays the
    lines, never cuts them out. harness.run_json()'s Result."""
    jpath = work.file('run-%d.json' % len(work.prefixes))
    cmd = ([a.drop] + harness.eal_args(work.new_prefix(), ['net_null0'],
                                       '0-1') +
           ['--', '--json', jpath] + args)
    out_path, err_path = work.file('stdout.txt'), work.file('stderr.txt')
    with open(out_path, 'w') as out, open(err_path, 'w') as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err,
                                start_new_session=True)
    deadline = time.monotonic() + timeout * harness.TIMEOUT_MULTIPLIER
    timed_out = False
    while proc.poll() is None:
        with open(out_path, errors='replace') as f:
            if sum(1 for l in f if QUEUES_RE.match(l)) >= nlines:
                proc.send_signal(signal.SIGINT)
                break
        if time.monotonic() > deadline:
            timed_out = True
            break
        time.sleep(0.05)
    try:
        proc.wait(timeout=30 * harness.TIMEOUT_MULTIPLIER)
    except subprocess.TimeoutExpired:
        timed_out = True
    if timed_out and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    with open(out_path, errors='replace') as o, \
            open(err_path, errors='replace') as e:
        res = harness.check_sanitizers(harness.Result(
            cmd, proc.returncode, o.read(), e.read(), timed_out))
    res.json = harness.load_json(jpath)
    return res


def periodic_problems(lines):
    """The --stats lines of `lines` (stdout) against docs: each port line
    adds up (rx == forwarded + dropped + in flight) and is followed by
    its queue line (two RX queues), none after "stopping:"."""
    probs = []
    stop = next((i for i, l in enumerate(lines)
                 if l.startswith('stopping:')), None)
    if stop is None:
        probs.append('no "stopping:" line')
    for i, l in enumerate(lines):
        if not l.startswith('['):
            continue
        m = PERIODIC_RE.match(l)
        if stop is not None and i > stop:
            probs.append('periodic line after "stopping:": %s' % l)
        q = QUEUES_RE.match(l)
        if q:
            if not PERIODIC_RE.match(lines[i - 1]) or \
                    PERIODIC_RE.match(lines[i - 1]).group(1) != q.group(1):
                probs.append('queue line not after its port line: %s' % l)
            continue
        if not m:
            probs.append('periodic line not as documented: %s' % l)
            continue
        if not QUEUES_RE.match(lines[i + 1] if i + 1 < len(lines) else ''):
            probs.append('port line without its queue line: %s' % l)
        rx, _, fwd, drop, flight = (int(x) for x in m.groups()[1:])
        if rx != fwd + drop + flight:
            probs.append('rx != forwarded + dropped + in flight: %s' % l)
    return probs


def case_periodic(a, work):
    # The control thread prints the lines; it shares the main lcore's
    # CPU (no CPU is free of lcores) and on a loaded machine its checks
    # come late. Neither run below depends on when they come.
    config = ['-p', '0x1', '--config', '(0,0,0),(0,1,1)', '--stats', '1']
    # The lines: two periods, then SIGINT from here.
    what = 'npool-drop --stats 1, SIGINT after two lines'
    res = run_until_lines(a, work, config, 2)
    probs = harness.run_problems(res, what)
    lines = res.stdout.splitlines()
    n = sum(1 for l in lines if PERIODIC_RE.match(l))
    if n < 2:
        probs.append('%s: %d port lines, want 2 or more\n%s' % (
            what, n, '\n'.join('    | ' + l for l in lines[:25])))
    probs += ['%s: %s' % (what, p) for p in periodic_problems(lines)]
    # The stop: --duration 1 falls due at the same check as the first
    # line, however late that check comes: the stop wins, no line at all.
    what = 'npool-drop --stats 1 --duration 1'
    res = harness.run_json(a.drop, work, ['net_null0'],
                           config + ['--duration', '1'], lcores='0-1')
    probs += harness.run_problems(res, what)
    lines = res.stdout.splitlines()
    if not any(l.startswith('stopping:') for l in lines):
        probs.append('%s: no "stopping:" line' % what)
    probs += ['%s: a periodic line at the stop: %s' % (what, l)
              for l in lines if l.startswith('[')]
    return probs


CASES = {
    'over-64k': case_over_64k,
    'ring-leak': case_ring_leak,
    'ring-tx-full': case_ring_tx_full,
    'eth-stats': case_eth_stats,
    'periodic': case_periodic,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    a, names = harness.case_arguments(ap, CASES, ('fwd', 'drop'))
    if names is None:
        return 0
    return harness.run_cases(names, 'regress',
                             lambda name, work: CASES[name](a, work), a.keep)

if __name__ == '__main__':
    sys.exit(main())
