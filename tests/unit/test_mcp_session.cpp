// The MCP session over fake tools, driven line by line: lifecycle and version negotiation, pagination,
// tools/call results and errors, cancellation, progress ordering, batches (2025-03-26 only), duplicate
// ids, redaction and shutdown. No process is started; the stdio framing is tested end to end by
// tests/mcp (the official SDK client and the 1,000-line hostile-input run).
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "mcp/schema.hpp"
#include "mcp/session.hpp"

namespace aisp::mcp {
namespace {

namespace s = schema;
using namespace std::chrono_literals;

std::vector<Tool> fake_tools() {
  std::vector<Tool> t;
  t.push_back({"echo", "Echo", "Returns x.", s::object({{"x", s::string("x", 100)}}, {"x"}, true),
               s::object({{"value", s::string("v", 100)}}, {"value"}), read_only_annotations(),
               [](ToolCall& c) { return json{{"value", c.arguments["x"]}}; }});
  // Runs until cancelled or `steps` progress reports were made.
  t.push_back({"slow", "Slow", "Reports progress.", s::object({{"steps", s::integer("n", 1, 1000000)}}, {}, true),
               s::object({{"done", s::boolean("d")}}, {"done"}), read_only_annotations(), [](ToolCall& c) {
                 int steps = c.arguments.value("steps", 1000000);
                 for (int i = 1; i <= steps && !c.cancelled; ++i) {
                   c.progress(i, steps, "step");
                   c.progress(i, steps, "same value again: must be dropped");
                   std::this_thread::sleep_for(2ms);
                 }
                 return json{{"done", true}};
               }});
  t.push_back({"bad_output", "", "Breaks its own schema.", s::object({}, {}, true),
               s::object({{"n", s::integer("n", 0, 10)}}, {"n"}), read_only_annotations(),
               [](ToolCall&) { return json{{"n", "not a number"}}; }});
  t.push_back({"fails", "", "Throws a ToolError.", s::object({}, {}, true), s::object({}), read_only_annotations(),
               [](ToolCall&) -> json { throw ToolError("no results store at /x"); }});
  t.push_back({"fifth", "", "For pagination.", s::object({}, {}, true), s::object({}), read_only_annotations(),
               [](ToolCall&) { return json::object(); }});
  return t;
}

class McpSession : public ::testing::Test {
 protected:
  void start(size_t page_size = 50, Redactor redactor = Redactor()) {
    SessionOptions o;
    o.server_version = "test";
    o.page_size = page_size;
    o.redactor = std::move(redactor);
    session_ = std::make_unique<Session>(fake_tools(), [this](const json& m) {
      std::lock_guard lock(mutex_);
      out_.push_back(m);
    }, o);
  }
  void send(const json& j) { session_->handle_line(j.dump()); }
  void request(const json& id, const std::string& method, json params = nullptr) {
    json m = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) m["params"] = params;
    send(m);
  }
  void initialize(const std::string& version = "2025-11-25") {
    request(0, "initialize", {{"protocolVersion", version}, {"capabilities", json::object()},
                              {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}});
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }
  // The reply to `id`, waiting for asynchronous tools/call answers.
  json reply(const json& id, std::chrono::milliseconds timeout = 5000ms) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mutex_);
        for (auto& m : out_)
          if (m.is_object() && m.contains("id") && m["id"] == id && (m.contains("result") || m.contains("error"))) return m;
      }
      std::this_thread::sleep_for(2ms);
    }
    return nullptr;
  }
  std::vector<json> messages() {
    std::lock_guard lock(mutex_);
    return out_;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    out_.clear();
  }

  std::mutex mutex_;
  std::vector<json> out_;
  std::unique_ptr<Session> session_;
};

TEST_F(McpSession, LifecycleAndVersionNegotiation) {
  start();
  request(1, "tools/list");
  EXPECT_EQ(reply(1)["error"]["code"], rpc::kInvalidRequest);  // not initialized
  request(2, "ping");
  EXPECT_EQ(reply(2)["result"], json::object());  // ping is always allowed
  request(3, "server/discover");
  EXPECT_EQ(reply(3)["error"]["code"], rpc::kMethodNotFound);  // a modern-era probe falls back at once
  request(4, "initialize", {{"capabilities", json::object()}});
  EXPECT_EQ(reply(4)["error"]["code"], rpc::kInvalidParams);
  request(5, "initialize", {{"protocolVersion", "2024-11-05"}, {"capabilities", json::object()}});
  json r = reply(5);
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-11-25");  // unsupported: our latest
  EXPECT_EQ(r["result"]["serverInfo"]["name"], "aisp");
  EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  request(6, "initialize", {{"protocolVersion", "2025-06-18"}});
  EXPECT_EQ(reply(6)["error"]["code"], rpc::kInvalidRequest);  // only once
  request(7, "resources/list");
  EXPECT_EQ(reply(7)["error"]["code"], rpc::kMethodNotFound);  // capability not declared
}

