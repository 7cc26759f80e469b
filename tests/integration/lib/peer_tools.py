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
  udp-flows-recv FAM BIND PORT TOTAL TIMEOUT
                                        receive TOTAL datagrams of flows
                                        (or until TIMEOUT s pass without
                                        one): count each source port's,
                                        check each payload names its flow
                                        and sequence; prints "listening"
  udp-flows-send FAM ADDR PORT FLOWS COUNT PPS
                                        COUNT datagrams from each of FLOWS
                                        sockets (FLOWS source ports),
                                        round-robin, PPS datagrams a second
  tcp-flows-sink FAM BIND PORT FLOWS TIMEOUT
                                        accept FLOWS connections, read
                                        each to its end, answer its byte
                                        count; prints "listening"
  raw-exchange IFACE WAIT               frames (hex, one a line) from stdin
                                        sent one by one on IFACE
                                        (AF_PACKET), each followed by WAIT s
                                        of listening: per frame, the frames
                                        that came in (hex) meanwhile
  raw-capture IFACE                     prints "ready", then every frame
                                        IFACE receives until stdin
                                        closes (hex, as JSON)
  tcp-flows-source FAM ADDR PORT FLOWS BYTES PPS TIMEOUT
                                        BYTES over each of FLOWS
                                        connections, 1 KiB writes
                                        round-robin, PPS writes a second;
                                        the sinks' counts, the kernel's
                                        retransmissions (TCP_INFO) and the
                                        namespace's TcpExt counters of
                                        them (loss probes, RTOs, DSACKs)

