#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# make demo: live traffic through npool-fwd, nothing shipped.
#
#   host A (netns npdemo-a)         router (netns npdemo-r)              host B (netns npdemo-b)
#   npd-a0 198.18.1.2/24   <-veth->  npd-r0 = port 0  [npool-fwd]  port 1 = npd-r1  <-veth->  npd-b0 198.18.2.2/24
#          2001:2:0:1::2/64                 net_af_packet vdevs                                2001:2:0:2::2/64
#
# npool-fwd has addresses (--port-addr .1 / ::1 on each port) and is the hosts'
# default gateway: no static neighbour entry, ARP and NDP resolve it.  It routes
# the two subnets with LPM route files and writes the hosts' MACs with
# --eth-dest; its egress MTU towards B is 1400 (--port-mtu), below the
# hosts' 1500.  Then: ping
# of the router's addresses, traceroute A->B (its hop shows) and tracepath A->B
# (the MTU of 1400 found through its ICMP errors), ping A->B (IPv4, IPv6), a TCP
# transfer A->B (IPv4, IPv6; path MTU discovery through npool-fwd) checked by
# byte count and SHA-256, SIGINT to npool-fwd, its stats table, leak check and
# --json counters.  Everything is deleted on exit.
# The topology and the TCP ends are those of the kernel-peer tests:
# tests/integration/lib/netns.py and peer_tools.py.
#
# Usage: scripts/demo.sh [BUILD_DIR]      (default: build; needs root)
# Environment: NPDEMO_BYTES (TCP bytes per transfer, default 16 MiB),
#   NPDEMO_POOL (npool-fwd --pool: npool (default) or mempool),
#   NPDEMO_COPYBREAK (npool-fwd --copybreak, default 256: small packets such as
#   ACKs and pings are copied into npool fragment packets, as ixgbe/igb do),
#   NPDEMO_MTU (npool-fwd --port-mtu 1,MTU, B's side, default 1400: what
#   tracepath finds).

set -u -o pipefail

BUILD=${1:-build}
FWD=$BUILD/apps/fwd/npool-fwd
TCP_BYTES=${NPDEMO_BYTES:-16777216}
POOL=${NPDEMO_POOL:-npool}
COPYBREAK=${NPDEMO_COPYBREAK:-256}
MTU=${NPDEMO_MTU:-1400}
PINGS=5

# Namespaces npdemo-a/-r/-b, veths npd-a0, npd-r0, npd-r1, npd-b0
TOPO=(npdemo npd)
PREFIX=npdemo                   # DPDK --file-prefix (/var/run/dpdk/npdemo)

if [ -t 1 ]; then
	B=$'\e[1m' G=$'\e[32m' R=$'\e[31m' N=$'\e[0m'
else
	B='' G='' R='' N=''
fi

STEP=0
step() { STEP=$((STEP + 1)); printf '\n%s==> [%d] %s%s\n' "$B" "$STEP" "$*" "$N"; }
info() { printf '    %s\n' "$*"; }
RESULTS=()
FAILED=0
pass() { RESULTS+=("${G}PASS${N}  $*"); printf '    %sPASS%s %s\n' "$G" "$N" "$*"; }
fail() { RESULTS+=("${R}FAIL${N}  $*"); printf '    %sFAIL%s %s\n' "$R" "$N" "$*"; FAILED=1; }
# fds 3/4: the script's own stdout/stderr, also where a command ran with
# its output redirected (ERR trap, cleanup).
exec 3>&1 4>&2
die() { RESULTS+=("${R}FAIL${N}  $*"); printf '%sdemo: %s%s\n' "$R" "$*" "$N" >&4; FAILED=1; exit 1; }
indent() { sed 's/^/    | /'; }
in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# --- preflight --------------------------------------------------------------
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		exec sudo -E bash "$0" "$@"
	fi
	die "must run as root (network namespaces, veth, AF_PACKET)"
fi
for cmd in ip ethtool ping python3 timeout stdbuf; do
	command -v "$cmd" >/dev/null ||
		die "'$cmd' not found (Debian: iproute2 ethtool iputils-ping python3 coreutils)"
done
PY=$(command -v python3)
[ -x "$FWD" ] || die "$FWD not found: build first (ninja -C $BUILD)"
FWD=$(cd "$(dirname "$FWD")" && pwd)/$(basename "$FWD")
IT=$(cd "$(dirname "$0")/../tests/integration/lib" && pwd)
NETNS=("$PY" "$IT/netns.py")
TOOLS=("$PY" "$IT/peer_tools.py")
# NS_A NS_R NS_B, A_IF R0_IF R1_IF B_IF, A4 GW_A4 NET_A4 ... NET_B6
env=$("${NETNS[@]}" env "${TOPO[@]}") || die "netns.py env failed"
eval "$env"

