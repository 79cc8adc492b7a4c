// `aisp profile torch` (issue 23): the PyTorch profiler around one checked run of each Python variant, in the
// Python worker `bench run` uses (python/aisp/torch_profile.py writes <prefix>.trace.json and
// <prefix>.torch_ops.json). This part is host-only: the interpreter the worker runs under, whether it can
// import torch, and reading and printing the ops document (schema aisp.torch_ops/1). The supervisor side
// (spawning the worker, the check, the comparison with the baseline) is in src/cli/profile_commands.cpp.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace aisp::profile {

// The environment variable the worker reads: the output prefix of its profile (python/aisp/torch_profile.py).
inline constexpr const char* kTorchProfileEnv = "AISP_TORCH_PROFILE";

struct TorchOp {
  std::string name;
  // "gpu": an activity on the device (kernel, memset, copy); "op": a CPU-side op whose self device time is that
  // of the kernels it launched (the same time again); "" in documents written before the field existed.
  std::string kind;
  long long calls = 0;
  double self_device_us = 0, device_us = 0, self_cpu_us = 0, cpu_us = 0;
};

struct TorchOps {
  std::string torch_version, trace;
  double wall_ms = 0;
  double total_self_device_us = 0;  // the worker's total: the "gpu" rows, each GPU activity once
  std::vector<TorchOp> ops;         // largest self device time first
};

// Strict: throws std::runtime_error naming what is missing (a worker that wrote a different schema).
TorchOps parse_torch_ops(const nlohmann::json& doc);
nlohmann::json to_json(const TorchOp& op);

// The top `top` ops by self device (CUDA) time as an aligned text table, each line indented by `indent`:
// op, kind, calls, self CUDA, % of the run's GPU time (total_self_device_us), CUDA total, self CPU.
std::string torch_ops_table(const TorchOps& ops, int top, const std::string& indent = "  ");

// $AISP_PYTHON, else python3: the interpreter the supervisor starts the Python worker with.
std::string python_interpreter();

// Whether that interpreter can import torch.profiler: empty when it can, else the reason (its last error
// line) for the message `profile torch` exits 2 with.
std::string torch_import_problem(const std::string& python);

}  // namespace aisp::profile
