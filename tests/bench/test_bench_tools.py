#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of the bench tooling (no DPDK run, no root): the relative
hugepage reservation, the app cases' command lines and derived rows, and
scripts/bench-readme.py.

  test_bench_tools.py
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
sys.path.insert(0, HERE)

import apps_bench  # noqa: E402
import apps_budget  # noqa: E402
import apps_callgrind  # noqa: E402
import apps_cases  # noqa: E402
import hugepages  # noqa: E402
import miss_reasons  # noqa: E402

README_PY = os.path.join(ROOT, 'scripts', 'bench-readme.py')


class FakeKernel:
    """nr_hugepages in a file; the kernel grants at most `limit` pages
    and another process may hold `others` free pages."""

    def __init__(self, path, total=0, limit=10 ** 6):
        self.path, self.limit = path, limit
        with open(path, 'w') as f:
            f.write(str(total))

    def nr(self):
        with open(self.path) as f:
            return int(f.read())

    def set_nr(self, n):
        with open(self.path, 'w') as f:
            f.write(str(min(n, self.limit)))


class HugepagesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.k = FakeKernel(os.path.join(self.tmp.name, 'nr'), 0)
        self.saved = (hugepages._nr, hugepages._set_nr, hugepages.meminfo,
                      hugepages.Hugepages._mount)
        hugepages._nr = self.k.nr
        hugepages._set_nr = self.k.set_nr
        self.used = 0     # pages other processes have taken
        hugepages.meminfo = lambda key: self.k.nr() - self.used
        hugepages.Hugepages._mount = lambda h: '/fake/hugetlbfs'

    def tearDown(self):
        (hugepages._nr, hugepages._set_nr, hugepages.meminfo,
         hugepages.Hugepages._mount) = self.saved
        self.tmp.cleanup()

    def test_gives_back_only_what_it_added(self):
        self.k.set_nr(100)
        self.used = 100               # another run's pages, all in use
        h = hugepages.Hugepages(64)
        self.assertEqual(h.reserve(), 64)
        self.assertEqual(h.added, 64)
        self.assertEqual(self.k.nr(), 164)
        self.k.set_nr(self.k.nr() + 30)   # another run reserves meanwhile
        h.release()
        self.assertEqual(self.k.nr(), 130)
        self.assertEqual(h.added, 0)
        h.release()                   # twice: nothing more taken off
        self.assertEqual(self.k.nr(), 130)

    def test_enough_free_adds_nothing(self):
        self.k.set_nr(80)
        h = hugepages.Hugepages(64)
        self.assertEqual(h.reserve(), 80)
        self.assertEqual(h.added, 0)
        h.release()
        self.assertEqual(self.k.nr(), 80)

    def test_kernel_grants_fewer(self):
        self.k.set_nr(100)
        self.used = 100
        self.k.limit = 140
        h = hugepages.Hugepages(64)
        self.assertEqual(h.reserve(), 40)
        self.assertEqual(h.added, 40)
        h.release()
        self.assertEqual(self.k.nr(), 100)

    def test_state_file_round_trip(self):
        h = hugepages.Hugepages(16, '/x')
        h.reserve()
        st = os.path.join(self.tmp.name, 'state')
        h.save(st)
        g = hugepages.Hugepages.load(st)
        self.assertEqual((g.n, g.added, g.dir, g.want_mount),
                         (16, 16, '/fake/hugetlbfs', '/x'))
        g.release()
        self.assertEqual(self.k.nr(), 0)


class FakeTools:
    bin = {'npool-drop': 'DROP', 'npool-fwd': 'FWD', 'testpmd': 'TP',
           'l3fwd': 'L3'}
    why = {}


def find(cases, name, label):
    c = next(c for c in cases if c.name == name)
    return c, next(v for v in c.variants if v.label == label)