WORK=$(mktemp -d /tmp/npdemo.XXXXXX)
FWD_PID=
SRV_PID=

fwd_log() {     # npool-fwd's own output, without DPDK's EAL start-up chatter
	grep -v -E '^(EAL|TELEMETRY|ETHDEV|AFPACKET|USER1|MBUF|MEMPOOL|LPM|LPM6):' "$WORK/fwd.log"
}

kill_pid() {    # kill_pid PID: TERM, then KILL after 3 s
	local pid=$1 i
	kill -TERM "$pid" 2>/dev/null || return 0
	for i in $(seq 30); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
}

# Remove exactly what this demo creates (also leftovers of an aborted run):
# the processes inside the namespaces, the namespaces, the EAL folder.
teardown() {
	"${NETNS[@]}" remove "${TOPO[@]}"
	rm -rf "/var/run/dpdk/$PREFIX"
}

summary() {
	local r
	printf '\n%sSummary%s\n' "$B" "$N"
	for r in "${RESULTS[@]}"; do
		printf '  %s\n' "$r"
	done
	if [ "$FAILED" -eq 0 ] && [ "${#RESULTS[@]}" -gt 0 ]; then
		printf '\n%sdemo PASSED%s: npool-fwd as the hosts'"'"' gateway (ARP, NDP, ping, traceroute, tracepath), IPv4/IPv6 ping and TCP forwarded, no leak\n' "$G" "$N"
	else
		printf '\n%sdemo FAILED%s\n' "$R" "$N"
	fi
}

# On any exit: stop what is still running, delete namespaces and files, summary.
cleanup() {
	local rc=$?
	trap - EXIT INT TERM ERR
	set +eE
	exec 1>&3 2>&4
	[ "$FAILED" -ne 0 ] && [ "$rc" -eq 0 ] && rc=1
	[ "$rc" -ne 0 ] && FAILED=1
	step "Cleaning up (namespaces $NS_A $NS_B $NS_R, /var/run/dpdk/$PREFIX)"
	[ -n "$SRV_PID" ] && kill_pid "$SRV_PID"
	[ -n "$FWD_PID" ] && kill_pid "$FWD_PID"
	teardown
	rm -rf "$WORK"
	info "done"
	summary
	exit "$rc"
}
trap cleanup EXIT
trap 'printf "\ndemo: interrupted\n" >&2; FAILED=1; exit 130' INT TERM

# --- python helpers (stdlib only) -------------------------------------------
cat >"$WORK/fwd_json.py" <<'EOF'
# Check npool-fwd's --json counters: forwarded both ways, counts add up, no leak.
import json, sys
j = json.load(open(sys.argv[1]))
t = j["total"]
ok = True
def check(good, msg):
    global ok
    ok &= bool(good)
    print("%s %s" % ("PASS" if good else "FAIL", msg))
tx = {p["port"]: p["tx"] for p in j["ports"]}
check(tx.get(1, 0) > 0, "forwarded A->B (out of port 1): %d packets" % tx.get(1, 0))
check(tx.get(0, 0) > 0, "forwarded B->A (out of port 0): %d packets" % tx.get(0, 0))
# tx: the forwarded packets and what the router said itself (replies, errors).
r = t.get("router", {})
said = sum(v for k, v in r.items() if k not in ("icmp_ratelimited", "icmp_no_src", "icmp_nomem"))
check(t["rx"] == t["forwarded"] + t["dropped"] == t["forwarded"] + sum(t["drops"].values())
      and t["tx"] == t["forwarded"] + said,
      "total rx %d = forwarded %d + dropped %d; tx %d = forwarded + %d answers of the router"
      % (t["rx"], t["forwarded"], t["dropped"], t["tx"], said))
print("     router: %s" % (", ".join("%s %d" % kv for kv in sorted(r.items()) if kv[1]) or "none"))
drops = {k: v for k, v in t["drops"].items() if v}
print("     drops by reason: %s" % (", ".join("%s %d" % kv for kv in sorted(drops.items())) or "none"))
if drops.get("local"):
    print("     (local: to the router's own addresses, ARP and NDP for them included)")
if drops.get("mtu"):
    print("     (mtu: above --mtu with DF set / IPv6: answered by frag needed / packet too big)")
