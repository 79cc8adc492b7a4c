// What the MCP server knows about the aisp it serves: where things are, and which subcommands this build
// has. The CLI layer fills it (src/cli/mcp_commands.cpp) by walking its own command tree, so a tool is
// registered only for a command that exists in this binary (no `aisp_hw_*` in a build without probes)
// and the derived tools' arguments follow the CLI's options without a second copy to keep in step.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace aisp::mcp {

struct CommandOption {
  std::string name;  // schema property: the long flag with '-' as '_' ("min_speedup"), or the positional's name
  std::string flag;  // "--min-speedup"; empty for a positional argument
  std::string type;  // boolean | integer | number | string
  bool repeated = false;  // takes several values (an array in the schema)
  bool required = false;
  std::string description;
  std::vector<std::string> choices;  // the allowed values when the CLI restricts them (an enum in the schema)
};

struct CommandSpec {
  std::vector<std::string> path;  // {"bench", "analyze"}
  std::string description;
  std::vector<CommandOption> options;
};

// An external program aisp uses (ncu, nsys, compute-sanitizer, nvcc) and where it was found.
struct Dependency {
  std::string name, path;               // path empty: not found
  std::string env_var;                  // the variable that overrides the search ($AISP_NCU), or ""
  std::vector<std::string> looked_in;   // where it was looked for, in order
};

struct ServerConfig {
  std::string aisp_exe;                     // absolute path of this binary; children run it
  std::string version;                      // aisp's version
  std::filesystem::path plugin_root;        // built plugins (targets that can run)
  std::filesystem::path source_root;        // checkout with chapters/ and labs/ (may be empty)
  std::filesystem::path db_path;            // results store the store tools read
  std::filesystem::path artifacts_dir;      // where runs started from the server write
  std::string bench_root;                   // --bench-root for runs and listings (empty: built plugins)
  std::vector<CommandSpec> commands;        // the subcommands this binary has
  // Locates the external programs aisp runs (filled by the CLI layer, which links the profiler's search;
  // unset: the software tool reports none).
  std::function<std::vector<Dependency>()> find_dependencies;
  double sync_timeout_s = 50;               // synchronous child commands: under the clients' 60 s timeout
  size_t max_active_jobs = 16;              // queued + running; more submissions are refused (each holds a thread)

  // Everything the server's children write goes under artifacts_dir. Children run in work_dir, so a
  // command's relative default (artifacts/hw/hardware_capabilities_<hwkey>.json) lands there and the
  // next child finds it there; a job's temporary files (the disk probe's test file) go to its own
  // scratch directory, removed when the job ends however it ends.
  // Empty when there is no artifacts directory (unit tests): children then run where the server does.
  std::filesystem::path work_dir() const { return artifacts_dir.empty() ? artifacts_dir : artifacts_dir / "mcp" / "work"; }
  std::filesystem::path scratch_root() const {
    return artifacts_dir.empty() ? artifacts_dir : artifacts_dir / "mcp" / "scratch";
  }

  const CommandSpec* find(const std::vector<std::string>& path) const {
    for (auto& c : commands)
      if (c.path == path) return &c;
    return nullptr;
  }
};

}  // namespace aisp::mcp
