#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The instruction budget of the forwarding path: instructions per packet
per stage of npool-fwd (--copybreak 0 and 256) and of DPDK's l3fwd-lpm,
pcap -> null, on each frame set of apps_frames.FRAME_SETS, under valgrind
--tool=callgrind. make bench runs it every time
(scripts/bench.sh); by hand, after a make build:

  apps_budget.py --out OUT.json [--build build] [--l3fwd-dir DIR]
                 [--frames udp64,rand60,ack60]
  apps_budget.py --show OUT.json

The run is apps_callgrind.py's (warm-up, counters zeroed, a window, Ir of
the forwarding lcore / packets sent), dumped with line and inline-file
information. The forwarding lcore's instructions are split by where they
are, each instruction in one stage: the calls the loop makes into the
drivers (RX; TX with the free path it calls, the free path also shown
alone as "of which"), into copy-break, the loop's own instructions by
the source file they were inlined from (checks, lookup, rewrite), and
what an out-of-line call leads back into the loop's own functions (l3fwd's
RX callback cb_parse_ptype, called by ethdev) by those functions. The
stages sum to the total (what the thread did outside the loop is a row of
its own); "outside the drivers" is the total less driver RX and TX + free.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from apps_cases import Builders, SWEEP_SIZES  # noqa: E402,F401
from apps_callgrind import RunError, callgrind  # noqa: E402
from apps_frames import FRAME_SETS  # noqa: E402
from apps_tools import Tools  # noqa: E402

# Stage of an out-of-line function the loop calls (inclusive), by name.
CALL_STAGES = [
    ('driver RX', re.compile(r'librte_net_pcap|eth_pcap_rx|'
                             r'rte_eth_rx_burst')),
    ('RX callbacks', re.compile(r'rte_eth_call_rx_callbacks')),
    ('copy-break', re.compile(r'npool_rx_copybreak|copybreak')),
    ('TX + free', re.compile(r'librte_net_null|eth_null_tx|'
                             r'rte_eth_tx_burst')),
    ('free (npool)', re.compile(r'npool_|rte_pktmbuf|mempool')),
]
# Free path inside TX (inclusive cost of what the TX driver calls).
FREE_RE = re.compile(r'npool|mempool|mbuf')
# Stage of the loop's own instructions, by the file they come from.
FILE_STAGES = [
    ('ptype parse', re.compile(r'cb_parse_ptype|parse_ptype')),
    ('checks + rewrite', re.compile(
        r'fwd_pass\.h|fwd_check\.h|fwd_slow\.c|rte_ip\.h|rte_ether\.h|'
        r'rte_byteorder\.h|mmintrin\.h|npool_mbuf\.h|'
        r'l3fwd[^:]*:(processx4|l3fwd_lpm_process|rfc1812|port_group)')),
    ('lookup', re.compile(r'rte_lpm|fwd_lookup\.h|rte_fib')),
    ('RX checks', re.compile(r'app_run\.h|app_stats\.h|app_rx_')),
    ('TX queueing', re.compile(r'fwd_ctx\.h|fwd_burst\.c|fwd_lcore\.c|'
                               r'l3fwd_em|send_pkt|rte_ethdev\.h')),
    ('copy-break', re.compile(r'npool_rx|npool_pkt|npool_copybreak')),
]


def _names(line, table):
    """fl=(3) name | fl=(3): the name, remembered by its id."""
    m = re.match(r'\w+=\((\d+)\)(?: (.*))?$', line)
    if not m:
        return line.split('=', 1)[1]
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), '?')


def parse(path):
    """(self Ir by (fn, inline file), call Ir by (caller, callee)) of one
    callgrind dump (line positions, Ir only); a function is named
    "object:function" (the PMDs of Debian have no symbols: their object
    names them)."""
    files, fns, objs = {}, {}, {}
    selfc, calls = {}, {}
    ob = cob = fn = fi = callee = None
    in_call = False
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in '+-*':
                parts = line.split()
                ir = int(parts[1]) if len(parts) > 1 else 0
                if in_call:
                    k = (fn, callee)
                    calls[k] = calls.get(k, 0) + ir
                    in_call = False
                else:
                    k = (fn, fi)
                    selfc[k] = selfc.get(k, 0) + ir
                continue
            if line.startswith('ob='):
                ob = os.path.basename(_names(line, objs))
                cob = None
            elif line.startswith('cob='):
                cob = os.path.basename(_names(line, objs))
            elif line.startswith(('fl=', 'fi=', 'fe=')):
                fi = _names(line, files)
            elif line.startswith('fn='):
                fn = '%s:%s' % (ob, _names(line, fns))
            elif line.startswith('cfn='):
                callee = '%s:%s' % (cob or ob, _names(line, fns))
                cob = None
            elif line.startswith(('cfl=', 'cfi=')):
                _names(line, files)
            elif line.startswith('calls='):
                in_call = True
    return selfc, calls


