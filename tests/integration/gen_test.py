#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-gen on vdevs: exact packet counts and bytes on net_pcap tx, clone
groups in both --refcnt modes, pcap replay, partial TX bursts on a net_ring
nobody drains, bad command lines; the leak block (every mbuf back, refcnt 1,
no npool fragment or chunk out) clean in every run.

  gen_test.py --app build/apps/gen/npool-gen --case NAME [--captures DIR]
  gen_test.py --list
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import ipaddress
import os
import re
import signal
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import harness  # noqa: E402
import oracle  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402
import run_fwd  # noqa: E402

BURST = 32
# npool-gen's defaults and its IMIX cycle (apps/gen/gen_pkt.c)
DST_MAC = '02:00:00:00:00:01'
SRC_IP = '198.18.0.1'
DST_IP = '198.19.0.1'
UDP_PORT = 1024
IMIX = [60, 590, 60, 60, 590, 60, 60, 590, 60, 60, 590, 1514]
GEN_MAX_FRAME = 9018
# "port 0: 1023 packets waiting in the RX queues at the stop, ..."
DRAINED_RE = re.compile(r'^port (\d+): (\d+) packets .*RX queues', re.M)


# ------------------------------------------------------- expected frames

def udp_frame(size, seq, flow, port, queue, port_mac, dst_mac=DST_MAC,
              src_ip=SRC_IP, dst_ip=DST_IP):
    """The frame npool-gen sends as packet `seq` of a TX queue, built here
    from the contract (checksums computed from scratch)."""
    src = str(ipaddress.IPv4Address(src_ip) + flow)
    sport = UDP_PORT + flow % (65536 - UDP_PORT)
    head = struct.pack('!QHH', seq, port, queue)
    tail = bytes(k & 0xFF for k in range(14 + 20 + 8 + len(head), size))
    payload = head + tail
    ulen = 8 + len(payload)
    pseudo = (packets.v4addr(src) + packets.v4addr(dst_ip) +
              struct.pack('!BBH', 0, 17, ulen))
    dgram = struct.pack('!HHHH', sport, UDP_PORT, ulen, 0) + payload
    ck = packets.inet_csum(pseudo + dgram) or 0xFFFF
    dgram = dgram[:6] + struct.pack('!H', ck) + dgram[8:]
    ip = packets.ipv4(src=src, dst=dst_ip, payload=dgram, ident=0, df=True)
    return packets.eth(ip, dst=dst_mac, src=port_mac)


def checksums_ok(frame):
    """IPv4 header and UDP checksums of a synthetic frame, verified."""
    ip = frame[14:34]
    if not oracle.ipv4_header_ok(ip):
        return False
    udp = frame[34:]
    pseudo = ip[12:20] + struct.pack('!BBH', 0, 17, len(udp))
    return oracle.csum16(pseudo + udp) == 0xFFFF


# ----------------------------------------------------------------- runs

def run_gen(app, work, vdevs, args):
    """npool-gen on lcores 0-1 (harness.run_json)."""
    return harness.run_json(app, work, vdevs, args, '0-1')


def run_problems(res, what):
    """harness.run_problems(), and npool-gen's leak.bad_refcnt 0."""
    probs = harness.run_problems(res, what)
    js = res.json
    if '_error' not in js and js.get('leak', {}).get('bad_refcnt') != 0:
        probs.append('%s: leak.bad_refcnt = %r'
                     % (what, js.get('leak', {}).get('bad_refcnt')))
    return probs


def gen_port(js, port):
    for p in js.get('gen', {}).get('ports', []):
        if p.get('port') == port:
            return p
    return {}


def counts_problems(js, port, sent, nbytes, allocs=None):
    """JSON figures of `port`: exactly `sent` packets of `nbytes` bytes."""
    g = gen_port(js, port)
    want = {'tx': sent, 'tx_bytes': nbytes, 'tx_unsent': 0, 'slots': sent,
            'eth_opackets': sent}
    if allocs is not None:
        want['allocs'] = allocs
    probs = ['port %d: gen.%s = %r, want %r' % (port, k, g.get(k), v)
             for k, v in want.items() if g.get(k) != v]
    c = [p for p in js.get('ports', []) if p.get('port') == port]
    if not c or c[0].get('tx') != sent or c[0].get('dropped') != 0:
        probs.append('port %d: common counters %r, want tx %d dropped 0'
                     % (port, c, sent))
    return probs


