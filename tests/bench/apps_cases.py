# SPDX-License-Identifier: BSD-3-Clause
"""The cases of the app benchmarks (apps_bench.py): which tools run, with
which EAL memory, lcores, devices and options, and the targets each case
is checked against.

Memory: every tool of a case gets the same EAL memory, 2 MiB hugepages
(--huge-dir DIR --in-memory: no hugepage file outlives the process) or
--no-huge (4 KiB anonymous pages), -m and --no-pci alike.

Lcores (the machine has 2 cores; DPDK lcore N is a thread, cpu M a core):
  1 forwarding lcore  npool apps and testpmd -l 0-1: the main lcore on
      cpu 0 (npool: stats only, asleep; testpmd: waits on stdin), the
      forwarding lcore 1 on cpu 1. l3fwd -l 1: its only lcore forwards
      (l3fwd forwards on its main lcore too), on cpu 1.
  2 forwarding lcores  npool apps and testpmd --lcores 0@0,1@0,2@1: the
      sleeping main lcore 0 shares cpu 0 with forwarding lcore 1, lcore 2
      on cpu 1. l3fwd -l 0-1: lcores 0 and 1 both forward (with a third
      lcore its main one would return at once and spin in
      rte_eal_wait_lcore on a core a forwarder needs). So every tool has
      two busy threads on two cores; what differs is only a main thread
      that sleeps.
  The two-lcore cases give every port 2 RX queues in both rows (one
  lcore polls both, or one each), so the ratio 2-lcore/1-lcore measures
  the lcores and nothing else.
"""

import os
import sys

from apps_frames import (FRAME_SETS, write_em6_rules,  # noqa: F401
                         write_em_rules, write_pcap_other_mac)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'integration', 'lib'))
import fpm_client  # noqa: E402

# Pool size of every tool, as npool's apps and l3fwd size theirs (8192):
# testpmd would make one of ~160k mbufs, which a cache-0 FIFO ring walks
# cold.
NB_MBUFS = 8192
SWEEP_SIZES = [64, 128, 256, 512, 1024, 1514]
TARGET = 1.2        # npool-drop against testpmd rxonly
FWD_TARGET = 1.0    # npool-fwd against l3fwd, every lookup
CB_TARGET = 0.9     # --copybreak 256 against --copybreak 0
LC_TARGET = 1.9     # 2 forwarding lcores against 1, npool's apps
# Forwarded Mpps during a TTL-1 flood with ICMP errors on, against the
# same flood dropped silently.
FLOOD_TARGET = 0.95
# Linux's icmp_msgs_per_sec and icmp_msgs_burst, npool-fwd's defaults.
ICMP_PER_S, ICMP_BURST = 1000, 50

# The table's "seed" column: where a row's target comes from, a seed of
# DESIGN.md ("The kernel design being replicated") or an issue.
SEED_DROP = '5 drop 8.9->9.8Mpps'
SEED_NETDEV = '1 netdev vs napi'
SEED_FWD = '3,4 build_skb+copybreak'
SEED_SWEEP = '(plot)'
SEED_LC = 'issue 11 two lcores'
SEED_FIB = 'issue 11 fib'
SEED_EM = 'issue 20 em'
SEED_FLOOD = 'issue 20 TTL-1 flood'
SEED_FRAMES = 'issue 27 frame sets'
SEED_NEIGH = 'issue 34 next hops'
SEED_OTHER = 'issue 36 other MACs'
# A next hop resolved by ARP (a neighbour's object) against a port's own
# (l3fwd's): the same pass.
NEIGH_TARGET = 0.98
# Forwarding while FPM changes 10000 routes a second, against none.
CHURN_TARGET = 0.95
CHURN_RATE = 10000
# npool-fwd's FPM port in the benches (one process at a time).
FPM_PORT = 20000 + os.getpid() % 20000


class ChurnSidecar:
    """Host routes changed at CHURN_RATE a second over FPM beside a
    measured npool-fwd (fpm_client.Churn in /24s of 10.0/16 that no
    frame goes to, on the interface "lo", port 1 with --fpm-if)."""

    def __init__(self, port=FPM_PORT, rate=CHURN_RATE):
        self.port = port
        self.rate = rate
        self.client = None
        self.churn = None

    def start(self):
        self.client = fpm_client.FpmClient(port=self.port).connect(20)
        self.churn = fpm_client.Churn(self.client, lambda x: '10.0.%d' % x,
                                      100, 51)
        self.churn.start(self.rate)

    def stop(self):
        if self.churn is not None:
            self.churn.stop()
            self.churn = None
        if self.client is not None:
            self.client.close()
            self.client = None

