#include "runner/live_variant.hpp"

#include <fmt/format.h>

namespace aisp {

Memory memory_from_json(const json& j) {
  return {j.value("peak_mb", 0.0), j.value("allocated_mb", 0.0), j.value("reserved_mb", 0.0)};
}

void fail(LiveVariant& l, const Reply& r, const std::string& phase) {
  l.failed = true;
  l.result->status = status::failed_error;
  l.result->error_kind = r.kind;
  l.result->error = fmt::format("{}: {}", phase, r.reason);
  // A check the worker could only decide by ending the request (work that never finishes): INVALID.
  if (r.kind == "validity") {
    l.result->status = status::invalid;
    l.findings.add(r.body.value("check", "K?"), r.reason);
  } else if (r.body.is_object() && r.body.contains("check")) {
    // An error that is also a check's finding (K12: a CUDA error the benchmark left pending) keeps its
    // status word and shows as that check failed.
    l.findings.add(r.body.value("check", "K?"), r.reason);
  }
}

void fail(LiveVariant& l, const std::string& kind, const std::string& message, const char* st) {
  l.failed = true;
  l.result->status = st;
  l.result->error_kind = kind;
  l.result->error = message;
}

}  // namespace aisp