def frames_problems(got, want, what):
    """`got` (records of a tx pcap) must be exactly the frames `want`."""
    probs = []
    if len(got) != len(want):
        probs.append('%s: %d frames written, want %d'
                     % (what, len(got), len(want)))
    for i, ((data, orig), w) in enumerate(zip(got, want)):
        if data != w or orig != len(w):
            probs.append('%s: frame %d differs (%d bytes, want %d)'
                         % (what, i, len(data), len(w)))
            break
    return probs


def synthetic_case(app, work, args, sizes, flows=1, clone=0, pool='npool',
                   count=None, **frame_kw):
    """Run npool-gen on a net_pcap port and compare every written frame
    with the one built here; sizes: size of allocated packet i is
    sizes[i % len(sizes)]."""
    vdevs, txs = harness.pcap_vdevs(work, [], 1)
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--pool', pool,
                                     '--count', str(count)] + args)
    probs = run_problems(res, 'npool-gen ' + ' '.join(args))
    mac = run_fwd.port_macs(res).get(0)
    if mac is None:
        return probs + ['no MAC for port 0 in the output']
    want = []
    seq = 0
    while len(want) < count:
        f = udp_frame(sizes[seq % len(sizes)], seq, seq % flows, 0, 0, mac,
                      **frame_kw)
        want += [f] * min(clone + 1, count - len(want))
        seq += 1
    got = harness.read_tx(txs[0][0])
    probs += frames_problems(got, want, 'tx_0_0.pcap')
    bad = [i for i, (d, _) in enumerate(got) if not checksums_ok(d)]
    if bad:
        probs.append('%d frames with a bad IPv4/UDP checksum (first #%d)'
                     % (len(bad), bad[0]))
    probs += counts_problems(res.json, 0, count, sum(map(len, want)), seq)
    return probs


# ---------------------------------------------------------------- cases

def case_size(app, work, pool):
    return synthetic_case(app, work, ['--size', '128'], [128], pool=pool,
                          count=1000)


def case_jumbo(app, work, pool):
    # 9000-byte frames: npool fragments of a third of a chunk; clones
    return synthetic_case(app, work, ['--size', '9000', '--clone', '2'],
                          [9000], clone=2, pool=pool, count=100)


def case_imix(app, work, pool):
    # 100 is not a multiple of the 12-packet cycle: the order matters.
    return synthetic_case(app, work, ['--imix'], IMIX, pool=pool, count=100)


def case_flows(app, work, pool):
    kw = {'dst_mac': '02:00:00:00:00:42', 'src_ip': '198.18.1.10',
          'dst_ip': '198.19.2.20'}
    args = ['--flows', '7', '--size', '200', '--dst-mac', kw['dst_mac'],
            '--src-ip', kw['src_ip'], '--dst-ip', kw['dst_ip']]
    return synthetic_case(app, work, args, [200], flows=7, pool=pool,
                          count=99, **kw)


def clone_case(refcnt, pool):
    def run(app, work, _pool):
        # groups of 5 cross the 32-packet bursts; 1003 cuts the last group
        args = ['--clone', '4', '--refcnt', refcnt, '--flows', '3']
        return synthetic_case(app, work, args, [60], flows=3, clone=4,
                              pool=pool, count=1003)
    return run


def case_pcap(app, work, pool, captures=None):
    harness.require_captures(captures)
    frames = run_fwd.capture_inputs(captures).frames
    if not frames:
        harness.skip('no Ethernet pcap in %s' % captures)
    rx = work.file('replay.pcap')
    pcaplib.write(rx, frames)
    sendable = [f for f in frames if 0 < len(f) <= GEN_MAX_FRAME]
    count = 2 * len(sendable) + 5   # twice around the loop, and a bit
    want = [sendable[i % len(sendable)] for i in range(count)]
    vdevs, txs = harness.pcap_vdevs(work, [], 1)
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--pool', pool,
                                     '--pcap', rx, '--count', str(count)])
    probs = run_problems(res, 'npool-gen --pcap')
    probs += frames_problems(harness.read_tx(txs[0][0]), want, 'tx_0_0.pcap')
    probs += counts_problems(res.json, 0, count, sum(map(len, want)), count)
    g = res.json.get('gen', {})
    if (g.get('pcap_frames'), g.get('pcap_skipped')) != (
            len(sendable), len(frames) - len(sendable)):
        probs.append('gen.pcap_frames/skipped = %r/%r, want %d/%d' % (
            g.get('pcap_frames'), g.get('pcap_skipped'), len(sendable),
            len(frames) - len(sendable)))
    harness.log('replayed %d frames of %d (%d too long or empty)'
                % (len(sendable), len(frames), len(frames) - len(sendable)))
    return probs


