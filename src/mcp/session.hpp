// One MCP session (the legacy, initialize-handshake era: protocol versions 2025-11-25, 2025-06-18 and
// 2025-03-26): lifecycle, dispatch, tools/list pagination, tools/call on worker threads with cancellation
// and progress. It reads lines and writes JSON values through a sink; the stdio framing lives in
// stdio_server.cpp, so the whole protocol is unit-tested without processes (tests/unit/test_mcp_session.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json_rpc.hpp"
#include "mcp/redact.hpp"
#include "mcp/tool.hpp"
#include "mcp/result_size_limits.hpp"

namespace aisp::mcp {

// Newest first: an unsupported request is answered with the first (the spec's SHOULD: our latest).
inline const std::vector<std::string> kSupportedProtocolVersions = {"2025-11-25", "2025-06-18", "2025-03-26"};

struct SessionOptions {
  std::string server_name = "aisp", server_version, server_title = "aisp (AI systems performance toolkit)";
  std::string instructions;
  size_t page_size = 50;          // tools per tools/list page
  size_t max_concurrent_calls = 8;  // tools/call running at once; more are answered with a busy isError
  Limits limits;
  ResultSizeLimits size_limits;
  Redactor redactor;
  std::function<void(const std::string&)> log;  // one line, to stderr in the real server
};

class Session {
 public:
  using Sink = std::function<void(const json&)>;  // called with one complete message; must not throw
  Session(std::vector<Tool> tools, Sink sink, SessionOptions options);
  ~Session();  // shutdown()
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void handle_line(std::string_view line);
  // The reader dropped a line longer than the limit without keeping it: answer -32600 with id null.
  void handle_oversized_line(size_t bytes);
  // Stdin closed: cancel every call in flight (their children are killed) and wait for them; no
  // responses are sent for cancelled calls.
  void shutdown();
  // Blocks until no tools/call is running (tests).
  void wait_idle();

  bool initialized() const { return initialized_; }
  std::string protocol_version() const;
  const std::vector<Tool>& tools() const { return tools_; }
  // A tool as tools/list shows it to a client of `version` (fields the version lacks are left out).
  static json describe_tool(const Tool& tool, const std::string& version);

 private:
  struct Call;
  using Reply = std::function<void(json)>;  // null: send nothing (a cancelled call)

  void dispatch(const json& value, const Reply& reply);
  void handle_batch(const json& batch);
  void handle_request(const Message& m, const Reply& reply);
  void handle_notification(const Message& m);
  json initialize(const json& params);
  json list_tools(const json& params);
  void call_tool(const Message& m, const Reply& reply);
  json run_tool(const Tool& tool, const json& arguments, Call& call);
  void send(json message);
  void log(const std::string& line) const;

  std::vector<Tool> tools_;
  std::map<std::string, size_t> by_name_;
  Sink sink_;
  SessionOptions options_;
  std::string tools_fingerprint_;  // ties a cursor to this tool list

  mutable std::mutex mutex_;  // state below and the sink (one ordered writer)
  std::condition_variable idle_;
  std::atomic<bool> initialized_{false};
  std::string version_;
  json client_info_;
  std::map<std::string, std::shared_ptr<Call>> in_flight_;  // by id_key
  size_t running_ = 0;
  bool shutting_down_ = false;
};

}  // namespace aisp::mcp
