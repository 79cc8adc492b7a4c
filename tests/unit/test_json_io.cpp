#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/json_io.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

class JsonIo : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("aisp_json_io_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  template <typename Fn>
  static std::string error_of(Fn fn) {
    try {
      fn();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no exception)";
  }

  fs::path dir_;
};

TEST_F(JsonIo, WritesCreatesParentsAndRoundTripsBinary) {
  fs::path p = dir_ / "a" / "b" / "data.bin";
  std::string bytes("head\0mid\xff\ntail", 14);
  write_file_atomic(p, bytes);
  EXPECT_EQ(read_file(p), bytes);
  write_file_atomic(p, "short");  // replaces, does not append or leave the old tail
  EXPECT_EQ(read_file(p), "short");
  write_file_atomic(p, "");
  EXPECT_EQ(read_file(p), "");
}

TEST_F(JsonIo, LeavesNoTempFiles) {
  fs::path p = dir_ / "results.json";
  for (int i = 0; i < 3; ++i) write_file_atomic(p, std::to_string(i));
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    ++entries;
    EXPECT_EQ(e.path().filename(), "results.json");
  }
  EXPECT_EQ(entries, 1);
}

TEST_F(JsonIo, ReadMissingFileNamesPathAndCause) {
  fs::path p = dir_ / "missing.json";
  std::string msg = error_of([&] { read_file(p); });
  EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file"), std::string::npos) << msg;
}

TEST_F(JsonIo, ReadDirectoryFails) {
  fs::create_directories(dir_);
  EXPECT_THROW(read_file(dir_), std::runtime_error);
}

TEST_F(JsonIo, WriteUnderAFileFailsWithPath) {
  fs::path blocker = dir_ / "blocker";
  write_file_atomic(blocker, "x");
  fs::path p = blocker / "child.json";  // parent is a regular file
  std::string msg = error_of([&] { write_file_atomic(p, "{}"); });
  EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
  EXPECT_EQ(read_file(blocker), "x");
}

TEST_F(JsonIo, WriteOntoADirectoryFailsAndCleansUp) {
  fs::path p = dir_ / "isdir";
  fs::create_directories(p / "inner");
  std::string msg = error_of([&] { write_file_atomic(p, "{}"); });
  EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
  for (const auto& e : fs::directory_iterator(dir_)) EXPECT_EQ(e.path().filename(), "isdir");
}

TEST_F(JsonIo, JsonRoundTripAndParseErrorNamesFile) {
  fs::path p = dir_ / "r.json";
  nlohmann::json j = {{"example", "copy"}, {"speedup", 1.5}, {"samples", {1, 2, 3}}};
  write_json_atomic(p, j);
  EXPECT_EQ(read_json(p), j);
  EXPECT_EQ(read_file(p).back(), '\n');
  write_file_atomic(p, "{\"truncated\": ");
  std::string msg = error_of([&] { read_json(p); });
  EXPECT_NE(msg.find("r.json"), std::string::npos) << msg;
}

}  // namespace
}  // namespace aisp
