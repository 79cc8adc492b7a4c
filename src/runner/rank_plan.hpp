// A multi-rank launch plan (issue 26): `aisp bench run --nproc-per-node N` runs a multi-GPU target as N
// ranks, one worker per GPU. This file turns the request into N worker spawns (or one `mpirun` command line)
// with the environment every rank needs; it starts nothing itself, so every rule here is tested on a CPU.
//
// Every rank gets the variables torchrun gives its children (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
// MASTER_PORT), one GPU of its own (CUDA_VISIBLE_DEVICES), and NCCL_NVLS_ENABLE=0: NVLink multicast (NVLS)
// must stay off on the lent GPU machines, in every child process, so NCCL never calls cuMulticastCreate.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol.hpp"
#include "runner/bench_request.hpp"
#include "runner/variant_worker.hpp"
#include "runner/worker_process.hpp"

namespace aisp {

using EnvList = std::vector<std::pair<std::string, std::string>>;

// Set in every rank's environment, whatever the launcher (see the header comment for why).
inline const EnvList& nccl_environment() {
  static const EnvList env = {{"NCCL_NVLS_ENABLE", "0"}};
  return env;
}

struct RankLaunchOptions {
  int nproc_per_node = 1;            // ranks on this node, one worker each
  std::string launch_via = "local";  // local: the supervisor forks each rank; mpirun: one Open MPI job
  // Dry run for a CPU or one-GPU machine: every rank on the first visible device. The ranks then share one
  // GPU, so their times say nothing about a multi-GPU run; the plan (and so the manifest) records it.
  bool ranks_on_one_gpu = false;
  std::string master_addr = "127.0.0.1";  // one node: rank 0's rendezvous is local
  int master_port = 29500;                // torchrun's default, so a torch.distributed pair needs no flag
};

struct RankSpawn {
  int rank = 0, local_rank = 0, world_size = 1;
  std::string visible_device;  // CUDA_VISIBLE_DEVICES of this rank's worker
  EnvList env;                 // everything else this rank's worker gets (RANK, ..., NCCL_NVLS_ENABLE)
};

struct RankPlan {
  RankLaunchOptions options;
  std::vector<std::string> visible_devices;  // what the supervisor saw when it made the plan
  std::vector<RankSpawn> ranks;
  json to_json() const;  // the manifest's "multi_rank" entry
};

// The device ids the supervisor may hand out: the entries of its own CUDA_VISIBLE_DEVICES when that is set
// (a rank then names the same GPU the supervisor saw), else 0 … gpu_count-1. `cuda_visible_devices` may be
// null (unset).
std::vector<std::string> visible_device_ids(const char* cuda_visible_devices, int gpu_count);

// Throws std::invalid_argument with a message for the user: N < 1, an unknown launcher, or N greater than
// the visible GPUs (unless ranks_on_one_gpu).
RankPlan make_rank_plan(const RankLaunchOptions& options, const std::vector<std::string>& visible_devices);

// --launch-via local: one spawn per rank, each the base spawn with its device, its environment and its own
// log file (<log>.rank<r>.log), so two ranks never interleave lines.
std::vector<WorkerSpawn> rank_spawns(const RankPlan& plan, const WorkerSpawn& base);

// --launch-via mpirun: one Open MPI job, one app context per rank (`-np 1 env VAR=… <worker argv>`, joined by
// ':'), so each rank gets its own CUDA_VISIBLE_DEVICES whatever the MPI version's -x rules are.
std::vector<std::string> mpirun_argv(const RankPlan& plan, const std::string& mpirun, const WorkerCommand& command);

// The path of `name` on $PATH (or `path_env`), empty when none is executable.
std::string find_on_path(const std::string& name, const char* path_env);

// mpirun's path (Debian's openmpi-bin); throws std::runtime_error saying how to get it when it is missing.
std::string require_mpirun(const char* path_env);

// The request's --nproc-per-node, --launch-via and --ranks-on-one-gpu as launch options.
RankLaunchOptions rank_launch_options(const BenchRequest& request);

// What `aisp bench run --print-launch-plan` prints: the plan and, per rank, the exact command and
// environment of its worker for `base` (a placeholder plugin: the plan does not depend on the target); for
// --launch-via mpirun, the one mpirun command line instead (`mpirun` is its path, found by the caller), as
// runner/mpirun_job.hpp starts it (each rank on its own named pipes).
json launch_plan_report(const RankPlan& plan, const WorkerSpawn& base, const std::string& mpirun);

}  // namespace aisp
