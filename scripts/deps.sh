#!/bin/bash
# Install the Debian packages npool needs, only those missing.
# Usage: scripts/deps.sh [--list] [build|test|demo|doc|bench|fuzz|vm|frr]...
#   (default: test; --list prints the packages and installs nothing:
#   scripts/lts-test.sh installs that list in its Debian roots)
set -euo pipefail

# libcmocka-dev: the unit tests are part of the default build (-Dtests)
build_pkgs="gcc pkg-config meson ninja-build libdpdk-dev dpdk dpdk-dev
	libnuma-dev libpcap-dev python3 libcmocka-dev"
# dpdk-doc: DPDK's examples (multi_process client_server_mp, built by the
# multiprocess-client-server test; l3fwd, built by the bench); g++: the
# installed headers compiled as C++ (tests/chkincs)
test_pkgs="dpdk-doc g++"
# procps: sysctl (not in a minimal Debian); traceroute, iputils-tracepath:
# the gateway test and the demo (npool-fwd's ICMP errors)
demo_pkgs="iproute2 ethtool iputils-ping iputils-tracepath traceroute procps"
# doc: make doc (Doxygen HTML of the public headers)
doc_pkgs="doxygen"
bench_pkgs="gnuplot-nox valgrind"
fuzz_pkgs="clang libclang-rt-14-dev"
# vm: the guest kernel and busybox-static are fetched with apt-get download
# by tests/vm/vm_image.py into BUILD/vm, not installed on the host.
vm_pkgs="qemu-system-x86 pciutils iproute2 iputils-ping ethtool"
# frr: zebra (dplane_fpm_nl), staticd and bgpd for npool-fwd's FPM tests
# (tests/integration/fpm_zebra.py, lib/frr.py); bird2: the BGP peer of
# the issue 34 tests. Both in the test set.
frr_pkgs="frr bird2"

list=0
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
want=$build_pkgs
for what in "${@:-test}"; do
	case $what in
	build) ;;
	# the kernel-peer tests run the demo's tools (root only)
	test) want="$want $test_pkgs $demo_pkgs $frr_pkgs" ;;
	demo) want="$want $test_pkgs $demo_pkgs" ;;
	doc) want="$want $doc_pkgs" ;;
	bench) want="$want $test_pkgs $bench_pkgs" ;;
	fuzz) want="$want $test_pkgs $fuzz_pkgs" ;;
	vm) want="$want $test_pkgs $vm_pkgs" ;;
	frr) want="$want $frr_pkgs" ;;
	*) echo "deps.sh: unknown set '$what' (build|test|demo|doc|bench|fuzz|vm|frr)" >&2
	   exit 2 ;;
	esac
done

if [ $list -eq 1 ]; then
	# shellcheck disable=SC2086  # one line, one space apart
	echo $want
	exit 0
fi
# One dpkg-query for them all (every make target runs this); it exits 1
# when one of them was never installed, which is what this looks for.
# shellcheck disable=SC2086
installed=$'\n'$({ dpkg-query -W -f='${Package} ${Status}\n' $want \
	2>/dev/null || true; } | sed -n 's/ install ok installed$//p')$'\n'
missing=()
for p in $want; do
	[[ $installed == *$'\n'"$p"$'\n'* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# Only what is missing, without recommends; nothing installed is
# upgraded unless a missing package needs a newer version of it (apt
# then lists it under "upgrade" below, before anything changes).
$SUDO apt-get update -q
opts=(-y -q --no-install-recommends --no-upgrade)
plan=$($SUDO apt-get install -s "${opts[@]}" "${missing[@]}")
inst=$(awk '/^Inst / && !/\[/ {print $2}' <<<"$plan" | tr '\n' ' ')
upg=$(awk '/^Inst / && /\[/ {print $2}' <<<"$plan" | tr '\n' ' ')
echo "deps.sh: missing ${missing[*]}"
echo "deps.sh: apt-get will install $(wc -w <<<"$inst") packages: $inst"
[ -z "$upg" ] ||
	echo "deps.sh: and upgrade, as the missing ones need: $upg"
$SUDO apt-get install "${opts[@]}" "${missing[@]}"
