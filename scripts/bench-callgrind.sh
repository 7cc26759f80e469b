#!/bin/bash
# Why a target of make bench was missed: instructions per packet of
# npool's app and of its anchor (or reference row) under valgrind
# --tool=callgrind, for every MISS row of an app bench run
# (tests/bench/apps_callgrind.py has the method). scripts/bench.sh runs
# it in full mode; by hand, after a make bench:
#
#   scripts/bench-callgrind.sh [--rows build-bench/bench/rows.jsonl]
#                              [--out build-bench/bench/callgrind.json]
#
# valgrind decodes no AVX-512, so the apps come from make's build/ (DPDK's
# baseline -march; configured and built here when missing) and l3fwd is
# built for the baseline in build/l3fwd-baseline. Each variant runs once
# for a 1 s warm-up and a 3 s window, under valgrind some 50 times slower.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
rows=$root/build-bench/bench/rows.jsonl
out=$root/build-bench/bench/callgrind.json
while [ $# -gt 0 ]; do
	case $1 in
	--rows) rows=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "bench-callgrind.sh: unknown option '$1'" \
		"(--rows FILE, --out FILE)" >&2; exit 2 ;;
	esac
done
[ -f "$rows" ] || { echo "bench-callgrind.sh: no $rows (run make bench)" >&2
	exit 2; }
bash "$root/scripts/deps.sh" bench
if [ ! -f "$build/build.ninja" ]; then
	log=$(mktemp)
	meson setup "$build" "$root" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
	rm -f "$log"
fi
ninja -C "$build" apps/drop/npool-drop apps/fwd/npool-fwd >/dev/null
exec python3 "$root/tests/bench/apps_callgrind.py" --rows "$rows" \
	--out "$out" --build "$build" --l3fwd-dir "$build/l3fwd-baseline"
