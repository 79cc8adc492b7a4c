// The analysis commands: load a dataset (store or results file), call src/analysis, print a terminal
// table or the JSON form. Every table ends with the notes the analysis returned (missing data, sources).
#include "cli/analysis_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "analysis/analysis.hpp"
#include "report/analysis_report.hpp"
#include "cli/paths.hpp"
#include "cli/store_commands.hpp"
#include "core/json_io.hpp"
#include "serve/reference_dataset.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace an = aisp::analysis;
namespace {

struct AnalysisArgs {
  std::string db, data, run = "latest", caps, prices, tags, format = "html", output, title = "aisp benchmark report",
              author, gpu, goal, latency_stat = "p99", tool;
  bool as_json = false, measure = false;
  size_t top = 10;
  double vram = an::kNaN, latency = an::kNaN, min_throughput = an::kNaN, min_speedup = an::kNaN, rate = an::kNaN;
  std::vector<std::string> tool_args;
};

[[noreturn]] void fail(const std::string& msg) { throw CLI::Error("AnalysisError", msg, 2); }

// ---------------------------------------------------------------------------------------------- loading

// Where measured ceilings (hardware_capabilities_<hwkey>.json) are looked for when --caps is not given:
// artifacts/hw in the working directory, `beside_store` (artifacts/hw next to the store), the checkout's
// artifacts/hw, then the committed reference data of every GPU (results/reference/<hwkey>/), so analysis
// on a machine without a GPU uses the ceilings measured where the runs were made.
std::vector<fs::path> capability_dirs(const fs::path& beside_store) {
  std::vector<fs::path> dirs = {"artifacts/hw"};
  if (!beside_store.empty()) dirs.push_back(beside_store);
  if (fs::path root = project_source_root(); !root.empty()) {
    dirs.push_back(root / "artifacts" / "hw");
    std::error_code ec;
    for (auto& e : fs::directory_iterator(root / "results" / "reference", ec))
      if (e.is_directory()) dirs.push_back(e.path());
  }
  return dirs;
}

an::Dataset load(const AnalysisArgs& a) {
  an::Dataset d;
  try {
    if (!a.data.empty()) {
      d = an::load_file(a.data);
    } else {
      fs::path db = store_path(a.db, "artifacts");
      std::string reference_label;
      if (!fs::exists(db) && a.db.empty() && !std::getenv("AISP_DB")) {
        // No store yet (a fresh clone, no run stored): the shipped reference runs, labelled as such, instead
        // of an error. A store named with --db or $AISP_DB must exist.
        std::vector<fs::path> roots = {fs::path("results") / "reference"};
        if (fs::path root = project_source_root(); !root.empty()) roots.push_back(root / "results" / "reference");
        try {
          auto ref = reference::open(roots);
          std::cerr << fmt::format("aisp: no results store at {}: analysing the {}\n", db.string(), ref.label());
          db = ref.store;
          reference_label = ref.label();
        } catch (const std::exception& e) {
          fail(fmt::format("no results store at {} (ingest runs with `aisp bench ingest <run dir> --db {}`, or read "
                           "one results file with --data), and {}", db.string(), db.string(), e.what()));
        }
      } else if (!fs::exists(db)) {
        fail(fmt::format("no results store at {} (ingest runs with `aisp bench ingest <run dir> --db {}`, or read one "
                         "results file with --data)", db.string(), db.string()));
      }
      d = an::load_store(db, a.run);
      if (!reference_label.empty()) d.source = reference_label + "; " + d.source;
    }
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::exception& e) {
    fail(e.what());
  }
  std::vector<fs::path> dirs = capability_dirs(a.data.empty() ? store_path(a.db, "artifacts").parent_path() / "hw"
                                                                : fs::path());
  try {
    an::attach_capabilities(d.hardware, a.caps, dirs);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  return d;
}

// data/<name>: --option FILE, else $AISP_DATA_DIR/<name>, else <checkout>/data/<name>.
fs::path data_file(const std::string& option, const std::string& name) {
  if (!option.empty()) return option;
  std::vector<fs::path> c;
  if (const char* env = std::getenv("AISP_DATA_DIR")) c.push_back(fs::path(env) / name);
  c.push_back(fs::path("data") / name);
  if (fs::path root = project_source_root(); !root.empty()) c.push_back(root / "data" / name);
  for (auto& p : c)
    if (fs::is_regular_file(p)) return p;
  fail(fmt::format("{} not found (looked in $AISP_DATA_DIR, ./data and the checkout's data/); pass its path", name));
}

an::PriceTable prices(const AnalysisArgs& a) {
  fs::path p = data_file(a.prices, "gpu_prices.json");
  try {
    return an::price_table_from_json(read_json(p), p.string());
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

an::TagVocabulary vocabulary(const AnalysisArgs& a) {
  fs::path p = data_file(a.tags, "technique_tags.json");
  try {
    return an::vocabulary_from_json(read_json(p), p.string());
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

// ---------------------------------------------------------------------------------------------- printing

std::string num(double v, const char* f = "{:.3g}") { return an::known(v) ? fmt::format(fmt::runtime(f), v) : "-"; }

// A plain text table: columns sized to their widest cell, numbers right-aligned.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  void print(std::ostream& os) const {
    std::vector<size_t> w(header.size(), 0);
    auto width = [](const std::string& s) {  // UTF-8 aware enough for "µ" and "—"
      size_t n = 0;
      for (unsigned char c : s) n += (c & 0xC0) != 0x80;
      return n;
    };
    for (size_t i = 0; i < header.size(); ++i) w[i] = width(header[i]);
    for (auto& r : rows)
      for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    auto line = [&](const std::vector<std::string>& r) {
      for (size_t i = 0; i < r.size() && i < w.size(); ++i) {
        bool numeric = !r[i].empty() && (std::isdigit(static_cast<unsigned char>(r[i][0])) ||
                                         ((r[i][0] == '-' || r[i][0] == '+') && r[i].size() > 1));
        std::string pad(w[i] - width(r[i]), ' ');
        os << (i ? "  " : "") << (numeric ? pad + r[i] : r[i] + (i + 1 < r.size() ? pad : ""));
      }
      os << "\n";
    };
    line(header);
    std::vector<std::string> rule;
    for (size_t x : w) rule.push_back(std::string(x, '-'));
    line(rule);
    for (auto& r : rows) line(r);
  }
};

void print_notes(const std::vector<std::string>& notes) {
  for (auto& n : notes) std::cout << "note: " << n << "\n";
}

void header(const an::Dataset& d) {
  std::cout << fmt::format("{} | GPU {} ({})\n\n", d.source, d.hardware.gpu_model.empty() ? "unknown" : d.hardware.gpu_model,
                           d.hardware.hardware_key.empty() ? "-" : d.hardware.hardware_key);
}

void emit(const AnalysisArgs& a, const an::Dataset& d, const char* command, json body) {
  json out = {{"command", std::string("bench ") + command}, {"source", d.source}, {"run", d.current().key},
              {"gpu_model", d.hardware.gpu_model}, {"hardware_key", d.hardware.hardware_key},
              {"capabilities", d.hardware.capabilities_path.empty() ? json(nullptr) : json(d.hardware.capabilities_path)},
              {"result", std::move(body)}};
  (void)a;
  std::cout << out.dump(2) << "\n";
}

std::string speedup_text(const an::VariantRow& r) {
  if (r.baseline) return "-";
  return fmt::format("{}x [{}, {}]", num(r.speedup, "{:.3f}"), num(r.ci_low, "{:.3f}"), num(r.ci_high, "{:.3f}"));
}

// 3.626e11 -> "362.6 G": throughputs span many orders of magnitude across targets.
std::string si(double v) {
  const char* units[] = {"", " k", " M", " G", " T", " P"};
  int i = 0;
  while (std::abs(v) >= 1000 && i < 5) v /= 1000, ++i;
  return fmt::format("{:.4g}{}", v, units[i]);
}

std::string board_value(const an::LeaderboardEntry& e) {
  if (an::known(e.low)) return fmt::format("{:.4g}x [{:.4g}, {:.4g}]", e.value, e.low, e.high);
  return e.unit == "%" ? fmt::format("{:.1f}%", e.value) : si(e.value) + " " + e.unit;
}

void print_board(const char* title, const std::vector<an::LeaderboardEntry>& v) {
  std::cout << "\n" << title << "\n";
  if (v.empty()) {
    std::cout << "  (nothing to rank)\n";
    return;
  }
  Table t{{"#", "target", "variant", "value", "detail"}, {}};
  for (size_t i = 0; i < v.size(); ++i)
    t.rows.push_back({std::to_string(i + 1), v[i].target, v[i].variant, board_value(v[i]), v[i].detail});
  t.print(std::cout);
}

// ---------------------------------------------------------------------------------------------- commands

void analyze_command(const AnalysisArgs& a) {
  an::Dataset d = load(a);
  an::Analysis r = an::analyze(d.current().targets, an::derivation_inputs(d), a.top);
  if (!a.goal.empty()) r.recommendations = an::recommendations(r.rows, a.goal);
  if (a.as_json) return emit(a, d, "analyze", an::to_json(r));
  header(d);
  Table t{{"target", "variant", "verdict", "median ms", "speedup [95% CI]", "peak MiB", "GB/s", "TFLOP/s", "% roof", "bound"}, {}};
  for (auto& x : r.rows)
    t.rows.push_back({x.target, x.variant + (x.usable ? "" : " (not ranked)"), x.baseline ? "-" : (x.verdict.empty() ? "-" : x.verdict),
                      num(x.median_ms, "{:.4g}"), speedup_text(x), num(x.peak_mb, "{:.0f}"),
                      an::known(x.bytes_per_s) ? fmt::format("{:.1f}", x.bytes_per_s / 1e9) : "-",
                      an::known(x.flops_per_s) ? fmt::format("{:.2f}", x.flops_per_s / 1e12) : "-",
                      num(x.roofline_pct, "{:.1f}"), x.bound.empty() ? "-" : x.bound});
  t.print(std::cout);
  print_board("Speed (ranked by the CI's lower end)", r.boards.speed);
  print_board("Peak-memory saving", r.boards.memory);
  print_board("Throughput (per item unit)", r.boards.throughput);
  print_board("% of roofline", r.boards.roofline);
  std::cout << "\nPareto frontier (speedup vs memory saving, both maximised)\n";
  for (auto& p : r.pareto)
    if (p.on_frontier) std::cout << fmt::format("  * {} / {}: {:.3g}x, {:.1f}% memory saving\n", p.target, p.variant, p.speedup, p.memory_savings_pct);
  if (!r.tradeoffs.empty()) {
    std::cout << "\nTrade-offs\n";
    for (auto& x : r.tradeoffs) std::cout << fmt::format("  {} / {}: {}\n", x.target, x.variant, x.text);
  }
  std::cout << "\nRecommendations\n";
  for (auto& x : r.recommendations) std::cout << fmt::format("  {} [{}]: {} - {}\n", x.target, x.goal, x.variant, x.why);
  for (auto& e : r.boards.excluded) std::cout << "not ranked: " << e << "\n";
  std::cout << "\n";
  print_notes(r.notes);
  if (!r.ceilings_note.bandwidth_source.empty()) print_notes({"bandwidth roof: " + r.ceilings_note.bandwidth_source});
  if (!r.ceilings_note.compute_source.empty()) print_notes({"compute roof: " + r.ceilings_note.compute_source});
}

void whatif_command(const AnalysisArgs& a) {
  if (!an::known(a.vram) && !an::known(a.latency) && !an::known(a.min_throughput) && !an::known(a.min_speedup))
    fail("give at least one constraint: --vram GiB, --latency ms, --min-throughput items/s or --min-speedup x");
  an::Dataset d = load(a);
  an::WhatIfConstraints c{a.vram, a.latency, a.latency_stat, a.min_throughput, a.min_speedup};
  an::WhatIf w = an::whatif(an::variant_rows(d.current().targets, an::derivation_inputs(d)), c);
  if (a.as_json) return emit(a, d, "whatif", an::to_json(w));
  header(d);
  std::cout << fmt::format("Constraints: peak memory <= {} GiB, {} latency <= {} ms, throughput >= {}, speedup >= {}\n\n",
                           num(a.vram), a.latency_stat, num(a.latency), num(a.min_throughput), num(a.min_speedup));
  Table t{{"target", "variant", "median ms", "p99 ms", "peak MiB", "speedup", "throughput"}, {}};
  for (auto& f : w.fits)
    t.rows.push_back({f.row.target, f.row.variant, num(f.row.median_ms, "{:.4g}"), num(f.row.p99_ms, "{:.4g}"),
                      num(f.row.peak_mb, "{:.0f}"), num(f.row.speedup, "{:.3g}x"),
                      an::known(f.row.items_per_s) ? si(f.row.items_per_s) + " " + f.row.item_unit + "/s" : "-"});
  std::cout << fmt::format("Fits ({}):\n", w.fits.size());
  if (w.fits.empty()) std::cout << "  nothing measured fits these constraints\n";
  else t.print(std::cout);
  std::cout << "\nBest per target:\n";
  for (auto& b : w.best_per_target) std::cout << "  " << b << "\n";
  std::cout << fmt::format("\nRejected ({}):\n", w.rejected.size());
  for (auto& r : w.rejected)
    std::cout << fmt::format("  {} / {}: {}\n", r.row.target, r.row.variant, fmt::join(r.violations, "; "));
  print_notes({"peak memory is the worker's measured device usage (cudaMemGetInfo) above its start; latency is the "
               "variant's " + a.latency_stat + " per run() over its kept samples"});
}

void stacking_command(const AnalysisArgs& a) {
  an::Dataset d = load(a);
  an::Stacking s = an::stacking(an::variant_rows(d.current().targets, an::derivation_inputs(d)), vocabulary(a));
  if (a.as_json) return emit(a, d, "stacking", an::to_json(s));
  header(d);
  std::cout << "Techniques seen (tag: best speedup, variants)\n";
  for (auto& t : s.tags)
    std::cout << fmt::format("  {}: {}x  {}\n", t, num(s.best_speedup_by_tag[t]), fmt::join(s.variants_by_tag[t], ", "));
  if (!s.tags.empty()) {
    std::cout << "\nMatrix (M = measured together, C = declared conflict, . = untested; diagonal = measured alone)\n";
    Table t{{""}, {}};
    for (size_t i = 0; i < s.tags.size(); ++i) t.header.push_back(std::to_string(i + 1));
    for (size_t i = 0; i < s.tags.size(); ++i) {
      std::vector<std::string> row{fmt::format("{} ({})", s.tags[i], i + 1)};
      for (size_t j = 0; j < s.tags.size(); ++j) {
        std::string cell = ".";
        for (auto& c : s.cells)
          if ((c.a == s.tags[i] && c.b == s.tags[j]) || (c.a == s.tags[j] && c.b == s.tags[i]))
            cell = c.state == "measured" ? "M" : c.state == "conflict" ? "C" : ".";
        row.push_back(cell);
      }
      t.rows.push_back(row);
    }
    t.print(std::cout);
    for (auto& c : s.cells)
      if (c.state == "conflict" || (c.a != c.b && c.state == "measured"))
        std::cout << fmt::format("  {} + {}: {}{}\n", c.a, c.b, c.state,
                                 c.state == "measured" ? fmt::format(" by {} (best {:.3g}x)", fmt::join(c.variants, ", "), c.best_speedup)
                                                       : " - " + c.reason);
  }
  if (!s.untagged.empty()) std::cout << "\nNo tag matched: " << fmt::format("{}", fmt::join(s.untagged, "; ")) << "\n";
  print_notes(s.notes);
}

void power_command(const AnalysisArgs& a) {
  an::Dataset d = load(a);
  an::Power p = an::power(an::variant_rows(d.current().targets, an::derivation_inputs(d)));
  if (a.as_json) return emit(a, d, "power", an::to_json(p));
  header(d);
  Table t{{"target", "variant", "J/run", "avg W", "GPU busy", "GFLOP/J", "items/J", "GB/J", "energy saving"}, {}};
  for (auto& r : p.rows) {
    if (!r.energy.present) continue;
    t.rows.push_back({r.target, r.variant, num(r.energy.joules_per_run, "{:.4g}"), num(r.energy.avg_power_w, "{:.0f}"),
                      an::known(r.energy.gpu_busy_fraction) ? fmt::format("{:.0f}%", 100 * r.energy.gpu_busy_fraction) : "-",
                      an::known(r.ops_per_joule) ? num(r.ops_per_joule / 1e9, "{:.3g}") : "-", num(r.items_per_joule, "{:.4g}"),
                      an::known(r.bytes_per_joule) ? num(r.bytes_per_joule / 1e9, "{:.3g}") : "-",
                      an::known(r.energy_saving_pct) ? fmt::format("{:.1f}%", r.energy_saving_pct) : "-"});
  }
  if (!t.rows.empty()) t.print(std::cout);
  for (auto& r : p.rows)
    if (!r.energy.present && p.any_energy) std::cout << fmt::format("no energy: {} / {}: {}\n", r.target, r.variant, r.energy.why);
  print_notes(p.notes);
}

void cost_command(const AnalysisArgs& a) {
  an::Dataset d = load(a);
  an::Cost c;
  try {
    c = an::cost(an::variant_rows(d.current().targets, an::derivation_inputs(d)), prices(a), a.gpu, d.hardware.gpu_model, a.rate, a.top);
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (a.as_json) return emit(a, d, "cost", an::to_json(c));
  header(d);
  std::cout << fmt::format("{} at ${:.2f} per GPU-hour ({})\n\n", c.gpu, c.usd_per_hour, c.rate_source);
  Table t{{"target", "variant", "median ms", "$ / 1M runs", "baseline $ / 1M", "saved $ / 1M", "saving", "$ / 1M items"}, {}};
  for (auto& r : c.rows)
    t.rows.push_back({r.target, r.variant, num(r.median_ms, "{:.4g}"), num(r.usd_per_million_ops, "{:.4g}"),
                      num(r.baseline_usd_per_million_ops, "{:.4g}"), num(r.usd_saved_per_million_ops, "{:.4g}"),
                      an::known(r.saving_pct) ? fmt::format("{:.1f}%", r.saving_pct) : "-",
                      an::known(r.usd_per_million_items) ? fmt::format("{:.4g} ({})", r.usd_per_million_items, r.item_unit) : "-"});
  t.print(std::cout);
  print_notes(c.notes);
}

void scaling_command(const AnalysisArgs& a) {
  an::Dataset d = load(a);
  an::Scaling s = an::scaling(d.runs);
  if (a.as_json) return emit(a, d, "scaling", an::to_json(s));
  header(d);
  std::cout << fmt::format("{} run(s) considered\n", d.runs.size());
  for (auto& x : s.series) {
    std::cout << fmt::format("\n{} / {} along '{}' (fixed: {}): speedup {:+.3g} per doubling (R² {:.2f}), trend {}; "
                             "time ~ {}^{:.2f} (baseline), ^{:.2f} (variant)\n",
                             x.target, x.variant, x.axis, x.fixed_params.dump(), x.speedup_per_doubling, x.speedup_r2,
                             x.trend, x.axis, x.baseline_exponent, x.variant_exponent);
    Table t{{x.axis, "baseline ms", "variant ms", "speedup [95% CI]", "run"}, {}};
    for (auto& p : x.points)
      t.rows.push_back({fmt::format("{:.0f}", p.x),  // axis values are integers (sizes): 268435456, not 2.68e+08
                        num(p.baseline_ms, "{:.4g}"), num(p.variant_ms, "{:.4g}"),
                        fmt::format("{:.3f}x [{:.3f}, {:.3f}]", p.speedup, p.ci_low, p.ci_high), p.run});
    t.print(std::cout);
  }
  if (!s.single_point.empty()) std::cout << "\nOne workload size only: " << fmt::format("{}", fmt::join(s.single_point, ", ")) << "\n";
  print_notes(s.notes);
}

void write_output(const std::string& output, const std::string& text, const std::string& what) {
  if (output.empty() || output == "-") {
    std::cout << text;
    return;
  }
  write_file_atomic(output, text);
  std::cerr << fmt::format("wrote {} ({}, {} bytes)\n", output, what, text.size());
}

report::ReportOptions report_options(const AnalysisArgs& a) {
  report::ReportOptions o;
  o.title = a.title;
  o.author = a.author;
  o.top_n = a.top;
  // The report is richer with cost and stacking; without the data files it still renders.
  try {
    o.prices = prices(a);
  } catch (const CLI::Error& e) {
    std::cerr << "warning: report without a cost section: " << e.what() << "\n";
  }
  try {
    o.vocabulary = vocabulary(a);
  } catch (const CLI::Error& e) {
    std::cerr << "warning: report without a stacking section: " << e.what() << "\n";
  }
  return o;
}

void report_command(const AnalysisArgs& a) {
  an::Dataset d = load(a);
  report::ReportOptions o = report_options(a);
  std::string text = a.format == "md" ? report::render_markdown(d, o) : report::render_html(d, o);
  write_output(a.output, text, a.format == "md" ? "Markdown report" : "self-contained HTML report");
}

// ---------------------------------------------------------------------------------------------- utils

// Parses the arguments after `--` with a small CLI11 app of the tool's own options.
void parse_tool(CLI::App& tool, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector in reverse order
  try {
    tool.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << tool.help();
    std::exit(0);
  } catch (const CLI::ParseError& e) {
    fail(fmt::format("{}: {}\n{}", tool.get_name(), e.what(), tool.help()));
  }
}

void utils_command(const AnalysisArgs& a) {
  if (a.tool == "kv-cache") {
    an::KvCacheInput in;
    CLI::App t{"KV-cache size: 2 (K,V) x layers x width x bytes/element x tokens x batch", "kv-cache"};
    t.add_option("--layers", in.layers, "Transformer layers")->required();
    t.add_option("--hidden", in.hidden, "Hidden size (model dimension)")->required();
    t.add_option("--tokens", in.tokens, "Tokens per sequence (context length)")->required();
    t.add_option("--batch", in.batch, "Sequences");
    t.add_option("--heads", in.heads, "Attention heads (with --kv-heads: grouped-query attention)");
    t.add_option("--kv-heads", in.kv_heads, "K/V heads (GQA/MQA)");
    t.add_option("--dtype", in.dtype, "fp32 | fp16 | bf16 | fp8 | int8 | fp4 | int4");
    parse_tool(t, a.tool_args);
    an::KvCache k;
    try {
      k = an::kv_cache(in);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    if (a.as_json) {
      std::cout << an::to_json(k).dump(2) << "\n";
      return;
    }
    std::cout << fmt::format("KV cache: {:.4g} GiB ({:.0f} bytes)\n  per token (all layers, K+V): {:.4g} KiB\n  {}\n",
                             k.total_bytes / (1024.0 * 1024 * 1024), k.total_bytes, k.bytes_per_token / 1024, k.formula);
  } else if (a.tool == "cost-per-token") {
    an::CostPerTokenInput in;
    CLI::App t{"Energy (and optional rental) cost per token", "cost-per-token"};
    t.add_option("--avg-power", in.avg_power_w, "Average board power while serving (W)")->required();
    t.add_option("--throughput", in.tokens_per_s, "Tokens per second")->required();
    t.add_option("--electricity-cost", in.usd_per_kwh, "USD per kWh")->required();
    t.add_option("--gpu-hour-cost", in.usd_per_gpu_hour, "Optional rental rate (USD per GPU-hour)");
    parse_tool(t, a.tool_args);
    an::CostPerToken c;
    try {
      c = an::cost_per_token(in);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    if (a.as_json) {
      std::cout << an::to_json(c).dump(2) << "\n";
      return;
    }
    std::cout << fmt::format("{:.4g} J per token, {:.4g} kWh per 1M tokens\nenergy: ${:.4g} per 1M tokens\n",
                             c.joules_per_token, c.kwh_per_million_tokens, c.energy_usd_per_million_tokens);
    if (an::known(c.rental_usd_per_million_tokens))
      std::cout << fmt::format("rental: ${:.4g} per 1M tokens\ntotal:  ${:.4g} per 1M tokens\n", c.rental_usd_per_million_tokens,
                               c.total_usd_per_million_tokens);
  } else if (a.tool == "probe-hw") {
    std::string caps, hwkey;
    bool measure = false;
    CLI::App t{"This GPU's measured ceilings (hardware_capabilities file); --measure runs `aisp hw speed` first", "probe-hw"};
    t.add_option("--caps", caps, "Capabilities file (default artifacts/hw/hardware_capabilities_<hwkey>.json)");
    t.add_option("--hwkey", hwkey, "Hardware key (default: the store's latest run)");
    t.add_flag("--measure", measure, "Run `aisp hw speed` now (needs a GPU and a build with probes)");
    parse_tool(t, a.tool_args);
    if (measure) {
      int rc = std::system((self_exe().string() + " hw speed").c_str());
      if (rc != 0) std::cerr << "warning: `aisp hw speed` failed (exit " << rc << ")\n";
    }
    an::Hardware hw;
    hw.hardware_key = hwkey;
    if (hwkey.empty() && caps.empty()) {
      try {
        AnalysisArgs b = a;
        hw = load(b).hardware;
      } catch (const CLI::Error& e) {
        fail(std::string("no --hwkey or --caps, and no run to take the GPU from: ") + e.what());
      }
    }
    std::vector<fs::path> dirs = capability_dirs({});
    if (!caps.empty() || hw.capabilities.is_null()) {
      try {
        an::attach_capabilities(hw, caps, dirs);
      } catch (const std::exception& e) {
        fail(e.what());
      }
    }
    if (hw.capabilities.is_null())
      fail(fmt::format("no hardware_capabilities file for '{}' (run `aisp hw peak` on that GPU, or pass --caps)", hw.hardware_key));
    if (a.as_json) {
      std::cout << hw.capabilities.dump(2) << "\n";
      return;
    }
    std::cout << fmt::format("{} ({})\n\n", hw.capabilities_path, hw.capabilities.value("hardware_key", ""));
    Table table{{"ceiling", "value", "unit", "% datasheet", "method"}, {}};
    const json ceilings = hw.capabilities.value("ceilings", json::object());  // items() must not outlive it
    for (auto& [k, v] : ceilings.items())
      table.rows.push_back({k, v.contains("value") && v["value"].is_number() ? fmt::format("{:.4g}", v["value"].get<double>()) : "-",
                        v.value("unit", ""),
                        v.contains("pct_datasheet") && v["pct_datasheet"].is_number() ? fmt::format("{:.1f}", v["pct_datasheet"].get<double>()) : "-",
                        v.value("method", "").substr(0, 60)});
    table.print(std::cout);
  } else {
    fail("--tool must be kv-cache, cost-per-token or probe-hw");
  }
}

void add_data_options(CLI::App* c, AnalysisArgs& a, bool json_flag = true) {
  c->add_option("--db", a.db, "Results store (default $AISP_DB, else artifacts/aisp.db)");
  c->add_option("--data", a.data, "Read one results file or run directory instead of the store");
  c->add_option("--run", a.run, "Run in the store: latest (default), previous, an id, a run key or its prefix");
  c->add_option("--caps", a.caps, "hardware_capabilities JSON with measured ceilings (default: artifacts/hw/...)");
  if (json_flag) c->add_flag("--json", a.as_json, "Print the JSON form instead of a table");
}

}  // namespace

void add_analysis_commands(CLI::App& bench) {
  static AnalysisArgs a;
  auto* analyze = bench.add_subcommand("analyze", "Leaderboards (speedup with CI, memory, throughput, % of roofline), "
                                                  "Pareto frontier, trade-offs, recommendations by goal");
  add_data_options(analyze, a);
  analyze->add_option("--top", a.top, "Entries per leaderboard");
  analyze->add_option("--goal", a.goal, "Recommendations for one goal only")->check(CLI::IsMember({"speed", "latency", "memory", "throughput"}));
  analyze->callback([] { analyze_command(a); });

  auto* whatif = bench.add_subcommand("whatif", "Which measured variants fit a memory / latency / throughput budget");
  add_data_options(whatif, a);
  whatif->add_option("--vram", a.vram, "Peak GPU memory budget (GiB)");
  whatif->add_option("--latency", a.latency, "Latency budget per run (ms)");
  whatif->add_option("--latency-stat", a.latency_stat, "Statistic the budget applies to")->check(CLI::IsMember({"p99", "median"}));
  whatif->add_option("--min-throughput", a.min_throughput, "Minimum items per second (the workload's item unit)");
  whatif->add_option("--min-speedup", a.min_speedup, "Minimum speedup over the baseline");
  whatif->callback([] { whatif_command(a); });

  auto* stack = bench.add_subcommand("stacking", "Technique matrix: measured combinations and declared conflicts");
  add_data_options(stack, a);
  stack->add_option("--tags", a.tags, "Technique vocabulary (default data/technique_tags.json)");
  stack->callback([] { stacking_command(a); });

  auto* pw = bench.add_subcommand("power", "Energy per run and work per joule from NVML energy counters");
  add_data_options(pw, a);
  pw->callback([] { power_command(a); });

  auto* cost = bench.add_subcommand("cost", "$ per operation and savings from a GPU-hour price file");
  add_data_options(cost, a);
  cost->add_option("--gpu", a.gpu, "Price entry to apply (default: the measured GPU)");
  cost->add_option("--rate", a.rate, "USD per GPU-hour, overrides the price file");
  cost->add_option("--prices", a.prices, "Price file (default data/gpu_prices.json)");
  cost->add_option("--top", a.top, "Rows to show (largest saving first)");
  cost->callback([] { cost_command(a); });

  auto* sc = bench.add_subcommand("scaling", "Speedup along a workload axis across runs, with a fitted trend");
  add_data_options(sc, a);
  sc->callback([] { scaling_command(a); });

  auto* rep = bench.add_subcommand("report", "One self-contained HTML (inline SVG charts) or Markdown report");
  add_data_options(rep, a, false);
  rep->add_option("--format", a.format, "html or md")->check(CLI::IsMember({"html", "md"}));
  rep->add_option("-o,--output", a.output, "Write here (atomically) instead of stdout");
  rep->add_option("--title", a.title, "Report title");
  rep->add_option("--author", a.author, "Author line");
  rep->add_option("--top", a.top, "Entries per leaderboard");
  rep->add_option("--prices", a.prices, "Price file for the cost section (default data/gpu_prices.json)");
  rep->add_option("--tags", a.tags, "Technique vocabulary for the stacking section (default data/technique_tags.json)");
  rep->callback([] { report_command(a); });

  auto* ut = bench.add_subcommand("utils", "Sizing tools: --tool kv-cache | cost-per-token | probe-hw -- <tool options>");
  ut->add_option("--tool", a.tool, "kv-cache, cost-per-token or probe-hw")->required()
      ->check(CLI::IsMember({"kv-cache", "cost-per-token", "probe-hw"}));
  ut->add_option("args", a.tool_args, "The tool's options, after `--` (e.g. -- --layers 80 --hidden 8192 ...)");
  ut->add_flag("--json", a.as_json, "Print the JSON form");
  ut->add_option("--db", a.db, "probe-hw: store to take the GPU from");
  ut->callback([] { utils_command(a); });
}

void export_analysis(const std::string& input, const std::string& format, const std::string& output) {
  AnalysisArgs a;
  a.data = input;
  an::Dataset d = load(a);
  std::string text;
  if (format == "csv") {
    text = report::render_csv(an::variant_rows(d.current().targets, an::derivation_inputs(d)));
  } else if (format == "html") {
    text = report::render_html(d, report_options(a));
  } else {
    an::DerivationInputs ctx = an::derivation_inputs(d);
    json doc = {{"schema", "aisp.analysis/1"}, {"source", d.source}, {"run", d.current().key},
                {"gpu_model", d.hardware.gpu_model}, {"hardware_key", d.hardware.hardware_key},
                {"analysis", an::to_json(an::analyze(d.current().targets, ctx, 0))},
                {"power", an::to_json(an::power(an::variant_rows(d.current().targets, ctx)))},
                {"scaling", an::to_json(an::scaling(d.runs))}, {"history", an::to_json(an::speedup_history(d.runs))}};
    text = doc.dump(2) + "\n";
  }
  write_output(output, text, format);
}

}  // namespace aisp
