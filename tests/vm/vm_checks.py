# SPDX-License-Identifier: BSD-3-Clause
"""make vm-test: what npool-fwd wrote in the guest (its --json counters,
leak block, start-up lines), checked against what the host taps saw and
against the run's plan (PMD, RX queues, lcores, RSS).  R is vm_test's
Report (check(), info()); dev its Device; row the summary row, filled in.
"""

import re

import harness
import vm_rss

LOST_KEYS = ('imissed', 'ierrors', 'rx_nombuf')


def json_checks(R, dev, js, port_lines, taps, tap_names, row):
    """The counters npool-fwd wrote in the guest, against what the taps
    (taps: {'rx': [...], 'tx_dropped': [...], 'rx_dropped': [...]} of the
    run, tap_names) saw."""
    drivers = [m.group(1, 2) for m in
               (re.match(r'port \d+: (\S+), profile (\S+),', ln)
                for ln in port_lines) if m]
    ok = R.check(len(drivers) == 2 and
                 all(d == dev.pmd for d, _ in drivers),
                 'ports on DPDK\'s %s: %s' % (dev.pmd, ', '.join(
                     '%s (profile %s)' % d for d in drivers) or 'none'))
    row['driver'] = '/'.join(sorted({'%s profile %s' % d for d in drivers}))
    ports = {p['port']: p for p in js['ports']}
    tx = [ports.get(i, {}).get('tx', 0) for i in range(2)]
    ok &= R.check(tx[1] > 0 and tx[0] > 0,
                  'forwarded A->B (out of port 1) %d, B->A (out of port 0) %d'
                  % (tx[1], tx[0]))
    ok &= R.check(tx == taps['rx'],
                  'sent by npool-fwd = received by the host taps: port 0 %d = '
                  '%s %d, port 1 %d = %s %d' % (
                      tx[0], tap_names[0], taps['rx'][0], tx[1], tap_names[1],
                      taps['rx'][1]))
    t = js['total']
    ok &= R.check(t['rx'] == t['tx'] + t['dropped'] ==
                  t['tx'] + sum(t['drops'].values()),
                  'total rx %d = tx %d + dropped %d' % (t['rx'], t['tx'],
                                                        t['dropped']))
    eth = [(ports[i]['eth']['ipackets'], ports[i]['rx'])
           for i in range(2) if 'eth' in ports.get(i, {})]
    ok &= R.check(len(eth) == 2 and all(e == r for e, r in eth),
                  'PMD ipackets = npool-fwd rx per port: %s' % ', '.join(
                      '%d/%d' % e for e in eth))
    lost = '; '.join(['%s tx_dropped %d rx_dropped %d' % (n, d, e)
                      for n, d, e in zip(tap_names, taps['tx_dropped'],
                                         taps['rx_dropped'])] +
                     ['port %d %s' % (i, ' '.join(
                         '%s %d' % (k, ports[i]['eth'].get(k, 0))
                         for k in LOST_KEYS))
                      for i in range(2) if 'eth' in ports.get(i, {})])
    if dev.nq > 1:      # the paced flows: nothing may be lost on the way
        ok &= R.check(len(eth) == 2 and t['dropped'] == 0 and
                      not any(taps['tx_dropped'] + taps['rx_dropped']) and
                      not any(
                          ports[i]['eth'].get(k, 0) for i in range(2)
                          for k in LOST_KEYS),
                      'nothing lost on the way: npool-fwd dropped %d; %s' % (
                          t['dropped'], lost))
    else:
        R.info('lost on the way: %s' % lost)
    # The PMD's IPv4 checksum word (RX offload on): the bursts whose
    # packets all had GOOD were not summed (router.cksum_pmd).
    pmd = [ports.get(i, {}).get('router', {}).get('cksum_pmd', 0)
           for i in range(2)]
    if dev.cksum_pmd:
        ok &= R.check(all(pmd), 'IPv4 checksums taken from the PMD '
                      '(cksum_pmd): port 0 %d, port 1 %d' % tuple(pmd))
    else:
        R.info('IPv4 checksums taken from the PMD (cksum_pmd): port 0 %d, '
               'port 1 %d' % tuple(pmd))
    row['cksum_pmd'] = '%d/%d' % tuple(pmd)
    drops = {k: v for k, v in t['drops'].items() if v}
    R.info('drops by reason: %s' % (', '.join(
        '%s %d' % kv for kv in sorted(drops.items())) or 'none'))
    probs = harness.leak_problems(js)
    leak = js.get('leak', {})
    ok &= R.check(not probs, 'leak block: %s' % ('; '.join(probs) or
                                                 'mbufs_out 0, frags_out 0, '
                                                 'chunks_in_use 0, ok true'))
    if dev.nq > 1:
        ok &= rss_checks(R, dev, ports, port_lines, row)
    row['fwd'] = 'A->B %d B->A %d rx %d dropped %d' % (tx[1], tx[0], t['rx'],
                                                       t['dropped'])
    row['leaks'] = 'mbufs %s frags %s chunks %s' % (
        leak.get('mbufs_out'), leak.get('frags_out'),
        leak.get('chunks_in_use'))
    return ok


def rss_checks(R, dev, ports, port_lines, row):
    """Each port polled on dev.nq RX queues by the lcores of dev.config,
    RSS on over them with the RETA read back, every queue received."""
    nq, ok = dev.nq, True
    want_lc = {}
    for m in re.finditer(r'\((\d+),(\d+),(\d+)\)', dev.config):
        want_lc[(int(m.group(1)), int(m.group(2)))] = int(m.group(3))
    for p in range(2):
        line = next((ln for ln in port_lines if re.match(
            r'port %d: RSS (on|off)' % p, ln)), 'port %d: no RSS line' % p)
        ok &= R.check(line.startswith('port %d: RSS on over RX queues 0-%d:'
                                      % (p, nq - 1)) and
                      'read back equal' in line, line)
        rss = ports.get(p, {}).get('rss', {})
        per = [vm_rss.RETA_SIZE // nq] * nq
        ok &= R.check(rss.get('on') is True and rss.get('queues') == nq and
                      rss.get('reta_size') == vm_rss.RETA_SIZE and
                      rss.get('reta_per_queue') == per and
                      rss.get('reta_read_back') is True,
                      'port %d --json rss: on %s, queues %s, RETA %s entries '
                      '%s per queue (want %s), read back %s' % (
                          p, rss.get('on'), rss.get('queues'),
                          rss.get('reta_size'), rss.get('reta_per_queue'),
                          per, rss.get('reta_read_back')))
        rxq = ports.get(p, {}).get('rx_queues', [])
        got = [(q.get('queue'), q.get('lcore')) for q in rxq]
        counts = [q.get('rx', 0) for q in rxq]
        want = [(q, want_lc.get((p, q))) for q in range(nq)]
        ok &= R.check(got == want and all(counts) and
                      sum(counts) == ports[p]['rx'],
                      'port %d rx_queues (queue, lcore) %s (want %s), rx %s '
                      '= port rx %d; whole run %s' % (
                          p, got, want, counts, ports[p]['rx'],
                          vm_rss.share_str(counts)))
    return ok
