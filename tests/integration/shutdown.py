#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SIGINT and SIGTERM in the middle of full-rate traffic, for npool-fwd,
npool-drop and npool-gen: each app exits 0 with every mbuf and fragment
back, and its counters add up (what came in is what went out, was dropped
by reason, or was refused by the TX queue and freed).

  chain-*   three processes in netns.py's namespaces, all on
            net_af_packet: npool-gen in host A floods 60-byte UDP
            (--clone 4) at line rate to B through npool-fwd in R; npool-drop
            receives it in B. Telemetry shows each app's port counter
            moving just before its signal: npool-drop is stopped while
            npool-fwd forwards into it, npool-fwd while npool-gen floods
            it, npool-gen while it floods. Root only.
  ring-fwd-*  npool-fwd on two lcores: lcore 0 forwards net_pcap
            infinite_rx (port 0) into a net_ring (port 1) through TX queue 0;
            lcore 1 reads ring queue 0 and forwards it again through TX
            queue 1, whose ring queue 1 nobody reads: it holds 1023
            forwarded mbufs when the signal comes, the rest was refused
            (tx_full). The stop releases exactly what the rings hold (port
            1's tx - rx, its log says so) and nothing is left.
  startup-*  a signal while EAL starts (the app's handler is in place, its
            telemetry socket not yet: rte_eal_init() has not returned), on
            net_null ports; SIGINT inherited as ignored in one case, as
            for a shell's background job: the run ends as it starts (exit
            0, "stopping: signal N", no packet, leak block clean); a
            second signal then kills the app at once (exit by the signal).
  ring-gen-*  npool-gen on a net_ring nobody reads, --clone 1020: the
            ring holds 1023 sends of two packets (refcnt up to 1021) at
            the signal, every later one was refused (tx_unsent), the TX
            loop ran up to the stop, which cuts a packet's 1021 sends
            (unless the 32-send bursts ended on a packet: 1 in 1021): the
            generator gives back the references it held for the rest.

A packet's clone + 1 sends prime to the 32-send bursts (5, 1021): the
stop mostly comes in the middle of one.

  shutdown.py --fwd F --drop D --gen G --case NAME|all [--keep]
  shutdown.py --list