def stages(path, loop_re, pkts, total):
    """Instructions per packet per stage of the forwarding loop, each
    instruction in one stage; @total (Ir of the thread) minus the stages
    is the row 'outside the loop'."""
    selfc, calls = parse(path)
    # The loop's own functions: those with instructions of their own
    # (main and the launch frames only call).
    loops = {fn for (fn, _), ir in selfc.items()
             if ir > 0 and loop_re.search(fn or '')}
    # What a function outside the loop spends back in the loop's own
    # functions (ethdev calling l3fwd's RX callback): counted there, by
    # their file, not again in the call that led to it.
    back = {}
    for (fn, callee), ir in calls.items():
        if fn not in loops and callee in loops:
            back[fn] = back.get(fn, 0) + ir
    out = {}

    def add(k, ir):
        out[k] = out.get(k, 0.0) + ir / pkts
    for (fn, fi), ir in selfc.items():
        if fn not in loops:
            continue
        for name, rx in FILE_STAGES:
            if rx.search('%s %s' % (fi or '', fn)):
                add(name, ir)
                break
        else:
            add('loop, other', ir)
    tx_callees = set()
    for (fn, callee), ir in calls.items():
        if fn not in loops or callee in loops:
            continue
        ir -= back.pop(callee, 0)
        for name, rx in CALL_STAGES:
            if rx.search(callee or ''):
                add(name, ir)
                if name == 'TX + free':
                    tx_callees.add(callee)
                break
        else:
            add('other calls', ir)
    add('outside the loop', total - sum(out.values()) * pkts)
    # The free path: what the TX driver calls out of line, plus the
    # mbuf free inlined into it (rte_mbuf.h, npool's headers): parts of
    # 'TX + free', shown apart.
    for (fn, callee), ir in calls.items():
        if fn in tx_callees and callee not in tx_callees and \
                FREE_RE.search(callee or ''):
            add(OF_WHICH[0], ir)
    for (fn, fi), ir in selfc.items():
        if fn in tx_callees and re.search(r'rte_mbuf|rte_mempool|npool',
                                          fi or ''):
            add(OF_WHICH[1], ir)
    return out


# Rows that are parts of 'TX + free', not stages of their own.
OF_WHICH = ('  of which free calls', '  of which free inline')
DRIVERS = ('driver RX', 'TX + free')


def outside_drivers(ent):
    """Instructions a packet outside the drivers: the total less driver
    RX and TX + free (None without a count)."""
    st = ent.get('stages')
    if not st or ent.get('ir_per_pkt') is None:
        return None
    return ent['ir_per_pkt'] - sum(st.get(k, 0.0) for k in DRIVERS)


# npool-fwd with port 1's next hop a gateway's resolved neighbour (a
# permanent one; the router's address ends in .0, which no frame's source
# does): the next-hop object of issue 34 read by the pass, the control
# thread beside the lcore, quiescent states reported.
NH_LABEL = 'npool-fwd nh'


def nh_args(work):
    rules = os.path.join(work, 'gw4.cfg')
    with open(rules, 'w') as f:
        f.write('R198.18.1.0/24 via 198.18.200.2\n')
    return ['--port-addr', '1,198.18.201.0/23', '--rule_ipv4', rules,
            '--neigh', '1,198.18.200.2,02:00:00:00:00:01']


# The loop's functions: the app's own, not the library's, not main.
NPOOL_LOOP = r'^npool-fwd:(?!npool_|rte_|main$|\(below)'
L3FWD_LOOP = r'^l3fwd[^:]*:(?!rte_eth_tx_burst|main$|\(below)'
VARIANTS = [
    ('npool-fwd cb0', 'npool-fwd', NPOOL_LOOP),
    ('npool-fwd cb256', 'npool-fwd', NPOOL_LOOP),
    (NH_LABEL, 'npool-fwd', NPOOL_LOOP),
    ('l3fwd-lpm', 'l3fwd', L3FWD_LOOP),
]


def run(a):
    # Beside --out and named after it: two runs with their --out in one
    # folder do not share it.
    work = os.path.abspath(a.work or os.path.splitext(a.out)[0] + '.work')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    targs = argparse.Namespace(
        drop=None,
        fwd=os.path.abspath(os.path.join(a.build, 'apps/fwd/npool-fwd')),
        l3fwd_dir=os.path.abspath(a.l3fwd_dir), pkg_config_path='')
    tools = Tools(targs)
    b = Builders(tools, 'nohuge', None)
    res = {}
    jobs = []
    for fs in a.frames.split(','):
        label_fs, write = FRAME_SETS[fs]
        pcap = write(work)
        res[fs] = {'frames': label_fs, 'variants': {}}
        for label, tool, loop in VARIANTS:
            ent = {'variant': label}
            res[fs]['variants'][label] = ent
            jobs.append((len(jobs) + 1, pcap, ent, tool, loop))

    def one(job):
        k, pcap, ent, tool, loop = job
        label = ent['variant']
        if tool not in tools.bin:
            ent['error'] = 'MISSING: %s' % tools.why.get(tool, '?')
            return
        if tool == 'l3fwd':
            build, counters, stop = b.l3fwd(pcap)
        elif label == NH_LABEL:
            build, counters, stop = b.fwd(pcap, 'npool', 0,
                                          extra=nh_args(work))
        else:
            build, counters, stop = b.fwd(pcap, 'npool',
                                          int(label.split('cb')[1]))
        d = os.path.join(work, 'run%d' % k)
        os.makedirs(d)
        prefix = 'npbg%d_%d' % (os.getpid(), k)
        try:
            ipp, pkts, ir, dump = callgrind(
                build(prefix), prefix, counters, stop, d, a.warmup,
                a.window, lines=True)
        except RunError as e:
            ent['error'] = 'callgrind: %s (%s)' % (e, d)
            return
        ent.update(ir_per_pkt=ipp, packets=pkts, ir=ir,
                   stages=stages(dump, re.compile(loop), pkts, ir))
        ent['outside_drivers'] = outside_drivers(ent)

    # valgrind runs a program's threads one at a time: --jobs of them side
    # by side, each a CPU; the counts are per packet, whatever the load.
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        list(pool.map(one, jobs))
    with open(a.out, 'w') as f:
        json.dump(res, f, indent=1)
    return res


