#!/bin/bash
# Allocator microbenchmarks (tests/bench): configure and build a release
# build dir, run every benchmark (A and B alternating in each process),
# print one table and write BUILD/bench/results.json (one JSON document
# for the run) and BUILD/bench/table.md; a full run (not QUICK=1, no
# BENCHES=) also writes its table into docs/perf/<cpu-model>.md
# (scripts/bench-readme.py).
# Then the app benchmarks (tests/bench/apps_bench.py, section "Apps"
# below): npool-drop vs dpdk-testpmd rxonly and npool-fwd vs DPDK's l3fwd
# example (built in BUILD/l3fwd), Mpps from port counters, their own
# table in the same files and BUILD/bench/apps-mpps.png.
#
# Memory: as root the run reserves 2 MiB hugepages (tests/bench/
# hugepages.py: HUGEPAGES more than are free, 1024 by default, a private
# hugetlbfs mounted on BUILD/bench/hugetlbfs) and gives back exactly what
# it added at the end, also on Ctrl-C or a failure. Every tool then runs
# on hugepages (--huge-dir, --in-memory), and in full mode the app cases
# with a target run on --no-huge as well (their second column). Not root,
# or no page granted: everything runs --no-huge, and the header and
# results.json say so.
#
# Usage: scripts/bench.sh [BUILD_DIR]      (default build-bench)
#   QUICK=1     quick mode: fewer operations per round, still >= 5 rounds
#               (apps: 2 rounds of 0.5 s, no size sweep, hugepages only,
#               no callgrind)
#   NOHUGE=1    no hugepages: every bench --no-huge
#   ALLOC_NOHUGE=1  the allocator benches on --no-huge too (after the
#               hugepage run)
#   CALLGRIND=0 no instruction counts: none for the missed targets (full
#               mode runs scripts/bench-callgrind.sh and tests/bench/
#               alloc_callgrind.py for them), and no
#               instruction budget of the fwd path (every run with fwd)
#   BENCHES="frag pkt"   run only these (frag pkt hc reuse refcnt mem
#               retain handoff drop fwd routes); BENCHES=handoff
#               runs the hand-off alone, its callgrind counts included
#   NATIVE=1    the fwd rows also on -march=native builds of npool-fwd
#               and l3fwd (below)
#   ROUNDS=N    rounds per variant (default 11, quick 5; apps 5, quick 2)
#   APP_ROUNDS=N  the apps' rounds alone (default ROUNDS); CI's smoke run
#               takes 1: every case runs, no ratio is a median
#
# -march: the build is DPDK's baseline (Debian's pkg-config adds
# -march=corei7 after the project's c_args), as a user's default build.
# NATIVE=1 also builds npool's apps and DPDK's l3fwd with -march=native
# (BUILD_DIR/native; meson pointed at a copy of libdpdk.pc whose
# -march=corei7 reads -march=native, -Dpkg_config_path, since
# -Dc_args=-march=native alone would be overridden) and runs the fwd rows
# again on them, their case names ending in "native". When the compiler
# rejects -march=native NATIVE=1 says so and runs the baseline only.
# Either way the header prints the -march that reaches the compiler.
# Delete BUILD_DIR to reconfigure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-bench}
case $build in /*) ;; *) build=$root/$build ;; esac
quick=${QUICK:-0}
[ "$quick" = 0 ] && quick=
benches=${BENCHES:-frag pkt hc reuse refcnt mem retain handoff drop fwd routes}
# The app benchmarks (drop, fwd) run apart from the allocator programs.
alloc_benches=
app_benches=
for b in $benches; do
	case $b in
	drop | fwd) app_benches="$app_benches $b" ;;
	routes) ;;
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

# configure DIR [native]: a release build of the tree in DIR, DPDK's
# baseline -march or (native) -march=native.
configure() {
	local dir=$1 opts=(-Dbuildtype=release -Dbench=true -Dtests=true)

	if [ "${2:-}" = native ]; then
		native_pc "$dir/dpdk-native-pc"
		opts+=(-Dc_args=-march=native
			"-Dpkg_config_path=$dir/dpdk-native-pc")
	fi
	mkdir -p "$dir"
	meson setup "$dir" "$root" "${opts[@]}" >"$dir/setup.log" 2>&1 || {
		cat "$dir/setup.log" >&2
		exit 1
	}
}

native=
if [ "${NATIVE:-0}" != 0 ] && [[ " $benches " == *" fwd "* ]]; then
	if echo 'int main(void) { return 0; }' |
			cc -march=native -x c - -o /dev/null 2>/dev/null; then
		native=$build/native
	else
		echo "bench.sh: the compiler rejects -march=native: NATIVE=1" \
			"ignored" >&2
	fi
fi

[ -f "$build/build.ninja" ] || configure "$build"
# A build dir of the days when the bench built -march=native: back to the
# baseline (NATIVE=1 builds its own).
if [ -d "$build/dpdk-native-pc" ]; then
	meson configure "$build" -Dc_args= -Dpkg_config_path= \
		>"$build/setup.log" 2>&1
	rm -rf "$build/dpdk-native-pc"
fi
if [ -n "$native" ]; then
	[ -f "$native/build.ninja" ] || configure "$native" native
	ninja -C "$native" apps/fwd/npool-fwd >"$native/bench-build.log" \
		2>&1 || { cat "$native/bench-build.log" >&2; exit 1; }
fi
progs=()
for b in $alloc_benches; do
	progs+=("tests/bench/npool-bench-$b")
done
[ -n "$app_benches" ] && progs+=(apps/drop/npool-drop apps/fwd/npool-fwd)
[[ " $benches " == *" routes "* ]] && progs+=(apps/fwd/npool-fwd)
ninja -C "$build" "${progs[@]}" >"$build/bench-build.log" 2>&1 || {
	cat "$build/bench-build.log" >&2
	exit 1
}

# The -march the compiler really got: the last one on a bench compile.
march=$(grep -A3 'bench_frag.c.o:' "$build/build.ninja" |
	grep -o -- '-march=[a-z0-9_-]*' | tail -1 || true)
mode="DPDK baseline (-O3 ${march:-?})"
[ -n "$native" ] && mode+="; fwd rows also -march=native (NATIVE=1)"

out=$build/bench
mkdir -p "$out"
rows=$out/rows.jsonl
table=$out/table.md
: >"$rows"
: >"$table"
args=(--json "$rows")
[ -n "$quick" ] && args+=(--quick)
[ -n "${ROUNDS:-}" ] && args+=(--rounds "$ROUNDS")
app_rounds=${APP_ROUNDS:-${ROUNDS:-}}

# ---- Memory: 2 MiB hugepages for the run, given back on any exit -------
hp_state=$out/hugepages.state
hp_py=$root/tests/bench/hugepages.py
release_hugepages() {
	python3 "$hp_py" release --state "$hp_state" || true
}
trap release_hugepages EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
release_hugepages   # a state left by a run killed with SIGKILL
huge_dir=
mem_why=
if [ -n "${NOHUGE:-}" ]; then
	mem_why="NOHUGE=1"
elif [ "$(id -u)" -ne 0 ]; then
	mem_why="not root: cannot reserve hugepages"
else
	read -r huge_dir hp_free hp_added < <(python3 "$hp_py" reserve \
		--pages "${HUGEPAGES:-1024}" --need 256 --state "$hp_state" \
		--mount "$out/hugetlbfs") || true
	if [ -z "$huge_dir" ] || [ "$huge_dir" = - ]; then
		huge_dir=
		mem_why="fewer than 256 2 MiB hugepages (-m 512) granted"
	fi
fi
mem_mode=no-huge
if [ -n "$huge_dir" ]; then
	mem_mode=hugepages
	memory="hugepages (2 MiB: $hp_added added, $hp_free free;"
	memory+=" hugetlbfs $huge_dir)"
	alloc_mem=(--huge-dir "$huge_dir")
else
	memory="no-huge ($mem_why)"
	alloc_mem=(--no-huge)
fi

# CPU, kernel, DPDK: the header of the output, of table.md and results.json.
cpu_field() {
	lscpu 2>/dev/null | sed -n "s/^$1: *//p" | head -1
}
cpu_model=$(cpu_field 'Model name')
[ -n "$cpu_model" ] || cpu_model=$(sed -n 's/^model name\s*: //p' \
	/proc/cpuinfo | head -1)