class CasesTest(unittest.TestCase):
    def setUp(self):
        pcaps = {s: 'p%d' % s for s in apps_cases.SWEEP_SIZES}
        pcaps.update(imix='pimix', ttl1='pttl1', em4='pem4', em6='pem6',
                     rand60='prand60', ack60='pack60', oh64='poh64',
                     gw4='pgw4')
        self.cases = apps_cases.make_cases(
            FakeTools(), pcaps, True, ['drop', 'fwd'], ['huge', 'nohuge'],
            '/hp')

    def cmd(self, name, label):
        return find(self.cases, name, label)[1].run()[0]('PFX')

    def test_issue_34_36_rows(self):
        """The neighbour row differs from its anchor only in the
        gateway's options; the churn row only in its sidecar; the other
        MAC row reads the other-MAC frames with --forward-otherhost."""
        c, port = find(self.cases, 'pcap->null 64B neighbour',
                       'npool-fwd port next hop')
        nb = find(self.cases, 'pcap->null 64B neighbour',
                  'npool-fwd neighbour next hop')[1]
        a, n = port.run()[0]('P'), nb.run()[0]('P')
        self.assertEqual(n[:len(a)], a)
        self.assertEqual(n[len(a):], ['--port-addr', '1,198.18.201.0/23',
                                      '--rule_ipv4', 'pgw4', '--neigh',
                                      '1,198.18.200.2,02:00:00:00:00:01'])
        self.assertEqual(c.targets, {1: apps_cases.NEIGH_TARGET})
        c, quiet = find(self.cases, 'pcap->null 64B routes changing',
                        'npool-fwd fpm')
        busy = c.variants[1]
        self.assertEqual(quiet.run()[0]('P'), busy.run()[0]('P'))
        self.assertIsNone(quiet.sidecar)
        self.assertIs(busy.sidecar, apps_cases.ChurnSidecar)
        self.assertIn('--fpm', quiet.run()[0]('P'))
        oh = self.cmd('pcap->null 64B other MAC',
                      'npool-fwd --forward-otherhost')
        self.assertIn('--forward-otherhost', oh)
        self.assertIn('net_pcap0,rx_pcap=poh64,infinite_rx=1', oh)

    def test_memory_mode_per_case(self):
        c = self.cmd('net_null 64B', 'testpmd rxonly')
        self.assertIn('--in-memory', c)
        self.assertEqual(c[c.index('--huge-dir') + 1], '/hp')
        self.assertNotIn('--no-huge', c)
        c = self.cmd('net_null 64B nohuge', 'npool-drop npool')
        self.assertIn('--no-huge', c)
        self.assertNotIn('--huge-dir', c)
        # Only the cases with a target get a --no-huge copy.
        self.assertNotIn('net_null 1514B nohuge',
                         [c.name for c in self.cases])

    def test_two_lcores(self):
        c = self.cmd('net_null 64B 2q', 'npool-drop npool 2lc')
        self.assertEqual(c[1:3], ['--lcores', '0@0,1@0,2@1'])
        self.assertEqual(c[c.index('--config') + 1], '(0,0,1),(0,1,2)')
        c = self.cmd('net_null 64B 2q', 'npool-drop npool 1lc')
        self.assertEqual(c[c.index('--config') + 1], '(0,0,1),(0,1,1)')
        c = self.cmd('net_null 64B 2q', 'testpmd rxonly 2lc')
        self.assertIn('--nb-cores=2', c)
        self.assertIn('--rxq=2', c)
        c = self.cmd('pcap->null 64B 2q', 'l3fwd-lpm 2lc')
        self.assertEqual(c[1:3], ['-l', '0-1'])
        self.assertIn('--config=(0,0,0),(0,1,1),(1,0,0),(1,1,1)', c)
        self.assertEqual(sum(1 for a in c if 'rx_pcap=p64' in a), 1)
        self.assertIn('rx_pcap=p64,rx_pcap=p64,', ' '.join(c))
        c = self.cmd('pcap->null 64B fib', 'npool-fwd fib cb0')
        self.assertEqual(c[-2:], ['--lookup', 'fib'])

    def test_derived_rows(self):
        case, _ = find(self.cases, 'net_null 64B 2q', 'npool-drop npool 1lc')
        mpps = {'npool-drop npool 1lc': [10, 10, 10],
                'npool-drop npool 2lc': [19, 16, None],
                'testpmd rxonly 1lc': [10, 10, 10],
                'testpmd rxonly 2lc': [10, 20, 10]}
        for v in case.variants:
            v.mpps = mpps.get(v.label, [1, 1, 1])
        d = {x.label: x for x in case.derived}
        self.assertEqual(apps_bench.derived_values(
            case, d['npool 2lc/1lc']), [1.9, 1.6])
        self.assertEqual(d['npool 2lc/1lc'].target, 1.9)
        self.assertIsNone(d['testpmd 2lc/1lc'].target)
        # Ratio of ratios, paired by round: 1.9 / 1.0 and 1.6 / 2.0.
        vals = apps_bench.derived_values(case, d["npool 2lc/1lc / "
                                                 "testpmd's"])
        self.assertEqual([round(x, 6) for x in vals], [1.9, 0.8])

    def test_em_and_flood_rows(self):
        # EM: both tools on the same route files, npool-fwd --lookup em.
        for label in ('npool-fwd em cb0', 'l3fwd-em'):
            c = self.cmd('pcap->null 64B em', label)
            self.assertIn('--rule_ipv4=pem4', c)
            self.assertIn('--rule_ipv6=pem6', c)
        c = self.cmd('pcap->null 64B em', 'npool-fwd em cb0')
        self.assertEqual(c[c.index('--lookup') + 1], 'em')
        self.assertIn('--lookup=em', self.cmd('pcap->null 64B em',
                                               'l3fwd-em'))
        case, on = find(self.cases, 'pcap->null 64B TTL-1 1:1',
                        'npool-fwd icmp on')
        _, off = find(self.cases, 'pcap->null 64B TTL-1 1:1',
                      'npool-fwd icmp off')
        self.assertEqual(case.targets, {0: 0.95})
        self.assertIn('--port-addr', on.run()[0]('P'))
        self.assertNotIn('--port-addr', off.run()[0]('P'))
        self.assertIn('rx_pcap=pttl1', ' '.join(on.run()[0]('P')))
        # Forwarded first, ICMP errors (port 0 out) second.
        self.assertEqual(on.run()[1], [(1, 'opackets'), (0, 'opackets')])
        # 1000/s and a burst of 50 over 2 s: at most 1025/s.
        self.assertEqual(on.check({(0, 'opackets'): 2050}, 2.0)[0], True)
        self.assertEqual(on.check({(0, 'opackets'): 2051}, 2.0)[0], False)
        self.assertIsNone(off.check)

    def test_frames(self):
        import apps_frames
        with tempfile.TemporaryDirectory() as d:
            p = apps_frames.write_pcap(os.path.join(d, 't.pcap'), [64], 8,
                                       ttl1_every=2)
            with open(p, 'rb') as f:
                raw = f.read()
            ttls = [raw[40 + i * 80 + 22] for i in range(8)]
            self.assertEqual(ttls, [1, 64] * 4)
            r = apps_frames.write_em_rules(os.path.join(d, 'em.cfg'), 3)
            with open(r) as f:
                lines = [x for x in f if x.startswith('R')]
            self.assertEqual(lines[1], 'R198.18.1.2 198.18.0.2 5001 1025 '
                             '0x11 1\n')

    def test_frame_set_rows(self):
        # The three frame sets, each npool-fwd against l3fwd-lpm with the
        # copy-break row, on hugepages and (with a target) no-huge too.
        for name, pcap in (('pcap->null 64B', 'p64'),
                           ('pcap->null rand60', 'prand60'),
                           ('pcap->null ack60 padded', 'pack60')):
            for suffix in ('', ' nohuge'):
                case, v = find(self.cases, name + suffix,
                               'npool-fwd npool cb0')
                self.assertEqual(case.targets, {0: 1.0})
                self.assertIn('rx_pcap=%s,' % pcap, ' '.join(v.run()[0]('P')))
                self.assertEqual(case.variants[case.anchor].label,
                                 'l3fwd-lpm')
                self.assertEqual([(d.label, d.target) for d in case.derived
                                  if d.target],
                                 [('npool cb256 / cb0', 0.9)])

    def test_frame_sets(self):
        import apps_frames
        import struct as st
        with tempfile.TemporaryDirectory() as d:
            for fs, (_, write) in apps_frames.FRAME_SETS.items():
                with open(write(d), 'rb') as f:
                    raw = f.read()
                off, frames = 24, []
                while off < len(raw):
                    n = st.unpack('<I', raw[off + 8:off + 12])[0]
                    frames.append(raw[off + 16:off + 16 + n])
                    off += 16 + n
                self.assertEqual(len(frames), 256 if fs == 'udp64' else 1024)
                for fr in frames:
                    # To net_pcap's MAC, IPv4, checksum right.
                    self.assertEqual(fr[:6], apps_frames.PCAP_MAC)
                    self.assertEqual(fr[12:15], b'\x08\x00\x45')
                    self.assertEqual(apps_frames._csum(fr[14:34]), 0)
                    tot = st.unpack('!H', fr[16:18])[0]
                    if fs == 'ack60':
                        # 40 B of IP, 6 B of padding.
                        self.assertEqual((len(fr), tot, fr[23]), (60, 40, 6))
                    else:
                        self.assertEqual(len(fr), 14 + tot)
                    if fs != 'udp64':
                        self.assertEqual(fr[26:29], bytes([198, 19, 0]))
                        self.assertEqual(fr[30:33], bytes([198, 18, 1]))

    def test_targets(self):
        case, _ = find(self.cases, 'net_null 64B', 'npool-drop npool')
        self.assertEqual(case.targets, {0: 1.2, 1: 1.0})
        self.assertEqual(apps_bench.target_cell(1.2, 1.19, False),
                         'MISS >=1.20x')
        self.assertEqual(apps_bench.target_cell(1.2, 1.2, False),
                         'PASS >=1.20x')
        self.assertEqual(apps_bench.target_cell(1.2, None, True),
                         'MISSING >=1.20x')
        case, _ = find(self.cases, 'pcap->null IMIX', 'l3fwd-lpm')
        cb = [d for d in case.derived if d.target]
        self.assertEqual([(d.label, d.num, d.den, d.target) for d in cb],
                         [('npool cb256 / cb0', 1, 0, 0.9)])


