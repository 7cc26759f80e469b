#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Routes changed under traffic, never a wrong answer (issue 34): npool-fwd
forwards a looping capture while an FPM peer (lib/fpm_client.py) adds and
removes host routes at --rate changes a second, and every packet must leave
by its stable route.

  100 stable /24s, 10.0.0.0/24 .. 10.0.99.0/24 (a route file): the even
  ones to port 1, the odd ones to port 2.
  Host routes 10.0.X.H/32 to port 3 (FPM, on the interface "lo" that
  --fpm-if maps to port 3), 51 of them in place at any time: step i
  deletes the one of /24 i and adds one (another host H each round, 25000
  host routes in turn) to /24 i + 51, so that the delete gives the /24's
  rte_lpm tbl8 group back and the add, an odd distance away (the other
  port), takes the lowest free group: that one, at once.
  The traffic: UDP to 10.0.X.1 of the even /24s only.

So a lookup is right when the packet leaves port 1: one that leaves port
2 read a /24's group after it went to an odd /24, one that leaves port 3
read a host route's entry, and one dropped as no_route read a group
being filled. A CPU hog shares the forwarding lcore's CPU (its lookups
are then cut anywhere, for milliseconds, as an interrupt or a preemption
cuts them), while the control thread writes from the other CPU: with
RCU (the build's default) a group waits for the lcore's next quiescent
state; with -Dfwd_rcu=false (--expect-failures, the build that shows why
RCU is there) it is taken at once, and this test must see wrong answers:
a lookup cut between its tbl24 and tbl8 reads is rare (about one in 2 s
here, AMD EPYC family 26), so that run lasts 20 s.

With --lookup fib the tables are rte_fib's DIR24_8, whose tbl8 groups
(lowest free first as well) have no RCU of their own in DPDK 22.11: the
control side synchronizes before an add that follows a delete past /24.

  fwd_churn.py --app build/apps/fwd/npool-fwd [--seconds S] [--rate N]
               [--lookup lpm|fib] [--expect-failures] [--keep]
Exit 0 pass, 1 fail, 77 skip (fewer than 2 CPUs).
"""

import argparse
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import fpm_client  # noqa: E402
import harness  # noqa: E402
import packets  # noqa: E402
import pcaplib  # noqa: E402

NETS = 100         # stable /24s
LIVE = 51          # host routes in place at any time: odd (fpm_client.Churn)


def net(x):
    return '10.%d.%d' % (x >> 8, x & 255)


def write_inputs(work):
    """The route file and the capture of traffic to the even /24s."""
    rules = work.file('routes4.cfg')
    with open(rules, 'w') as f:
        for x in range(NETS):
            f.write('R%s.0/24 %d\n' % (net(x), 1 + (x & 1)))
    frames = [packets.eth(packets.ipv4(src='198.18.0.2',
                                       dst='%s.1' % net(x),
                                       payload=packets.udp(b'churn')))
              for x in range(0, NETS, 2)]
    cap = work.file('traffic.pcap')
    pcaplib.write(cap, frames)
    return rules, cap


# A real-time thread on the lcore's CPU: busy for a millisecond, asleep
# for one, so that the lcore (SCHED_OTHER) is cut about 500 times a
# second wherever it is, as an interrupt or a preemption cuts it.
HOG = """
import time
while True:
    t = time.monotonic()
    while time.monotonic() - t < 0.001:
        pass
    time.sleep(0.001)
"""


def hog(cpu):
    """The cutting thread on @cpu (SCHED_FIFO where chrt may, else a
    plain busy loop sharing the CPU)."""
    cmd = ['taskset', '-c', str(cpu), sys.executable, '-c', HOG]
    if os.geteuid() == 0:
        cmd = ['chrt', '-f', '10'] + cmd
    return subprocess.Popen(cmd, start_new_session=True)


def port_tx(js, p):
    for port in js.get('ports', []):
        if port.get('port') == p:
            return port.get('tx')
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--seconds', type=float, default=4.0)
    ap.add_argument('--rate', type=int, default=10000)
    ap.add_argument('--expect-failures', action='store_true')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--lookup', choices=('lpm', 'fib'), default='lpm',
                    help='the route tables under churn: rte_lpm (its own '
                    'RCU) or rte_fib (a synchronize before an add that '
                    'may reuse a tbl8 group a delete freed)')
    a = ap.parse_args()
    if (os.cpu_count() or 1) < 2:
        harness.skip('fewer than 2 CPUs: the lcore and the writer share one')
    harness.require_app(a.app, 'npool-fwd')
    with harness.Workdir('churn', a.keep) as work:
        rules, cap = write_inputs(work)
        jpath = work.file('fwd.json')
        fpm_port = 20000 + os.getpid() % 20000
        vdevs = ['net_pcap0,rx_pcap=%s,infinite_rx=1' % cap,
                 'net_null1,no-rx=1', 'net_null2,no-rx=1',
                 'net_null3,no-rx=1']
        cmd = ([a.app] + harness.eal_args(work.new_prefix(), vdevs, '0-1') +
               ['--', '-p', '0xf', '--rule_ipv4', rules,
                '--fpm', '127.0.0.1:%d' % fpm_port, '--fpm-if', '3,lo',
                '--lookup', a.lookup, '--json', jpath])
        harness.log('npool-fwd: ' + ' '.join(cmd))
        app = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               start_new_session=True)
        h = None
        try:
            client = fpm_client.FpmClient(port=fpm_port).connect(30)
            time.sleep(0.5)
            h = hog(1)
            ch = fpm_client.Churn(client, net, NETS, LIVE)
            ch.begin()
            t0 = time.monotonic()
            ch.run(a.seconds, a.rate)
            took = time.monotonic() - t0
            sent = ch.sent
            time.sleep(0.3)
            client.close()
        finally:
            if h is not None:
                os.killpg(h.pid, signal.SIGKILL)
                h.wait()
            rc = harness.interrupt(app)
        out = app.stdout.read().decode('utf-8', 'replace')
        js = harness.load_json(jpath)
        probs = [] if rc == 0 else ['npool-fwd exit %r\n%s' % (rc,
                                                              out[-3000:])]
        probs += harness.leak_problems(js)
        tot = js.get('total', {})
        drops = {k: v for k, v in tot.get('drops', {}).items() if v}
        tx = [port_tx(js, p) or 0 for p in range(4)]
        routes = js.get('routes', {})
        harness.log('%d route changes in %.2f s (%.0f a second); rx %s, '
                    'forwarded %s; tx port 1 %d, port 2 %d, port 3 %d; '
                    'drops %s; RIB %s' % (sent, took, (sent - LIVE) / took,
                                          tot.get('rx'), tot.get('forwarded'),
                                          tx[1], tx[2], tx[3], drops,
                                          routes.get('ipv4')))
        wrong = tx[2] + tx[3] + sum(drops.values())
        harness.log('wrong answers: %d (%d to port 2, %d to port 3, %d '
                    'dropped)' % (wrong, tx[2], tx[3], sum(drops.values())))
        if tx[1] == 0:
            probs.append('nothing forwarded')
        if a.expect_failures:
            if wrong == 0:
                probs.append('no wrong answer without RCU: the test '
                             'proves nothing')
        elif wrong:
            probs.append('%d wrong answers' % wrong)
        if (sent - LIVE) / took < 0.9 * a.rate:
            probs.append('churn at %.0f changes a second, want %d' %
                         ((sent - LIVE) / took, a.rate))
        for p in probs:
            harness.log('FAIL ' + p)
        if probs:
            return 1
        harness.log('PASS')
        return 0


if __name__ == '__main__':
    sys.exit(main())
