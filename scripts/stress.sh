#!/bin/bash
# Multi-lcore allocator stress (make stress): configure and build a build
# dir of its own, then run tests/stress/npool-stress with at least 1e9
# operations at nice 10: lcores 0 and 1 plus one non-EAL thread allocate
# fragments and packets of random sizes and alignments, pass them to one
# another through rte_rings and free them remotely. It prints the seed,
# ops, ops/s, per-kind counts, npool's counters against the workers' and
# the final npool_audit(); the exit status is non-zero on any
# inconsistency (1), a bad command line (2) or a set-up failure (3).
#
# Usage: scripts/stress.sh [BUILD_DIR]     (default build-stress)
#   OPS=N          operations, at least (default 1e9)
#   SEED=S         PRNG seed to repeat a run (default: from the clock)
#   PROGRESS=SEC   seconds between progress lines (default 30)
#   DEBUG=1        configure BUILD_DIR with -Dnpool_debug=true (the
#                  misuse checks: slower); a new BUILD_DIR is needed to
#                  switch an existing one
# Needs 2 CPUs (lcores 0-1), no hugepages (--no-huge -m 1024), root or
# a writable /var/run/dpdk; the EAL file prefix is np-st-<pid>.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-stress}
case $build in /*) ;; *) build=$root/$build ;; esac
ops=${OPS:-1e9}
progress=${PROGRESS:-30}
opts=(-Dbench=false)
[ "${DEBUG:-0}" != 0 ] && opts+=(-Dnpool_debug=true)

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" "${opts[@]}"
fi
ninja -C "$build" tests/stress/npool-stress
args=(--ops "$ops" --progress "$progress")
[ -n "${SEED:-}" ] && args+=(--seed "$SEED")
exec nice -n 10 "$build/tests/stress/npool-stress" "${args[@]}"
