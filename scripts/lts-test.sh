#!/bin/bash
# Build and test npool on each DPDK LTS release Debian ships, each in a
# Debian root of its own made by debootstrap --variant=minbase:
#   22.11  bookworm (Debian 12)   24.11  trixie (Debian 13)   25.11  sid
#
# Usage: scripts/lts-test.sh [test] [RELEASE...]    (make lts-test)
#          build the tree and run `make test-release` on each release:
#          the tests of what differs between releases (meson suite
#          'release', docs/testing.md) (default: $LTS, else all three;
#          LTS="24.11 25.11" or LTS=24.11,25.11)
#        scripts/lts-test.sh full [RELEASE...]    (make check-all)
#          the same with every test: `make test` and the slow suite
#        scripts/lts-test.sh shell RELEASE [CMD...]
#          a shell (or CMD) as root inside RELEASE's root, the tree in
#          /npool, with the host's network (apt-get works) and /dev
#          (/dev/kvm, /dev/net/tun): e.g. `shell 24.11` for trixie's
#          QEMU 10 (NPOOL_LTS_EXTRA=qemu-system-x86 keeps it installed)
#        scripts/lts-test.sh root RELEASE     prepare the root, print its path
#        scripts/lts-test.sh clean [RELEASE...]   delete cached roots
#
# Roots are cached in ${NPOOL_LTS_CACHE:-build-lts}/<suite>/root and
# reused while their key (suite, mirror, package list, this script's
# preparation steps) is unchanged, else rebuilt. The package list is
# scripts/deps.sh's test set plus make (and $NPOOL_LTS_EXTRA). Every run
# mounts an overlay over the cached root: what a run writes goes to a
# scratch upper layer deleted at exit, so the cached root stays as
# prepared (a shell's apt-get install is lost too: put lasting packages
# in NPOOL_LTS_EXTRA).
#
# A test run is also in a network namespace of its own (unshare --net):
# the tests' veths and `ip netns` namespaces cannot meet the host's or
# another run's, and all vanish with it. Its mounts (overlay, /proc,
# /sys, /dev, /dev/shm, /run) live in a private mount namespace and are
# unmounted at exit, on failure too. Exit status: 0 all passed, 1 a
# release failed (named), 2 bad usage.
set -euo pipefail

MIRROR=${NPOOL_LTS_MIRROR:-http://deb.debian.org/debian}
ALL="22.11 24.11 25.11"
here=$(cd "$(dirname "$0")/.." && pwd)
script=$here/scripts/lts-test.sh

die() {
	echo "lts-test: $*" >&2
	exit 2
}

suite_of() {
	case $1 in
	22.11) echo bookworm ;;
	24.11) echo trixie ;;
	25.11) echo sid ;;
	*) die "unknown release '$1' (one of: $ALL)" ;;
	esac
}

