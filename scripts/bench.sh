#!/bin/bash
# Allocator microbenchmarks (tests/bench): configure and build a release
# build dir, run every benchmark (A and B alternating in each process),
# print one table and write BUILD/bench/results.json (one JSON document
# for the run) and BUILD/bench/table.md.
# Then the app benchmarks (tests/bench/apps_bench.py, section "Apps"
# below): npool-drop vs dpdk-testpmd rxonly and npool-fwd vs DPDK's l3fwd
# example (built in BUILD/l3fwd), Mpps from port counters, their own
# table in the same files and BUILD/bench/apps-mpps.png.
#
# Usage: scripts/bench.sh [BUILD_DIR]      (default build-bench)
#   QUICK=1     quick mode: fewer operations per round, still >= 5 rounds
#               (apps: 2 rounds of 0.5 s, no size sweep)
#   BENCHES="frag pkt"   run only these (frag pkt hc reuse refcnt mem
#               retain drop fwd)
#   ROUNDS=N    rounds per variant (default 11, quick 5; apps 5, quick 2)
#
# -march: DPDK's pkg-config (Debian) adds -march=corei7 after the
# project's c_args, so -Dc_args=-march=native alone would be overridden.
# For native the script points meson at a copy of libdpdk.pc whose
# -march=corei7 reads -march=native (-Dpkg_config_path); when the compiler
# rejects -march=native it keeps DPDK's baseline. Either way it prints the
# -march that reaches the compiler. Delete BUILD_DIR to reconfigure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-bench}
case $build in /*) ;; *) build=$root/$build ;; esac
quick=${QUICK:-0}
[ "$quick" = 0 ] && quick=
benches=${BENCHES:-frag pkt hc reuse refcnt mem retain drop fwd}
# The app benchmarks (drop, fwd) run apart from the allocator programs.
alloc_benches=
app_benches=
for b in $benches; do
	case $b in
	drop | fwd) app_benches="$app_benches $b" ;;
	*) alloc_benches="$alloc_benches $b" ;;
	esac
done

# Copy DPDK's .pc files with -march=corei7 replaced by -march=native.
native_pc() {
	local dst=$1 src
	src=$(pkg-config --variable=pcfiledir libdpdk)
	mkdir -p "$dst"
	for pc in "$src"/libdpdk.pc "$src"/libdpdk-libs.pc; do
		[ -f "$pc" ] || continue
		sed 's/-march=[a-z0-9_-]*/-march=native/g' "$pc" \
			>"$dst/$(basename "$pc")"
	done
}

configure() {
	local opts=(-Dbuildtype=release -Dbench=true -Dtests=true)

	if echo 'int main(void) { return 0; }' |
			cc -march=native -x c - -o /dev/null 2>/dev/null; then
		native_pc "$build/dpdk-native-pc"
		opts+=(-Dc_args=-march=native
			"-Dpkg_config_path=$build/dpdk-native-pc")
	else
		echo "bench.sh: the compiler rejects -march=native:" \
			"DPDK's baseline" >&2
	fi
	mkdir -p "$build"
	meson setup "$build" "$root" "${opts[@]}" >"$build/setup.log" 2>&1 || {
		cat "$build/setup.log" >&2
		exit 1
	}
}

[ -f "$build/build.ninja" ] || configure
progs=()
for b in $alloc_benches; do
	progs+=("tests/bench/npool-bench-$b")
done
[ -n "$app_benches" ] && progs+=(apps/drop/npool-drop apps/fwd/npool-fwd)
ninja -C "$build" "${progs[@]}" >"$build/bench-build.log" 2>&1 || {
	cat "$build/bench-build.log" >&2
	exit 1
}

# The -march the compiler really got: the last one on a bench compile.
march=$(grep -A3 'bench_frag.c.o:' "$build/build.ninja" |
	grep -o -- '-march=[a-z0-9_-]*' | tail -1 || true)
