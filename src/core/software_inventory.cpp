#include "core/software_inventory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace aisp {

namespace fs = std::filesystem;

const std::vector<LibrarySpec>& cuda_libraries() {
  static const std::vector<LibrarySpec> libs = {
      {"CUDA runtime (cudart)", "cudart", "cuda_runtime_api.h", {"CUDART_VERSION"}},
      {"cuBLAS", "cublas", "cublas_api.h", {"CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH"}},
      {"cuDNN", "cudnn", "cudnn_version.h", {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}},
      {"NCCL", "nccl", "nccl.h", {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"}},
  };
  return libs;
}

std::string header_version(const std::string& text, const std::vector<std::string>& macros) {
  std::vector<long> parts;
  for (auto& m : macros) {
    std::smatch match;
    if (!std::regex_search(text, match, std::regex("#define\\s+" + m + "\\s+([0-9]+)"))) return "";
    parts.push_back(std::stol(match[1]));
  }
  if (parts.size() == 1) return fmt::format("{}.{}", parts[0] / 1000, (parts[0] % 1000) / 10);
  return fmt::format("{}", fmt::join(parts, "."));
}

std::string nvcc_release(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex("release [0-9.]+, V([0-9.]+)"))) return m[1];
  if (std::regex_search(text, m, std::regex("release ([0-9.]+)"))) return m[1];
  return "";
}

std::string driver_from_proc(const std::string& text) {
  std::smatch m;
  return std::regex_search(text, m, std::regex("Kernel Module\\s+([0-9][0-9.]*)")) ? std::string(m[1]) : "";
}

namespace {

void add_existing(std::vector<fs::path>& out, const fs::path& p) {
  std::error_code ec;
  if (!p.empty() && fs::is_directory(p, ec) && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
}

std::vector<fs::path> cuda_homes() {
  std::vector<fs::path> h;
  if (const char* c = std::getenv("CUDA_HOME"); c && *c) h.push_back(c);
  h.push_back("/usr/local/cuda");
  return h;
}

std::string read_all(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

std::vector<fs::path> default_lib_dirs() {
  std::vector<fs::path> d;
  for (auto& h : cuda_homes())
    for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) add_existing(d, h / sub);
  for (const char* sys : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"})
    add_existing(d, sys);
  if (const char* ld = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream ss(ld);
    for (std::string p; std::getline(ss, p, ':');) add_existing(d, p);
  }
  return d;
}

std::vector<fs::path> default_include_dirs() {
  std::vector<fs::path> d;
  for (auto& h : cuda_homes())
    for (const char* sub : {"include", "targets/x86_64-linux/include", "targets/sbsa-linux/include"}) add_existing(d, h / sub);
  add_existing(d, "/usr/include");
  add_existing(d, "/usr/include/x86_64-linux-gnu");
  return d;
}

SoftwareItem find_library(const LibrarySpec& spec, const std::vector<fs::path>& lib_dirs,
                          const std::vector<fs::path>& include_dirs) {
  SoftwareItem item{spec.name};
  std::string prefix = "lib" + spec.lib + ".so";
  std::vector<std::string> looked;
  for (auto& dir : lib_dirs) {
    looked.push_back(dir.string());
    std::error_code ec;
    std::vector<fs::path> hits;
    for (auto& e : fs::directory_iterator(dir, ec)) {
      std::string n = e.path().filename().string();
      if (n == prefix || n.rfind(prefix + ".", 0) == 0) hits.push_back(e.path());
    }
    if (hits.empty()) continue;
    // The longest name carries the most version digits (libcudnn.so.9.1.0 over libcudnn.so.9).
    std::sort(hits.begin(), hits.end(), [](auto& a, auto& b) { return a.string().size() > b.string().size(); });
    item.found = true;
    item.path = hits.front().string();
    std::string n = hits.front().filename().string();
    item.version = n.size() > prefix.size() + 1 ? n.substr(prefix.size() + 1) : "";
    item.note = "version from the file name";
    break;
  }
  if (!item.found) {
    item.note = fmt::format("not found: no {}* in {}", prefix,
                            looked.empty() ? "(no library folder exists)" : fmt::format("{}", fmt::join(looked, ", ")));
    return item;
  }
  for (auto& dir : include_dirs) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / spec.header, ec)) continue;
    if (std::string v = header_version(read_all(dir / spec.header), spec.macros); !v.empty()) {
      item.version = v;
      item.note = "version from " + (dir / spec.header).string();
      break;
    }
  }
  return item;
}

}  // namespace aisp
