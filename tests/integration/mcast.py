#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd's multicast routing (--mroute) on vdevs, byte by byte and
under a full TX ring (cases, --case NAME|all, --list):

  pcap-*       net_pcap ports 0..3: port 0 reads the frames of FRAMES,
               port 1 one frame for a route whose input is port 0; each
               port's output must be exactly the copies written here
               (group MAC, the port's MAC, TTL / hop limit - 1, tag and
               padding gone, a valid IPv4 checksum), in order; drops by
               reason, forwarded, tx and each route's pkts, bytes, copies
               and wrong_if as counted here; every mbuf back. Variants:
               --pool npool, mempool, --copybreak 256 (tiny npool packets
               shared by the copies), --mbuf-size 192 (every frame a chain
               whose segments the copies share).
  telemetry    the pcap case's frames, npool-fwd left running: once every
               frame is in, /fwd/mroutes and /fwd/mroute,<i> give each
               route's counters as the case counts them, and the route
               as the file says; after SIGINT the JSON agrees.
  telemetry-pages  600 routes, more than a telemetry array holds:
               /fwd/mroutes,FIRST gives 128 routes from FIRST, the pages
               together each route once with its counters.
  ring-full-*  port 0 replays a multicast frame forever (infinite_rx) to
               two net_ring ports whose TX queue nobody reads (the lcore
               that forwards sends on TX queue 1, which loops into RX queue
               1, not polled): the rings fill and copies are refused
               (mc_tx_full), or, with copy-break, npool's tiny packets run
               out first and heads are not had (mc_nomem); exit 0, every
               mbuf back (no copy leaked or freed twice: the shared packet
               goes with its last copy), copies == tx + mc_tx_full over
               the two ports, 2 heads tried a packet (copies + mc_nomem),
               rx == forwarded + dropped.

  mcast.py --fwd build/apps/fwd/npool-fwd --case NAME|all [--keep]
Exit 0 pass, 1 fail.
"""

import argparse
import os
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import apps_measure  # noqa: E402  (the telemetry client)
import harness  # noqa: E402
import oracle  # noqa: E402
import pcaplib  # noqa: E402
from packets import eth, ipv4, ipv6, pad60, udp  # noqa: E402

MROUTES = """\
mroute from 0 source 198.18.1.2 group 225.1.2.3 to 1 2
mroute from 0 group ff0e::4 to 1 2 3
mroute from 0 source 198.18.1.2 group 225.1.2.5 to 1 2:5   # threshold 5
"""
SRC4, SRC6 = '198.18.1.2', '2001:2::1'
GMAC = {'225.1.2.3': '01:00:5e:01:02:03', '225.1.2.5': '01:00:5e:01:02:05',
        '225.9.9.9': '01:00:5e:09:09:09', 'ff0e::4': '33:33:00:00:00:04'}


def port_mac(p):
    """net_pcap's MAC of port @p (02:70:63:61:70:0p)."""
    return bytes([2, 0x70, 0x63, 0x61, 0x70, p])


def l3_4(dst, ttl, n=32, ident=7):
    return ipv4(SRC4, dst, udp(bytes(i & 0xFF for i in range(n))), ttl=ttl,
                ident=ident)


def l3_6(dst, hlim, n=40):
    return ipv6(SRC6, dst, udp(bytes(i * 3 & 0xFF for i in range(n))),
                hlim=hlim)


def out4(l3):
    """The copy's L3 bytes: TTL - 1, checksum recomputed."""
    o = bytearray(l3)
    o[8] -= 1
    o[10:12] = oracle.ipv4_checksum(o[:20]).to_bytes(2, 'big')
    return bytes(o)


def out6(l3):
    o = bytearray(l3)
    o[7] -= 1
    return bytes(o)


