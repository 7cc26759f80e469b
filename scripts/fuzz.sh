#!/bin/bash
# Fuzz every libFuzzer target of tests/fuzz for SECONDS each (make fuzz).
#   scripts/fuzz.sh [BUILD] [SECONDS] [TARGET...]   (default build-fuzz 60, all)
#   JOBS=N  targets at a time (default: one per CPU)
# BUILD is configured once with clang, -Dfuzz=true, ASan + UBSan (every
# finding fatal) and -fsanitize=fuzzer-no-link on everything the targets
# link. Each target starts from the committed corpus, its regressions and
# seeds made now from tests/data/captures (make_seeds.py); what it learns
# stays in BUILD/fuzz/corpus/TARGET for the next run. Prints executions,
# exec/s, coverage and features per target; on a crash it shows the
# failing check, keeps the reproducer and exits 1.
set -euo pipefail

build=${1:-build-fuzz}
secs=${2:-60}
shift $(( $# < 2 ? $# : 2 ))
targets=${*:-fwd_pkt fwd_route app_cli npool_ops fwd_fpm}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

declare -A max_len=([fwd_pkt]=9300 [fwd_route]=4096 [app_cli]=1024 [fwd_fpm]=8192
	[npool_ops]=512)

# meson puts ccache in front of the compiler it finds, not of one named by
# CC: name it here too (CI's builds share one ccache, this one included).
cc=clang
command -v ccache >/dev/null && cc="ccache clang"
if [ ! -f "$build/build.ninja" ]; then
	CC=$cc meson setup "$build" -Dfuzz=true -Dbench=false \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized \
		"-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer"
fi
bins=()
for t in $targets; do
	[ -n "${max_len[$t]:-}" ] || { echo "fuzz.sh: no target $t" >&2; exit 2; }
	bins+=("tests/fuzz/${t}_fuzz")
done
ninja -C "$build" "${bins[@]}"

work=$build/fuzz
mkdir -p "$work/seeds"
python3 tests/fuzz/make_seeds.py --out "$work/seeds" \
	--captures tests/data/captures --per-capture 8 --max-frame 9000 \
	>/dev/null

# DPDK's own allocations live until exit: check leaks per input only.
export ASAN_OPTIONS=${ASAN_OPTIONS:-leak_check_at_exit=0:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# What a target process that is gone may leave after a crash: its EAL
# runtime folder, app_cli's --json folder.
leftovers_rm() {
	rm -rf "/var/run/dpdk/np-fz-$1-$2" \
		"${XDG_RUNTIME_DIR:-/tmp}/dpdk/np-fz-$1-$2" "/tmp/np-fz-cli-$2"
}

# The targets side by side, JOBS at a time (default: one per CPU): each
# still gets SECONDS of a CPU of its own. Reported in order once all end.
jobs=${JOBS:-$(nproc)}
for t in $targets; do
	bin=$build/tests/fuzz/${t}_fuzz
	log=$work/$t.log
	art=$work/artifacts/$t/
	dict=tests/fuzz/$t.dict
	mkdir -p "$work/corpus/$t" "$art"
	opts=(-max_total_time="$secs" -max_len="${max_len[$t]}" -timeout=60
		-rss_limit_mb=4096 -close_fd_mask=3 -print_final_stats=1
		-artifact_prefix="$art")
	[ -f "$dict" ] && opts+=(-dict="$dict")
	# libFuzzer stops at a corpus folder that is not there.
	dirs=("$work/corpus/$t")
	for d in "tests/fuzz/corpus/$t" "tests/fuzz/regress/$t" \
			"$work/seeds/$t"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	rm -f "$work/$t.rc" "$work/$t.pid"
	(
		"$bin" "${opts[@]}" "${dirs[@]}" >"$log" 2>&1 &
		echo $! >"$work/$t.pid"
		rc=0
		wait $! || rc=$?
		echo $rc >"$work/$t.rc"
	) &
done
wait
status=0
printf '%-10s %10s %9s %7s %7s %6s %s\n' target execs exec/s cov ft new result
for t in $targets; do
	bin=$build/tests/fuzz/${t}_fuzz
	log=$work/$t.log
	art=$work/artifacts/$t/
	rc=$(cat "$work/$t.rc" 2>/dev/null || echo 1)
	leftovers_rm "$t" "$(cat "$work/$t.pid" 2>/dev/null || echo none)"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	new=$(sed -n 's/^stat::new_units_added: *//p' "$log")
	cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$log" | tail -1)
	ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' "$log" | tail -1)
	result=ok
	[ "$rc" -eq 0 ] || result="FAILED (exit $rc)"
	printf '%-10s %10s %9s %7s %7s %6s %s\n' "$t" "${execs:-?}" \
		"${rate:-?}" "${cov:-?}" "${ft:-?}" "${new:-?}" "$result"
	if [ "$rc" -ne 0 ]; then
		status=1
		repro=$(ls -t "$art" 2>/dev/null | head -1)
		echo "--- $t: log $log"
		grep -E 'fuzz check failed|ERROR|runtime error|SUMMARY' "$log" |
			head -5 || true
		if [ -n "$repro" ]; then
			echo "--- reproducer $art$repro; replay:"
			echo "    $bin $art$repro"
			echo "--- make it a regression test:"
			echo "    cp $art$repro tests/fuzz/regress/$t/"
		fi
	fi
done
exit $status