def partial_case(refcnt, pool):
    def run(app, work, _pool):
        # net_ring0 loops TX into its own RX ring (1024 slots) and nobody
        # polls it: the ring fills, a burst is cut short, then every burst
        # is refused. The ring's content is released at the stop. 5003
        # sends in groups of 5: the last group is cut by --count.
        count = 5003
        args = ['-p', '0x1', '--pool', pool, '--count', str(count),
                '--clone', '4', '--refcnt', refcnt]
        res = run_gen(app, work, ['net_ring0'], args)
        probs = run_problems(res, 'npool-gen on net_ring0')
        g = gen_port(res.json, 0)
        tx, unsent = g.get('tx'), g.get('tx_unsent')
        if not isinstance(tx, int) or not isinstance(unsent, int):
            return probs + ['gen.ports[0] = %r' % g]
        if not 0 < tx < count or unsent <= 0:
            probs.append('tx %d, unsent %d: the ring never filled' %
                         (tx, unsent))
        if tx + unsent != count or g.get('slots') != count:
            probs.append('tx %d + unsent %d != --count %d (slots %r)'
                         % (tx, unsent, count, g.get('slots')))
        if g.get('eth_opackets') != tx:
            probs.append('tx %d, but the ring took %r' %
                         (tx, g.get('eth_opackets')))
        drained = {int(m.group(1)): int(m.group(2))
                   for m in DRAINED_RE.finditer(res.stdout)}
        if drained.get(0) != tx:
            probs.append('tx %d, but %r packets were waiting in the ring'
                         % (tx, drained.get(0)))
        if g.get('allocs') != -(-count // 5):
            probs.append('allocs %r, want %d' % (g.get('allocs'),
                                                 -(-count // 5)))
        if tx % BURST == 0:
            harness.log('note: no burst was cut in the middle (tx %d)' % tx)
        harness.log('net_ring0: %d sent, %d refused' % (tx, unsent))
        return probs
    return run


def case_two_ports(app, work, pool):
    """--config: one TX queue per port, each on its own lcore."""
    vdevs, txs = harness.pcap_vdevs(work, [], 2)
    count = 777
    res = run_gen(app, work, vdevs, ['-p', '0x3', '--pool', pool,
                                     '--config', '(0,0,0),(1,0,1)',
                                     '--count', str(count), '--size', '64'])
    probs = run_problems(res, 'npool-gen -p 0x3')
    macs = run_fwd.port_macs(res)
    for p in (0, 1):
        if p not in macs:
            probs.append('no MAC for port %d' % p)
            continue
        want = [udp_frame(64, i, 0, p, 0, macs[p]) for i in range(count)]
        probs += frames_problems(harness.read_tx(txs[p][0]), want,
                                 'tx_%d_0.pcap' % p)
        probs += counts_problems(res.json, p, count, 64 * count, count)
    return probs


def case_two_queues(app, work, pool):
    """--config: two TX queues of one port on two lcores; --count is
    split between them (501 + 500), each numbers its own packets."""
    vdevs, txs = harness.pcap_vdevs(work, [], 1, queues=2)
    count = 1001
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--pool', pool,
                                     '--config', '(0,0,0),(0,1,1)',
                                     '--count', str(count)])
    probs = run_problems(res, 'npool-gen, 2 TX queues')
    mac = run_fwd.port_macs(res).get(0)
    if mac is None:
        return probs + ['no MAC for port 0 in the output']
    for q, n in ((0, 501), (1, 500)):
        want = [udp_frame(60, i, 0, 0, q, mac) for i in range(n)]
        probs += frames_problems(harness.read_tx(txs[0][q]), want,
                                 'tx_0_%d.pcap' % q)
    probs += counts_problems(res.json, 0, count, 60 * count, count)
    return probs


def case_rate(app, work, pool):
    """--rate: 300 sends at 2000/s take >= (300 - 32) / 2000 s."""
    vdevs, txs = harness.pcap_vdevs(work, [], 1)
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--pool', pool,
                                     '--rate', '2000', '--count', '300'])
    probs = run_problems(res, 'npool-gen --rate 2000')
    g = gen_port(res.json, 0)
    if g.get('tx') != 300 or len(harness.read_tx(txs[0][0])) != 300:
        probs.append('gen.tx %r, want 300' % g.get('tx'))
    if not g.get('seconds', 0) >= (300 - BURST) / 2000.0:
        probs.append('300 sends in %r s: faster than --rate 2000'
                     % g.get('seconds'))
    return probs