ORDER = ['driver RX', 'RX checks', 'copy-break', 'ptype parse',
         'checks + rewrite', 'lookup', 'free (npool)', 'TX queueing',
         'TX + free', OF_WHICH[0], OF_WHICH[1], 'loop, other', 'other calls',
         'RX callbacks', 'outside the loop']


def show_set(fs, ent):
    res = ent['variants']
    print('  %s (%s):' % (ent['frames'], fs))
    labels = list(res)
    names = []
    for v in res.values():
        for k in (v.get('stages') or {}):
            if k not in names:
                names.append(k)
    names = [n for n in ORDER if n in names] + \
        [n for n in names if n not in ORDER]
    print('    %-24s' % 'stage' + ''.join('%17s' % x for x in labels))
    for n in names:
        print('    %-24s' % n + ''.join(
            '%17.1f' % res[x]['stages'].get(n, 0.0)
            if res[x].get('stages') else '%17s' % '-' for x in labels))
    print('    %-24s' % 'total (lcore / packets)' + ''.join(
        '%17.1f' % res[x]['ir_per_pkt'] if res[x].get('ir_per_pkt')
        else '%17s' % 'n/a' for x in labels))
    out = {x: outside_drivers(res[x]) for x in labels}
    print('    %-24s' % 'outside the drivers' + ''.join(
        '%17.1f' % out[x] if out[x] is not None else '%17s' % 'n/a'
        for x in labels))
    ref = out.get('l3fwd-lpm')
    if ref:
        print('    %-24s' % '  / l3fwd-lpm\'s' + ''.join(
            '%17.2f' % (out[x] / ref) if out[x] is not None
            else '%17s' % 'n/a' for x in labels))
    # The rate ratio the counts predict where an instruction costs the
    # same in both (hugepages on this bench: docs/perf/issue-27.md).
    tot = {x: res[x].get('ir_per_pkt') for x in labels}
    if tot.get('l3fwd-lpm'):
        print('    %-24s' % 'l3fwd-lpm total / total' + ''.join(
            '%17.2f' % (tot['l3fwd-lpm'] / tot[x]) if tot[x]
            else '%17s' % 'n/a' for x in labels))
    for x in labels:
        if res[x].get('error'):
            print('    %s: %s' % (x, res[x]['error']))


def show(res):
    print('Instruction budget, pcap -> null (callgrind, --no-huge, one '
          'lcore, DPDK baseline -march; instructions a packet; the stages '
          'sum to the total, "of which" rows are parts of TX + free):')
    for fs, ent in res.items():
        show_set(fs, ent)
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out')
    ap.add_argument('--show')
    ap.add_argument('--build', default='build-cg')
    ap.add_argument('--l3fwd-dir', default='build/l3fwd-baseline')
    ap.add_argument('--work', default=None)
    ap.add_argument('--frames', default=','.join(FRAME_SETS),
                    help='frame sets, comma-separated (%s)'
                    % ','.join(FRAME_SETS))
    ap.add_argument('--jobs', type=int,
                    default=max(1, min(2, os.cpu_count() or 1)),
                    help='programs under valgrind at a time '
                    '(default: 2, or 1 on one CPU)')
    ap.add_argument('--warmup', type=float, default=1.0)
    # Longer than apps_callgrind.py's: the packet count is read around
    # the zero and dump of callgrind_control, whose lag on a loaded
    # machine is the error.
    ap.add_argument('--window', type=float, default=6.0)
    a = ap.parse_args()
    if a.show:
        with open(a.show) as f:
            show(json.load(f))
        return 0
    if not a.out:
        ap.error('--out (or --show)')
    if shutil.which('valgrind') is None:
        print('apps_budget: valgrind not found (scripts/deps.sh bench)',
              file=sys.stderr)
        return 1
    show(run(a))
    return 0


if __name__ == '__main__':
    sys.exit(main())
