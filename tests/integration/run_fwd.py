#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run npool-fwd on net_pcap vdevs and check every packet against the
RFC 1812 oracle (and, for the edge-case sets, against hand-written counts).

  run_fwd.py --app build/apps/fwd/npool-fwd --set main|deftables|jumbo|captures|fuzz
             [--captures DIR] [--pool npool|mempool] [--copybreak N]
             [--lookups lpm,fib] [--keep] [--diagnose]

Port 0 reads the input capture; ports 0..3 write tx_<port>.pcap; ports 1..3
read an empty capture.  Checks: exit status 0, leak block clean, rx ==
forwarded + dropped per port and in total, per-reason and per-port tx
counts equal to the oracle's (and to the hand counts), every transmitted
frame byte-identical to the oracle's, in order per port.  The set runs
once per --lookups value (default lpm, then fib): each is checked so, and
every run's per-port counters and output pcaps must equal the first's.
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import collections
import itertools
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import edgecases  # noqa: E402
import fuzz  # noqa: E402
import harness  # noqa: E402
import oracle  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402
from fwd_lookups import compare_lookups  # noqa: E402

NPORTS = 4
MAX_REPORTED = 25


# ------------------------------------------------------------------ inputs

class Inputs:
    """The frames port 0 receives, a label for each, and the run's
    configuration (routes, portmask, extra app arguments)."""

    def __init__(self, frames, labels, portmask, rules, eth_dest, hand=None,
                 hand_verdicts=None, notes=(), mtu=None):
        self.mtu = mtu                # --mtu, None = the app's default
        self.max_pkt_len = None       # --max-pkt-len instead of --mtu
        self.extra_args = []          # more app arguments (experiments)
        self.frames = frames
        self.labels = labels
        self.portmask = portmask
        self.rules = rules            # (v4 text, v6 text) or None
        self.eth_dest = eth_dest      # {port: 'mac'}
        self.hand = hand              # hand counts (edge sets)
        self.hand_verdicts = hand_verdicts
        self.notes = list(notes)
        # regexes the app's stderr / stdout must match
        self.want_stderr = []
        self.want_stdout = []


def l3fwd_files_inputs():
    """deftables' frames through l3fwd's own route files, -p 0x7: each
    route to a port outside -p is left out with a warning naming its
    line; the other routes forward."""
    cases = edgecases.l3fwd_files_cases()
    texts, notes, want = [], [], []
    for fam in (4, 6):
        text, where = edgecases.l3fwd_route_file(fam)
        texts.append(text)
        notes.append('l3fwd IPv%d route file: %s' % (fam, where))
        name = re.escape('routes_ipv%d.cfg' % fam)
        for lineno, line in enumerate(text.splitlines(), 1):
            f = line.split()
            if line.startswith('R') and \
                    not edgecases.DEFTABLES_PORTMASK >> int(f[1]) & 1:
                want.append(r'npool-fwd: warning: \S*%s:%d: route \S+ to '
                            r'port %s skipped' % (name, lineno, f[1]))
    inputs = Inputs(edgecases.frames(cases), [k.name for k in cases],
                    edgecases.DEFTABLES_PORTMASK, tuple(texts), {},
                    edgecases.L3FWD_FILES_EXPECTED,
                    [k.expect for k in cases], notes=notes)
    inputs.want_stderr = want
    return inputs


def edge_inputs(name):
    if name == 'l3fwd-files':
        return l3fwd_files_inputs()
    if name in ('main', 'jumbo'):
        cases, hand, mtu = (edgecases.main_cases(), edgecases.MAIN_EXPECTED,
                            None) if name == 'main' else \
            (edgecases.jumbo_cases(), edgecases.JUMBO_EXPECTED,
             edgecases.JUMBO_MTU)
        return Inputs(edgecases.frames(cases), [k.name for k in cases],
                      edgecases.MAIN_PORTMASK,
                      (edgecases.ROUTES_V4, edgecases.ROUTES_V6),
                      {1: edgecases.ETH_DEST_1}, hand,
                      [k.expect for k in cases], mtu=mtu)
    cases = edgecases.deftables_cases()
    return Inputs(edgecases.frames(cases), [k.name for k in cases],
                  edgecases.DEFTABLES_PORTMASK, None, {},
                  edgecases.DEFTABLES_EXPECTED, [k.expect for k in cases])


