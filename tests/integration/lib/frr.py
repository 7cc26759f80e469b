# SPDX-License-Identifier: BSD-3-Clause
"""FRR (zebra, staticd, bgpd) and bird2 in a network namespace, for the
tests that drive npool-fwd's control plane (python3 stdlib).

Each instance keeps every path of its own in one folder (configs, pid
files, vty sockets, zserv socket, logs), so that several run at once in
different namespaces:

    z = frr.Frr(ns, folder, zebra='fpm address 127.0.0.1\\n',
                staticd='ip route 198.18.10.0/24 198.18.1.2\\n')
    z.start()                 # zebra -M dplane_fpm_nl, then staticd
    z.vtysh('show ip route')  # vtysh against this instance's sockets
    z.restart('zebra')        # zebra again (FPM reconnects)
    z.stop()

    b = frr.Bird(ns, folder, conf)   # bird2: start(), birdc(), stop()

The daemons run as Debian's `frr` user (its vty group is frrvty): the
folder is made theirs. Root only; `available()` says whether FRR is
installed (Debian packages frr and bird2: scripts/deps.sh frr).
"""

import grp
import os
import pwd
import shutil
import subprocess
import time

from netns import kill_pid

FRR_DIR = '/usr/lib/frr'
VTYSH = shutil.which('vtysh') or '/usr/bin/vtysh'
DAEMONS = ('zebra', 'staticd', 'bgpd')


def available():
    """Why FRR cannot run here (a sentence), or None."""
    if os.geteuid() != 0:
        return 'not root (namespaces and FRR need it)'
    if not os.access(os.path.join(FRR_DIR, 'zebra'), os.X_OK):
        return 'FRR is not installed (Debian package frr: scripts/deps.sh frr)'
    try:
        pwd.getpwnam('frr')
        grp.getgrnam('frrvty')
    except KeyError:
        return 'no frr user or frrvty group (the frr package makes them)'
    return None


def bird_available():
    """Why bird2 cannot run here, or None."""
    if os.geteuid() != 0:
        return 'not root'
    if shutil.which('bird') is None or shutil.which('birdc') is None:
        return 'bird2 is not installed (scripts/deps.sh frr)'
    return None


def _ns(ns, args):
    return ['ip', 'netns', 'exec', ns] + list(args)


def _read_pid(path):
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class FrrError(RuntimeError):
    """A daemon did not start, or vtysh failed (its output inside)."""