if drops.get("mc_local"):
    print("     (mc_local: the hosts' own IPv6 link-local multicast, e.g. MLD reports"
          " to ff02::16, which a router never forwards)")
leak = j["leak"]
check(leak.get("ok") is True and leak.get("mbufs_out") == 0 and leak.get("frags_out") == 0,
      "json leak: mbufs_out %s, frags_out %s, chunks_in_use %s, ok %s" % (
          leak.get("mbufs_out"), leak.get("frags_out"), leak.get("chunks_in_use"), leak.get("ok")))
sys.exit(0 if ok else 1)
EOF

# --- 1. topology ------------------------------------------------------------
step "Creating network namespaces $NS_A (host A), $NS_R (npool-fwd), $NS_B (host B)"
teardown        # leftovers of an earlier, aborted run
set -eE
trap 'die "setup failed (line $LINENO): $BASH_COMMAND"' ERR
# The router namespace is a plain wire for AF_PACKET: no addresses, no IPv6
# (no router solicitations / MLD sent out of the npool ports), no forwarding.
macs=$("${NETNS[@]}" create "${TOPO[@]}")
eval "$macs"
info "veth $A_IF ($NS_A) <-> $R0_IF ($NS_R, npool port 0)"
info "veth $B_IF ($NS_B) <-> $R1_IF ($NS_R, npool port 1)"

step "Configuring the hosts (addresses, npool-fwd as default gateway, checksum offload off)"
# DAD and router advertisements off; TCP over AF_PACKET: checksum offloads
# off (no partial checksums on tx, no trusted ones on rx); no neighbour entry
"${NETNS[@]}" gateway "${TOPO[@]}"
trap - ERR
set +E
set +e
printf '    %-7s %-9s %-17s %-15s %s\n' host iface MAC IPv4 IPv6
printf '    %-7s %-9s %-17s %-15s %s\n' A "$A_IF" "$MAC_A" "$A4/24" "$A6/64" \
	B "$B_IF" "$MAC_B" "$B4/24" "$B6/64" \
	"port 0" "$R0_IF" "$MAC_R0" "(gw $GW_A4)" "(gw $GW_A6)" \
	"port 1" "$R1_IF" "$MAC_R1" "(gw $GW_B4)" "(gw $GW_B6)"
info "A: $(ip -n "$NS_A" route show default) (no neighbour entry)"
info "B: $(ip -n "$NS_B" route show default) (no neighbour entry)"

# --- 2. npool-fwd -----------------------------------------------------------
step "Starting npool-fwd in $NS_R on net_af_packet vdevs (--pool $POOL --copybreak $COPYBREAK)"
cat >"$WORK/routes4.txt" <<EOF
# npool-fwd demo: IPv4 routes (l3fwd syntax)
R$NET_A4 0
R$NET_B4 1
EOF
cat >"$WORK/routes6.txt" <<EOF
# npool-fwd demo: IPv6 routes (l3fwd syntax)
R$NET_A6 0
R$NET_B6 1
EOF
info "routes IPv4: $NET_A4 -> port 0, $NET_B4 -> port 1"
info "routes IPv6: $NET_A6 -> port 0, $NET_B6 -> port 1"
info "addresses: port 0 $GW_A4/24 $GW_A6/64, port 1 $GW_B4/24 $GW_B6/64, port 1 egress MTU $MTU"
FWD_CMD=("$FWD" --no-huge -m 1024 --no-pci --no-shconf --file-prefix "$PREFIX"
	--no-telemetry -l 0-1
	--vdev "net_af_packet0,iface=$R0_IF"
	--vdev "net_af_packet1,iface=$R1_IF"
	-- -p 0x3 --lookup lpm --pool "$POOL" --copybreak "$COPYBREAK"
	--rule_ipv4 "$WORK/routes4.txt" --rule_ipv6 "$WORK/routes6.txt"
	--eth-dest "0,$MAC_A" --eth-dest "1,$MAC_B"
	--port-addr "0,$GW_A4/24,$GW_A6/64" --port-addr "1,$GW_B4/24,$GW_B6/64"
	--port-mtu "1,$MTU" --json "$WORK/fwd.json")
info "ip netns exec $NS_R ${FWD_CMD[*]}"
# ip netns exec and stdbuf exec the command: $! is npool-fwd's own pid.
# stdbuf -oL: its start-up lines reach the log at once, not at exit.
ip netns exec "$NS_R" stdbuf -oL "${FWD_CMD[@]}" </dev/null >"$WORK/fwd.log" 2>&1 3>&- 4>&- &
FWD_PID=$!