def fuzz_inputs(captures, n=6000, seed=1812):
    """Mutated frames (fuzz.py, fixed seed), routes as the main set."""
    extra = capture_inputs(captures).frames if captures and \
        os.path.isdir(captures) else []
    frames = fuzz.fuzz_frames(n, seed, extra_seeds=extra)
    return Inputs(frames, ['fuzz#%d' % i for i in range(len(frames))],
                  edgecases.MAIN_PORTMASK,
                  (edgecases.ROUTES_V4, edgecases.ROUTES_V6),
                  {1: edgecases.ETH_DEST_1})


def capture_files(directory):
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if f.endswith(('.pcap', '.cap', '.pcapng')))


def to_port0(frame):
    """A captured frame as sent to port 0: a unicast destination MAC (a
    host of the link it was taken on) becomes port 0's, as tcprewrite
    --enet-dmac does before a replay into a router; broadcast and
    multicast ones stay. npool-fwd, as Linux, drops a frame to another
    station's MAC (l2_otherhost) whatever it holds."""
    if len(frame) < 6 or frame[0] & 1:
        return frame
    return packets.PORT0_MAC + frame[6:]


def capture_inputs(directory):
    """Every frame of the Ethernet captures in @directory, each sent to
    port 0 (to_port0())."""
    frames, labels, notes = [], [], []
    for path in capture_files(directory):
        name = os.path.basename(path)
        try:
            pc = pcaplib.read(path)
        except pcaplib.PcapError as e:
            notes.append('skipped %s' % e)
            continue
        if pc.linktype != pcaplib.LINKTYPE_ETHERNET:
            notes.append('skipped %s: link type %d' % (name, pc.linktype))
            continue
        for n, f in enumerate(pcaplib.libpcap_frames(pc), 1):
            frames.append(to_port0(f))
            labels.append('%s#%d' % (name, n))
    return Inputs(frames, labels, edgecases.MAIN_PORTMASK,
                  (edgecases.ROUTES_V4, edgecases.ROUTES_V6),
                  {1: edgecases.ETH_DEST_1}, notes=notes)


# --------------------------------------------------------------- app run

# npool-fwd's start-up line: "port 0: net_pcap, ..., MAC 02:70:63:61:70:00"
MAC_RE = re.compile(r'^\s*[Pp]ort\s*(\d+)\b.*?\b'
                    r'((?:[0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2})\b', re.M)


def port_macs(res):
    """Egress MACs as the app reports them: JSON ports[].mac, else the
    start-up line of each port."""
    macs = {}
    for p in (res.json or {}).get('ports', []) or []:
        if isinstance(p, dict) and isinstance(p.get('mac'), str):
            macs[p.get('port')] = oracle.mac_bytes(p['mac'].replace('-', ':'))
    if not macs:
        for m in MAC_RE.finditer(res.stdout + res.stderr):
            macs.setdefault(int(m.group(1)),
                            oracle.mac_bytes(m.group(2)))
    return macs


