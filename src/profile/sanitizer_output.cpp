#include "profile/sanitizer_output.hpp"

#include <regex>
#include <sstream>

namespace aisp::profile {
namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool opens_finding(const std::string& body) {
  for (const char* p : {"Invalid ", "Race reported", "Error: Race", "Uninitialized ", "Barrier error", "Program hit ",
                        "Misaligned ", "Out-of-range ", "Malloc/Free error", "Leaked ", "Warning: Race",
                        "Potential RAW", "Potential WAR", "Potential WAW", "Error: "})
    if (body.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

SanitizerReport parse_sanitizer_output(const std::string& text, const std::string& tool) {
  SanitizerReport r;
  r.tool = tool;
  static const std::regex summary(R"(ERROR SUMMARY:\s*(\d+)\s+error)");
  // racecheck has no ERROR SUMMARY (seen with 2025.3.1): "RACECHECK SUMMARY: 1 hazard displayed (1 error,
  // 0 warnings)". Its errors count; warnings (possible hazards) are kept as findings but do not.
  static const std::regex race_summary(R"(RACECHECK SUMMARY:.*\((\d+)\s+errors?)");
  std::istringstream in(text);
  SanitizerFinding* open = nullptr;
  bool in_backtrace = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("=========", 0) != 0) continue;  // the program's own output
    std::string rest = line.substr(9);
    std::string body = trim(rest);
    std::smatch mm;
    if (std::regex_search(body, mm, summary) || std::regex_search(body, mm, race_summary)) {
      r.error_summary = std::stoi(mm[1]);
      open = nullptr;
      continue;
    }
    if (body.empty()) {  // a bare "=========" separates findings
      open = nullptr;
      continue;
    }
    if (body == "COMPUTE-SANITIZER") continue;
    // A finding opens at the shallowest indent ("========= Invalid ..."); its details are indented more.
    size_t indent = rest.find_first_not_of(' ');
    if (indent <= 1 && opens_finding(body)) {
      r.findings.push_back({body, "", "", "", {body}});
      open = &r.findings.back();
      in_backtrace = false;
      continue;
    }
    if (!open) {
      r.tool_messages.push_back(body);
      continue;
    }
    if (body.rfind("Saved host backtrace", 0) == 0 || body.rfind("Host Frame", 0) == 0) {
      in_backtrace = true;
      continue;
    }
    if (in_backtrace && body.rfind("Device Frame", 0) != 0) continue;
    open->lines.push_back(body);
    if (body.rfind("at ", 0) == 0 && open->kernel.empty()) open->kernel = body.substr(3);
    else if (body.rfind("by thread", 0) == 0) open->where = body;
    else if (body.rfind("Address", 0) == 0 || body.rfind("Access to", 0) == 0 || body.rfind("and is ", 0) == 0)
      open->address += (open->address.empty() ? "" : " ") + body;
  }
  return r;
}

}  // namespace aisp::profile
