// libaisp_worker.so's entry point (runtime/c_api.h): the worker of `aisp worker`, with its Benchmark
// made from a host's callback table instead of a plugin. The aisp_host_* calls live beside the adapter
// (runtime/callback_benchmark.cpp).
#include <memory>
#include <stdexcept>
#include <string>

#include "runtime/c_api.h"
#include "runtime/callback_benchmark.hpp"
#include "runtime/worker.hpp"

extern "C" {

int aisp_c_api_version(void) { return AISP_C_API_VERSION; }

int aisp_worker_serve(const char* name, int validity, int in_fd, int out_fd, aisp_benchmark_factory factory,
                      void* factory_user) {
  aisp::WorkerOptions options;
  options.plugin = name ? name : "(host benchmark)";
  options.validity = validity != 0;
  options.in_fd = in_fd;
  options.out_fd = out_fd;
  // Runs inside the worker, after CUDA/CUPTI setup and the pre-load state snapshot; a failure here is
  // reported to the supervisor as a load error, as a plugin that cannot be loaded is.
  options.factory = [factory, factory_user, label = options.plugin]() -> std::unique_ptr<aisp::Benchmark> {
    if (!factory) throw std::invalid_argument(label + ": no benchmark factory");
    aisp_benchmark_callbacks callbacks{};
    aisp::set_callback_error("");
    if (factory(factory_user, &callbacks) != 0)
      throw std::runtime_error(aisp::take_callback_error(label + ": the benchmark could not be created"));
    return std::make_unique<aisp::CallbackBenchmark>(callbacks);
  };
  return aisp::worker_main(options);
}

}  // extern "C"
