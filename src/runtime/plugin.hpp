// Loading one benchmark plugin (.so built by aisp_add_benchmark) and checking it can run on this GPU.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>

#include "aisp/benchmark.hpp"

namespace aisp {

struct PluginError : std::runtime_error {
  std::string kind;  // "load", "symbol", "api", "arch"
  PluginError(std::string k, const std::string& what) : std::runtime_error(what), kind(std::move(k)) {}
};

class Plugin {
 public:
  // Throws PluginError with a message a user can act on.
  explicit Plugin(const std::string& path);
  ~Plugin();
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  std::unique_ptr<Benchmark> create() const;
  int binary_version() const { return binary_version_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  void* handle_ = nullptr;
  Benchmark* (*factory_)() = nullptr;
  int binary_version_ = 0;
};

}  // namespace aisp
