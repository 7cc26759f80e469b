#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of the integration tooling itself: the pcap library, the
RFC 1812 oracle (against the hand-written edge-case verdicts), the
fragment checker and kernel_cast.py's recorded Linux outcomes (they fit
its cases).  No DPDK needed.

  test_tooling.py [--captures DIR]
"""

import json
import os
import random
import struct
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import cast_record  # noqa: E402
import edgecases  # noqa: E402
import harness  # noqa: E402
import kernel_cast  # noqa: E402
import oracle  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402
import run_fwd  # noqa: E402

CAPTURES = None
MACS = {p: bytes([2, 0x70, 0x63, 0x61, 0x70, p]) for p in range(4)}


class PcapTest(unittest.TestCase):
    def roundtrip(self, byteorder, nsec):
        recs = [pcaplib.Record(b'\x01' * 60, 60, 1, 123456000),
                pcaplib.Record(b'', 0, 2, 5000),
                pcaplib.Record(bytes(range(200)), 1500, 3, 999999000)]
        buf = pcaplib.serialize(recs, byteorder=byteorder, nsec=nsec,
                                snaplen=200)
        p = pcaplib.parse(buf)
        self.assertEqual(p.byteorder, byteorder)
        self.assertEqual(p.nsec, nsec)
        self.assertEqual(p.snaplen, 200)
        self.assertEqual(p.linktype, pcaplib.LINKTYPE_ETHERNET)
        self.assertEqual([r.data for r in p], [r.data for r in recs])
        self.assertEqual([r.orig_len for r in p], [60, 0, 1500])
        self.assertEqual([(r.ts_sec, r.ts_nsec) for r in p],
                         [(1, 123456000), (2, 5000), (3, 999999000)])

    def test_roundtrip_all_formats(self):
        for bo in '<>':
            for nsec in (False, True):
                self.roundtrip(bo, nsec)

    def test_magic_bytes(self):
        self.assertEqual(pcaplib.serialize([], byteorder='>')[:4],
                         bytes.fromhex('a1b2c3d4'))
        self.assertEqual(pcaplib.serialize([], byteorder='<', nsec=True)[:4],
                         bytes.fromhex('4d3cb2a1'))
        self.assertEqual(len(pcaplib.serialize([])), 24)

    def test_errors(self):
        with self.assertRaisesRegex(pcaplib.PcapError, 'shorter'):
            pcaplib.parse(b'\xd4\xc3\xb2\xa1')
        with self.assertRaisesRegex(pcaplib.PcapError, 'pcapng'):
            pcaplib.parse(bytes.fromhex('0a0d0d0a') + bytes(40))
        with self.assertRaisesRegex(pcaplib.PcapError, 'magic'):
            pcaplib.parse(bytes(24))
        buf = pcaplib.serialize([b'abcdef'])
        with self.assertRaisesRegex(pcaplib.PcapError, 'claims'):
            pcaplib.parse(buf[:-1])
        with self.assertRaisesRegex(pcaplib.PcapError, 'cut short'):
            pcaplib.parse(buf[:30])

    def test_libpcap_snaplen_clamp(self):
        p = pcaplib.parse(pcaplib.serialize([bytes(100), bytes(40)],
                                            snaplen=64))
        self.assertEqual([len(f) for f in pcaplib.libpcap_frames(p)],
                         [64, 40])
        for bad in (0, 0x80000000):
            p = pcaplib.parse(pcaplib.serialize([bytes(300000)],
                                                snaplen=bad))
            self.assertEqual(len(pcaplib.libpcap_frames(p)[0]), 262144)

    def test_file_io(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'x.pcap')
            pcaplib.write_empty(path)
            self.assertEqual(os.path.getsize(path), 24)
            self.assertEqual(len(pcaplib.read(path)), 0)
            pcaplib.write(path, [b'\xff' * 14], byteorder='>')
            self.assertEqual(pcaplib.read(path).records[0].data, b'\xff' * 14)

    def test_tree_captures_parse(self):
        # tests/data/captures is in the tree: its absence is a failure.
        self.assertTrue(CAPTURES and os.path.isdir(CAPTURES), CAPTURES)
        orders = set()
        n = 0
        for f in sorted(os.listdir(CAPTURES)):
            if f.endswith('.pcap'):
                p = pcaplib.read(os.path.join(CAPTURES, f))
                self.assertEqual(p.linktype, 1, f)
                orders.add(p.byteorder)
                n += len(p)
        # 85 captures, 4210 frames (tests/data/captures/SOURCES.md).
        self.assertEqual(n, 4210)


class RoutesTest(unittest.TestCase):
    def test_parse(self):
        r = oracle.parse_routes('# c\n\nR198.18.0.1/24 3\nR0.0.0.0/0 1\n',
                                4)
        self.assertEqual(r, [(0xC6120000, 24, 3), (0, 0, 1)])
        r6 = oracle.parse_routes('R2001:2::/48\t2\n', 6)
        self.assertEqual(r6, [(0x20010002 << 96, 48, 2)])

    def test_errors_name_file_and_line(self):
        for text in ('R1.2.3.0/33 1', 'X1.2.3.0/8 1', 'R1.2.3.0 1',
                     'R1.2.3.0/8', 'R1.2.3.0/8 abc', 'R300.1.1.0/8 1',
                     'R1.2.3.0/8 1 2', 'R::/0 1', 'R1.2.3.0/8 256'):
            with self.assertRaisesRegex(oracle.RouteError, r'^f\.cfg:2: '):
                oracle.parse_routes('# ok\n' + text + '\n', 4, 'f.cfg')

    def test_lpm(self):
        lpm = oracle.Lpm(oracle.parse_routes(edgecases.ROUTES_V4, 4), 32)
        ip = lambda s: int.from_bytes(packets.v4addr(s), 'big')  # noqa
        self.assertEqual(lpm.lookup(ip('198.18.4.129')), 3)
        self.assertEqual(lpm.lookup(ip('198.18.4.127')), 2)
        self.assertEqual(lpm.lookup(ip('8.8.8.8')), 1)
        nodef = oracle.Lpm(oracle.L3FWD_DEFAULT_V4, 32)
        self.assertIsNone(nodef.lookup(ip('8.8.8.8')))
        self.assertEqual(nodef.lookup(ip('198.18.15.255')), 15)
        lpm6 = oracle.Lpm(oracle.L3FWD_DEFAULT_V6, 128)
        a = int.from_bytes(packets.v6addr('2001:200:0:f::1'), 'big')
        self.assertEqual(lpm6.lookup(a), 15)


class ChecksumTest(unittest.TestCase):
    def test_rfc1624_equals_recompute(self):
        rnd = random.Random(1)
        for _ in range(20000):
            h = bytearray(rnd.randbytes(20))
            h[0] = 0x45
            h[8] = rnd.randint(2, 255)
            h[10:12] = oracle.ipv4_checksum(h).to_bytes(2, 'big')
            old = oracle.be16(h, 8)
            new = old - 0x100
            inc = oracle.rfc1624_update(oracle.be16(h, 10), old, new)
            h[8] -= 1
            self.assertEqual(inc, oracle.ipv4_checksum(h))

    def test_zero_checksum_case(self):
        k = [c for c in edgecases.main_cases()
             if c.name == 'v4 checksum becomes 0x0000'][0]
        self.assertEqual(k.expect[2][10:12], b'\0\0')


def fragment_like_dpdk(l3, mtu):
    """rte_ipv4_fragment_packet() of DPDK 22.11, re-written for the test:
    payload per fragment floor8(mtu - first header), options with the
    copied flag only (EOL-padded) after the first fragment."""
    ihl = (l3[0] & 15) * 4
    fsize = (mtu - ihl) & ~7
    fo = oracle.be16(l3, 6)
    hdr = bytearray(l3[:ihl])
    pay = l3[ihl:]
    out = []
    pos = 0
    while pos < len(pay):
        chunk = pay[pos:pos + fsize]
        last = pos + len(chunk) >= len(pay)
        h = bytearray(hdr)
        off = (fo & 0x1FFF) + pos // 8
        flags = fo & 0x2000 if last else 0x2000
        h[6:8] = struct.pack('!H', flags | off)
        h[2:4] = struct.pack('!H', len(h) + len(chunk))
        h[10:12] = oracle.ipv4_checksum(h).to_bytes(2, 'big')
        out.append(bytes(h) + chunk)
        if pos == 0 and ihl > 20:
            opts = b''.join(o for o in oracle._split_options(hdr[20:])[0]
                            if o[0] & 0x80)
            opts += b'\0' * (-len(opts) % 4)
            hdr = bytearray(hdr[:20] + opts)
            hdr[0] = 0x40 | (len(hdr) // 4)
        pos += len(chunk)
    return out


class OracleTest(unittest.TestCase):
    def cfg(self, which):
        if which in ('main', 'jumbo'):
            r4 = oracle.parse_routes(edgecases.ROUTES_V4, 4)
            r6 = oracle.parse_routes(edgecases.ROUTES_V6, 6)
            mask = edgecases.MAIN_PORTMASK
            dest = {1: oracle.mac_bytes(edgecases.ETH_DEST_1)}
        else:
            r4, r6 = oracle.L3FWD_DEFAULT_V4, oracle.L3FWD_DEFAULT_V6
            mask = edgecases.DEFTABLES_PORTMASK
            dest = {}
        mtu = edgecases.JUMBO_MTU if which == 'jumbo' else edgecases.MTU
        return oracle.Config(r4, r6, [p for p in range(4) if mask >> p & 1],
                             mtu, dest, MACS)

    def check_set(self, which, cases):
        cfg = self.cfg(which)
        for k in cases:
            v = oracle.decide(k.frame, cfg)
            e = k.expect
            with self.subTest(case=k.name):
                if e[0] == 'drop':
                    self.assertEqual(v.reason, e[1])
                elif e[0] == 'fwd':
                    self.assertIsNone(v.reason)
                    self.assertFalse(v.frag)
                    self.assertEqual(v.port, e[1])
                    self.assertEqual(v.out, cfg.dst_mac(e[1]) + MACS[e[1]] +
                                     e[3].to_bytes(2, 'big') + e[2])
                else:
                    self.assertTrue(v.frag)
                    self.assertEqual(v.port, e[1])
                    frags = fragment_like_dpdk(v.l3, cfg.mtu)
                    self.assertEqual(len(frags), e[2])
                    self.assertEqual(v.nfrags, e[2])
                    recs = [(v.eth + f, 14 + len(f)) for f in frags]
                    used, probs = oracle.check_fragments(v, recs, cfg.mtu)
                    self.assertEqual(probs, [])
                    self.assertEqual(used, e[2])

    def test_main_set(self):
        edgecases._selfcheck()
        self.check_set('main', edgecases.main_cases())

    def test_deftables_set(self):
        self.check_set('deftables', edgecases.deftables_cases())

    def test_jumbo_set(self):
        self.check_set('jumbo', edgecases.jumbo_cases())

    def test_eth_dest(self):
        cfg = self.cfg('main')
        self.assertEqual(cfg.dst_mac(1), bytes.fromhex('02aabbccdd01'))
        self.assertEqual(cfg.dst_mac(3), bytes.fromhex('020000000003'))


class FragmentCheckTest(unittest.TestCase):
    def setUp(self):
        l3 = packets.ipv4(options=edgecases.RR_OPT + edgecases.RA_OPT + b'\0',
                          payload=bytes(i & 0xFF for i in range(4000)),
                          ttl=9)
        self.cfg = oracle.Config([(0, 0, 2)], [], [2], 1500, {}, MACS)
        self.v = oracle.decide(packets.eth(l3), self.cfg)
        self.assertTrue(self.v.frag)
        self.frags = fragment_like_dpdk(self.v.l3, 1500)

    def recs(self, frags):
        return [(self.v.eth + f, 14 + len(f)) for f in frags]

    def probs(self, frags):
        return oracle.check_fragments(self.v, self.recs(frags), 1500)[1]

    def test_good(self):
        self.assertEqual(self.probs(self.frags), [])
        self.assertEqual(self.frags[1][0], 0x46)   # RA kept, RR dropped

    def mutate(self, i, off, val, fix_csum=True):
        fr = [bytearray(f) for f in self.frags]
        fr[i][off] = val
        if fix_csum:
            ihl = (fr[i][0] & 15) * 4
            fr[i][10:12] = oracle.ipv4_checksum(fr[i][:ihl]).to_bytes(2, 'big')
        return [bytes(f) for f in fr]

    def test_bad_checksum(self):
        fr = self.mutate(1, 11, self.frags[1][11] ^ 0xFF, fix_csum=False)
        self.assertTrue(any('checksum' in p for p in self.probs(fr)))

    def test_ttl_not_decremented(self):
        fr = self.mutate(0, 8, 9)
        self.assertTrue(any('byte 8' in p for p in self.probs(fr)))

    def test_missing_fragment(self):
        self.assertTrue(self.probs(self.frags[:-1]))
        self.assertTrue(self.probs(self.frags[:1] + self.frags[2:]))

    def test_mf_on_last(self):
        fr = self.mutate(len(self.frags) - 1, 6, self.frags[-1][6] | 0x20)
        self.assertTrue(any('MF' in p for p in self.probs(fr)))

    def test_payload_changed(self):
        fr = self.mutate(1, 40, self.frags[1][40] ^ 1)
        self.assertTrue(any('concatenate' in p for p in self.probs(fr)))

    def test_uncopied_option_in_later_fragment(self):
        fr = list(self.frags)
        fr[1] = fragment_like_dpdk_keep_all(self.v.l3)[1]
        self.assertTrue(any('options' in p for p in self.probs(fr)))

    def test_src_mac(self):
        recs = self.recs(self.frags)
        recs[0] = (recs[0][0][:6] + b'\x99' * 6 + recs[0][0][12:], recs[0][1])
        self.assertTrue(oracle.check_fragments(self.v, recs, 1500)[1])
        self.assertFalse(oracle.check_fragments(self.v, recs, 1500,
                                                check_src_mac=False)[1])


def fragment_like_dpdk_keep_all(l3):
    """Pre-22.07 DPDK: every fragment carries all the options."""
    ihl = (l3[0] & 15) * 4
    fsize = (1500 - ihl) & ~7
    out = []
    for pos in range(0, len(l3) - ihl, fsize):
        chunk = l3[ihl + pos:ihl + pos + fsize]
        h = bytearray(l3[:ihl])
        h[6:8] = struct.pack('!H', 0x2000 | pos // 8)
        h[2:4] = struct.pack('!H', ihl + len(chunk))
        h[10:12] = oracle.ipv4_checksum(h).to_bytes(2, 'big')
        out.append(bytes(h) + chunk)
    return out


def fake_app(inputs, verdicts, cfg):
    """What a correct npool-fwd writes: tx records per port and the JSON."""
    tx = [[] for _ in range(run_fwd.NPORTS)]
    drops = {r: 0 for r in oracle.REASONS}
    for v in verdicts:
        if v.reason:
            drops[v.reason] += 1
        elif v.frag:
            tx[v.port] += [(v.eth + f, 14 + len(f))
                           for f in fragment_like_dpdk(v.l3, cfg.mtu)]
        else:
            tx[v.port].append((v.out, len(v.out)))
    nfwd = sum(1 for v in verdicts if not v.reason)
    ports = []
    for p in range(run_fwd.NPORTS):
        d = drops if p == 0 else {r: 0 for r in oracle.REASONS}
        ports.append({'port': p, 'rx': len(inputs.frames) if p == 0 else 0,
                      'tx': len(tx[p]), 'forwarded': nfwd if p == 0 else 0,
                      'dropped': sum(d.values()), 'drops': dict(d)})
    js = {'app': 'npool-fwd', 'pool': 'npool', 'copybreak': 0,
          'ports': ports,
          'total': {'rx': len(inputs.frames),
                    'tx': sum(len(x) for x in tx), 'forwarded': nfwd,
                    'dropped': sum(drops.values()), 'drops': dict(drops)},
          'leak': {'mbufs_out': 0, 'frags_out': 0, 'chunks_in_use': 0,
                   'ok': True}}
    return tx, js


class DriverSelfTest(unittest.TestCase):
    """run_fwd's checks must pass a correct app and catch a wrong one."""

    def setUp(self):
        self.inputs = run_fwd.edge_inputs('main')
        self.cfg = run_fwd.make_config(self.inputs, MACS)
        self.verdicts = [oracle.decide(f, self.cfg)
                         for f in self.inputs.frames]
        self.tx, self.js = fake_app(self.inputs, self.verdicts, self.cfg)

    def problems(self, tx=None, js=None):
        tx = self.tx if tx is None else tx
        js = self.js if js is None else js
        return run_fwd.check_json(js, self.inputs, self.verdicts, 'npool',
                                  None, tx) + \
            run_fwd.compare_outputs(self.inputs, self.verdicts, tx,
                                    self.cfg.mtu, True)

    def caught(self, pattern, tx=None, js=None):
        probs = self.problems(tx, js)
        self.assertTrue(any(pattern in p for p in probs),
                        '%r not in %s' % (pattern, probs[:5]))

    def tx_copy(self):
        return [list(x) for x in self.tx]

    def test_correct_app_passes(self):
        self.assertEqual(self.problems(), [])

    def test_missing_packet(self):
        tx = self.tx_copy()
        del tx[3][2]
        self.caught('app did not send it there', tx)
        self.caught('tx pcap', tx)

    def test_byte_changed(self):
        tx = self.tx_copy()
        d, n = tx[1][0]
        tx[1][0] = (d[:30] + bytes([d[30] ^ 1]) + d[31:], n)
        self.caught('differs at byte 30', tx)

    def test_wrong_src_mac(self):
        tx = self.tx_copy()
        d, n = tx[0][0]
        tx[0][0] = (d[:6] + MACS[1] + d[12:], n)
        self.caught('src MAC', tx)

    def test_padding_kept(self):
        tx = self.tx_copy()
        d, n = tx[2][0]
        tx[2][0] = (d + b'\0', n + 1)
        self.caught('length', tx)

    def test_misrouted(self):
        tx = self.tx_copy()
        tx[0].append(tx[3].pop(0))
        self.caught('oracle sends it to port 3', tx)

    def test_reordered(self):
        tx = self.tx_copy()
        tx[3][0], tx[3][1] = tx[3][1], tx[3][0]
        self.assertTrue(self.problems(tx))

    def test_fragment_broken(self):
        tx = self.tx_copy()
        i = next(i for i, (d, n) in enumerate(tx[2])
                 if d[20] & 0x20 and n > 1000)
        d, n = tx[2][i]
        tx[2][i] = (d[:24] + bytes([d[24] ^ 0x40]) + d[25:], n)
        self.caught('fragments:', tx)

    def test_counts(self):
        js = json.loads(json.dumps(self.js))
        js['ports'][0]['drops']['vlan'] += 1
        js['ports'][0]['drops']['mtu'] -= 1
        self.caught('drops[vlan]', js=js)
        js = json.loads(json.dumps(self.js))
        js['ports'][0]['forwarded'] -= 1
        self.caught('forwarded', js=js)
        js = json.loads(json.dumps(self.js))
        del js['ports'][0]['drops']['tx_full']
        self.caught('reason keys missing', js=js)
        js = json.loads(json.dumps(self.js))
        js['total']['rx'] += 1
        self.caught('total.rx', js=js)

    def test_leak(self):
        js = json.loads(json.dumps(self.js))
        js['leak']['frags_out'] = 2
        js['leak']['ok'] = False
        self.caught('leak.frags_out', js=js)

    def fake_queues(self, swap):
        """Two RX queues (inputs split odd/even), TX files per queue."""
        r = harness.Result([], 0, '', '', False)
        txq = [[[], []] for _ in range(run_fwd.NPORTS)]
        for k in range(2):
            sub = run_fwd.Inputs(self.inputs.frames[k::2], [], 0xF, None, {})
            tx, _ = fake_app(sub, self.verdicts[k::2], self.cfg)
            for p in range(run_fwd.NPORTS):
                txq[p][k ^ swap] = tx[p]
        r.txq = txq
        r.json = {'lcores': [{'rx': len(self.inputs.frames[k::2])}
                             for k in range(2)]}
        return r

    def test_queues(self):
        for swap in (0, 1):
            r = self.fake_queues(swap)
            self.assertEqual(run_fwd.compare_queues(
                self.inputs, self.verdicts, r, self.cfg.mtu, True), [])
        r = self.fake_queues(0)
        r.txq[2][1].reverse()
        r.tx = [sum(q, []) for q in r.txq]
        self.assertTrue(run_fwd.compare_queues(self.inputs, self.verdicts, r,
                                               self.cfg.mtu, True))

    def test_port_macs_from_startup_lines(self):
        r = harness.Result([], 0, 'port 0: net_pcap, profile generic, 1 RX '
                           'queue(s) x 1024 desc, 1 TX queue(s) x 1024 desc,'
                           ' MAC 02:70:63:61:70:00\nport 1: x, MAC '
                           '02:70:63:61:70:01\n', '', False)
        self.assertEqual(run_fwd.port_macs(r), {0: MACS[0], 1: MACS[1]})


