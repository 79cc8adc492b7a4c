#include "runner/verify_outputs.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/output_comparison.hpp"
#include "core/json_io.hpp"

namespace aisp {

void compare_check_outputs(const json& base, const json& cand, const ToleranceChoice& tol, Verification& v) {
  if (!tol.justification.empty()) v.tolerance_justification = tol.justification;
  for (auto& bo : base.at("outputs")) {
    std::string name = bo.at("name");
    const json* co = nullptr;
    for (auto& c : cand.at("outputs"))
      if (c.at("name") == name) co = &c;
    if (!co) throw std::runtime_error(fmt::format("output '{}' is missing in the variant", name));
    if (co->at("dtype") != bo.at("dtype") || co->at("shape") != bo.at("shape"))
      throw std::runtime_error(fmt::format("output '{}' differs in dtype/shape: {} {} vs {} {}", name,
                                           bo.at("dtype").dump(), bo.at("shape").dump(), co->at("dtype").dump(),
                                           co->at("shape").dump()));
    DType dt = *dtype_from_name(bo.at("dtype").get<std::string>());
    ToleranceValues t = default_tolerance(dt);
    if (tol.rtol >= 0) t.rtol = tol.rtol;
    if (tol.atol >= 0) t.atol = tol.atol;
    v.rtol = t.rtol;
    v.atol = t.atol;
    std::string a = read_file(bo.at("file").get<std::string>());
    std::string b = read_file(co->at("file").get<std::string>());
    if (a.size() != b.size()) throw std::runtime_error(fmt::format("output '{}' files differ in size", name));
    int64_t count = static_cast<int64_t>(a.size() / dtype_size(dt));
    CompareResult r = compare_buffers(a.data(), b.data(), count, dt, t);
    v.compared += r.count;
    v.unwritten += co->value("unwritten", int64_t{0});
    if (r.mismatches && !v.mismatches) {
      v.first_mismatch = r.first_mismatch;
      v.output = name;
    }
    v.mismatches += r.mismatches;
    v.max_abs_error = std::max(v.max_abs_error, r.max_abs_error);
    v.max_rel_error = std::max(v.max_rel_error, r.max_rel_error);
  }
  v.passed = v.mismatches == 0 && v.unwritten == 0;
}

}  // namespace aisp