MEM_LABEL = {'huge': 'hugepages', 'nohuge': 'no-huge'}


def eal(mem, huge_dir):
    if mem == 'huge':
        return ['--huge-dir', huge_dir, '-m', '512', '--no-pci',
                '--in-memory']
    return ['--no-huge', '-m', '1024', '--no-pci', '--no-shconf']


class Variant:
    def __init__(self, label, tool, run, lcores=1, check=None,
                 sidecar=None):
        self.label = label
        self.tool = tool
        self.run = run          # () -> (cmd builder, counters, stop)
        # () -> an object with start() and stop() that runs beside the
        # tool while it is measured (fpm_churn.Churn), or None
        self.sidecar = sidecar
        self.lcores = lcores
        self.mpps = []          # per round, None when it failed
        self.errors = []
        # (counter deltas, seconds) -> (passed, text): a check of a
        # round beside its Mpps, printed with the table (apps_bench.py)
        self.check = check
        self.checks = []        # per round, (passed, text)


class Derived:
    """A row computed from the variants of a case, per round:
    v[num] / v[den], divided by v[num2] / v[den2] when given (a ratio of
    ratios: "scales at least as well as the anchor"). target: the least
    value that passes, or None."""

    def __init__(self, label, num, den, target=None, num2=None, den2=None):
        self.label = label
        self.num, self.den, self.num2, self.den2 = num, den, num2, den2
        self.target = target

    def involves(self):
        return [i for i in (self.num, self.den, self.num2, self.den2)
                if i is not None]


class Case:
    def __init__(self, bench, name, seed, variants, anchor, targets=None,
                 size=None, plot=None, mem='huge', derived=None):
        self.bench = bench
        self.base = name
        self.mem = mem
        self.name = name + (' nohuge' if mem == 'nohuge' else '')
        self.seed = seed
        self.variants = variants
        self.anchor = anchor        # index in variants
        self.targets = targets or {}  # variant index -> least ratio
        self.size = size            # frame size for the plot, or None
        self.plot = plot            # 'drop' | 'fwd' | None
        self.derived = derived or []


# ------------------------------------------------------- command lines

def _cfg(ports, nq, nl, first):
    """--config: queue q of each port on lcore first + q % nl."""
    return ','.join('(%d,%d,%d)' % (p, q, first + q % nl)
                    for p in ports for q in range(nq))


def _npool_lcores(nl):
    return ['-l', '0-1'] if nl == 1 else ['--lcores', '0@0,1@0,2@1']


class Builders:
    """Command lines of the tools for one memory mode."""

    def __init__(self, tools, mem, huge_dir):
        self.tools = tools
        self.eal = eal(mem, huge_dir)

    def drop(self, vdev, pool, mbcache=None, nq=1, nl=1):
        def build(prefix):
            c = [self.tools.bin['npool-drop']] + _npool_lcores(nl) + \
                self.eal + ['--file-prefix', prefix, '--vdev', vdev, '--',
                            '-p', '0x1', '--pool', pool]
            if nq > 1 or nl > 1:
                c += ['--config', _cfg([0], nq, nl, 1)]
            if mbcache is not None:
                c += ['--mbcache', str(mbcache)]
            return c
        return build, [(0, 'ipackets')], 'sigint'

    def testpmd(self, vdev, mbcache=None, nq=1, nl=1):
        def build(prefix):
            c = [self.tools.bin['testpmd']] + _npool_lcores(nl) + \
                self.eal + ['--file-prefix', prefix, '--vdev', vdev, '--',
                            '--forward-mode=rxonly', '--nb-cores=%d' % nl,
                            '--rxq=%d' % nq, '--txq=%d' % nq,
                            '--disable-link-check',
                            '--total-num-mbufs=%d' % NB_MBUFS]
            if mbcache is not None:
                c.append('--mbcache=%d' % mbcache)
            return c
        return build, [(0, 'ipackets')], 'stdin'

    FWD_COUNTERS = [(1, 'opackets'), (0, 'ipackets')]

    @staticmethod
    def fwd_vdevs(pcap, nq):
        return ['--vdev', 'net_pcap0,%sinfinite_rx=1' % (
            'rx_pcap=%s,' % pcap * nq), '--vdev', 'net_null1,no-rx=1']

    def fwd(self, pcap, pool, copybreak, lookup=None, nq=1, nl=1,
            extra=(), counters=None):
        def build(prefix):
            c = [self.tools.bin['npool-fwd']] + _npool_lcores(nl) + \
                self.eal + ['--file-prefix', prefix] + \
                self.fwd_vdevs(pcap, nq) + [
                    '--', '-p', '0x3', '--config', _cfg([0, 1], nq, nl, 1),
                    '--pool', pool, '--copybreak', str(copybreak)]
            if lookup:
                c += ['--lookup', lookup]
            return c + list(extra)
        return build, counters or self.FWD_COUNTERS, 'sigint'

    def l3fwd(self, pcap, lookup='lpm', nq=1, nl=1, extra=()):
        # l3fwd forwards on every lcore it is given and sets up one TX
        # queue per lcore: with one, its only lcore is core 1.
        first = 1 if nl == 1 else 0
        lc = ['-l', '1'] if nl == 1 else ['-l', '0-1']

        def build(prefix):
            return [self.tools.bin['l3fwd']] + lc + self.eal + [
                '--file-prefix', prefix] + self.fwd_vdevs(pcap, nq) + [
                '--', '-p', '0x3', '--config=' + _cfg([0, 1], nq, nl, first),
                '--lookup=' + lookup, '--parse-ptype'] + list(extra)
        return build, self.FWD_COUNTERS, 'sigint'

    # The flood rows: forwarded (port 1 out) first, then the ICMP errors
    # (port 0 out): "RX sent" is not checked, half of RX is the flood.
    FLOOD_COUNTERS = [(1, 'opackets'), (0, 'opackets')]