def results(model, git, rows):
    return {'meta': {'cpu': {'model': model, 'vendor': 'V', 'mhz': '1',
                             'cpus': 2}, 'git': git, 'quick': False,
                     'memory': 'hugepages', 'seconds': 1},
            'results': rows}


ROWS = [
    {'bench': 'drop', 'case': 'net_null 64B', 'case_base': 'net_null 64B',
     'variant': 'npool-drop npool', 'unit': 'Mpps', 'value': 250.0,
     'ratio': 1.31, 'target': 'PASS >=1.20x', 'anchor': 'testpmd rxonly',
     'mem': 'hugepages'},
    {'bench': 'drop', 'case': 'net_null 64B nohuge',
     'case_base': 'net_null 64B', 'variant': 'npool-drop npool',
     'unit': 'Mpps', 'value': 70.5, 'ratio': 0.96, 'target': 'MISS >=1.20x',
     'anchor': 'testpmd rxonly', 'mem': 'no-huge',
     'callgrind': [{'variant': 'npool-drop npool', 'ir_per_pkt': 62.4},
                   {'variant': 'testpmd rxonly', 'ir_per_pkt': 88.1}]},
]


# A callgrind dump of a forwarding lcore, 10 packets: the loop's own 500
# instructions, the RX driver's 1000,
# ethdev's RX callback dispatch 50 of its own plus 180 in l3fwd's
# cb_parse_ptype (a function of the loop's binary), TX 800.
BUDGET_DUMP = """positions: line
events: Ir
ob=(1) /x/l3fwd
fl=(1) l3fwd_lpm_sse.h
fn=(1) lpm_main_loop
1 300
fl=(2) main.c
1 200
cob=(2) /x/librte_net_pcap.so
cfn=(2) eth_pcap_rx
calls=1 1
1 1000
cob=(3) /x/librte_ethdev.so
cfn=(3) rte_eth_call_rx_callbacks
calls=1 1
1 230
cob=(4) /x/librte_net_null.so
cfn=(4) eth_null_tx
calls=1 1
1 800
ob=(3)
fl=(3) rte_ethdev.c
fn=(3)
1 50
cob=(1)
cfn=(5) cb_parse_ptype
calls=1 1
1 180
ob=(1)
fl=(4) l3fwd_lpm.c
fn=(5)
1 180
"""


