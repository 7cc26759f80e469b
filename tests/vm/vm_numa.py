# SPDX-License-Identifier: BSD-3-Clause
"""make vm-test, device "numa": npool's per-socket design in a guest with
two NUMA nodes.

QEMU (the host's, i440fx): node 0 = CPU 0 and 1 GiB, node 1 = CPUs 1-2
and 1 GiB (-object memory-backend-ram x2, -numa node x2, -smp 3), the two
e1000e behind a PCI expander bridge on node 1 (-device pxb,numa_node=1:
its root bus 0x10 gets _PXM 1 in the DSDT, its pci-bridge's secondary bus
0x11 holds the NICs, so their sysfs numa_node and DPDK's
rte_eth_dev_socket_id() are 1).  The guest reserves 2 MiB hugepages on
both nodes and gives EAL memory on both (--socket-mem); npool-fwd runs
with -l 0-2: the main lcore 0 on node 0, ports 0 and 1 polled by lcores 1
and 2 on node 1.

Checked here: the guest's topology as sysfs shows it before DPDK starts
(facts_check), npool-fwd's per-socket --json (json_checks: each port's
socket, the RX pools', npool instances' and route tables' memseg sockets,
every instance empty at exit), and tests/vm/numa_probe.c run after it
(probe_check: an lcore on either node allocates fragments and packets from
its own node's memory; frees from the other node return them).  R is
vm_test's Report; the rest of the run (ping, TCP, taps) is vm_test's.
"""

import os
import re

NODES = {0: '0', 1: '1-2'}      # NUMA node -> guest CPUs
NODE_MEM_MB = 1024              # guest memory per node (-m 2048)
NODE_HUGEPAGES = 192            # 2 MiB pages reserved per node
SOCKET_MEM = '128,128'          # EAL --socket-mem, MiB per node
NIC_NODE = 1                    # the pxb's node: the NICs', the ports'
PXB_BUS_NR = 0x10               # the pxb's root bus; the NICs on the next
NIC_BUS = PXB_BUS_NR + 1        # (behind the pci-bridge pxb puts there)
PXB_SLOT = 9                    # of the pxb on pci.0
LCORES = '0-2'
CONFIG = '(0,0,1),(1,0,2)'      # port p on lcore p + 1: both on node 1
PROBE_N = 256                   # numa_probe.c PROBE_N: objects per lcore


def qemu_args():
    """QEMU options: the two nodes and the pxb on node 1 (the NICs then
    take nic_bus() in their -device)."""
    args = []
    for node, cpus in sorted(NODES.items()):
        args += ['-object', 'memory-backend-ram,id=m%d,size=%dM' % (
                     node, NODE_MEM_MB),
                 '-numa', 'node,nodeid=%d,cpus=%s,memdev=m%d' % (
                     node, cpus, node)]
    args += ['-device', 'pxb,id=pxb1,bus_nr=%d,numa_node=%d,bus=pci.0,'
             'addr=0x%x' % (PXB_BUS_NR, NIC_NODE, PXB_SLOT)]
    return args


def nic_bus():
    return 'bus=pxb1,'


def config_lines(probe):
    """The guest runner's config keys of this run (tests/vm/guest.sh)."""
    return ('NODE_HUGEPAGES="%s"\nSOCKET_MEM=%s\nPROBE=%s\n' % (
        ' '.join([str(NODE_HUGEPAGES)] * len(NODES)), SOCKET_MEM, probe))


def _span(cpus):
    lo, _, hi = cpus.partition('-')
    return set(range(int(lo), int(hi or lo) + 1))


