// Tools derived from CLI commands: the analysis commands (`aisp bench analyze|whatif|stacking|power|cost|
// scaling --json`) and the Markdown report, run as short child processes. Their arguments are the CLI's
// options, read from the command tree this binary was built with (config.commands), so the tool and the
// command cannot drift apart, and a command missing from this build has no tool.
#include <fmt/format.h>

#include <algorithm>

#include "mcp/json_rpc.hpp"
#include "mcp/option_policy.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"
#include "store/store.hpp"

namespace aisp::mcp {

namespace s = schema;

namespace {

// Options a client sees: not owned by the server (option_policy.hpp), not hidden by the tool.
bool exposed(const CommandSpec& spec, const CommandOption& o, const std::vector<std::string>& hidden) {
  return !server_owned(spec, o) && std::find(hidden.begin(), hidden.end(), o.name) == hidden.end();
}

json option_schema(const CommandSpec& spec, const CommandOption& o) {
  json one;
  auto bounds = option_bounds(spec, o);
  if (o.type == "boolean") one = s::boolean(o.description);
  else if (o.type == "integer")
    one = bounds ? s::integer(o.description, static_cast<long long>(bounds->first), static_cast<long long>(bounds->second))
                 : s::integer(o.description, -(1LL << 53), 1LL << 53);
  else if (o.type == "number") one = bounds ? s::number(o.description, bounds->first, bounds->second) : s::number(o.description);
  else if (!o.choices.empty()) one = s::string_enum(o.description, o.choices);
  else one = s::string(o.description, 4096);
  if (!o.repeated || o.type == "boolean") return one;
  one.erase("description");
  return s::array(o.description, one, 256);
}

std::string value_text(const CommandOption& o, const json& v) {
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    check_option_value(o, text);
    return text;
  }
  return v.dump();  // numbers: 3, 2.5, 1e-06
}

// The JSON document a CLI command printed, with the command line it came from.
json command_output_schema() {
  return s::object({{"command", s::array("The aisp command line that produced it", s::string("", 4096), 256)},
                    {"document", s::object({}, {}, false, "The command's --json output (docs/analysis.md)")}},
                   {"command", "document"});
}

const char* tool_name_for(const std::string& subcommand) {
  if (subcommand == "analyze") return "aisp_analyze";
  if (subcommand == "whatif") return "aisp_analyze_whatif";
  if (subcommand == "stacking") return "aisp_analyze_stacking";
  if (subcommand == "power") return "aisp_analyze_power";
  if (subcommand == "cost") return "aisp_analyze_cost";
  if (subcommand == "scaling") return "aisp_analyze_scaling";
  return nullptr;
}

}  // namespace

json input_schema_from(const CommandSpec& spec, const std::vector<std::string>& hidden) {
  std::vector<std::pair<std::string, json>> props;
  std::vector<std::string> required;
  for (auto& o : spec.options) {
    if (!exposed(spec, o, hidden)) continue;
    props.emplace_back(o.name, option_schema(spec, o));
    if (o.required) required.push_back(o.name);
  }
  return s::object(std::move(props), std::move(required), true);
}

std::vector<std::string> argv_from(const CommandSpec& spec, const json& arguments,
                                   const std::vector<std::string>& hidden,
                                   const std::vector<std::string>& server_options) {
  std::vector<std::string> argv = spec.path, positionals;
  for (auto& o : spec.options) {
    if (!exposed(spec, o, hidden) || !arguments.contains(o.name)) continue;
    const json& v = arguments[o.name];
    if (o.type == "boolean") {
      if (v.is_boolean() && v.get<bool>() && !o.flag.empty()) argv.push_back(o.flag);
      continue;
    }
    for (const json& item : v.is_array() ? v : json::array({v})) {
      if (o.flag.empty()) positionals.push_back(value_text(o, item));
      else argv.push_back(o.flag + "=" + value_text(o, item));
    }
  }
  // The server's own options come before the `--` that starts the positionals: after it they would be
  // read as positionals (`aisp profile compare … -- ch07:copy_scalar --json` is a usage error).
  argv.insert(argv.end(), server_options.begin(), server_options.end());
  if (!positionals.empty()) {
    argv.push_back("--");
    argv.insert(argv.end(), positionals.begin(), positionals.end());
  }
  return argv;
}

