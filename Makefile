# The two commands of the README: `make run` (build + run the main suite on a GPU) and `make test`
# (build everything, every .cu included, and run the tests; GPU tests skip with a reason without a GPU).
BUILD ?= build
JOBS ?= $(shell nproc)
TARGETS ?= all

.PHONY: help setup build test run gpu-test clean check coverage

# `make help`: every target with its `## ` description.
help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: ## Install the Debian packages and node modules (scripts/setup.sh)
	@scripts/setup.sh

$(BUILD)/build.ninja:
	@scripts/setup.sh
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/build.ninja ## Configure (Ninja, Release) and build everything, every .cu included
	cmake --build $(BUILD) -j $(JOBS)

test: build ## Build, then run every test (GPU tests skip with a reason without a GPU)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

run: build ## Build, then run the main suite on the GPU (TARGETS=all)
	$(BUILD)/aisp bench run --targets $(TARGETS)

# On a GPU machine: GPU-labelled tests plus a small suite run, artifacts under $(BUILD)/gpu-suite.
gpu-test: build ## On a GPU machine: GPU-labelled tests plus a small suite run
	scripts/gpu_suite.sh $(BUILD)

clean: ## Remove the build folder (artifacts: aisp clean)
	rm -rf $(BUILD)

# Format check on changed lines (clang-format), shellcheck / Python syntax / JSON on changed files, then the
# tests not labelled gpu; CHECK_BASE=<commit> widens "changed" (default HEAD). scripts/check.sh says how.
check: build ## Format check + lint of changed files, then the CPU tests (CHECK_BASE=HEAD~N)
	scripts/check.sh $(BUILD)

# Which seed chapters/labs have pairs in this tree (docs/coverage.md describes the output).
coverage: ## Seed topics and chapters with pairs, measured from the tree (COVERAGE_ARGS=--json)
	@python3 scripts/seed_coverage.py $(COVERAGE_ARGS)
