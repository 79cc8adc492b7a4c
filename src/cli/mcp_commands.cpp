#include "cli/mcp_commands.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/paths.hpp"
#include "cli/store_commands.hpp"
#include "mcp/session.hpp"
#include "mcp/stdio_server.hpp"
#include "mcp/tools.hpp"
#include "profile/tools.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

struct McpArgs {
  std::string db, artifacts_dir = "artifacts", bench_root;
  size_t page_size = 50;
  bool list = false, as_json = false;
};

// A flag is an option that takes no value: `--quick`, never `--quick=x`. That is what
// get_items_expected_max() == 0 says in every CLI11 2.x (add_flag sets expected(0)); the type size alone
// is not enough (CLI11 2.1 leaves it at 1 for a flag bound to a bool, so flags became strings).
bool takes_no_value(const CLI::Option& o) {
  return !o.get_positional() && (o.get_items_expected_max() == 0 || o.get_expected_max() == 0 || o.get_type_size_max() == 0);
}

// CLI11's type name ("INT", "FLOAT", "TEXT:{cold,hot}", ...) as a JSON Schema type.
std::string schema_type(const CLI::Option& o) {
  if (takes_no_value(o)) return "boolean";
  std::string t = o.get_type_name();
  t = t.substr(0, t.find_first_of(": "));
  if (t == "INT" || t == "UINT") return "integer";
  if (t == "FLOAT") return "number";
  if (t == "BOOLEAN") return "boolean";
  return "string";
}

