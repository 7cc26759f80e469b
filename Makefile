# Thin wrapper: meson + ninja do the work.
#   make demo   live traffic through npool-fwd between two network namespaces
#   make test   unit + integration tests (meson test), but the slow suite
#   make test-release   the tests of what differs between DPDK releases
#   make check-all   every check on every release (hours; CI runs a part)
#   make doc    API reference: Doxygen HTML of the public headers (BUILD/doc)
#   make bench  benchmarks, ratios against DPDK's stock path (QUICK=1: < 2 min)
#   make test SANITIZE=address,undefined   the same tests on a sanitizer build
#   make tsan       ThreadSanitizer build of the multi-lcore tests
#   make fuzz SECONDS=N   each libFuzzer target for N seconds (default 60)
#   make stress     multi-lcore allocator stress, >= 1e9 operations
#   make soak MINUTES=N   npool-fwd on looping captures with leak checks
#   make vm-test    npool-fwd on DPDK's em and igb PMDs inside a QEMU guest
#   make kernel-record   the Linux router's outcomes the kernel tests use
#                   where this kernel lacks a feature (tests/data/kernel)
#   make conformance  DPDK's own autotests on stock and npool ops
#   make churn-norcu  the churn test without RCU: it must fail
#   make check-git-log   commit messages in DPDK's form (CI runs it)
#   make lts-test [LTS=24.11]   make test-release on DPDK 22.11, 24.11 and
#                   25.11, each in a Debian root (scripts/lts-test.sh)
BUILD ?= build
BENCH_BUILD ?= build-bench
MESON_OPTS ?=
SECONDS ?= 60
MINUTES ?= 30
comma := ,

# A sanitizer build lives in a folder of its own (build-san-address-undefined);
# -O2 -g so that reports name files and lines (tests/sanitizers).
# Its tests: all but the 'static' suite (file checks and python only:
# nothing of ours for a sanitizer to watch), the 'install' suite (meson
# install and a compiler: no code of ours runs that the unit tests do not
# run) and the tests of an app on the stock pool that have a twin on
# npool (X-mempool-Y beside X-npool-Y: the same app code, which the twin
# runs; make test runs both).
ifneq ($(SANITIZE),)
BUILD := build-san-$(subst $(comma),-,$(SANITIZE))
MESON_OPTS += -Db_sanitize=$(SANITIZE) -Db_lundef=false -Dbench=false \
	--buildtype=debugoptimized
SAN_SKIP := --no-suite static --no-suite install
SAN_NAMES = $$(meson test -C $(BUILD) --list --no-suite slow $(SAN_SKIP) \
	2>/dev/null | sed -n 's|^npool:[^ ]* / ||p' | awk '{ n[NR] = $$0; \
	have[$$0] = 1 } END { for (i = 1; i <= NR; i++) { t = n[i]; \
	sub(/mempool/, "npool", t); if (t == n[i] || !(t in have)) \
	print n[i] } }')
endif

.PHONY: all build test test-release check-slow check-all demo doc bench \
	install clean tsan fuzz stress soak vm-test check-git-log lts-test \
	conformance churn-norcu kernel-record

all: build

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

build:
	bash scripts/deps.sh build
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Tests side by side: most wait on EAL start-up, idle exits and peers
# more than they compute; the ones that must run alone say so
# (is_parallel: false). The slow suite is make check-all's. A failure
# ends with the failed tests' names and last lines (scripts/test-tail.py).
TEST_JOBS ?= 4
MESON_TEST = meson test -C $(BUILD) --print-errorlogs --num-processes $(TEST_JOBS)
TEST_TAIL = { python3 scripts/test-tail.py $(BUILD); exit 1; }
test:
	bash scripts/deps.sh test
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	$(MESON_TEST) --no-suite slow $(SAN_SKIP) $(SAN_NAMES) || $(TEST_TAIL)

# The slow suite (dpdk-autotests-slow: timer-driven autotests, their
# reasons in tests/conformance/dpdk_autotests.py SLOW): make check-all.
check-slow:
	bash scripts/deps.sh test
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	$(MESON_TEST) --suite slow || $(TEST_TAIL)