class Frr:
    """zebra (with dplane_fpm_nl unless fpm=False) and the daemons whose
    config is given, in namespace @ns, paths under @folder."""

    def __init__(self, ns, folder, zebra='', staticd=None, bgpd=None,
                 fpm=True):
        self.ns = ns
        self.dir = os.path.abspath(folder)
        self.conf = {'zebra': zebra, 'staticd': staticd, 'bgpd': bgpd}
        self.fpm = fpm
        os.makedirs(self.dir, exist_ok=True)
        uid, gid = pwd.getpwnam('frr').pw_uid, grp.getgrnam('frr').gr_gid
        os.chown(self.dir, uid, gid)
        os.chmod(self.dir, 0o755)
        self._uid_gid = (uid, gid)

    def path(self, name):
        return os.path.join(self.dir, name)

    def daemons(self):
        """The daemons of this instance, zebra first."""
        return [d for d in DAEMONS if d == 'zebra' or
                self.conf[d] is not None]

    def _write_conf(self, d):
        text = 'hostname %s\n%s' % (d, self.conf[d] or '')
        p = self.path(d + '.conf')
        with open(p, 'w') as f:
            f.write(text)
        os.chown(p, *self._uid_gid)

    def start_one(self, d, timeout=10.0):
        """Start daemon @d alone (its config written again)."""
        self._write_conf(d)
        log = self.path(d + '.log')
        open(log, 'a').close()
        os.chown(log, *self._uid_gid)
        pidf = self.path(d + '.pid')
        if os.path.exists(pidf):
            os.unlink(pidf)
        args = [os.path.join(FRR_DIR, d), '-d', '-f', self.path(d + '.conf'),
                '-i', pidf, '-z', self.path('zserv.api'),
                '--vty_socket', self.dir, '--log', 'file:' + log,
                '--log-level', 'debugging']
        if d == 'zebra' and self.fpm:
            args += ['-M', 'dplane_fpm_nl']
        p = subprocess.run(_ns(self.ns, args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise FrrError('%s: exit %d: %s' % (d, p.returncode,
                           p.stdout.decode('utf-8', 'replace').strip()))
        # Up once its pid file and vty socket are there.
        end = time.monotonic() + timeout
        vty = self.path(d + '.vty')
        while time.monotonic() < end:
            if _read_pid(pidf) and os.path.exists(vty):
                return
            time.sleep(0.05)
        raise FrrError('%s did not start in %.0f s: %s' % (
            d, timeout, self.log_tail(d)))

    def start(self, timeout=10.0):
        """Start zebra, then the other daemons (they connect to zebra)."""
        for d in self.daemons():
            self.start_one(d, timeout)

    def pid(self, d):
        return _read_pid(self.path(d + '.pid'))

    def stop(self, only=None):
        """Stop the daemons (@only: that one), the others before zebra."""
        for d in reversed(self.daemons()):
            if only is not None and d != only:
                continue
            pid = self.pid(d)
            if pid:
                kill_pid(pid)
            try:
                os.unlink(self.path(d + '.pid'))
            except OSError:
                pass

    def restart(self, d='zebra', timeout=10.0):
        """Stop and start daemon @d (zebra: it connects to FPM again; the
        other daemons reconnect to it by themselves)."""
        self.stop(only=d)
        self.start_one(d, timeout)

    def vtysh(self, *cmds, check=True):
        """Run vtysh commands (-c each) against this instance; its
        output."""
        args = [VTYSH, '--vty_socket', self.dir]
        for c in cmds:
            args += ['-c', c]
        p = subprocess.run(_ns(self.ns, args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        out = p.stdout.decode('utf-8', 'replace')
        if check and p.returncode != 0:
            raise FrrError('vtysh %s: exit %d: %s' % (
                ' / '.join(cmds), p.returncode, out.strip()))
        return out

    def configure(self, *lines):
        """Configuration lines, as typed after "configure terminal"."""
        return self.vtysh('configure terminal', *lines)

    def fpm_counters(self):
        """zebra's `show fpm counters` as a dict of ints."""
        out = self.vtysh('show fpm counters')
        c = {}
        for line in out.splitlines():
            k, sep, v = line.partition(':')
            if sep and v.strip().isdigit():
                c[k.strip()] = int(v.strip())
        return c

    def log_tail(self, d='zebra', n=15):
        try:
            with open(self.path(d + '.log'), errors='replace') as f:
                return ''.join(f.readlines()[-n:])
        except OSError:
            return '(no log)'


class Bird:
    """bird2 in namespace @ns with config text @conf, paths under
    @folder (its control socket, pid file, config)."""

    def __init__(self, ns, folder, conf):
        self.ns = ns
        self.dir = os.path.abspath(folder)
        os.makedirs(self.dir, exist_ok=True)
        self.conf = os.path.join(self.dir, 'bird.conf')
        self.sock = os.path.join(self.dir, 'bird.ctl')
        self.pidf = os.path.join(self.dir, 'bird.pid')
        with open(self.conf, 'w') as f:
            f.write(conf)

    def start(self, timeout=10.0):
        p = subprocess.run(_ns(self.ns, ['bird', '-c', self.conf, '-s',
                                         self.sock, '-P', self.pidf]),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise FrrError('bird: exit %d: %s' % (
                p.returncode, p.stdout.decode('utf-8', 'replace').strip()))
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if _read_pid(self.pidf) and os.path.exists(self.sock):
                return
            time.sleep(0.05)
        raise FrrError('bird did not start in %.0f s' % timeout)

    def birdc(self, *cmd):
        """One birdc command; its output."""
        p = subprocess.run(_ns(self.ns, ['birdc', '-s', self.sock] +
                               list(cmd)),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        return p.stdout.decode('utf-8', 'replace')

    def stop(self):
        pid = _read_pid(self.pidf)
        if pid:
            kill_pid(pid)