// The values of a CLI::IsMember check, from the type name CLI11 builds for it ("TEXT:{cold,hot,graph}").
std::vector<std::string> choices_of(const CLI::Option& o) {
  std::string t = o.get_type_name();
  auto open = t.find(":{");
  std::vector<std::string> out;
  if (open == std::string::npos || t.back() != '}') return out;
  std::stringstream list(t.substr(open + 2, t.size() - open - 3));
  for (std::string item; std::getline(list, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// Every runnable subcommand with its options, so the server can offer tools for exactly what this binary
// has (hw probes only in builds with probes; the analysis commands as they land).
void collect_commands(const CLI::App& app, std::vector<std::string> path, std::vector<mcp::CommandSpec>& out) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden (`aisp worker`)
    std::vector<std::string> p = path;
    p.push_back(sub->get_name());
    mcp::CommandSpec spec;
    spec.path = p;
    spec.description = sub->get_description();
    for (const CLI::Option* o : sub->get_options()) {
      if (o == sub->get_help_ptr() || o == sub->get_help_all_ptr()) continue;
      mcp::CommandOption opt;
      if (o->get_positional()) {
        opt.name = o->get_name(true);
      } else if (!o->get_lnames().empty()) {
        opt.name = o->get_lnames().front();
        opt.flag = "--" + opt.name;
      } else {
        continue;  // short-only options: none in aisp
      }
      std::replace(opt.name.begin(), opt.name.end(), '-', '_');
      opt.type = schema_type(*o);
      opt.repeated = o->get_items_expected_max() > 1;
      opt.required = o->get_required();
      opt.description = o->get_description();
      if (opt.type == "string") opt.choices = choices_of(*o);
      spec.options.push_back(opt);
    }
    out.push_back(spec);
    collect_commands(*sub, p, out);
  }
}

mcp::ServerConfig make_config(const CLI::App& root, const McpArgs& a) {
  mcp::ServerConfig c;
  c.aisp_exe = self_exe().string();
  c.version = AISP_VERSION;
  c.plugin_root = default_plugin_root();
  c.source_root = project_source_root();
  // Absolute, so the children (and the paths in results) do not depend on the client's working directory.
  c.artifacts_dir = fs::absolute(a.artifacts_dir);
  c.db_path = fs::absolute(store_path(a.db, c.artifacts_dir));
  if (!a.bench_root.empty()) c.bench_root = fs::absolute(a.bench_root).string();
  collect_commands(root, {}, c.commands);
  c.find_dependencies = [] {
    std::vector<mcp::Dependency> out;
    // The variables are the ones aisp itself reads for each (CUDACXX: the --bench-root plugin compiler).
    for (auto [name, env] : {std::pair<const char*, const char*>{"nvcc", "CUDACXX"}, {"ncu", "AISP_NCU"},
                             {"nsys", "AISP_NSYS"}, {"compute-sanitizer", "AISP_COMPUTE_SANITIZER"}}) {
      profile::ToolLocation t = profile::find_tool(name, env);
      out.push_back({name, t.path, env, t.looked_in});
    }
    return out;
  };
  return c;
}

const char* kInstructions =
    "aisp measures baseline/optimized CUDA benchmark pairs on NVIDIA GPUs and returns verdicts with confidence "
    "intervals. Start with aisp_status (or aisp_triage when something looks wrong). aisp_benchmark_targets lists "
    "what can run. Runs and hardware probes are jobs: aisp_run_benchmarks returns a job_id at once; poll "
    "aisp_job_status, then read aisp_job_result. Stored results: aisp_benchmark_runs, aisp_benchmark_history, "
    "aisp_benchmark_compare_runs, aisp_benchmark_expectations and the aisp_analyze* tools; aisp_run_triage says what "
    "is wrong with a stored run and what to do next. A variant marked INVALID failed a validity check: never report "
    "it as a speedup.";

int list_tools(const mcp::ServerConfig& config, bool as_json) {
  mcp::JobManager jobs(64, config.max_active_jobs);
  auto tools = mcp::make_tools(config, jobs);
  if (as_json) {
    nlohmann::json out = nlohmann::json::array();
    for (auto& t : tools) out.push_back(mcp::Session::describe_tool(t, mcp::kSupportedProtocolVersions.front()));
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (auto& t : tools) {
    size_t stop = t.description.find(". ");
    std::string first = stop == std::string::npos ? t.description : t.description.substr(0, stop + 1);
    std::cout << fmt::format("{:<30} {}\n", t.name, first.size() > 110 ? first.substr(0, 107) + "..." : first);
  }
  std::cout << fmt::format("{} tools; store {}; protocol versions {}\n", tools.size(), config.db_path.string(),
                           fmt::join(mcp::kSupportedProtocolVersions, ", "));
  return 0;
}

int serve(const mcp::ServerConfig& config, const McpArgs& a) {
  mcp::JobManager jobs(64, config.max_active_jobs);
  mcp::remove_stale_scratch(config);
  mcp::SessionOptions o;
  o.server_version = config.version;
  o.instructions = kInstructions;
  o.page_size = a.page_size;
  o.size_limits = mcp::ResultSizeLimits::from_environment();
  o.redactor = mcp::Redactor::from_environment();
  auto tools = mcp::make_tools(config, jobs);
  mcp::log_to_stderr(fmt::format("aisp {} MCP server on stdio: {} tools, store {}, artifacts {}", config.version,
                                 tools.size(), config.db_path.string(), config.artifacts_dir.string()));
  return mcp::serve_stdio(std::move(tools), std::move(o), [&jobs] { jobs.cancel_all_and_wait(); });
}

}  // namespace

void add_mcp_commands(CLI::App& root) {
  static McpArgs a;
  static CLI::App* app_root = &root;
  auto* cmd = root.add_subcommand("mcp", "MCP server for AI assistants on stdio (JSON-RPC, one message per line; "
                                         "docs/mcp.md); --list prints its tools");
  cmd->add_flag("--list", a.list, "Print the tools and exit");
  cmd->add_flag("--json", a.as_json, "With --list: the tools as tools/list returns them");
  cmd->add_option("--db", a.db, "Results store the tools read and runs are added to (default: $AISP_DB, else "
                                "<artifacts-dir>/aisp.db)");
  cmd->add_option("--artifacts-dir", a.artifacts_dir, "Where benchmark runs started by the server write")
      ->capture_default_str();
  cmd->add_option("--bench-root", a.bench_root, "Run and list .cu pairs under this directory (compiled on demand)");
  cmd->add_option("--page-size", a.page_size, "Tools per tools/list page")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->callback([] {
    mcp::ServerConfig config = make_config(*app_root, a);
    int code = a.list ? list_tools(config, a.as_json) : serve(config, a);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace aisp
