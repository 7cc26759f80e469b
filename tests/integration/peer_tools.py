#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Traffic ends that run inside a host namespace of netns.py (ip netns
exec NS python3 peer_tools.py ...); each prints one JSON line with what it
saw, and every wait is bounded by a timeout (python3 stdlib only).

  tcp-sink FAM BIND PORT TIMEOUT        accept one connection, count bytes
                                        and SHA-256, send "bytes sha256"
                                        back; prints "listening" first
  tcp-source FAM ADDR PORT BYTES TIMEOUT
                                        send BYTES pseudo-random bytes, read
                                        the sink's reply
  udp-recv FAM BIND PORT COUNT TIMEOUT  receive COUNT datagrams (or until
                                        TIMEOUT s pass without one): the
                                        TTL / hop limit of each from
                                        IP_RECVTTL / IPV6_RECVHOPLIMIT and
                                        the SHA-256 of each payload;
                                        prints "listening" first
  udp-send FAM ADDR PORT COUNT TTL SEED send COUNT datagrams with TTL /
                                        hop limit TTL, payload i of size
                                        SIZES[i % len] made from SEED and i

FAM is 4 or 6.
"""

import hashlib
import json
import random
import socket
import struct
import sys
import time

# Linux <linux/in.h>: the ancillary TTL option python does not name
IP_RECVTTL = getattr(socket, 'IP_RECVTTL', 12)
# UDP payload sizes: empty, tiny, frames below the 60-byte Ethernet
# minimum, and up to a 1500-byte MTU (1472 over IPv4, 1452 over IPv6)
SIZES = (0, 1, 17, 18, 64, 512, 1000, 1452)
TCP_SEED = 0x6e706f6f6c


def family(s):
    return socket.AF_INET6 if s == '6' else socket.AF_INET


def out(obj):
    print(json.dumps(obj), flush=True)


def tcp_sink(fam, addr, port, tmo):
    s = socket.socket(family(fam), socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, int(port)))
    s.listen(1)
    s.settimeout(float(tmo))
    print('listening', flush=True)
    c, peer = s.accept()
    c.settimeout(float(tmo))
    h, n = hashlib.sha256(), 0
    while True:
        b = c.recv(1 << 16)
        if not b:
            break
        h.update(b)
        n += len(b)
    c.sendall(('%d %s\n' % (n, h.hexdigest())).encode())
    c.close()
    out({'bytes': n, 'sha256': h.hexdigest(), 'peer': peer[0]})


def tcp_source(fam, addr, port, nbytes, tmo):
    n = int(nbytes)
    data = random.Random(TCP_SEED).randbytes(n)
    sha = hashlib.sha256(data).hexdigest()
    deadline = time.monotonic() + 5
    while True:
        try:
            s = socket.create_connection((addr, int(port)),
                                         timeout=float(tmo))
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    t0 = time.monotonic()
    mv = memoryview(data)
    for off in range(0, n, 1 << 16):
        s.sendall(mv[off:off + (1 << 16)])
    s.shutdown(socket.SHUT_WR)
    reply = b''
    while True:
        b = s.recv(4096)
        if not b:
            break
        reply += b
    dt = time.monotonic() - t0
    s.close()
    rb, rsha = reply.decode().split()
    out({'bytes': n, 'sha256': sha, 'seconds': round(dt, 3),
         'sink_bytes': int(rb), 'sink_sha256': rsha})


def payload(seed, i):
    size = SIZES[i % len(SIZES)]
    return random.Random(int(seed) * 1000003 + i).randbytes(size)


def udp_recv(fam, addr, port, count, tmo):
    v6 = fam == '6'
    s = socket.socket(family(fam), socket.SOCK_DGRAM)
    # room for a whole run even if this process is slow to read
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    if v6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVHOPLIMIT, 1)
        want = (socket.IPPROTO_IPV6, socket.IPV6_HOPLIMIT)
    else:
        s.setsockopt(socket.IPPROTO_IP, IP_RECVTTL, 1)
        want = (socket.IPPROTO_IP, socket.IP_TTL)
    s.bind((addr, int(port)))
    s.settimeout(float(tmo))
    print('listening', flush=True)
    ttls, digests, peers = [], [], set()
    while len(digests) < int(count):
        try:
            data, anc, _, peer = s.recvmsg(65536, socket.CMSG_SPACE(4))
        except socket.timeout:
            break
        ttl = None
        for level, typ, val in anc:
            if (level, typ) == want and len(val) >= 4:
                ttl = struct.unpack('i', val[:4])[0]
        ttls.append(ttl)
        digests.append(hashlib.sha256(data).hexdigest())
        peers.add(peer[0])
    out({'count': len(digests), 'ttls': ttls, 'digests': digests,
         'peers': sorted(peers)})


def udp_send(fam, addr, port, count, ttl, seed):
    s = socket.socket(family(fam), socket.SOCK_DGRAM)
    if fam == '6':
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, int(ttl))
    else:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, int(ttl))
    digests = []
    for i in range(int(count)):
        p = payload(seed, i)
        s.sendto(p, (addr, int(port)))
        digests.append(hashlib.sha256(p).hexdigest())
    out({'count': len(digests), 'ttl': int(ttl), 'digests': digests})


TOOLS = {
    'tcp-sink': (tcp_sink, 4),
    'tcp-source': (tcp_source, 5),
    'udp-recv': (udp_recv, 5),
    'udp-send': (udp_send, 6),
}


def main(argv):
    tool = TOOLS.get(argv[1] if len(argv) > 1 else None)
    if tool is None or len(argv) != 2 + tool[1]:
        print(__doc__, file=sys.stderr)
        return 2
    tool[0](*argv[2:])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
