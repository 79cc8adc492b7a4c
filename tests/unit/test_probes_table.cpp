// CPU tests of the hw probes' terminal table and number formatting (src/probes/report_table.hpp).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "probes/probe_math.hpp"
#include "probes/report_table.hpp"

using namespace aisp::probes;

static std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

TEST(ProbesTable, NumbersPickDecimalsByMagnitudeAndNaNIsADash) {
  EXPECT_EQ(fmt_num(3166.4), "3166");
  EXPECT_EQ(fmt_num(801.94), "801.9");
  EXPECT_EQ(fmt_num(66.657), "66.66");
  EXPECT_EQ(fmt_num(1.25), "1.25");
  EXPECT_EQ(fmt_num(0.9641), "0.964");
  EXPECT_EQ(fmt_num(kNaN), "-");
  EXPECT_EQ(fmt_num(2.0, 0), "2");
  EXPECT_EQ(fmt_pct(94.53), "94.5%");
  EXPECT_EQ(fmt_pct(kNaN), "-");
}

TEST(ProbesTable, ColumnsAlignLeftAndRight) {
  TextTable t({"figure", "value", "unit"}, "lrl");
  t.add({"HBM read kernel", "3166", "GB/s"});
  t.add({"L1", "32.38", "cycles"});
  auto l = lines(t.render());
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0], "figure           value  unit");
  EXPECT_EQ(l[1], std::string(l[0].size() + 2, '-'));  // rule spans the widest cells ("cycles")
  EXPECT_EQ(l[2], "HBM read kernel   3166  GB/s");
  EXPECT_EQ(l[3], "L1               32.38  cycles");
}

TEST(ProbesTable, WidthCountsCodePointsNotBytes) {
  EXPECT_EQ(display_width("±10 %"), 5u);
  EXPECT_EQ(display_width("32–40"), 5u);
  TextTable t({"goal", "x"}, "lr");
  t.add({"±10 %", "1"});
  t.add({"abcde", "2"});
  auto l = lines(t.render());
  EXPECT_EQ(display_width(l[2]), display_width(l[3]));
}

TEST(ProbesTable, ShortRowsArePaddedAndIndentApplies) {
  TextTable t({"a", "b", "c"}, "lll");
  t.add({"x"});
  auto l = lines(t.render("  "));
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2], "  x");
  EXPECT_EQ(l[0].rfind("  a", 0), 0u);
}
