#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# make vm-test, guest side: runs inside the QEMU guest, chrooted into the
# host's root (read-only 9p), started by tests/vm/init.
#
# Reads $NPVM_OUT/config (written by tests/vm/vm_test.py), optionally routes
# between the NICs with the guest kernel's own driver first (KCONTROL=1),
# reserves hugepages, binds the two NICs to uio_pci_generic with
# dpdk-devbind.py, then runs npool-fwd on DPDK's PMD once per pool mode of
# $POOLS.  Each run writes into $NPVM_OUT (the host's run folder, writable 9p):
#   kernel-ready           KCONTROL: the kernel routes, "PCI drv=D if=IF" each
#   bound                  the NICs are bound: "PCI vendor:device drv=DRIVER" each
#   fwd-POOL.log           npool-fwd's output
#   fwd-POOL.json          its --json counters
#   snap-POOL-NAME.json    telemetry (/app/port, /ethdev/stats of both ports)
#                          when the host creates snapreq-POOL-NAME (TELEMETRY=1)
#   rc-POOL                its exit status
#   numa-facts             NODE_HUGEPAGES: per NUMA node "node N cpus LIST
#                          hugepages H", per NIC "nic PCI numa_node N"
#   probe.log, rc-probe    PROBE: numa_probe's output and exit status
# and stops when the host creates stop-POOL (SIGINT), or after $MAX_SECONDS.
# After the last run it waits for the host's poweroff file (as long again).
#
# config keys: FWD (npool-fwd path), POOLS, COPYBREAK, PCI0 PCI1 (guest PCI
# addresses), MAC0 MAC1 (the host taps' MACs: --eth-dest), HUGEPAGES (2 MiB
# pages), MAX_SECONDS (--duration of each run), LCORES (EAL -l), CONFIG
# (npool-fwd --config, empty: its default), TELEMETRY (1: EAL telemetry on,
# snapshots served), KCONTROL (1: the kernel control first), GW0 GW1 (the
# guest's IPv4 address on each NIC then, /24); for two NUMA nodes
# NODE_HUGEPAGES ("H0 H1": 2 MiB pages per node, instead of HUGEPAGES),
# SOCKET_MEM (EAL --socket-mem), PROBE (tests/vm/numa_probe, run on
# LCORES after the last npool-fwd).

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

# The control: the guest kernel's own driver (loaded by init) routes IPv4
# between the NICs while the host pings through; then the NICs go back.
kernel_control() {
	local pci ifs=() i nd
	for pci in "$PCI0" "$PCI1"; do
		for _ in $(seq 100); do
			[ -d "/sys/bus/pci/devices/$pci/net" ] && break
			sleep 0.2
		done
		nd=("/sys/bus/pci/devices/$pci/net/"*)
		if [ -e "${nd[0]}" ]; then ifs+=("${nd[0]##*/}"); else ifs+=(""); fi
	done
	if [ -z "${ifs[0]}" ] || [ -z "${ifs[1]}" ]; then
		say "kernel control: no kernel interface: $(nic_line "$PCI0"), $(nic_line "$PCI1")"
		return 1
	fi
	sysctl -qw net.ipv4.ip_forward=1
	ip addr add "$GW0/24" dev "${ifs[0]}"
	ip addr add "$GW1/24" dev "${ifs[1]}"
	ip link set "${ifs[0]}" up
	ip link set "${ifs[1]}" up
	{ for i in 0 1; do
		pci=$PCI0; [ $i -eq 1 ] && pci=$PCI1
		echo "$(nic_line "$pci") if=${ifs[$i]}"
	done; } >"$OUT/kernel-ready.tmp"
	mv "$OUT/kernel-ready.tmp" "$OUT/kernel-ready"
	say "kernel control: routing between ${ifs[0]} and ${ifs[1]}"
	for _ in $(seq "$MAX_SECONDS"); do
		[ -e "$OUT/kernel-done" ] && break
		sleep 0.5
	done
	for i in 0 1; do
		say "kernel control: ${ifs[$i]}: rx $(cat "/sys/class/net/${ifs[$i]}/statistics/rx_packets") tx $(cat "/sys/class/net/${ifs[$i]}/statistics/tx_packets") packets"
		ip addr flush dev "${ifs[$i]}"
		ip link set "${ifs[$i]}" down
	done
	sysctl -qw net.ipv4.ip_forward=0
}
if [ "${KCONTROL:-0}" = 1 ] && ! kernel_control; then
	exit 1
fi

