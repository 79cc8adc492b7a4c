// Parser for compute-sanitizer's text output (memcheck, racecheck, synccheck, initcheck): each finding
// is a block of "========= " lines opened by its description ("Invalid __global__ write of size 4
// bytes", "Race reported between ...", "Uninitialized __global__ memory read ...", "Barrier error ...",
// "Program hit cudaErrorLaunchFailure ..."), closed by the next one or the ERROR SUMMARY line.
#pragma once
#include <string>
#include <vector>

namespace aisp::profile {

struct SanitizerFinding {
  std::string kind;      // the opening line, without the prefix
  std::string kernel;    // "oob_write_kernel(const float *, float *, long)+0x70" from the "at ..." line
  std::string where;     // "by thread (0,0,0) in block (4096,0,0)"
  std::string address;   // the "Address ..." line(s), joined
  std::vector<std::string> lines;  // the block without host backtrace frames
};

struct SanitizerReport {
  std::string tool;  // memcheck | racecheck | synccheck | initcheck
  // From "ERROR SUMMARY: N errors" (racecheck: the errors of "RACECHECK SUMMARY"); -1 when no summary
  // came: the tool itself failed.
  int error_summary = -1;
  std::vector<SanitizerFinding> findings;
  std::vector<std::string> tool_messages;  // lines that are about the tool itself ("Device not supported")
  int errors() const { return error_summary >= 0 ? error_summary : static_cast<int>(findings.size()); }
  bool clean() const { return error_summary == 0 && findings.empty(); }
};

SanitizerReport parse_sanitizer_output(const std::string& text, const std::string& tool);

}  // namespace aisp::profile