# Wait until packets get through (first ping answered), at most ~20 s.
up=0
for i in $(seq 20); do
	if ! kill -0 "$FWD_PID" 2>/dev/null; then
		break
	fi
	if in_ns "$NS_A" ping -n -q -c 1 -W 1 "$B4" >/dev/null 2>&1; then
		up=1
		break
	fi
done
if [ "$up" -ne 1 ]; then
	if kill -0 "$FWD_PID" 2>/dev/null; then
		fail "npool-fwd runs but forwards nothing (no ping reply from B within 20 s)"
	else
		wait "$FWD_PID"
		fail "npool-fwd exited with status $? at start-up"
		FWD_PID=
	fi
	info "npool-fwd output:"
	indent <"$WORK/fwd.log"
	exit 1
fi
info "npool-fwd (pid $FWD_PID) is forwarding (first ping answered, try $i):"
fwd_log | indent


# --- 3. the router itself: ping, traceroute, tracepath -------------------------
step "The router's own addresses: ping from A (ARP / NDP resolved them, no static entry)"
for addr in "$GW_A4" "$GW_A6" "$GW_B4" "$GW_B6"; do
	out=$(in_ns "$NS_A" timeout 10 ping -n -c 1 -W 2 "$addr" 2>&1)
	if grep -q '^1 packets transmitted, 1 received' <<<"$out"; then
		pass "ping $addr (npool-fwd): $(grep -o 'time=[0-9.]* ms' <<<"$out")"
	else
		fail "ping $addr (npool-fwd): no reply"
	fi
done
info "A's neighbours: $(ip -n "$NS_A" neigh show dev "$A_IF" | paste -sd';')"
for v in 4 6; do
	eval "dst=\$B$v gw=\$GW_A$v"
	step "traceroute -$v A -> B ($dst): npool-fwd's hop from its ICMP time exceeded"
	if ! command -v traceroute >/dev/null; then
		info "traceroute not found (Debian: traceroute): skipped"
		continue
	fi
	out=$(in_ns "$NS_A" timeout 30 traceroute -"$v" -n -q 1 -w 2 -m 5 "$dst" 2>&1)
	indent <<<"$out"
	if grep -qE "^ 1  $gw " <<<"$out" && grep -qE "^ 2  $dst " <<<"$out"; then
		pass "traceroute -$v: hop 1 $gw (npool-fwd), hop 2 $dst"
	else
		fail "traceroute -$v: npool-fwd's hop $gw not shown"
	fi
done
for v in 4 6; do
	eval "dst=\$B$v"
	step "tracepath -$v A -> B ($dst): the path MTU from npool-fwd's frag needed / packet too big"
	if ! command -v tracepath >/dev/null; then
		info "tracepath not found (Debian: iputils-tracepath): skipped"
		continue
	fi
	out=$(in_ns "$NS_A" timeout 30 tracepath -"$v" -n "$dst" 2>&1)
	indent <<<"$out"
	if grep -q "Resume: pmtu $MTU " <<<"$out"; then
		pass "tracepath -$v: path MTU $MTU found (npool-fwd --port-mtu 1,$MTU)"
	else
		fail "tracepath -$v: path MTU $MTU not found"
	fi
done

# --- 4. ping ------------------------------------------------------------------
ping_check() {   # ping_check LABEL ADDR
	local out
	out=$(in_ns "$NS_A" timeout 20 ping -n -c "$PINGS" -i 0.2 -W 2 "$2" 2>&1)
	indent <<<"$out"
	if ! grep -q " 0% packet loss" <<<"$out" ||
		! grep -q "^$PINGS packets transmitted, $PINGS received" <<<"$out"; then
		fail "ping $1 A->B: $(grep -o '[0-9.]*% packet loss' <<<"$out" || echo 'no result')"
	elif [ "$(grep -c 'ttl=63 ' <<<"$out")" -ne "$PINGS" ]; then
		fail "ping $1 A->B: replies not with ttl 63 (B sends 64, one router hop takes 1)"
	else
		pass "ping $1 A->B: $PINGS/$PINGS replies, 0% loss, ttl 63 (decremented by npool-fwd)"
	fi
}
step "ping A -> B over IPv4 ($A4 -> $B4, $PINGS packets; ttl 63: one router hop)"
ping_check IPv4 "$B4"
step "ping A -> B over IPv6 ($A6 -> $B6, $PINGS packets; hlim 63)"
ping_check IPv6 "$B6"

