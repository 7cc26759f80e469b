#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""DPDK's own tools on the npool apps (root; hugepages are reserved for the
run and given back).

  dumpcap-fwd   dpdk-dumpcap attached to a running npool-fwd (--copybreak
                256) captures a known UDP flow from host A to host B on the
                egress port: each frame is the datagram A sent, with TTL 63,
                B's MAC, a valid header checksum, in sequence.
  dumpcap-drop  the same flow captured on npool-drop's RX port: the frames
                A sent, byte for byte from the IP header on.
  dumpcap-gen   npool-gen's frames captured on its TX port: exactly the
                frames of its contract (gen_test.udp_frame), in sequence.
  testpmd-ops   an unmodified dpdk-testpmd with EAL's
                -d librte_mempool_npool.so --mbuf-pool-ops-name npool: its
                mbuf pool is on the "npool" ops (the ops' store ring is in
                the memzone list), it forwards, and it exits 0.

dpdk-dumpcap is a secondary process: the app must run on hugepages with a
shared config (no --no-huge, no --no-shconf). The topology is netns.py's.

  dpdk_tools.py --build build --case dumpcap-fwd [--keep]
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import contextlib
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import gen_test  # noqa: E402
import harness  # noqa: E402
import hugepages  # noqa: E402
import netns  # noqa: E402
import oracle  # noqa: E402
import pcaplib  # noqa: E402
from apps_measure import Telemetry  # noqa: E402
from netns import ADDR  # noqa: E402

NS_TAG = 'npdt'
HUGEPAGES = 256          # 2 MiB pages: 512 MiB for one app and dumpcap
CAPTURE = 32             # frames dumpcap must capture
UDP_PORT = 9             # discard
PATTERN = b'npool-dumpcap %06d'


class Hugepages(hugepages.Hugepages):
    """At least n free 2 MiB pages and a hugetlbfs mount for the run (the
    shared tests/bench/hugepages.py); what was changed is put back on
    exit. Too few pages: the case is skipped."""

    def __enter__(self):
        got = self.reserve()
        if got < self.n:
            self.release()
            harness.skip('only %d free 2 MiB hugepages (want %d)'
                         % (got, self.n))
        return self


def eal(prefix, vdevs, lcores='0-1'):
    """Hugepage EAL arguments with a shared config (dumpcap attaches)."""
    args = ['-m', '256', '--no-pci', '--file-prefix', prefix, '-l', lcores]
    for v in vdevs:
        args += ['--vdev', v]
    return args


def dumpcap(topo, prefix, iface, out, log):
    """dpdk-dumpcap in the router namespace, CAPTURE UDP frames of iface."""
    p = netns.AppProcess(topo, 'r', [
        'dpdk-dumpcap', '--file-prefix', prefix, '-i', iface, '-c',
        str(CAPTURE), '-f', 'udp', '-P', '-w', out], log)
    p.start()
    return p


