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