cache_dir() {
	local c=${NPOOL_LTS_CACHE:-build-lts}

	case $c in
	/*) ;;
	*) c=$here/$c ;;
	esac
	echo "$c"
}

# ccache: with CCACHE_DIR set (CI sets it), a run compiles through the
# host's cache folder, bound on /ccache in the root.
packages() {
	echo "$(bash "$here/scripts/deps.sh" --list test) make ccache" \
		"${NPOOL_LTS_EXTRA:-}"
}

# Runs inside the new root (chroot), with the host's network.
prepare_inside() {
	set -euo pipefail
	export DEBIAN_FRONTEND=noninteractive
	# No service starts in a root.
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	# The archive's sid Release file can be older than its 7-day
	# Valid-Until (the mirror here is a snapshot): apt would refuse it.
	echo 'Acquire::Check-Valid-Until "false";' \
		>/etc/apt/apt.conf.d/99npool-lts
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $1
	apt-get clean
}

root_key() {
	{
		echo "$1 $MIRROR"
		packages
		declare -f prepare_inside
	} | sha256sum | cut -d' ' -f1
}

# Mount what a run needs under $1 (in a private mount namespace).
mount_root() {
	local m=$1

	mount -t proc proc "$m/proc"
	mount -t sysfs sysfs "$m/sys"
	mount --rbind /dev "$m/dev"
	mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$m/dev/shm"
	mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$m/run"
}

chroot_env() {
	local m=$1
	shift
	chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
		${CI:+CI="$CI"} ${CCACHE_DIR:+CCACHE_DIR=/ccache} "$@"
}

# The hidden entry points run by unshare, in the new namespaces.
inner_prepare() {
	local m=$1

	# shellcheck disable=SC2064  # $m expanded now
	trap "umount -R '$m' 2>/dev/null || umount -lR '$m'" EXIT
	# "/" a mount point in the root, as on a booted system.
	mount --bind "$m" "$m"
	mount_root "$m"
	cp /etc/resolv.conf "$m/etc/resolv.conf"
	chroot_env "$m" /bin/bash -c "$(declare -f prepare_inside);
		prepare_inside '$2'"
}

inner_run() {
	local lower=$1 run=$2 net=$3 m=$2/merged
	shift 3

	# shellcheck disable=SC2064  # $m expanded now
	trap "umount -R '$m' 2>/dev/null || umount -lR '$m'" EXIT
	mount -t overlay overlay -o "lowerdir=$lower,upperdir=$run/upper,workdir=$run/work" "$m"
	mount_root "$m"
	if [ -n "${CCACHE_DIR:-}" ]; then
		mkdir -p "$CCACHE_DIR" "$m/ccache"
		mount --bind "$CCACHE_DIR" "$m/ccache"
	fi
	if [ "$net" = own ]; then
		chroot_env "$m" ip link set lo up
	else
		cp /etc/resolv.conf "$m/etc/resolv.conf"
	fi
	chroot_env "$m" "$@"
}

# Make sure the root of release $1 exists and is current: ROOT is its
# path, locked shared (fd 8) until the next call or exit, so that no other
# run rebuilds it meanwhile.
prepare_root() {
	local rel=$1 suite dir key t0

	suite=$(suite_of "$rel")
	dir=$(cache_dir)/$suite
	key=$(root_key "$suite")
	mkdir -p "$dir"
	exec 8>"$dir/lock"
	flock -x 8
	ROOT=$dir/root
	if [ -d "$ROOT" ] && [ "$(cat "$dir/key" 2>/dev/null)" = "$key" ]; then
		flock -s 8
		return 0
	fi
	command -v debootstrap >/dev/null || {
		echo "lts-test: installing debootstrap" >&2
		apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q debootstrap >&2
	}
	t0=$SECONDS
	echo "lts-test: $rel: preparing a $suite root in $dir" >&2
	rm -rf "$dir/root.new" "$dir/key"
	debootstrap --variant=minbase "$suite" "$dir/root.new" "$MIRROR" \
		>"$dir/prepare.log" 2>&1 ||
		{ tail -20 "$dir/prepare.log" >&2; return 1; }
	unshare --mount --propagation private -- \
		bash "$script" __prepare "$dir/root.new" "$(packages)" \
		>>"$dir/prepare.log" 2>&1 ||
		{ tail -20 "$dir/prepare.log" >&2; return 1; }
	rm -rf "$dir/root"
	mv "$dir/root.new" "$dir/root"
	echo "$key" >"$dir/key"
	echo "lts-test: $rel: root ready in $((SECONDS - t0)) s ($(du -sh \
		"$dir/root" | cut -f1))" >&2
	flock -s 8
}

# A scratch overlay over root $1 with a copy of the tree in /npool; runs
# the rest of the arguments (net: own|host, then the command) in it.
run_in_root() {
	local root=$1 net=$2 run old rc=0
	shift 2

	# Scratch folders of runs that were killed: nobody holds their lock.
	for old in "$(dirname "$root")"/run.*; do
		[ -d "$old" ] || continue
		if (flock -n -x 9 && ! grep -q " $old/" /proc/self/mountinfo) \
				9>>"$old/lock" 2>/dev/null; then
			rm -rf "$old"
		fi
	done
	run=$(mktemp -d "$(dirname "$root")/run.XXXXXX")
	LTS_RUN=$run
	# Held by this script and the namespace's processes while they live.
	exec 9>"$run/lock"
	flock -x 9
	mkdir "$run/upper" "$run/work" "$run/merged" "$run/upper/npool"
	# The tracked files as they are in the working tree (build folders
	# and other untracked files stay out; a deleted file is skipped).
	(cd "$here" && git ls-files -z |
		while IFS= read -r -d '' f; do
			[ -e "$f" ] && printf '%s\0' "$f"
		done | tar --null -T - -cf -) | tar -xf - -C "$run/upper/npool"
	if [ "$net" = own ]; then
		unshare --mount --propagation private --net -- \
			bash "$script" __run "$root" "$run" own "$@" || rc=$?
	else
		unshare --mount --propagation private -- \
			bash "$script" __run "$root" "$run" host "$@" || rc=$?
	fi
	exec 9>&-
	return $rc
}

# Delete the scratch folder of the last run. Its mounts ended with its
# mount namespace: here, outside it, the folder holds plain files only;
# never delete through a mount all the same.
drop_run() {
	[ -n "$LTS_RUN" ] || return 0
	if grep -q " $LTS_RUN/" /proc/self/mountinfo; then
		echo "lts-test: mounts left under $LTS_RUN, not deleting it" >&2
	else
		rm -rf "$LTS_RUN"
	fi
	LTS_RUN=
}

# A meson summary count, summed over the runs of the log (full: two).
count() {
	sed -n "s/^$1: *\([0-9]*\).*/\1/p" "$2" |
		awk '{ s += $1 } END { if (NR) print s }'
}

