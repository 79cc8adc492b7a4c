// What a tool is to the server: its listing (name, description, schemas, annotations) and a function from
// validated arguments to structuredContent. The server does everything around it — argument validation,
// the text copy, output-schema check, trimming, cancellation and progress — so a tool is only its logic.
#pragma once
#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>

namespace aisp::mcp {

using json = nlohmann::json;

// A failure the caller can act on (bad target name, no store yet, child command failed): it becomes a
// tool result with isError true and this message, never a protocol error.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ToolCall {
  const json& arguments;                // validated against the tool's inputSchema; {} when none were sent
  const std::atomic<bool>& cancelled;   // set by notifications/cancelled or shutdown: stop, kill children
  // notifications/progress when the client sent a progressToken (else a no-op). Values must grow; the
  // server drops a report that does not, and every report once the response is sent.
  std::function<void(double progress, double total, const std::string& message)> progress;
  // A step counter shared by everything the call does (several child commands in a row), so progress
  // keeps growing across them when there is no known total.
  double steps = 0;
};

struct Tool {
  std::string name;         // aisp_*, <= 64 chars of [A-Za-z0-9_] (the conformance suite's rule)
  std::string title;        // shown by clients (2025-06-18+)
  std::string description;  // what it does, when to use it, what it returns
  json input_schema;        // type object, additionalProperties false
  json output_schema;       // type object; structuredContent is checked against it before sending
  json annotations;
  std::function<json(ToolCall&)> run;
};

// Annotation sets (clients treat them as hints; set explicitly because the defaults are the pessimistic
// ones: destructive, open-world).
json read_only_annotations();
// Starts work (a job, a child process) but changes no user data except adding run artifacts.
json starts_work_annotations();

}  // namespace aisp::mcp
