// One list of a flat record's JSON keys for both directions (core/result.cpp, core/schema.cpp): a record's
// fields function, fields(record, f), calls f(key, member) once per member, and the same list writes and
// reads it, so a key added to one direction cannot be missing from the other.
//   write_record  puts each member under its key (JsonWriter);
//   read_record   reads each key that is present and keeps the member's default where it is absent, so a
//                 document written before the field existed still reads (JsonReader); a present key of the
//                 wrong type throws.
#pragma once
#include <nlohmann/json.hpp>

namespace aisp {

struct JsonWriter {
  nlohmann::json& out;
  template <class T>
  void operator()(const char* key, const T& value) const {
    out[key] = value;
  }
};

struct JsonReader {
  const nlohmann::json& in;
  template <class T>
  void operator()(const char* key, T& value) const {
    value = in.value(key, value);
  }
};

template <class R, class Fields>
nlohmann::json write_record(const R& record, const Fields& fields) {
  nlohmann::json j = nlohmann::json::object();
  fields(record, JsonWriter{j});
  return j;
}

template <class R, class Fields>
R read_record(const nlohmann::json& j, const Fields& fields) {
  R record;
  fields(record, JsonReader{j});
  return record;
}

}  // namespace aisp
