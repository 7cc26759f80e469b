#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A host of a test topology as a plain wire (python3 stdlib, root, run
inside the host's namespace): an AF_PACKET socket on IFACE, driven line
by line on stdin, each command answered "ok" on stdout:

  wire_agent.py IFACE
    case N     frames received from now on belong to case N
    send HEX   send the frame HEX out of IFACE
    dump       print {"frames": {N: [[seconds since case N, HEX], ...]}}
               (what came in, the interface's own frames left out; the
               time the kernel took each in, SO_TIMESTAMPNS), exit

so that a driver can send each case from one host and see what every
host got during it (tests/integration/kernel_cast.py). The driver's side
is Agents below.
"""

import json
import os
import select
import socket
import struct
import subprocess
import sys
import time

ETH_P_ALL = 3
# asm-generic/socket.h (SCM_TIMESTAMPNS is the same number)
SO_TIMESTAMPNS = getattr(socket, 'SO_TIMESTAMPNS', 35)


class Agents:
    """A wire_agent.py per place of topology @t (a netns.Topology):
    @places maps a name to (the node whose namespace it runs in, the key
    of the interface in t.ifs)."""

    def __init__(self, t, places):
        self.p = {}
        for name, (node, dev) in places.items():
            self.p[name] = subprocess.Popen(
                t.cmd(node, [sys.executable, os.path.abspath(__file__),
                             t.ifs[dev]]),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.ack(name)

    def ack(self, name):
        line = self.p[name].stdout.readline()
        if line.strip() != 'ok':
            raise RuntimeError('wire agent of %s: %r' % (name, line))

    def say(self, name, line):
        """A command (case N, send HEX) to the agent @name."""
        self.p[name].stdin.write(line + '\n')
        self.p[name].stdin.flush()
        self.ack(name)

    def case(self, key):
        """Case @key begins, for every agent."""
        for name in self.p:
            self.say(name, 'case ' + key)

    def dump(self):
        """{name: {case: [[seconds since the case began, HEX], ...]}};
        the agents exit."""
        got = {}
        for name, p in self.p.items():
            p.stdin.write('dump\n')
            p.stdin.flush()
            got[name] = json.loads(p.stdout.readline())['frames']
            p.wait(10)
        return got

    def kill(self):
        for p in self.p.values():
            if p.poll() is None:
                p.kill()
                p.wait()


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_ALL))
    s.bind((argv[1], 0))
    s.setblocking(False)
    # when the kernel took a frame in, not when this process got to it
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    got = {}
    case, t0 = None, time.time()
    buf = b''
    print('ok', flush=True)
    while True:
        r, _, _ = select.select([s, sys.stdin], [], [])
        if s in r:
            while True:
                try:
                    data, anc, _, addr = s.recvmsg(
                        65536, socket.CMSG_SPACE(16))
                except BlockingIOError:
                    break
                at = time.time()
                for level, typ, val in anc:
                    if (level, typ) == (socket.SOL_SOCKET,
                                        SO_TIMESTAMPNS) and len(val) >= 16:
                        sec, ns = struct.unpack('qq', val[:16])
                        at = sec + ns * 1e-9
                if addr[2] != socket.PACKET_OUTGOING and case is not None:
                    got.setdefault(case, []).append(
                        [round(at - t0, 4), data.hex()])
        if sys.stdin not in r:
            continue
        more = os.read(sys.stdin.fileno(), 1 << 20)
        if not more:
            return 0
        buf += more
        while b'\n' in buf:
            line, buf = buf.split(b'\n', 1)
            w = line.decode().split()
            if not w:
                continue
            if w[0] == 'case':
                case, t0 = w[1], time.time()
            elif w[0] == 'send':
                s.send(bytes.fromhex(w[1]))
            elif w[0] == 'dump':
                print(json.dumps({'frames': got}), flush=True)
                return 0
            print('ok', flush=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