# --------------------------------------------------------------- cases

def make_cases(tools, pcaps, quick, only, mems, huge_dir):
    """The cases, for each memory mode of @mems ('huge', 'nohuge'); the
    first mode gets every case, the others the cases with a target."""
    cases = []
    for k, mem in enumerate(mems):
        cases += _cases(Builders(tools, mem, huge_dir), pcaps, quick, only,
                        mem, targets_only=k > 0)
    return cases


def _cases(b, pcaps, quick, only, mem, targets_only):
    cases = []

    def add(case):
        if not targets_only or case.targets or \
                any(d.target for d in case.derived):
            cases.append(case)

    def drop_case(name, vdev, seed, cache0=False, size=None, plot=None,
                  target=False):
        mc = 0 if cache0 else None
        vs = [Variant('npool-drop npool', 'npool-drop',
                      lambda: b.drop(vdev, 'npool')),
              Variant('npool-drop mempool' + (' c0' if cache0 else ''),
                      'npool-drop', lambda: b.drop(vdev, 'mempool', mc)),
              Variant('testpmd rxonly' + (' c0' if cache0 else ''),
                      'testpmd', lambda: b.testpmd(vdev, mc))]
        add(Case('drop', name, seed, vs, 2,
                 {0: TARGET, 1: 1.0} if target else None, size, plot, mem))

    def fwd_case(name, pcap, seed, cb=(0, 256), size=None, plot=None,
                 target=False):
        vs = []
        for pool in ('npool', 'mempool'):
            for c in cb:
                vs.append(Variant('npool-fwd %s cb%d' % (pool, c),
                                  'npool-fwd',
                                  (lambda p=pool, c=c: b.fwd(pcap, p, c))))
        vs.append(Variant('l3fwd-lpm', 'l3fwd', lambda: b.l3fwd(pcap)))
        der = []
        if target and len(cb) > 1:
            # Copy-break nearly free: cb256 / cb0 of the same pool.
            der = [Derived('npool cb256 / cb0', 1, 0, CB_TARGET),
                   Derived('mempool cb256 / cb0', 3, 2)]
        add(Case('fwd', name, seed, vs, len(vs) - 1,
                 {0: FWD_TARGET} if target else None, size, plot, mem, der))

    def fib_case(name, pcap):
        vs = [Variant('npool-fwd fib cb0', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, 'fib')),
              Variant('l3fwd-fib', 'l3fwd',
                      lambda: b.l3fwd(pcap, 'fib'))]
        add(Case('fwd', name, SEED_FIB, vs, 1, {0: FWD_TARGET}, mem=mem))

    def em_case(name, pcap):
        # The same route files for both: the bench frames' 5-tuples.
        rules = ['--rule_ipv4=%s' % pcaps['em4'],
                 '--rule_ipv6=%s' % pcaps['em6']]
        vs = [Variant('npool-fwd em cb0', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, 'em', extra=rules)),
              Variant('l3fwd-em', 'l3fwd',
                      lambda: b.l3fwd(pcap, 'em', extra=rules))]
        add(Case('fwd', name, SEED_EM, vs, 1, {0: FWD_TARGET}, mem=mem))

    def neigh_case(name, pcap):
        """Port 1's next hop a gateway's neighbour (a permanent one, so
        that it is resolved from the start) against its own (l3fwd's):
        the router's address ends in .0, which no frame's source does
        (the pass leaves those to the slow path)."""
        gw = ['--port-addr', '1,198.18.201.0/23', '--rule_ipv4',
              pcaps['gw4'], '--neigh', '1,198.18.200.2,02:00:00:00:00:01']
        vs = [Variant('npool-fwd port next hop', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0)),
              Variant('npool-fwd neighbour next hop', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, extra=gw))]
        add(Case('fwd', name, SEED_NEIGH, vs, 0, {1: NEIGH_TARGET},
                 mem=mem))

    def churn_case(name, pcap):
        """The same npool-fwd listening for FPM, without and with routes
        changing (ChurnSidecar): the control thread on the main lcore's
        CPU, the lcores reporting quiescent states."""
        fpm = ['--fpm', '127.0.0.1:%d' % FPM_PORT, '--fpm-if', '1,lo']
        vs = [Variant('npool-fwd fpm', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, extra=fpm)),
              Variant('npool-fwd fpm %d routes/s' % CHURN_RATE, 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, extra=fpm),
                      sidecar=ChurnSidecar)]
        add(Case('fwd', name, SEED_NEIGH, vs, 0, {1: CHURN_TARGET},
                 mem=mem))

    def otherhost_case(name, pcap):
        """Frames to another station's MAC, npool-fwd with
        --forward-otherhost (on its one pass) against l3fwd (which checks
        no MAC)."""
        vs = [Variant('npool-fwd --forward-otherhost', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0,
                                    extra=['--forward-otherhost'])),
              Variant('l3fwd-lpm', 'l3fwd', lambda: b.l3fwd(pcap))]
        add(Case('fwd', name, SEED_OTHER, vs, 1, {0: FWD_TARGET}, mem=mem))

    def icmp_check(d, secs):
        """ICMP errors sent within --icmp-msgs-per-sec (and its burst)."""
        rate = d[(0, 'opackets')] / secs
        most = ICMP_PER_S + ICMP_BURST / secs
        return rate <= most, 'ICMP errors %.0f/s, at most %.0f/s' % (
            rate, most)

    def flood_case(name, pcap):
        """Every other frame TTL 1: forwarded Mpps with the router's
        addresses (time exceeded sent, rate-limited) against without
        (dropped silently, as l3fwd drops them). The addresses are outside
        the frames' /24s, so that both variants look up the same routes:
        a router address in the destination's /24 is a /32 route there,
        and every lookup of that /24 takes rte_lpm's tbl8 step (+36
        instructions a forwarded packet in this row, callgrind), a cost
        of the table, not of the errors."""
        addrs = ['--port-addr', '0,198.18.100.1/24',
                 '--port-addr', '1,198.18.101.1/24',
                 # l3fwd's next hops (no ARP towards net_null): the
                 # MACs the default gives without --port-addr
                 '--eth-dest', '0,02:00:00:00:00:00',
                 '--eth-dest', '1,02:00:00:00:00:01']
        cnt = b.FLOOD_COUNTERS
        vs = [Variant('npool-fwd icmp on', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, extra=addrs,
                                    counters=cnt), check=icmp_check),
              Variant('npool-fwd icmp off', 'npool-fwd',
                      lambda: b.fwd(pcap, 'npool', 0, counters=cnt))]
        add(Case('fwd', name, SEED_FLOOD, vs, 1, {0: FLOOD_TARGET},
                 mem=mem))

    def lcores_case(kind, name, make):
        """Per tool 1 and 2 lcores on 2 queues a port; the anchor is the
        DPDK tool's 2-lcore run (the last variant)."""
        vs, der = [], []
        for label, tool, run in make:
            for nl in (1, 2):
                vs.append(Variant('%s %dlc' % (label, nl), tool,
                                  (lambda r=run, n=nl: r(n)), nl))
        anc = len(vs) - 1
        anc_short = make[-1][0].split()[0]
        for i, (label, tool, _) in enumerate(make):
            short = label.split()[-1] if tool.startswith('npool') \
                else label.split()[0]
            npool = tool.startswith('npool')
            der.append(Derived('%s 2lc/1lc' % short, 2 * i + 1, 2 * i,
                               LC_TARGET if npool else None))
            if npool:
                der.append(Derived('%s 2lc/1lc / %s\'s' % (
                    short, anc_short), 2 * i + 1, 2 * i, 1.0, anc,
                    anc - 1))
        add(Case(kind, name, SEED_LC, vs, anc, mem=mem, derived=der))

    pc = lambda s: 'net_pcap0,rx_pcap=%s,infinite_rx=1' % pcaps[s]
    null64 = 'net_null0,size=64'
    if 'drop' in only:
        drop_case('net_null 64B', null64, SEED_DROP, target=True)
        drop_case('net_null 1514B', 'net_null0,size=1514', SEED_DROP)
        drop_case('pcap 64B', pc(64), SEED_DROP, size=64, plot='drop')
        drop_case('pcap 1514B', pc(1514), SEED_DROP, size=1514,
                  plot='drop')
        drop_case('net_null 64B cache0', null64, SEED_NETDEV, cache0=True)
        if not quick:
            drop_case('pcap 64B cache0', pc(64), SEED_NETDEV, cache0=True)
        lcores_case('drop', 'net_null 64B 2q', [
            ('npool-drop npool', 'npool-drop',
             lambda nl: b.drop(null64, 'npool', nq=2, nl=nl)),
            ('npool-drop mempool', 'npool-drop',
             lambda nl: b.drop(null64, 'mempool', nq=2, nl=nl)),
            ('testpmd rxonly', 'testpmd',
             lambda nl: b.testpmd(null64, nq=2, nl=nl))])
    if 'fwd' in only:
        # The three frame sets of the fwd rows (apps_frames.FRAME_SETS).
        fwd_case('pcap->null 64B', pcaps[64], SEED_FWD, size=64,
                 plot='fwd', target=True)
        fwd_case('pcap->null rand60', pcaps['rand60'], SEED_FRAMES,
                 target=True)
        fwd_case('pcap->null ack60 padded', pcaps['ack60'], SEED_FRAMES,
                 target=True)
        fwd_case('pcap->null IMIX', pcaps['imix'], SEED_FWD, target=True)
        fib_case('pcap->null 64B fib', pcaps[64])
        em_case('pcap->null 64B em', pcaps[64])
        flood_case('pcap->null 64B TTL-1 1:1', pcaps['ttl1'])
        otherhost_case('pcap->null 64B other MAC', pcaps['oh64'])
        neigh_case('pcap->null 64B neighbour', pcaps[64])
        churn_case('pcap->null 64B routes changing', pcaps[64])
        p64 = pcaps[64]
        lcores_case('fwd', 'pcap->null 64B 2q', [
            ('npool-fwd npool', 'npool-fwd',
             lambda nl: b.fwd(p64, 'npool', 0, nq=2, nl=nl)),
            ('npool-fwd mempool', 'npool-fwd',
             lambda nl: b.fwd(p64, 'mempool', 0, nq=2, nl=nl)),
            ('l3fwd-lpm', 'l3fwd', lambda nl: b.l3fwd(p64, nq=2, nl=nl))])
    if not quick and not targets_only:
        for s in SWEEP_SIZES:
            if 'drop' in only and s not in (64, 1514):
                drop_case('pcap %dB' % s, pc(s), SEED_SWEEP, size=s,
                          plot='drop')
            if 'fwd' in only and s != 64:
                fwd_case('pcap->null %dB' % s, pcaps[s], SEED_SWEEP,
                         cb=(0,), size=s, plot='fwd')
    return cases


def pcap_files(pdir, write_pcap, imix_sizes):
    os.makedirs(pdir, exist_ok=True)
    pcaps = {s: write_pcap(os.path.join(pdir, 'udp%d.pcap' % s), [s])
             for s in SWEEP_SIZES}
    pcaps['imix'] = write_pcap(os.path.join(pdir, 'imix.pcap'),
                               imix_sizes(), 12 * 24)
    pcaps['ttl1'] = write_pcap(os.path.join(pdir, 'ttl1.pcap'), [64],
                               ttl1_every=2)
    pcaps['oh64'] = write_pcap_other_mac(os.path.join(pdir,
                                                      'udp64_other.pcap'))
    pcaps['gw4'] = os.path.join(pdir, 'gw4.cfg')
    with open(pcaps['gw4'], 'w') as f:
        f.write('R198.18.1.0/24 via 198.18.200.2\n')
    pcaps['em4'] = write_em_rules(os.path.join(pdir, 'em4.cfg'))
    pcaps['em6'] = write_em6_rules(os.path.join(pdir, 'em6.cfg'))
    for fs in ('rand60', 'ack60'):
        pcaps[fs] = FRAME_SETS[fs][1](pdir)
    return pcaps
