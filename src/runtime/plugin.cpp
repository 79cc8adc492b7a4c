#include "runtime/plugin.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fmt/format.h>

namespace aisp {

Plugin::Plugin(const std::string& path) : path_(path) {
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw PluginError("load", fmt::format("cannot load plugin {}: {}", path, dlerror()));
  auto sym = [&](const char* name) {
    void* p = dlsym(handle_, name);
    if (!p)
      throw PluginError("symbol", fmt::format("{} is not an aisp benchmark plugin: symbol {} is missing "
                                              "(does the .cu end with AISP_BENCHMARK(ClassName)?)",
                                              path, name));
    return p;
  };
  auto api_version = reinterpret_cast<int (*)()>(sym("aisp_plugin_api_version"));
  factory_ = reinterpret_cast<Benchmark* (*)()>(sym("aisp_create_benchmark"));
  auto probe = reinterpret_cast<int (*)(int*)>(sym("aisp_plugin_probe_arch"));
  if (int v = api_version(); v != kPluginApiVersion)
    throw PluginError("api", fmt::format("{} was built against plugin API v{}, this aisp speaks v{}: rebuild it", path,
                                         v, kPluginApiVersion));
  int err = probe(&binary_version_);
  if (err != cudaSuccess) {
    int dev = 0;
    cudaDeviceProp prop{};
    cudaGetDevice(&dev);
    cudaGetDeviceProperties(&prop, dev);
    cudaGetLastError();
    throw PluginError("arch", fmt::format("{} has no code this GPU can run ({} is sm_{}{}): {} — rebuild with "
                                          "CMAKE_CUDA_ARCHITECTURES including {}{}",
                                          path, prop.name, prop.major, prop.minor,
                                          cudaGetErrorName(static_cast<cudaError_t>(err)), prop.major, prop.minor));
  }
}

Plugin::~Plugin() {
  // Deliberately not dlclose'd: a plugin's static destructors or CUDA module teardown at exit would run
  // after the runtime's own; the worker process ends right after anyway.
}

std::unique_ptr<Benchmark> Plugin::create() const {
  std::unique_ptr<Benchmark> b(factory_());
  if (!b) throw PluginError("symbol", path_ + ": aisp_create_benchmark returned null");
  return b;
}

}  // namespace aisp