def run_fwd(app, work, inputs, pool, copybreak, frames=None, json_name=None,
            queues=1):
    """One npool-fwd run.  With queues > 1, every port has that many RX/TX
    queues, lcore k polls queue k of every port (--config), and port 0's
    queue k reads frames k, k + queues, k + 2 * queues, ..."""
    frames = inputs.frames if frames is None else frames
    tag = json_name or 'run'
    rxs = []
    for k in range(queues):
        rxs.append(work.file('%s_in_%d.pcap' % (tag, k)))
        pcaplib.write(rxs[-1], frames[k::queues])
    vdevs, txs = harness.pcap_vdevs(work, rxs, NPORTS, queues)
    jpath = work.file('%s.json' % tag)
    if os.path.exists(jpath):
        os.unlink(jpath)
    # --idle-exit counts from each lcore's first empty poll after its
    # last packet: an lcore kept off its CPU mid-capture (make test on 2
    # cores) is not idle.
    args = ['-p', '0x%x' % inputs.portmask, '--pool', pool,
            '--idle-exit', '300', '--json', jpath]
    if inputs.rules:
        for fam, text in zip(('ipv4', 'ipv6'), inputs.rules):
            path = work.file('routes_%s.cfg' % fam)
            with open(path, 'w') as f:
                f.write(text)
            args += ['--rule_%s' % fam, path]
    for port, mac in sorted(inputs.eth_dest.items()):
        args += ['--eth-dest', '%d,%s' % (port, mac)]
    if copybreak is not None:
        args += ['--copybreak', str(copybreak)]
    if inputs.max_pkt_len is not None:
        args += ['--max-pkt-len', str(inputs.max_pkt_len)]
    elif inputs.mtu is not None:
        args += ['--mtu', str(inputs.mtu)]
    if queues > 1:
        args += ['--config', ','.join(
            '(%d,%d,%d)' % (p, k, k) for p in range(NPORTS)
            if inputs.portmask >> p & 1 for k in range(queues))]
    args += inputs.extra_args
    cmd = [app] + harness.eal_args(work.new_prefix(), vdevs,
                                   '0-%d' % (queues - 1) if queues > 1
                                   else '0') + ['--'] + args
    res = harness.run(cmd)
    res.json = harness.load_json(jpath)
    res.txq = [[harness.read_tx(t) for t in tq] for tq in txs]
    res.tx = [sum(tq, []) for tq in res.txq]
    return res


def make_config(inputs, macs):
    enabled = [p for p in range(NPORTS) if inputs.portmask >> p & 1]
    if inputs.rules:
        # A file's routes to ports outside -p are not loaded (l3fwd's
        # rule); the default tables keep theirs (bad_port).
        r4 = [r for r in oracle.parse_routes(inputs.rules[0], 4,
                                             'routes_ipv4.cfg')
              if inputs.portmask >> r[2] & 1]
        r6 = [r for r in oracle.parse_routes(inputs.rules[1], 6,
                                             'routes_ipv6.cfg')
              if inputs.portmask >> r[2] & 1]
    else:
        r4, r6 = oracle.L3FWD_DEFAULT_V4, oracle.L3FWD_DEFAULT_V6
    eth_dest = {p: oracle.mac_bytes(m) for p, m in inputs.eth_dest.items()}
    # l3fwd's --max-pkt-len N: IP packets up to N - 18 bytes leave
    mtu = inputs.max_pkt_len - 18 if inputs.max_pkt_len else \
        inputs.mtu or edgecases.MTU
    return oracle.Config(r4, r6, enabled, mtu, eth_dest, macs)


# --------------------------------------------------------------- checking

def expected_counts(verdicts):
    drops = collections.Counter(v.reason for v in verdicts if v.reason)
    tx = collections.Counter()
    for v in verdicts:
        if not v.reason:
            tx[v.port] += v.nfrags
    return drops, tx


