# The two commands of the README: `make run` (build + run the main suite on a GPU) and `make test`
# (build everything, every .cu included, and run the tests; GPU tests skip with a reason without a GPU).
BUILD ?= build
JOBS ?= $(shell nproc)
TARGETS ?= all

.PHONY: setup build test run gpu-test clean

setup:
	@scripts/setup.sh

$(BUILD)/build.ninja:
	@scripts/setup.sh
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

run: build
	$(BUILD)/aisp bench run --targets $(TARGETS)

# On a GPU machine: GPU-labelled tests plus a small suite run, artifacts under $(BUILD)/gpu-suite.
gpu-test: build
	scripts/gpu_suite.sh $(BUILD)

clean:
	rm -rf $(BUILD)
