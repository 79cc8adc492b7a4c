// Cheat (bench-root): the copy, then a launch with an impossible configuration (4096 threads a block)
// whose error is never checked. A plugin linked with its own static CUDA runtime keeps that error to
// itself, so a harness built on the shared runtime would report a clean run of a benchmark that fails.
// Real-world exploit: a user's --bench-root plugin built with other flags than the in-tree ones.
// Caught by: K12 (bench-root plugins are linked with -cudart shared like in-tree ones, so the worker
// finds the error left pending after the request).
#include "copy_pair.cuh"

struct HiddenLaunchError : benchroot::Copy {
  void run(aisp::Context& ctx) override {
    benchroot::Copy::run(ctx);
    benchroot::copy_kernel<<<1, 4096, 0, ctx.stream()>>>(ctx.buffer("in").as<const float>(),
                                                         ctx.buffer("out").as<float>(), 0);
  }
};

AISP_BENCHMARK(HiddenLaunchError)