def check_json(js, inputs, verdicts, pool, copybreak, tx_records):
    probs = []
    if '_error' in js:
        return ['no JSON: %s' % js['_error']]
    if js.get('app') != 'npool-fwd':
        probs.append('JSON app = %r' % js.get('app'))
    if js.get('pool') != pool:
        probs.append('JSON pool = %r, run with %s' % (js.get('pool'), pool))
    if js.get('copybreak') != (copybreak or 0):
        probs.append('JSON copybreak = %r, run with %s'
                     % (js.get('copybreak'), copybreak or 0))
    probs += harness.leak_problems(js)
    ports = {p.get('port'): p for p in js.get('ports', [])
             if isinstance(p, dict)}
    exp_drops, exp_tx = expected_counts(verdicts)
    nfwd = sum(1 for v in verdicts if not v.reason)
    enabled = [p for p in range(NPORTS) if inputs.portmask >> p & 1]
    for p in enabled:
        if p not in ports:
            probs.append('JSON has no entry for port %d' % p)
    tot = {'rx': 0, 'tx': 0, 'dropped': 0}
    tot_drops = collections.Counter()
    for p, e in sorted(ports.items()):
        drops = e.get('drops', {})
        missing = [r for r in oracle.REASONS if r not in drops]
        if missing:
            probs.append('port %s: reason keys missing: %s'
                         % (p, ' '.join(missing)))
        if e.get('dropped') != sum(drops.values()):
            probs.append('port %s: dropped %r != sum of drops %d'
                         % (p, e.get('dropped'), sum(drops.values())))
        want_rx = len(inputs.frames) if p == 0 else 0
        if e.get('rx') != want_rx:
            probs.append('port %s: rx %r, expected %d' % (p, e.get('rx'),
                                                          want_rx))
        if isinstance(p, int) and p < NPORTS:
            if e.get('tx') != exp_tx.get(p, 0):
                probs.append('port %d: tx %r, oracle %d' % (
                    p, e.get('tx'), exp_tx.get(p, 0)))
            if e.get('tx') != len(tx_records[p]):
                probs.append('port %d: JSON tx %r but %d frames in its '
                             'tx pcap' % (p, e.get('tx'), len(tx_records[p])))
        if 'forwarded' in e:
            want = nfwd if p == 0 else 0
            if e['forwarded'] != want:
                probs.append('port %s: forwarded %r, oracle %d'
                             % (p, e['forwarded'], want))
        if p != 0:
            bad = {r: n for r, n in drops.items() if n}
            if bad:
                probs.append('port %s: drops on an idle port: %s' % (p, bad))
        for k in tot:
            tot[k] += e.get(k, 0) if isinstance(e.get(k), int) else 0
        tot_drops.update({r: n for r, n in drops.items()
                          if isinstance(n, int)})
    p0 = ports.get(0, {})
    if isinstance(p0.get('rx'), int) and isinstance(p0.get('dropped'), int):
        if p0['rx'] - p0['dropped'] != nfwd:
            probs.append('port 0: rx - dropped = %d forwarded, oracle %d'
                         % (p0['rx'] - p0['dropped'], nfwd))
    for r in oracle.REASONS:
        got = tot_drops.get(r, 0)
        if got != exp_drops.get(r, 0):
            probs.append('drops[%s] = %d, oracle %d' % (r, got,
                                                        exp_drops.get(r, 0)))
    total = js.get('total', {})
    for k in tot:
        if total.get(k) != tot[k]:
            probs.append('total.%s = %r, sum over ports %d'
                         % (k, total.get(k), tot[k]))
    tdrops = total.get('drops', {})
    for r in oracle.REASONS:
        if tdrops.get(r) != tot_drops.get(r, 0):
            probs.append('total.drops[%s] = %r, sum over ports %d'
                         % (r, tdrops.get(r), tot_drops.get(r, 0)))
    return probs


def check_hand(inputs, verdicts):
    """The oracle against the hand-written expectations of an edge set."""
    probs = []
    for label, v, e in zip(inputs.labels, verdicts, inputs.hand_verdicts):
        if e[0] == 'drop':
            ok = v.reason == e[1]
        elif e[0] == 'fwd':
            ok = not v.reason and not v.frag and v.port == e[1] \
                and v.out[14:] == e[2] and v.out[12:14] == \
                e[3].to_bytes(2, 'big')
        else:
            ok = not v.reason and v.frag and v.port == e[1] \
                and v.nfrags == e[2]
        if not ok:
            probs.append('ORACLE disagrees with hand verdict for %r: hand %s,'
                         ' oracle %s' % (label, e[:2], v.kind))
    drops, tx = expected_counts(verdicts)
    want = inputs.hand
    if dict(drops) != want['drops'] or \
            {p: n for p, n in tx.items() if n} != \
            {p: n for p, n in want['tx'].items() if n}:
        probs.append('ORACLE counts %s / tx %s differ from hand counts %s'
                     % (dict(drops), dict(tx), want))
    return probs