# Build and test on release $1; prints its report line; 0 when it passed.
test_release() {
	local rel=$1 t0 t1 log ver pkg gcc rc
	local ok xf fail up to skip tests build=ok

	t0=$SECONDS
	prepare_root "$rel" || {
		echo "lts-test: $rel: FAIL: could not prepare the root" \
			"(log: $(cache_dir)/$(suite_of "$rel")/prepare.log)"
		return 1
	}
	t1=$SECONDS
	ver=$(sed -n 's/^Version: //p' "$ROOT"/usr/lib/*/pkgconfig/libdpdk.pc)
	pkg=$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -W \
		-f='${Version}' libdpdk-dev)
	gcc=$(chroot "$ROOT" gcc -dumpfullversion)
	mkdir -p "$(cache_dir)/logs"
	log=$(cache_dir)/logs/$rel.log
	echo "lts-test: $rel: DPDK $ver (libdpdk-dev $pkg, gcc $gcc):" \
		"make build, make $LTS_MAKE (log: $log)"
	rc=0
	# shellcheck disable=SC2016
	run_in_root "$ROOT" own /bin/bash -c '
		cd /npool || exit 1
		echo "DPDK $(pkg-config --modversion libdpdk)"
		make build || exit 100
		make '"$LTS_MAKE" >"$log" 2>&1 || rc=$?
	cp "$LTS_RUN/upper/npool/build/meson-logs/testlog.txt" \
		"$(cache_dir)/logs/$rel-testlog.txt" 2>/dev/null || true
	drop_run
	[ $rc -eq 100 ] && build=FAILED
	ok=$(count Ok "$log"); xf=$(count 'Expected Fail' "$log")
	fail=$(count Fail "$log"); up=$(count 'Unexpected Pass' "$log")
	to=$(count Timeout "$log"); skip=$(count Skipped "$log")
	fail=$(( ${fail:-0} + ${up:-0} + ${to:-0} ))
	if [ -n "$ok" ]; then
		tests="tests $ok OK (+${xf:-0} expected fail), $fail fail,"
		tests="$tests ${skip:-0} skipped"
	else
		# No meson summary: the build or the run failed as a whole.
		tests="no test summary"
		fail=$((fail + 1))
	fi
	echo "lts-test: $rel: DPDK $ver: build $build, $tests;" \
		"root $((t1 - t0)) s, build+test $((SECONDS - t1)) s"
	# The tests that did not pass, once each (meson lists failures twice).
	grep -E '^ *[0-9]+/[0-9]+ .* (SKIP|FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR) ' \
		"$log" | awk '!seen[$0]++' | sed "s/^ */lts-test: $rel:   /" || true
	# Their names again in the last lines, which are what a CI log shows.
	LTS_FAILED_TESTS+=$(grep -E \
		'^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR) ' "$log" |
		awk -v r="$rel" '!seen[$0]++ {
			for (i = 2; i < NF; i++)
				if ($i ~ /^(FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR)$/)
					break
			n = $2; for (j = 3; j < i; j++) n = n " " $j
			printf " %s:%s", r, n }')
	LTS_PASSED=$((LTS_PASSED + ${ok:-0} + ${xf:-0}))
	LTS_FAILED=$((LTS_FAILED + fail))
	LTS_SKIPPED=$((LTS_SKIPPED + ${skip:-0}))
	# Ctrl-C reaches meson, which stops its tests: no other release.
	grep -qE '^ *[0-9]+/[0-9]+ .* INTERRUPT ' "$log" && LTS_STOP=1
	if [ $rc -ne 0 ] || [ -z "$ok" ]; then
		tail -30 "$log" | sed "s/^/lts-test: $rel: | /"
		echo "lts-test: $rel: FAIL (DPDK $ver: $([ $build = ok ] &&
			echo "make test exited $rc" || echo "build failed"))"
		return 1
	fi
	return 0
}