TEST_F(McpSession, EchoesEachSupportedVersion) {
  for (const std::string& v : kSupportedProtocolVersions) {
    out_.clear();
    start();
    initialize(v);
    EXPECT_EQ(reply(0)["result"]["protocolVersion"], v);
    session_.reset();
  }
}

TEST_F(McpSession, ToolsListPagesWithOpaqueCursors) {
  start(2);
  initialize();
  std::vector<std::string> names;
  json cursor = nullptr;
  for (int page = 0; page < 10; ++page) {
    request(100 + page, "tools/list", cursor.is_null() ? json::object() : json{{"cursor", cursor}});
    json r = reply(100 + page)["result"];
    for (auto& t : r["tools"]) {
      names.push_back(t["name"]);
      EXPECT_EQ(t["inputSchema"]["type"], "object");
      EXPECT_EQ(t["outputSchema"]["type"], "object");
    }
    if (!r.contains("nextCursor")) break;
    cursor = r["nextCursor"];
  }
  EXPECT_EQ(names, (std::vector<std::string>{"echo", "slow", "bad_output", "fails", "fifth"}));
  request(200, "tools/list", {{"cursor", "2.deadbeef"}});
  EXPECT_EQ(reply(200)["error"]["code"], rpc::kInvalidParams);
  request(201, "tools/list", {{"cursor", 2}});
  EXPECT_EQ(reply(201)["error"]["code"], rpc::kInvalidParams);
}

TEST_F(McpSession, OldestVersionGetsNoStructuredOutput) {
  start();
  initialize("2025-03-26");
  request(1, "tools/list");
  json tool = reply(1)["result"]["tools"][0];
  EXPECT_FALSE(tool.contains("outputSchema"));
  EXPECT_FALSE(tool.contains("title"));
  request(2, "tools/call", {{"name", "echo"}, {"arguments", {{"x", "hi"}}}});
  json r = reply(2)["result"];
  EXPECT_FALSE(r.contains("structuredContent"));
  EXPECT_EQ(json::parse(r["content"][0]["text"].get<std::string>())["value"], "hi");
}

TEST_F(McpSession, ToolCallResultsAndErrors) {
  start();
  initialize();
  request(1, "tools/call", {{"name", "echo"}, {"arguments", {{"x", "hi"}}}});
  json r = reply(1)["result"];
  EXPECT_EQ(r["isError"], false);
  EXPECT_EQ(r["structuredContent"]["value"], "hi");
  EXPECT_EQ(json::parse(r["content"][0]["text"].get<std::string>()), r["structuredContent"]);

  request(2, "tools/call", {{"name", "nope"}});
  EXPECT_EQ(reply(2)["error"]["code"], rpc::kInvalidParams);  // unknown tool: a protocol error
  request(3, "tools/call", {{"name", "echo"}, {"arguments", json::array()}});
  EXPECT_EQ(reply(3)["error"]["code"], rpc::kInvalidParams);
  request(4, "tools/call", {{"arguments", json::object()}});
  EXPECT_EQ(reply(4)["error"]["code"], rpc::kInvalidParams);

  // Argument problems are tool results a model can read and fix.
  request(5, "tools/call", {{"name", "echo"}, {"arguments", {{"x", 5}, {"y", 1}}}});
  json bad = reply(5)["result"];
  EXPECT_EQ(bad["isError"], true);
  EXPECT_FALSE(bad.contains("structuredContent"));
  std::string text = bad["content"][0]["text"];
  EXPECT_NE(text.find("/x: expected string"), std::string::npos) << text;
  EXPECT_NE(text.find("/y: unknown property"), std::string::npos) << text;

  request(6, "tools/call", {{"name", "echo"}});  // arguments omitted: {} -> missing x
  EXPECT_EQ(reply(6)["result"]["isError"], true);

  request(7, "tools/call", {{"name", "bad_output"}});
  json broken = reply(7)["result"];
  EXPECT_EQ(broken["isError"], true);
  EXPECT_NE(broken["content"][0]["text"].get<std::string>().find("outputSchema"), std::string::npos);

  request(8, "tools/call", {{"name", "fails"}});
  json failed = reply(8)["result"];
  EXPECT_EQ(failed["isError"], true);
  EXPECT_EQ(failed["content"][0]["text"], "no results store at /x");
}