def frames():
    """(frame into port 0, {port: the copy it sends}, drop reason)."""
    big = l3_4('225.1.2.3', 64, n=1400, ident=9)
    t = []
    for dst, ttl, ports in (('225.1.2.3', 10, (1, 2)),
                            ('225.1.2.5', 5, (1,)),
                            ('225.1.2.5', 6, (1, 2))):
        l3 = l3_4(dst, ttl, ident=len(t))
        t.append((eth(l3, dst=GMAC[dst]),
                  {p: eth(out4(l3), dst=GMAC[dst], src=port_mac(p))
                   for p in ports}, None))
    # a VID-0 tag and Ethernet padding, both gone from the copies
    l3 = l3_4('225.1.2.3', 10, n=2, ident=50)
    t.append((pad60(eth(l3, dst=GMAC['225.1.2.3'], tags=[(0x8100, 0)])),
              {p: eth(out4(l3), dst=GMAC['225.1.2.3'], src=port_mac(p))
               for p in (1, 2)}, None))
    t.append((eth(big, dst=GMAC['225.1.2.3']),
              {p: eth(out4(big), dst=GMAC['225.1.2.3'], src=port_mac(p))
               for p in (1, 2)}, None))
    l3 = l3_6('ff0e::4', 10)
    t.append((eth(l3, 0x86DD, dst=GMAC['ff0e::4']),
              {p: eth(out6(l3), 0x86DD, dst=GMAC['ff0e::4'],
                      src=port_mac(p)) for p in (1, 2, 3)}, None))
    t.append((eth(l3_4('225.1.2.3', 1), dst=GMAC['225.1.2.3']), {},
              'mc_ttl'))
    t.append((eth(l3_4('225.9.9.9', 9), dst=GMAC['225.9.9.9']), {},
              'mc_no_route'))
    # MLD's Router Alert at the end of a 64-byte hop-by-hop header (past
    # the first segment with --mbuf-size 192): for the router, as Linux's
    # ip6_mc_input() has it
    hbh = bytes([17, 7, 1, 56]) + bytes(56) + bytes([5, 2, 0, 0])
    t.append((eth(ipv6(SRC6, 'ff0e::4', hbh + udp(b'mld'), hlim=10, nh=0),
                  0x86DD, dst=GMAC['ff0e::4']), {}, 'mc_local'))
    return t


# bytes of each route's packets, as counted (IP bytes)
def want_routes(t):
    r = [[0, 0, 0, 0] for _ in range(3)]
    for f, outs, why in t:
        if why:
            continue
        v6 = struct.unpack('!H', f[12:14])[0] == 0x86DD
        off = 18 if f[12:14] == b'\x81\x00' else 14
        ip = f[off:]
        dst = ip[24:40] if v6 else ip[16:20]
        k = 1 if v6 else (0 if dst[3] == 3 else 2)
        n = 40 + struct.unpack('!H', ip[4:6])[0] if v6 else \
            struct.unpack('!H', ip[2:4])[0]
        r[k][0] += 1
        r[k][1] += n
        r[k][2] += len(outs)
    r[0][3] = 1     # port 1's frame: in on the wrong port
    return [tuple(x) for x in r]


def mroute_file(work, text=MROUTES):
    path = work.file('mroutes.cfg')
    with open(path, 'w') as f:
        f.write(text)
    return path


def case_pcap(a, work, extra):
    t = frames()
    rx0, rx1 = work.file('rx0.pcap'), work.file('rx1.pcap')
    pcaplib.write(rx0, [f for f, _, _ in t])
    pcaplib.write(rx1, [t[0][0]])
    txs = [work.file('tx%d.pcap' % p) for p in range(4)]
    vdevs = ['net_pcap%d,rx_pcap=%s,tx_pcap=%s' % (
        p, rx0 if p == 0 else rx1 if p == 1 else work.file('e.pcap'),
        txs[p]) for p in range(4)]
    pcaplib.write_empty(work.file('e.pcap'))
    res = harness.run_json(a.fwd, work, vdevs, [
        '-p', '0xf', '--mroute', mroute_file(work), '--idle-exit', '300'] +
        extra)
    probs = harness.run_problems(res, 'npool-fwd')
    if probs:
        return probs
    js = res.json
    for p in range(4):
        want = [outs[p] for _, outs, _ in t if p in outs]
        got = [d for d, _ in harness.read_tx(txs[p])]
        if got != want:
            probs.append('port %d sent %d frames, want %d%s' % (
                p, len(got), len(want), '' if len(got) != len(want) else
                ': the first that differs is #%d' % next(
                    i for i in range(len(got)) if got[i] != want[i])))
    drops = js['total']['drops']
    want_drops = {'mc_ttl': 1, 'mc_no_route': 1, 'mc_rpf': 1,
                  'mc_local': 1}
    for r, n in drops.items():
        if n != want_drops.get(r, 0):
            probs.append('drops[%s] = %d, want %d' % (r, n,
                                                      want_drops.get(r, 0)))
    fwd = sum(1 for _, o, _ in t if o)
    if js['total'].get('forwarded') != fwd:
        probs.append('forwarded %r, want %d' % (js['total'].get('forwarded'),
                                                fwd))
    got = [(m['pkts'], m['bytes'], m['copies'], m['wrong_if'])
           for m in js.get('mroutes', [])]
    if got != want_routes(t):
        probs.append('mroutes pkts, bytes, copies, wrong_if %r, want %r'
                     % (got, want_routes(t)))
    if not any(l.startswith('mroute 0 (198.18.1.2, 225.1.2.3) from 0 to '
                            '1 2: pkts ') for l in res.stdout.splitlines()):
        probs.append('no report line for mroute 0')
    return probs


