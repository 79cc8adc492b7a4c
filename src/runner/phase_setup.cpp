// Phase 2: seeds are drawn only now, after every plugin is loaded, so no plugin can know them in advance;
// then setup() in every worker (static inputs from one seed, dynamic ones from another, each input its
// own stream), with what loading and setup changed (K16) and the guard bands (K22) reported back.
#include <fmt/format.h>

#include "core/schema.hpp"
#include "runner/target_run.hpp"

namespace aisp {
bool TargetRun::setup() {
  rng_.seed(opt_.reproducible ? opt_.seed : std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32));
  static_seed_ = rng_();
  setup_seed_ = rng_();
  for (int i = 0; i < kCheckRounds; ++i) check_seeds_.push_back(rng_());
  out_.seeds = {static_seed_, setup_seed_};
  out_.seeds.insert(out_.seeds.end(), check_seeds_.begin(), check_seeds_.end());
  for (auto& l : live_) {
    if (l.failed) continue;
    progress(l.result->name, "setup");
    Reply r = l.worker->request(to_json(SetupRequest{static_seed_, setup_seed_}),
                                kSetupTimeout * opt_.timeout_multiplier);
    if (!r.ok()) {
      fail(l, r, "setup");
      continue;
    }
    auto s = parse_reply(l, r, parse_setup_reply, "setup");
    if (!s) continue;
    l.result->memory = memory_from_json(s->memory);
    l.buffers = s->buffers;
    l.findings.add_all(s->findings);
    if (s->audit_unavailable) l.audit_unavailable = *s->audit_unavailable;
    map_outputs(l);
  }
  return !baseline_failed();
}

// Every output of the variant mapped, or none (a variant is compared one way throughout).
void TargetRun::map_outputs(LiveVariant& l) {
  if (l.ranked) {
    l.outputs_via_files = fmt::format("{} ranks: each rank's outputs live on its own GPU, out of the supervisor's "
                                      "IPC mapping; every rank dumps them into its own folder", ranks());
    return;
  }
  if (!opt_.output_device) {
    l.outputs_via_files = "no device access in this process";
    return;
  }
  std::string uuid = l.ready.value("device", json::object()).value("uuid", ""), why;
  for (auto& b : l.buffers) {
    if (b.value("kind", "") != "output") continue;
    const json ipc = b.value("ipc", json());
    const void* p = nullptr;
    if (ipc.is_object())
      p = opt_.output_device->open({ipc.at("handle").get<std::string>(), ipc.at("offset").get<uint64_t>(),
                                    b.at("bytes").get<uint64_t>()}, uuid, &why);
    else why = "the worker could not export '" + b.value("name", "") + "'";
    if (!p) {
      for (auto& [name, q] : l.mapped_outputs) opt_.output_device->close(q);
      l.mapped_outputs.clear();
      l.outputs_via_files = why;
      return;
    }
    l.mapped_outputs[b.at("name").get<std::string>()] = p;
  }
}

void TargetRun::unmap_outputs() {
  for (auto& l : live_) {
    for (auto& [name, p] : l.mapped_outputs) opt_.output_device->close(p);
    l.mapped_outputs.clear();
  }
}

}  // namespace aisp
