// Phase 1 of a target run: every variant's worker up together (baseline first, each its own process with
// one GPU visible), then what each plugin declared: requirements against the device, the axes the pair
// reads, and a workload and a tolerance equal to the baseline's.
#include <fmt/format.h>

#include "aisp/axes.hpp"
#include "core/file_names.hpp"
#include "core/schema.hpp"
#include "runner/mpirun_job.hpp"
#include "runner/pair_contract.hpp"
#include "runner/rank_plan.hpp"
#include "runner/ranked_worker.hpp"
#include "runner/target_run.hpp"
#include "runner/worker_process.hpp"

namespace aisp {

namespace fs = std::filesystem;

bool TargetRun::load() {
  fs::create_directories(opt_.run_dir / "logs");
  live_.push_back({&out_.baseline});
  for (auto& o : out_.optimizations) live_.push_back({&o});
  progress("*", "load");
  WorkerFactory make = opt_.worker_factory ? opt_.worker_factory : [](const WorkerSpawn& s) -> std::unique_ptr<VariantWorker> {
    return std::make_unique<WorkerProcess>(s);
  };
  for (auto& l : live_) {
    l.result->log = (opt_.run_dir / "logs" / fmt::format("{}__{}__{}.log", file_slug(target_.chapter), target_.example,
                                                         l.result->name)).string();
    l.result->status = status::succeeded;
    try {
      WorkerSpawn spawn{opt_.aisp_exe, (opt_.plugin_root / l.result->file).string(), l.result->log,
                        opt_.visible_device, opt_.validity, target_.axes};
      if (opt_.rank_plan) start_ranks(l, spawn, make);
      else l.worker = make(spawn);
    } catch (const std::exception& e) {
      fail(l, "spawn", e.what());
    }
  }
  for (auto& l : live_) {
    if (l.failed) continue;
    Reply r = l.worker->wait_ready(kLoadTimeout * opt_.timeout_multiplier);
    if (!r.ok()) {
      fail(l, r, "load");
      continue;
    }
    l.ready = r.body;
    l.result->technique = r.body.value("technique", "");
    l.result->informational = r.body.value("informational", "");
    l.result->min_speedup = r.body.value("min_speedup", 0.0);
  }
  return !baseline_failed();
}

// The variant as N ranks, one worker per GPU (issue 26). Each variant's ranks share a rendezvous folder of
// their own (AISP_RENDEZVOUS_DIR): a multi-rank pair's rank 0 publishes its NCCL unique id there.
void TargetRun::start_ranks(LiveVariant& l, WorkerSpawn spawn, const WorkerFactory& make) {
  const RankPlan& plan = *opt_.rank_plan;
  fs::path rendezvous = work_ / "rendezvous" / l.result->name;
  fs::create_directories(rendezvous);
  spawn.env.push_back({"AISP_RENDEZVOUS_DIR", rendezvous.string()});
  std::unique_ptr<RankedWorker> ranked;
  if (plan.options.launch_via == "mpirun") {
    // mpirun's daemon starts the ranks, so what a forked worker gets in its environment (the axes, the
    // rendezvous folder) travels in the command's environment instead.
    fs::path pipes = work_ / "pipes" / l.result->name;
    WorkerCommand command = worker_command(spawn);
    for (const auto& [name, value] : spawn.axes) command.env.push_back({axis_environment_name(name), std::to_string(value)});
    command.env.insert(command.env.end(), spawn.env.begin(), spawn.env.end());
    ranked = std::make_unique<RankedWorker>(
        RankGroup(start_mpirun_job(plan, opt_.mpirun, command, pipes.string(), spawn.log_file)));
  } else {
    ranked = std::make_unique<RankedWorker>(start_rank_group(plan, spawn, make));
  }
  l.ranked = ranked.get();
  l.worker = std::move(ranked);
}

bool TargetRun::check_declarations() {
  LiveVariant& base = live_[0];
  device_ = device_from_json(base.ready.at("device"));
  int cc = device_.cc_major * 10 + device_.cc_minor;
  for (auto& l : live_) {
    if (l.failed) continue;
    Requirements req = requirements_from_json(l.ready.at("requirements"));
    if (req.min_compute_capability > cc)
      fail(l, "requirements", fmt::format("needs sm_{} (this GPU is sm_{})", req.min_compute_capability, cc),
           status::skipped);
    else if (req.gpus > ranks())
      fail(l, "requirements",
           ranks() == 1 ? fmt::format("needs {} GPUs: run it as ranks, --nproc-per-node {} (this run has 1 rank)", req.gpus, req.gpus)
                        : fmt::format("needs {} GPUs (this run has {} ranks)", req.gpus, ranks()),
           status::skipped);
    else if (req.min_memory_bytes > device_.global_memory_bytes)
      fail(l, "requirements", fmt::format("needs {:.1f} GiB of device memory", req.min_memory_bytes / 1073741824.0),
           status::skipped);
  }
  if (baseline_failed()) {
    skip_rest(base.result->error);
    out_.error = base.result->error;
    return false;
  }
  base_workload_ = workload_from_json(base.ready.at("workload"));
  out_.workload = base.ready.at("workload");
  // An axis the pair does not read would silently rerun its default size under another name.
  for (const auto& [name, value] : target_.axes) {
    auto it = base_workload_.params.find(name);
    if (it == base_workload_.params.end() || it->second != value) {
      std::string why = it == base_workload_.params.end()
                            ? fmt::format("--axis {}: the baseline's workload has no parameter '{}'", name, name)
                            : fmt::format("--axis {}={}: the baseline declared {}={} (the pair does not read this "
                                          "axis through aisp::axis)", name, value, name, it->second);
      fail(base, "workload", why);
      skip_rest(why);
      out_.error = why;
      return false;
    }
  }
  out_.goal = base.ready.value("goal", "speed");
  for (size_t i = 1; i < live_.size(); ++i) {
    if (live_[i].failed) continue;
    std::string diff = workload_difference(base_workload_, workload_from_json(live_[i].ready.at("workload")));
    if (!diff.empty())
      fail(live_[i], "workload", "declared workload differs from the baseline's (" + diff + "); results would not be comparable");
  }
  check_tolerance_declarations(live_);
  tolerance_ = pair_tolerance(base);
  out_.tolerance = {{"rtol", tolerance_.rtol}, {"atol", tolerance_.atol}, {"justification", tolerance_.justification},
                    {"source", tolerance_.justification.empty() ? "output dtype default" : "the pair (shared workload)"}};
  return true;
}

}  // namespace aisp
