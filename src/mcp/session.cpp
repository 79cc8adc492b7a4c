#include "mcp/session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "mcp/schema.hpp"

namespace aisp::mcp {

namespace {

// The 2025-03-26 revision predates structured tool output and titles, and is the only one with batches.
bool has_structured_output(const std::string& version) { return version != "2025-03-26"; }

json text_result(const std::string& text, bool is_error) {
  return {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", is_error}};
}

std::string id_text(const json& id) { return quote_input(id.dump(), 40); }

}  // namespace

struct Session::Call {
  json id;
  std::string tool;
  std::atomic<bool> cancelled{false};
  json progress_token;  // null: the client did not ask for progress
  double last_progress = -std::numeric_limits<double>::infinity();
  bool responded = false;  // under Session::mutex_: no progress after the response
};

Session::Session(std::vector<Tool> tools, Sink sink, SessionOptions options)
    : tools_(std::move(tools)), sink_(std::move(sink)), options_(std::move(options)) {
  std::string names;
  for (size_t i = 0; i < tools_.size(); ++i) {
    by_name_[tools_[i].name] = i;
    names += tools_[i].name + ",";
  }
  tools_fingerprint_ = fmt::format("{:x}", std::hash<std::string>{}(names) & 0xffffffffu);
  if (options_.page_size == 0) options_.page_size = 50;
}

Session::~Session() { shutdown(); }

std::string Session::protocol_version() const {
  std::lock_guard lock(mutex_);
  return version_;
}

void Session::log(const std::string& line) const {
  if (options_.log) options_.log(line);
}

void Session::send(json message) {
  options_.redactor.redact_in_place(message);
  std::lock_guard lock(mutex_);
  sink_(message);
}

void Session::handle_oversized_line(size_t bytes) {
  log(fmt::format("dropped a {}-byte line (limit {})", bytes, options_.limits.max_line_bytes));
  send(make_error(nullptr, rpc::kInvalidRequest,
                  fmt::format("Invalid Request: message exceeds the {}-byte limit", options_.limits.max_line_bytes)));
}

void Session::handle_line(std::string_view line) {
  ParsedLine p = parse_line(line, options_.limits);
  if (!p.ok) {
    send(make_error(nullptr, p.error_code, p.error));
    return;
  }
  if (p.value.is_array()) {
    handle_batch(p.value);
    return;
  }
  dispatch(p.value, [this](json r) {
    if (!r.is_null()) send(std::move(r));
  });
}

void Session::dispatch(const json& value, const Reply& reply) {
  Message m = classify(value, options_.limits);
  switch (m.kind) {
    case MessageKind::invalid: reply(make_error(m.id, m.error_code, m.error)); return;
    case MessageKind::response: log("ignored a response from the client (this server sends no requests)"); return;
    case MessageKind::notification: handle_notification(m); return;
    case MessageKind::request: handle_request(m, reply); return;
  }
}

void Session::handle_batch(const json& batch) {
  std::string version = protocol_version();
  if (version != "2025-03-26") {
    send(make_error(nullptr, rpc::kInvalidRequest,
                    version.empty() ? "Invalid Request: batches are not accepted before initialize"
                                    : "Invalid Request: JSON-RPC batches exist only in protocol version 2025-03-26; "
                                      "this session uses " + version));
    return;
  }
  if (batch.empty()) {
    send(make_error(nullptr, rpc::kInvalidRequest, "Invalid Request: empty batch"));
    return;
  }
  // One reply array once every request in the batch has answered (tools/call answer on their threads).
  struct Collector {
    std::mutex m;
    json responses = json::array();
    size_t pending = 0;
  };
  auto c = std::make_shared<Collector>();
  size_t answering = 0;
  for (auto& v : batch) {
    Message m = classify(v, options_.limits);
    answering += m.kind == MessageKind::request || m.kind == MessageKind::invalid;
  }
  if (answering == 0) {
    for (auto& v : batch) dispatch(v, [](json) {});
    return;
  }
  c->pending = answering;
  Reply collect = [this, c](json r) {
    json done;
    {
      std::lock_guard lock(c->m);
      if (!r.is_null()) c->responses.push_back(std::move(r));
      if (--c->pending > 0) return;
      done = std::move(c->responses);
    }
    if (!done.empty()) send(std::move(done));
  };
  for (auto& v : batch) dispatch(v, collect);
}

void Session::handle_notification(const Message& m) {
  if (m.method == "notifications/initialized") {
    if (!initialized_) log("notifications/initialized before initialize: ignored");
    return;
  }
  if (m.method == "notifications/cancelled") {
    // Unknown or finished ids are normal (the call raced its own response): never an error.
    if (!m.params.is_object() || !m.params.contains("requestId")) return;
    std::lock_guard lock(mutex_);
    auto it = in_flight_.find(id_key(m.params["requestId"]));
    if (it != in_flight_.end()) {
      it->second->cancelled = true;
      if (options_.log) options_.log(fmt::format("cancel requested for {} ({})", id_text(it->second->id), it->second->tool));
    }
    return;
  }
  // Other notifications (roots/list_changed, progress for requests we never sent ...) need no action.
}

void Session::handle_request(const Message& m, const Reply& reply) {
  if (m.method == "ping") {
    reply(make_result(m.id, json::object()));
    return;
  }
  if (m.method == "initialize") {
    if (initialized_) {
      reply(make_error(m.id, rpc::kInvalidRequest, "Invalid Request: the session is already initialized"));
      return;
    }
    if (!m.params.is_object() || !m.params.contains("protocolVersion") || !m.params["protocolVersion"].is_string()) {
      reply(make_error(m.id, rpc::kInvalidParams, "Invalid params: initialize needs a string \"protocolVersion\""));
      return;
    }
    reply(make_result(m.id, initialize(m.params)));
    return;
  }
  bool known = m.method == "tools/list" || m.method == "tools/call";
  if (!known) {
    // Also before initialize: a client probing for a newer protocol era (server/discover) needs a prompt
    // "method not found" to fall back to initialize.
    reply(make_error(m.id, rpc::kMethodNotFound, "Method not found: " + quote_input(m.method)));
    return;
  }
  if (!initialized_) {
    reply(make_error(m.id, rpc::kInvalidRequest,
                     "Invalid Request: the session is not initialized (send initialize first)"));
    return;
  }
  if (!m.params.is_null() && !m.params.is_object()) {
    reply(make_error(m.id, rpc::kInvalidParams, "Invalid params: params must be an object"));
    return;
  }
  if (m.method == "tools/list") {
    json page = list_tools(m.params);
    if (page.contains("error")) reply(make_error(m.id, rpc::kInvalidParams, page["error"].get<std::string>()));
    else reply(make_result(m.id, std::move(page)));
    return;
  }
  call_tool(m, reply);
}

json Session::initialize(const json& params) {
  std::string requested = params["protocolVersion"].get<std::string>();
  bool supported = std::find(kSupportedProtocolVersions.begin(), kSupportedProtocolVersions.end(), requested) !=
                   kSupportedProtocolVersions.end();
  std::string version = supported ? requested : kSupportedProtocolVersions.front();
  {
    std::lock_guard lock(mutex_);
    version_ = version;
    client_info_ = params.value("clientInfo", json::object());
  }
  initialized_ = true;
  const json& ci = client_info_;
  log(fmt::format("initialize: client {} {}, protocol {} -> {}",
                  ci.is_object() && ci.contains("name") && ci["name"].is_string() ? quote_input(ci["name"].get<std::string>()) : "?",
                  ci.is_object() && ci.contains("version") && ci["version"].is_string() ? quote_input(ci["version"].get<std::string>()) : "",
                  quote_input(requested), version));
  json info = {{"name", options_.server_name}, {"version", options_.server_version}};
  if (has_structured_output(version)) info["title"] = options_.server_title;
  json result = {{"protocolVersion", version},
                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                 {"serverInfo", info}};
  if (!options_.instructions.empty()) result["instructions"] = options_.instructions;
  return result;
}

json Session::describe_tool(const Tool& tool, const std::string& version) {
  json t = {{"name", tool.name}, {"description", tool.description}, {"inputSchema", tool.input_schema}};
  if (!tool.annotations.is_null()) t["annotations"] = tool.annotations;
  if (has_structured_output(version)) {
    if (!tool.title.empty()) t["title"] = tool.title;
    t["outputSchema"] = tool.output_schema;
  }
  return t;
}

json Session::list_tools(const json& params) {
  size_t offset = 0;
  if (params.is_object() && params.contains("cursor") && !params["cursor"].is_null()) {
    // Cursors are "<offset>.<fingerprint of the tool list>": opaque to clients, and one from another
    // server build is refused rather than silently paging through a different list.
    const json& cursor = params["cursor"];
    bool ok = false;
    if (cursor.is_string()) {
      const std::string& s = cursor.get_ref<const std::string&>();
      auto dot = s.find('.');
      if (dot != std::string::npos && dot > 0 && dot <= 6 && s.substr(dot + 1) == tools_fingerprint_ &&
          std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(dot), [](char c) { return c >= '0' && c <= '9'; })) {
        offset = std::stoul(s.substr(0, dot));
        ok = offset < tools_.size();
      }
    }
    if (!ok) return {{"error", "Invalid params: unknown or expired cursor"}};
  }
  std::string version = protocol_version();
  json page = json::array();
  size_t end = std::min(tools_.size(), offset + options_.page_size);
  for (size_t i = offset; i < end; ++i) page.push_back(describe_tool(tools_[i], version));
  json result = {{"tools", std::move(page)}};
  if (end < tools_.size()) result["nextCursor"] = fmt::format("{}.{}", end, tools_fingerprint_);
  return result;
}

void Session::call_tool(const Message& m, const Reply& reply) {
  const json& p = m.params;
  if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) {
    reply(make_error(m.id, rpc::kInvalidParams, "Invalid params: tools/call needs a string \"name\""));
    return;
  }
  const std::string& name = p["name"].get_ref<const std::string&>();
  auto found = by_name_.find(name);
  if (found == by_name_.end()) {
    reply(make_error(m.id, rpc::kInvalidParams, "Unknown tool: " + quote_input(name)));
    return;
  }
  json arguments = p.contains("arguments") && !p["arguments"].is_null() ? p["arguments"] : json::object();
  if (!arguments.is_object()) {
    reply(make_error(m.id, rpc::kInvalidParams, "Invalid params: \"arguments\" must be an object"));
    return;
  }
  const Tool& tool = tools_[found->second];
  auto call = std::make_shared<Call>();
  call->id = m.id;
  call->tool = tool.name;
  if (p.contains("_meta") && p["_meta"].is_object() && p["_meta"].contains("progressToken")) {
    const json& token = p["_meta"]["progressToken"];
    if (token.is_string() || token.is_number_integer()) call->progress_token = token;  // echoed with its type
  }
  std::string key = id_key(m.id);
  enum class Admit { ok, duplicate, busy } admit = Admit::ok;
  size_t running = 0;
  {
    std::lock_guard lock(mutex_);
    running = running_;
    if (in_flight_.count(key)) admit = Admit::duplicate;
    else if (shutting_down_ || running_ >= options_.max_concurrent_calls) admit = Admit::busy;
    else {
      in_flight_[key] = call;
      ++running_;
    }
  }
  if (admit == Admit::duplicate) {
    // Ids must be unique among requests in flight; an answer carrying it would be matched to the first
    // request, so the error goes out with id null.
    reply(make_error(nullptr, rpc::kInvalidRequest, "Invalid Request: id " + id_text(m.id) + " is already in use"));
    return;
  }
  if (admit == Admit::busy) {
    reply(make_result(m.id, text_result(fmt::format("server busy: {} tool calls are already running; retry when one "
                                                    "has finished", running), true)));
    return;
  }
  // Validation errors are tool results (2025-11-25, SEP-1303), so a model can read and correct them.
  auto problems = schema::validate(arguments, tool.input_schema);
  std::thread([this, call, key, &tool, arguments = std::move(arguments), problems, reply, id = m.id] {
    auto t0 = std::chrono::steady_clock::now();
    json result;
    if (!problems.empty()) {
      std::string text = "invalid arguments for " + tool.name + ":";
      for (auto& pr : problems) text += "\n  " + pr;
      result = text_result(text, true);
    } else {
      result = run_tool(tool, arguments, *call);
    }
    bool cancelled = call->cancelled.load();
    {
      std::lock_guard lock(mutex_);
      call->responded = true;
      in_flight_.erase(key);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    log(fmt::format("tools/call {} (id {}) {} in {:.2f} s", tool.name, id_text(id),
                    cancelled ? "cancelled" : result.value("isError", false) ? "-> isError" : "-> ok", s));
    // A cancelled request gets no response (the spec's SHOULD); the client has stopped waiting for it.
    reply(cancelled ? json(nullptr) : make_result(id, std::move(result)));
    std::lock_guard lock(mutex_);
    --running_;
    idle_.notify_all();
  }).detach();
}

json Session::run_tool(const Tool& tool, const json& arguments, Call& call) {
  ToolCall tc{arguments, call.cancelled, [this, &call](double progress, double total, const std::string& message) {
                if (call.progress_token.is_null()) return;
                json params = {{"progressToken", call.progress_token}, {"progress", progress}};
                if (total > 0) params["total"] = total;
                if (!message.empty()) params["message"] = message;
                json n = make_notification("notifications/progress", std::move(params));
                options_.redactor.redact_in_place(n);
                std::lock_guard lock(mutex_);
                // Progress must grow and must stop once the response is out (the SDK rejects a token it
                // no longer knows).
                if (call.responded || call.cancelled || !(progress > call.last_progress)) return;
                call.last_progress = progress;
                sink_(n);
              }};
  try {
    json structured = tool.run(tc);
    if (call.cancelled) return nullptr;
    auto problems = schema::validate(structured, tool.output_schema);
    if (!problems.empty()) {
      // Sending it would make a validating client throw on the whole call; say what broke instead.
      std::string text = "internal error: " + tool.name + " produced a result that does not match its outputSchema:";
      for (auto& p : problems) text += "\n  " + p;
      log(text);
      return text_result(text, true);
    }
    json cuts;
    json trimmed = shorten_for_client(structured, options_.size_limits, cuts);
    if (!cuts.empty() && trimmed.is_object()) trimmed["_trimmed"] = cuts;
    json result = text_result(trimmed.dump(2, ' ', false, json::error_handler_t::replace), false);
    if (has_structured_output(protocol_version())) result["structuredContent"] = std::move(trimmed);
    return result;
  } catch (const ToolError& e) {
    return text_result(e.what(), true);
  } catch (const std::exception& e) {
    log(fmt::format("{} threw: {}", tool.name, e.what()));
    return text_result(std::string("internal error in ") + tool.name + ": " + e.what(), true);
  }
}

void Session::shutdown() {
  std::unique_lock lock(mutex_);
  shutting_down_ = true;
  for (auto& [key, call] : in_flight_) call->cancelled = true;
  idle_.wait(lock, [&] { return running_ == 0; });
}

void Session::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return running_ == 0; });
}

}  // namespace aisp::mcp