def _src_mac_problems(tx_records, macs):
    """Without the egress MACs from the app: one source MAC per port, all
    different from each other."""
    probs = []
    seen = {}
    for p, recs in enumerate(tx_records):
        srcs = {d[6:12] for d, _ in recs if len(d) >= 12}
        if len(srcs) > 1:
            probs.append('port %d: %d different source MACs' % (p, len(srcs)))
        for s in srcs:
            if s in seen and seen[s] != p:
                probs.append('ports %d and %d send with the same source MAC'
                             ' %s' % (seen[s], p, oracle.mac_text(s)))
            seen[s] = p
    return probs


def _l3_identity(frame):
    """A key that finds the input frame an output frame came from."""
    off = 14
    et = oracle.be16(frame, 12) if len(frame) >= 14 else 0
    if et == 0x8100 and len(frame) >= 18:
        et, off = oracle.be16(frame, 16), 18
    l3 = frame[off:]
    if et == 0x0800 and len(l3) >= 20:
        ihl = (l3[0] & 15) * 4
        return ('4', l3[9], bytes(l3[12:20]), bytes(l3[4:6]),
                bytes(l3[ihl:ihl + 24]) if not oracle.be16(l3, 6) & 0x3FFF
                else b'')
    if et == 0x86DD and len(l3) >= 40:
        return ('6', bytes(l3[8:40]), bytes(l3[40:64]))
    return None


def compare_port(p, labels, verdicts, recs, mtu, check_src):
    """Lock-step comparison of one port's transmitted records with the
    oracle's outputs for that port, in input order, up to the first
    difference (after it the sequences no longer line up; the content
    diagnosis names the packets).  Returns (problems, in_step)."""
    j = 0
    for i, v in enumerate(verdicts):
        if v.reason or v.port != p:
            continue
        if j >= len(recs):
            return ['port %d: sent %d frames, the oracle expects more '
                    '(from input %s on)' % (p, len(recs), labels[i])], False
        if v.frag:
            d = recs[j][0]
            if len(d) >= 34 and (d[23], d[26:34], d[18:20]) != \
                    (v.l3[9], v.l3[12:20], v.l3[4:6]):
                return ['port %d: expected the fragments of input %s, got '
                        'another packet (sequence out of step)'
                        % (p, labels[i])], False
            used, fp = oracle.check_fragments(v, recs[j:], mtu, check_src)
            if fp:
                return ['port %d, input %s: fragments: %s'
                        % (p, labels[i], '; '.join(fp[:4]))], False
            j += used
        else:
            d = oracle.compare_frame(recs[j][0], recs[j][1], v.out, check_src)
            if d:
                return ['port %d, input %s: %s' % (p, labels[i], d)], False
            j += 1
    if j != len(recs):
        return ['port %d: %d frames more than the oracle expects'
                % (p, len(recs) - j)], False
    return [], True


def compare_outputs(inputs, verdicts, tx_records, mtu, check_src):
    """Lock-step comparison per port; on a mismatch, match by content to
    name the input packets involved."""
    probs = []
    in_step = True
    for p in range(NPORTS):
        pp, ok = compare_port(p, inputs.labels, verdicts, tx_records[p], mtu,
                              check_src)
        probs += pp
        in_step = in_step and ok
    if not in_step:
        probs += diagnose_by_content(inputs, verdicts, tx_records, check_src)
    return probs


