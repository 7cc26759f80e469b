#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""RSS over the polled RX queues and the per-queue RX counters, on vdevs
(python3 stdlib only), one case each:

  pcap-fwd       npool-fwd, two RX queues per net_pcap port (net_pcap
                 offers no RSS hash: each queue reads its own file): the
                 start-up line says RSS is off; port 0's queues count
                 exactly the 40 and 23 frames of their files in telemetry
                 (/app/port,0 while running), in the --stats queue lines,
                 in the final table and in --json; port 1's stay at 0;
                 npool's counters carry the same keys, the head cache's
                 included, in /npool/stats, /npool/lcore,<id>, the JSON
                 (total, lcores) and the table's "total: npool" line
  null-drop      npool-drop, two RX queues of a net_null port (which has
                 RSS and a 128-entry RETA in software) and
                 --rx-queue-size 512: RSS on with every wanted hash type,
                 the RETA written 64/64 and read back equal; the queues'
                 rx add up to the port's, each queue received
  null-fwd-unpolled  npool-fwd on three lcores: port 0 polled on queues 0
                 and 1 gets a third RX queue for the third TX queue, not
                 polled: the RETA spreads over 0 and 1 only; port 1,
                 polled on one queue of three, has RSS off
  gen-no-rss     npool-gen with two TX queues and --tx-queue-size 256:
                 it polls no RX queue: RSS off ("no RX queue polled"), no
                 queue counters, TX rings of 256

  rx_queues.py --fwd build/apps/fwd/npool-fwd --drop ... --gen ... --case NAME
Exit 0 pass, 1 fail.
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import apps_measure  # noqa: E402  (the telemetry client)
import harness  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402

# frames on port 0's RX queues 0 and 1 (pcap-fwd)
NQ = (40, 23)
# the types npool asks for (NPOOL_RX_RSS_HF), as the apps name them
ALL_TYPES = ['ipv4', 'ipv4-frag', 'ipv4-tcp', 'ipv4-udp', 'ipv4-sctp',
             'ipv4-other', 'ipv6', 'ipv6-frag', 'ipv6-tcp', 'ipv6-udp',
             'ipv6-sctp', 'ipv6-other', 'ipv6-ex', 'ipv6-tcp-ex',
             'ipv6-udp-ex']
RSS_OFF_NO_HASH = (r'RSS off: the device offers no RSS hash '
                   r'\(flow_type_rss_offloads 0\): each RX queue gets what '
                   r'the device puts there')


def port_json(js, p):
    return next((e for e in js.get('ports', []) if e.get('port') == p), {})


def want_line(out, regex, what):
    return [] if re.search(regex, out, re.M) else \
        ['%s: no line /%s/' % (what, regex)]


def queue_rx(e):
    return [q.get('rx') for q in e.get('rx_queues', [])]


def table_row(out, label):
    """The values of row `label` of the final table, as strings; None
    when there is no such row."""
    for line in out.splitlines():
        if line.startswith(label + ' '):
            return line[len(label):].split()
    return None


def start_pcap_fwd(work, a):
    """npool-fwd with telemetry, port 0's queue k reading NQ[k] frames."""
    rx = []
    for k, n in enumerate(NQ):
        frames = [packets.pad60(packets.eth(packets.ipv4(
            src='198.18.0.%d' % (k + 2), dst='198.18.1.%d' % (i % 200 + 1))))
            for i in range(n)]
        rx.append(work.file('q%d.pcap' % k))
        pcaplib.write(rx[-1], frames)
    vdevs, txs = harness.pcap_vdevs(work, rx, 2, queues=2)
    jpath = work.file('pcap-fwd.json')
    prefix = work.new_prefix()
    cmd = [a.fwd] + harness.eal_args(prefix, vdevs, '0-1', telemetry=True) + [
        '--', '-p', '0x3', '--config', '(0,0,0),(0,1,1),(1,0,0),(1,1,1)',
        '--stats', '1', '--json', jpath]
    log = open(work.file('pcap-fwd.log'), 'w+')
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    sock = os.path.join(apps_measure.runtime_dir(prefix),
                        'dpdk_telemetry.v2')
    return proc, sock, jpath, log