cpu_vendor=$(cpu_field 'Vendor ID')
cpu_mhz=$(cpu_field 'CPU max MHz')
[ -n "$cpu_mhz" ] || cpu_mhz=$(cpu_field 'CPU MHz')
[ -n "$cpu_mhz" ] || cpu_mhz=$(sed -n 's/^cpu MHz\s*: //p' /proc/cpuinfo |
	head -1)
kernel=$(uname -r)
dpdk=$(pkg-config --modversion libdpdk)
rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo -)

load=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "npool benchmarks at $rev: ${cpu_model:-?} (${cpu_vendor:-?}," \
		"${cpu_mhz:-?} MHz), $(nproc) CPUs, kernel $kernel, DPDK $dpdk"
	echo "build $mode; memory $memory; ${quick:+QUICK }run" \
		"$(date -u +%FT%TZ); load $load at the start"
	echo "cycles: rte_rdtsc_precise(); value = median over rounds;" \
		"ratio = median of per-round value/anchor (same process," \
		"alternating)"
	echo
} | tee -a "$table"
start=$SECONDS
run_alloc() {
	local hdr=() b
	for b in $alloc_benches; do
		if ! "$build/tests/bench/npool-bench-$b" "${args[@]}" "$@" \
				"${hdr[@]}" 2>"$out/$b.log" | tee -a "$table"; then
			echo "bench.sh: npool-bench-$b failed:" >&2
			tail -20 "$out/$b.log" >&2
			exit 1
		fi
		hdr=(--no-header)
	done
}
if [ -n "$alloc_benches" ]; then
	echo "Allocator benchmarks, $mem_mode" \
		"(retain, mem: --no-huge always, they probe RSS):" |
		tee -a "$table"
	run_alloc "${alloc_mem[@]}"
	if [ -n "$huge_dir" ] && [ -n "${ALLOC_NOHUGE:-}" ]; then
		echo | tee -a "$table"
		echo "Allocator benchmarks, no-huge (ALLOC_NOHUGE=1):" |
			tee -a "$table"
		run_alloc --no-huge
	fi
