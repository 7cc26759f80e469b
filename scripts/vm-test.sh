#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# make vm-test: npool-fwd on DPDK's real e1000 PMDs inside a QEMU guest:
# -device e1000e and -device e1000 on net_e1000_em (the host's QEMU), then
# -device igb on net_e1000_igb with RSS over 2 RX queues a port (QEMU 10 of
# Debian 13: the trixie root of scripts/lts-test.sh, made on first use in
# BUILD/vm/lts), then "numa": e1000e in a guest with two NUMA nodes, the
# NICs on node 1 (npool per socket); --pool npool then mempool, with ping
# and TCP (IPv4, IPv6) from two host network namespaces (npvm-a, npvm-b)
# through the guest's forwarder, and for igb 64 UDP + 64 TCP flows from
# each host per IP version.  The guest is a Debian kernel and a busybox
# initramfs, fetched with apt-get download into BUILD/vm (nothing is
# installed on the host); it runs the host's npool-fwd over a read-only 9p
# share of /.  See tests/vm/vm_test.py for what is checked and the NPVM_*
# environment variables.
#
# Usage: scripts/vm-test.sh [BUILD_DIR]      (default: build; needs root)

set -u -o pipefail
BUILD=${1:-build}
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		exec sudo -E bash "$0" "$@"
	fi
	echo "vm-test: must run as root (network namespaces, taps)" >&2
	exit 1
fi
for cmd in qemu-system-x86_64 ip ping python3 apt-get dpkg-deb dpdk-devbind.py lspci; do
	command -v "$cmd" >/dev/null || {
		echo "vm-test: '$cmd' not found (bash scripts/deps.sh vm)" >&2
		exit 1
	}
done
exec python3 "$(dirname "$0")/../tests/vm/vm_test.py" "$BUILD"
