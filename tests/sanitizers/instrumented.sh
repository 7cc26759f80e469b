#!/bin/bash
# instrumented.sh KINDS FILE...: every FILE (a shared library or an
# executable) calls into the runtime of each sanitizer of the
# comma-separated KINDS (address, undefined, thread), i.e. the compiler
# really instrumented it. Its undefined dynamic symbols say so: ASan's
# checks call __asan_report_*, UBSan's __ubsan_handle_*, TSan's
# __tsan_read*/__tsan_write*.
set -euo pipefail
kinds=$1
shift
declare -A pattern=(
	[address]='__asan_report_(load|store)'
	[undefined]='__ubsan_handle_'
	[thread]='__tsan_(read|write)[0-9]'
)
fail=0
IFS=, read -ra list <<<"$kinds"
[ ${#list[@]} -gt 0 ] || { echo "FAIL: no sanitizer named"; exit 1; }
for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "FAIL: $f not built"
		fail=1
		continue
	fi
	syms=$(nm -D --undefined-only "$f")
	for k in "${list[@]}"; do
		p=${pattern[$k]:-}
		[ -n "$p" ] || { echo "FAIL: unknown sanitizer $k"; exit 1; }
		n=$(grep -cE "$p" <<<"$syms" || true)
		if [ "$n" -eq 0 ]; then
			echo "FAIL: $f: no $p symbol: not built with -fsanitize=$k"
			fail=1
		else
			echo "ok: $(basename "$f"): $n $k runtime entry points"
		fi
	done
done
exit $fail