def facts_check(R, run, pcis):
    """What the guest's sysfs said before binding (numa-facts): 2 nodes,
    their CPUs, hugepages on both, the NICs on node 1."""
    try:
        with open(os.path.join(run, 'numa-facts')) as f:
            lines = f.read().splitlines()
    except OSError:
        return R.check(False, 'numa: the guest wrote no numa-facts')
    R.info('\n'.join('| ' + ln for ln in lines))
    nodes, nics = {}, {}
    for ln in lines:
        m = re.match(r'node (\d+) cpus (\S+) hugepages (\d+)$', ln)
        if m:
            nodes[int(m.group(1))] = (m.group(2), int(m.group(3)))
        m = re.match(r'nic (\S+) numa_node (-?\d+)$', ln)
        if m:
            nics[m.group(1)] = int(m.group(2))
    ok = R.check(sorted(nodes) == sorted(NODES) and all(
        _span(nodes[n][0]) == _span(c) for n, c in NODES.items()),
        'numa: guest nodes %s (want %s)' % (
            ', '.join('%d: CPUs %s' % (n, nodes[n][0]) for n in sorted(nodes))
            or 'none', ', '.join('%d: CPUs %s' % kv
                                 for kv in sorted(NODES.items()))))
    ok &= R.check(len(nodes) == len(NODES) and all(
        hp == NODE_HUGEPAGES for _, hp in nodes.values()),
        'numa: 2 MiB hugepages per node %s (want %d on each)' % (
            ', '.join('%d: %d' % (n, nodes[n][1]) for n in sorted(nodes)),
            NODE_HUGEPAGES))
    ok &= R.check(sorted(nics) == sorted(pcis) and
                  all(v == NIC_NODE for v in nics.values()),
                  'numa: NICs %s on NUMA node %s (want %d: behind the pxb)' %
                  (', '.join(sorted(nics)) or 'none',
                   ', '.join(str(nics[p]) for p in sorted(nics)) or '-',
                   NIC_NODE))
    return ok


def _field(d, key, default=None):
    return d.get(key, default) if isinstance(d, dict) else default


def json_checks(R, js):
    """npool-fwd's per-socket --json keys: ports[].socket, numa.rx_pools,
    numa.npool (one instance per socket of an enabled lcore), numa.routes
    (one per socket of a forwarding lcore)."""
    ports = js.get('ports', [])
    socks = [_field(p, 'socket') for p in ports]
    ok = R.check(len(ports) == 2 and socks == [NIC_NODE] * 2,
                 'numa: ports[].socket (rte_eth_dev_socket_id) %s (want %d '
                 'each)' % (socks, NIC_NODE))
    numa = js.get('numa')
    if not R.check(isinstance(numa, dict) and numa.get('no_numa') is False,
                   'numa: --json "numa" object with no_numa false: %s' % (
                       'no_numa %r' % numa.get('no_numa')
                       if isinstance(numa, dict) else 'missing')):
        return False
    pools = numa.get('rx_pools') or []
    ok &= R.check(pools and all(
        _field(p, 'socket') == NIC_NODE == _field(p, 'memseg_socket')
        for p in pools),
        'numa: RX pools (socket / memseg socket) %s (want %d / %d)' % (
            ', '.join('%s %s/%s' % (_field(p, 'name'), _field(p, 'socket'),
                                    _field(p, 'memseg_socket'))
                      for p in pools) or 'none', NIC_NODE, NIC_NODE))
    inst = {_field(i, 'socket'): i for i in numa.get('npool') or []}
    R.info('npool instances: %s' % '; '.join(
        'socket %s: arena on %s, heads on %s, refills %s, pkt_allocs %s' % (
            s, _field(i, 'arena_memseg_socket'),
            _field(i, 'heads_memseg_socket'), _field(i, 'refills'),
            _field(i, 'pkt_allocs')) for s, i in sorted(inst.items())))
    ok &= R.check(sorted(inst) == sorted(NODES),
                  'numa: one npool instance per socket of an enabled lcore: '
                  'sockets %s (want %s)' % (sorted(inst), sorted(NODES)))
    mine = inst.get(NIC_NODE, {})
    # The forwarding lcores allocated from their socket's instance:
    # chunks carved (refills), or copy-break's tiny packets (pkt_allocs:
    # one direct mbuf each since issue 17, no chunk carved).
    used = (_field(mine, 'refills') or 0) + (_field(mine, 'pkt_allocs') or 0)
    ok &= R.check(_field(mine, 'arena_memseg_socket') == NIC_NODE and
                  _field(mine, 'heads_memseg_socket') == NIC_NODE and
                  used > 0,
                  'numa: socket-%d instance: arena on memseg socket %s, '
                  'heads on %s, %s refills + %s pkt_allocs (want %d, %d, '
                  '> 0: the forwarding lcores allocated there)' % (
                      NIC_NODE, _field(mine, 'arena_memseg_socket'),
                      _field(mine, 'heads_memseg_socket'),
                      _field(mine, 'refills'), _field(mine, 'pkt_allocs'),
                      NIC_NODE, NIC_NODE))
    out_keys = ('chunks_in_use', 'frags_out', 'heads_out')
    ok &= R.check(inst and all(_field(i, k) == 0 for i in inst.values()
                               for k in out_keys),
                  'numa: every instance empty at exit: %s' % '; '.join(
                      'socket %s %s' % (s, ' '.join(
                          '%s %s' % (k, _field(i, k)) for k in out_keys))
                      for s, i in sorted(inst.items())))
    routes = numa.get('routes') or []
    got = [(_field(r, 'socket'), _field(r, 'memseg_socket')) for r in routes]
    ok &= R.check(got == [(NIC_NODE, NIC_NODE)],
                  'numa: route tables (socket, memseg socket) %s (want '
                  '[(%d, %d)]: one per socket of a forwarding lcore)' % (
                      got, NIC_NODE, NIC_NODE))
    return ok