def case_rate_split(app, work, pool):
    """--rate below the number of TX queues: --rate 1 on four queues of one
    port for 1.5 s sends about 2 (every queue 1 pps plus one packet of
    starting credit would send 8); --rate 4 --count 4 on the same queues
    ends (each queue a quarter of the rate, none stuck at 0 pps)."""
    config = '(0,0,0),(0,1,1),(0,2,0),(0,3,1)'
    vdevs = ['net_null0,no-rx=1']
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--pool', pool, '--rate',
                                     '1', '--config', config,
                                     '--duration', '1.5'])
    probs = run_problems(res, 'npool-gen --rate 1, 4 queues')
    tx = gen_port(res.json, 0).get('tx')
    if not isinstance(tx, int) or not 1 <= tx <= 3:
        probs.append('--rate 1 for 1.5 s on 4 queues sent %r, want 2' % tx)
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--pool', pool, '--rate',
                                     '4', '--count', '4', '--config', config])
    probs += run_problems(res, 'npool-gen --rate 4 --count 4, 4 queues')
    g = gen_port(res.json, 0)
    if g.get('tx') != 4 or not g.get('seconds', 0) >= 0.5:
        probs.append('--rate 4 --count 4: tx %r over %r s, want 4 over '
                     '0.75 s' % (g.get('tx'), g.get('seconds')))
    return probs


def case_rate_stall(app, work, pool):
    """--rate 100000 for 3 s with the process stopped (SIGSTOP) for 0.5 s
    after 0.6 s: the token bucket holds GEN_RATE_DEPTH_MS (100 ms) of
    sends, so about 0.4 s of sends (40000) are lost, counted in rate_lost
    and named in a warning, and the 100 ms are caught up (tx about 260000;
    a 1 ms bucket would send about 250000 and say nothing). The run lasts
    well past the stop: a stop that reached the end of --duration (a start
    seen late on a loaded machine) would end the run with the stall
    uncounted."""
    rate, secs = 100000, 3.0
    jpath = work.file('gen-stall.json')
    cmd = ([app] + harness.eal_args(work.new_prefix(), ['net_null0,no-rx=1'],
                                    '0-1') +
           ['--', '--json', jpath, '-p', '0x1', '--pool', pool, '--rate',
            str(rate), '--duration', str(secs)])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        # The port lines come just before the lcores start sending.
        seen = b''
        while b'MTU' not in seen:
            line = proc.stdout.readline()
            if not line:
                break
            seen += line
        time.sleep(0.6)
        os.kill(proc.pid, signal.SIGSTOP)
        t0 = time.time()
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGCONT)
        stopped = time.time() - t0
        out, err = proc.communicate(timeout=120)
        out = seen + out
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    res = harness.check_sanitizers(harness.Result(
        cmd, proc.returncode, out.decode('utf-8', 'replace'),
        err.decode('utf-8', 'replace'), False))
    res.json = harness.load_json(jpath)
    probs = run_problems(res, 'npool-gen --rate %d, stopped %.2f s'
                         % (rate, stopped))
    g = gen_port(res.json, 0)
    # The stop lasts about `stopped`: on a loaded machine the process may
    # wait longer for a CPU after SIGCONT, and its lcore may run on for a
    # while after kill() returned (an ASan run at concurrency 4 lost 0.32 s
    # of sends of a 0.50 s stop), so rate_lost has a loose floor only.
    # What holds whatever the load: every send owed by the clock was
    # sent, or counted lost, or is still in the bucket at the end (at
    # most GEN_RATE_DEPTH_MS of sends).
    lost_min = 0.6 * (stopped - 0.1) * rate
    lost, tx = g.get('rate_lost'), g.get('tx')
    owed = rate * g.get('seconds', 0)
    if not isinstance(lost, int) or lost < lost_min:
        probs.append('rate_lost %r after a %.2f s stop, want at least %.0f'
                     % (lost, stopped, lost_min))
    elif not isinstance(tx, int) or not (owed - 0.1 * rate - 2 * BURST <=
                                         tx + lost <= owed + 2 * BURST):
        probs.append('tx %r + rate_lost %r = %r, want %.0f (rate x %.3f s) '
                     'less at most 100 ms of credit' % (
                         tx, lost, (tx or 0) + lost, owed,
                         g.get('seconds', 0)))
    if not re.search(r'port 0: warning: \d+ pps sent, [\d.]+% of --rate '
                     r'100000; \d+ sends owed beyond the 100 ms bucket '
                     r'were lost',
                     res.stdout):
        probs.append('no --rate warning in the output:\n' + res.tail(4))
    return probs