# NUMA: hugepages on each node, then what sysfs says of the topology
# (the host checks it: vm_numa.py).
numa_facts() {
	local d n
	for d in /sys/devices/system/node/node[0-9]*; do
		n=${d##*/node}
		echo "node $n cpus $(cat "$d/cpulist") hugepages $(cat "$d/hugepages/hugepages-2048kB/nr_hugepages")"
	done
	for d in "$PCI0" "$PCI1"; do
		echo "nic $d numa_node $(cat "/sys/bus/pci/devices/$d/numa_node")"
	done
}
if [ -n "${NODE_HUGEPAGES:-}" ]; then
	n=0 HUGEPAGES=0
	for want in $NODE_HUGEPAGES; do
		hp=/sys/devices/system/node/node$n/hugepages/hugepages-2048kB/nr_hugepages
		[ -e "$hp" ] || { say "no NUMA node $n"; exit 1; }
		echo "$want" >"$hp"
		HUGEPAGES=$((HUGEPAGES + want)) n=$((n + 1))
	done
	numa_facts >"$OUT/numa-facts"
	say "numa: $(paste -sd, "$OUT/numa-facts")"
else
	echo "$HUGEPAGES" >/proc/sys/vm/nr_hugepages
fi
got=$(awk '/^HugePages_Total:/ { print $2 }' /proc/meminfo)
say "hugepages: $got x 2 MiB reserved (asked $HUGEPAGES), hugetlbfs on /dev/hugepages"
if [ "$got" -lt "$HUGEPAGES" ]; then
	say "not enough hugepages"
	exit 1
fi
mem=()
[ -n "${SOCKET_MEM:-}" ] && mem=(--socket-mem "$SOCKET_MEM")

if ! dpdk-devbind.py -b uio_pci_generic "$PCI0" "$PCI1" 2>&1 | no_kmod_noise; then
	say "dpdk-devbind.py -b uio_pci_generic failed"
	exit 1
fi
{ nic_line "$PCI0"; nic_line "$PCI1"; } >"$OUT/bound.tmp"
mv "$OUT/bound.tmp" "$OUT/bound"
say "bound: $(paste -sd, "$OUT/bound")"

# Telemetry of the running npool-fwd into snap-POOL-NAME.json for each
# snapreq-POOL-NAME the host made.
serve_snapshots() {
	local req name
	for req in "$OUT/snapreq-$1-"*; do
		[ -e "$req" ] || continue
		name=${req##*/snapreq-}
		rm -f "$req"
		python3 "$(dirname "$0")/telemetry_snap.py" \
			/run/dpdk/npvm/dpdk_telemetry.v2 >"$OUT/snap-$name.tmp" 2>&1
		mv "$OUT/snap-$name.tmp" "$OUT/snap-$name.json"
	done
}

tel=--no-telemetry
[ "${TELEMETRY:-0}" = 1 ] && tel=--telemetry
cfg=()
[ -n "${CONFIG:-}" ] && cfg=(--config "$CONFIG")
failed=0
for pool in $POOLS; do
	rm -rf /run/dpdk/npvm
	say "starting npool-fwd --pool $pool --copybreak $COPYBREAK ${cfg[*]}"
	# uio_pci_generic: IOVA as PA, dynamic memory (no --legacy-mem):
	# the npool arena needs each 32 KiB chunk, not the whole arena, to
	# be physically contiguous.
	stdbuf -oL "$FWD" -l "$LCORES" -a "$PCI0" -a "$PCI1" \
		--file-prefix npvm "$tel" "${mem[@]}" \
		-- -p 0x3 --lookup lpm --pool "$pool" --copybreak "$COPYBREAK" \
		"${cfg[@]}" \
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
		serve_snapshots "$pool"
		sleep 0.2
	done
	wait "$pid"
	rc=$?
	echo "$rc" >"$OUT/rc-$pool"
	say "npool-fwd --pool $pool exited with status $rc"
	[ "$rc" -eq 0 ] || failed=1
done
rm -rf /run/dpdk/npvm
if [ -n "${PROBE:-}" ]; then
	say "starting $PROBE -l $LCORES ${mem[*]}"
	timeout "$MAX_SECONDS" stdbuf -oL "$PROBE" -l "$LCORES" --no-pci \
		--file-prefix npvm-probe --no-telemetry "${mem[@]}" \
		</dev/null >"$OUT/probe.log" 2>&1
	rc=$?
	echo "$rc" >"$OUT/rc-probe"
	say "numa_probe exited with status $rc"
	[ "$rc" -eq 0 ] || failed=1
	rm -rf /run/dpdk/npvm-probe
fi
# The host reads its taps' counters before the guest (and QEMU, and the
# taps with it) goes away: it creates poweroff when done.
for _ in $(seq "$MAX_SECONDS"); do
	[ -e "$OUT/poweroff" ] && break
	sleep 1
done
exit "$failed"
