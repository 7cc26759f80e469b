#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# make kernel-record, guest side: runs inside the QEMU guest (Debian's
# kernel, with multicast routing), chrooted into the host's root (read-only
# 9p), started by tests/vm/init after it loaded veth. Runs the Linux router
# of tests/integration/kernel_cast.py alone (--record) and writes into
# $NPVM_OUT (the host's run folder, writable 9p):
#   cast.json    the outcomes, once every one is as its case expects
#   record.log   kernel_cast.py's output (also on the console)
# config key: WAIT (kernel_cast.py --wait: seconds per case; TCG is slow).

set -u -o pipefail
OUT=${NPVM_OUT:?}
# shellcheck source=/dev/null
. "$OUT/config"

echo "npvm-record: [$(cut -d' ' -f1 /proc/uptime) s] kernel $(uname -r), kernel_cast.py --record"
python3 "$(dirname "$0")/../integration/kernel_cast.py" \
	--record "$OUT/cast.json" --wait "$WAIT" 2>&1 | tee "$OUT/record.log"
rc=$?
echo "npvm-record: [$(cut -d' ' -f1 /proc/uptime) s] kernel_cast.py --record exited with status $rc"
exit "$rc"
