// Printers over the analysis results (src/analysis): the HTML report (`bench report`), its Markdown form
// and the per-variant CSV (`bench export --format csv`). They print what the analyses computed and
// compute nothing of their own, so every format shows the same numbers as `--json` and the dashboard.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"

namespace aisp::report {

struct ReportOptions {
  std::string title = "aisp benchmark report";
  std::string author;
  size_t top_n = 20;
  std::optional<analysis::PriceTable> prices;         // adds a cost section
  std::optional<analysis::TagVocabulary> vocabulary;  // adds a stacking section
};
// One self-contained HTML file: inline CSS and SVG charts, no script, no external resource.
std::string render_html(const analysis::Dataset& d, const ReportOptions& o = {});
std::string render_markdown(const analysis::Dataset& d, const ReportOptions& o = {});
// One row per measured variant with the derived figures, RFC 4180 quoting.
std::string render_csv(const std::vector<analysis::VariantRow>& rows);

}  // namespace aisp::report