TEST_F(McpSession, CancelledCallGetsNoResponse) {
  start();
  initialize();
  request("slow-1", "tools/call", {{"name", "slow"}});
  std::this_thread::sleep_for(20ms);
  send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "slow-1"}, {"reason", "test"}}}});
  // Unknown and malformed cancels are tolerated silently.
  send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 424242}}}});
  send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}});
  session_->wait_idle();
  EXPECT_TRUE(reply("slow-1", 100ms).is_null());
  request(9, "ping");
  EXPECT_EQ(reply(9)["result"], json::object());  // the session carries on
}

TEST_F(McpSession, ProgressKeepsTokenTypeGrowsAndStopsAtTheResponse) {
  start();
  initialize();
  request(1, "tools/call", {{"name", "slow"}, {"arguments", {{"steps", 5}}}, {"_meta", {{"progressToken", 77}}}});
  ASSERT_FALSE(reply(1).is_null());
  session_->wait_idle();
  double last = 0;
  int progress = 0;
  bool after_response = false;
  for (auto& m : messages()) {
    if (m.contains("id") && m["id"] == 1) after_response = true;
    if (m.value("method", "") != "notifications/progress") continue;
    EXPECT_FALSE(after_response);
    EXPECT_TRUE(m["params"]["progressToken"].is_number_integer());
    EXPECT_EQ(m["params"]["progressToken"], 77);
    EXPECT_GT(m["params"]["progress"].get<double>(), last);
    last = m["params"]["progress"];
    ++progress;
  }
  EXPECT_EQ(progress, 5);  // the repeated value each step was dropped
  // Without a token: no progress at all.
  clear();
  request(2, "tools/call", {{"name", "slow"}, {"arguments", {{"steps", 3}}}});
  ASSERT_FALSE(reply(2).is_null());
  for (auto& m : messages()) EXPECT_NE(m.value("method", ""), "notifications/progress");
}

TEST_F(McpSession, BatchesOnlyIn20250326) {
  start();
  initialize("2025-11-25");
  session_->handle_line(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  auto all = messages();
  EXPECT_EQ(all.back()["error"]["code"], rpc::kInvalidRequest);
  EXPECT_TRUE(all.back()["id"].is_null());

  out_.clear();
  session_.reset();
  start();
  initialize("2025-03-26");
  clear();
  session_->handle_line(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},)"
                        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":"b"}}},)"
                        R"({"jsonrpc":"2.0","method":"notifications/initialized"},)"
                        R"({"jsonrpc":"2.0","id":3,"method":"nope"}, 7])");
  session_->wait_idle();
  auto out = messages();
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].is_array());
  EXPECT_EQ(out[0].size(), 4u);  // ping, tools/call, -32601, the invalid element; nothing for the notification
  session_->handle_line("[]");
  EXPECT_EQ(messages().back()["error"]["code"], rpc::kInvalidRequest);
}

TEST_F(McpSession, DuplicateIdInFlightIsRefused) {
  start();
  initialize();
  request(5, "tools/call", {{"name", "slow"}});
  std::this_thread::sleep_for(10ms);
  request(5, "tools/call", {{"name", "echo"}, {"arguments", {{"x", "a"}}}});
  bool refused = false;
  for (auto& m : messages())
    if (m.contains("error") && m["id"].is_null() && m["error"]["code"] == rpc::kInvalidRequest) refused = true;
  EXPECT_TRUE(refused);
  session_->shutdown();  // cancels the slow call and returns once it has stopped
  EXPECT_TRUE(reply(5, 50ms).is_null());
}

TEST_F(McpSession, SecretsNeverLeaveTheServer) {
  start(50, Redactor(std::vector<std::pair<std::string, std::string>>{{"API_TOKEN", "tok-123456789"}}));
  initialize();
  request(1, "tools/call", {{"name", "echo"}, {"arguments", {{"x", "tok-123456789"}}}});
  json r = reply(1);
  EXPECT_EQ(r.dump().find("tok-123456789"), std::string::npos);
  EXPECT_EQ(r["result"]["structuredContent"]["value"], "[redacted:API_TOKEN]");
  request(2, "tok-123456789/method");
  EXPECT_EQ(reply(2).dump().find("tok-123456789"), std::string::npos);
}

TEST_F(McpSession, OversizedAndGarbageLinesGetErrorsWithNullId) {
  start();
  session_->handle_oversized_line(100 << 20);
  session_->handle_line("{{{{");
  session_->handle_line(std::string(1000, '[') + std::string(1000, ']'));
  auto out = messages();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]["error"]["code"], rpc::kInvalidRequest);
  EXPECT_EQ(out[1]["error"]["code"], rpc::kParseError);
  EXPECT_EQ(out[2]["error"]["code"], rpc::kInvalidRequest);
  for (auto& m : out) EXPECT_TRUE(m["id"].is_null());
}

}  // namespace
}  // namespace aisp::mcp
