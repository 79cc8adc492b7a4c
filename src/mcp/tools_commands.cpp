// Tools derived from CLI commands: the analysis commands (`aisp bench analyze|whatif|stacking|power|cost|
// scaling --json`) and the Markdown report, run as short child processes. Their arguments are the CLI's
// options, read from the command tree this binary was built with (config.commands), so the tool and the
// command cannot drift apart, and a command missing from this build has no tool.
#include <fmt/format.h>

#include <algorithm>

#include "mcp/schema.hpp"
#include "mcp/tools.hpp"

namespace aisp::mcp {

namespace s = schema;

namespace {

bool is_hidden(const std::vector<std::string>& hidden, const std::string& name) {
  return std::find(hidden.begin(), hidden.end(), name) != hidden.end();
}

json option_schema(const CommandOption& o) {
  json one;
  if (o.type == "boolean") one = s::boolean(o.description);
  else if (o.type == "integer") one = s::integer(o.description, -(1LL << 53), 1LL << 53);
  else if (o.type == "number") one = s::number(o.description);
  else if (!o.choices.empty()) one = s::string_enum(o.description, o.choices);
  else one = s::string(o.description, 4096);
  if (!o.repeated || o.type == "boolean") return one;
  one.erase("description");
  return s::array(o.description, one, 256);
}

std::string value_text(const json& v) {
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    if (text.find('\0') != std::string::npos) throw ToolError("argument values cannot contain NUL characters");
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
    if (is_hidden(hidden, o.name)) continue;
    props.emplace_back(o.name, option_schema(o));
    if (o.required) required.push_back(o.name);
  }
  return s::object(std::move(props), std::move(required), true);
}

std::vector<std::string> argv_from(const CommandSpec& spec, const json& arguments,
                                   const std::vector<std::string>& hidden) {
  std::vector<std::string> argv = spec.path, positionals;
  for (auto& o : spec.options) {
    if (is_hidden(hidden, o.name) || !arguments.contains(o.name)) continue;
    const json& v = arguments[o.name];
    if (o.type == "boolean") {
      if (v.is_boolean() && v.get<bool>() && !o.flag.empty()) argv.push_back(o.flag);
      continue;
    }
    for (const json& item : v.is_array() ? v : json::array({v})) {
      if (o.flag.empty()) positionals.push_back(value_text(item));
      else argv.push_back(o.flag + "=" + value_text(item));
    }
  }
  if (!positionals.empty()) {
    argv.push_back("--");
    argv.insert(argv.end(), positionals.begin(), positionals.end());
  }
  return argv;
}

std::vector<Tool> command_tools(const ServerConfig& config) {
  std::vector<Tool> tools;
  // --db is the server's store (aisp mcp --db); --json is always on.
  const std::vector<std::string> hidden = {"json", "db"};
  for (const char* sub : {"analyze", "whatif", "stacking", "power", "cost", "scaling"}) {
    const CommandSpec* spec = config.find({"bench", sub});
    if (!spec) continue;
    std::string name = tool_name_for(sub);
    tools.push_back(
        {name, fmt::format("Analysis: {}", sub),
         fmt::format("{}. Runs `aisp bench {} --json` over the results store (the newest run unless `run` names "
                     "another; `data` reads one results file or run directory instead) and returns its JSON "
                     "document. Measured numbers only: where data is missing the document says so in `notes`.",
                     spec->description, sub),
         input_schema_from(*spec, hidden), command_output_schema(), read_only_annotations(),
         [&config, spec, hidden](ToolCall& call) {
           std::vector<std::string> args = argv_from(*spec, call.arguments, hidden);
           args.push_back("--json");
           args.push_back("--db=" + config.db_path.string());
           AispOutput r = run_aisp(config, args, call);
           if (r.child.exit_code != 0 || !r.document.is_object())
             throw ToolError(failure_text("aisp " + fmt::format("{}", fmt::join(spec->path, " ")), r.child));
           args.insert(args.begin(), "aisp");
           return json{{"command", args}, {"document", r.document}};
         }});
  }
  if (const CommandSpec* spec = config.find({"bench", "report"})) {
    const std::vector<std::string> report_hidden = {"db", "format", "output"};
    tools.push_back(
        {"aisp_benchmark_report", "Benchmark report (Markdown)",
         "The Markdown form of `aisp bench report`: leaderboards, Pareto, trade-offs, cost, stacking and history of "
         "the newest stored run (or `run` / `data`), as text a model can quote. The HTML report with charts is "
         "`aisp bench report --format html -o FILE` on the command line.",
         input_schema_from(*spec, report_hidden),
         s::object({{"command", s::array("The aisp command line", s::string("", 4096), 256)},
                    {"format", s::string_enum("Report format", {"md"})},
                    {"markdown", s::string("The report", 1 << 26)}},
                   {"command", "format", "markdown"}),
         read_only_annotations(), [&config, spec, report_hidden](ToolCall& call) {
           std::vector<std::string> args = argv_from(*spec, call.arguments, report_hidden);
           args.push_back("--format=md");
           args.push_back("--db=" + config.db_path.string());
           AispOutput r = run_aisp(config, args, call);
           if (r.child.exit_code != 0 || r.child.out.empty()) throw ToolError(failure_text("aisp bench report", r.child));
           args.insert(args.begin(), "aisp");
           return json{{"command", args}, {"format", "md"}, {"markdown", r.child.out}};
         }});
  }
  return tools;
}

}  // namespace aisp::mcp
