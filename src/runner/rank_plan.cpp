#include "runner/rank_plan.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <sstream>

#include "runner/mpirun_job.hpp"

namespace aisp {

std::vector<std::string> visible_device_ids(const char* cuda_visible_devices, int gpu_count) {
  std::vector<std::string> ids;
  if (cuda_visible_devices) {
    std::stringstream in(cuda_visible_devices);
    std::string id;
    // CUDA stops at the first invalid entry; an empty entry or -1 hides everything after it.
    while (std::getline(in, id, ',') && !id.empty() && id != "-1") ids.push_back(id);
    if (static_cast<int>(ids.size()) > gpu_count) ids.resize(std::max(gpu_count, 0));
    return ids;
  }
  for (int d = 0; d < gpu_count; ++d) ids.push_back(std::to_string(d));
  return ids;
}

RankPlan make_rank_plan(const RankLaunchOptions& o, const std::vector<std::string>& visible) {
  const int n = o.nproc_per_node;
  if (n < 1) throw std::invalid_argument(fmt::format("--nproc-per-node must be 1 or more (got {})", n));
  if (o.launch_via != "local" && o.launch_via != "mpirun")
    throw std::invalid_argument(fmt::format("--launch-via must be local or mpirun (got '{}')", o.launch_via));
  if (o.master_port < 1 || o.master_port > 65535)
    throw std::invalid_argument(fmt::format("the master port must be 1..65535 (got {})", o.master_port));
  if (!o.ranks_on_one_gpu && n > static_cast<int>(visible.size()))
    throw std::invalid_argument(
        fmt::format("--nproc-per-node {} needs {} GPUs, but {} {} visible{}; one rank per GPU (--ranks-on-one-gpu puts every "
                    "rank on one device, a dry run whose times mean nothing for a multi-GPU run)",
                    n, n, visible.size(), visible.size() == 1 ? "is" : "are",
                    visible.empty() ? "" : fmt::format(" (CUDA_VISIBLE_DEVICES {})", fmt::join(visible, ","))));
  RankPlan plan{o, visible, {}};
  const std::string one_gpu = visible.empty() ? "0" : visible.front();
  for (int r = 0; r < n; ++r) {
    RankSpawn s{r, r, n, o.ranks_on_one_gpu ? one_gpu : visible[r], {}};
    s.env = {{"RANK", std::to_string(r)},       {"LOCAL_RANK", std::to_string(r)},
             {"WORLD_SIZE", std::to_string(n)}, {"LOCAL_WORLD_SIZE", std::to_string(n)},
             {"MASTER_ADDR", o.master_addr},    {"MASTER_PORT", std::to_string(o.master_port)}};
    for (const auto& kv : nccl_environment()) s.env.push_back(kv);
    plan.ranks.push_back(std::move(s));
  }
  return plan;
}

json RankPlan::to_json() const {
  json ranks_json = json::array();
  for (const RankSpawn& s : ranks) {
    json env = json::object();
    for (const auto& [k, v] : s.env) env[k] = v;
    ranks_json.push_back(
        {{"rank", s.rank}, {"local_rank", s.local_rank}, {"cuda_visible_devices", s.visible_device}, {"env", env}});
  }
  return {{"nproc_per_node", options.nproc_per_node},
          {"launch_via", options.launch_via},
          {"ranks_on_one_gpu", options.ranks_on_one_gpu},
          {"master_addr", options.master_addr},
          {"master_port", options.master_port},
          {"visible_devices", visible_devices},
          {"ranks", ranks_json}};
}

std::vector<WorkerSpawn> rank_spawns(const RankPlan& plan, const WorkerSpawn& base) {
  std::vector<WorkerSpawn> out;
  for (const RankSpawn& s : plan.ranks) {
    WorkerSpawn w = base;
    w.visible_device = s.visible_device;
    w.env.insert(w.env.end(), s.env.begin(), s.env.end());
    std::string log = base.log_file;
    const auto dot = log.rfind(".log");
    if (dot != std::string::npos && dot + 4 == log.size()) log.resize(dot);
    w.log_file = fmt::format("{}.rank{}.log", log, s.rank);
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<std::string> mpirun_argv(const RankPlan& plan, const std::string& mpirun, const WorkerCommand& command) {
  // --bind-to none: the supervisor already pins nothing, and Open MPI's default core binding would put every
  // rank's host threads on the cores of its slot, far from the GPU's NUMA node on a two-socket host.
  std::vector<std::string> argv = {mpirun, "--bind-to", "none"};
  if (plan.options.ranks_on_one_gpu) argv.push_back("--oversubscribe");  // more ranks than cores is allowed then
  for (const RankSpawn& s : plan.ranks) {
    if (s.rank > 0) argv.push_back(":");
    for (const std::string& a : {std::string("-np"), std::string("1"), std::string("env")}) argv.push_back(a);
    argv.push_back("CUDA_VISIBLE_DEVICES=" + s.visible_device);
    for (const auto& [k, v] : command.env) argv.push_back(k + "=" + v);
    for (const auto& [k, v] : s.env) argv.push_back(k + "=" + v);
    argv.insert(argv.end(), command.argv.begin(), command.argv.end());
  }
  return argv;
}

std::string find_on_path(const std::string& name, const char* path_env) {
  if (!path_env) return {};
  std::stringstream in(path_env);
  std::string dir;
  while (std::getline(in, dir, ':')) {
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string require_mpirun(const char* path_env) {
  std::string path = find_on_path("mpirun", path_env);
  if (path.empty())
    throw std::runtime_error(
        "--launch-via mpirun: no mpirun on PATH (Debian: apt-get install openmpi-bin); --launch-via local needs none");
  return path;
}

RankLaunchOptions rank_launch_options(const BenchRequest& r) {
  RankLaunchOptions o;
  o.nproc_per_node = r.nproc_per_node;
  o.launch_via = r.launch_via;
  o.ranks_on_one_gpu = r.ranks_on_one_gpu;
  return o;
}

json launch_plan_report(const RankPlan& plan, const WorkerSpawn& base, const std::string& mpirun) {
  json out = plan.to_json();
  if (plan.options.launch_via == "mpirun") {
    // As runner/mpirun_job.hpp starts it: each rank's worker on its own named pipes.
    out["mpirun_argv"] = mpirun_pipe_argv(plan, mpirun, worker_command(base), "<run>/work/pipes/<variant>");
    return out;
  }
  json workers = json::array();
  for (const WorkerSpawn& s : rank_spawns(plan, base)) {
    json env = {{"CUDA_VISIBLE_DEVICES", s.visible_device}};
    for (const auto& [k, v] : worker_command(s).env) env[k] = v;
    for (const auto& [k, v] : s.env) env[k] = v;
    workers.push_back({{"argv", worker_command(s).argv}, {"env", env}, {"log", s.log_file}});
  }
  out["workers"] = workers;
  return out;
}

}  // namespace aisp
