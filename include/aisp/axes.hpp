// Parameter axes (NVBench-style): a workload size that a run can change from the command line.
//
// A pair reads its size through aisp::axis() in the workload it shares between baseline and optimized:
//
//   inline int64_t copy_n() { return aisp::axis("n", int64_t{1} << 26); }   // default 2^26
//   w.params = {{"n", copy_n()}};                                           // in workload()
//
// and sizes its buffers from ctx.param("n") as before. `aisp bench run --axis n=2^20..2^28:2` runs the
// target once per value; the supervisor checks that the declared workload really carries each value it
// asked for, so an axis a pair does not read is an error, not a silently repeated default.
//
// Transport: the supervisor starts each worker with AISP_AXIS_<name>=<value> in its environment (a worker
// is one process per variant and axis point). Header-only, so older plugins without axes are unaffected.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace aisp {

inline std::string axis_environment_name(const std::string& axis) { return "AISP_AXIS_" + axis; }

// The value of axis `name` for this run: the command line's, else `default_value`.
inline int64_t axis(const char* name, int64_t default_value) {
  const char* text = std::getenv(axis_environment_name(name).c_str());
  if (!text || !*text) return default_value;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || v <= 0)
    throw std::invalid_argument(std::string("axis '") + name + "': '" + text + "' is not a positive integer");
  return static_cast<int64_t>(v);
}

}  // namespace aisp
