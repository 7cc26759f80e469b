# Thin wrapper: meson + ninja do the work.
#   make demo   live traffic through npool-fwd between two network namespaces
#   make test   unit + integration tests (meson test)
#   make bench  benchmarks, ratios against DPDK's stock path (QUICK=1: < 2 min)
BUILD ?= build
BENCH_BUILD ?= build-bench
MESON_OPTS ?=

.PHONY: all build test demo bench install clean

all: build

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

build:
	bash scripts/deps.sh build
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)

test:
	bash scripts/deps.sh test
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	meson test -C $(BUILD) --print-errorlogs --num-processes 2

demo:
	bash scripts/deps.sh demo
	$(MAKE) --no-print-directory $(BUILD)/build.ninja
	ninja -C $(BUILD)
	bash scripts/demo.sh $(BUILD)

bench:
	bash scripts/deps.sh bench
	bash scripts/bench.sh $(BENCH_BUILD)

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(BENCH_BUILD)
