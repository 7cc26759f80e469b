#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# make vm-test, guest side: runs inside the QEMU guest, chrooted into the
# host's root (read-only 9p), started by tests/vm/init.
#
# Reads $NPVM_OUT/config (written by tests/vm/vm_test.py), reserves hugepages,
# binds the two NICs to uio_pci_generic with dpdk-devbind.py, then runs
# npool-fwd on DPDK's e1000 PMD once per pool mode of $POOLS.  Each run writes
# into $NPVM_OUT (the host's run folder, writable 9p):
#   bound                  the NICs are bound: "PCI vendor:device drv=DRIVER" each
#   fwd-POOL.log           npool-fwd's output
#   fwd-POOL.json          its --json counters
#   rc-POOL                its exit status
# and stops when the host creates stop-POOL (SIGINT), or after $MAX_SECONDS.
# After the last run it waits for the host's poweroff file (as long again).
#
# config keys: FWD (npool-fwd path), POOLS, COPYBREAK, PCI0 PCI1 (guest PCI
# addresses), MAC0 MAC1 (the host taps' MACs: --eth-dest), HUGEPAGES (2 MiB
# pages), MAX_SECONDS (--duration of each run), LCORES (EAL -l).

set -u -o pipefail
OUT=${NPVM_OUT:?}
# shellcheck source=/dev/null
. "$OUT/config"

say() { echo "npvm-guest: [$(cut -d' ' -f1 /proc/uptime) s] $*"; }
# lspci (used by dpdk-devbind.py) looks for module indexes the guest lacks.
no_kmod_noise() { grep -v 'Unable to load libkmod resources' || true; }

# One line per NIC from sysfs: address, vendor:device, its kernel driver.
nic_line() {
	local d=/sys/bus/pci/devices/$1 drv=none
	[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
	echo "$1 $(sed 's/^0x//' "$d/vendor"):$(sed 's/^0x//' "$d/device") drv=$drv"
}
say "NICs: $(nic_line "$PCI0"), $(nic_line "$PCI1")"

echo "$HUGEPAGES" >/proc/sys/vm/nr_hugepages
got=$(awk '/^HugePages_Total:/ { print $2 }' /proc/meminfo)
say "hugepages: $got x 2 MiB reserved (asked $HUGEPAGES), hugetlbfs on /dev/hugepages"
if [ "$got" -lt "$HUGEPAGES" ]; then
	say "not enough hugepages"
	exit 1
fi

if ! dpdk-devbind.py -b uio_pci_generic "$PCI0" "$PCI1" 2>&1 | no_kmod_noise; then
	say "dpdk-devbind.py -b uio_pci_generic failed"
	exit 1
fi
{ nic_line "$PCI0"; nic_line "$PCI1"; } >"$OUT/bound.tmp"
mv "$OUT/bound.tmp" "$OUT/bound"
say "bound: $(paste -sd, "$OUT/bound")"

failed=0
for pool in $POOLS; do
	rm -rf /run/dpdk/npvm
	say "starting npool-fwd --pool $pool --copybreak $COPYBREAK"
	# uio_pci_generic: IOVA as PA, dynamic memory (no --legacy-mem):
	# the npool arena needs each 32 KiB chunk, not the whole arena, to
	# be physically contiguous.
	stdbuf -oL "$FWD" -l "$LCORES" -a "$PCI0" -a "$PCI1" \
		--file-prefix npvm --no-telemetry \
		-- -p 0x3 --lookup lpm --pool "$pool" --copybreak "$COPYBREAK" \
		--rule_ipv4 "$OUT/routes4.txt" --rule_ipv6 "$OUT/routes6.txt" \
		--eth-dest "0,$MAC0" --eth-dest "1,$MAC1" \
		--json "$OUT/fwd-$pool.json" --duration "$MAX_SECONDS" \
		</dev/null >"$OUT/fwd-$pool.log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ -e "$OUT/stop-$pool" ]; then
			kill -INT "$pid"
			break
		fi
		sleep 0.5
	done
	wait "$pid"
	rc=$?
	echo "$rc" >"$OUT/rc-$pool"
	say "npool-fwd --pool $pool exited with status $rc"
	[ "$rc" -eq 0 ] || failed=1
done
rm -rf /run/dpdk/npvm
# The host reads its taps' counters before the guest (and QEMU, and the
# taps with it) goes away: it creates poweroff when done.
for _ in $(seq "$MAX_SECONDS"); do
	[ -e "$OUT/poweroff" ] && break
	sleep 1
done
exit "$failed"
