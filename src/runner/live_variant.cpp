#include "runner/live_variant.hpp"

#include <fmt/format.h>

namespace aisp {

void fail(LiveVariant& l, const Reply& r, const std::string& phase) {
  l.failed = true;
  l.result->status = status::failed_error;
  l.result->error_kind = r.kind;
  l.result->error = fmt::format("{}: {}", phase, r.reason);
  // A check the worker could only decide by ending the request (work that never finishes).
  if (r.kind == "validity") {
    l.result->status = status::invalid;
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