namespace {

// The profile analyses that only read stored profiles. `aisp profile bottleneck|roofline|compare` would
// profile the target on the spot when the store has no profile that covers what they need; from the
// server they must not (that is GPU work, which belongs in a job queued behind the others), so the
// store is checked here first, and the child runs with $AISP_NCU pointing nowhere so it cannot start ncu.
struct StoredProfileTool {
  const char* subcommand;
  const char* preset;  // the least ncu preset that holds the metrics it reads
  const char* title;
};
constexpr StoredProfileTool kStoredProfileTools[] = {
    {"bottleneck", "deep_dive", "Bottleneck of stored profiles"},
    {"roofline", "roofline", "Roofline of stored profiles"},
    {"compare", "deep_dive", "Profile comparison (stored)"},
};

// ncu presets, each including the one before (src/profile/metrics_catalog.hpp, preset_covers).
int preset_rank(const std::string& p) { return p == "minimal" ? 1 : p == "roofline" ? 2 : p == "deep_dive" ? 3 : 0; }

// A stored ncu profile of `target` (any target when empty) and `variant` that covers `preset`.
bool has_stored_profile(const ServerConfig& config, const std::string& target, const std::string& variant,
                        const std::string& preset) {
  std::error_code ec;
  if (!std::filesystem::exists(config.db_path, ec)) return false;
  try {
    Store store = Store::open_read_only(config.db_path);
    std::string want = target;
    for (auto& r : store.profiles(target, "", "ncu", 500, true)) {
      if (want.empty()) want = r.target;  // the command's default: the newest profiled target
      if (r.target != want || preset_rank(r.preset) < preset_rank(preset)) continue;
      if (variant.empty() || variant == "all" || variant == r.variant || (variant == "optimized" && r.variant != "baseline"))
        return true;
    }
  } catch (const std::exception&) {
    return false;
  }
  return false;
}

}  // namespace

