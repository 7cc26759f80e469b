#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A host of a test topology as a plain wire (python3 stdlib, root, run
inside the host's namespace): an AF_PACKET socket on IFACE, driven line
by line on stdin, each command answered "ok" on stdout:

  wire_agent.py IFACE
    case N     frames received from now on belong to case N
    send HEX   send the frame HEX out of IFACE
    dump       print {"frames": {N: [[seconds since case N, HEX], ...]}}
               (what came in, the interface's own frames left out), exit

so that a driver can send each case from one host and see what every
host got during it (tests/integration/kernel_cast.py).
"""

import json
import os
import select
import socket
import sys
import time

ETH_P_ALL = 3


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_ALL))
    s.bind((argv[1], 0))
    s.setblocking(False)
    got = {}
    case, t0 = None, time.monotonic()
    buf = b''
    print('ok', flush=True)
    while True:
        r, _, _ = select.select([s, sys.stdin], [], [])
        if s in r:
            while True:
                try:
                    data, addr = s.recvfrom(65536)
                except BlockingIOError:
                    break
                if addr[2] != socket.PACKET_OUTGOING and case is not None:
                    got.setdefault(case, []).append(
                        [round(time.monotonic() - t0, 4), data.hex()])
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
                case, t0 = w[1], time.monotonic()
            elif w[0] == 'send':
                s.send(bytes.fromhex(w[1]))
            elif w[0] == 'dump':
                print(json.dumps({'frames': got}), flush=True)
                return 0
            print('ok', flush=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
