#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Running a DPDK tool and reading its packet counters over DPDK telemetry
(/ethdev/stats on the process's socket) for a fixed window."""

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import time


def runtime_dir(prefix):
    if os.geteuid() == 0:
        base = '/var/run/dpdk'
    else:
        base = os.path.join(os.environ.get('XDG_RUNTIME_DIR', '/tmp'),
                            'dpdk')
    return os.path.join(base, prefix)


class NotReady(Exception):
    """The process answers, its port is not there yet (null stats)."""


class Telemetry:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.s.settimeout(5)
        self.s.connect(path)
        self.s.recv(16384)  # {"version": ..., "pid": ...}

    def query(self, cmd):
        """The reply to one command, e.g. '/ethdev/stats,0' (None when
        the process answers null: unknown or failed command)."""
        self.s.send(cmd.encode())
        return json.loads(self.s.recv(65536))[cmd.split(',')[0]]

    def stats(self, port):
        return self.query('/ethdev/stats,%d' % port)

    def read(self, counters):
        """{(port, key): value} and the time in the middle of the reads."""
        t0 = time.monotonic()
        out = {}
        for port in sorted({p for p, _ in counters}):
            st = self.stats(port)
            if st is None:
                raise NotReady('no /ethdev/stats of port %d' % port)
            for p, k in counters:
                if p == port:
                    out[(p, k)] = st[k]
        return (t0 + time.monotonic()) / 2, out

    def close(self):
        self.s.close()


def _pdeathsig():
    # The tool dies with us (l3fwd would run forever otherwise).
    try:
        ctypes.CDLL('libc.so.6', use_errno=True).prctl(1, signal.SIGTERM)
    except OSError:
        pass


class RunError(Exception):
    pass


def connect(p, sock, timeout=20):
    """A Telemetry client of process p once its socket `sock` answers;
    RunError if p exits first or after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if p.poll() is not None:
            raise RunError('exited with status %d before running'
                           % p.returncode)
        if os.path.exists(sock):
            try:
                return Telemetry(sock)
            except OSError:
                pass
        if time.monotonic() > deadline:
            raise RunError('no telemetry socket after %d s' % timeout)
        time.sleep(0.02)


def measure(cmd, prefix, counters, stop, warmup, window, log_path,
            sidecar=None):
    """Start @cmd, read @counters over the window; returns
    ({(port, key): delta}, seconds, exit status). @sidecar (an object
    with start() and stop(), or None) runs beside the tool from the
    first packet to the end of the window: a control plane's load."""
    rdir = runtime_dir(prefix)
    sock = os.path.join(rdir, 'dpdk_telemetry.v2')
    shutil.rmtree(rdir, ignore_errors=True)
    with open(log_path, 'w') as log:
        log.write(' '.join(cmd) + '\n')
        log.flush()
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                             stdout=log, stderr=subprocess.STDOUT,
                             preexec_fn=_pdeathsig)
    tel = None
    try:
        tel = connect(p, sock)
        main_ctr = counters[0]
        deadline = time.monotonic() + 20
        while True:
            try:
                if tel.read([main_ctr])[1][main_ctr] != 0:
                    break
            except NotReady:
                pass
            if p.poll() is not None:
                raise RunError('exited with status %d' % p.returncode)
            if time.monotonic() > deadline:
                raise RunError('no packets counted after 20 s')
            time.sleep(0.02)
        if sidecar is not None:
            sidecar.start()
        time.sleep(warmup)
        t0, c0 = tel.read(counters)
        time.sleep(window)
        t1, c1 = tel.read(counters)
        if sidecar is not None:
            sidecar.stop()
            sidecar = None
        if p.poll() is not None:
            raise RunError('exited with status %d while measured'
                           % p.returncode)
    except (OSError, ValueError, KeyError, NotReady) as e:
        # The process went away under the client: say how it exited.
        try:
            rc = p.wait(timeout=2)
        except subprocess.TimeoutExpired:
            raise RunError('telemetry: %s' % e)
        raise RunError('exited with status %d' % rc)
    finally:
        if sidecar is not None:
            sidecar.stop()
        if tel is not None:
            tel.close()
        status = _stop(p, stop)
        shutil.rmtree(rdir, ignore_errors=True)
    return {k: c1[k] - c0[k] for k in counters}, t1 - t0, status


def _stop(p, how):
    if p.poll() is None:
        try:
            if how == 'stdin':
                p.stdin.write(b'\n')
                p.stdin.flush()
            else:
                p.send_signal(signal.SIGINT)
        except (OSError, ValueError):
            pass
    try:
        p.wait(timeout=15)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    if p.stdin:
        try:
            p.stdin.close()
        except OSError:
            pass
    return p.returncode