def case_duration(app, work, pool):
    """--duration on net_null: stops by itself, sends, no leak."""
    res = run_gen(app, work, ['net_null0,no-rx=1'],
                  ['-p', '0x1', '--pool', pool, '--duration', '0.3',
                   '--clone', '63'])
    probs = run_problems(res, 'npool-gen --duration 0.3')
    g = gen_port(res.json, 0)
    if not g.get('tx', 0) > 0 or g.get('tx') != g.get('eth_opackets'):
        probs.append('gen.ports[0] = %r' % g)
    return probs


# name, extra args, regex of the error line after "npool-gen: "
BAD = [
    ('--refcnt bogus', ['--refcnt', 'twice'],
     r"--refcnt: 'twice' is not set or inc"),
    ('--clone negative', ['--clone', '-1'], r"--clone: '-1' is not a number"),
    ('--clone too big', ['--clone', '65535'],
     r'--clone: 65535 is out of range 0\.\.65534'),
    ('--size too small', ['--size', '59'],
     r'--size: 59 is out of range 60\.\.9000'),
    ('--size too big', ['--size', '9001'],
     r'--size: 9001 is out of range 60\.\.9000'),
    ('--size not a number', ['--size', '1k'], r"--size: '1k' is not a number"),
    ('--flows 0', ['--flows', '0'], r'--flows: 0 is out of range 1\.\.65536'),
    ('--rate not a number', ['--rate', 'fast'],
     r"--rate: 'fast' is not a number"),
    ('--count negative', ['--count', '-3'], r"--count: '-3' is not a number"),
    ('--dst-mac bad', ['--dst-mac', '02:00:00:00:00'],
     r"--dst-mac: '02:00:00:00:00' is not a MAC address"),
    ('--src-ip bad', ['--src-ip', '198.18.0.256'],
     r"--src-ip: '198\.18\.0\.256' is not an IPv4 address"),
    ('--dst-ip bad', ['--dst-ip', 'localhost'],
     r"--dst-ip: 'localhost' is not an IPv4 address"),
    ('--imix with --size', ['--imix', '--size', '100'],
     r'--imix: cannot be combined with --size'),
    ('--pcap with --flows', ['--pcap', '{empty}', '--flows', '2'],
     r'--pcap: cannot be combined with --flows'),
    ('--pcap missing file', ['--pcap', '/nonexistent/npool.pcap'],
     r'--pcap: /nonexistent/npool\.pcap: '),
    ('--pcap empty capture', ['--pcap', '{empty}'],
     r'--pcap: {empty}: no frame of 1\.\.9018 bytes'),
    ('--pool bogus', ['--pool', 'heap'], r"--pool: 'heap' is not npool"),
    ('--imix with a value', ['--imix=1'], r'--imix: takes no value'),
    ('unknown option', ['--bogus'], r'--bogus: unknown option'),
    ('--rate without a value', ['--rate'], r'--rate: needs a value'),
    ('--idle-exit (nothing is received)', ['--idle-exit', '100'],
     r'--idle-exit: npool-gen receives nothing'),
    ('--copybreak (RX only)', ['--copybreak', '256'],
     r'--copybreak: npool-gen receives nothing'),
    ('-P (RX only)', ['-P'], r'-P: npool-gen receives nothing'),
    ('--mbuf-size (RX only)', ['--mbuf-size=4096'],
     r'--mbuf-size: npool-gen receives nothing'),
    ('--nb-mbufs (RX only)', ['--nb-mbufs', '64'],
     r'--nb-mbufs: npool-gen receives nothing'),
    ('--rx-queue-size (RX only)', ['--rx-queue-size', '512'],
     r'--rx-queue-size: npool-gen receives nothing'),
    ('--flows wrapping past 255.255.255.255',
     ['--src-ip', '255.255.255.255', '--flows', '2'],
     r'--flows: 2 source addresses from --src-ip would wrap'),
]