# Every check on every release: what CI runs (.ci/run) and what it leaves
# out (docs/testing.md#what-runs-where): the slow suite, every test in
# each LTS root (LTS= to choose), every vm-test device. Root; hours.
check-all:
	$(MAKE) --no-print-directory test
	$(MAKE) --no-print-directory check-slow
	$(MAKE) --no-print-directory doc
	LTS="$(LTS)" bash scripts/lts-test.sh full
	$(MAKE) --no-print-directory test SANITIZE=address,undefined
	$(MAKE) --no-print-directory tsan
	$(MAKE) --no-print-directory fuzz SECONDS=$(SECONDS)
	$(MAKE) --no-print-directory vm-test
	QUICK=1 $(MAKE) --no-print-directory bench

# The build and the 'release' suite: what differs between DPDK releases
# (scripts/lts-test.sh runs it in each release's Debian root).
test-release:
	bash scripts/deps.sh test
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	$(MESON_TEST) --suite release || $(TEST_TAIL)

demo:
	bash scripts/deps.sh demo
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	bash scripts/demo.sh $(BUILD)

# Doxygen of docs/Doxyfile; a warning fails (WARN_AS_ERROR).
doc:
	bash scripts/deps.sh doc
	rm -rf $(BUILD)/doc
	mkdir -p $(BUILD)/doc
	NPOOL_SRC=$(CURDIR) NPOOL_DOC_OUT=$(abspath $(BUILD))/doc doxygen docs/Doxyfile
	@echo "make doc: $(BUILD)/doc/html/index.html"

bench:
	bash scripts/deps.sh bench
	bash scripts/bench.sh $(BENCH_BUILD)

# The churn test on a build whose control side does not wait for the
# lcores (-Dfwd_rcu=false): it must see packets sent to a wrong port,
# or the RCU it checks is not what keeps them right.
churn-norcu:
	bash scripts/deps.sh test
	$(MAKE) --no-print-directory build-norcu/build.ninja
	ninja -C build-norcu apps/fwd/npool-fwd
	python3 tests/integration/fwd_churn.py \
		--app build-norcu/apps/fwd/npool-fwd --seconds 20 \
		--expect-failures
	python3 tests/integration/fwd_churn.py --lookup fib \
		--app build-norcu/apps/fwd/npool-fwd --seconds 20 \
		--expect-failures

build-norcu/build.ninja:
	meson setup build-norcu $(MESON_OPTS) -Dfwd_rcu=false -Dtests=false \
		-Dbench=false

tsan:
	bash scripts/deps.sh test
	bash scripts/tsan.sh build-tsan

fuzz:
	bash scripts/deps.sh fuzz
	bash scripts/fuzz.sh build-fuzz $(SECONDS)

stress:
	bash scripts/deps.sh test
	bash scripts/stress.sh build-stress

soak:
	bash scripts/deps.sh test
	bash scripts/soak.sh $(BUILD) $(MINUTES)

vm-test:
	bash scripts/deps.sh vm
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	bash scripts/vm-test.sh $(BUILD)

# kernel_cast.py's Linux outcomes, for the kernels without multicast
# routing (...): recorded here if this kernel has every feature, else in
# make vm-test's QEMU guest (tests/vm/kernel_record.py). Root; no build.
kernel-record:
	bash scripts/deps.sh demo
	python3 tests/vm/kernel_record.py $(BUILD)

conformance:
	bash scripts/deps.sh test
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	meson test -C $(BUILD) --suite conformance --print-errorlogs -v

check-git-log:
	bash scripts/check-git-log.sh

lts-test:
	LTS="$(LTS)" bash scripts/lts-test.sh test

# meson does not run ldconfig: without it the installed apps and EAL's
# -d librte_mempool_npool.so cannot find libnpool.so.0 in /usr/local
# until the next ldconfig. Not for a staged install (DESTDIR).
install: build
	meson install -C $(BUILD)
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ]; then ldconfig; fi

clean:
	rm -rf $(BUILD) $(BENCH_BUILD) build-san-* build-tsan build-fuzz build-stress build-vm build-norcu