def diagnose_by_content(inputs, verdicts, tx_records, check_src):
    """Match each sent frame to the input it came from, so that a missing,
    extra or misrouted packet is named."""
    probs = []

    def norm(d):
        return d if check_src else d[:6] + b'\0' * 6 + d[12:]

    want = collections.defaultdict(collections.deque)
    fragkeys = {}
    for i, v in enumerate(verdicts):
        if v.reason:
            continue
        if v.frag:
            fragkeys[(v.port, v.l3[9], v.l3[12:20], v.l3[4:6])] = i
        else:
            want[(v.port, norm(v.out))].append(i)
    by_id = collections.defaultdict(list)
    for i, f in enumerate(inputs.frames):
        k = _l3_identity(f)
        if k:
            by_id[k].append(i)
    for p, recs in enumerate(tx_records):
        for d, orig_len in recs:
            q = want.get((p, norm(d)))
            if q:
                q.popleft()
                continue
            if len(d) >= 34 and oracle.be16(d, 12) == 0x0800 and \
                    (p, d[23], d[26:34], d[18:20]) in fragkeys:
                continue
            k = _l3_identity(d)
            cand = by_id.get(k, []) if k else []
            if not cand:
                probs.append('port %d sent a frame matching no input: %s...'
                             % (p, d[:48].hex()))
                continue
            if len(cand) > 1:
                probs.append('port %d sent a frame that may come from %s: %s'
                             % (p, ', '.join(inputs.labels[i]
                                             for i in cand[:4]),
                                d[:48].hex()))
                continue
            i = cand[0]
            v = verdicts[i]
            if v.reason:
                what = 'oracle drops it (%s)' % v.reason
            elif v.port != p:
                what = 'oracle sends it to port %d' % v.port
            elif v.frag:
                what = 'oracle fragments it'
            else:
                what = 'bytes differ: ' + (oracle.compare_frame(
                    d, orig_len, v.out, check_src) or '?')
            probs.append('input %s: app sent it on port %d; %s'
                         % (inputs.labels[i], p, what))
    for (p, _), q in want.items():
        for i in q:
            probs.append('input %s: oracle forwards it to port %d, app did '
                         'not send it there' % (inputs.labels[i], p))
    return probs


def check_run(res, inputs, pool, copybreak):
    probs = []
    if res.timed_out or res.rc != 0:
        probs.append('npool-fwd: %s\n%s' % (res.describe(), res.tail()))
    macs = port_macs(res)
    check_src = all(p in macs for p in range(NPORTS)
                    if inputs.portmask >> p & 1)
    # The inputs are sent to port 0's MAC (packets.PORT0_MAC): npool-fwd's
    # one pass takes only such frames.
    if 0 in macs and macs[0] != packets.PORT0_MAC:
        probs.append('port 0 has MAC %s, the inputs are sent to %s: '
                     'update packets.PORT0_MAC' % (
                         oracle.mac_text(macs[0]),
                         oracle.mac_text(packets.PORT0_MAC)))
    cfg = make_config(inputs, macs)
    verdicts = [oracle.decide(f, cfg) for f in inputs.frames]
    if inputs.hand_verdicts:
        probs += check_hand(inputs, verdicts)
    for want in inputs.want_stderr:
        if not re.search(want, res.stderr):
            probs.append('no line /%s/ on stderr' % want)
    for want in inputs.want_stdout:
        if not re.search(want, res.stdout, re.M):
            probs.append('no line /%s/ on stdout' % want)
    if isinstance(res.json, dict):
        probs += check_json(res.json, inputs, verdicts, pool, copybreak,
                            res.tx)
    if not check_src:
        probs += _src_mac_problems(res.tx, macs)
    if len(res.txq[0]) == 1:
        probs += compare_outputs(inputs, verdicts, res.tx, cfg.mtu, check_src)
    else:
        probs += compare_queues(inputs, verdicts, res, cfg.mtu, check_src)
    return probs, verdicts, check_src


def compare_queues(inputs, verdicts, res, mtu, check_src):
    """Several lcores: TX queue files are in step with one RX queue each
    (RX queue k carried inputs k, k + q, ...), whatever lcore-to-queue
    mapping the app chose; the lcores' rx add up to the input."""
    q = len(res.txq[0])
    probs = []
    lc = [x.get('rx') for x in (res.json or {}).get('lcores', [])]
    if sorted(lc) != sorted(len(inputs.frames[k::q]) for k in range(q)):
        probs.append('lcores rx %s, RX queues held %s' % (
            lc, [len(inputs.frames[k::q]) for k in range(q)]))
    in_step = True
    for p in range(NPORTS):
        best = None
        for perm in itertools.permutations(range(q)):
            pp = []
            for k, t in enumerate(perm):
                kp, ok = compare_port(p, inputs.labels[k::q], verdicts[k::q],
                                      res.txq[p][t], mtu, check_src)
                pp += kp
                if not ok:
                    pp.append('port %d: TX queue %d out of step with RX '
                              'queue %d' % (p, t, k))
            if best is None or len(pp) < len(best):
                best = pp
        if best:
            in_step = False
            probs += best
    if not in_step:
        probs += diagnose_by_content(inputs, verdicts, res.tx, check_src)
    return probs


