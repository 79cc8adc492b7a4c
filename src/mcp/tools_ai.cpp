// The AI/LLM tools (seed 001: aisp_ask, aisp_explain, aisp_suggest_tools), plus aisp_suggest_optimizations.
// ask / explain / suggest_optimizations run `aisp ai ask|explain|suggest --json` over the server's store as
// short children: the answer is the grounded facts with their citations (run ids, profile ids, the
// ceilings file), never generated text. The CLI's --endpoint, --api-key-env and --model are not offered:
// the client is the model, and a server must not call out to a URL a client names. aisp_suggest_tools
// ranks this server's own tools for a free-text need (in-process keyword matching over names and
// descriptions), the seed's "which tool should I call" helper.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "mcp/schema.hpp"
#include "mcp/tools.hpp"

namespace aisp::mcp {

namespace s = schema;

namespace {

json answer_schema() {
  json fact =
      s::object({{"topic", s::string("verdict | technique | roofline | counters | bottleneck | rank | status | energy", 64)},
                 {"target", s::string("Target id", 512)},
                 {"variant", s::string("Variant", 512)},
                 {"text", s::string("The fact, with its numbers", 8192)},
                 {"values", s::any("The numbers the sentence states (null = not measured)")},
                 {"cite", s::string("The citation ids it rests on", 1024)}},
                {"topic", "text", "cite"});
  json citation = s::object({{"id", s::string("Citation id used by facts", 256)},
                             {"kind", s::string_enum("What was read", {"run", "profile", "ceilings", "patterns"})},
                             {"detail", s::string("The run key and hardware, profile, or file", 4096)}},
                            {"id", "kind", "detail"});
  return s::object(
      {{"schema", s::string("aisp.ai_answer/1", 64)},
       {"command", s::string_enum("The ai subcommand", {"explain", "ask", "suggest"})},
       {"subject", s::string("The target or the question", 8192)},
       {"summary", s::array("Rule-written sentences over the facts", s::string("", 8192))},
       {"facts", s::array("Measured facts, each citing its source", fact, 10000)},
       {"missing", s::array("Data not stored that would sharpen the answer, and how to collect it", s::string("", 8192))},
       {"suggestions", s::array("Ranked next optimizations (suggest; ask with next/improve)", s::any("A suggestion"), 10000)},
       {"citations", s::array("Sources: stored runs, profiles, the ceilings file, the patterns table", citation)},
       {"source", s::string("The store and run read", 8192)}},
      {"schema", "command", "subject", "summary", "facts", "missing", "suggestions", "citations"});
}

json output_schema() {
  return s::object(
      {{"command", s::array("The aisp command line that produced it", s::string("", 4096), 256)}, {"answer", answer_schema()}},
      {"command", "answer"});
}

struct AiTool {
  const char* subcommand;
  const char* name;
  const char* title;
  const char* description;
};

constexpr AiTool kAiTools[] = {
    {"explain", "aisp_explain", "Explain a measured speedup",
     "Why a target's optimized variants are faster or not, from what aisp measured: verdict and 95% CI, medians, "
     "declared bytes/FLOPs against the measured roofline ceilings (% of roof), and, when ncu profiles are stored, "
     "the counters and bottleneck per variant. Every fact cites the stored run or profile; `missing` names data not "
     "stored (e.g. no profile) and how to collect it."},
    {"ask", "aisp_ask", "Ask about stored results",
     "Answers a question by selecting stored facts (rule-based: target ids, chapters and example names, and keywords "
     "such as why/faster, roofline/bandwidth, next/improve, fastest, invalid/failed, energy). Returns only facts "
     "from the store with citations, never generated text."},
    {"suggest", "aisp_suggest_optimizations", "Suggest next optimizations",
     "Ranks next optimizations for a target (or every target of the run) from its bottleneck (the ncu decision tree "
     "when a profile is stored, else its roofline placement) and the optimization-patterns table; fixes a measured "
     "variant already applies are listed as done."},
};

}  // namespace

std::vector<Tool> ai_tools(const ServerConfig& config) {
  std::vector<Tool> tools;
  const std::vector<std::string> hidden = {"endpoint", "api_key_env", "model"};
  for (const AiTool& t : kAiTools) {
    const CommandSpec* spec = config.find({"ai", t.subcommand});
    if (!spec) continue;
    tools.push_back({t.name, t.title, t.description, input_schema_from(*spec, hidden), output_schema(), read_only_annotations(),
                     [&config, spec, hidden, t](ToolCall& call) {
                       std::error_code ec;
                       if (!std::filesystem::exists(config.db_path, ec))
                         throw ToolError("no results store yet: run benchmarks (aisp_run_benchmarks) first");
                       std::vector<std::string> args =
                           argv_from(*spec, call.arguments, hidden, {"--json", "--db=" + config.db_path.string()});
                       AispOutput r = run_aisp(config, args, call);
                       if (r.child.exit_code != 0 || !r.document.is_object())
                         throw ToolError(failure_text(fmt::format("aisp ai {}", t.subcommand), r.child));
                       args.insert(args.begin(), "aisp");
                       return json{{"command", args}, {"answer", r.document}};
                     }});
  }
  return tools;
}

namespace {

std::vector<std::string> words_of(const std::string& text) {
  static const std::set<std::string> stop = {"the", "and", "for",  "with", "what", "which",  "how",  "does", "this",  "that",
                                             "are", "was", "from", "into", "can",  "should", "aisp", "tool", "tools", "use"};
  std::vector<std::string> out;
  std::string w;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))) : ' ';
    if (std::isalnum(static_cast<unsigned char>(c))) {
      w += c;
      continue;
    }
    if (w.size() >= 3 && !stop.count(w) && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
    w.clear();
  }
  return out;
}

