#!/bin/bash
# Install libnpool into a scratch DESTDIR and build the programmer's guide's
# program (docs/prog_guide.md) against it the way a user would: cc myapp.c
# $(pkg-config --cflags --libs libnpool). Keeps the guide's example true.
# A C++17 program that includes npool.h alone (tests/chkincs/cpp_app.cpp)
# is built the same way with c++ -std=c++17 -Werror -Wsign-conversion and
# runs copy-break.
#
# Then run what was installed with no LD_LIBRARY_PATH. First on RUNPATH
# alone (root: a mount namespace puts the scratch install at its prefix):
# the installed npool-drop, and dpdk-test with -d <libdir>/the plugin.
# Then as a user of `make install` does: the scratch libdir goes into
# /etc/ld.so.conf.d and ldconfig runs (what the Makefile's install does
# for /usr/local), and myapp, the installed npool-drop and dpdk-test with
# EAL's -d librte_mempool_npool.so (a bare name, found by the loader)
# must all start. As a user who is not root cannot write ld.so.conf.d,
# LD_LIBRARY_PATH stands in then (said).
set -euo pipefail
build=$1
guide=$2
cpp_app=$3
tmp=$(mktemp -d)
prefix=npool-pc-$$
ldconf=/etc/ld.so.conf.d/zz-npool-install-test-$$.conf
cleanup() {
	rm -rf "$tmp" /var/run/dpdk/$prefix /var/run/dpdk/$prefix-plugin
	if [ -f "$ldconf" ]; then
		rm -f "$ldconf"
		ldconfig
	fi
}
trap cleanup EXIT

# --no-rebuild: make test built everything before the tests; a ninja run
# here would relink beside the tests that run the same binaries.
meson install -C "$build" --destdir "$tmp/root" --quiet --no-rebuild \
	>/dev/null
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

# The first ```c block of docs/prog_guide.md is the user's myapp.c.
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' "$guide" \
	>"$tmp/myapp.c"
[ -s "$tmp/myapp.c" ] || { echo "FAIL: no C example in $guide"; exit 1; }
# A sanitizer build's libnpool needs the sanitizer runtime loaded first:
# build myapp as a user of such a build must, with the same -fsanitize.
# Meson 1.8 made b_sanitize a list ([] for none; sid has 1.12).
san=$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
v = next(o["value"] for o in json.load(sys.stdin)
         if o["name"] == "b_sanitize")
print(",".join(v) or "none" if isinstance(v, list) else v)')
# The guide's figures are for 32 KiB chunks; another -Dchunk_size
# changes what 4 big packets pin (one chunk and their heads).
chunk=$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin)
           if o["name"] == "chunk_size"))')
big_pinned=$((chunk + 4 * 192))
sanflags=
[ "$san" = none ] || sanflags="-fsanitize=$san -fno-sanitize-recover=all"
# As the guide builds it: the libdir as myapp's RUNPATH.
cc -std=gnu11 -Wall -Wextra -Werror $sanflags -o "$tmp/myapp" "$tmp/myapp.c" \
	$flags -Wl,-rpath,"$(pkg-config --variable=libdir libnpool)"
cxx=
if command -v c++ >/dev/null; then
	cxx=c++
	# DPDK 22.11's own headers do not pass -Wsign-conversion: included as
	# system headers (-isystem wins over -I), as such an app must.
	dpdk_sys=$(pkg-config --cflags-only-I libdpdk | sed 's/-I/-isystem /g')
	# shellcheck disable=SC2086  # flag lists
	c++ -std=c++17 -Wall -Wextra -Werror -Wsign-conversion $sanflags \
		$dpdk_sys -o "$tmp/cppapp" "$cpp_app" $flags
else
	echo "no c++ (apt-get install g++): the C++ program not built"
fi