Exit 0 pass, 1 fail, 77 skip (a chain case without root or netns).
"""

import argparse
import math
import os
import re
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))

import harness  # noqa: E402
import netns  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402
from apps_measure import Telemetry, runtime_dir  # noqa: E402
from netns import ADDR  # noqa: E402

RING_CAP = 1023     # net_ring: rte_ring_create(1024), one slot kept empty
RUN_S = 1.5         # traffic before the first signal
WAIT_S = 30         # for an app to exit after its signal
STOP_TOL = 0.1      # npool-gen's last TX burst from the stop, either way

CASES = {
    # name: (kind, pool, copybreak, signals, clone, refcnt)
    'chain-npool': ('chain', 'npool', 0, ('TERM', 'INT', 'TERM'), 4, 'set'),
    'chain-mempool': ('chain', 'mempool', 0, ('INT', 'TERM', 'INT'), 4,
                      'inc'),
    'chain-npool-copybreak256': ('chain', 'npool', 256,
                                 ('INT', 'INT', 'TERM'), 4, 'set'),
    'ring-fwd-npool': ('ring-fwd', 'npool', 0, ('INT',), 0, None),
    'ring-fwd-mempool': ('ring-fwd', 'mempool', 0, ('TERM',), 0, None),
    'ring-fwd-npool-copybreak256': ('ring-fwd', 'npool', 256, ('TERM',), 0,
                                    None),
    'ring-gen-set-npool': ('ring-gen', 'npool', 0, ('INT',), 1020, 'set'),
    'ring-gen-inc-mempool': ('ring-gen', 'mempool', 0, ('TERM',), 1020,
                             'inc'),
    'startup-fwd-int-ignored': ('startup', 'npool', 0, ('INT',), 0, 'fwd'),
    'startup-drop-term': ('startup', 'mempool', 0, ('TERM',), 0, 'drop'),
    'startup-gen-int': ('startup', 'npool', 0, ('INT',), 0, 'gen'),
    'startup-fwd-term-twice': ('startup', 'npool', 0, ('TERM', 'TERM'), 0,
                               'fwd'),
}
# startup cases: the last field is the app; its net_null ports
STARTUP_PORTS = {'fwd': ('0x3', ['net_null0', 'net_null1']),
                 'drop': ('0x1', ['net_null0']),
                 'gen': ('0x1', ['net_null0,no-rx=1'])}


class Interrupted(Exception):
    pass


def on_signal(sig, frame):
    raise Interrupted('signal %d' % sig)


class App:
    """One app of a case: its process, telemetry, JSON and checks."""

    def __init__(self, case, name, path, sig):
        self.case, self.name, self.path = case, name, path
        self.sig = getattr(signal, 'SIG' + sig)
        self.prefix = case.work.new_prefix()
        self.json_path = case.work.file(name + '.json')
        self.proc = None
        self.tel = None
        self.js = {}

    def start(self, topo, node, lcores, vdevs, args):
        eal = harness.eal_args(self.prefix, vdevs, lcores, telemetry=True)
        cmd = ([self.path] + eal + ['--'] + args +
               ['--json', self.json_path])
        log = self.case.work.file(self.name + '.log')
        self.proc = netns.AppProcess(topo, node, cmd, log).start()
        if not self.proc.wait_for('port 0:', 60):
            raise RuntimeError('%s did not start its ports:\n%s'
                               % (self.name, self.proc.tail()))
        sock = os.path.join(runtime_dir(self.prefix), 'dpdk_telemetry.v2')
        deadline = time.monotonic() + 10
        while self.tel is None:
            try:
                self.tel = Telemetry(sock)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def counter(self, port, key):
        return self.tel.stats(port)[key]

    def first_tx(self, port):
        """Wait until the port's opackets leave 0: the TX loop runs."""
        deadline = time.monotonic() + WAIT_S
        while self.counter(port, 'opackets') == 0:
            if time.monotonic() > deadline:
                raise RuntimeError('%s: no TX burst %d s after its ports '
                                   'started:\n%s' % (self.name, WAIT_S,
                                                     self.proc.tail()))
            time.sleep(0.005)

    def moving(self, port, key):
        """The counter read twice 0.2 s apart: (first, second)."""
        c0 = self.counter(port, key)
        time.sleep(0.2)
        return c0, self.counter(port, key)

    def stop(self, port, key):
        """Signal the app while its ethdev counter key moves (key None:
        nothing to read, see ring_gen); wait for it."""
        c0, c1 = self.moving(port, key) if key else (0, 1)
        self.tel.close()
        self.tel = None
        t0 = time.monotonic()
        self.proc.signal(self.sig)
        rc = self.proc.wait(WAIT_S)
        self.js = harness.load_json(self.json_path)
        harness.log('%s: %s, then %s: exit status %s %.2f s later' % (
            self.name, '%s %d -> %d in 0.2 s' % (key, c0, c1) if key else
            'running', signal.Signals(self.sig).name, rc,
            time.monotonic() - t0))
        probs = []
        if c1 <= c0:
            probs.append('%s: %s did not move before the signal (%d -> %d): '
                         'no traffic at the stop' % (self.name, key, c0, c1))
        if rc != 0:
            probs.append('%s: exit status %s after %s, want 0\n%s' % (
                self.name, rc, signal.Signals(self.sig).name,
                self.proc.tail()))
        if not re.search(r'^stopping: signal %d$' % self.sig,
                         self.proc.log(), re.M):
            probs.append('%s: no "stopping: signal %d" line' % (
                self.name, self.sig))
        if '_error' in self.js:
            return probs + ['%s: no JSON: %s' % (self.name,
                                                 self.js['_error'])]
        return probs + ['%s: %s' % (self.name, p)
                        for p in harness.leak_problems(self.js)]

    def close(self):
        if self.tel is not None:
            self.tel.close()
            self.tel = None
        if self.proc is not None:
            self.proc.kill()


