# SPDX-License-Identifier: BSD-3-Clause
"""npool-fwd runs of one input under different --lookup values must agree:
the same per-port counters and the same output pcaps, record for record
(run_fwd.py runs every set so)."""


def _counts(js):
    """Per port (tx, forwarded, drops by reason) of a run's JSON."""
    if not isinstance(js, dict):
        return None
    return {p.get('port'): (p.get('tx'), p.get('forwarded'),
                            dict(sorted(p.get('drops', {}).items())))
            for p in js.get('ports', [])}


def compare_lookups(runs, lookups):
    """Every lookup must give the first one's counters and output bytes:
    per port tx, forwarded and drops by reason, and each TX queue's pcap
    record for record."""
    probs = []
    first = lookups[0]
    ref = runs[first]
    for lk in lookups[1:]:
        res = runs[lk]
        if _counts(res.json) != _counts(ref.json):
            probs.append('--lookup %s counters %s differ from --lookup %s '
                         '%s' % (lk, _counts(res.json), first,
                                 _counts(ref.json)))
        for p, (qa, qb) in enumerate(zip(ref.txq, res.txq)):
            for k, (ra, rb) in enumerate(zip(qa, qb)):
                if ra == rb:
                    continue
                at = next((j for j, (x, y) in enumerate(zip(ra, rb))
                           if x != y), min(len(ra), len(rb)))
                probs.append('--lookup %s: port %d queue %d output differs '
                             'from --lookup %s (%d vs %d records, first '
                             'difference at record %d)' % (
                                 lk, p, k, first, len(rb), len(ra), at))
    return probs
