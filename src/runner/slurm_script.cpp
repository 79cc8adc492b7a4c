#include "runner/slurm_script.hpp"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

namespace aisp {

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void check_slurm_job(const SlurmJob& j) {
  if (j.nodes < 1) throw std::invalid_argument(fmt::format("--nodes must be 1 or more (got {})", j.nodes));
  if (j.gpus_per_node < 1)
    throw std::invalid_argument(fmt::format("--gpus-per-node must be 1 or more (got {})", j.gpus_per_node));
  if (j.command.empty())
    throw std::invalid_argument(
        "no command: give the aisp command after --, e.g. -- aisp bench run -t ch04 --nproc-per-node 8");
  // Slurm's forms: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
  static const std::regex time_form(R"(\d+|\d+:\d{2}|\d+:\d{2}:\d{2}|\d+-\d+(:\d{2}(:\d{2})?)?)");
  if (!std::regex_match(j.time, time_form))
    throw std::invalid_argument(fmt::format("--time '{}': use minutes, HH:MM:SS or D-HH:MM:SS", j.time));
  static const std::regex word(R"([A-Za-z0-9_.,:+-]*)");
  for (const std::string* f : {&j.gpu_type, &j.partition, &j.job_name})
    if (!std::regex_match(*f, word))
      throw std::invalid_argument(
          fmt::format("'{}': only letters, digits and _.,:+- in --gpu-type, --partition, --job-name", *f));
  for (const std::string& a : j.command) {
    if (a == "--label" || a.rfind("--label=", 0) == 0)
      throw std::invalid_argument("the command gives --label: the script sets one per job, array task and node");
    if (!j.array_targets.empty() && (a == "-t" || a == "--targets" || a.rfind("--targets=", 0) == 0))
      throw std::invalid_argument("the command gives --targets and --array-targets gives them per array task: pick one");
  }
  for (const std::string& t : j.array_targets)
    if (t.empty() || t.find('\n') != std::string::npos)
      throw std::invalid_argument("--array-targets: an empty or multi-line selector");
}

namespace {

std::string sbatch_header(const SlurmJob& j) {
  std::string h = "#!/bin/bash\n";
  h += "# Written by `aisp cluster slurm` (docs/multi-gpu.md). Submit: sbatch <this file>\n";
  h += fmt::format("#SBATCH --job-name={}\n#SBATCH --nodes={}\n#SBATCH --ntasks-per-node=1\n", j.job_name, j.nodes);
  h += j.gpu_type.empty() ? fmt::format("#SBATCH --gres=gpu:{}\n", j.gpus_per_node)
                          : fmt::format("#SBATCH --gres=gpu:{}:{}\n", j.gpu_type, j.gpus_per_node);
  // Every CPU of the node to the one task: aisp's own workers (one per rank and variant) need them.
  h += "#SBATCH --exclusive\n";
  h += fmt::format("#SBATCH --time={}\n", j.time);
  if (!j.partition.empty()) h += fmt::format("#SBATCH --partition={}\n", j.partition);
  if (!j.array_targets.empty()) h += fmt::format("#SBATCH --array=0-{}\n", j.array_targets.size() - 1);
  // An array task's output is named by the array's job id and the task index (%A_%a), else by the job id.
  h += fmt::format("#SBATCH --output={}-{}.out\n", j.job_name, j.array_targets.empty() ? "%j" : "%A_%a");
  return h;
}

}  // namespace

std::string slurm_script(const SlurmJob& j) {
  check_slurm_job(j);
  std::string s = sbatch_header(j);
  s += "set -euo pipefail\n\n";
  s += "# NVLink multicast (NVLS) stays off in every process of the job: exported here, inherited through srun\n"
       "# (--export=ALL) by each node's aisp and every worker it starts (a multi-rank plan also sets it per rank).\n";
  s += "export NCCL_NVLS_ENABLE=0\n";
  s += "export MASTER_ADDR=\"$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\"\n";
  s += fmt::format("export MASTER_PORT={}\n\n", j.master_port);
  std::string command;
  for (const std::string& a : j.command) command += (command.empty() ? "" : " ") + shell_quote(a);
  std::string extra;
  if (!j.array_targets.empty()) {
    s += "# One target selector per array task.\ntargets=(";
    for (size_t i = 0; i < j.array_targets.size(); ++i) s += (i ? " " : "") + shell_quote(j.array_targets[i]);
    s += ")\nexport AISP_SLURM_TARGETS=\"${targets[$SLURM_ARRAY_TASK_ID]}\"\n\n";
    extra = " --targets \"$AISP_SLURM_TARGETS\"";
  }
  // Each node's run directory gets its own label (job, array task, node), evaluated inside the task where
  // SLURM_NODEID is that node's; an array's tasks share the array's job id, so one prefix finds them all.
  s += "# One task per node; each runs its own aisp supervisor on that node's GPUs.\n";
  s += fmt::format(
      "srun --nodes={} --ntasks-per-node=1 --export=ALL bash -c {} aisp-task {}\n", j.nodes,
      shell_quote("exec \"$@\"" + extra +
                  " --label \"slurm-${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}-${SLURM_ARRAY_TASK_ID:-0}-node${SLURM_NODEID}\""),
      command);
  return s;
}

}  // namespace aisp