fail=0
# DPDK's mbuf_autotest on the "npool" ops, EAL loading the plugin from
# -d $2, run through $1 (run, in_ns); $3 prefixes the report.
plugin_test() {
	if ! "$1" env DPDK_TEST=mbuf_autotest dpdk-test --no-huge -m 512 \
			--no-pci --no-shconf --no-telemetry \
			--file-prefix "$prefix-plugin" -l 0-1 -d "$2" \
			--mbuf-pool-ops-name npool </dev/null \
			>"$tmp/plugin.out" 2>&1 ||
			! grep -q "Test OK" "$tmp/plugin.out"; then
		echo "FAIL: ${3}dpdk-test -d $2 mbuf_autotest:"
		grep -m3 -i "error\|cannot\|fail" "$tmp/plugin.out" || true
		fail=1
	else
		echo "${3}dpdk-test -d $2: mbuf_autotest OK"
	fi
}
# Before ldconfig learns the scratch libdir below.
# RUNPATH: under any --prefix the installed apps, libnpool_rx and the
# EAL plugin (given to -d by its path) load with neither LD_LIBRARY_PATH
# nor ldconfig. Run in a mount namespace of their own, where the scratch
# install is bind-mounted at the prefix it was built for (root only).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
		[ -d "$pfx" ]; then
	in_ns() {
		unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 &&
			cd / && exec env -u LD_LIBRARY_PATH "$@"' \
			_ "$tmp/root$pfx" "$pfx" "$@"
	}
	ns_lib=${libdir#"$tmp/root"}
	bindir=$(dirname "$(find "$tmp/root" -name npool-drop -type f | head -1)")
	if ! in_ns "${bindir#"$tmp/root"}/npool-drop" --help \
			>"$tmp/rpath.out" 2>&1; then
		echo "FAIL: npool-drop --help with only its RUNPATH:"
		tail -3 "$tmp/rpath.out"
		fail=1
	else
		echo "RUNPATH: npool-drop runs from $pfx (no LD_LIBRARY_PATH, no ldconfig)"
	fi
	if [ "$san" = none ] && command -v dpdk-test >/dev/null; then
		plugin_test in_ns "$ns_lib/librte_mempool_npool.so" "RUNPATH: "
	fi
else
	echo "RUNPATH not run: not root (or no unshare)"
fi
libpath=
if [ "$(id -u)" -eq 0 ] && [ -d /etc/ld.so.conf.d ]; then
	echo "$libdir" >"$ldconf"
	ldconfig
	echo "loader: $libdir in $ldconf, ldconfig (no LD_LIBRARY_PATH)"
else
	libpath=$libdir
	echo "loader: not root, LD_LIBRARY_PATH=$libdir"
fi
# meson test sets LD_LIBRARY_PATH to the build folder, and runs in it,
# where EAL would find -d librte_mempool_npool.so as a relative path:
# neither for these.
run() {
	(cd "$tmp" &&
		env -u LD_LIBRARY_PATH ${libpath:+LD_LIBRARY_PATH=$libpath} "$@")
}

# The installed app resolves libnpool_rx.so.0 and libnpool.so.0.
bindir=$(dirname "$(find "$tmp/root" -name npool-drop -type f | head -1)")
if ! run "$bindir/npool-drop" --help >"$tmp/drop.out" 2>&1; then
	echo "FAIL: installed npool-drop --help:"
	tail -3 "$tmp/drop.out"
	fail=1
fi
# EAL loads the plugin by its bare name, as docs/real_nics.md says (not on a
# sanitizer build: dpdk-test would need the sanitizer runtime first).
if [ "$san" = none ]; then
	if ! command -v dpdk-test >/dev/null; then
		echo "dpdk-test absent: plugin load not checked"
	else
		plugin_test run librte_mempool_npool.so ""
	fi
fi
for lcores in 0 0-1; do
	out=$(run "$tmp/myapp" --no-huge -m 512 --no-pci \
		--no-shconf --no-telemetry --file-prefix "$prefix" -l $lcores \
		--log-level=lib.eal:error)
	echo "-l $lcores:"
	echo "$out"
	for line in "copied 4" "headroom 64" \
			"tiny 60 B: 16 kept, 8192 B pinned, 512 B a packet" \
			"mid 1500 B: 16 kept, 37888 B pinned, 2368 B a packet" \
			"big 4000 B: 4 kept, $big_pinned B pinned, $((big_pinned / 4)) B a packet" \
			"frags out 0, heads out 0, rx mbufs free 8191 of 8191" \
			"npool_fini 0"; do
		if ! grep -qx -- "$line" <<<"$out"; then
			echo "FAIL: expected line '$line' (-l $lcores)"
			fail=1
		fi
	done
done
if [ -n "$cxx" ]; then
	out=$(run "$tmp/cppapp" --no-huge -m 512 --no-pci --no-shconf \
		--no-telemetry --file-prefix "$prefix" -l 0 \
		--log-level=lib.eal:error) || { echo "FAIL: cppapp exited $?"; fail=1; }
	echo "C++17 program (c++ -std=c++17 -Werror):"
	echo "$out"
	for line in "copied 4" "leak check 0"; do
		if ! grep -qx -- "$line" <<<"$out"; then
			echo "FAIL: expected line '$line' (C++ program)"
			fail=1
		fi
	done
fi
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
