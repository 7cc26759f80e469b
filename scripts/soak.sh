#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# make soak MINUTES=N: npool-fwd on net_pcap,infinite_rx=1 with a mix of
# every capture in tests/data/captures for N minutes (split between its
# variants: --pool npool --copybreak 256, --pool mempool), checked every
# 10 s over telemetry against the RFC 1812 oracle, outstanding buffers and
# RSS bounded; SIGINT and the leak check at the end. Non-zero exit on any
# drift. Figures in BUILD/soak-report.json.
#   scripts/soak.sh BUILD MINUTES
set -euo pipefail

build=${1:-build}
minutes=${2:-30}
cd "$(dirname "$0")/.."
if ! [[ $minutes =~ ^[0-9]+([.][0-9]+)?$ ]] || [ "$minutes" = 0 ]; then
	echo "soak.sh: MINUTES must be a positive number, not '$minutes'" >&2
	exit 2
fi
[ -f "$build/build.ninja" ] || meson setup "$build"
ninja -C "$build"
captures=${NPOOL_CAPTURES:-tests/data/captures}
report=$build/soak-report.json
echo "soak: $minutes min, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
python3 tests/integration/soak.py --app "$build/apps/fwd/npool-fwd" \
	--captures "$captures" --minutes "$minutes" --report "$report" ||
	status=$?
[ -f "$report" ] && echo "soak: figures in $report"
exit $status