def telemetry_problems(proc, sock, npool):
    """/app/port,0 once every frame is in: rx_queues exact, rss off.
    npool's /npool/stats, /npool/lcore,0 and /npool/lcore,1 then go into
    dict @npool (compared with the JSON after the run)."""
    tel = apps_measure.connect(proc, sock, 30)
    try:
        deadline = time.monotonic() + 30
        while True:
            p0 = tel.query('/app/port,0')
            if p0 and p0.get('rx') == sum(NQ):
                break
            if time.monotonic() > deadline:
                return ['telemetry: /app/port,0 never reached rx %d: %r'
                        % (sum(NQ), p0)]
            time.sleep(0.1)
        p1 = tel.query('/app/port,1')
        for cmd in ('/npool/stats', '/npool/lcore,0', '/npool/lcore,1',
                    '/npool/usage', '/npool/usage,0'):
            npool[cmd] = tel.query(cmd)
    finally:
        tel.close()
    probs = []
    if p0.get('rx_queues') != list(NQ):
        probs.append('telemetry: /app/port,0 rx_queues %r, want %r'
                     % (p0.get('rx_queues'), list(NQ)))
    if p0.get('rss') != 'off':
        probs.append('telemetry: /app/port,0 rss %r, want "off"'
                     % p0.get('rss'))
    if not p1 or p1.get('rx_queues') != [0, 0]:
        probs.append('telemetry: /app/port,1 rx_queues %r, want [0, 0]'
                     % (p1 or {}).get('rx_queues'))
    return probs


HEAD_KEYS = ('head_refills', 'head_flushes', 'head_misses')


def npool_stats_problems(tel, js, out):
    """npool's counters: the same keys (one field list) in telemetry, in
    the JSON's total and lcores and in the table's "total: npool" line,
    the head cache's among them; /npool/stats at least the sum of the two
    lcores' (the non-EAL slot adds to it)."""
    probs = []
    tot = tel.get('/npool/stats') or {}
    keys = list(tot)
    if not all(k in keys for k in HEAD_KEYS + ('allocs', 'pkt_consumes')):
        probs.append('telemetry /npool/stats keys %r' % keys)
    for cmd in ('/npool/lcore,0', '/npool/lcore,1'):
        if list(tel.get(cmd) or {}) != keys:
            probs.append('telemetry %s keys %r, want %r'
                         % (cmd, list(tel.get(cmd) or {}), keys))
    bad = [k for k in keys if tot[k] < sum((tel.get(c) or {}).get(k, 0)
           for c in ('/npool/lcore,0', '/npool/lcore,1'))]
    if bad:
        probs.append('telemetry /npool/stats below its lcores in %r' % bad)
    # One socket here: one npool instance, socket 0's, the whole sum.
    use, use0 = tel.get('/npool/usage') or {}, tel.get('/npool/usage,0') or {}
    if use.get('instances') != 1 or use0.get('socket') != 0 or \
            use0.get('instances') != 1 or \
            use0.get('heads') != use.get('heads') or not use.get('heads'):
        probs.append('telemetry /npool/usage %r and /npool/usage,0 %r: '
                     'want one instance, socket 0, the same heads'
                     % (use, use0))
    jn = js.get('total', {}).get('npool', {})
    if list(jn) != keys:
        probs.append('JSON total.npool keys %r, want %r' % (list(jn), keys))
    for lc in js.get('lcores', []):
        if list(lc.get('npool', {})) != keys:
            probs.append('JSON lcore %r npool keys %r'
                         % (lc.get('lcore'), list(lc.get('npool', {}))))
    m = re.search(r'^total: npool (.*)$', out, re.M)
    names = [f.split()[0] for f in m.group(1).split(', ')] if m else None
    if names != keys:
        probs.append('table "total: npool" line names %r, want %r'
                     % (names, keys))
    return probs


