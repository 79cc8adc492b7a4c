// What the expectation tests build on (test_expectations.cpp, test_expectation_spread.cpp): a measured
// target with a known speedup and interval, and a source tree of one chapter to write expectation files in.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/expectation_check.hpp"
#include "core/expectations.hpp"
#include "core/result.hpp"
#include "core/stats.hpp"
#include "core/verdict.hpp"

namespace aisp {

// A measured target of `chapter`: baseline 2 ms (three samples), one optimized variant named `example` at
// `speedup` with CI [low, high], verdict FASTER; the target and the variant have the status `outcome`.
inline TargetResult measured_target(const std::string& chapter, const std::string& example, double speedup, double low,
                                    double high, const std::string& outcome) {
  TargetResult t;
  t.id = chapter + ":" + example;
  t.chapter = chapter;
  t.example = example;
  t.status = outcome;
  t.mode = "cold";
  t.baseline.name = "baseline";
  t.baseline.status = status::succeeded;
  t.baseline.samples_ms = {2.0, 2.0, 2.0};
  t.baseline.timing = summarize(t.baseline.samples_ms);
  VariantResult o;
  o.name = example;
  o.status = outcome;
  o.samples_ms = {2.0 / speedup, 2.0 / speedup, 2.0 / speedup};
  o.timing = summarize(o.samples_ms);
  o.speedup = speedup, o.ci_low = low, o.ci_high = high, o.verdict = "FASTER";
  t.optimizations = {o};
  t.best_speedup = speedup;
  t.best_optimization = example;
  return t;
}

// <tmp>/aisp_exp_test_<pid>_<test name>/chapters/<chapter>, removed with this object.
struct ChapterTree {
  std::filesystem::path path;
  std::string chapter;
  explicit ChapterTree(const std::string& chapter_name) : chapter(chapter_name) {
    path = std::filesystem::temp_directory_path() / ("aisp_exp_test_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path / "chapters" / chapter);
  }
  ~ChapterTree() { std::filesystem::remove_all(path); }
  // The chapter's expectation file for `hardware_key`.
  std::filesystem::path expectations_file(const std::string& hardware_key) const {
    return expectations_path(path / "chapters" / chapter, hardware_key);
  }
  // The run check over this tree: enabled, the file written only when a test asks (update).
  ExpectationCheckOptions check_options() const {
    ExpectationCheckOptions o;
    o.enabled = true;
    o.source_root = path;
    return o;
  }
};

}  // namespace aisp
