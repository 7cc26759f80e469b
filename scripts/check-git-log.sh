#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Commit messages in DPDK's form (devtools/check-git-log.sh):
#   component: what changed
# - subject at most 60 characters, as DPDK's (72 for the commits that
#   were on main before this limit came: they cannot be rewritten),
#   "component: " (README, lib, apps/fwd,
#   tests/unit, ...) then a lower-case start: "Fix"/"Add" are refused,
#   an acronym (TSan, RSS) or an identifier (rte_lpm, --rate) is fine;
# - no trailing period, no tab; a blank line between subject and body;
# - body lines at most 75 characters (a URL or a quoted command may be
#   longer when it stands alone on its line).
# Usage:
# Every commit is checked, merge commits too (the history is linear from
# now on: a merge is one more commit to describe).
#   scripts/check-git-log.sh [RANGE]   commits of RANGE (default: those
#                                      after $NPOOL_LOG_BASE, the last
#                                      commit before the rule)
#   scripts/check-git-log.sh --msg F   one message file (a commit-msg hook:
#                                      git config core.hooksPath devtools/hooks)
set -uo pipefail

# The history before this commit predates the rule (issue 12).
base=${NPOOL_LOG_BASE:-1196ab6}
# Subjects of up to 72 characters were allowed up to the parent of the
# commit that brought subject_max() into this file (found by git log -S,
# so it holds wherever that commit lands on main); later commits take
# DPDK's 60. NPOOL_LOG_BASE60 names the last 72-character commit by hand.
base60=${NPOOL_LOG_BASE60:-}
if [ -z "$base60" ]; then
	base60=$(git log --reverse --format=%H -S'subject_max()' -- \
		"$(dirname "$0")/check-git-log.sh" 2>/dev/null | head -1)
	[ -n "$base60" ] && base60="$base60^"
fi

# Commits that may keep 72-character subjects: base60 and its ancestors
# (none when base60 is not in a shallow clone: the commits are then new).
declare -A old=()
if [ -n "$base60" ] && git cat-file -e "$base60^{commit}" 2>/dev/null; then
	while read -r c; do
		old[$c]=1
	done < <(git rev-list "$base60")
fi

check_one() { # $1 = name, $2 = subject limit, message on stdin
	local name=$1 max=$2 subject second bad=0 n=0 line
	IFS= read -r subject || subject=
	if [ ${#subject} -gt "$max" ]; then
		echo "$name: subject is ${#subject} characters (at most $max): $subject"
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
	grep -v '^#' "$2" | check_one "commit message" 60
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
# One git log for every message: records split at an RS byte, each "full
# hash, abbreviated hash" then the message.
while IFS= read -r -d $'\x1e' rec; do
	[ -n "$rec" ] || continue
	head=${rec%%$'\n'*}
	count=$((count + 1))
	max=60
	[ -n "${old[${head%% *}]:-}" ] && max=72
	check_one "${head#* }" "$max" <<<"${rec#*$'\n'}" ||
		fail=$((fail + 1))
done < <(git log --format='%x1e%H %h%n%B' "$range"; printf '\x1e')
if [ $fail -ne 0 ]; then
	echo "check-git-log: $fail of $count commit(s) in $range break the rules above"
	exit 1
fi
echo "check-git-log: $count commit(s) in $range, all in form"