FAM is 4 or 6.
"""

import hashlib
import json
import random
import select
import selectors
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


def recv_all(s, bufsize):
    """What the socket `s` receives until its peer shuts down."""
    data = b''
    while True:
        b = s.recv(bufsize)
        if not b:
            return data
        data += b


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
    reply = recv_all(s, 4096)
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


FLOW_CHUNK = 1024
# struct tcp_info (linux/tcp.h): 8 bytes of u8 fields, then u32s;
# tcpi_total_retrans is the 24th u32.
TCPI_TOTAL_RETRANS = 8 + 23 * 4


# /proc/net/netstat TcpExt counters (of the namespace) that say why
# segments were sent again and whether the peer had them already (DSACK).
TCPEXT = ('TCPLossProbes', 'TCPTimeouts', 'TCPFastRetrans', 'TCPDSACKRecv',
          'TCPSpuriousRTOs')


def tcpext():
    with open('/proc/net/netstat') as f:
        lines = [ln.split() for ln in f if ln.startswith('TcpExt:')]
    vals = dict(zip(lines[0][1:], (int(v) for v in lines[1][1:])))
    return {k: vals.get(k, 0) for k in TCPEXT}


def pace(t0, k, pps):
    """Sleep until the k-th event of a PPS-a-second schedule from t0."""
    delay = t0 + k / float(pps) - time.monotonic()
    if delay > 0:
        time.sleep(delay)


def flow_payload(flow, seq):
    return ('npvm flow %d seq %d ' % (flow, seq)).encode().ljust(64, b'.')


def udp_flows_recv(fam, addr, port, total, tmo):
    s = socket.socket(family(fam), socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind((addr, int(port)))
    s.settimeout(float(tmo))
    print('listening', flush=True)
    flows, seen, bad, n = {}, set(), 0, 0
    while n < int(total):
        try:
            data, peer = s.recvfrom(2048)
        except socket.timeout:
            break
        n += 1
        words = data.split()
        key = (peer[1], data[:32])
        try:
            ok = words[0] == b'npvm' and data == flow_payload(
                int(words[2]), int(words[4]))
        except (IndexError, ValueError):
            ok = False
        if not ok or key in seen:
            bad += 1
            continue
        seen.add(key)
        flows[peer[1]] = flows.get(peer[1], 0) + 1
    out({'count': n, 'bad': bad, 'flows': flows})


def udp_flows_send(fam, addr, port, nflows, count, pps):
    socks = []
    for _ in range(int(nflows)):
        s = socket.socket(family(fam), socket.SOCK_DGRAM)
        s.bind(('::' if fam == '6' else '0.0.0.0', 0))
        socks.append(s)
    t0, k = time.monotonic(), 0
    for seq in range(int(count)):
        for f, s in enumerate(socks):
            pace(t0, k, pps)
            s.sendto(flow_payload(f, seq), (addr, int(port)))
            k += 1
    dt = time.monotonic() - t0
    out({'sent': k, 'ports': [s.getsockname()[1] for s in socks],
         'seconds': round(dt, 3)})


def tcp_flows_sink(fam, addr, port, nflows, tmo):
    lsn = socket.socket(family(fam), socket.SOCK_STREAM)
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind((addr, int(port)))
    lsn.listen(int(nflows))
    lsn.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(lsn, selectors.EVENT_READ)
    print('listening', flush=True)
    got, done = {}, {}
    while len(done) < int(nflows):
        events = sel.select(float(tmo))
        if not events:
            break
        for key, _ in events:
            if key.fileobj is lsn:
                c, peer = lsn.accept()
                c.setblocking(False)
                got[c] = [peer[1], 0]
                sel.register(c, selectors.EVENT_READ)
                continue
            c = key.fileobj
            b = c.recv(1 << 16)
            if b:
                got[c][1] += len(b)
                continue
            sel.unregister(c)
            c.setblocking(True)
            c.sendall(b'%d\n' % got[c][1])
            c.close()
            done[got[c][0]] = got[c][1]
    out({'conns': len(done), 'bytes': done})


def tcp_flows_source(fam, addr, port, nflows, nbytes, pps, tmo):
    socks = []
    deadline = time.monotonic() + 5
    while len(socks) < int(nflows):
        try:
            socks.append(socket.create_connection((addr, int(port)),
                                                  timeout=float(tmo)))
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    ext0 = tcpext()
    t0, k, n = time.monotonic(), 0, int(nbytes)
    for off in range(0, n, FLOW_CHUNK):
        for f, s in enumerate(socks):
            pace(t0, k, pps)
            s.sendall(flow_payload(f, off).ljust(FLOW_CHUNK, b'.')[
                :min(FLOW_CHUNK, n - off)])
            k += 1
    replies, retrans = [], 0
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.shutdown(socket.SHUT_WR)
    for s in socks:
        reply = recv_all(s, 64)
        info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
        retrans += struct.unpack_from('I', info, TCPI_TOTAL_RETRANS)[0]
        replies.append(int(reply or b'-1'))
        s.close()
    dt = time.monotonic() - t0
    ext = {k: v - ext0[k] for k, v in tcpext().items()}
    out({'conns': len(socks), 'bytes_each': n, 'ports': ports,
         'acked': replies, 'retrans': retrans, 'tcpext': ext,
         'seconds': round(dt, 3)})


def raw_exchange(iface, wait):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((iface, 0))
    s.settimeout(0.05)
    got = []
    for line in sys.stdin:
        if not line.strip():
            continue
        s.send(bytes.fromhex(line.strip()))
        seen = []
        end = time.monotonic() + float(wait)
        while time.monotonic() < end:
            try:
                data, addr = s.recvfrom(65536)
            except socket.timeout:
                continue
            if addr[2] != socket.PACKET_OUTGOING:
                seen.append(data.hex())
        got.append(seen)
    out({'frames': got})


def raw_capture(iface):
    """Every frame IFACE receives from the moment 'ready' is printed until
    stdin closes, as hex."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((iface, 0))
    print('ready', flush=True)
    got = []
    while True:
        r, _, _ = select.select([s, sys.stdin], [], [], 1.0)
        if s in r:
            data, addr = s.recvfrom(65536)
            if addr[2] != socket.PACKET_OUTGOING:
                got.append(data.hex())
        if sys.stdin in r and not sys.stdin.readline():
            break
    out({'frames': got})


TOOLS = {
    'tcp-sink': (tcp_sink, 4),
    'tcp-source': (tcp_source, 5),
    'udp-recv': (udp_recv, 5),
    'udp-send': (udp_send, 6),
    'udp-flows-recv': (udp_flows_recv, 5),
    'udp-flows-send': (udp_flows_send, 6),
    'tcp-flows-sink': (tcp_flows_sink, 5),
    'tcp-flows-source': (tcp_flows_source, 7),
    'raw-exchange': (raw_exchange, 2),
    'raw-capture': (raw_capture, 1),
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