# -------------------------------------------------------------- diagnosis

def diagnose_reasons(app, work, inputs, pool, copybreak, verdicts, js):
    """Run suspicious packets one at a time to name the app's reason for
    each; candidates are the packets whose oracle reason has a count that
    differs from the app's (slow: one process per packet)."""
    tot = collections.Counter()
    for e in js.get('ports', []):
        tot.update(e.get('drops', {}))
    exp, _ = expected_counts(verdicts)
    bad = {r for r in oracle.REASONS if tot.get(r, 0) != exp.get(r, 0)}
    cand = [i for i, v in enumerate(verdicts) if v.reason in bad]
    if tot != exp:
        cand += [i for i, v in enumerate(verdicts) if not v.reason]
    out = []
    for i in cand[:60]:
        r = run_fwd(app, work, inputs, pool, copybreak,
                    frames=[inputs.frames[i]], json_name='one')
        drops = {}
        for e in (r.json or {}).get('ports', []):
            drops.update({k: n for k, n in e.get('drops', {}).items() if n})
        got = ','.join(sorted(drops)) or 'fwd(%s)' % ','.join(
            str(p) for p in range(NPORTS) if r.tx[p])
        if r.rc != 0:
            got += ' [%s]' % r.describe()
        if got.split(' ')[0] != (verdicts[i].reason or 'fwd(%d)'
                                 % verdicts[i].port):
            out.append('  %-45s oracle %-14s app %s  frame %s' % (
                inputs.labels[i], verdicts[i].kind, got,
                inputs.frames[i][:64].hex()))
    return out


