// `aisp cluster slurm [options] -- <aisp bench run …>`: writes the sbatch script (runner/slurm_script.hpp) to
// stdout or --output; it never submits it (sbatch does, on the cluster's login node).
// `aisp cluster merge --job ID DIR…`: the job's per-node run directories (runner/slurm_runs.hpp) ingested into
// one results store, each as `aisp bench ingest` would.
#include "cli/cluster_commands.hpp"

#include <fstream>
#include <iostream>

#include "cli/store_commands.hpp"
#include "runner/slurm_runs.hpp"
#include "runner/slurm_script.hpp"
#include "store/store.hpp"

namespace aisp {

namespace {

struct MergeArgs {
  std::string job, db;
  std::vector<std::string> roots;
  bool partial = false;
};

void merge_command(const MergeArgs& a) {
  std::vector<std::filesystem::path> roots(a.roots.begin(), a.roots.end());
  std::vector<std::filesystem::path> runs;
  try {
    runs = slurm_run_dirs(roots, a.job);
  } catch (const std::invalid_argument& e) { throw CLI::ValidationError("--job", e.what()); }
  if (runs.empty())
    throw CLI::Error("NoRuns",
                     "no run directories of Slurm job " + a.job + " (named <stamp>__bench__slurm-" + a.job +
                         "-<task>-node<id>) under the given directories",
                     2);
  Store store = Store::open(store_path(a.db, "artifacts"));
  IngestOptions o;
  o.allow_partial = a.partial;
  int failures = 0;
  for (const auto& dir : runs) {
    try {
      std::cout << store.ingest_run(dir, o).message << "\n";
    } catch (const std::exception& e) {
      ++failures;  // one node's bad directory must not keep the others out
      std::cerr << "aisp: " << e.what() << "\n";
    }
  }
  std::cout << runs.size() - failures << " of " << runs.size() << " run directories of job " << a.job << " in "
            << store.path().string() << "\n";
  if (failures) throw CLI::RuntimeError(1);
}

}  // namespace

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
  static MergeArgs merge;
  auto* m =
      cluster->add_subcommand("merge", "Ingest the per-node run directories of one `cluster slurm` job into one results store");
  m->add_option("--job", merge.job, "The Slurm job id (an array's job id) in the runs' labels")->required();
  m->add_option("dirs", merge.roots, "The nodes' artifacts directories (or runs/ directories, or run directories)")->required();
  m->add_option("--db", merge.db, "Results store (default: $AISP_DB, else artifacts/aisp.db)");
  m->add_flag("--partial", merge.partial, "Also store a node's run that did not finish (marked incomplete)");
  m->callback([] { merge_command(merge); });
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