def _histo(text):
    """'0:256,1:3' -> {0: 256, 1: 3} ('none': no memseg)."""
    out = {}
    for part in text.split(','):
        k, _, v = part.partition(':')
        out[k if k == 'none' else int(k)] = int(v)
    return out


def probe_lines(text):
    """numa_probe's lcore and instance lines as dicts (key=value)."""
    lcores, insts = [], []
    for ln in text.splitlines():
        m = re.match(r'numa_probe: (lcore|instance) (.*)$', ln)
        if not m:
            continue
        kv = dict(f.split('=', 1) for f in m.group(2).split() if '=' in f)
        (lcores if m.group(1) == 'lcore' else insts).append(kv)
    return lcores, insts


def probe_check(R, run):
    """numa_probe's exit status and figures (its log in the run folder)."""
    try:
        with open(os.path.join(run, 'probe.log')) as f:
            text = f.read()
        with open(os.path.join(run, 'rc-probe')) as f:
            rc = f.read().strip()
    except OSError:
        return R.check(False, 'numa_probe: no log or exit status from the '
                       'guest')
    R.info('\n'.join('| ' + ln for ln in text.splitlines()
                     if ln.startswith('numa_probe')))
    ok = R.check(rc == '0', 'numa_probe exited with status %s' % rc)
    lcores, insts = probe_lines(text)
    want_sock = {c: n for n, cpus in NODES.items() for c in _span(cpus)}
    seen = set()
    for lc in lcores:
        try:
            lcore, sock = int(lc['lcore']), int(lc['socket'])
            histos = {k: _histo(lc[k]) for k in ('frag_memseg',
                                                  'head_memseg',
                                                  'data_memseg')}
            freer = int(lc['freed_by_socket'])
        except (KeyError, ValueError):
            ok &= R.check(False, 'numa_probe: bad lcore line %s' % lc)
            continue
        seen.add(sock)
        ok &= R.check(sock == want_sock.get(lcore) and
                      all(h == {sock: PROBE_N} for h in histos.values()) and
                      freer != sock,
                      'numa_probe: lcore %d on socket %d (want %s): %d frags, '
                      '%d pkts, memseg sockets of frags %s, pkt heads %s, pkt '
                      'data %s (want all %d); freed from socket %d' % (
                          lcore, sock, want_sock.get(lcore), PROBE_N, PROBE_N,
                          lc['frag_memseg'], lc['head_memseg'],
                          lc['data_memseg'], sock, freer))
    ok &= R.check(seen == set(NODES), 'numa_probe: lcores allocated on '
                  'sockets %s (want %s)' % (sorted(seen), sorted(NODES)))
    def held(i):
        """Its own lcores' objects were out of it after the allocations."""
        try:
            want = PROBE_N * int(i['lcores'])
            return (want > 0 and int(i['held_frags']) >= want and
                    int(i['held_heads']) >= want)
        except (KeyError, ValueError):
            return False
    ok &= R.check(insts and all(held(i) for i in insts),
                  'numa_probe: out of each instance after the allocations: '
                  '%s (want >= %d per lcore of its socket)' % ('; '.join(
                      'socket %s: %s lcores, %s frags, %s heads' % (
                          i.get('socket'), i.get('lcores'),
                          i.get('held_frags'), i.get('held_heads'))
                      for i in insts) or 'none', PROBE_N))
    keys = ('frags_out', 'heads_out', 'chunks_in_use', 'destroy')
    ok &= R.check(sorted(int(i.get('socket', -1)) for i in insts) ==
                  sorted(NODES) and
                  all(i.get(k) == '0' for i in insts for k in keys),
                  'numa_probe: instances after the cross-socket frees and the '
                  'drain: %s (want all 0)' % ('; '.join(
                      'socket %s %s' % (i.get('socket'), ' '.join(
                          '%s %s' % (k, i.get(k)) for k in keys))
                      for i in insts) or 'none'))
    return ok
