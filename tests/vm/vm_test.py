# SPDX-License-Identifier: BSD-3-Clause
"""make vm-test: npool-fwd on DPDK's real e1000 PMDs inside a QEMU guest.

  host A (netns npvm-a)                QEMU guest (TCG)                 host B (netns npvm-b)
  tap npvm-a0 198.18.1.2/24  <->  NIC 0 00:04.0 [npool-fwd] NIC 1 00:05.0  <->  tap npvm-b0 198.18.2.2/24
              2001:2:0:1::2/64   e1000e, e1000 or igb, uio_pci_generic       2001:2:0:2::2/64
                                          (igb: NIC 1 at 00:08.0)

For each device model (-device e1000e: 82574L 8086:10d3, -device e1000:
82540EM 8086:100e, both on net_e1000_em; -device igb: 82576 8086:10c9 on
net_e1000_igb, QEMU 10 from Debian 13: vm_qemu.py) the guest boots a Debian
kernel with a busybox initramfs (vm_image.py), mounts the host's root
read-only over 9p, binds both NICs to uio_pci_generic with dpdk-devbind.py
and runs the host's npool-fwd on them (tests/vm/guest.sh) once per pool mode
(--pool npool, then --pool mempool; --copybreak 256 in both).  From the host
namespaces: ping A->B over IPv4 and IPv6 (0% loss, TTL/hop limit 63: one
router hop), TCP A->B and B->A over IPv4 and IPv6 (byte count and SHA-256
compared), then npool-fwd is stopped with SIGINT and its exit status, --json
counters and leak block are read back from the guest's writable 9p share;
the packets it sent out of each port must equal the frames the host tap on
that link received.

igb also: first a control, the guest kernel's own igb driver routing A <->
B while A pings B; then each port is polled on 2 RX queues by lcores 1 and
2 (--config "(0,0,1),(0,1,2),(1,0,1),(1,1,2)", -l 0-2, 3 guest CPUs) with
RSS over them (its start-up line, RETA read back, --json rss and rx_queues
checked), and after the TCP transfers 64 UDP and 64 TCP flows from each
host over IPv4 and IPv6, paced, with the per-queue rx of each phase read
over telemetry and the UDP phase's equal to the Toeplitz prediction
(vm_rss.py); nothing may be lost on the way (taps, NIC, npool-fwd).

numa: e1000e again, in a guest with two NUMA nodes (CPU 0 on node 0, CPUs
1-2 on node 1, hugepages and EAL memory on both) and both NICs behind a
PCI expander bridge on node 1 (guest bus 0x11); -l 0-2, port p polled by
lcore p + 1 (node 1).  Also checked: the topology sysfs shows, each port's
socket and the per-socket --json block (RX pools, npool instances and
route tables on node 1's memory, every instance empty at exit), and
tests/vm/numa_probe.c run after npool-fwd (vm_numa.py).

Usage: vm_test.py BUILD_DIR      (root; scripts/vm-test.sh calls it)
Environment: NPVM_DEVICES (default "e1000e e1000 igb numa"), NPVM_POOLS
(default "npool mempool"), NPVM_BYTES (TCP bytes per transfer, default 2 MiB),
NPVM_ACCEL (tcg (default) or kvm: in a nested VM such as the reference
machine the guest kernel hangs under kvm right after "Probing EDD"),
NPVM_SMP (guest CPUs, default 2, igb and numa 3), NPVM_QEMU_<MODEL> and
NPVM_LTS_CACHE (which QEMU: vm_qemu.py).
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration', 'lib'))

import harness  # noqa: E402
import kfeatures  # noqa: E402
import netns  # noqa: E402
from netns import ADDR  # noqa: E402
import vm_image  # noqa: E402
import vm_checks  # noqa: E402
import vm_numa  # noqa: E402
import vm_qemu  # noqa: E402
import vm_rss  # noqa: E402
import vm_traffic  # noqa: E402

COPYBREAK = 256
HUGEPAGES = 256                 # 2 MiB pages in the guest (of -m 2048)
GUEST_MAX_SECONDS = 480         # npool-fwd --duration: a stuck host can't hang it
BOOT_TIMEOUT = 300              # QEMU start to NICs bound, s
FWD_TIMEOUT = 300               # npool-fwd start to first ping through, s
STOP_TIMEOUT = 90               # stop file to npool-fwd's exit status, s

# Hosts A and B of netns.py (namespaces npvm-a, npvm-b); their interfaces
# npvm-a0 and npvm-b0 are QEMU's taps here, each wired to one guest NIC.
TOPO = netns.Topology('npvm', 'npvm')
NODES = ('a', 'b')              # port 0 faces A, port 1 faces B
NIC_MAC = {'a': '52:54:00:6e:76:00', 'b': '52:54:00:6e:76:01'}
TAP_MAC = {'a': '02:6e:76:00:00:0a', 'b': '02:6e:76:00:00:0b'}
GW = {'a': ADDR['GW_A4'], 'b': ADDR['GW_B4']}


class Device:
    """A run of make vm-test (NPVM_DEVICES names it): the QEMU NIC model
    and how npool-fwd runs on it: DPDK PMD, PCI ID, guest PCI slots of
    NICs a and b, RX queues per port with the lcores and --config polling
    them, guest CPUs, the kernel driver control, two NUMA nodes with the
    NICs on node 1 (vm_numa.py) or not, and whether npool-fwd must take
    IPv4 checksums from the PMD (QEMU's model checks them)."""

    def __init__(self, name, model, pmd, pci_id, slots, nq=1, lcores='0-1',
                 config='', smp=2, kdriver=None, numa=False, cksum_pmd=False):
        self.cksum_pmd = cksum_pmd
        self.name, self.model, self.pmd, self.pci_id = name, model, pmd, pci_id
        self.slots = dict(zip(NODES, slots))
        self.nq, self.lcores, self.config = nq, lcores, config
        self.smp, self.kdriver, self.numa = smp, kdriver, numa
        self.bus = vm_numa.NIC_BUS if numa else 0


DEVICES = {d.name: d for d in (
    Device('e1000e', 'e1000e', 'net_e1000_em', '8086:10d3', (4, 5)),
    Device('e1000', 'e1000', 'net_e1000_em', '8086:100e', (4, 5)),
    # Each port on 2 RX queues (RSS), queue q of both ports on lcore q + 1,
    # lcore 0 the idle main one: 3 guest CPUs.  The second NIC in slot 8:
    # igb's 8 VFs sit at devfn PF + 0x80, stride 2 (slots 20-21 for a PF
    # in slot 4), and those of a PF in slot 5 would collide (21-22).
    # igb's PMD marks each packet GOOD or BAD: npool-fwd takes its word
    # (cksum_pmd). em's marks only BAD, so e1000 and e1000e sum.
    Device('igb', 'igb', 'net_e1000_igb', '8086:10c9', (4, 8), nq=2,
           lcores='0-2', config='(0,0,1),(0,1,2),(1,0,1),(1,1,2)', smp=3,
           kdriver='igb', cksum_pmd=True),
    # Two NUMA nodes, both e1000e behind a pxb on node 1, polled by lcores
    # 1 and 2 of node 1, lcore 0 the main one on node 0.
    Device('numa', 'e1000e', 'net_e1000_em', '8086:10d3', (4, 5),
           lcores=vm_numa.LCORES, config=vm_numa.CONFIG, smp=3, numa=True),
)}

if sys.stdout.isatty():
    BOLD, GREEN, RED, OFF = '\033[1m', '\033[32m', '\033[31m', '\033[0m'
else:
    BOLD = GREEN = RED = OFF = ''


class Stop(Exception):
    """A step failed in a way that makes the rest of the run pointless."""


class Report:
    def __init__(self):
        self.step_no = 0
        self.results = []

    def step(self, msg):
        self.step_no += 1
        print('\n%s==> [%d] %s%s' % (BOLD, self.step_no, msg, OFF), flush=True)

    @staticmethod
    def info(msg):
        for line in str(msg).splitlines() or ['']:
            print('    %s' % line, flush=True)

    def check(self, ok, msg):
        self.results.append((bool(ok), msg))
        print('    %s %s' % ('%sPASS%s' % (GREEN, OFF) if ok else
                             '%sFAIL%s' % (RED, OFF), msg), flush=True)
        return bool(ok)

    @property
    def failed(self):
        return not self.results or not all(ok for ok, _ in self.results)


R = Report()


def kill_wait(proc, grace=5):
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_for(what, pred, timeout, alive=None, poll=0.5):
    """pred() true within timeout s (and alive() meanwhile), else Stop."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        if alive is not None and not alive():
            if pred():
                return
            raise Stop('%s: the guest went away' % what)
        time.sleep(poll)
    raise Stop('%s: not within %d s' % (what, timeout))


def tap_counters():
    """Per host tap: frames it received (what the guest NIC on it sent),
    frames it dropped on the way to the guest (tx: QEMU did not read them
    in time) and from it (rx)."""
    st = [TOPO.link_stats(n) for n in NODES]
    return {'rx': [s['rx']['packets'] for s in st],
            'tx_dropped': [s['tx']['dropped'] for s in st],
            'rx_dropped': [s['rx']['dropped'] for s in st]}


# --- the guest ----------------------------------------------------------------

def write_run_files(run, dev, fwd, pools):
    """The guest runner's config and npool-fwd's route files."""
    probe = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        fwd))), 'tests', 'vm', 'numa_probe')
    with open(os.path.join(run, 'config'), 'w') as f:
        f.write('FWD=%s\nPOOLS="%s"\nCOPYBREAK=%d\nLCORES=%s\n'
                'CONFIG="%s"\nTELEMETRY=%d\nKCONTROL=%d\n'
                'HUGEPAGES=%d\nMAX_SECONDS=%d\n' % (
                    fwd, ' '.join(pools), COPYBREAK, dev.lcores, dev.config,
                    dev.nq > 1, dev.kdriver is not None, HUGEPAGES,
                    GUEST_MAX_SECONDS))
        if dev.numa:
            f.write(vm_numa.config_lines(probe))
        for port, n in enumerate(NODES):
            f.write('PCI%d=%s\nMAC%d=%s\nGW%d=%s\n' % (
                port, nic_pci(dev, n), port, TAP_MAC[n], port, GW[n]))
    for v in ('4', '6'):
        with open(os.path.join(run, 'routes%s.txt' % v), 'w') as f:
            f.write('# make vm-test: IPv%s routes (l3fwd syntax)\n' % v)
            for port, n in enumerate(NODES):
                f.write('R%s %d\n' % (ADDR['NET_%s%s' % (n.upper(), v)], port))


def nic_pci(dev, n):
    """Guest PCI address of NIC n (a or b)."""
    return '0000:%02x:%02x.0' % (dev.bus, dev.slots[n])


def qemu_command(qemu, dev, kernel, initrd, run, accel, smp):
    cmd = vm_qemu.guest_options(kernel, initrd, run,
                                os.path.join(HERE, 'guest.sh'), accel, smp,
                                2048, [dev.kdriver] if dev.kdriver else [])
    if dev.numa:
        cmd += vm_numa.qemu_args()
    for port, n in enumerate(NODES):
        cmd += ['-netdev', 'tap,id=n%d,ifname=%s,script=no,downscript=no' % (
                    port, TOPO.ifs[n]),
                '-device', '%s,netdev=n%d,mac=%s,%saddr=0x%x' % (
                    dev.model, port, NIC_MAC[n],
                    vm_numa.nic_bus() if dev.numa else '', dev.slots[n])]
    return qemu.argv(cmd)


def fwd_output(run, pool):
    """npool-fwd's own lines, without EAL's start-up chatter."""
    try:
        with open(os.path.join(run, 'fwd-%s.log' % pool)) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    return [ln for ln in lines if not re.match(
        r'^(EAL|TELEMETRY|ETHDEV|USER1|MBUF|MEMPOOL|LPM6?|PMD):', ln)]


def snapshot(run, pool, name, alive):
    """The guest's telemetry snapshot NAME of the running npool-fwd."""
    out = os.path.join(run, 'snap-%s-%s.json' % (pool, name))
    open(os.path.join(run, 'snapreq-%s-%s' % (pool, name)), 'w').close()
    wait_for('telemetry snapshot %s' % name, lambda: os.path.exists(out),
             30, alive, poll=0.1)
    with open(out) as f:
        text = f.read()
    js = vm_traffic.json_line(text)
    if js is None:
        raise Stop('telemetry snapshot %s: %s' % (name, text.strip()[-400:]))
    return js


def flows_step(dev, pool, run, alive, row):
    """The RSS flows (vm_rss.py) between the two hosts: True if all held."""
    R.step('%s/%s: %d UDP flows (x %d datagrams) and %d TCP flows (x %d B) '
           'from each host over IPv4 and IPv6, paced; per-queue rx over '
           'telemetry' % (dev.name, pool, vm_rss.FLOWS, vm_rss.UDP_COUNT,
                          vm_rss.FLOWS, vm_rss.TCP_BYTES))
    fl = vm_rss.Flows(R, TOPO, vm_traffic.TOOLS, lambda n: snapshot(run, pool, n, alive),
                      dev.nq, run, pool)
    res = fl.run()
    row['shares'] = ' / '.join('p%d %s' % (p, vm_rss.share_str(f))
                               for p, f in enumerate(res['flows']))
    R.info('flows phases, rx per queue: port 0 %s, port 1 %s' % (
        res['flows'][0], res['flows'][1]))
    return fl.ok


def run_pool(dev, pool, run, alive, nbytes):
    """One npool-fwd run in the guest: traffic, stop, counters."""
    row = {'device': dev.name, 'pool': pool}
    rc_file = os.path.join(run, 'rc-' + pool)
    taps0 = tap_counters()
    R.step('%s: npool-fwd --pool %s --copybreak %d in the guest, wait for the '
           'first ping A->B' % (dev.name, pool, COPYBREAK))
    t0 = time.monotonic()

    def through():
        if os.path.exists(rc_file):
            raise Stop('npool-fwd --pool %s exited at start-up, status %s:\n%s'
                       % (pool, open(rc_file).read().strip(),
                          '\n'.join(fwd_output(run, pool)[-30:])))
        return subprocess.run(TOPO.cmd('a', ['ping', '-n', '-c', '1', '-W',
                                             '1', ADDR['B4']]),
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    wait_for('npool-fwd --pool %s forwarding' % pool, through, FWD_TIMEOUT,
             alive, poll=0)
    out = fwd_output(run, pool)
    R.info('first ping through after %.0f s; npool-fwd says:' % (
        time.monotonic() - t0))
    R.info('\n'.join('| ' + ln for ln in out))
    port_lines = [ln for ln in out if ln.startswith('port ')]

    R.step('%s/%s: ping A -> B, IPv4 and IPv6 (%d each)' % (dev.name, pool,
                                                            vm_traffic.PINGS))
    row['ping4'] = vm_traffic.ping_check(R, TOPO, '4')
    row['ping6'] = vm_traffic.ping_check(R, TOPO, '6')

    R.step('%s/%s: TCP %d bytes A->B and B->A, IPv4 and IPv6 (byte count + '
           'SHA-256)' % (dev.name, pool, nbytes))
    tcp_ok, port = 0, 5201
    for v in ('4', '6'):
        for src, dst in (('a', 'b'), ('b', 'a')):
            tcp_ok += vm_traffic.tcp_check(R, TOPO, v, src, dst, port,
                                           nbytes, run)
            port += 1
    row['tcp'] = '%d/4 x %d B' % (tcp_ok, nbytes)
    flows_ok = dev.nq == 1 or flows_step(dev, pool, run, alive, row)

    R.step('%s/%s: SIGINT to npool-fwd in the guest; stats, exit status, leak '
           'check read back over 9p' % (dev.name, pool))
    open(os.path.join(run, 'stop-' + pool), 'w').close()
    wait_for('npool-fwd --pool %s exit status' % pool,
             lambda: os.path.exists(rc_file), STOP_TIMEOUT, alive)
    time.sleep(0.2)
    row['rc'] = open(rc_file).read().strip()
    taps = {k: [now - then for now, then in zip(v, taps0[k])]
            for k, v in tap_counters().items()}
    out = fwd_output(run, pool)
    stop = next((i for i, ln in enumerate(out) if ln.startswith('stopping')), 0)
    R.info('\n'.join('| ' + ln for ln in out[stop:]))
    ok = R.check(row['rc'] == '0', 'npool-fwd exited with status %s (0: no '
                 'leak)' % row['rc'])
    js = harness.load_json(os.path.join(run, 'fwd-%s.json' % pool))
    if not R.check(isinstance(js, dict) and 'ports' in js,
                   'npool-fwd --json read back from the guest'):
        return row
    ok &= vm_checks.json_checks(R, dev, js, port_lines, taps,
                                [TOPO.ifs[n] for n in NODES], row)
    if dev.numa:
        ok &= vm_numa.json_checks(R, js)
    row['ok'] = (ok and flows_ok and tcp_ok == 4 and
                 'FAIL' not in row['ping4'] + row['ping6'])
    return row


def start_guest(dev, image, run, accel, smp):
    """Namespaces, QEMU in npvm-a with both taps, npvm-b0 moved to npvm-b,
    the hosts configured. Returns the QEMU process."""
    R.step('%s: namespaces %s and %s, QEMU (-accel %s, -smp %d, -device %s '
           'x2) in %s' % (dev.name, TOPO.ns['a'], TOPO.ns['b'], accel, smp,
                          dev.model, TOPO.ns['a']))
    TOPO.remove()
    for n in NODES:
        netns.sh(['ip', 'netns', 'add', TOPO.ns[n]])
        netns.sh(['ip', '-n', TOPO.ns[n], 'link', 'set', 'lo', 'up'])
    cmd = qemu_command(image[2], dev, image[0], image[1], run, accel, smp)
    R.info('ip netns exec %s %s' % (TOPO.ns['a'], ' '.join(cmd)))
    with open(os.path.join(run, 'qemu.log'), 'w') as log:
        qemu = subprocess.Popen(TOPO.cmd('a', cmd), stdin=subprocess.DEVNULL,
                                env=image[2].environ(),
                                stdout=log, stderr=subprocess.STDOUT)
    # QEMU opens both taps in npvm-a; npvm-b0 then moves to npvm-b.
    wait_for('the taps', lambda: subprocess.run(
        ['ip', '-n', TOPO.ns['a'], 'link', 'show', TOPO.ifs['b']],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0,
        30, lambda: qemu.poll() is None)
    netns.sh(['ip', '-n', TOPO.ns['a'], 'link', 'set', TOPO.ifs['b'], 'netns',
              TOPO.ns['b']])
    for n, me, other in (('a', 'A', 'B'), ('b', 'B', 'A')):
        netns.sh(['ip', '-n', TOPO.ns[n], 'link', 'set', TOPO.ifs[n],
                  'address', TAP_MAC[n]])
        TOPO.host(n, me, other, NIC_MAC[n])
        R.info('%s: tap %s %s, %s/24 %s/64, gateway %s / %s = guest NIC %s'
               % (TOPO.ns[n], TOPO.ifs[n], TAP_MAC[n], ADDR[me + '4'],
                  ADDR[me + '6'], ADDR['GW_%s4' % me], ADDR['GW_%s6' % me],
                  NIC_MAC[n]))
    return qemu


def guest_lines(run):
    try:
        with open(os.path.join(run, 'console.log'), errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return []


def kernel_control(dev, run, alive):
    """The guest kernel's own driver routes A <-> B (IPv4) before the NICs
    go to uio_pci_generic: QEMU's model works without DPDK."""
    R.step('%s: control: the guest kernel\'s %s driver routes A <-> B, '
           'ping A -> B over it' % (dev.name, dev.kdriver))
    ready = os.path.join(run, 'kernel-ready')
    try:
        wait_for('the guest kernel\'s %s interfaces' % dev.kdriver,
                 lambda: os.path.exists(ready) or
                 os.path.exists(os.path.join(run, 'guest-rc')),
                 BOOT_TIMEOUT, alive)
        if not os.path.exists(ready):
            raise Stop('no kernel interface on the NICs')
        with open(ready) as f:
            nics = f.read().splitlines()
        R.info('\n'.join('| ' + ln for ln in nics))
        R.check(len(nics) == 2 and all(' drv=%s ' % dev.kdriver in ln
                                       for ln in nics),
                '%s: both NICs on the kernel\'s %s driver' % (dev.name,
                                                              dev.kdriver))
        vm_traffic.ping_check(R, TOPO, '4', 'guest kernel')
    finally:
        open(os.path.join(run, 'kernel-done'), 'w').close()


def run_device(dev, image, fwd, pools, opts, vmdir):
    """Boot a guest with two NICs of model dev, run npool-fwd per pool."""
    run = os.path.join(vmdir, 'run-' + dev.name)
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run)
    write_run_files(run, dev, fwd, pools)
    rows, qemu = [], None
    try:
        t0 = time.monotonic()
        qemu = start_guest(dev, image, run, opts['accel'],
                           opts['smp'] or dev.smp)

        def alive():
            return qemu.poll() is None
        if dev.kdriver:
            kernel_control(dev, run, alive)
        R.step('%s: guest boots, reserves %s hugepages, binds both NICs to '
               'uio_pci_generic (dpdk-devbind.py)' % (dev.name, '%d per node' %
                                                      vm_numa.NODE_HUGEPAGES
                                                      if dev.numa else
                                                      HUGEPAGES))
        bound = os.path.join(run, 'bound')
        wait_for('guest boot and NIC binding', lambda: os.path.exists(bound) or
                 os.path.exists(os.path.join(run, 'guest-rc')),
                 BOOT_TIMEOUT, alive)
        if not os.path.exists(bound):
            raise Stop('the guest runner failed before binding')
        R.info('%.0f s after QEMU started; in the guest:' % (
            time.monotonic() - t0))
        R.info('\n'.join('| ' + ln for ln in guest_lines(run)
                         if ln.startswith('npvm-')))
        with open(bound) as f:
            nics = f.read().splitlines()
        R.check(len(nics) == 2 and all(
            ln.endswith(' %s drv=uio_pci_generic' % dev.pci_id)
            for ln in nics),
            '%s: both NICs (%s) bound to uio_pci_generic: %s' % (
                dev.name, dev.pci_id,
                ', '.join(ln.split(' drv=')[0] for ln in nics)))
        if dev.numa:
            vm_numa.facts_check(R, run, [nic_pci(dev, n) for n in NODES])
        for pool in pools:
            rows.append({'device': dev.name, 'pool': pool})
            rows[-1] = run_pool(dev, pool, run, alive, opts['bytes'])
        if dev.numa:
            R.step('%s: numa_probe in the guest (-l %s): an lcore on each '
                   'node allocates, the other node frees' % (
                       dev.name, dev.lcores))
            wait_for('numa_probe exit status', lambda: os.path.exists(
                os.path.join(run, 'rc-probe')), STOP_TIMEOUT, alive)
            time.sleep(0.2)
            vm_numa.probe_check(R, run)
        open(os.path.join(run, 'poweroff'), 'w').close()
        wait_for('guest poweroff', lambda: not alive(), 120)
        with open(os.path.join(run, 'guest-rc')) as f:
            R.check(f.read().strip() == '0',
                    '%s: guest runner done, guest powered off' % dev.name)
    except (Stop, netns.NetnsError, subprocess.TimeoutExpired) as e:
        R.check(False, '%s: %s' % (dev.name, e))
        R.info('guest console (last lines):')
        R.info('\n'.join('| ' + ln for ln in guest_lines(run)[-25:]))
    finally:
        kill_wait(qemu)
        TOPO.remove()
    return rows


def summary(rows, accel, secs):
    print('\n%sSummary: npool-fwd on DPDK\'s e1000 PMDs in a QEMU guest '
          '(-accel %s, --copybreak %d)%s' % (BOLD, accel, COPYBREAK, OFF))
    fmt = '  %-7s %-8s %-11s %-11s %-16s %-39s %-34s %s'
    print(fmt % ('device', 'pool', 'ping IPv4', 'ping IPv6', 'TCP 4+6, A<->B',
                 'npool-fwd packets', 'leaks, exit status',
                 'RX queue shares, flows (port 0 / 1)'))
    for r in rows:
        print(fmt % (r['device'], r['pool'], r.get('ping4', '-'),
                     r.get('ping6', '-'), r.get('tcp', '-'),
                     r.get('fwd', '-'), '%s, exit %s' % (
                         r.get('leaks', '-'), r.get('rc', '-')),
                     r.get('shares', '-')))
    drivers = sorted({r['driver'] for r in rows if r.get('driver')})
    if drivers:
        print('  ports: %s' % '; '.join(drivers))
    failed = [m for ok, m in R.results if not ok]
    for m in failed:
        print('  %sFAIL%s %s' % (RED, OFF, m.splitlines()[0]))
    if R.failed:
        print('\n%svm-test FAILED%s (%d of %d checks, %.0f s)' % (
            RED, OFF, len(failed), len(R.results), secs))
    else:
        print('\n%svm-test PASSED%s: %d checks, traffic forwarded by '
              'npool-fwd on %s, no leak (%.0f s)' % (
                  GREEN, OFF, len(R.results),
                  ' and '.join(sorted({DEVICES[r['device']].pmd
                                       for r in rows})), secs))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(argv[1])
    fwd = os.path.join(build, 'apps', 'fwd', 'npool-fwd')
    if not os.access(fwd, os.X_OK):
        sys.exit('vm-test: %s not found: build first (ninja -C %s)' % (
            fwd, argv[1]))
    devices = os.environ.get('NPVM_DEVICES', ' '.join(DEVICES)).split()
    bad = [d for d in devices if d not in DEVICES]
    if bad:
        sys.exit('vm-test: NPVM_DEVICES: unknown run %s (known: %s)' % (
            ', '.join(bad), ' '.join(DEVICES)))
    pools = os.environ.get('NPVM_POOLS', 'npool mempool').split()
    opts = {'accel': os.environ.get('NPVM_ACCEL', 'tcg'),
            'smp': int(os.environ.get('NPVM_SMP', '0')),
            'bytes': int(os.environ.get('NPVM_BYTES', str(2 << 20)))}
    vmdir = os.path.join(build, 'vm')

    def on_signal(signum, _frame):
        raise Stop('interrupted by signal %d' % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    start = time.monotonic()
    rows = []
    try:
        why = kfeatures.probe()['tun']
        if why:
            raise Stop('kernel: %s: QEMU cannot wire the guest\'s NICs to '
                       'host taps' % kfeatures.missing_text('tun', why))
        R.step('Guest image from Debian packages (cache %s)' % vmdir)
        kernel, initrd, rel = vm_image.build(vmdir)
        R.info('kernel %s (%s)\ninitramfs %s (%d KiB: busybox, init, %s; '
               'on request %s)' % (
                   kernel, rel, initrd, os.path.getsize(initrd) >> 10,
                   ', '.join(vm_image.GUEST_MODULES),
                   ', '.join(vm_image.EXTRA_MODULES)))
        for name in devices:
            dev = DEVICES[name]
            R.step('%s: which QEMU (-device %s)' % (name, dev.model))
            try:
                qemu = vm_qemu.for_device(dev.model, build, R.info)
            except vm_qemu.QemuError as e:
                R.check(False, '%s: %s' % (name, e))
                continue
            R.info('%s: %s' % (qemu.version, qemu.where))
            rows += run_device(dev, (kernel, initrd, qemu), fwd, pools, opts,
                               vmdir)
    except (Stop, vm_image.ImageError) as e:
        R.check(False, str(e))
    finally:
        TOPO.remove()
    summary(rows, opts['accel'], time.monotonic() - start)
    return 1 if R.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