def case_bad_input(app, work, _pool):
    vdevs, _ = harness.pcap_vdevs(work, [], 1)
    empty = work.file('empty.pcap')
    probs = []
    for name, args, regex in BAD:
        args = [a.replace('{empty}', empty) for a in args]
        regex = regex.replace('{empty}', re.escape(empty))
        cmd = ([app] + harness.eal_args(work.new_prefix(), vdevs, '0-1') +
               ['--', '-p', '0x1', '--count', '10'] + args)
        res = harness.run(cmd, timeout=60)
        why = harness.usage_error_problems(res, 'npool-gen', regex)
        if why:
            probs.append('%s: %s\n%s' % (name, ', '.join(why), res.tail()))
    # --help lists what npool-gen takes, not the RX side's options
    res = harness.run([app, '--', '--help'], timeout=60)
    for flag in ('-P ', '--copybreak', '--nb-mbufs N', '--mbuf-size',
                 '--idle-exit MS', '--rx-queue-size'):
        if re.search(r'^  ' + re.escape(flag), res.stdout, re.M):
            probs.append('--help lists the RX option %s' % flag.strip())
    for flag in ('--rate', '--tx-queue-size', '--config', '--duration'):
        if not re.search(r'^  ' + re.escape(flag), res.stdout, re.M):
            probs.append('--help does not list %s' % flag)
    # control: the same vdevs and a good command line
    res = run_gen(app, work, vdevs, ['-p', '0x1', '--count', '10'])
    probs += run_problems(res, 'control run')
    return probs


CASES = {
    'size-npool': (case_size, 'npool'),
    'size-mempool': (case_size, 'mempool'),
    'jumbo-npool': (case_jumbo, 'npool'),
    'jumbo-mempool': (case_jumbo, 'mempool'),
    'imix-npool': (case_imix, 'npool'),
    'imix-mempool': (case_imix, 'mempool'),
    'flows-npool': (case_flows, 'npool'),
    'flows-mempool': (case_flows, 'mempool'),
    'clone-set-npool': (clone_case('set', 'npool'), None),
    'clone-inc-npool': (clone_case('inc', 'npool'), None),
    'clone-set-mempool': (clone_case('set', 'mempool'), None),
    'clone-inc-mempool': (clone_case('inc', 'mempool'), None),
    'pcap-npool': (case_pcap, 'npool'),
    'pcap-mempool': (case_pcap, 'mempool'),
    'partial-set-npool': (partial_case('set', 'npool'), None),
    'partial-inc-npool': (partial_case('inc', 'npool'), None),
    'partial-set-mempool': (partial_case('set', 'mempool'), None),
    'partial-inc-mempool': (partial_case('inc', 'mempool'), None),
    'two-ports-npool': (case_two_ports, 'npool'),
    'two-queues-mempool': (case_two_queues, 'mempool'),
    'rate-npool': (case_rate, 'npool'),
    'rate-split-npool': (case_rate_split, 'npool'),
    'rate-stall-npool': (case_rate_stall, 'npool'),
    'duration-mempool': (case_duration, 'mempool'),
    'bad-input': (case_bad_input, None),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app')
    ap.add_argument('--captures')
    a, names = harness.case_arguments(ap, CASES)
    if names is None:
        return 0
    harness.require_app(a.app, 'npool-gen')

    def run_one(name, work):
        fn, pool = CASES[name]
        if fn is case_pcap:
            return fn(a.app, work, pool, a.captures)
        return fn(a.app, work, pool)
    return harness.run_cases(names, 'gen', run_one, a.keep)


if __name__ == '__main__':
    sys.exit(main())
