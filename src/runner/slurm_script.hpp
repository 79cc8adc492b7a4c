// `aisp cluster slurm` (issue 26): an sbatch script that runs an `aisp bench run` command on Slurm nodes, so a
// fleet is driven by an existing scheduler rather than one of ours. Pure text generation, tested on a CPU
// (tests/unit/test_slurm_script.cpp: the text, `bash -n`, and `sbatch --test-only` where a controller answers).
//
// What the script does: one srun task per node, each running the given aisp command (which starts its own
// --nproc-per-node ranks on that node's GPUs), with NCCL_NVLS_ENABLE=0 exported to every process the job
// starts, MASTER_ADDR set to the job's first node, and a run label per job, array task and node so that the
// nodes' run directories never collide on a shared filesystem. With --array-targets each array task runs one
// target selector (`--targets` appended): sharding targets across jobs; one script per GPU type
// (--gpu-type) shards them by GPU type. Ranks spanning nodes (WORLD_SIZE = nodes × GPUs) are not built:
// every node runs its own supervisor (docs/multi-gpu.md).
#pragma once
#include <string>
#include <vector>

namespace aisp {

struct SlurmJob {
  int nodes = 1;
  int gpus_per_node = 1;
  std::string gpu_type;   // gres type (h100, h200, …); empty: any GPU
  std::string partition;  // empty: the cluster's default
  std::string time = "01:00:00";
  std::string job_name = "aisp-bench";
  std::vector<std::string> array_targets;  // one array task per selector; empty: no array
  std::vector<std::string> command;        // the aisp command, e.g. {"aisp", "bench", "run", "-t", "ch04"}
  int master_port = 29500;
};

// Throws std::invalid_argument for a job that cannot be written: nodes or GPUs below 1, an empty command, a
// time Slurm would not parse, a field with a newline (it would end an #SBATCH line), a command that gives
// --label (set per node here) or --targets together with --array-targets.
void check_slurm_job(const SlurmJob& job);

// The sbatch script, every argument shell-quoted.
std::string slurm_script(const SlurmJob& job);

// `text` single-quoted for bash (a ' inside becomes '\'').
std::string shell_quote(const std::string& text);

}  // namespace aisp