class BudgetTest(unittest.TestCase):
    def test_each_instruction_in_one_stage(self):
        fd, path = tempfile.mkstemp()
        with os.fdopen(fd, 'w') as f:
            f.write(BUDGET_DUMP)
        self.addCleanup(os.unlink, path)
        total = 300 + 200 + 1000 + 230 + 800
        st = apps_budget.stages(path, __import__('re').compile(
            apps_budget.L3FWD_LOOP), 10, total)
        self.assertEqual(st['ptype parse'], 18.0)
        self.assertEqual(st['RX callbacks'], 5.0)
        self.assertEqual(st['driver RX'], 100.0)
        self.assertEqual(st['loop, other'], 50.0)
        self.assertEqual(st['TX + free'], 80.0)
        # The stages ("of which" rows aside) sum to the total.
        parts = sum(v for k, v in st.items()
                    if k not in apps_budget.OF_WHICH)
        self.assertAlmostEqual(parts, total / 10)
        ent = {'ir_per_pkt': total / 10, 'stages': st}
        self.assertAlmostEqual(apps_budget.outside_drivers(ent),
                               total / 10 - 180)

    def test_rate_ratio_the_counts_predict(self):
        """The l3fwd total over each total: 282.5 / 305.9 = 0.92."""
        st = {'driver RX': 116.0, 'TX + free': 88.0}
        ent = {'frames': 'udp64', 'variants': {
            'npool-fwd cb0': {'ir_per_pkt': 305.9, 'stages': st},
            'l3fwd-lpm': {'ir_per_pkt': 282.5, 'stages': st}}}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            apps_budget.show_set('udp64', ent)
        row = [ln for ln in out.getvalue().splitlines()
               if 'l3fwd-lpm total / total' in ln]
        self.assertEqual(len(row), 1)
        self.assertEqual(row[0].split()[-2:], ['0.92', '1.00'])


