#!/bin/bash
# Smoke test of the benchmarks (meson test suite 'bench'): each program
# runs in quick mode, exits 0, prints a well-formed table (a header, then
# rows of 11 '|'-separated cells) and valid JSON lines. No thresholds.
# Usage: smoke.sh PROGRAM...
set -euo pipefail

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for prog in "$@"; do
	name=$(basename "$prog")
	if ! "$prog" --quick --rounds 5 --json "$tmp/$name.jsonl" \
			>"$tmp/$name.out" 2>"$tmp/$name.err"; then
		echo "$name: exit status $?" >&2
		tail -20 "$tmp/$name.err" >&2
		exit 1
	fi
	awk -F'|' -v name="$name" '
		/^\|/ { n++; if (NF != 13) { bad = bad "\n" $0 } }
		NR == 1 && $2 !~ /bench/ { bad = bad "\nno header: " $0 }
		END {
			if (n < 3) bad = bad "\nfewer than 3 table lines"
			if (bad != "") { print name ": bad table:" bad; exit 1 }
		}' "$tmp/$name.out" >&2
	python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows, "no JSON rows"
for r in rows:
    assert {"bench", "case", "variant", "value", "unit", "ratio"} <= r.keys()
' "$tmp/$name.jsonl"
	echo "$name: $(grep -c '^|' "$tmp/$name.out") table lines, ok"
done

# --instr (tests/bench/alloc_callgrind.py): one round, each variant of a
# case named on stderr with a slot function of its own and its op count.
for prog in "$@"; do
	case $(basename "$prog") in npool-bench-pkt) ;; *) continue ;; esac
	"$prog" --instr --quick --only 'burst32 len 64' >/dev/null \
		2>"$tmp/instr.err"
	python3 -c 'import sys
lines = [l.split(": ", 1)[1].split("|") for l in open(sys.argv[1])
         if l.startswith("bench-instr: ")]
assert len(lines) >= 2, lines
assert len({l[0] for l in lines}) == len(lines), "slots shared: %s" % lines
assert all(l[0].startswith("bench_instr_v") and l[1] == "pkt" and
           l[2] == "burst32 len 64" and float(l[4]) > 0 for l in lines), lines
print("npool-bench-pkt --instr: %d variants, ok" % len(lines))
' "$tmp/instr.err"
done
