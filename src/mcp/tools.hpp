// The aisp_* tools, by group, and the helpers they share. Each group file builds its tools from the
// server configuration; make_tools() puts them in one stable order (tools/list pages through it).
#pragma once
#include <string>
#include <vector>

#include "mcp/child_process.hpp"
#include "mcp/config.hpp"
#include "mcp/jobs.hpp"
#include "mcp/tool.hpp"

namespace aisp::mcp {

std::vector<Tool> make_tools(const ServerConfig& config, JobManager& jobs);

std::vector<Tool> system_tools(const ServerConfig& config, JobManager& jobs);    // status, triage, gpu, env
std::vector<Tool> catalog_tools(const ServerConfig& config);                     // chapters, targets
std::vector<Tool> store_tools(const ServerConfig& config);                       // runs, history, compare, expectations
std::vector<Tool> job_tools(const ServerConfig& config, JobManager& jobs);       // run benchmarks, probes, job_*
std::vector<Tool> command_tools(const ServerConfig& config);                     // analysis commands (sync children)
std::vector<Tool> insight_tools(const ServerConfig& config);                     // run triage, expectations report
std::vector<Tool> ai_tools(const ServerConfig& config);                          // ask, explain, suggest optimizations
Tool suggest_tools_tool(const std::vector<Tool>& listed);                        // which tool for a need (over `listed`)

// ---- shared helpers (tools_common.cpp)

// `aisp <args>` as a child, within config.sync_timeout_s, cancellable by the call, stderr lines reported
// as progress. The parsed stdout JSON, or null when it printed none.
struct AispOutput {
  ChildResult child;
  json document;
};
// The child runs in config.work_dir() (made when missing); `env` entries (NAME=value) are added to its
// environment.
AispOutput run_aisp(const ServerConfig& config, const std::vector<std::string>& args, ToolCall& call,
                    const std::vector<std::string>& env = {});
// The child's failure as one message: how it ended and its last stderr lines, with any quoted parser
// context ("last read: '…'") removed: it would show a client the first bytes of a file.
std::string failure_text(const std::string& what, const ChildResult& r);

// Arguments a tool reads, with the schema's defaults (validation already checked the types).
std::string arg_string(const json& args, const char* name, const std::string& fallback = "");
double arg_number(const json& args, const char* name, double fallback);
bool arg_bool(const json& args, const char* name, bool fallback = false);

// A number that may be NaN/inf (missing measurement) as JSON: null then.
json number_or_null(double v);

// A derived tool's inputSchema from a CLI command's options, minus the server-owned ones
// (option_policy.hpp: --json, --db, every path) and the tool's own `hidden` ones; and the argv for
// validated arguments. Values are passed as `--flag=value`, the server's `server_options` next, and
// positionals last after `--`, so no argument can be read as another option. A string value that names a
// place in the file system is refused (ToolError).
json input_schema_from(const CommandSpec& spec, const std::vector<std::string>& hidden);
std::vector<std::string> argv_from(const CommandSpec& spec, const json& arguments, const std::vector<std::string>& hidden,
                                   const std::vector<std::string>& server_options = {});

// config.work_dir(), made when missing; ToolError when it cannot be (an unwritable artifacts directory).
std::string ensure_work_dir(const ServerConfig& config);

// Removes scratch directories left by servers that are gone (killed before they could clean up).
void remove_stale_scratch(const ServerConfig& config);

// The exit-code meaning of `aisp bench run` (DESIGN §8).
std::string bench_exit_meaning(int code);

}  // namespace aisp::mcp