def bisect_crash(app, work, inputs, pool, copybreak):
    """The run crashed or hung: halve the input until one packet alone
    still does it (assumes one culprit; about log2(n) runs)."""
    idx = list(range(len(inputs.frames)))
    while len(idx) > 1:
        half = idx[:len(idx) // 2]
        r = run_fwd(app, work, inputs, pool, copybreak, json_name='bisect',
                    frames=[inputs.frames[i] for i in half])
        if r.crashed or r.timed_out:
            idx = half
            continue
        rest = idx[len(idx) // 2:]
        r = run_fwd(app, work, inputs, pool, copybreak, json_name='bisect',
                    frames=[inputs.frames[i] for i in rest])
        if not (r.crashed or r.timed_out):
            return 'no single packet reproduces it (first half and second ' \
                'half of %d packets both pass)' % len(idx)
        idx = rest
    i = idx[0]
    r = run_fwd(app, work, inputs, pool, copybreak, json_name='bisect',
                frames=[inputs.frames[i]])
    return 'input %s alone: %s; frame (%d bytes) %s...' % (
        inputs.labels[i], r.describe(), len(inputs.frames[i]),
        inputs.frames[i][:80].hex())


def one_lookup(a, work, inputs, lookup, probs):
    """One run of the set with --lookup @lookup, checked against the
    oracle; its problems appended to @probs (each naming the lookup).
    Returns the run's result."""
    res = run_fwd(a.app, work, inputs, a.pool, a.copybreak,
                  queues=a.queues)
    run_probs, verdicts, check_src = check_run(res, inputs, a.pool,
                                               a.copybreak)
    if not re.search(r'^route lookup: %s ' % lookup, res.stdout, re.M):
        run_probs.append('no start-up line "route lookup: %s"' % lookup)
    if isinstance(res.json, dict) and res.json.get('lookup') != lookup:
        run_probs.append('JSON "lookup" is %r' % res.json.get('lookup'))
    drops, tx = expected_counts(verdicts)
    harness.log('npool-fwd --pool %s%s --lookup %s, set %s: %d frames in, '
                '%s; oracle: %d forwarded, tx per port %s, drops %s' % (
                    a.pool, ' --copybreak %d' % a.copybreak
                    if a.copybreak is not None else '', lookup, a.set,
                    len(inputs.frames), res.describe(),
                    sum(1 for v in verdicts if not v.reason),
                    [tx.get(p, 0) for p in range(NPORTS)],
                    dict(sorted(drops.items()))))
    if not check_src:
        harness.log('note: egress MACs not reported by the app; source '
                    'MACs checked for consistency only')
    if res.crashed or res.timed_out:
        run_probs.append('crash bisection: ' + bisect_crash(
            a.app, work, inputs, a.pool, a.copybreak))
    elif a.diagnose and run_probs and isinstance(res.json, dict):
        harness.log('diagnosis, one packet per run:')
        for line in diagnose_reasons(a.app, work, inputs, a.pool,
                                     a.copybreak, verdicts, res.json):
            harness.log(line)
    probs += ['--lookup %s: %s' % (lookup, p) for p in run_probs]
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--set', choices=('main', 'deftables', 'jumbo',
                                      'l3fwd-files', 'captures', 'fuzz'),
                    required=True)
    ap.add_argument('--captures')
    ap.add_argument('--pool', default='npool')
    ap.add_argument('--copybreak', type=int)
    ap.add_argument('--seed', type=int, default=1812, help='fuzz set seed')
    ap.add_argument('--queues', type=int, default=1,
                    help='RX/TX queues per port, one lcore each')
    ap.add_argument('--max-pkt-len', type=int,
                    help="l3fwd's option in place of the set's --mtu")
    ap.add_argument('--app-arg', action='append', default=[],
                    help='one more npool-fwd argument (repeat)')
    ap.add_argument('--lookups', default='lpm,fib',
                    help='run once per --lookup value (comma-separated); '
                    'all must give the same counters and output bytes')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--diagnose', action='store_true',
                    help='on a count mismatch, rerun packets one by one')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    if a.set == 'captures':
        harness.require_captures(a.captures)
        inputs = capture_inputs(a.captures)
        if not inputs.frames:
            harness.skip('no Ethernet pcap in %s' % a.captures)
    elif a.set == 'fuzz':
        inputs = fuzz_inputs(a.captures, seed=a.seed)
    else:
        inputs = edge_inputs(a.set)
    inputs.max_pkt_len = a.max_pkt_len
    inputs.extra_args += a.app_arg
    enabled = [p for p in range(NPORTS) if inputs.portmask >> p & 1]
    # what the ports' start lines must then say
    for arg in a.app_arg:
        m = re.match(r'--(rx|tx)-queue-size=(\d+)$', arg)
        if m:
            inputs.want_stdout += [r'^port %d: .*\b%s queue\(s\)[^,]* x %s '
                                   r'desc' % (p, m.group(1).upper(),
                                              m.group(2)) for p in enabled]
    if a.max_pkt_len:
        inputs.want_stdout += [r'^port %d: MTU %d \(frames up to %d B\)'
                               % (p, a.max_pkt_len - 18, a.max_pkt_len)
                               for p in enabled]
    for n in inputs.notes:
        harness.log('note: ' + n)
    lookups = a.lookups.split(',')
    base_args = list(inputs.extra_args)
    probs, runs = [], {}
    with harness.Workdir('fwd-%s-%s' % (a.set, a.pool), a.keep) as work:
        for lk in lookups:
            inputs.extra_args = base_args + ['--lookup', lk]
            runs[lk] = one_lookup(a, work, inputs, lk, probs)
        probs += compare_lookups(runs, lookups)
    if probs:
        harness.log('FAIL: %d problem(s)' % len(probs))
        for p in probs[:MAX_REPORTED]:
            harness.log('  - ' + p)
        if len(probs) > MAX_REPORTED:
            harness.log('  ... %d more' % (len(probs) - MAX_REPORTED))
        return 1
    harness.log('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
