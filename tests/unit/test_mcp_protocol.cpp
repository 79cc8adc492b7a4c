// MCP protocol layer, without processes: JSON-RPC classification and its error codes, the hostile-input
// limits, the schema validator the server applies to arguments and results, secret redaction, and the
// result trimming that keeps lines under the clients' 10 MiB limit.
#include <gtest/gtest.h>

#include <string>

#include "mcp/json_rpc.hpp"
#include "mcp/redact.hpp"
#include "mcp/schema.hpp"
#include "mcp/result_size_limits.hpp"

namespace aisp::mcp {
namespace {

Message classify_text(const std::string& text) {
  ParsedLine p = parse_line(text);
  EXPECT_TRUE(p.ok) << text;
  return classify(p.value);
}

TEST(McpJsonRpc, RequestNotificationResponse) {
  Message r = classify_text(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_EQ(r.kind, MessageKind::request);
  EXPECT_EQ(r.id, json(7));
  EXPECT_TRUE(r.params.is_null());  // absent params are fine

  Message s = classify_text(R"({"jsonrpc":"2.0","id":"7","method":"tools/list","params":{}})");
  EXPECT_EQ(s.kind, MessageKind::request);
  EXPECT_TRUE(s.id.is_string());  // "7" stays a string: the reply must echo the type
  EXPECT_NE(id_key(r.id), id_key(s.id));

  EXPECT_EQ(classify_text(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").kind,
            MessageKind::notification);
  EXPECT_EQ(classify_text(R"({"jsonrpc":"2.0","id":3,"result":{}})").kind, MessageKind::response);
}

TEST(McpJsonRpc, MalformedShapesAreInvalidRequests) {
  struct Case {
    const char* text;
    bool id_kept;  // the error can be addressed to the request's id
  };
  for (Case c : {Case{R"([])", false}, Case{R"(42)", false}, Case{R"("ping")", false}, Case{R"(null)", false},
                 Case{R"({"id":1,"method":"ping"})", true},             // no jsonrpc
                 Case{R"({"jsonrpc":"1.0","id":1,"method":"ping"})", true},
                 Case{R"({"jsonrpc":2.0,"id":1,"method":"ping"})", true},
                 Case{R"({"jsonrpc":"2.0","id":null,"method":"ping"})", false},  // MCP: never null
                 Case{R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", false},
                 Case{R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", false},
                 Case{R"({"jsonrpc":"2.0","id":[1],"method":"ping"})", false},
                 Case{R"({"jsonrpc":"2.0","id":true,"method":"ping"})", false},
                 Case{R"({"jsonrpc":"2.0","id":5,"method":42})", true},
                 Case{R"({"jsonrpc":"2.0","id":5})", true},
                 Case{R"({"jsonrpc":"2.0","id":5,"method":"ping","params":"x"})", true},
                 Case{R"({"jsonrpc":"2.0","id":5,"method":"ping","params":3})", true}}) {
    ParsedLine p = parse_line(c.text);
    ASSERT_TRUE(p.ok) << c.text;
    if (p.value.is_array()) continue;  // batches are the session's business
    Message m = classify(p.value);
    EXPECT_EQ(m.kind, MessageKind::invalid) << c.text;
    EXPECT_EQ(m.error_code, rpc::kInvalidRequest) << c.text;
    EXPECT_EQ(!m.id.is_null(), c.id_kept) << c.text;
  }
}

TEST(McpJsonRpc, ParseErrorsAndLimits) {
  EXPECT_EQ(parse_line("not json").error_code, rpc::kParseError);
  EXPECT_EQ(parse_line(R"({"jsonrpc":"2.0",)").error_code, rpc::kParseError);
  EXPECT_EQ(parse_line("{\"a\":\"\xff\xfe\"}").error_code, rpc::kParseError);  // invalid UTF-8

  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  ParsedLine d = parse_line(deep);
  EXPECT_FALSE(d.ok);
  EXPECT_EQ(d.error_code, rpc::kInvalidRequest);
  EXPECT_NE(d.error.find("nested"), std::string::npos);
  // Brackets inside strings are not nesting.
  EXPECT_EQ(nesting_depth(R"({"a":"[[[[[[[[","b":[1,[2]]})", 64), 3);
  EXPECT_EQ(nesting_depth(R"({"a":"\"[[[["})", 64), 1);

  Limits small;
  small.max_line_bytes = 10;
  EXPECT_EQ(parse_line(R"({"jsonrpc":"2.0"})", small).error_code, rpc::kInvalidRequest);

  // Largest exact integer ids survive; one beyond uint64 becomes a float and is refused.
  Message big = classify_text(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})");
  EXPECT_EQ(big.kind, MessageKind::request);
  EXPECT_EQ(make_result(big.id, json::object()).dump().find("18446744073709551615") != std::string::npos, true);
  EXPECT_EQ(classify_text(R"({"jsonrpc":"2.0","id":100000000000000000000000,"method":"ping"})").kind,
            MessageKind::invalid);
  std::string long_id = R"({"jsonrpc":"2.0","id":")" + std::string(1000, 'x') + R"(","method":"ping"})";
  EXPECT_EQ(classify_text(long_id).kind, MessageKind::invalid);
}

TEST(McpJsonRpc, QuoteInputIsShortAndPrintable) {
  EXPECT_EQ(quote_input("tools/list"), "tools/list");
  std::string q = quote_input(std::string(10000, 'a'), 64);
  EXPECT_LT(q.size(), 100u);
  EXPECT_NE(q.find("10000 bytes"), std::string::npos);
  EXPECT_EQ(quote_input("a\nb\x1b[31m"), "a?b?[31m");
  // Cut inside a two-byte character: never half a character.
  std::string cut = quote_input("aaaa\xc3\xa9\xc3\xa9", 5);
  EXPECT_EQ(cut.substr(0, 4), "aaaa");
  EXPECT_EQ(cut[4], '.');
}

TEST(McpSchema, ValidatesTheSubsetToolsUse) {
  namespace s = schema;
  json in = s::object({{"target", s::string("t", 10)},
                       {"mode", s::string_enum("m", {"cold", "hot"})},
                       {"n", s::integer("n", 1, 100)},
                       {"x", s::number("x", 0, 1)},
                       {"flags", s::array("f", s::boolean("b"), 2)},
                       {"maybe", s::nullable(s::number("m"))}},
                      {"target"}, true);
  EXPECT_TRUE(s::validate(json{{"target", "ch07"}}, in).empty());
  EXPECT_TRUE(s::validate(json{{"target", "ch07"}, {"n", 5.0}, {"maybe", nullptr}}, in).empty());  // 5.0 is an integer
  auto errors = s::validate(json::object(), in);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("missing required property \"target\""), std::string::npos);
  EXPECT_FALSE(s::validate(json{{"target", 5}}, in).empty());
  EXPECT_FALSE(s::validate(json{{"target", "01234567890"}}, in).empty());  // maxLength
  EXPECT_FALSE(s::validate(json{{"target", "a"}, {"mode", "warm"}}, in).empty());
  EXPECT_FALSE(s::validate(json{{"target", "a"}, {"n", 0}}, in).empty());
  EXPECT_FALSE(s::validate(json{{"target", "a"}, {"n", 2.5}}, in).empty());
  EXPECT_FALSE(s::validate(json{{"target", "a"}, {"x", 1.5}}, in).empty());
  EXPECT_FALSE(s::validate(json{{"target", "a"}, {"flags", {true, 1}}}, in).empty());
  EXPECT_FALSE(s::validate(json{{"target", "a"}, {"flags", {true, true, true}}}, in).empty());
  auto extra = s::validate(json{{"target", "a"}, {"evil", 1}}, in);
  ASSERT_EQ(extra.size(), 1u);
  EXPECT_NE(extra[0].find("/evil"), std::string::npos);
  // Character count, not bytes: "ééééé" is five characters.
  EXPECT_TRUE(s::validate(json{{"target", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"}}, in).empty());
  // Errors quote at most a short preview of the value.
  auto long_value = s::validate(json{{"target", "a"}, {"mode", std::string(5000, 'z')}}, in);
  ASSERT_FALSE(long_value.empty());
  EXPECT_LT(long_value[0].size(), 300u);
}

TEST(McpSchema, BuildersProduceObjectRoots) {
  namespace s = schema;
  json o = s::object({}, {}, true);
  EXPECT_EQ(o["type"], "object");
  EXPECT_EQ(o["additionalProperties"], false);
  EXPECT_FALSE(o.contains("$schema"));  // the SDK compiles schemas as draft-07
  EXPECT_EQ(s::nullable(s::string("x"))["type"], json::array({"string", "null"}));
}

TEST(McpRedactor, ReplacesSecretValuesEverywhere) {
  EXPECT_TRUE(Redactor::is_secret_name("GITHUB_TOKEN"));
  EXPECT_TRUE(Redactor::is_secret_name("aws_secret_access_key"));
  EXPECT_TRUE(Redactor::is_secret_name("OPENAI_API_KEY"));
  EXPECT_FALSE(Redactor::is_secret_name("PATH"));
  EXPECT_FALSE(Redactor::is_secret_name("CUDA_VISIBLE_DEVICES"));
  Redactor r(std::vector<std::pair<std::string, std::string>>{{"MY_TOKEN", "hunter2-value"}, {"SHORT_TOKEN", "abc"}});
  EXPECT_EQ(r.redact("target ch07:hunter2-value unknown"), "target ch07:[redacted:MY_TOKEN] unknown");
  EXPECT_EQ(r.redact("abc stays: too short to be worth redacting"), "abc stays: too short to be worth redacting");
  json j = {{"text", "x hunter2-value y"}, {"hunter2-value", {1, "hunter2-valuehunter2-value"}}};
  r.redact_in_place(j);
  std::string dumped = j.dump();
  EXPECT_EQ(dumped.find("hunter2"), std::string::npos) << dumped;
  EXPECT_NE(dumped.find("[redacted:MY_TOKEN][redacted:MY_TOKEN]"), std::string::npos);
}

TEST(McpTrim, CutsLongArraysAndStringsAndSaysWhere) {
  json v = {{"samples", json::array()}, {"log", std::string(50000, 'x')}, {"ok", 1}};
  for (int i = 0; i < 1000; ++i) v["samples"].push_back(i);
  ResultSizeLimits limits;
  limits.max_items = 10;
  limits.max_string_chars = 100;
  json cuts;
  json out = shorten_for_client(v, limits, cuts);
  EXPECT_EQ(out["samples"].size(), 10u);
  EXPECT_EQ(out["ok"], 1);
  EXPECT_LE(out["log"].get<std::string>().size(), 103u);
  ASSERT_EQ(cuts.size(), 2u);
  EXPECT_EQ(cuts[1]["path"], "/samples");
  EXPECT_EQ(cuts[1]["total"], 1000);

  // Over the total budget: the item limit halves until it fits.
  limits.max_items = 1000;
  limits.max_string_chars = 100;
  limits.max_total_chars = 2000;
  out = shorten_for_client(v, limits, cuts);
  EXPECT_LE(out.dump().size(), 2000u);
  EXPECT_FALSE(cuts.empty());
}

}  // namespace
}  // namespace aisp::mcp