class ReadmeTest(unittest.TestCase):
    def run_py(self, *args):
        return subprocess.run([sys.executable, README_PY] + list(args),
                              capture_output=True, text=True)

    def write(self, doc):
        fd, path = tempfile.mkstemp(suffix='.json')
        with os.fdopen(fd, 'w') as f:
            json.dump(doc, f)
        self.addCleanup(os.unlink, path)
        return path

    def test_one_line_per_row_both_memories(self):
        r = self.run_py(self.write(results('CPU X', 'abc1234', ROWS)))
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines()
                 if l.startswith('| drop')]
        self.assertEqual(lines, [
            '| drop | net_null 64B | npool-drop npool | 250.0 Mpps | 1.31 '
            '| **PASS** >=1.20x | 70.50 Mpps | 0.96 | **MISS** >=1.20x '
            '| testpmd rxonly |'])
        self.assertIn('commit abc1234', r.stdout)
        self.assertIn('npool-drop npool 62, testpmd rxonly 88', r.stdout)

    def test_update_replaces_same_cpu_only(self):
        fd, readme = tempfile.mkstemp(suffix='.md')
        with os.fdopen(fd, 'w') as f:
            f.write('intro\n<!-- bench-tables -->\nend\n')
        self.addCleanup(os.unlink, readme)
        for model, git in (('CPU X', 'aaa'), ('CPU Y', 'bbb'),
                           ('CPU X', 'ccc')):
            r = self.run_py('--update', readme,
                            self.write(results(model, git, ROWS)))
            self.assertEqual(r.returncode, 0, r.stderr)
        with open(readme) as f:
            text = f.read()
        self.assertEqual(text.count('<!-- bench-table: CPU X -->'), 1)
        self.assertEqual(text.count('<!-- bench-table: CPU Y -->'), 1)
        self.assertIn('commit ccc', text)
        self.assertNotIn('commit aaa', text)
        self.assertTrue(text.startswith('intro\n'))
        self.assertTrue(text.endswith('<!-- bench-tables -->\nend\n'))

    def test_perf_dir_one_file_per_cpu(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        for model, git in (('AMD EPYC', 'aaa'), ('Intel(R) Xeon(R) X', 'bbb'),
                           ('AMD EPYC', 'ccc')):
            r = self.run_py('--perf-dir', d,
                            self.write(results(model, git, ROWS)))
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(d)),
                         ['amd-epyc.md', 'intel-r-xeon-r-x.md'])
        with open(os.path.join(d, 'amd-epyc.md')) as f:
            text = f.read()
        self.assertTrue(text.startswith('# Performance: AMD EPYC\n'))
        self.assertEqual(text.count('<!-- bench-table: AMD EPYC -->'), 1)
        self.assertIn('commit ccc', text)
        self.assertNotIn('commit aaa', text)

    def test_missed_targets_why_and_budget(self):
        alloc = {'bench': 'pkt', 'case': 'burst32 len 1500',
                 'variant': 'napi_alloc+consume', 'unit': 'ns/op',
                 'value': 9.1, 'ratio': 2.2, 'target': 'MISS <=1.50x',
                 'anchor': 'pktmbuf cache256', 'mem': 'hugepages',
                 'callgrind': [
                     {'variant': 'napi_alloc+consume', 'ir_per_pkt': 142.4,
                      'unit': 'op'},
                     {'variant': 'pktmbuf cache256', 'ir_per_pkt': 60.1,
                      'unit': 'op'}]}
        unknown = {'bench': 'reuse', 'case': 'no such case', 'variant': 'v',
                   'unit': 'ns/op', 'value': 1.0, 'ratio': 1.0,
                   'target': 'MISS <=0.50x', 'anchor': 'a',
                   'mem': 'hugepages'}
        doc = results('CPU X', 'abc1234', ROWS + [alloc, unknown])
        doc['budget'] = 'stage   npool\ntotal   335.7\n'
        r = self.run_py(self.write(doc))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('- pkt / burst32 len 1500 / napi_alloc+consume '
                      '(hugepages MISS <=1.50x); instructions: '
                      'napi_alloc+consume 142, pktmbuf cache256 60. Why: '
                      'a 1500 B npool packet is a head and a fragment',
                      r.stdout)
        self.assertIn('- drop / net_null 64B / npool-drop npool (no-huge '
                      'MISS >=1.20x); instructions: npool-drop npool 62, '
                      'testpmd rxonly 88. Why: on 4 KiB pages', r.stdout)
        # A miss with no known reason and no counts: where, nothing else.
        self.assertIn('- reuse / no such case / v (hugepages MISS '
                      '<=0.50x)\n', r.stdout)
        self.assertIn('```\nstage   npool\ntotal   335.7\n```\n', r.stdout)

    def test_target_list_annotated(self):
        fd, targets = tempfile.mkstemp(suffix='.txt')
        with os.fdopen(fd, 'w') as f:
            f.write('Targets:\n'
                    '  MISS <=1.50x: pkt / burst32 len 1500 / '
                    'napi_alloc+consume = 9.1 ns/op (ratio 2.2 to x)\n'
                    '  PASS <=1.00x: pkt / op len 64 / napi_alloc+consume '
                    '= 5.0 ns/op (ratio 0.9 to x)\n')
        self.addCleanup(os.unlink, targets)
        res = {'pkt|burst32 len 1500|napi_alloc+consume': [
            {'variant': 'napi_alloc+consume', 'ir_per_pkt': 142.4,
             'unit': 'op'}]}
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            apps_callgrind.annotate(res, targets)
        lines = buf.getvalue().splitlines()
        self.assertTrue(lines[2].startswith('      why: a 1500 B npool'),
                        lines)
        self.assertEqual(lines[3], '      instructions/op: '
                         'napi_alloc+consume 142')
        self.assertTrue(lines[4].startswith('  PASS'), lines)
        self.assertEqual(len(lines), 5, lines)
        self.assertIsNone(miss_reasons.reason('pkt', 'op len 64',
                                              'napi_alloc+consume'))
        # One formatter for every list of counts: a variant without a
        # count keeps its error.
        self.assertEqual(miss_reasons.instr_list([
            {'variant': 'a', 'ir_per_pkt': 60.06},
            {'variant': 'b', 'error': 'callgrind: no dump'},
            {'variant': 'c'}]), 'a 60, b ? (callgrind: no dump), c ?')

    def test_bad_input(self):
        r = self.run_py(self.write({'no': 'meta'}))
        self.assertEqual(r.returncode, 2)
        self.assertIn('bench-readme', r.stderr)
        r = self.run_py('--bogus')
        self.assertEqual(r.returncode, 2)


if __name__ == '__main__':
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:], verbosity=1)