fi

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
	[ -n "$quick" ] && app_args+=(--quick)
	[ -n "$app_rounds" ] && app_args+=(--rounds "$app_rounds")
	if [ -z "$huge_dir" ]; then
		app_args+=(--mem nohuge)
	elif [ -n "$quick" ]; then
		app_args+=(--mem huge --huge-dir "$huge_dir")
	else
		app_args+=(--mem "huge nohuge" --huge-dir "$huge_dir")
	fi
	if ! python3 "$root/tests/bench/apps_bench.py" "${app_args[@]}" \
			2>"$out/apps.log" | tee -a "$table"; then
		echo "bench.sh: tests/bench/apps_bench.py failed:" >&2
		tail -20 "$out/apps.log" >&2
		exit 1
	fi
	# NATIVE=1: the fwd rows again, npool-fwd and l3fwd -march=native.
	if [ -n "$native" ]; then
		echo | tee -a "$table"
		nat_args=(--fwd "$native/apps/fwd/npool-fwd" --out "$out/native"
			--l3fwd-dir "$native/l3fwd" --only fwd --json "$rows"
			--pkg-config-path "$native/dpdk-native-pc"
			--build-label native --no-header)
		[ -n "$quick" ] && nat_args+=(--quick)
		[ -n "$app_rounds" ] && nat_args+=(--rounds "$app_rounds")
		if [ -n "$huge_dir" ]; then
			nat_args+=(--mem huge --huge-dir "$huge_dir")
		else
			nat_args+=(--mem nohuge)
		fi
		if ! python3 "$root/tests/bench/apps_bench.py" \
				"${nat_args[@]}" 2>"$out/apps-native.log" |
				tee -a "$table"; then
			echo "bench.sh: tests/bench/apps_bench.py (native)" \
				"failed:" >&2
			tail -20 "$out/apps-native.log" >&2
			exit 1
		fi
	fi
fi

# ---- FPM's routes into npool-fwd's tables (issue 34) --------------------
# Routes a second applied (add, replace, delete of 100000 routes via a
# gateway; 20000 with QUICK=1) and the time from FPM to a lookup
# (tests/bench/route_rate.py, net_null ports, telemetry polled), with
# --lookup lpm and fib.
if [[ " $benches " == *" routes "* ]]; then
	rr_routes=100000
	[ -n "$quick" ] && rr_routes=20000
	for rr_lookup in lpm fib; do
		echo | tee -a "$table"
		if ! python3 "$root/tests/bench/route_rate.py" \
				--fwd "$build/apps/fwd/npool-fwd" \
				--routes "$rr_routes" --lookup "$rr_lookup" \
				--json "$out/routes-$rr_lookup.json" \
				2>"$out/routes.log" | tee -a "$table"; then
			echo "bench.sh: tests/bench/route_rate.py failed:" >&2
			tail -20 "$out/routes.log" >&2
			exit 1
		fi
	done
