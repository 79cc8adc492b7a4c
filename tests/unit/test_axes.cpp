#include <gtest/gtest.h>
#include <stdlib.h>

#include "aisp/axes.hpp"
#include "core/axes.hpp"

namespace aisp {
namespace {

TEST(Axes, ListsSuffixesAndPowers) {
  AxisSpec s = parse_axis_spec("n=1024,4K,1M,2^30,3");
  EXPECT_EQ(s.name, "n");
  EXPECT_EQ(s.values, (std::vector<int64_t>{1024, 4096, 1 << 20, int64_t{1} << 30, 3}));
  EXPECT_EQ(parse_axis_spec("batch_size=2G").values, (std::vector<int64_t>{int64_t{2} << 30}));
}

TEST(Axes, PowerOfTwoRangesWithAndWithoutStep) {
  EXPECT_EQ(parse_axis_spec("n=2^20..2^23").values,
            (std::vector<int64_t>{1 << 20, 1 << 21, 1 << 22, 1 << 23}));
  EXPECT_EQ(parse_axis_spec("n=2^20..2^28:4").values, (std::vector<int64_t>{1 << 20, 1 << 24, 1 << 28}));
  EXPECT_EQ(parse_axis_spec("n=2^5..2^5").values, (std::vector<int64_t>{32}));
}

TEST(Axes, BadSpecsSayWhatIsWrong) {
  auto message = [](const std::string& spec) {
    try {
      parse_axis_spec(spec);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("n").find("expected <name>=<values>"), std::string::npos);
  EXPECT_NE(message("n=").find("no values"), std::string::npos);
  EXPECT_NE(message("n=12x").find("unknown suffix"), std::string::npos);
  EXPECT_NE(message("n=-4").find("positive"), std::string::npos);
  EXPECT_NE(message("n=0").find("positive"), std::string::npos);
  EXPECT_NE(message("n=1,,2").find("empty value"), std::string::npos);
  EXPECT_NE(message("n=2^28..2^20").find("a <= b"), std::string::npos);
  EXPECT_NE(message("n=100..200").find("powers of two"), std::string::npos);
  EXPECT_NE(message("n=2^70").find("0..62"), std::string::npos);
  EXPECT_NE(message("n=9999999999999999G").find("too large"), std::string::npos);
  EXPECT_NE(message("n-x=4").find("letters, digits"), std::string::npos);
}

TEST(Axes, PointsAreTheCartesianProductAndLabelTheTargetId) {
  auto points = axis_points({parse_axis_spec("n=1,2"), parse_axis_spec("k=8,16,32")});
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(axis_point_label(points[0]), "k=8,n=1");
  EXPECT_EQ(axis_point_label(points[5]), "k=32,n=2");
  EXPECT_EQ(axis_points({}).size(), 1u);
  EXPECT_THROW(axis_points({parse_axis_spec("n=1"), parse_axis_spec("n=2")}), std::invalid_argument);

  Target t{"ch07:copy_scalar", "ch07", "copy_scalar", {}, {}, {}};
  Target at = at_axis_point(t, {{"n", 1048576}});
  EXPECT_EQ(at.id, "ch07:copy_scalar[n=1048576]");
  EXPECT_EQ(at.axes.at("n"), 1048576);
  EXPECT_EQ(at_axis_point(t, {}).id, "ch07:copy_scalar");
}

TEST(Axes, PluginSideReadsTheValueTheSupervisorSets) {
  unsetenv("AISP_AXIS_unit_n");
  EXPECT_EQ(axis("unit_n", 42), 42);
  setenv("AISP_AXIS_unit_n", "1048576", 1);
  EXPECT_EQ(axis("unit_n", 42), 1048576);
  setenv("AISP_AXIS_unit_n", "12abc", 1);
  EXPECT_THROW(axis("unit_n", 42), std::invalid_argument);
  unsetenv("AISP_AXIS_unit_n");
}

}  // namespace
}  // namespace aisp
