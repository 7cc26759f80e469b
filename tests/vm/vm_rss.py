# SPDX-License-Identifier: BSD-3-Clause
"""make vm-test, the RSS part of a multi-queue run (-device igb): flows
from each host, the RX queue each one hashes to, the per-queue shares.

npool-fwd polls each port on NQ RX queues; it asks for RSS with the PMD's
default key (rss_key NULL: net_e1000_igb writes rss_intel_key, the
Toeplitz key of Microsoft's RSS specification, below) and writes a RETA
of 128 entries, entry i -> queue i % NQ.  The 82576 (QEMU's igb model,
hw/net/igb_core.c) hashes IPv4/IPv6 TCP and UDP over source address,
destination address, source port, destination port and takes RETA[hash
& 127].  So the queue of every flow is known on the host before it is
sent (flow_queue()).

The flows, from each host and over IPv4 and IPv6: FLOWS UDP flows of
UDP_COUNT datagrams each (FLOWS sockets, FLOWS source ports), paced at
UDP_PPS, then FLOWS TCP connections of TCP_BYTES each, 1 KiB writes paced
at TCP_PPS (peer_tools.py udp-flows-* and tcp-flows-*).  Around each
phase the guest's npool-fwd is read over telemetry (snapshots): per port,
the rx of each queue.  Checked: every datagram arrived once, intact; every
TCP byte arrived, and every segment the sender sent again had arrived the
first time (the sink answered it with a DSACK).  Tail loss probes are off
in both hosts (net.ipv4.tcp_early_retrans=0): under TCG a guest stall of
a few ms fires one (after 2 x SRTT, SRTT well under 1 ms); a probe of the
last segment or FIN can get its DSACK when the socket is already in
TIME_WAIT, uncounted (seen: 1-4 probes per 256 connections, 0 DSACKs,
nothing dropped anywhere on the path).  Only an RTO (200 ms at least)
sends again then.
In the UDP phase each queue received
exactly the datagrams of the flows predicted for it (a RETA, key or hash
input other than the above gives other counts); in the TCP phase each
queue got at least MIN_SHARE of the port's packets.
"""

import json
import socket
import sys

import netns
from netns import ADDR

# drivers/net/e1000/igb_rxtx.c rss_intel_key (DPDK 22.11 .. 25.11).
RSS_KEY = bytes.fromhex('6d5a56da255b0ec24167253d43a38fb0d0ca2bcb'
                        'ae7b30b477cb2da38030f20c6a42b73bbeac01fa')
RETA_SIZE = 128                 # 82576: RTE_ETH_RSS_RETA_SIZE_128
FLOWS = 64                      # per host, protocol and IP version
UDP_COUNT = 8                   # datagrams per UDP flow
UDP_PPS = 1000
TCP_BYTES = 8192                # per TCP flow
TCP_PPS = 1000                  # 1 KiB writes a second, all flows together
MIN_SHARE = 0.2                 # of a port's TCP-phase packets, each queue
TIMEOUT = 30                    # s, every wait of a flow tool
UDP_PORT, TCP_PORT = 6100, 6200


def toeplitz(key, data):
    """The Toeplitz hash of data (bytes) under key (len(data) + 4 bytes at
    least): for each set bit i of data, msb first, the 32 key bits from
    bit i on are xor'ed in."""
    k, kbits = int.from_bytes(key, 'big'), len(key) * 8
    h = 0
    for i in range(len(data) * 8):
        if data[i >> 3] & (0x80 >> (i & 7)):
            h ^= (k >> (kbits - 32 - i)) & 0xffffffff
    return h


# The verification examples of Microsoft's RSS specification ("Verifying
# the RSS hash calculation"): 4-tuple and hash under RSS_KEY.
SPEC_EXAMPLES = (('4', '66.9.149.187', '161.142.100.80', 2794, 1766,
                  0x51ccc178),
                 ('6', '3ffe:2501:200:1fff::7', '3ffe:2501:200:3::1', 2794,
                  1766, 0x40207d3d))


def tuple_bytes(v, src, dst, sport, dport):
    fam = socket.AF_INET6 if v == '6' else socket.AF_INET
    return (socket.inet_pton(fam, src) + socket.inet_pton(fam, dst) +
            sport.to_bytes(2, 'big') + dport.to_bytes(2, 'big'))


