#!/bin/bash
# ThreadSanitizer build of the multi-lcore tests (make tsan, CI).
#
# Configures BUILD_DIR (default build-tsan) with -Db_sanitize=thread
# -Db_lundef=false -Dbench=false (debugoptimized), builds it and runs,
# under TSan:
#   - the unit tests that use more than one lcore or thread: frag_thread
#     (remote frees, guarded flavor from a non-EAL thread, concurrent
#     alloc/free over two lcores and a pthread), head_cache and
#     mempool_ops (caches of two lcores, the store from a pthread), pkt,
#     pkt_clone and stats (packets and counters across lcores),
#     pkt_defer (packets handed back to the lcore that made them),
#     pkt_keep (a kept packet condensed from a non-EAL thread);
#   - the sanitizers suite (the canary's deliberate data race must be
#     caught, the harness must see it, libnpool must be instrumented);
#   - the stress suite's short run, when tests/stress defines it.
# The test setup of tests/sanitizers/meson.build gives every test
# TSAN_OPTIONS (halt and abort on the first report, the suppressions of
# tests/sanitizers/tsan.supp) and a timeout multiplier.
#
# Usage: scripts/tsan.sh [BUILD_DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-tsan}
case $build in /*) ;; *) build=$root/$build ;; esac
unit_tests="frag_thread frag_pcp head_cache mempool_ops pkt pkt_clone stats pkt_defer pkt_keep pkt_mid"

if [ ! -f "$build/build.ninja" ]; then
	# -O2 -g: reports name files and lines.
	meson setup "$build" "$root" -Db_sanitize=thread -Db_lundef=false \
		-Dbench=false --buildtype=debugoptimized
fi
# Only what the selected tests run (and what those link): not the apps.
# shellcheck disable=SC2086
mapfile -t targets < <(python3 - "$build" $unit_tests <<'EOF'
import json, os, subprocess, sys
build, units = sys.argv[1], set(sys.argv[2:])
tests = json.loads(subprocess.run(
    ['meson', 'introspect', '--tests', build], check=True,
    capture_output=True, text=True).stdout)
outs = set(l.rsplit(':', 1)[0] for l in subprocess.run(
    ['ninja', '-C', build, '-t', 'targets', 'all'], check=True,
    capture_output=True, text=True).stdout.splitlines())
for t in tests:
    # meson names each suite PROJECT:SUITE
    suites = {s.split(':')[-1] for s in t['suite']}
    if ('sanitizers' in suites or 'stress' in suites or
            ('unit' in suites and t['name'] in units)):
        for c in t['cmd']:
            rel = os.path.relpath(c, build)
            if c.startswith(build + '/') and rel in outs:
                print(rel)
EOF
)
ninja -C "$build" "${targets[@]}"

start=$(date +%s)
# meson test selects the intersection of names and suites: one run per
# group. Both run even if the first fails; the status is the worst.
status=0
meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 2 \
	--suite sanitizers || status=1
meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 2 \
	--suite unit $unit_tests || status=1
stress=$(meson test -C "$build" --no-rebuild --list --suite stress \
	2>/dev/null || true)
if [ -n "$stress" ]; then
	meson test -C "$build" --no-rebuild --print-errorlogs \
		--suite stress || status=1
else
	echo "tsan: no stress suite in this tree yet"
fi
echo "tsan: $(( $(date +%s) - start )) s of tests, status $status"
exit $status
