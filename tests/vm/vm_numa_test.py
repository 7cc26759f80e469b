# SPDX-License-Identifier: BSD-3-Clause
"""make test: vm_numa.py's checks (make vm-test, device "numa") on hand-
written inputs, so that they are known to pass on a right run and to fail
on each way a wrong one shows: a port, pool, instance or route table on
the wrong socket, an instance not empty at exit, nothing allocated on
node 1 (no refill and no packet), a
probe object on the wrong node or a probe instance with something out.
"""

import copy
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vm_numa  # noqa: E402


class Quiet:
    """vm_test's Report, counting instead of printing."""

    def __init__(self):
        self.failed = []

    def check(self, ok, msg):
        if not ok:
            self.failed.append(msg)
        return bool(ok)

    def info(self, msg):
        pass


GOOD_JSON = {
    'ports': [{'port': 0, 'socket': 1}, {'port': 1, 'socket': 1}],
    'numa': {
        'no_numa': False,
        'rx_pools': [{'name': 'rx_s1', 'socket': 1, 'memseg_socket': 1}],
        'npool': [
            {'socket': 0, 'arena_memseg_socket': 0, 'heads_memseg_socket': 0,
             'refills': 0, 'pkt_allocs': 0, 'chunks_in_use': 0,
             'frags_out': 0, 'heads_out': 0},
            {'socket': 1, 'arena_memseg_socket': 1, 'heads_memseg_socket': 1,
             'refills': 37, 'pkt_allocs': 3100, 'chunks_in_use': 0,
             'frags_out': 0, 'heads_out': 0}],
        'routes': [{'socket': 1, 'memseg_socket': 1}],
    },
    'leak': {'ok': True},
}

# One wrong run per entry: (what, change to GOOD_JSON).
BAD_JSON = [
    ('port on socket 0', lambda j: j['ports'][1].update(socket=0)),
    ('no numa block', lambda j: j.pop('numa')),
    ('no_numa true', lambda j: j['numa'].update(no_numa=True)),
    ('RX pool memory on node 0',
     lambda j: j['numa']['rx_pools'][0].update(memseg_socket=0)),
    ('no RX pool', lambda j: j['numa'].update(rx_pools=[])),
    ('one instance only', lambda j: j['numa']['npool'].pop(0)),
    ('arena of socket 1 on node 0',
     lambda j: j['numa']['npool'][1].update(arena_memseg_socket=0)),
    ('heads of socket 1 on node 0',
     lambda j: j['numa']['npool'][1].update(heads_memseg_socket=0)),
    # Chunks carved or tiny packets allocated: either shows use.
    ('nothing allocated on socket 1', lambda j: j['numa']['npool'][1].update(
        refills=0, pkt_allocs=0)),
    ('a chunk in use at exit', lambda j: j['numa']['npool'][0].update(
        chunks_in_use=1)),
    ('a fragment out at exit', lambda j: j['numa']['npool'][1].update(
        frags_out=2)),
    ('a head out at exit', lambda j: j['numa']['npool'][1].update(
        heads_out=1)),
    ('route table on node 0', lambda j: j['numa']['routes'][0].update(
        memseg_socket=0)),
    ('a route table per socket', lambda j: j['numa']['routes'].append(
        {'socket': 0, 'memseg_socket': 0})),
]

N = vm_numa.PROBE_N
GOOD_PROBE = '''EAL: Detected NUMA nodes: 2
numa_probe: lcore lcore=0 socket=0 frags={n} frag_memseg=0:{n} pkts={n} \
head_memseg=0:{n} data_memseg=0:{n} freed_by=1 freed_by_socket=1
numa_probe: lcore lcore=1 socket=1 frags={n} frag_memseg=1:{n} pkts={n} \
head_memseg=1:{n} data_memseg=1:{n} freed_by=0 freed_by_socket=0
numa_probe: lcore lcore=2 socket=1 frags={n} frag_memseg=1:{n} pkts={n} \
head_memseg=1:{n} data_memseg=1:{n} freed_by=0 freed_by_socket=0
numa_probe: instance socket=0 lcores=1 held_frags={n} held_heads={n} \
frags_out=0 heads_out=0 chunks_in_use=0 destroy=0
numa_probe: instance socket=1 lcores=2 held_frags={n2} held_heads={n2} \
frags_out=0 heads_out=0 chunks_in_use=0 destroy=0
numa_probe: PASS
'''.format(n=N, n2=2 * N)

BAD_PROBE = [
    ('exit status 1', None, '1'),
    ('a fragment of lcore 1 on node 0',
     ('frag_memseg=1:%d' % N, 'frag_memseg=0:1,1:%d' % (N - 1)), '0'),
    ('packet data of lcore 0 on node 1',
     ('data_memseg=0:%d' % N, 'data_memseg=1:%d' % N), '0'),
    ('freed on its own socket',
     ('freed_by=1 freed_by_socket=1', 'freed_by=0 freed_by_socket=0'), '0'),
    ('a chunk in use after the drain',
     ('lcores=2 held_frags=%d held_heads=%d frags_out=0 heads_out=0 '
      'chunks_in_use=0' % (2 * N, 2 * N),
      'lcores=2 held_frags=%d held_heads=%d frags_out=0 heads_out=0 '
      'chunks_in_use=1' % (2 * N, 2 * N)), '0'),
    ('npool_destroy -EBUSY', ('destroy=0\nnuma_probe: PASS',
                              'destroy=-16\nnuma_probe: PASS'), '0'),
    ('socket 1 allocations not out of its instance',
     ('lcores=2 held_frags=%d' % (2 * N), 'lcores=2 held_frags=0'), '0'),
    ('no lcore line', ('numa_probe: lcore', 'numa_probe: lcor'), '0'),
]


def probe_failures(text, rc):
    with tempfile.TemporaryDirectory() as run:
        with open(os.path.join(run, 'probe.log'), 'w') as f:
            f.write(text)
        with open(os.path.join(run, 'rc-probe'), 'w') as f:
            f.write(rc + '\n')
        r = Quiet()
        ok = vm_numa.probe_check(r, run)
        return ok, r.failed


def main():
    problems = []
    r = Quiet()
    if not vm_numa.json_checks(r, copy.deepcopy(GOOD_JSON)) or r.failed:
        problems.append('right --json refused: %s' % r.failed)
    for what, change in BAD_JSON:
        js = copy.deepcopy(GOOD_JSON)
        change(js)
        r = Quiet()
        if vm_numa.json_checks(r, js) or not r.failed:
            problems.append('wrong --json passed: %s' % what)
    ok, failed = probe_failures(GOOD_PROBE, '0')
    if not ok or failed:
        problems.append('right numa_probe output refused: %s' % failed)
    for what, edit, rc in BAD_PROBE:
        text = GOOD_PROBE
        if edit is not None:
            assert edit[0] in text, what
            text = text.replace(edit[0], edit[1], 1)
        ok, failed = probe_failures(text, rc)
        if ok or not failed:
            problems.append('wrong numa_probe output passed: %s' % what)
    for p in problems:
        print('FAIL ' + p)
    print('vm_numa checks: %d wrong --json and %d wrong probe outputs '
          'refused, the right ones passed: %s' % (
              len(BAD_JSON), len(BAD_PROBE), 'no' if problems else 'yes'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