def case_pcap_fwd(a, work):
    proc, sock, jpath, log = start_pcap_fwd(work, a)
    probs = []
    tel = {}
    try:
        probs += telemetry_problems(proc, sock, tel)
        time.sleep(1.2)       # one more --stats period
    except (apps_measure.RunError, OSError, ValueError) as e:
        probs.append('telemetry: %s: %s' % (type(e).__name__, e))
    finally:
        rc = harness.interrupt(proc)
    log.seek(0)
    out = log.read()
    log.close()
    if rc != 0:
        probs.append('npool-fwd exit status %r\n%s' % (rc, out[-2000:]))
    js = harness.load_json(jpath)
    if '_error' in js:
        return probs + ['no JSON: %s' % js['_error']]
    probs += harness.leak_problems(js)
    probs += npool_stats_problems(tel, js, out)
    for p in (0, 1):
        probs += want_line(out, r'^port %d: %s$' % (p, RSS_OFF_NO_HASH),
                           'start-up')
        e = port_json(js, p)
        want = list(NQ) if p == 0 else [0, 0]
        if queue_rx(e) != want or e.get('rx') != sum(want):
            probs.append('JSON port %d: rx %r, rx_queues %r, want %r'
                         % (p, e.get('rx'), e.get('rx_queues'), want))
        if [q.get('lcore') for q in e.get('rx_queues', [])] != [0, 1]:
            probs.append('JSON port %d: queues polled by lcores %r, want '
                         '[0, 1]' % (p, e.get('rx_queues')))
        rss = e.get('rss', {})
        if rss.get('on') is not False or rss.get('reta_size') != 0 or \
                'no RSS hash' not in rss.get('reason', ''):
            probs.append('JSON port %d: rss %r' % (p, rss))
    # the final table: one row per queue, port 0 and port 1 columns
    for q in (0, 1):
        row = table_row(out, '  rx queue %d' % q)
        if row != [str(NQ[q]), '0', '-']:
            probs.append('table row "rx queue %d": %r, want %r'
                         % (q, row, [str(NQ[q]), '0', '-']))
    # --stats: a queue line per port, the last one exact
    qlines = re.findall(r'^\[ *[0-9.]+ s\] port 0 queues: rx 0: (\d+) '
                        r'\([0-9.]+ Mpps\) 1: (\d+) \([0-9.]+ Mpps\)$', out,
                        re.M)
    if not qlines or tuple(int(x) for x in qlines[-1]) != NQ:
        probs.append('--stats queue lines of port 0: %r, last want %r'
                     % (qlines, NQ))
    return probs


def case_null_drop(a, work):
    res = harness.run_json(a.drop, work, ['net_null0'],
                           ['-p', '0x1', '--config', '(0,0,0),(0,1,1)',
                            '--rx-queue-size', '512', '--duration', '1'],
                           '0-1')
    probs = harness.run_problems(res, 'npool-drop')
    probs += want_line(res.stdout, r'^port 0: net_null, .* 2 RX queue\(s\) '
                       r'x 512 desc', 'start-up')
    probs += want_line(res.stdout, r'^port 0: RSS on over RX queues 0-1: '
                       r'hash %s \(rss_hf 0x3bffc\), RETA 128 entries, '
                       r'64-64 per queue, read back equal$'
                       % ' '.join(ALL_TYPES), 'start-up')
    if 'not offered' in res.stdout:
        probs.append('a hash type logged as lacking on net_null')
    e = port_json(res.json, 0)
    rx = queue_rx(e)
    if len(rx) != 2 or not all(isinstance(x, int) and x > 0 for x in rx) \
            or sum(rx) != e.get('rx'):
        probs.append('JSON port 0: rx %r, rx_queues %r: want two non-zero '
                     'queues adding up' % (e.get('rx'), e.get('rx_queues')))
    rss = e.get('rss', {})
    want = {'on': True, 'rss_hf': 0x3bffc, 'hash': ALL_TYPES, 'lacking': [],
            'queues': 2, 'reta_size': 128, 'reta_per_queue': [64, 64],
            'reta_read_back': True}
    bad = {k: rss.get(k) for k, v in want.items() if rss.get(k) != v}
    if bad or 'reason' in rss:
        probs.append('JSON port 0 rss: %r differ from %r' % (bad, want))
    lcores = {x.get('lcore'): x.get('rx') for x in
              res.json.get('lcores', [])}
    if sorted(lcores.values()) != sorted(rx):
        probs.append('lcores rx %r, queues %r: one queue each' % (lcores, rx))
    return probs