releases() {
	local arg r

	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2086
		set -- ${LTS:-$ALL}
	fi
	for arg in "$@"; do
		for r in ${arg//,/ }; do
			suite_of "$r" >/dev/null
			echo "$r"
		done
	done
}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
LTS_RUN=
trap drop_run EXIT
trap 'exit 130' INT TERM HUP
cmd=${1:-test}
[ $# -gt 0 ] && shift
# What a release runs: the release suite, or (full) everything.
LTS_MAKE=test-release
case $cmd in
full)
	LTS_MAKE="test check-slow"
	cmd=test
	;;
esac
case $cmd in
__prepare) inner_prepare "$@" ;;
__run) inner_run "$@" ;;
test)
	LTS_PASSED=0 LTS_FAILED=0 LTS_SKIPPED=0 LTS_STOP=0 LTS_FAILED_TESTS=
	failed=()
	rels=$(releases "$@") || exit 2
	for r in $rels; do
		test_release "$r" || failed+=("$r")
		if [ $LTS_STOP -eq 1 ]; then
			echo "lts-test: interrupted"
			exit 130
		fi
	done
	df -h "$(cache_dir)" | tail -1 | awk '{print "lts-test: disk: " \
		$4 " free of " $2 " on " $6}'
	for r in $rels; do
		d=$(cache_dir)/$(suite_of "$r")/root
		[ -d "$d" ] && echo "lts-test: $r: cached root $(du -sh "$d" |
			cut -f1) in $d"
	done
	if [ ${#failed[@]} -gt 0 ]; then
		echo "lts-test: FAILED on ${failed[*]}"
		[ -z "$LTS_FAILED_TESTS" ] ||
			echo "lts-test: failed tests:$LTS_FAILED_TESTS" \
				"(their output: $(cache_dir)/logs/RELEASE-testlog.txt)"
	fi
	echo "lts-test: $LTS_PASSED passed, $LTS_FAILED failed," \
		"$LTS_SKIPPED skipped"
	[ ${#failed[@]} -eq 0 ]
	;;
shell)
	[ $# -ge 1 ] || die "usage: lts-test.sh shell RELEASE [CMD...]"
	rel=$1
	shift
	suite_of "$rel" >/dev/null
	prepare_root "$rel" || exit 1
	[ $# -gt 0 ] || set -- /bin/bash -l
	rc=0
	run_in_root "$ROOT" host /bin/bash -c 'cd /npool && exec "$@"' _ "$@" ||
		rc=$?
	drop_run
	exit $rc
	;;
root)
	[ $# -eq 1 ] || die "usage: lts-test.sh root RELEASE"
	suite_of "$1" >/dev/null
	prepare_root "$1" || exit 1
	echo "$ROOT"
	;;
clean)
	rels=$(releases "$@") || exit 2
	for r in $rels; do
		d=$(cache_dir)/$(suite_of "$r")
		[ -d "$d" ] || continue
		# Not under a run that uses it.
		exec 8>"$d/lock"
		flock -x 8
		rm -rf "${d:?}"
	done
	;;
*) die "unknown command '$cmd' (test|full|shell|root|clean)" ;;
esac