def tel_session(work, prefix, cmd, talk):
    """Run @cmd (telemetry on, EAL --file-prefix @prefix; its output into
    tel.log), call talk(telemetry client) once it answers, then SIGINT:
    (what talk returned, None when it failed; problems; exit status)."""
    with open(work.file('tel.log'), 'w') as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    sock = os.path.join(apps_measure.runtime_dir(prefix),
                        'dpdk_telemetry.v2')
    got, probs = None, []
    try:
        tel = apps_measure.connect(proc, sock, 30)
        got = talk(tel)
        tel.close()
    except (apps_measure.RunError, OSError, ValueError) as e:
        probs.append('telemetry: %s: %s' % (type(e).__name__, e))
    finally:
        rc = harness.interrupt(proc)
    return got, probs, rc


def tel_wait(tel, cmd, ready):
    """@cmd's answer once ready(answer) holds, else after 30 s."""
    deadline = time.monotonic() + 30
    while True:
        got = tel.query(cmd)
        if (got and ready(got)) or time.monotonic() >= deadline:
            return got
        time.sleep(0.1)


def case_telemetry(a, work, extra):
    t = frames()
    rx = work.file('rx0.pcap')
    pcaplib.write(rx, [f for f, _, _ in t])
    prefix = work.new_prefix()
    vdevs = ['net_pcap0,rx_pcap=%s' % rx] + ['net_null%d,no-rx=1' % p
                                             for p in (1, 2, 3)]
    jpath = work.file('tel.json')
    cmd = [a.fwd] + harness.eal_args(prefix, vdevs, '0', telemetry=True) + [
        '--', '-p', '0xf', '--mroute', mroute_file(work), '--json',
        jpath] + extra
    want = want_routes(t)
    want[0] = want[0][:3] + (0,)     # no frame on the wrong port here

    def talk(tel):
        return (tel_wait(tel, '/fwd/mroutes', lambda g: g.get('pkts') ==
                         [w[0] for w in want]),
                tel.query('/fwd/mroute,2'), tel.query('/fwd/mroute,3'))

    res, probs, rc = tel_session(work, prefix, cmd, talk)
    got, one, bad = res or (None, None, None)
    if probs:
        return probs
    cols = ('pkts', 'bytes', 'copies', 'wrong_if')
    have = list(zip(*[got.get(k, []) for k in cols])) if got else None
    if not got or got.get('routes') != 3 or have != want:
        probs.append('/fwd/mroutes %r, want routes 3 and %r' % (got, want))
    if one != {'source': SRC4, 'group': '225.1.2.5', 'in_port': 0,
               'out_ports': [1, 2], 'ttl': [1, 5], 'pkts': want[2][0],
               'bytes': want[2][1], 'copies': want[2][2], 'wrong_if': 0}:
        probs.append('/fwd/mroute,2 %r' % (one,))
    if bad is not None:
        probs.append('/fwd/mroute,3 (no such route) answered %r' % (bad,))
    js = harness.load_json(jpath)
    probs += harness.leak_problems(js)
    if rc != 0:
        probs.append('npool-fwd exit %r after SIGINT' % rc)
    if [tuple(m.get(k) for k in cols) for m in js.get('mroutes', [])] != \
            want:
        probs.append('JSON mroutes %r' % js.get('mroutes'))
    return probs


def case_telemetry_pages(a, work, extra):
    """More routes than a telemetry array holds (512): /fwd/mroutes,FIRST
    pages of 128 routes, each the routes from FIRST with their counters,
    together every route once; the last route's packets where they are."""
    n, last = 600, 599
    text = ''.join('mroute from 0 group 225.1.%d.%d to 1\n' % (i >> 8,
                                                               i & 255)
                   for i in range(n))
    gmac = '01:00:5e:01:%02x:%02x' % (last >> 8, last & 255)
    rx = work.file('rx0.pcap')
    pcaplib.write(rx, [eth(l3_4('225.1.0.0', 9), dst='01:00:5e:01:00:00')] +
                  [eth(l3_4('225.1.%d.%d' % (last >> 8, last & 255), 9,
                            ident=i), dst=gmac) for i in range(3)])
    prefix = work.new_prefix()
    vdevs = ['net_pcap0,rx_pcap=%s' % rx, 'net_null1,no-rx=1']
    cmd = [a.fwd] + harness.eal_args(prefix, vdevs, '0', telemetry=True) + [
        '--', '-p', '0x3', '--mroute', mroute_file(work, text)] + extra

    def talk(tel):
        tel_wait(tel, '/fwd/mroute,%d' % last, lambda g: g.get('pkts') == 3)
        return ([(first, tel.query('/fwd/mroutes,%d' % first))
                 for first in range(0, n, 128)],
                tel.query('/fwd/mroutes,%d' % n))

    res, probs, rc = tel_session(work, prefix, cmd, talk)
    pages, past = res or ([], None)
    if rc != 0:
        probs.append('npool-fwd exit %r after SIGINT' % rc)
    if probs:
        return probs
    pkts = []
    for first, got in pages:
        size = min(128, n - first)
        if not got or got.get('routes') != n or got.get('first') != first \
                or any(len(got.get(k, [])) != size for k in (
                    'pkts', 'bytes', 'copies', 'wrong_if')):
            probs.append('/fwd/mroutes,%d: %r, want routes %d, first %d '
                         'and %d entries an array' % (
                             first, {k: v if not isinstance(v, list) else
                                     len(v) for k, v in (got or {}).items()},
                             n, first, size))
        else:
            pkts += got['pkts']
    if not probs and (len(pkts) != n or pkts[0] != 1 or pkts[last] != 3 or
                      sum(pkts) != 4):
        probs.append('pkts over the pages: %d routes, route 0 %r, route '
                      '%d %r, sum %d; want 1, 3, 4' % (
                          len(pkts), pkts[:1], last, pkts[last:last + 1],
                          sum(pkts)))
    if past is not None:
        probs.append('/fwd/mroutes,%d (past the last route) answered %r'
                     % (n, past))
    return probs