struct Listed {
  std::string name, title, description;
};

}  // namespace

Tool suggest_tools_tool(const std::vector<Tool>& listed) {
  std::vector<Listed> catalog;
  for (auto& t : listed) catalog.push_back({t.name, t.title, t.description});
  catalog.push_back({"aisp_suggest_tools", "Suggest tools", "which aisp tool to call for a need"});
  return {
      "aisp_suggest_tools",
      "Suggest tools for a need",
      "Which of this server's tools to call for a free-text need (\"why is ch07:transpose faster\", \"is the GPU "
      "throttling\", \"compare two runs\"): ranked by the query's words found in each tool's name (x3), title (x2) "
      "and description (x1), stems included. In-process, no model; a starting point, not an answer.",
      s::object({{"query", s::string("What you want to find out or do", 2000)},
                 {"max_suggestions", s::integer("How many tools to return (default 5)", 1, 50)}},
                {"query"}, true),
      s::object({{"query", s::string("The query as read", 2000)},
                 {"words", s::array("The words matched against the tools", s::string("", 256), 500)},
                 {"suggestions", s::array("Tools, best match first",
                                          s::object({{"tool", s::string("Tool name", 64)},
                                                     {"title", s::string("Tool title", 256)},
                                                     {"score", s::number("Match score")},
                                                     {"matched", s::array("Query words it matched", s::string("", 256), 500)}},
                                                    {"tool", "score", "matched"}),
                                          50)}},
                {"query", "words", "suggestions"}),
      read_only_annotations(),
      [catalog](ToolCall& call) {
        std::string query = arg_string(call.arguments, "query");
        size_t top = static_cast<size_t>(arg_number(call.arguments, "max_suggestions", 5));
        std::vector<std::string> words = words_of(query);
        std::vector<std::pair<double, json>> ranked;
        for (auto& t : catalog) {
          std::string name = t.name, title = t.title, desc = t.description;
          for (std::string* f : {&name, &title, &desc})
            std::transform(f->begin(), f->end(), f->begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
          double score = 0;
          json matched = json::array();
          for (auto& w : words) {
            // A stem: "profiles" finds "profile", "explaining" finds "explain".
            std::string stem = w.size() > 5 ? w.substr(0, w.size() - 2) : w;
            double sw = 3.0 * (name.find(stem) != std::string::npos) + 2.0 * (title.find(stem) != std::string::npos) +
                        1.0 * (desc.find(stem) != std::string::npos);
            if (sw > 0) matched.push_back(w);
            score += sw;
          }
          if (score > 0)
            ranked.push_back({score, {{"tool", t.name}, {"title", t.title}, {"score", score}, {"matched", matched}}});
        }
        std::stable_sort(ranked.begin(), ranked.end(), [](auto& a, auto& b) { return a.first > b.first; });
        json out = json::array();
        for (size_t i = 0; i < ranked.size() && i < top; ++i) out.push_back(ranked[i].second);
        return json{{"query", query}, {"words", words}, {"suggestions", out}};
      }};
}

}  // namespace aisp::mcp
