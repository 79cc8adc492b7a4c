// The supervisor -> worker requests as types (DESIGN §5: a typed protocol, so a second worker cannot drift
// from the first and a mistyped key cannot silently turn a check off). The supervisor builds a struct and
// sends to_json(); a worker parses with parse_request(), which refuses an unknown op, an unknown or
// mistyped key and a missing required one (ProtocolError). The wire format is docs/worker-protocol.md.
// Each request names its op (kOp) beside its fields; worker_requests.cpp lists each one's keys once for both
// directions.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace aisp {

using json = nlohmann::json;

struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// setup(): the seeds of static and dynamic inputs, drawn after every plugin is loaded.
struct SetupRequest {
  static constexpr const char* kOp = "setup";
  uint64_t static_seed = 0, dynamic_seed = 0;
};
// One verified run on inputs refilled from `seed`; outputs dumped under dir/tag unless `dump` is false
// (the supervisor then reads them through its IPC mapping).
struct CheckRequest {
  static constexpr const char* kOp = "check";
  uint64_t seed = 0;
  std::string dir, tag = "check";
  bool audit = true, dump = true;
};
// K10: run() captured into a graph, replayed on inputs from `seed`, verified like a check.
struct ReplayRequest {
  static constexpr const char* kOp = "replay";
  uint64_t seed = 0;
  std::string dir, tag = "replay";
  bool dump = true;
};
// At least `count` runs, then until settled or `max_time_s` (at least `min_time_s`).
struct WarmupRequest {
  static constexpr const char* kOp = "warmup";
  std::string mode = "cold";
  int count = 1;
  double min_time_s = 0, max_time_s = 1, stable_rel = 0.01;
};
// A block of timed samples (runtime/worker.cpp op_time says what happens around each).
struct TimeRequest {
  static constexpr const char* kOp = "time";
  std::string mode = "cold";
  int samples = 1, batch = 1;
  uint64_t sample_seed = 0;
  int64_t first_sample = 0;
  uint64_t projection_key = 0;
  bool audit = false;
  int verify_sample = -1;  // < 0: none
  std::string dir, tag = "timed";
  bool dump = true;
};
// K21: the baseline's output projections for these sample indices of the shared seed sequence.
struct ReferenceRequest {
  static constexpr const char* kOp = "reference";
  std::vector<int64_t> samples;
  uint64_t sample_seed = 0, projection_key = 0;
};
// K5: one run on `seed`, then one per dynamic input refilled alone from `alt_seed`.
struct SensitivityRequest {
  static constexpr const char* kOp = "sensitivity";
  uint64_t seed = 0, alt_seed = 0;
};
struct MemoryRequest {
  static constexpr const char* kOp = "memory";
};
struct ExitRequest {
  static constexpr const char* kOp = "exit";
};

using WorkerRequest = std::variant<SetupRequest, CheckRequest, ReplayRequest, WarmupRequest, TimeRequest,
                                   ReferenceRequest, SensitivityRequest, MemoryRequest, ExitRequest>;

// {"op": ..., fields...}; the transport adds "id".
json to_json(const WorkerRequest& request);
// Strict: throws ProtocolError naming the op and the key at fault.
WorkerRequest parse_request(const json& message);
const char* op_name(const WorkerRequest& request);

}  // namespace aisp