def send_until(topo, node, dst, proc, limit_s=30):
    """UDP datagrams PATTERN % seq from node to dst:UDP_PORT, 500 a second,
    until proc (dumpcap) exits. Returns how many were sent."""
    script = ('import socket,sys,time\n'
              's=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n'
              'i=0\n'
              'while True:\n'
              '    s.sendto(b"%s" %% i, ("%s", %d)); i+=1\n'
              '    sys.stdout.write("%%d\\n" %% i); sys.stdout.flush()\n'
              '    time.sleep(0.002)\n'
              % (PATTERN.decode(), dst, UDP_PORT))
    snd = subprocess.Popen(topo.cmd(node, [sys.executable, '-c', script]),
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + limit_s
    while proc.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    snd.kill()
    out, _ = snd.communicate()
    lines = out.split()
    return int(lines[-1]) if lines else 0


def mac(text):
    return bytes.fromhex(text.replace(':', ''))


def captured(path):
    """The records dumpcap wrote, or (None, why)."""
    try:
        return pcaplib.read(path).records, None
    except (OSError, pcaplib.PcapError) as e:
        return None, 'capture file: %s' % e


def flow_problems(path, ttl, dst_mac, src_mac):
    """The captured frames: CAPTURE IPv4/UDP datagrams A -> B with the
    payload PATTERN % seq, consecutive seq, the given TTL and MACs."""
    probs = []
    recs, why = captured(path)
    if recs is None:
        return [why]
    # -c stops dumpcap once it has written at least that many.
    if len(recs) < CAPTURE:
        probs.append('%d frames captured, want %d' % (len(recs), CAPTURE))
    seqs = []
    for i, r in enumerate(recs):
        d = r.data
        ip = d[14:34]
        if d[12:14] != b'\x08\x00' or len(d) < 42:
            probs.append('frame %d: not IPv4' % i)
            continue
        m = re.fullmatch(PATTERN.replace(b'%06d', rb'(\d{6})'), d[42:])
        why = []
        if d[0:6] != mac(dst_mac):
            why.append('dst MAC %s' % d[0:6].hex(':'))
        if d[6:12] != mac(src_mac):
            why.append('src MAC %s' % d[6:12].hex(':'))
        if ip[12:16] != bytes(map(int, ADDR['A4'].split('.'))) or \
                ip[16:20] != bytes(map(int, ADDR['B4'].split('.'))):
            why.append('addresses')
        if ip[8] != ttl:
            why.append('TTL %d, want %d' % (ip[8], ttl))
        if not oracle.ipv4_header_ok(ip):
            why.append('bad IPv4 header checksum')
        if m is None:
            why.append('payload %r' % d[42:60])
        else:
            seqs.append(int(m.group(1)))
        if why:
            probs.append('frame %d: %s' % (i, ', '.join(why)))
    if seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        probs.append('sequence numbers not consecutive: %s' % seqs)
    return probs


def app_problems(app, name):
    rc = app.wait(60)
    if rc != 0:
        return ['%s exited %r\n%s' % (name, rc, app.tail(8))]
    if 'leak check: OK' not in app.log():
        return ['%s: no clean leak check\n%s' % (name, app.tail(8))]
    return []


def with_topology(work, fn):
    netns.sweep_stale(NS_TAG)
    topo = netns.Topology('%s%d' % (NS_TAG, os.getpid()),
                          'dt%d' % os.getpid())
    try:
        topo.create()
        topo.configure_hosts()
        return fn(topo)
    finally:
        errs = topo.remove()
        if errs:
            harness.log('namespace removal: %s' % errs)


def capture_run(topo, work, name, app, vdevs, args, iface, send):
    """Start app (name) in the router namespace on hugepages, wait for its
    last port line, capture CAPTURE UDP frames of iface with dpdk-dumpcap
    while send(dumpcap) makes the traffic (None: the app makes it), then
    stop the app. Returns (problems, capture file)."""
    if harness.sanitized(app):
        # dpdk-dumpcap attaches as a secondary process, which must map
        # the primary's memory at the same address: an ASan primary's
        # layout (its shadow) left that address taken in the stock,
        # uninstrumented dumpcap in CI ("Cannot preallocate VA space"),
        # and a secondary retried after that hung. The plain build runs it.
        harness.skip('dpdk-dumpcap (uninstrumented secondary) does not '
                     'attach reliably to a sanitizer build of %s' % name)
    prefix = work.new_prefix()
    proc = netns.AppProcess(topo, 'r', [app] + eal(prefix, vdevs) + ['--']
                            + args, work.file(name + '.log'))
    proc.start()
    if not proc.wait_for('port %d:' % (len(vdevs) - 1), 60):
        return ['%s did not start:\n%s' % (name, proc.tail())], None
    cap = work.file(name + '.pcap')
    dc = dumpcap(topo, prefix, iface, cap, work.file('dumpcap.log'))
    if send is not None:
        harness.log('%s: %d datagrams sent' % (name, send(dc)))
    rc = dc.wait(40)
    proc.signal(signal.SIGINT)
    probs = app_problems(proc, name)
    if rc != 0:
        probs.append('dpdk-dumpcap exited %r\n%s' % (rc, dc.tail(8)))
    harness.log('dumpcap on %s: %s' % (name, dc.log().strip()
                                        .splitlines()[-1:]))
    return probs, cap


def af_packet(topo, *devs):
    return ['net_af_packet%d,iface=%s' % (i, topo.ifs[d])
            for i, d in enumerate(devs)]


def case_dumpcap_fwd(a, work):
    routes = work.file('routes4.cfg')
    with open(routes, 'w') as f:
        f.write('R%s 0\nR%s 1\n' % (ADDR['NET_A4'], ADDR['NET_B4']))

    def run(topo):
        m = topo.macs
        probs, cap = capture_run(
            topo, work, 'npool-fwd', a.fwd, af_packet(topo, 'r0', 'r1'),
            ['-p', '0x3', '--rule_ipv4', routes, '--copybreak', '256',
             '--eth-dest', '0,' + m['a'], '--eth-dest', '1,' + m['b']],
            'net_af_packet1', lambda dc: send_until(topo, 'a', ADDR['B4'],
                                                    dc))
        return probs + (flow_problems(cap, 63, m['b'], m['r1']) if cap
                        else [])
    return with_topology(work, run)


def case_dumpcap_drop(a, work):
    def run(topo):
        m = topo.macs
        probs, cap = capture_run(
            topo, work, 'npool-drop', a.drop, af_packet(topo, 'r0'),
            ['-p', '0x1'], 'net_af_packet0',
            lambda dc: send_until(topo, 'a', ADDR['B4'], dc))
        return probs + (flow_problems(cap, 64, m['r0'], m['a']) if cap
                        else [])
    return with_topology(work, run)


def case_dumpcap_gen(a, work):
    def run(topo):
        m = topo.macs
        probs, cap = capture_run(
            topo, work, 'npool-gen', a.gen, af_packet(topo, 'r0'),
            ['-p', '0x1', '--rate', '500', '--duration', '30',
             '--dst-mac', m['a']], 'net_af_packet0', None)
        if cap is None:
            return probs
        recs, why = captured(cap)
        if recs is None:
            return probs + [why]
        if len(recs) < CAPTURE:
            return probs + ['%d frames captured, want %d' % (len(recs),
                                                             CAPTURE)]
        seq0 = struct.unpack('!Q', recs[0].data[42:50])[0]
        for i, r in enumerate(recs):
            want = gen_test.udp_frame(60, seq0 + i, 0, 0, 0, mac(m['r0']),
                                      dst_mac=mac(m['a']))
            if r.data != want:
                probs.append('frame %d (seq %d) is not npool-gen\'s frame:'
                             ' %s\nwant %s' % (i, seq0 + i, r.data.hex(),
                                               want.hex()))
                break
        return probs
    return with_topology(work, run)


def safe_plugin_dir(build, work):
    """The build's plugin where EAL loads it (harness.plugin_copy()),
    the folder removed with work's extra_dirs."""
    d, plugin = harness.plugin_copy(build)
    work.extra_dirs.append(d)
    return plugin


@contextlib.contextmanager
def drop_in_plugin(build):
    """The build's plugin in a folder EAL accepts (safe_plugin_dir()),
    for a run of DPDK's own uninstrumented tools; removed after. A
    sanitizer build is skipped: its plugin needs the sanitizer runtime
    loaded first, which a stock tool does not have."""
    lib = os.path.join(build, 'librte_mempool_npool.so')
    if harness.sanitized(lib):
        harness.skip('a sanitizer build of the plugin cannot load into '
                     'uninstrumented DPDK tools')

    class Dirs:
        extra_dirs = []
    try:
        yield safe_plugin_dir(build, Dirs)
    finally:
        for d in Dirs.extra_dirs:
            shutil.rmtree(d, ignore_errors=True)


def case_testpmd_ops(a, work):
    lib = os.path.join(a.build, 'librte_mempool_npool.so')
    if not os.path.isfile(lib):
        return ['librte_mempool_npool.so not built in %s' % a.build]
    if harness.sanitized(lib):
        # The stock testpmd has no sanitizer runtime: an instrumented
        # plugin cannot run inside it (it hangs at load).
        harness.skip('a sanitizer build of the plugin cannot load into '
                     'the uninstrumented dpdk-testpmd')
    work.extra_dirs = []
    try:
        plugin = safe_plugin_dir(a.build, work)
        return testpmd_ops_problems(plugin, work)
    finally:
        for d in work.extra_dirs:
            shutil.rmtree(d, ignore_errors=True)


def testpmd_ops_problems(plugin, work):
    prefix = work.new_prefix()
    cmd = ['dpdk-testpmd', '--no-huge', '-m', '256', '--no-pci',
           '--file-prefix', prefix, '-l', '0-1', '-d', plugin,
           '--mbuf-pool-ops-name', 'npool', '--vdev', 'net_null0',
           '--vdev', 'net_null1', '--', '--forward-mode=io',
           '--nb-cores=1', '--stats-period', '1', '--total-num-mbufs=8192']
    app = netns.AppProcess(None, None, cmd, work.file('testpmd.log'))
    app.start()
    probs = []
    try:
        if not app.wait_for('Port statistics', 60):
            return ['testpmd did not forward:\n' + app.tail()]
        tel = Telemetry(os.path.join(harness.runtime_dirs(prefix)[0],
                                     'dpdk_telemetry.v2'))
        zones = tel.query('/eal/memzone_list') or []
        names = [tel.query('/eal/memzone_info,%d' % z).get('Name', '')
                 for z in zones]
        tel.close()
        if 'RG_NP_mb_pool_0' not in names:
            probs.append('no store ring RG_NP_mb_pool_0 of the "npool" ops '
                         'in the memzones: %s' % names)
    finally:
        app.signal(signal.SIGINT)
        rc = app.wait(60)
    log = app.log()
    if rc != 0:
        probs.append('testpmd exited %r\n%s' % (rc, app.tail(8)))
    if 'preferred mempool ops selected: npool' not in log:
        probs.append('testpmd did not select the "npool" ops')
    fwd = [int(x) for x in re.findall(r'TX-packets: (\d+)', log)]
    if not fwd or max(fwd) == 0:
        probs.append('testpmd forwarded nothing')
    else:
        harness.log('testpmd on the npool ops: %d packets sent, pool %s'
                    % (max(fwd), 'RG_NP_mb_pool_0'))
    return probs


CASES = {
    'dumpcap-fwd': case_dumpcap_fwd,
    'dumpcap-drop': case_dumpcap_drop,
    'dumpcap-gen': case_dumpcap_gen,
    'testpmd-ops': case_testpmd_ops,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True)
    a, names = harness.case_arguments(ap, CASES)
    if names is None:
        return 0
    a.fwd = os.path.join(a.build, 'apps', 'fwd', 'npool-fwd')
    a.drop = os.path.join(a.build, 'apps', 'drop', 'npool-drop')
    a.gen = os.path.join(a.build, 'apps', 'gen', 'npool-gen')
    for p, what in ((a.fwd, 'npool-fwd'), (a.drop, 'npool-drop'),
                    (a.gen, 'npool-gen')):
        harness.require_app(p, what)
    if os.geteuid() != 0:
        harness.skip('needs root (namespaces, hugepages)')
    for tool in ('dpdk-dumpcap', 'dpdk-testpmd', 'ip'):
        if not any(os.access(os.path.join(d, tool), os.X_OK)
                   for d in os.environ.get('PATH', '').split(':')):
            harness.log('FAIL: %s not found (Debian package dpdk)' % tool)
            return 1
    with Hugepages(HUGEPAGES, exclusive=True):
        return harness.run_cases(names, 'tools',
                                 lambda n, work: CASES[n](a, work), a.keep)


if __name__ == '__main__':
    sys.exit(main())