def case_null_fwd_unpolled(a, work):
    res = harness.run_json(a.fwd, work, ['net_null0', 'net_null1'],
                           ['-p', '0x3', '--config', '(0,0,0),(0,1,1),(1,0,2)',
                            '--duration', '0.5'], '0@0,1@1,2@1')
    probs = harness.run_problems(res, 'npool-fwd')
    probs += want_line(res.stdout, r'^port 0: net_null, .* 2 RX queue\(s\) '
                       r'\(\+1 not polled\)', 'start-up')
    probs += want_line(res.stdout, r'^port 0: RSS on over RX queues 0-1: '
                       r'.* RETA 128 entries, 64-64 per queue, read back '
                       r'equal$', 'start-up')
    probs += want_line(res.stdout, r'^port 1: RSS off: one RX queue polled$',
                       'start-up')
    e0, e1 = port_json(res.json, 0), port_json(res.json, 1)
    if e0.get('rss', {}).get('reta_per_queue') != [64, 64] or \
            e0.get('rss', {}).get('queues') != 2:
        probs.append('JSON port 0 rss %r: want the RETA on queues 0 and 1'
                     % e0.get('rss'))
    if len(queue_rx(e0)) != 2 or sum(queue_rx(e0)) != e0.get('rx'):
        probs.append('JSON port 0 rx %r, rx_queues %r'
                     % (e0.get('rx'), e0.get('rx_queues')))
    if queue_rx(e1) != [e1.get('rx')] or \
            e1.get('rss', {}).get('on') is not False:
        probs.append('JSON port 1 rx %r, rx_queues %r, rss %r'
                     % (e1.get('rx'), e1.get('rx_queues'), e1.get('rss')))
    if table_row(res.stdout, '  rx queue 1') is None or \
            table_row(res.stdout, '  rx queue 1')[1] != '-':
        probs.append('table row "rx queue 1": %r, want port 1 "-"'
                     % table_row(res.stdout, '  rx queue 1'))
    return probs


def case_gen_no_rss(a, work):
    res = harness.run_json(a.gen, work, ['net_null0,no-rx=1'],
                           ['-p', '0x1', '--config', '(0,0,0),(0,1,1)',
                            '--tx-queue-size', '256', '--count', '1000'],
                           '0-1')
    probs = harness.run_problems(res, 'npool-gen')
    probs += want_line(res.stdout, r'^port 0: net_null, .* 2 TX queue\(s\) '
                       r'x 256 desc', 'start-up')
    probs += want_line(res.stdout, r'^port 0: RSS off: no RX queue polled$',
                       'start-up')
    e = port_json(res.json, 0)
    if e.get('rx_queues') != [] or e.get('rss', {}).get('on') is not False:
        probs.append('JSON port 0: rx_queues %r, rss %r' % (
            e.get('rx_queues'), e.get('rss')))
    if 'rx queue' in res.stdout:
        probs.append('npool-gen printed RX queue rows')
    return probs


CASES = {
    'pcap-fwd': case_pcap_fwd,
    'null-drop': case_null_drop,
    'null-fwd-unpolled': case_null_fwd_unpolled,
    'gen-no-rss': case_gen_no_rss,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    a, names = harness.case_arguments(ap, CASES, ('fwd', 'drop', 'gen'))
    if names is None:
        return 0
    return harness.run_cases(names, 'rxq', lambda n, w: CASES[n](a, w),
                             a.keep)


if __name__ == '__main__':
    sys.exit(main())