class CompareTest(unittest.TestCase):
    def test_equal_and_diff(self):
        w = bytes(range(100))
        self.assertIsNone(oracle.compare_frame(w, 100, w))
        self.assertIn('src MAC', oracle.compare_frame(
            w[:7] + b'\xff' + w[8:], 100, w))
        self.assertIsNone(oracle.compare_frame(
            w[:7] + b'\xff' + w[8:], 100, w, check_src_mac=False))
        self.assertIn('length', oracle.compare_frame(w[:99], 99, w))

    def test_pcap_tx_cut(self):
        w = bytes(20000)
        self.assertIsNone(oracle.compare_frame(w[:oracle.PCAP_TX_SNAPLEN],
                                               20000, w))
        self.assertIsNotNone(oracle.compare_frame(w[:1000], 20000, w))


class CastRecordingTest(unittest.TestCase):
    """tests/data/kernel/cast.json against kernel_cast.py's cases: the
    check kernel_cast.py makes first, here without root."""

    def test_recording_fits_the_cases(self):
        rec = cast_record.Recording(kernel_cast.RECORDING)
        plan = kernel_cast.settings()
        self.assertEqual(rec.stale(plan), [])
        for s in plan:
            for c in s.cases:
                self.assertEqual(cast_record.summaries(
                    rec.outcome(s.name, c.name)), c.expect, c.name)

    def test_stale_found(self):
        rec = cast_record.Recording(kernel_cast.RECORDING)
        plan = kernel_cast.settings()
        c = plan[0].cases[0]
        c.frame, c.by = plan[0].cases[1].frame, plan[0].cases[1].by
        self.assertIn('another frame sent now', rec.stale(plan)[0])
        plan = kernel_cast.settings()
        del plan[1].cases[2]
        self.assertIn('names or order differ', rec.stale(plan)[0])
        # a summary that does not read from its frame
        r = rec.js['settings'][0]['cases'][0]['received'][0]
        r[1] = r[1].replace('ttl 63', 'ttl 62')
        self.assertIn('of a frame that reads', rec.stale(
            kernel_cast.settings())[0])

    def test_normal(self):
        names = {MACS[0]: 'A', MACS[1]: 'R0'}
        own = bytearray(packets.eth(packets.ipv4(
            '198.18.1.1', '198.18.1.2', b'x' * 8, proto=1, ident=0x1234),
            dst=MACS[0], src=MACS[1]))
        f, prob = cast_record.normal(bytes(own), names)
        self.assertIsNone(prob)
        self.assertEqual(f[:12], b'A.....R0....')
        self.assertEqual(f[18:20] + f[24:26], bytes(4))
        own[25] ^= 1
        self.assertIn('bad IPv4 header checksum',
                      cast_record.normal(bytes(own), names)[1])
        # a forwarded packet keeps its ID and checksum
        fwd = packets.eth(packets.ipv4('198.18.1.2', '198.18.2.2', b'x' * 8,
                                       ident=0x1234), dst=MACS[0],
                          src=MACS[1])
        self.assertEqual(cast_record.normal(fwd, names)[0][12:],
                         fwd[12:])


if __name__ == '__main__':
    if '--captures' in sys.argv:
        i = sys.argv.index('--captures')
        CAPTURES = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    unittest.main(verbosity=1)