def ports(js):
    return {p.get('port'): p for p in js.get('ports', [])}


def fwd_balance(js, what='npool-fwd'):
    """Per port: rx == forwarded + dropped, rx == ethdev ipackets, tx ==
    ethdev opackets + oerrors; in total rx == tx + dropped (nothing is
    fragmented: every frame fits the MTU)."""
    probs = []
    for p, c in sorted(ports(js).items()):
        eth = c.get('eth', {})
        if c.get('rx') != c.get('forwarded', 0) + c.get('dropped', 0):
            probs.append('%s port %s: rx %s != forwarded %s + dropped %s'
                         % (what, p, c.get('rx'), c.get('forwarded'),
                            c.get('dropped')))
        if c.get('rx') != eth.get('ipackets'):
            probs.append('%s port %s: rx %s != ethdev ipackets %s'
                         % (what, p, c.get('rx'), eth.get('ipackets')))
        if c.get('tx') != eth.get('opackets', 0) + eth.get('oerrors', 0):
            probs.append('%s port %s: tx %s != ethdev opackets %s + '
                         'oerrors %s' % (what, p, c.get('tx'),
                                         eth.get('opackets'),
                                         eth.get('oerrors')))
    t = js.get('total', {})
    if t.get('rx') != t.get('tx', 0) + t.get('dropped', 0):
        probs.append('%s total: rx %s != tx %s + dropped %s'
                     % (what, t.get('rx'), t.get('tx'), t.get('dropped')))
    return probs


def drop_balance(js):
    """rx == rx_drop + truncated == dropped == ethdev ipackets."""
    probs = []
    for p, c in sorted(ports(js).items()):
        d = c.get('drops', {})
        if not (c.get('rx') == d.get('rx_drop', 0) + d.get('truncated', 0)
                == c.get('dropped') == c.get('eth', {}).get('ipackets')):
            probs.append('npool-drop port %s: rx %s, rx_drop %s + '
                         'truncated %s, dropped %s, ethdev ipackets %s' % (
                             p, c.get('rx'), d.get('rx_drop'),
                             d.get('truncated'), c.get('dropped'),
                             c.get('eth', {}).get('ipackets')))
    return probs


def gen_balance(js, clone):
    """Every send slot was sent or refused (tx_unsent); sent == the
    ethdev's opackets + oerrors; each allocated packet filled clone + 1
    slots (the last one maybe fewer, cut by the stop). AF_PACKET's TX
    waits for room in its ring: nothing is refused there."""
    probs = []
    for g in js.get('gen', {}).get('ports', []):
        p = g.get('port')
        if g.get('slots') != g.get('tx', 0) + g.get('tx_unsent', 0):
            probs.append('npool-gen port %s: slots %s != tx %s + unsent %s'
                         % (p, g.get('slots'), g.get('tx'),
                            g.get('tx_unsent')))
        if g.get('tx') != g.get('eth_opackets', 0) + g.get('eth_oerrors', 0):
            probs.append('npool-gen port %s: tx %s != ethdev opackets %s + '
                         'oerrors %s' % (p, g.get('tx'),
                                         g.get('eth_opackets'),
                                         g.get('eth_oerrors')))
        want = math.ceil(g.get('slots', 0) / (clone + 1))
        if g.get('alloc_fail') != 0 or g.get('allocs') != want:
            probs.append('npool-gen port %s: %s packets allocated (%s '
                         'failed) for %s slots of clone %d: want %d'
                         % (p, g.get('allocs'), g.get('alloc_fail'),
                            g.get('slots'), clone, want))
    return probs


def stop_cut(js, clone):
    """Where the stop came in npool-gen's sends (a log line)."""
    slots = js.get('gen', {}).get('ports', [{}])[0].get('slots', 0)
    cut = slots % (clone + 1)
    return 'npool-gen: the stop %s' % (
        'came between two packets: no reference held' if cut == 0 else
        'cut a packet after %d of its %d sends' % (cut, clone + 1))


