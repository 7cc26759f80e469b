#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Exhaustion and recovery of npool-fwd and npool-drop on net_pcap: pools
far smaller than the traffic needs, counted, no crash, no leak, and the
traffic flows again once the buffers are back.

Which frames net_pcap loses is known in advance (pcap_rx_model(): each RX
burst reads frames until one finds the pool short, counts and drops it and
ends the burst; the app gives every mbuf back before the next one), so each
case checks the exact loss counters and, for npool-fwd, every frame received
against the oracle, byte for byte.

Cases (APP fwd|drop, POOL npool|mempool):
  rx-tiny-APP-POOL       --nb-mbufs 8 under a mix of every capture (frames
                         of one mbuf): each RX burst gets 8 frames and loses
                         the 9th (rx_nombuf); the warning names the
                         shortfall; exit 0, leak clean.
  phases-APP-POOL        150 small frames, 40 jumbo frames, 150 small
                         frames; --mbuf-size 192 makes a jumbo frame a
                         chain of 48 mbufs and --nb-mbufs 64 holds one: the
                         jumbo phase loses frames (ierrors: chain cut short;
                         rx_nombuf), yet receives some, and once the jumbo
                         frames are through every small frame is received
                         again (recovery).
  copybreak-APP-POOL     --copybreak 1500 with an arena of one 32 KiB chunk
                         and no small chunk (--nb-chunks 1
                         --nb-small-chunks 0, so no tiny packet either,
                         --nb-mid 0, so every copy is a head and a
                         fragment, and --nb-heads 100: the sizes show in
                         the pools' table): a burst of copies needs more than the
                         chunk, which runs dry inside bursts, and
                         copy-break keeps those packets in their RX mbufs:
                         every packet is still forwarded (oracle, byte for
                         byte), copybreak_copied + copybreak_nomem == the
                         frames of at most 1500 bytes, copybreak_nomem is
                         exactly what copybreak_nomem_model() says (> 0),
                         and the log says once that copy-break ran dry.

  exhaust.py --fwd build/apps/fwd/npool-fwd --drop build/apps/drop/npool-drop
             --captures DIR [--chunk-size BYTES] --case NAME|all [--keep]
  exhaust.py --list
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import edgecases  # noqa: E402
import harness  # noqa: E402
import packets  # noqa: E402
import run_drop  # noqa: E402
import run_fwd  # noqa: E402
import soak  # noqa: E402

TINY = 8            # --nb-mbufs of the rx-tiny cases
PHASE_SMALL = 150
PHASE_JUMBO = 40
JUMBO = 9000        # bytes of a jumbo frame
COPYBREAK = 256
EXHAUST_COPYBREAK = 1500   # the copybreak case: a burst needs two chunks
BURST = 32          # APP_BURST
HEADROOM = 128      # RTE_PKTMBUF_HEADROOM, npool's default headroom too
SHINFO = 24         # NPOOL_SHINFO_SIZE: rte_mbuf_ext_shared_info, 8-aligned


def pcap_rx_model(frames, nb_mbufs, mbuf_size):
    """What net_pcap (DPDK 22.11 eth_pcap_rx()) does with `frames` when
    the RX pool has nb_mbufs of mbuf_size bytes, all back between two
    bursts: 'rx' (received whole), 'rx_nombuf' (no mbuf for its start) or
    'ierrors' (its chain cut short, eth_pcap_rx_jumbo()); a loss ends the
    burst. The first segment holds mbuf_size - headroom bytes, the others
    mbuf_size."""
    out = []
    while len(out) < len(frames):
        avail, got = nb_mbufs, 0
        while got < BURST and len(out) < len(frames):
            extra = len(frames[len(out)]) - (mbuf_size - HEADROOM)
            need = 1 + max(0, -(-extra // mbuf_size))
            if need > avail:
                out.append('rx_nombuf' if avail == 0 else 'ierrors')
                break
            out.append('rx')
            avail -= need
            got += 1
    return out


def subset(inputs, keep, mtu=None):
    """Inputs with the frames whose index is in `keep` (same routes)."""
    return run_fwd.Inputs([inputs.frames[i] for i in keep],
                          [inputs.labels[i] for i in keep], inputs.portmask,
                          inputs.rules, inputs.eth_dest, mtu=mtu)


def eth0(js):
    p0 = [p for p in js.get('ports', []) if p.get('port') == 0]
    return p0[0].get('eth', {}) if p0 else {}


def run_app(a, work, app, inputs, pool, extra, copybreak=None):
    """npool-fwd (every output frame checked later) or npool-drop."""
    if app == 'fwd':
        inputs.extra_args = list(extra)
        return run_fwd.run_fwd(a.fwd, work, inputs, pool, copybreak)
    return run_drop.run(a.drop, work, inputs.frames, pool, copybreak, extra)


def app_problems(res, app, n_rx, pool, copybreak=None, inputs=None):
    """The run's own checks: run_fwd's oracle comparison on the frames
    that were received (`inputs`), or run_drop's counts."""
    if app == 'fwd':
        return run_fwd.check_run(res, inputs, pool, copybreak)[0]
    return run_drop.check(res, n_rx, pool, copybreak)


def captures_inputs(a):
    harness.require_captures(a.captures)
    inputs, _ = soak.one_mbuf_inputs(a.captures)
    if not inputs.frames:
        harness.skip('no Ethernet frame in %s' % a.captures)
    return inputs


def run_exhausted(a, work, app, inputs, pool, nb_mbufs, mbuf_size,
                  extra=()):
    """Run with a short RX pool; problems (the app's own checks on the
    frames the model says are received, the PMD's loss counters against
    the model's), and the model's outcome per frame."""
    model = pcap_rx_model(inputs.frames, nb_mbufs, mbuf_size)
    res = run_app(a, work, app, inputs, pool,
                  ['--nb-mbufs', str(nb_mbufs), '--mbuf-size',
                   str(mbuf_size)] + list(extra))
    kept = [i for i, m in enumerate(model) if m == 'rx']
    probs = app_problems(res, app, len(kept), pool,
                         inputs=subset(inputs, kept, inputs.mtu))
    e = eth0(res.json)
    for k in ('ipackets', 'rx_nombuf', 'ierrors'):
        want = model.count('rx' if k == 'ipackets' else k)
        if e.get(k) != want:
            probs.append('port 0: eth %s %r, expected %d' % (k, e.get(k),
                                                             want))
    if 'warning: --nb-mbufs %d is below' % nb_mbufs not in res.stderr:
        probs.append('no warning that --nb-mbufs %d is below what the '
                     'rings need' % nb_mbufs)
    harness.log('%d frames, %d received, eth %s' % (len(model), len(kept),
                                                    e))
    return probs, model


def case_rx_tiny(a, work, app, pool):
    inputs = captures_inputs(a)
    probs, model = run_exhausted(a, work, app, inputs, pool, TINY,
                                 soak.MBUF_SIZE)
    # Each burst: TINY frames, then one lost.
    if model[TINY::TINY + 1] != ['rx_nombuf'] * (len(model) // (TINY + 1)):
        probs.append('the model does not lose every %dth frame'
                     % (TINY + 1))
    return probs


def phase_inputs():
    """Small frames (one mbuf each), jumbo frames (DF, to port 2 with
    --mtu 9000), small frames; every IP ID is the frame's index."""
    frames, labels = [], []
    for i in range(2 * PHASE_SMALL + PHASE_JUMBO):
        jumbo = PHASE_SMALL <= i < PHASE_SMALL + PHASE_JUMBO
        body = bytes([i & 0xFF]) * (JUMBO - 42 if jumbo else 16)
        ip = packets.ipv4(src='198.18.0.1', dst='198.18.1.%d' % (1 + i % 250),
                          ident=i, df=jumbo, payload=packets.udp(body))
        frames.append(packets.pad60(packets.eth(ip)))
        labels.append('%s#%d' % ('jumbo' if jumbo else 'small', i))
    return run_fwd.Inputs(frames, labels, edgecases.MAIN_PORTMASK,
                          (edgecases.ROUTES_V4, edgecases.ROUTES_V6),
                          {1: edgecases.ETH_DEST_1}, mtu=JUMBO)


def case_phases(a, work, app, pool):
    inputs = phase_inputs()
    probs, model = run_exhausted(a, work, app, inputs, pool, 64, 192,
                                 ['--mtu', str(JUMBO)] if app == 'fwd'
                                 else [])
    jumbo = model[PHASE_SMALL:PHASE_SMALL + PHASE_JUMBO]
    after = model[PHASE_SMALL + PHASE_JUMBO + BURST:]
    # The scenario must bite (and the model must say so): jumbo frames
    # lost and received, all small ones received a burst after them.
    if not 0 < jumbo.count('rx') < PHASE_JUMBO or \
            model[:PHASE_SMALL] + after != \
            ['rx'] * (PHASE_SMALL + len(after)):
        probs.append('model: jumbo phase %s, small frames %s'
                     % (jumbo, model[:PHASE_SMALL] + after))
    return probs


def copybreak_nomem_model(frames, copybreak, chunk, rewind=True):
    """copybreak_nomem of npool_rx_copybreak() over bursts of BURST of
    `frames` with an arena of one chunk and no small chunk, when every
    packet is freed before the next burst. The allocator's rules
    (npool_frag.h): a packet of len bytes takes the cache-line multiple
    above headroom + len + shared info, carved down from the chunk's end;
    an exhausted chunk is reused in place when all its fragments are back,
    else the cache lets it go and asks the arena, which is empty while the
    fragments of this burst hold the only chunk; a chunk the cache still
    holds with every fragment back is carved whole again before a burst
    (npool_frag_cache_rewind_pvt()), unless @rewind is false: ASan and
    debug builds rewind nothing, their fragment maps start afresh at a
    refill only."""
    nomem, held, off = 0, False, 0
    for b in range(0, len(frames), BURST):
        out = 0     # fragments of this burst not yet freed
        if held and rewind:
            off = chunk

        for f in frames[b:b + BURST]:
            if len(f) > copybreak:
                continue
            size = -(-(HEADROOM + len(f) + SHINFO) // 64) * 64
            if held and off >= size:
                off -= size
            elif out == 0:
                held, off = True, chunk - size  # reuse, or from the arena
            else:
                held = False
                nomem += 1
                continue
            out += 1
    return nomem


def case_copybreak(a, work, app, pool):
    harness.require_captures(a.captures)
    inputs = run_fwd.capture_inputs(a.captures)
    res = run_app(a, work, app, inputs, pool,
                  ['--nb-chunks', '1', '--nb-small-chunks', '0',
                   '--nb-mid', '0', '--nb-heads', '100'], EXHAUST_COPYBREAK)
    probs = app_problems(res, app, len(inputs.frames), pool, EXHAUST_COPYBREAK,
                         inputs)
    # The pools' table at exit shows the sizes asked for.
    for want in (r'npool heads\s+npool\s+size\s+100\s',
                 r'npool arena: 0 fragments out, 0 of 1\+0 chunks'):
        if not re.search(want, res.stdout):
            probs.append('no /%s/ in the output' % want)
    tot = res.json.get('total', {})
    copied, nomem = tot.get('copybreak_copied'), tot.get('copybreak_nomem')
    small = sum(1 for f in inputs.frames if len(f) <= EXHAUST_COPYBREAK)
    binary = a.fwd if app == 'fwd' else a.drop
    want = copybreak_nomem_model(inputs.frames, EXHAUST_COPYBREAK,
                                 a.chunk_size,
                                 rewind=not harness.sanitized(binary, 'asan'))
    if (copied, nomem) != (small - want, want) or want == 0:
        probs.append('copybreak_copied %r, copybreak_nomem %r; expected %d '
                     'and %d (> 0) of the %d frames of at most %d bytes'
                     % (copied, nomem, small - want, want, small, EXHAUST_COPYBREAK))
    said = (res.stdout + res.stderr).count('copy-break ran dry')
    if said != 1:
        probs.append('"copy-break ran dry" logged %d times, want once' %
                     said)
    harness.log('%d frames, %d of at most %d bytes: copied %r, nomem %r'
                % (len(inputs.frames), small, EXHAUST_COPYBREAK, copied, nomem))
    return probs


KINDS = {'rx-tiny': case_rx_tiny, 'phases': case_phases,
         'copybreak': case_copybreak}
CASES = ['%s-%s-%s' % (k, app, pool) for k in KINDS
         for app in ('fwd', 'drop') for pool in ('npool', 'mempool')]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--captures')
    ap.add_argument('--chunk-size', type=int, default=32768,
                    help='the build\'s chunk_size option')
    a, names = harness.case_arguments(ap, CASES, ('fwd', 'drop'))
    if names is None:
        return 0

    def run_one(name, work):
        kind, app, pool = name.rsplit('-', 2)
        return KINDS[kind](a, work, app, pool)[:25]
    return harness.run_cases(names, 'exhaust', run_one, a.keep)


if __name__ == '__main__':
    sys.exit(main())