fi

{
	echo
	echo "Targets (issues 3, 10, 11):"
	grep -E '\| (PASS|MISS|MISSING) ' "$table" | awk -F'|' '
		function t(s) { gsub(/^ +| +$/, "", s); return s }
		{ printf "  %s: %s / %s / %s = %s %s (ratio %s to %s)\n",
			t($11), t($2), t($3), t($4), t($6), t($7), t($9),
			t($10) }
		END { if (NR == 0) print "  (none in this selection)" }' ||
		true
} | tee "$out/targets.txt"

# ---- Why a target was missed: instructions per packet (callgrind) ------
# Under valgrind (it decodes no AVX-512), so from BUILD/cg: -O3 -g,
# DPDK's baseline -march. Allocator rows: tests/bench/alloc_callgrind.py
# (each missed case once more, --instr, every variant of it counted);
# app rows: scripts/bench-callgrind.sh. Each prints its table, then the
# target list carries the counts under each MISS line.
cg_build=$build/cg
cg_setup() {
	[ -f "$cg_build/build.ninja" ] ||
		meson setup "$cg_build" "$root" -Ddebug=true \
			>"$out/cg-setup.log" 2>&1
	ninja -C "$cg_build" "$@" >/dev/null
}
cg_json=$out/callgrind.json
cg_alloc_json=$out/callgrind-alloc.json
rm -f "$cg_json" "$cg_alloc_json"
if [ -z "$quick" ] && [ "${CALLGRIND:-1}" != 0 ] &&
		grep -q ' MISS ' "$out/targets.txt"; then
	cg_shown=()
	if [ -n "$alloc_benches" ] && command -v valgrind >/dev/null; then
		echo
		# shellcheck disable=SC2046
		cg_setup $(printf 'tests/bench/npool-bench-%s ' $alloc_benches)
		if python3 "$root/tests/bench/alloc_callgrind.py" --rows "$rows" \
				--build "$cg_build" --out "$cg_alloc_json"; then
			cg_shown+=("$cg_alloc_json")
		else
			echo "bench.sh: alloc_callgrind.py failed" >&2
		fi
	fi
	if [ -n "$app_benches" ]; then
		echo
		if bash "$root/scripts/bench-callgrind.sh" --rows "$rows" \
				--out "$cg_json"; then
			cg_shown+=("$cg_json")
		else
			echo "bench.sh: bench-callgrind.sh failed (see above)" >&2
		fi
	fi
	if [ ${#cg_shown[@]} -gt 0 ]; then
		echo
		python3 "$root/tests/bench/apps_callgrind.py" --show \
			"${cg_shown[@]}" --targets "$out/targets.txt" |
			tee "$out/targets-cg.txt"
		mv "$out/targets-cg.txt" "$out/targets.txt"
	fi
fi

# ---- The hand-off's instructions and atomics a packet (issue 35) -------
# Every full run with handoff (not QUICK=1; CALLGRIND=0 skips it): each
# case once more under callgrind --collect-bus=yes (tests/bench/
# handoff_callgrind.py), rows in results.json beside the timed ones: the
# rates of a busy 2-core machine move, the counts do not.
ho_cg=$out/handoff-cg.txt
rm -f "$ho_cg"
if [ -z "$quick" ] && [[ " $alloc_benches " == *" handoff "* ]] &&
		[ "${CALLGRIND:-1}" != 0 ]; then
	if command -v valgrind >/dev/null; then
		cg_setup tests/bench/npool-bench-handoff
		echo
		python3 "$root/tests/bench/handoff_callgrind.py" \
			--prog "$cg_build/tests/bench/npool-bench-handoff" \
			--json "$rows" --work "$out/callgrind-handoff" |
			tee "$ho_cg" ||
			echo "bench.sh: handoff_callgrind.py failed" >&2
	else
		echo "bench.sh: no valgrind, no hand-off counts" \
			"(scripts/deps.sh bench)" >&2
	fi
fi

# ---- The instruction budget of the fwd path, every run (issue 17) ------
# Instructions per packet per stage, npool-fwd --copybreak 0 and 256 and
# l3fwd-lpm, pcap -> null, on the three frame sets of the fwd rows (QUICK=1:
# the 64 B one) (tests/bench/apps_budget.py): counted, so it holds on a
# busy machine where the Mpps do not. Needs valgrind; built in BUILD/cg
# (-O3 -g, DPDK's baseline -march: valgrind decodes no AVX-512).
budget_json=$out/budget.json
rm -f "$budget_json" "$out/budget.txt"
if [[ " $app_benches " == *" fwd "* ]] && [ "${CALLGRIND:-1}" != 0 ]; then
	if command -v valgrind >/dev/null; then
		cg_setup apps/fwd/npool-fwd
		echo
		# The l3fwd of the timed rows (DPDK's baseline -march, built
		# once: NATIVE=1's is apart).
		python3 "$root/tests/bench/apps_budget.py" --build "$cg_build" \
			--l3fwd-dir "$build/l3fwd" \
			${quick:+--frames udp64} \
			--out "$budget_json" | tee "$out/budget.txt" ||
			echo "bench.sh: apps_budget.py failed" >&2
	else
		echo "bench.sh: no valgrind, no instruction budget" \
			"(scripts/deps.sh bench)" >&2
	fi
fi

load_end=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo
	echo "load average $load at the start, $load_end at the end;" \
		"$((SECONDS - start)) s"
} | tee -a "$table"
cat "$out/targets.txt" >>"$table"
if [ -f "$ho_cg" ]; then
	echo >>"$table"
	cat "$ho_cg" >>"$table"
fi
[ -f "$out/budget.txt" ] && cat "$out/budget.txt" >>"$table"

META_BUILD=$mode META_QUICK=${quick:+1} META_GIT=$rev \
META_CPU_MODEL=$cpu_model META_CPU_VENDOR=$cpu_vendor META_CPU_MHZ=$cpu_mhz \
META_KERNEL=$kernel META_DPDK=$dpdk META_MEMORY=$memory \
META_MEMORY_MODE=$mem_mode \
META_SECONDS=$((SECONDS - start)) META_LOAD=$load META_LOAD_END=$load_end \
python3 - "$rows" "$out/results.json" "$cg_json" "$cg_alloc_json" <<'EOF'
import json, os, sys, time
rows_path, out_path = sys.argv[1:3]
m = lambda k: os.environ.get('META_' + k, '')
rows = [json.loads(l) for l in open(rows_path) if l.strip()]
cg = {}
for cg_path in sys.argv[3:]:
    try:
        cg.update(json.load(open(cg_path)))
    except OSError:
        pass
for r in rows:
    key = '%s|%s|%s' % (r['bench'], r['case'], r['variant'])
    if key in cg:
        r['callgrind'] = cg[key]
doc = {
    'meta': {'build': m('BUILD'), 'quick': bool(m('QUICK')),
             'git': m('GIT'),
             'cpu': {'model': m('CPU_MODEL'), 'vendor': m('CPU_VENDOR'),
                     'mhz': m('CPU_MHZ'), 'cpus': os.cpu_count()},
             'kernel': m('KERNEL'), 'dpdk': m('DPDK'),
             'memory': m('MEMORY'), 'memory_mode': m('MEMORY_MODE'),
             'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
             'seconds': int(m('SECONDS')), 'rows': len(rows),
             'loadavg_at_start': m('LOAD'), 'loadavg_at_end': m('LOAD_END')},
    'results': rows,
}
try:
    # The fwd path's instruction budget, as apps_budget.py printed it.
    doc['budget'] = open(os.path.join(os.path.dirname(out_path),
                                      'budget.txt')).read()
except OSError:
    pass
json.dump(doc, open(out_path, 'w'), indent=1)
print('\n%d rows in %s s -> %s' % (len(rows), m('SECONDS'), out_path))
EOF

# A full run's table goes into docs/perf/<cpu-model>.md (the figures of
# record, docs/perf/methodology.md); QUICK=1 runs (CI) and runs of some
# benches only (BENCHES=) leave the tree alone: the file's table would
# lose every other bench's rows. PERF_DIR=DIR writes elsewhere.
if [ -z "$quick" ] && { [ -z "${BENCHES:-}" ] || [ -n "${PERF_DIR:-}" ]; }; then
	python3 "$root/scripts/bench-readme.py" \
		--perf-dir "${PERF_DIR:-$root/docs/perf}" "$out/results.json"
fi
