// aisp_list_chapters and aisp_benchmark_targets: what can be run, by chapter.
#include "mcp/catalog.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"

namespace aisp::mcp {

namespace s = schema;

std::vector<Tool> catalog_tools(const ServerConfig& config) {
  std::vector<Tool> tools;

  json chapter_row = s::object({{"chapter", s::string("ch07 or labs/<lab>", 128)},
                            {"title", s::string("The README's first heading (\"\" when none)", 256)},
                            {"targets", s::integer("Baseline/optimized pairs", 0, 1 << 20)},
                            {"built", s::integer("Pairs with built plugins (runnable now)", 0, 1 << 20)},
                            {"source_dir", s::nullable(s::string("Where its .cu files and README are", 4096))}},
                           {"chapter", "title", "targets", "built", "source_dir"});
  tools.push_back({"aisp_list_chapters", "List chapters",
                   "Chapters (ch01..ch20) and labs that hold benchmark pairs: title from the README, number of "
                   "targets, how many are built and runnable.",
                   s::object({}, {}, true),
                   s::object({{"chapters", s::array("Chapters and labs, sorted", chapter_row, 1000)}}, {"chapters"}),
                   read_only_annotations(), [&config](ToolCall&) {
                     Catalog c = load_catalog(config);
                     std::map<std::string, json> by_chapter;
                     for (auto& [id, e] : c.targets) {
                       json& row = by_chapter[e.chapter];
                       if (row.is_null()) {
                         const auto& dir = c.chapter_dirs[e.chapter];
                         row = {{"chapter", e.chapter}, {"title", dir.empty() ? "" : readme_title(dir)}, {"targets", 0},
                                {"built", 0}, {"source_dir", dir.empty() ? json(nullptr) : json(dir.string())}};
                       }
                       row["targets"] = row["targets"].get<int>() + 1;
                       if (e.built) row["built"] = row["built"].get<int>() + 1;
                     }
                     json out = json::array();
                     for (auto& [name, row] : by_chapter) out.push_back(row);
                     return json{{"chapters", out}};
                   }});

  json target = s::object(
      {{"target", s::string("Target id to pass to aisp_run_benchmarks (ch07:copy_scalar)", 256)},
       {"chapter", s::string("Chapter or lab", 128)},
       {"example", s::string("Example name", 128)},
       {"variants", s::array("Optimized variants (each runnable alone as <chapter>:<variant>)", s::string("", 128))},
       {"built", s::boolean("A plugin is built: aisp_run_benchmarks can run it now")},
       {"in_sources", s::boolean("Its .cu pair is in the sources")}},
      {"target", "chapter", "example", "variants", "built", "in_sources"});
  tools.push_back({"aisp_benchmark_targets", "List benchmark targets",
                   "Benchmark targets (baseline + optimized variants), optionally of one chapter, with whether each "
                   "is built. Target ids are what aisp_run_benchmarks and aisp_benchmark_history take.",
                   s::object({{"chapter", s::string("Only this chapter or lab (ch07, labs/<lab>)", 128)}}, {}, true),
                   s::object({{"targets", s::array("Targets, sorted by id", target, 10000)},
                              {"count", s::integer("Number of targets listed", 0, 1 << 30)}},
                             {"targets", "count"}),
                   read_only_annotations(), [&config](ToolCall& call) {
                     std::string chapter = arg_string(call.arguments, "chapter");
                     Catalog c = load_catalog(config);
                     json out = json::array();
                     for (auto& [id, e] : c.targets) {
                       if (!chapter.empty() && e.chapter != chapter) continue;
                       out.push_back({{"target", e.id}, {"chapter", e.chapter}, {"example", e.example},
                                      {"variants", e.variants}, {"built", e.built}, {"in_sources", e.in_sources}});
                     }
                     if (!chapter.empty() && out.empty()) {
                       std::string known;
                       for (auto& [dir, path] : c.chapter_dirs) known += (known.empty() ? "" : ", ") + dir;
                       throw ToolError("no targets in chapter '" + chapter + "'" +
                                       (known.empty() ? std::string(" (no chapters found)") : " (chapters: " + known + ")"));
                     }
                     return json{{"targets", out}, {"count", out.size()}};
                   }});
  return tools;
}

}  // namespace aisp::mcp
