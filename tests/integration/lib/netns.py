#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Live traffic through an npool app between network namespaces: the
topology that `make demo` (scripts/demo.sh) and the kernel-peer and
shutdown tests share (python3 stdlib, iproute2, ethtool; root).

  host A (<ns>-a)               router (<ns>-r)                  host B (<ns>-b)
  <if>-a0 198.18.1.2/24  <-veth->  <if>-r0 = port 0 [app] port 1 = <if>-r1  <-veth->  <if>-b0 198.18.2.2/24
          2001:2:0:1::2/64                                                           2001:2:0:2::2/64

The router namespace is a plain wire for the app's AF_PACKET / AF_XDP
ports: no addresses, no IPv6 (nothing of its own goes out of them), no
forwarding. The hosts route the other subnet via a gateway address (.1 /
::1) whose MAC is the router port's (a permanent neighbour entry: npool-fwd
answers no ARP or ND), with DAD and router advertisements off and
checksum offloads off (AF_PACKET would see partial checksums). What the
hosts send on their veth is then only what a test sends, plus their own
MLD reports to link-local multicast (which a router never forwards).

Namespaces are created and deleted by exact name; remove() first ends
every process still inside them.

Shell use (scripts/demo.sh):
  netns.py env NS IF       NS_A= NS_R= NS_B= A_IF= R0_IF= R1_IF= B_IF= and
                           the addresses (A4 GW_A4 NET_A4 ... NET_B6)
  netns.py create NS IF    namespaces and veths; prints MAC_A= MAC_B=
                           MAC_R0= MAC_R1=
  netns.py hosts NS IF     addresses, neighbours, routes of A and B
  netns.py gateway NS IF   addresses of A and B, npool-fwd (.1 / ::1, its
                           --port-addr) as their default gateway: no
                           static neighbour, ARP and NDP resolve it
  netns.py remove NS IF    end their processes, delete the namespaces
"""

import json
import os
import re
import signal
import subprocess
import sys
import time

ADDR = {
    'A4': '198.18.1.2', 'GW_A4': '198.18.1.1', 'NET_A4': '198.18.1.0/24',
    'B4': '198.18.2.2', 'GW_B4': '198.18.2.1', 'NET_B4': '198.18.2.0/24',
    'A6': '2001:2:0:1::2', 'GW_A6': '2001:2:0:1::1',
    'NET_A6': '2001:2:0:1::/64',
    'B6': '2001:2:0:2::2', 'GW_B6': '2001:2:0:2::1',
    'NET_B6': '2001:2:0:2::/64',
    # host C of a three-host topology (Topology(third=True))
    'C4': '198.18.3.2', 'GW_C4': '198.18.3.1', 'NET_C4': '198.18.3.0/24',
    'C6': '2001:2:0:3::2', 'GW_C6': '2001:2:0:3::1',
    'NET_C6': '2001:2:0:3::/64',
}

# TERM, then KILL after this many seconds (processes left in a namespace)
KILL_AFTER_S = 3.0


class NetnsError(Exception):
    """A command that builds the topology failed (its stderr inside)."""


def sh(cmd, check=True):
    """Run cmd (a list), return its stdout; NetnsError if it fails."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    if check and p.returncode != 0:
        raise NetnsError('%s: exit %d: %s' % (
            ' '.join(cmd), p.returncode,
            p.stderr.decode('utf-8', 'replace').strip()))
    return p.stdout.decode('utf-8', 'replace')


def pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def kill_pid(pid):
    """TERM, then KILL after KILL_AFTER_S seconds."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + KILL_AFTER_S
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return
        time.sleep(0.1)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


class Topology:
    """Hosts A and B, router R between them: namespaces <ns>-a, <ns>-r,
    <ns>-b, veths <if>-a0 -- <if>-r0 and <if>-r1 -- <if>-b0 (an interface
    name has at most 15 characters: keep <if> within 11). With third, host
    C too: <ns>-c, <if>-r2 -- <if>-c0."""

    def __init__(self, ns, ifp, third=False):
        if len(ifp) > 11:
            raise ValueError('interface prefix %r: more than 11 characters'
                             % ifp)
        self.hosts = ('a', 'b', 'c') if third else ('a', 'b')
        self.ports = tuple('r%d' % k for k in range(len(self.hosts)))
        self.ns = {'r': ns + '-r'}
        self.ifs = {}
        for h, r in zip(self.hosts, self.ports):
            self.ns[h] = ns + '-' + h
            self.ifs[h] = ifp + '-' + h + '0'
            self.ifs[r] = ifp + '-' + r
        self.macs = {}

    @staticmethod
    def node_of(dev):
        """The node ('a', 'r', 'b', 'c') where interface dev lives."""
        return 'r' if dev.startswith('r') else dev

    def shell_env(self):
        env = {'NS_A': self.ns['a'], 'NS_R': self.ns['r'],
               'NS_B': self.ns['b'], 'A_IF': self.ifs['a'],
               'R0_IF': self.ifs['r0'], 'R1_IF': self.ifs['r1'],
               'B_IF': self.ifs['b']}
        env.update(ADDR)
        return env

    def exists(self, node):
        return os.path.exists('/var/run/netns/' + self.ns[node])

    def cmd(self, node, args):
        """args to run inside node's namespace."""
        return ['ip', 'netns', 'exec', self.ns[node]] + list(args)

    def run(self, node, args, check=True):
        return sh(self.cmd(node, args), check)

    def remove(self):
        """End every process inside the namespaces, delete them (exact
        names; what does not exist is skipped). Returns what failed."""
        errs = []
        for node in self.hosts + ('r',):
            if not self.exists(node):
                continue
            pids = sh(['ip', 'netns', 'pids', self.ns[node]], False)
            for pid in pids.split():
                kill_pid(int(pid))
            try:
                sh(['ip', 'netns', 'del', self.ns[node]])
            except NetnsError as e:
                errs.append(str(e))
        return errs

    def create(self):
        """Namespaces, veth pairs, the router side up. Fills self.macs."""
        ns, ifs = self.ns, self.ifs
        for node in self.hosts + ('r',):
            sh(['ip', 'netns', 'add', ns[node]])
            sh(['ip', '-n', ns[node], 'link', 'set', 'lo', 'up'])
        for h, r in zip(self.hosts, self.ports):
            sh(['ip', '-n', ns['r'], 'link', 'add', ifs[r], 'type', 'veth',
                'peer', 'name', ifs[h], 'netns', ns[h]])
        self.run('r', ['sysctl', '-qw', 'net.ipv4.ip_forward=0',
                       'net.ipv6.conf.all.forwarding=0'])
        for dev in self.ports:
            self.run('r', ['sysctl', '-qw', 'net.ipv6.conf.%s.disable_ipv6=1'
                           % ifs[dev]])
            self.offloads_off('r', ifs[dev], gro=True)
            sh(['ip', '-n', ns['r'], 'link', 'set', ifs[dev], 'up'])
        return self.read_macs()

    def read_macs(self):
        self.macs = {dev: self.run(self.node_of(dev), [
            'cat', '/sys/class/net/%s/address' % self.ifs[dev]]).strip()
            for dev in self.hosts + self.ports}
        return self.macs

    def offloads_off(self, node, dev, gro=False):
        """TCP over AF_PACKET: no partial checksums (tx) and no trusted
        ones (rx); on the router side GRO too where the driver lets it
        change (ethtool fails when one feature cannot)."""
        args = ['ethtool', '-K', dev, 'tx', 'off', 'rx', 'off']
        if gro:
            p = subprocess.run(self.cmd(node, args + ['gro', 'off']),
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if p.returncode == 0:
                return
        self.run(node, args)

    def configure_hosts(self):
        """Addresses, static gateway neighbours and routes of A and B."""
        if not self.macs:
            self.read_macs()
        self.host('a', 'A', 'B', self.macs['r0'])
        self.host('b', 'B', 'A', self.macs['r1'])

    def wire_hosts(self):
        """A and B as plain wires instead (for apps on their veths too):
        links up, no IPv6, no addresses: their kernels send nothing."""
        for node in self.hosts:
            self.run(node, ['sysctl', '-qw', 'net.ipv6.conf.%s.disable_ipv6=1'
                            % self.ifs[node]])
            sh(['ip', '-n', self.ns[node], 'link', 'set', self.ifs[node],
                'up'])

    def configure_gateway_hosts(self):
        """A and B with the router's port addresses (.1 / ::1) as their
        default gateways, resolved by ARP and NDP: no neighbour entry."""
        self.host('a', 'A', None, None)
        self.host('b', 'B', None, None)

    def host(self, node, me, other, gwmac):
        ns, dev = self.ns[node], self.ifs[node]
        for key in ('accept_dad', 'accept_ra'):
            self.run(node, ['sysctl', '-qw', 'net.ipv6.conf.%s.%s=0'
                            % (dev, key)])
        self.offloads_off(node, dev)
        ip = ['ip', '-n', ns]
        sh(ip + ['addr', 'add', ADDR[me + '4'] + '/24', 'dev', dev])
        sh(ip + ['-6', 'addr', 'add', ADDR[me + '6'] + '/64', 'dev', dev,
                 'nodad'])
        sh(ip + ['link', 'set', dev, 'up'])
        for fam, v in (('-4', '4'), ('-6', '6')):
            if gwmac is None:
                sh(ip + [fam, 'route', 'add', 'default', 'via',
                         ADDR['GW_%s%s' % (me, v)], 'dev', dev])
                continue
            sh(ip + [fam, 'neigh', 'add', ADDR['GW_%s%s' % (me, v)],
                     'lladdr', gwmac, 'dev', dev, 'nud', 'permanent'])
            sh(ip + [fam, 'route', 'add', ADDR['NET_%s%s' % (other, v)],
                     'via', ADDR['GW_%s%s' % (me, v)], 'dev', dev])

    def link_stats(self, dev):
        """The kernel's counters of interface dev ('a', 'r0', 'r1', 'b'):
        {'rx': {'packets': ..., 'dropped': ...}, 'tx': {...}}."""
        out = sh(['ip', '-n', self.ns[self.node_of(dev)], '-j', '-s', 'link',
                  'show', 'dev', self.ifs[dev]])
        st = json.loads(out)[0]['stats64']
        return {'rx': st['rx'], 'tx': st['tx']}


class AppProcess:
    """An app started inside a namespace of the topology (or, topo None,
    where the caller runs), its output (line buffered: stdbuf -oL) in a
    log file. ip netns exec and stdbuf exec the command: the process is
    the app itself, signals reach it directly."""

    def __init__(self, topo, node, cmd, log_path):
        self.cmd = ['stdbuf', '-oL'] + list(cmd)
        if topo is not None:
            self.cmd = topo.cmd(node, self.cmd)
        self.log_path = log_path
        self.proc = None
        self.rc = None

    def start(self, ignore=()):
        """Start it with the signals in ignore set to SIG_IGN (inherited
        across exec, as the shell does for background jobs)."""
        def preexec():
            for sig in ignore:
                signal.signal(sig, signal.SIG_IGN)
        with open(self.log_path, 'w') as log:
            self.proc = subprocess.Popen(
                self.cmd, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=preexec if ignore else None)
        return self

    def catches(self, sig):
        """Whether the process has a handler for sig (/proc SigCgt)."""
        try:
            with open('/proc/%d/status' % self.proc.pid) as f:
                for line in f:
                    if line.startswith('SigCgt:'):
                        return bool(int(line.split()[1], 16) &
                                    (1 << (sig - 1)))
        except OSError:
            pass
        return False

    def log(self):
        try:
            with open(self.log_path, errors='replace') as f:
                return f.read()
        except OSError:
            return ''

    def tail(self, n=25):
        return '\n'.join('    | ' + l for l in self.log().splitlines()[-n:])

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def wait_for(self, text, timeout):
        """Wait until a line of the log starts with text: True, or False
        when the app exits or the time runs out first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(l.startswith(text) for l in self.log().splitlines()):
                return True
            if not self.running():
                return False
            time.sleep(0.05)
        return False

    def signal(self, sig):
        if self.running():
            self.proc.send_signal(sig)

    def wait(self, timeout):
        """Exit status, None if it had to be killed after timeout s."""
        try:
            self.rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.rc = None
        return self.rc

    def kill(self):
        if self.running():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def sweep_stale(tag):
    """Remove what a test run that died without cleaning up (SIGKILL)
    left: namespaces <tag><pid>-{a,r,b} whose process <pid> is gone, by
    exact name, and their processes. Returns those pids."""
    gone = set()
    try:
        names = os.listdir('/var/run/netns')
    except OSError:
        return []
    for name in names:
        m = re.fullmatch(re.escape(tag) + r'(\d+)-[arbc]', name)
        if m and not os.path.exists('/proc/' + m.group(1)):
            gone.add(m.group(1))
    for pid in sorted(gone):
        Topology(tag + pid, 'pe' + pid, third=True).remove()
    return sorted(gone)


def shell_assign(env):
    return ''.join('%s=%s\n' % (k, v) for k, v in env.items())


def main(argv):
    usage = ('usage: netns.py env|create|hosts|gateway|remove NS_PREFIX '
             'IF_PREFIX')
    if len(argv) != 4 or argv[1] not in ('env', 'create', 'hosts', 'gateway',
                                         'remove'):
        print(usage, file=sys.stderr)
        return 2
    topo = Topology(argv[2], argv[3])
    try:
        if argv[1] == 'env':
            sys.stdout.write(shell_assign(topo.shell_env()))
        elif argv[1] == 'create':
            macs = topo.create()
            sys.stdout.write(shell_assign({
                'MAC_A': macs['a'], 'MAC_B': macs['b'],
                'MAC_R0': macs['r0'], 'MAC_R1': macs['r1']}))
        elif argv[1] == 'hosts':
            topo.configure_hosts()
        elif argv[1] == 'gateway':
            if not topo.macs:
                topo.read_macs()
            topo.configure_gateway_hosts()
        else:
            errs = topo.remove()
            for e in errs:
                print('netns.py: ' + e, file=sys.stderr)
            return 1 if errs else 0
    except NetnsError as e:
        print('netns.py: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
