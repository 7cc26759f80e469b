#!/bin/bash
# Install libnpool into a scratch DESTDIR and build the README's program
# against it the way a user would: cc myapp.c $(pkg-config --cflags --libs
# libnpool). Keeps the README's example true.
set -euo pipefail
build=$1
readme=$2
tmp=$(mktemp -d)
prefix=npool-pc-$$
trap 'rm -rf "$tmp" /var/run/dpdk/$prefix' EXIT

meson install -C "$build" --destdir "$tmp/root" --quiet >/dev/null
pcdir=$(dirname "$(find "$tmp/root" -name libnpool.pc | head -1)")
[ -f "$pcdir/libnpool.pc" ] || { echo "FAIL: no libnpool.pc installed"; exit 1; }
libdir=$(dirname "$(find "$tmp/root" -name 'libnpool.so' | head -1)")
[ -n "$(find "$tmp/root" -name libnpool.a)" ] ||
	{ echo "FAIL: no static libnpool.a installed"; exit 1; }

# Point the installed .pc at the scratch root, as a relocated install.
mkdir -p "$tmp/pc"
pfx=$(sed -n 's/^prefix=//p' "$pcdir/libnpool.pc")
sed "s|^prefix=.*|prefix=$tmp/root$pfx|" "$pcdir/libnpool.pc" >"$tmp/pc/libnpool.pc"
export PKG_CONFIG_PATH=$tmp/pc
flags=$(pkg-config --cflags --libs libnpool)
echo "pkg-config --cflags --libs libnpool: $flags"

# The first ```c block of the README is the user's myapp.c.
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' "$readme" \
	>"$tmp/myapp.c"
[ -s "$tmp/myapp.c" ] || { echo "FAIL: no C example in $readme"; exit 1; }
# A sanitizer build's libnpool needs the sanitizer runtime loaded first:
# build myapp as a user of such a build must, with the same -fsanitize.
# Meson 1.8 made b_sanitize a list ([] for none; sid has 1.12).
san=$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
v = next(o["value"] for o in json.load(sys.stdin)
         if o["name"] == "b_sanitize")
print(",".join(v) or "none" if isinstance(v, list) else v)')
sanflags=
[ "$san" = none ] || sanflags="-fsanitize=$san -fno-sanitize-recover=all"
cc -std=gnu11 -Wall -Wextra -Werror $sanflags -o "$tmp/myapp" "$tmp/myapp.c" \
	$flags

fail=0
for lcores in 0 0-1; do
	out=$(LD_LIBRARY_PATH=$libdir "$tmp/myapp" --no-huge -m 512 --no-pci \
		--no-shconf --no-telemetry --file-prefix "$prefix" -l $lcores \
		--log-level=lib.eal:error)
	echo "-l $lcores:"
	echo "$out"
	for line in "copied 4" "headroom 128" \
			"frags out 0, heads out 0, rx mbufs free 8191 of 8191" \
			"npool_fini 0"; do
		if ! grep -qx -- "$line" <<<"$out"; then
			echo "FAIL: expected line '$line' (-l $lcores)"
			fail=1
		fi
	done
done
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
