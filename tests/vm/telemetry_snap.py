#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""make vm-test, guest side: one snapshot of a running npool-fwd's
counters over DPDK telemetry, as a JSON line on stdout:
{"uptime": s, "ports": {"0": {/app/port,0 ..., "eth": /ethdev/stats,0},
"1": {...}}} (rx_queues: rx of each polled queue, by queue id).
tests/vm/guest.sh runs it for each snapshot the host asks for.

Usage: telemetry_snap.py SOCKET   (SOCKET: .../dpdk_telemetry.v2)
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'bench'))
import apps_measure  # noqa: E402  (the telemetry client)

PORTS = (0, 1)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    tel = apps_measure.Telemetry(argv[1])
    try:
        ports = {}
        for p in PORTS:
            ports[str(p)] = tel.query('/app/port,%d' % p) or {}
            ports[str(p)]['eth'] = tel.stats(p)
    finally:
        tel.close()
    with open('/proc/uptime') as f:
        up = float(f.read().split()[0])
    print(json.dumps({'uptime': up, 'ports': ports}))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
