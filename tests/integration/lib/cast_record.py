# SPDX-License-Identifier: BSD-3-Clause
"""What kernel_cast.py compares, normalized, and its recordings: the
outcomes of a Linux router that has every feature the cases need
(kfeatures.py), kept in tests/data/kernel/cast.json for the kernels that
lack one (`make kernel-record` makes the file; tests/data/kernel/README.md).

A frame is compared with the MACs of the topology by name (A, B, C, R0,
R1, R2, each padded with '.' to 6 bytes: two topologies have different
MACs); in a packet the router sends itself the IPv4 ID and header checksum
(the checksum checked first) and the IPv6 flow label are zeroed (each
router picks its own). A case's outcome is the sorted list of (host,
normalized frame) of what the three hosts received, the router's own
link-local noise left out (cast_cases.link_noise()).

The file: {"kernel": uname of the recording router, "settings": [{"name",
"bc_forwarding", "echo", "promisc", "cases": [{"case", "by", "sent": the
normalized frame sent, "received": [[host, summary, normalized frame
hex], ...]}]}]}, settings and cases in kernel_cast.settings()'s order.
"""

import json
import os

import cast_cases
import oracle

NAMES = ('A', 'B', 'C', 'R0', 'R1', 'R2')
# a normalized frame's MAC bytes -> name
NORMAL_NAMES = {n.encode().ljust(6, b'.'): n for n in NAMES}
ROUTER_ADDRS = {'198.18.%d.1' % n for n in (1, 2, 3)} | \
    {'2001:2:0:%d::1' % n for n in (1, 2, 3)}
# MACs to build a case's frame with, when no topology is at hand
SOME_MACS = {'a': '02:00:00:00:00:0a', 'b': '02:00:00:00:00:0b',
             'c': '02:00:00:00:00:0c', 'r0': '02:00:00:00:01:00',
             'r1': '02:00:00:00:01:01', 'r2': '02:00:00:00:01:02'}


def macs_by_name(frame, names):
    """@frame with its two MACs by name (@names: MAC bytes -> name)."""
    f = bytearray(frame)
    for at in (0, 6):
        n = names.get(bytes(f[at:at + 6]))
        if n is not None:
            f[at:at + 6] = n.encode().ljust(6, b'.')
    return f


def normal(frame, names):
    """@frame normalized (above). Returns (bytes, problem or None)."""
    f = macs_by_name(frame, names)
    s = cast_cases.summary(frame, names)
    own = any('IPv%s %s>' % (v, a) in s for v in '46' for a in ROUTER_ADDRS)
    if own and f[12:14] == b'\x08\x00':
        ihl = (f[14] & 15) * 4
        if not oracle.ipv4_header_ok(bytes(f[14:14 + ihl])):
            return bytes(f), 'bad IPv4 header checksum: ' + s
        f[18:20] = f[24:26] = b'\0\0'
    if own and f[12:14] == b'\x86\xdd':
        f[15] &= 0xF0
        f[16:18] = b'\0\0'
    return bytes(f), None


def summaries(outcome):
    """An outcome's sorted 'host: summary' lines, as cases expect them."""
    return sorted('%s: %s' % (h, cast_cases.summary(f, NORMAL_NAMES))
                  for h, f in outcome)


def sent(case):
    """The normalized frame @case sends."""
    names = {oracle.mac_bytes(m): n.upper() for n, m in SOME_MACS.items()}
    return bytes(macs_by_name(case.frame(SOME_MACS, case.by), names))


def _setting_keys(s):
    return {'name': s.name, 'bc_forwarding': int(s.bc), 'echo': s.echo,
            'promisc': s.promisc}


def write(path, plan, outcomes, kernel):
    """The recording of @plan (kernel_cast.settings()) to @path:
    @outcomes[(setting name, case name)] is a case's outcome."""
    out = {'kernel': kernel, 'settings': []}
    for s in plan:
        cases = []
        for c in s.cases:
            o = sorted(outcomes[(s.name, c.name)])
            cases.append({'case': c.name, 'by': c.by, 'sent': sent(c).hex(),
                          'received': [
                              [h, cast_cases.summary(f, NORMAL_NAMES),
                               f.hex()] for h, f in o]})
        out['settings'].append(dict(_setting_keys(s), cases=cases))
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(_dumps(out))
    os.replace(tmp, path)


def _dumps(out):
    """JSON of a recording, a line per case field and frame received."""
    d = json.dumps
    lines = ['{"kernel": %s,' % d(out['kernel']), ' "settings": [']
    for i, s in enumerate(out['settings']):
        lines.append('  {' + ', '.join('%s: %s' % (d(k), d(v)) for k, v in
                                       s.items() if k != 'cases') +
                     ', "cases": [')
        for j, c in enumerate(s['cases']):
            lines += ['   {"case": %s, "by": %s,' % (d(c['case']), d(c['by'])),
                      '    "sent": %s,' % d(c['sent']),
                      '    "received": [' + ','.join(
                          '\n     ' + d(r) for r in c['received']) + ']}' +
                      (',' if j + 1 < len(s['cases']) else '')]
        lines.append('  ]}' + (',' if i + 1 < len(out['settings']) else ''))
    lines.append(' ]}')
    return '\n'.join(lines) + '\n'


class Recording:
    """A recording read back: kernel, outcome(setting, case)."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.js = json.load(f)
        self.kernel = self.js.get('kernel', '?')
        self.out = {}
        for s in self.js.get('settings', []):
            for c in s.get('cases', []):
                self.out[(s['name'], c['case'])] = sorted(
                    (h, bytes.fromhex(x)) for h, _, x in c['received'])

    def outcome(self, setting, case):
        return self.out[(setting, case)]

    def stale(self, plan):
        """What differs between the recording and @plan's cases (names,
        order, senders, frames sent, settings); a summary that does not
        match its frame. Empty when the recording fits."""
        probs = []
        rec = {s.get('name'): s for s in self.js.get('settings', [])}
        if [s.get('name') for s in self.js.get('settings', [])] != \
                [s.name for s in plan]:
            probs.append('settings %s, the cases\' %s' % (
                list(rec), [s.name for s in plan]))
        for s in plan:
            r = rec.get(s.name)
            if r is None:
                continue
            if {k: r.get(k) for k in _setting_keys(s)} != _setting_keys(s):
                probs.append('setting %s: %r, now %r' % (
                    s.name, {k: r.get(k) for k in _setting_keys(s)},
                    _setting_keys(s)))
            rc = r.get('cases', [])
            if [c.get('case') for c in rc] != [c.name for c in s.cases]:
                probs.append('setting %s: cases %d, now %d (names or order '
                             'differ)' % (s.name, len(rc), len(s.cases)))
                continue
            for c, want in zip(rc, s.cases):
                if c.get('by') != want.by or c.get('sent') != sent(want).hex():
                    probs.append('setting %s, %s: another frame sent now'
                                 % (s.name, want.name))
                for h, summ, x in c['received']:
                    got = cast_cases.summary(bytes.fromhex(x), NORMAL_NAMES)
                    if summ != got:
                        probs.append('setting %s, %s: summary %r of a frame '
                                     'that reads %r' % (s.name, want.name,
                                                        summ, got))
        return probs