std::vector<Tool> command_tools(const ServerConfig& config) {
  std::vector<Tool> tools;
  // The server's store, always JSON.
  const std::vector<std::string> none;
  for (const char* sub : {"analyze", "whatif", "stacking", "power", "cost", "scaling"}) {
    const CommandSpec* spec = config.find({"bench", sub});
    if (!spec) continue;
    std::string name = tool_name_for(sub);
    tools.push_back(
        {name, fmt::format("Analysis: {}", sub),
         fmt::format("{}. Runs `aisp bench {} --json` over the server's results store (the newest run unless `run` "
                     "names another) and returns its JSON document. Measured numbers only: where data is missing "
                     "the document says so in `notes`.",
                     spec->description, sub),
         input_schema_from(*spec, none), command_output_schema(), read_only_annotations(),
         [&config, spec, none](ToolCall& call) {
           std::vector<std::string> args =
               argv_from(*spec, call.arguments, none, {"--json", "--db=" + config.db_path.string()});
           AispOutput r = run_aisp(config, args, call);
           if (r.child.exit_code != 0 || !r.document.is_object())
             throw ToolError(failure_text("aisp " + fmt::format("{}", fmt::join(spec->path, " ")), r.child));
           args.insert(args.begin(), "aisp");
           return json{{"command", args}, {"document", r.document}};
         }});
  }
  if (const CommandSpec* spec = config.find({"bench", "report"})) {
    tools.push_back(
        {"aisp_benchmark_report", "Benchmark report (Markdown)",
         "The Markdown form of `aisp bench report`: leaderboards, Pareto, trade-offs, cost, stacking and history of "
         "the newest stored run (or `run`), as text a model can quote. The HTML report with charts is "
         "`aisp bench report --format html -o FILE` on the command line.",
         input_schema_from(*spec, none),
         s::object({{"command", s::array("The aisp command line", s::string("", 4096), 256)},
                    {"format", s::string_enum("Report format", {"md"})},
                    {"markdown", s::string("The report", 1 << 26)}},
                   {"command", "format", "markdown"}),
         read_only_annotations(), [&config, spec, none](ToolCall& call) {
           std::vector<std::string> args =
               argv_from(*spec, call.arguments, none, {"--format=md", "--db=" + config.db_path.string()});
           AispOutput r = run_aisp(config, args, call);
           if (r.child.exit_code != 0 || r.child.out.empty()) throw ToolError(failure_text("aisp bench report", r.child));
           args.insert(args.begin(), "aisp");
           return json{{"command", args}, {"format", "md"}, {"markdown", r.child.out}};
         }});
  }

  // `aisp bench export`: a stored run in another tool's format, returned as text. The run is named the way
  // the store names it (id, name, prefix, latest); its directory comes from the store, never from the
  // client, and the output is returned instead of written (no -o).
  if (config.find({"bench", "export"})) {
    tools.push_back(
        {"aisp_benchmark_export", "Export a stored run",
         "A stored run's results in another tool's format (`aisp bench export`): nvbench (NVBench JSON, for "
         "nvbench_compare.py), gbench (Google Benchmark JSON, for compare.py; samples_as_repetitions gives one "
         "entry per raw sample so its U test can run), csv (one row per variant with derived figures) or json "
         "(aisp's analysis document). Returned as text (JSON formats also parsed in `document`).",
         s::object({{"run", [] {
                       json r = s::string("Run: id (integer), directory name, unique prefix, latest (default) or previous", 512);
                       r["type"] = json::array({"string", "integer"});
                       return r;
                     }()},
                     {"format", s::string_enum("Output format", {"nvbench", "gbench", "csv", "json"})},
                     {"samples_as_repetitions", s::boolean("gbench: one iteration entry per raw sample")}},
                    {"format"}, true),
         s::object({{"run", s::string("The stored run exported (its directory name)", 512)},
                    {"format", s::string("Output format", 16)},
                    {"command", s::array("The aisp command line", s::string("", 4096), 16)},
                    {"content", s::string("The exported text", 1 << 26)},
                    {"document", s::any("The parsed document for JSON formats; null for csv")}},
                   {"run", "format", "command", "content", "document"}),
         read_only_annotations(), [&config](ToolCall& call) {
           std::error_code ec;
           if (!std::filesystem::exists(config.db_path, ec))
             throw ToolError("no results store yet: run benchmarks (aisp_run_benchmarks) first");
           RunInfo run;
           try {
             Store store = Store::open_read_only(config.db_path);
             auto it = call.arguments.find("run");
             run = store.resolve_run(it == call.arguments.end() ? "latest"
                                     : it->is_number()          ? fmt::format("{}", it->get<long long>())
                                                                : it->get<std::string>());
           } catch (const std::exception& e) {
             throw ToolError(e.what());
           }
           if (run.run_dir.empty() || !std::filesystem::is_directory(run.run_dir, ec))
             throw ToolError(fmt::format("run {} was stored from a directory that is no longer on this machine; "
                                         "export needs its results file", run.key));
           std::string format = arg_string(call.arguments, "format");
           std::vector<std::string> args = {"bench", "export", "--format=" + format};
           if (arg_bool(call.arguments, "samples_as_repetitions")) args.push_back("--samples-as-repetitions");
           args.insert(args.end(), {"--", run.run_dir});
           AispOutput r = run_aisp(config, args, call);
           if (r.child.exit_code != 0 || r.child.out.empty()) throw ToolError(failure_text("aisp bench export", r.child));
           args.insert(args.begin(), "aisp");
           return json{{"run", run.key}, {"format", format}, {"command", args}, {"content", r.child.out},
                       {"document", format == "csv" ? json(nullptr) : r.document}};
         }});
  }

  // Profile analyses over stored profiles: synchronous, no GPU, no queue. Profiling now (--fresh, and the
  // options that only matter then) is left out: that is aisp_profile_ncu, a job.
  const std::vector<std::string> profiling_now = {"fresh", "clock_control", "timeout"};
  for (const StoredProfileTool& t : kStoredProfileTools) {
    const CommandSpec* spec = config.find({"profile", t.subcommand});
    if (!spec) continue;
    tools.push_back(
        {fmt::format("aisp_profile_{}", t.subcommand), t.title,
         fmt::format("{}. Runs `aisp profile {} --json` over the ncu profiles in the server's results store (stored "
                     "by aisp_profile_ncu with preset {} or deeper); needs no GPU and does not wait for GPU jobs. "
                     "Without a stored profile it says so instead of profiling.",
                     spec->description, t.subcommand, t.preset),
         input_schema_from(*spec, profiling_now), command_output_schema(), read_only_annotations(),
         [&config, spec, t, profiling_now](ToolCall& call) {
           std::string target = arg_string(call.arguments, "target"), variant = arg_string(call.arguments, "variant");
           if (!has_stored_profile(config, target, variant, t.preset))
             throw ToolError(fmt::format(
                 "no stored ncu profile{}{} with preset {} or deeper in the server's results store: profile it first "
                 "with aisp_profile_ncu (a GPU job; preset {})",
                 target.empty() ? "" : " of " + quote_input(target, 64), variant.empty() ? "" : " (" + quote_input(variant, 64) + ")",
                 t.preset, t.preset));
           std::vector<std::string> args = argv_from(
               *spec, call.arguments, profiling_now,
               {"--json", "--db=" + config.db_path.string(), "--artifacts-dir=" + config.artifacts_dir.string()});
           // Belt and braces: should the stored profile not cover a variant after all, the command would
           // start ncu; an $AISP_NCU that is not an executable makes it stop with "not found" instead.
           AispOutput r = run_aisp(config, args, call, {"AISP_NCU=/nonexistent/aisp-mcp-store-only"});
           if (r.child.exit_code != 0 || r.document.is_null())
             throw ToolError(failure_text("aisp profile " + std::string(t.subcommand), r.child));
           args.insert(args.begin(), "aisp");
           json doc = r.document.is_object() ? r.document : json{{"items", r.document}};
           return json{{"command", args}, {"document", doc}};
         }});
  }
  return tools;
}

}  // namespace aisp::mcp