def case_ring_full(a, work, extra):
    l3 = l3_4('225.1.2.3', 64, n=200)
    rx = work.file('rx.pcap')
    pcaplib.write(rx, [eth(l3, dst=GMAC['225.1.2.3'])])
    vdevs = ['net_pcap0,rx_pcap=%s,infinite_rx=1,tx_pcap=%s,tx_pcap=%s' % (
        rx, work.file('t0.pcap'), work.file('t1.pcap')),
        'net_ring0', 'net_ring1']
    # lcore 1 forwards port 0 (TX queue 1 on every port: ring queue 1,
    # never polled); lcore 0 polls the rings' queue 0
    res = harness.run_json(a.fwd, work, vdevs, [
        '-p', '0x7', '--mroute', mroute_file(work, MROUTES.splitlines()[0]),
        '--duration', '1.5',
        '--config', '(0,0,1),(1,0,0),(2,0,0)'] + extra, lcores='0-1')
    probs = harness.run_problems(res, 'npool-fwd, rings full')
    if probs:
        return probs
    js = res.json
    ports = {p['port']: p for p in js['ports']}
    full = [ports[p]['router']['mc_tx_full'] for p in (1, 2)]
    tx = [ports[p]['tx'] for p in (1, 2)]
    nomem = ports[0]['router']['mc_nomem']
    none = ports[0]['drops']['tx_full']
    m = js['mroutes'][0]
    harness.log('port 0 rx %d, forwarded %d, %d without a copy; copies %d: '
                'sent %s, refused (mc_tx_full) %s; heads not had '
                '(mc_nomem) %d' % (ports[0]['rx'], ports[0]['forwarded'],
                                   none, m['copies'], tx, full, nomem))
    if sum(full) + nomem == 0:
        probs.append('every copy left: neither the rings nor the heads ran '
                     'out')
    if m['copies'] != sum(tx) + sum(full):
        probs.append('copies %d != sent %d + refused %d' % (
            m['copies'], sum(tx), sum(full)))
    if m['pkts'] != ports[0]['forwarded'] or \
            2 * (m['pkts'] + none) != m['copies'] + nomem:
        probs.append('route pkts %d, copies %d; port 0 forwarded %d, '
                     'tx_full %d, mc_nomem %d: 2 heads a packet' % (
                         m['pkts'], m['copies'], ports[0]['forwarded'],
                         none, nomem))
    t = js['total']
    if t['rx'] != t['forwarded'] + t['dropped']:
        probs.append('rx %d != forwarded %d + dropped %d' % (
            t['rx'], t['forwarded'], t['dropped']))
    return probs


CASES = {
    'pcap-npool': (case_pcap, ['--pool', 'npool']),
    'pcap-mempool': (case_pcap, ['--pool', 'mempool']),
    'pcap-npool-copybreak256': (case_pcap, ['--pool', 'npool',
                                            '--copybreak', '256']),
    'pcap-mempool-chains': (case_pcap, ['--pool', 'mempool',
                                        '--mbuf-size', '192']),
    'telemetry': (case_telemetry, ['--pool', 'npool']),
    'telemetry-pages': (case_telemetry_pages, ['--pool', 'npool']),
    'ring-full-npool': (case_ring_full, ['--pool', 'npool']),
    'ring-full-mempool-copybreak256': (case_ring_full,
                                       ['--pool', 'mempool',
                                        '--copybreak', '256']),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    a, names = harness.case_arguments(ap, CASES, ('fwd',))
    if names is None:
        return 0
    return harness.run_cases(names, 'mcast', lambda n, w: CASES[n][0](
        a, w, CASES[n][1]), a.keep)


if __name__ == '__main__':
    sys.exit(main())
