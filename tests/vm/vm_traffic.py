# SPDX-License-Identifier: BSD-3-Clause
"""make vm-test: traffic between the host namespaces through the guest's
forwarder (host A pings B; TCP each way, byte count and SHA-256).  R is
vm_test's Report (check(), info()), topo its netns.Topology of hosts a and
b.
"""

import json
import os
import re
import subprocess
import sys
import time

import netns
from netns import ADDR

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, '..', 'integration', 'lib',
                     'peer_tools.py')
PINGS = 5
TCP_TIMEOUT = 60                # every socket wait of a transfer, s


def ping_check(R, topo, v, via='npool-fwd'):
    """PINGS echo requests A->B: every reply back, ttl/hlim 63."""
    p = subprocess.run(topo.cmd('a', ['ping', '-n', '-c', str(PINGS), '-i',
                                      '0.2', '-W', '3', ADDR['B' + v]]),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=60)
    R.info(p.stdout.strip())
    got = re.search(r'(\d+) packets transmitted, (\d+) received', p.stdout)
    ttls = re.findall(r' ttl=(\d+) ', p.stdout)
    n = int(got.group(2)) if got else 0
    ok = R.check(n == PINGS and ttls == ['63'] * PINGS,
                 'ping IPv%s A->B via %s: %d/%d replies, ttl %s (B sends 64, '
                 'the router hop takes 1)' % (v, via, n, PINGS,
                                          ','.join(sorted(set(ttls))) or '-'))
    return '%d/%d ttl %s%s' % (n, PINGS, '/'.join(sorted(set(ttls))) or '-',
                               '' if ok else ' FAIL')


def json_line(text):
    for line in text.splitlines():
        if line.startswith('{'):
            return json.loads(line)
    return None


def tcp_check(R, topo, v, src, dst, port, nbytes, run):
    """nbytes over TCP src->dst (peer_tools.py): True if the sink got them
    all, SHA-256 equal."""
    what = 'TCP IPv%s %s->%s' % (v, src.upper(), dst.upper())
    sink = netns.AppProcess(topo, dst, [
        sys.executable, TOOLS, 'tcp-sink', v, '::' if v == '6' else '0.0.0.0',
        str(port), str(TCP_TIMEOUT)], os.path.join(run, 'tcp-sink.log'))
    sink.start()
    try:
        if not sink.wait_for('listening', 30):
            return R.check(False, '%s: sink did not start:\n%s' % (
                what, sink.tail()))
        t0 = time.monotonic()
        p = subprocess.run(topo.cmd(src, [
            sys.executable, TOOLS, 'tcp-source', v, ADDR[dst.upper() + v],
            str(port), str(nbytes), str(TCP_TIMEOUT)]), text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            timeout=3 * TCP_TIMEOUT)
        secs = time.monotonic() - t0
        sink.wait(30)
    finally:
        sink.kill()
    c, s = json_line(p.stdout), json_line(sink.log())
    if p.returncode != 0 or c is None or s is None:
        err = (p.stderr.strip().splitlines() or [''])[-1]
        return R.check(False, '%s: source exit %d (%s), sink:\n%s' % (
            what, p.returncode, err, sink.tail()))
    want = c['sha256']
    return R.check(c['bytes'] == s['bytes'] == c['sink_bytes'] == nbytes and
                   s['sha256'] == c['sink_sha256'] == want,
                   '%s: %d bytes sent, %d received, SHA-256 %s %s, %.2f s' % (
                       what, c['bytes'], s['bytes'], want[:16],
                       'equal' if s['sha256'] == want else
                       '!= ' + s['sha256'][:16], secs))
