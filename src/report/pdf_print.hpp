// `aisp bench export --format pdf`: the self-contained HTML report printed to PDF by headless Chromium
// (the report has no script and no external resource, so what Chromium prints is exactly the HTML
// export). Chromium is an optional run-time tool, found like the profilers: $AISP_CHROMIUM, else PATH
// (chromium, chromium-browser, google-chrome), else /usr/bin/chromium.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aisp::report {

struct BrowserLocation {
  std::string path;                    // empty when not found
  std::vector<std::string> looked_in;  // for the error message
};
BrowserLocation find_chromium();

// The browser's command line that prints `html` to `pdf` (A4/Letter as the browser defaults, no header
// or footer, backgrounds on) with a throwaway profile directory.
std::vector<std::string> chromium_pdf_argv(const std::string& browser, const std::filesystem::path& html,
                                           const std::filesystem::path& pdf, const std::filesystem::path& profile_dir);

// Prints; throws std::runtime_error with the browser's last output lines when it fails, times out
// (killed), or writes something that is not a PDF.
void print_html_to_pdf(const std::string& browser, const std::filesystem::path& html, const std::filesystem::path& pdf,
                       double timeout_s = 120);

}  // namespace aisp::report
