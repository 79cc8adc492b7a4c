// One variant of a target while it runs: its worker process, what it declared when it loaded, the
// validity evidence collected so far and its timing state. Shared by the phases of a target run
// (target_runner.cpp, pair_contract.cpp, timed_sample_check.cpp).
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/sample_projection.hpp"
#include "core/stopping.hpp"
#include "core/validity.hpp"
#include "core/verdict.hpp"
#include "core/worker_replies.hpp"
#include "runner/variant_worker.hpp"

namespace aisp {

class RankedWorker;  // runner/ranked_worker.hpp

struct LiveVariant {
  VariantResult* result;
  std::unique_ptr<VariantWorker> worker;
  json ready;    // the worker's ready message: workload, tolerance, goal, requirements ...
  json buffers;  // setup()'s buffer list: name, kind, dtype, shape
  bool failed = false;
  StdRelCriterion criterion;
  double estimate_ms = 0, sampling_wall_s = 0;
  bool done = false;
  // Validity evidence: findings per check id, what was done per id, and the raw numbers K6/K7 judge.
  FindingLog findings;
  std::map<std::string, std::string> evidence;
  std::vector<double> all_gpu_ms, all_wall_ms, drain_us;
  std::vector<BlockClocks> blocks;
  int blocks_done = 0;
  bool final_audit_pending = false, final_audit_done = false;
  std::string audit_unavailable;
  std::string stop_note;  // set when sequential stopping on the comparison ended the sampling
  // K21: every timed sample's output projections, by the sample's index in the shared seed sequence.
  std::map<int64_t, SampleProjection> projections;
  int64_t samples_run = 0;  // timed samples run so far (kept, discarded and audited)
  int64_t full_timed_checks = 0;  // K3: timed samples of audited blocks compared in full and found equal
  // The worker's output buffers mapped into the supervisor (name -> device pointer); empty: outputs are
  // dumped to files and compared on the host.
  std::map<std::string, const void*> mapped_outputs;
  std::string outputs_via_files;  // why they are not mapped
  // Multi-rank (issue 26): `worker` as its ranks (null with one rank), and each rank's outputs of the last
  // check round compared with the baseline's same rank (nullopt: never compared).
  RankedWorker* ranked = nullptr;
  std::vector<std::optional<Verification>> rank_checks;
};

// A worker's {"peak_mb", "allocated_mb", "reserved_mb"}.
Memory memory_from_json(const json& j);

// Marks a variant failed with the worker's error reply; a reply of kind "validity" makes it INVALID.
void fail(LiveVariant& l, const Reply& r, const std::string& phase);
void fail(LiveVariant& l, const std::string& kind, const std::string& message, const char* status = status::failed_error);

// A reply parsed with `parse` (core/worker_replies.hpp); a reply that breaks the protocol fails the variant
// (kind "protocol") and gives nullopt.
template <class Parse>
auto parse_reply(LiveVariant& l, const Reply& r, Parse&& parse, const std::string& phase)
    -> std::optional<decltype(parse(r.body))> {
  try {
    return parse(r.body);
  } catch (const ProtocolError& e) {
    fail(l, "protocol", phase + ": " + e.what());
    return std::nullopt;
  }
}

}  // namespace aisp