# --- 5. TCP -------------------------------------------------------------------
tcp_check() {   # tcp_check LABEL FAMILY BIND DST PORT
	local label=$1 fam=$2 bind=$3 dst=$4 port=$5 srv cli ok
	: >"$WORK/sink.out"
	ip netns exec "$NS_B" timeout 30 "${TOOLS[@]}" tcp-sink "$fam" "$bind" "$port" 10 \
		>"$WORK/sink.out" 2>"$WORK/sink.err" 3>&- 4>&- &
	SRV_PID=$!
	for _ in $(seq 50); do
		grep -q listening "$WORK/sink.out" && break
		sleep 0.1
	done
	cli=$(ip netns exec "$NS_A" timeout 30 "${TOOLS[@]}" tcp-source "$fam" "$dst" "$port" \
		"$TCP_BYTES" 10 2>&1)
	wait "$SRV_PID"
	SRV_PID=
	srv=$(grep '^{' "$WORK/sink.out")
	info "A sent   : $cli"
	info "B got    : ${srv:-<nothing>} $(cat "$WORK/sink.err")"
	ok=$("$PY" - "$cli" "$srv" "$TCP_BYTES" <<'EOF'
import json, sys
try:
    c, s, n = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
except Exception as e:
    print("FAIL no result (%s)" % e); sys.exit()
if c["bytes"] == n == s["bytes"] == c["sink_bytes"] and c["sha256"] == s["sha256"] == c["sink_sha256"]:
    print("OK %d bytes, sha256 %s..., %.2f s, %.1f Mbit/s"
          % (n, c["sha256"][:16], c["seconds"], n * 8 / c["seconds"] / 1e6))
else:
    print("FAIL sent %d sha256 %s, received %d sha256 %s" % (c["bytes"], c["sha256"][:16], s["bytes"], s["sha256"][:16]))
EOF
)
	if [ "${ok%% *}" = OK ]; then
		pass "TCP $label A->B: ${ok#OK }"
	else
		fail "TCP $label A->B: ${ok#FAIL }"
	fi
}
step "TCP A -> B over IPv4: $TCP_BYTES bytes to $B4:5001, byte count + SHA-256 compared"
tcp_check IPv4 4 0.0.0.0 "$B4" 5001
step "TCP A -> B over IPv6: $TCP_BYTES bytes to [$B6]:5001, byte count + SHA-256 compared"
tcp_check IPv6 6 :: "$B6" 5001

# --- 6. stop npool-fwd ----------------------------------------------------------
step "Stopping npool-fwd with SIGINT: final stats table and leak check"
kill -INT "$FWD_PID"
rc=
for i in $(seq 150); do
	if ! kill -0 "$FWD_PID" 2>/dev/null; then
		wait "$FWD_PID"
		rc=$?
		info "npool-fwd exited $(( (i - 1) / 10 )).$(( (i - 1) % 10 )) s after SIGINT, status $rc:"
		break
	fi
	sleep 0.1
done
if [ -z "$rc" ]; then
	fail "npool-fwd did not exit within 15 s of SIGINT (killed)"
	kill -KILL "$FWD_PID" 2>/dev/null
	wait "$FWD_PID" 2>/dev/null
fi
FWD_PID=
# Its output from the stop on (the start-up lines were shown in step 3).
if grep -q '^stopping:' "$WORK/fwd.log"; then
	sed -n '/^stopping:/,$p' "$WORK/fwd.log" | indent
else
	fwd_log | indent
fi
if [ -n "$rc" ]; then
	if [ "$rc" -eq 0 ]; then
		pass "npool-fwd exited with status 0 (no leak)"
	else
		fail "npool-fwd exited with status $rc"
	fi
fi
if [ -s "$WORK/fwd.json" ]; then
	out=$("$PY" "$WORK/fwd_json.py" "$WORK/fwd.json" 2>&1)
	jrc=$?
	sed 's/^/      /' <<<"$out"
	fwd_tx=$(grep -o 'forwarded [^:]*: [0-9]*' <<<"$out" | sed 's/.*: //' | paste -sd/)
	if [ "$jrc" -eq 0 ]; then
		pass "npool-fwd --json: forwarded packets A->B/B->A = $fwd_tx, leak ok"
	else
		fail "npool-fwd --json counters (see above)"
	fi
else
	fail "npool-fwd wrote no --json file"
fi

exit "$FAILED"     # cleanup (EXIT trap) deletes everything and prints the summary