def flow_queue(v, src, dst, sport, dport, nq):
    """RX queue of a TCP/UDP packet src:sport -> dst:dport (IP version v)
    under npool-fwd's RETA (entry i -> queue i % nq)."""
    data = tuple_bytes(v, src, dst, sport, dport)
    return (toeplitz(RSS_KEY, data) & (RETA_SIZE - 1)) % nq


def shares(counts):
    total = sum(counts)
    return [c / total if total else 0.0 for c in counts]


def share_str(counts):
    return ' '.join('q%d %d%%' % (q, round(100 * s))
                    for q, s in enumerate(shares(counts)))


def delta(before, after, port):
    """Per-queue rx of port between two snapshots."""
    b = before['ports'][str(port)]['rx_queues']
    a = after['ports'][str(port)]['rx_queues']
    return [x - y for x, y in zip(a, b)]


class Flows:
    """The flows phases of one npool-fwd run.  report: vm_test's Report;
    topo: the Topology; tools: peer_tools.py; snapshot(name): the guest's
    telemetry then; nq: RX queues per port; log_dir: the run folder, where
    each flow tool logs to TAG-<what>.log."""

    def __init__(self, report, topo, tools, snapshot, nq, log_dir, tag):
        self.R, self.topo, self.tools = report, topo, tools
        self.snapshot, self.nq, self.dir = snapshot, nq, log_dir
        self.tag = tag
        # predicted packets (UDP) / flows (TCP) per queue, per port
        self.udp_want = [[0] * nq for _ in range(2)]
        self.tcp_flows = [[0] * nq for _ in range(2)]
        self.ok = True

    def _end(self, node, args, name):
        p = netns.AppProcess(self.topo, node, [sys.executable, self.tools] +
                             [str(a) for a in args],
                             '%s/%s-%s.log' % (self.dir, self.tag, name))
        p.start()
        return p

    @staticmethod
    def _json(text):
        for line in text.splitlines():
            if line.startswith('{'):
                return json.loads(line)
        return None

    def _pair(self, what, sink_args, src, src_args, name):
        """Start the receiving end (prints "listening"), run the sending
        end to its end: (sender's JSON, receiver's JSON) or None."""
        dst = 'b' if src == 'a' else 'a'
        sink = self._end(dst, sink_args, name + '-rx')
        try:
            if not sink.wait_for('listening', 30):
                self.ok &= self.R.check(False, '%s: receiver did not start:'
                                        '\n%s' % (what, sink.tail()))
                return None
            snd = self._end(src, src_args, name + '-tx')
            snd.wait(3 * TIMEOUT)
            sink.wait(TIMEOUT + 10)
            s, r = self._json(snd.log()), self._json(sink.log())
        finally:
            sink.kill()
        if s is None or r is None:
            self.ok &= self.R.check(False, '%s: sender:\n%s\nreceiver:\n%s'
                                    % (what, snd.tail(), sink.tail()))
            return None
        return s, r

    def udp(self, v, src):
        dst = 'b' if src == 'a' else 'a'
        S, D = src.upper(), dst.upper()
        what = 'UDP IPv%s %s->%s, %d flows x %d' % (v, S, D, FLOWS, UDP_COUNT)
        got = self._pair(what, ['udp-flows-recv', v, '::' if v == '6' else
                                '0.0.0.0', UDP_PORT, FLOWS * UDP_COUNT,
                                TIMEOUT // 3],
                         src, ['udp-flows-send', v, ADDR[D + v], UDP_PORT,
                               FLOWS, UDP_COUNT, UDP_PPS],
                         'udp%s-%s' % (v, src))
        if got is None:
            return
        s, r = got
        port = 0 if src == 'a' else 1
        for sport in s['ports']:
            q = flow_queue(v, ADDR[S + v], ADDR[D + v], sport, UDP_PORT,
                           self.nq)
            self.udp_want[port][q] += UDP_COUNT
        per = sorted(r['flows'].values())
        self.ok &= self.R.check(
            s['sent'] == r['count'] == FLOWS * UDP_COUNT and r['bad'] == 0 and
            len(r['flows']) == len(set(s['ports'])) == FLOWS and
            per == [UDP_COUNT] * FLOWS,
            '%s: sent %d, received %d (%d flows, %s-%s each), bad %d, lost %d,'
            ' %.2f s' % (what, s['sent'], r['count'], len(r['flows']),
                         per[0] if per else 0, per[-1] if per else 0,
                         r['bad'], s['sent'] - r['count'], s['seconds']))

    def tcp(self, v, src):
        dst = 'b' if src == 'a' else 'a'
        S, D = src.upper(), dst.upper()
        what = 'TCP IPv%s %s->%s, %d flows x %d B' % (v, S, D, FLOWS,
                                                      TCP_BYTES)
        got = self._pair(what, ['tcp-flows-sink', v, '::' if v == '6' else
                                '0.0.0.0', TCP_PORT, FLOWS, TIMEOUT],
                         src, ['tcp-flows-source', v, ADDR[D + v], TCP_PORT,
                               FLOWS, TCP_BYTES, TCP_PPS, TIMEOUT],
                         'tcp%s-%s' % (v, src))
        if got is None:
            return
        s, r = got
        # Data in at the source's port, ACKs in at the other (the reverse
        # 4-tuple: another hash).
        p_in = 0 if src == 'a' else 1
        for sport in s['ports']:
            self.tcp_flows[p_in][flow_queue(v, ADDR[S + v], ADDR[D + v],
                                            sport, TCP_PORT, self.nq)] += 1
            self.tcp_flows[1 - p_in][flow_queue(v, ADDR[D + v], ADDR[S + v],
                                                TCP_PORT, sport,
                                                self.nq)] += 1
        got_bytes = sorted(r['bytes'].values())
        # A segment sent again that the sink had already is answered with a
        # DSACK: a retransmission without one means a segment was lost.
        ext = s['tcpext']
        self.ok &= self.R.check(
            s['conns'] == r['conns'] == FLOWS and
            s['acked'] == [TCP_BYTES] * FLOWS and
            got_bytes == [TCP_BYTES] * FLOWS and
            s['retrans'] <= ext['TCPDSACKRecv'],
            '%s: %d connections, %d B each counted by the sink (%d of %d), '
            '%.2f s; sent again %d (loss probes %d, RTOs %d, fast %d), all '
            'had arrived (DSACKs %d)' % (
                what, r['conns'], TCP_BYTES,
                sum(1 for b in s['acked'] if b == TCP_BYTES), FLOWS,
                s['seconds'], s['retrans'], ext['TCPLossProbes'],
                ext['TCPTimeouts'], ext['TCPFastRetrans'],
                ext['TCPDSACKRecv']))

    def run(self):
        """All phases; returns {'udp': [[q...], [q...]], 'tcp': ...,
        'flows': ...}: measured rx per queue of ports 0 and 1."""
        got = [toeplitz(RSS_KEY, tuple_bytes(*e[:5])) for e in SPEC_EXAMPLES]
        self.ok &= self.R.check(
            got == [e[5] for e in SPEC_EXAMPLES],
            'the predictor\'s Toeplitz hash on the RSS specification\'s '
            'examples: %s (want %s)' % (
                ', '.join('%#010x' % h for h in got),
                ', '.join('%#010x' % e[5] for e in SPEC_EXAMPLES)))
        for n in ('a', 'b'):
            self.topo.run(n, ['sysctl', '-qw', 'net.ipv4.tcp_early_retrans=0'])
        s0 = self.snapshot('flows-start')
        for v in ('4', '6'):
            for src in ('a', 'b'):
                self.udp(v, src)
        s1 = self.snapshot('udp-done')
        for v in ('4', '6'):
            for src in ('a', 'b'):
                self.tcp(v, src)
        s2 = self.snapshot('tcp-done')
        res = {'udp': [delta(s0, s1, p) for p in (0, 1)],
               'tcp': [delta(s1, s2, p) for p in (0, 1)],
               'flows': [delta(s0, s2, p) for p in (0, 1)]}
        for p in (0, 1):
            got, want = res['udp'][p], self.udp_want[p]
            self.ok &= self.R.check(
                got == want and all(want),
                'port %d, UDP phase: rx per queue %s = predicted by the '
                'Toeplitz hash of each flow %s (%s)' % (
                    p, got, want, share_str(got)))
            got, fl = res['tcp'][p], self.tcp_flows[p]
            self.ok &= self.R.check(
                sum(got) > 0 and min(shares(got)) >= MIN_SHARE,
                'port %d, TCP phase: rx per queue %s (%s; flows hashed '
                'there %s), each queue >= %d%%' % (
                    p, got, share_str(got), fl, round(100 * MIN_SHARE)))
        return res
