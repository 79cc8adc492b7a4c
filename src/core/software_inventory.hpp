// `aisp info software`: which CUDA pieces this host has and their versions, found on disk without a GPU:
// a library is where its lib<name>.so* lies (CUDA toolkit and system library folders, $LD_LIBRARY_PATH),
// its version from the header installed with it (cudnn_version.h, nccl.h, cublas_api.h ...) or else from
// the file name; the toolkit from `nvcc --version`; the driver from /proc/driver/nvidia/version.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aisp {

struct SoftwareItem {
  std::string name;
  bool found = false;
  std::string version;  // "" when found but unknown
  std::string path;     // the library file, header or program it was read from
  std::string note;     // where it was looked for when not found, or how the version was read
};

struct LibrarySpec {
  std::string name;                 // cuDNN
  std::string lib;                  // cudnn -> libcudnn.so*
  std::string header;               // cudnn_version.h
  std::vector<std::string> macros;  // CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL (one macro: CUDA's 13000 form)
};
// cudart, cuBLAS, cuDNN, NCCL.
const std::vector<LibrarySpec>& cuda_libraries();

SoftwareItem find_library(const LibrarySpec& spec, const std::vector<std::filesystem::path>& lib_dirs,
                          const std::vector<std::filesystem::path>& include_dirs);
// $CUDA_HOME, /usr/local/cuda, the system folders, $LD_LIBRARY_PATH (libraries) — existing ones only.
std::vector<std::filesystem::path> default_lib_dirs();
std::vector<std::filesystem::path> default_include_dirs();

// "9.1.0" from #defines; "13.0" from a single CUDA-style number (13000); "" when the macros are missing.
std::string header_version(const std::string& header_text, const std::vector<std::string>& macros);
// "13.0.88" from `nvcc --version` ("Cuda compilation tools, release 13.0, V13.0.88"); "" when absent.
std::string nvcc_release(const std::string& nvcc_version_text);
// "580.95.05" from /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX ... Kernel Module  580.95.05 ..."); "".
std::string driver_from_proc(const std::string& proc_text);

}  // namespace aisp
