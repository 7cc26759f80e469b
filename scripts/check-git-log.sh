#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Commit messages in DPDK's form (devtools/check-git-log.sh):
#   component: what changed
# - subject at most 72 characters, "component: " (README, lib, apps/fwd,
#   tests/unit, ...) then a lower-case start: "Fix"/"Add" are refused,
#   an acronym (TSan, RSS) or an identifier (rte_lpm, --rate) is fine;
# - no trailing period, no tab; a blank line between subject and body;
# - body lines at most 75 characters (a URL or a quoted command may be
#   longer when it stands alone on its line).
# Usage:
#   scripts/check-git-log.sh [RANGE]   commits of RANGE (default: those
#                                      after $NPOOL_LOG_BASE, the last
#                                      commit before the rule)
#   scripts/check-git-log.sh --msg F   one message file (a commit-msg hook:
#                                      git config core.hooksPath devtools/hooks)
set -uo pipefail

# The history before this commit predates the rule (issue 12).
base=${NPOOL_LOG_BASE:-1196ab6}

check_one() { # $1 = name, message on stdin; prints problems
	local name=$1 subject second bad=0 n=0 line
	IFS= read -r subject || subject=
	if [ ${#subject} -gt 72 ]; then
		echo "$name: subject is ${#subject} characters (at most 72): $subject"
		bad=1
	fi
	if ! printf '%s' "$subject" |
			grep -Eq '^[a-zA-Z0-9][a-zA-Z0-9_./+-]*(, ?[a-zA-Z0-9][a-zA-Z0-9_./+-]*)*: ([^A-Z ]|[A-Z][^a-z])'; then
		echo "$name: subject is not 'component: what changed' (lower case after the colon): $subject"
		bad=1
	fi
	case $subject in
	*.) echo "$name: subject ends with a period: $subject"; bad=1 ;;
	esac
	if IFS= read -r second && [ -n "$second" ]; then
		echo "$name: no blank line after the subject"
		bad=1
	fi
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in \#*) continue ;; esac
		if [ ${#line} -gt 75 ] && [[ $line == *" "* ]] &&
				[[ $line != *://* ]] && [[ $line != "    "* ]]; then
			echo "$name: body line $n is ${#line} characters (at most 75)"
			bad=1
		fi
	done
	return $bad
}

if [ "${1:-}" = "--msg" ]; then
	# commit-msg hook: git's comment lines are not part of the message.
	grep -v '^#' "$2" | check_one "commit message"
	exit $?
fi

range=${1:-}
if [ -z "$range" ]; then
	if git cat-file -e "$base^{commit}" 2>/dev/null; then
		range="$base..HEAD"
	else
		# a shallow clone without the base: the newest commit only
		range="HEAD~1..HEAD"
	fi
fi
fail=0 count=0
for c in $(git rev-list --no-merges "$range"); do
	count=$((count + 1))
	git log -1 --format=%B "$c" |
		check_one "$(git log -1 --format=%h "$c")" || fail=$((fail + 1))
done
if [ $fail -ne 0 ]; then
	echo "check-git-log: $fail of $count commit(s) in $range break the rules above"
	exit 1
fi
echo "check-git-log: $count commit(s) in $range, all in form"