case $march in
*native) mode="native (-O3 $march)" ;;
*) mode="DPDK baseline (-O3 ${march:-?})" ;;
esac

out=$build/bench
mkdir -p "$out"
rows=$out/rows.jsonl
table=$out/table.md
: >"$rows"
: >"$table"
args=(--json "$rows")
[ -n "$quick" ] && args+=(--quick)
[ -n "${ROUNDS:-}" ] && args+=(--rounds "$ROUNDS")

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "npool allocator benchmarks: build $mode, $(nproc) CPUs (load $load)," \
	"DPDK $(pkg-config --modversion libdpdk), ${quick:+QUICK }run $(date -u +%FT%TZ)"
echo "cycles: rte_rdtsc_precise(); value = median over rounds; ratio =" \
	"median of per-round value/anchor (same process, alternating)"
echo
hdr=()
start=$SECONDS
for b in $alloc_benches; do
	if ! "$build/tests/bench/npool-bench-$b" "${args[@]}" "${hdr[@]}" \
			2>"$out/$b.log" | tee -a "$table"; then
		echo "bench.sh: npool-bench-$b failed:" >&2
		tail -20 "$out/$b.log" >&2
		exit 1
	fi
	hdr=(--no-header)
done

# ---- Apps: npool-drop / npool-fwd against testpmd / l3fwd --------------
# tests/bench/apps_bench.py builds l3fwd (same -march as the apps), writes
# the pcaps, runs every variant alternating per round, prints its own
# table (same columns) and notes, appends rows to $rows and plots. A
# missing anchor (no testpmd, l3fwd build failure) is a MISSING row.
if [ -n "$app_benches" ]; then
	[ -n "$alloc_benches" ] && echo
	app_args=(--drop "$build/apps/drop/npool-drop"
		--fwd "$build/apps/fwd/npool-fwd" --out "$out"
		--l3fwd-dir "$build/l3fwd" --only "$app_benches" --plot
		--json "$rows")
	[ -d "$build/dpdk-native-pc" ] &&
		app_args+=(--pkg-config-path "$build/dpdk-native-pc")
	[ -n "$quick" ] && app_args+=(--quick)
	[ -n "${ROUNDS:-}" ] && app_args+=(--rounds "$ROUNDS")
	if ! python3 "$root/tests/bench/apps_bench.py" "${app_args[@]}" \
			2>"$out/apps.log" | tee -a "$table"; then
		echo "bench.sh: tests/bench/apps_bench.py failed:" >&2
		tail -20 "$out/apps.log" >&2
		exit 1
	fi
fi

echo
echo "Targets (issue 3):"
grep -E '\| (PASS|MISS|MISSING) ' "$table" | awk -F'|' '
	function t(s) { gsub(/^ +| +$/, "", s); return s }
	{ printf "  %s: %s / %s / %s = %s %s (ratio %s to %s)\n", t($11),
		t($2), t($3), t($4), t($6), t($7), t($9), t($10) }
	END { if (NR == 0) print "  (none in this selection)" }' || true

python3 - "$rows" "$out/results.json" "$mode" "${quick:+1}" \
		"$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo -)" \
		"$((SECONDS - start))" "$load" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" <<'EOF'
import json, platform, sys, time
rows_path, out_path, mode, quick, rev, secs, load, load_end = sys.argv[1:9]
rows = [json.loads(l) for l in open(rows_path) if l.strip()]
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
            if l.startswith('model name')), platform.machine())
doc = {
    'meta': {'build': mode, 'quick': bool(quick), 'git': rev,
             'cpu': cpu, 'kernel': platform.release(),
             'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
             'seconds': int(secs), 'rows': len(rows),
             'loadavg_at_start': load, 'loadavg_at_end': load_end},
    'results': rows,
}
json.dump(doc, open(out_path, 'w'), indent=1)
print(f"\n{len(rows)} rows in {secs} s -> {out_path}")
EOF
