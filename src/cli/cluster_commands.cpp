// `aisp cluster slurm [options] -- <aisp bench run …>`: writes the sbatch script (runner/slurm_script.hpp) to
// stdout or --output; it never submits it (sbatch does, on the cluster's login node).
#include "cli/cluster_commands.hpp"

#include <fstream>
#include <iostream>

#include "runner/slurm_script.hpp"

namespace aisp {

void add_cluster_commands(CLI::App& root) {
  static SlurmJob job;  // the parsed flags outlive this call: the callback reads them after parsing
  static std::string output;
  static std::string array_targets;
  auto* cluster = root.add_subcommand("cluster", "Run benchmarks on a fleet through an existing scheduler");
  cluster->require_subcommand(1);
  auto* slurm = cluster->add_subcommand(
      "slurm",
      "Write an sbatch script that runs an aisp command on Slurm nodes (one srun task per node, "
      "NCCL_NVLS_ENABLE=0): aisp cluster slurm --nodes N --gpus-per-node G -- aisp bench run -t ch04 ...");
  slurm->add_option("--nodes", job.nodes, "Nodes; each runs the command with its own supervisor")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  slurm->add_option("--gpus-per-node", job.gpus_per_node, "GPUs per node (--gres=gpu[:TYPE]:G)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  slurm->add_option("--gpu-type", job.gpu_type, "Gres GPU type (h100, h200, …): one script per type shards by GPU type");
  slurm->add_option("--partition", job.partition, "Slurm partition (default: the cluster's)");
  slurm->add_option("--time", job.time, "Time limit (minutes, HH:MM:SS or D-HH:MM:SS)")->capture_default_str();
  slurm->add_option("--job-name", job.job_name, "Job name (also the output file's prefix)")->capture_default_str();
  slurm->add_option("--array-targets", array_targets,
                    "Comma-separated target selectors, one per array task (--targets appended to the command)");
  slurm->add_option("-o,--output", output, "Write the script here instead of stdout");
  slurm->add_option("command", job.command, "The aisp command each node runs, after --")->required();
  slurm->callback([] {
    job.array_targets.clear();
    for (size_t at = 0; !array_targets.empty() && at != std::string::npos;) {
      size_t comma = array_targets.find(',', at);
      job.array_targets.push_back(array_targets.substr(at, comma == std::string::npos ? comma : comma - at));
      at = comma == std::string::npos ? comma : comma + 1;
    }
    std::string text;
    try {
      text = slurm_script(job);
    } catch (const std::invalid_argument& e) { throw CLI::ValidationError("cluster slurm", e.what()); }
    if (output.empty()) {
      std::cout << text;
      return;
    }
    std::ofstream out(output);
    out << text;
    if (!out) throw CLI::Error("WriteError", "cannot write " + output, 1);
    std::cerr << "wrote " << output << " (submit: sbatch " << output << ")\n";
  });
}

}  // namespace aisp
