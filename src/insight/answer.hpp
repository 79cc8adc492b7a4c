// What `aisp ai explain|ask|suggest` returns: facts taken from what aisp measured (a stored run, its
// profiles, the hardware ceilings), each citing where it came from, a short rule-written summary over
// them, what is missing, and ranked suggestions. Nothing here comes from a model's memory: an optional
// endpoint may only rewrite `summary` and `facts` into prose (prose_endpoint.hpp), and the citations stay.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace aisp::insight {

using json = nlohmann::json;

// Where a fact came from: a stored run, a stored profile (or a profile file), the ceilings file, a data table.
struct Citation {
  std::string id;      // "run 8", "profile 3", "ceilings", "patterns": what facts refer to
  std::string kind;    // run | profile | ceilings | patterns
  std::string detail;  // the run key and hardware, the profile's file or creation time, the file path
};

struct Fact {
  std::string topic;  // verdict | technique | roofline | counters | bottleneck | ceiling | energy | status
  std::string target, variant;
  std::string text;              // one sentence with the numbers
  json values = json::object();  // the numbers the sentence states, by name (null when not measured)
  std::string cite;              // a Citation id
};

struct Suggestion {
  std::string target, pattern, title;
  double score = 0;                  // priority x headroom (data/optimization_patterns.json says how)
  std::string why;                   // the measured fact that selects this row
  std::vector<std::string> fixes;    // not yet tried by a measured variant of the target
  std::vector<std::string> applied;  // "fix (already applied in variant X, 6.2x)"
  std::vector<std::string> cites;
};

struct Answer {
  std::string command;               // explain | ask | suggest
  std::string subject;               // the target or the question
  std::vector<std::string> summary;  // rule-written sentences over the facts
  std::vector<Fact> facts;
  std::vector<std::string> missing;  // data that would sharpen the answer and how to get it
  std::vector<Suggestion> suggestions;
  std::vector<Citation> citations;
  std::string source;  // the store or files read
  std::string prose;   // set only when an endpoint rewrote the facts
  std::string prose_model;

  void cite(const Citation& c);  // adds once per id
};

json to_json(const Answer& a);
// The terminal form: summary, facts grouped by target with their citation, suggestions, missing data,
// then the citations.
std::string to_text(const Answer& a);

}  // namespace aisp::insight