def drained(app, port):
    """What the stop found waiting in a port's RX queues (the log line)."""
    m = re.search(r'^port %d: (\d+) packets waiting in the RX queues at the '
                  r'stop' % port, app.proc.log(), re.M)
    return int(m.group(1)) if m else 0


class Case:
    def __init__(self, a, name, work):
        self.a, self.name, self.work = a, name, work
        (self.kind, self.pool, self.copybreak, self.sigs, self.clone,
         self.refcnt) = CASES[name]
        self.apps = []
        self.topo = None

    def app(self, name, path, sig):
        app = App(self, name, path, sig)
        self.apps.append(app)
        return app

    def pool_args(self):
        return ['--pool', self.pool, '--copybreak', str(self.copybreak)]

    def gen_args(self):
        return ['-p', '0x1', '--pool', self.pool, '--clone', str(self.clone),
                '--refcnt', self.refcnt]

    def routes(self):
        path = self.work.file('routes4.cfg')
        with open(path, 'w') as f:
            f.write('R%s 0\nR%s 1\n' % (ADDR['NET_A4'], ADDR['NET_B4']))
        return ['--rule_ipv4', path]

    # --- chain: gen (A) -> fwd (R) -> drop (B) over AF_PACKET -----------
    def chain(self):
        if os.geteuid() != 0:
            harness.skip('chain cases need root (netns, veth, AF_PACKET)')
        pid = os.getpid()
        self.topo = t = netns.Topology('nppe-%d' % pid, 'pe%d' % pid)
        for pid in netns.sweep_stale('nppe-'):
            harness.log('removed nppe-%s-*, left by a run that was killed'
                        % pid)
        harness.create_topology(t)
        t.wire_hosts()
        drop = self.app('npool-drop', self.a.drop, self.sigs[0])
        fwd = self.app('npool-fwd', self.a.fwd, self.sigs[1])
        gen = self.app('npool-gen', self.a.gen, self.sigs[2])
        afp = 'net_af_packet%d,iface=%s'
        drop.start(t, 'b', '0', [afp % (0, t.ifs['b'])],
                   ['-p', '0x1'] + self.pool_args())
        fwd.start(t, 'r', '1', [afp % (0, t.ifs['r0']),
                                afp % (1, t.ifs['r1'])],
                  ['-p', '0x3'] + self.pool_args() + self.routes() +
                  ['--eth-dest', '0,' + t.macs['a'],
                   '--eth-dest', '1,' + t.macs['b']])
        gen.start(t, 'a', '0', [afp % (0, t.ifs['a'])], self.gen_args() + [
            '--dst-mac', t.macs['r0'], '--src-ip', ADDR['A4'],
            '--dst-ip', ADDR['B4']])
        time.sleep(RUN_S)
        probs = drop.stop(0, 'ipackets')
        probs += fwd.stop(0, 'ipackets')
        probs += gen.stop(0, 'opackets')
        if any('no JSON' in p for p in probs):
            return probs
        probs += drop_balance(drop.js) + fwd_balance(fwd.js)
        probs += gen_balance(gen.js, self.clone)
        harness.log(stop_cut(gen.js, self.clone))
        f, d = ports(fwd.js), ports(drop.js)
        g = gen.js.get('gen', {}).get('ports', [{}])[0]
        harness.log('npool-gen sent %s (%s refused), npool-fwd received %s '
                    'and sent %s to B (%s tx_full), npool-drop received %s'
                    % (g.get('tx'), g.get('tx_unsent'), f[0].get('rx'),
                       f[1].get('tx'), f[0]['drops'].get('tx_full'),
                       d[0].get('rx')))
        # AF_PACKET rings drop what a slow reader misses, uncounted
        if not 0 < f[0].get('rx', 0) <= g.get('tx', 0):
            probs.append('npool-fwd received %s of npool-gen\'s %s'
                         % (f[0].get('rx'), g.get('tx')))
        if not 0 < d[0].get('rx', 0) <= f[1].get('tx', 0):
            probs.append('npool-drop received %s of npool-fwd\'s %s'
                         % (d[0].get('rx'), f[1].get('tx')))
        return probs

    # --- one process, a net_ring port that holds what is sent ------------
    def ring_fwd(self):
        frames = [packets.eth(packets.ipv4(
            src=ADDR['A4'], dst=ADDR['B4'],
            payload=packets.udp(b'x' * n)))
            for n in (18, 100, 500, 1000, 1472)]
        rx = self.work.file('in.pcap')
        pcaplib.write(rx, frames)
        fwd = self.app('npool-fwd', self.a.fwd, self.sigs[0])
        fwd.start(None, None, '0-1', [
            'net_pcap0,rx_pcap=%s,infinite_rx=1,tx_pcap=%s,tx_pcap=%s' % (
                rx, self.work.file('tx0.pcap'), self.work.file('tx1.pcap')),
            'net_ring0'],
            ['-p', '0x3', '--config', '(0,0,0),(1,0,1)',
             # port 1 is its own next hop: the ring loops TX into RX,
             # to its MAC (net_ring's is zero)
             '--eth-dest', '1,00:00:00:00:00:00'] +
            self.pool_args() + self.routes())
        time.sleep(RUN_S)
        probs = fwd.stop(0, 'ipackets')
        if probs:
            return probs
        probs += fwd_balance(fwd.js)
        c = ports(fwd.js)
        held = drained(fwd, 1)
        harness.log('npool-fwd: port 0 received %d, forwarded %d into the '
                    'ring (%d tx_full); lcore 1 read %d from it, forwarded '
                    '%d (%d tx_full); the stop released %d from the rings' % (
                        c[0]['rx'], c[0]['forwarded'],
                        c[0]['drops']['tx_full'], c[1]['rx'],
                        c[1]['forwarded'], c[1]['drops']['tx_full'], held))
        if not (c[1]['forwarded'] == RING_CAP and
                held == c[1]['tx'] - c[1]['rx'] >= RING_CAP and
                c[1]['drops']['tx_full'] > 0):
            probs.append('want port 1 forwarded == %d (what ring queue 1 '
                         'holds), released at the stop == port 1 tx - rx, '
                         'some tx_full' % RING_CAP)
        return probs

    def ring_gen(self):
        gen = self.app('npool-gen', self.a.gen, self.sigs[0])
        gen.start(None, None, '0', ['net_ring0'], self.gen_args())
        # RUN_S of traffic from the first TX burst: on a loaded machine
        # the set-up after the ports' line may take most of it
        gen.first_tx(0)
        time.sleep(RUN_S)
        probs = gen.stop(0, None)
        if probs:
            return probs
        probs += gen_balance(gen.js, self.clone)
        g = gen.js['gen']['ports'][0]
        # The ring is full: only the refusals move, a burst each turn of
        # the loop. From the last TX burst to the run's stop (the control
        # thread's, a check a millisecond after the signal), on the app's
        # clock, its start-up left out: the last burst came right before
        # the stop, or right after it (the lcore's loop ends at its next
        # look at app_quit: 2 ms later once under ASan at load 2).
        gap = gen.js['duration_s'] - g['first_s'] - g['seconds']
        harness.log('npool-gen: run %.3f s, first TX burst at %.3f s, the '
                    'last %.3f s later, %.3f s before the stop' % (
                        gen.js['duration_s'], g['first_s'], g['seconds'],
                        gap))
        if gap >= STOP_TOL:
            probs.append('the last TX burst came %.3f s before the stop: '
                         'the TX loop was not running at the stop' % gap)
        if gap < -STOP_TOL:
            probs.append('the last TX burst came %.3f s after the stop: '
                         'the TX loop went on past it' % -gap)
        held = drained(gen, 0)
        harness.log(stop_cut(gen.js, self.clone))
        harness.log('npool-gen: %d slots, %d sent (in the ring), %d refused, '
                    '%d packets allocated; the stop released %d from the '
                    'ring' % (g['slots'], g['tx'], g['tx_unsent'],
                              g['allocs'], held))
        if not (g['tx'] == held == RING_CAP and g['tx_unsent'] > 0):
            probs.append('want tx == released at the stop == %d, the rest '
                         'refused (tx_unsent)' % RING_CAP)
        return probs

    def startup(self):
        which = self.refcnt
        app = self.app('npool-' + which, getattr(self.a, which), self.sigs[0])
        mask, vdevs = STARTUP_PORTS[which]
        cmd = ([app.path] + harness.eal_args(app.prefix, vdevs, '0',
                                           telemetry=True) +
               ['--', '-p', mask, '--pool', self.pool, '--json',
                app.json_path])
        ignored = self.name.endswith('-ignored')
        app.proc = netns.AppProcess(None, None, cmd, self.work.file(
            app.name + '.log')).start((app.sig,) if ignored else ())
        sock = os.path.join(runtime_dir(app.prefix), 'dpdk_telemetry.v2')
        deadline = time.monotonic() + 30
        while not app.proc.catches(app.sig):
            if not app.proc.running() or time.monotonic() > deadline:
                return ['%s never caught %s:\n%s' % (
                    app.name, signal.Signals(app.sig).name,
                    app.proc.tail())]
            time.sleep(0.002)
        probs = []
        if os.path.exists(sock):
            probs.append('%s: its %s handler came after rte_eal_init() '
                         '(telemetry socket there already)' % (
                             app.name, signal.Signals(app.sig).name))
        t0 = time.monotonic()
        for _ in self.sigs:
            app.proc.signal(app.sig)
            time.sleep(0.05)
        rc = app.proc.wait(WAIT_S)
        log = app.proc.log()
        harness.log('%s: %s %s during start-up (%s ignored before): exit '
                    'status %s %.2f s later' % (
                        app.name, ' + '.join(self.sigs), 'sent', 'SIGINT'
                        if ignored else 'nothing', rc,
                        time.monotonic() - t0))
        if len(self.sigs) > 1:
            if rc != -app.sig:
                probs.append('%s: after two signals: exit status %s, want '
                             'killed by the second (%d)' % (
                                 app.name, rc, -app.sig))
            return probs
        js = harness.load_json(app.json_path)
        if rc != 0 or not re.search(r'^stopping: signal %d$' % app.sig, log,
                                    re.M):
            return probs + ['%s: exit status %s, want 0 and "stopping: '
                            'signal %d"\n%s' % (app.name, rc, app.sig,
                                                app.proc.tail())]
        if '_error' in js:
            return probs + ['%s: no JSON: %s' % (app.name, js['_error'])]
        probs += ['%s: %s' % (app.name, p) for p in harness.leak_problems(js)]
        t = js.get('total', {})
        if (t.get('rx'), t.get('tx')) != (0, 0):
            probs.append('%s: rx %s, tx %s: the run went on after the '
                         'signal' % (app.name, t.get('rx'), t.get('tx')))
        return probs

    def run(self):
        return {'chain': self.chain, 'ring-fwd': self.ring_fwd,
                'ring-gen': self.ring_gen,
                'startup': self.startup}[self.kind]()

    def cleanup(self):
        for app in self.apps:
            app.close()
        if self.topo is not None:
            for e in self.topo.remove():
                harness.log('cleanup: ' + e)


def run_case(a, name, work):
    case = Case(a, name, work)
    try:
        return case.run()
    except (Interrupted, RuntimeError, OSError, KeyError,
            netns.NetnsError) as e:
        return ['%s: %s' % (type(e).__name__, e)] + [
            '%s log:\n%s' % (app.name, app.proc.tail())
            for app in case.apps if app.proc is not None]
    finally:
        case.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    a, names = harness.case_arguments(ap, CASES, ('fwd', 'drop', 'gen'))
    if names is None:
        return 0
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, on_signal)
    return harness.run_cases(names, 'shutdown',
                             lambda name, work: run_case(a, name, work),
                             a.keep)


if __name__ == '__main__':
    sys.exit(main())
