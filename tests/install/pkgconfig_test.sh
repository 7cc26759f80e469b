#!/bin/bash
# Install libnpool into a scratch DESTDIR and build a program against it
# the way a user would: cc prog.c $(pkg-config --cflags --libs libnpool).
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
prefix=npool-pc-$$
trap 'rm -rf "$tmp" /var/run/dpdk/$prefix' EXIT

meson install -C "$build" --destdir "$tmp/root" --quiet >/dev/null
pcdir=$(dirname "$(find "$tmp/root" -name libnpool.pc | head -1)")
[ -f "$pcdir/libnpool.pc" ] || { echo "FAIL: no libnpool.pc installed"; exit 1; }
libdir=$(dirname "$(find "$tmp/root" -name 'libnpool.so' | head -1)")
[ -f "$(dirname "$(find "$tmp/root" -name 'libnpool.a' | head -1)")/libnpool.a" ] ||
	{ echo "FAIL: no static libnpool.a installed"; exit 1; }

# Point the installed .pc at the scratch root, as a relocated install.
mkdir -p "$tmp/pc"
pfx=$(sed -n 's/^prefix=//p' "$pcdir/libnpool.pc")
sed "s|^prefix=.*|prefix=$tmp/root$pfx|" "$pcdir/libnpool.pc" >"$tmp/pc/libnpool.pc"
export PKG_CONFIG_PATH=$tmp/pc
flags=$(pkg-config --cflags --libs libnpool)
echo "pkg-config --cflags --libs libnpool: $flags"
cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/hello" "$src" $flags

out=$(LD_LIBRARY_PATH=$libdir "$tmp/hello" --no-huge -m 256 --no-pci \
	--no-shconf --no-telemetry --file-prefix "$prefix" -l 0 \
	--log-level=lib.eal:error)
echo "$out"
fail=0
expect() {
	if ! grep -qx -- "$1" <<<"$out"; then
		echo "FAIL: expected line '$1'"
		fail=1
	fi
}
expect "frag_step=256"
expect "pkt_headroom=128 room>=64:1"
expect "rx_ops=npool"
expect "frags_out=0 heads_out=0"
expect "fini=0"
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
