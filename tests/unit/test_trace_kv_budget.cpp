// Issue 24, bad input: a request trace that needs more KV cache than the device has free must end in a
// clear error naming the numbers. chapters/ch15/trace_kv_budget.hpp is the pure part of that decision (the
// footprint of a trace and the comparison with free memory); ch15:inference_monolithic calls it in setup()
// with cudaMemGetInfo's numbers and throws the message (tests/gpu/test_trace_budget.cpp: on the GPU).
#include <gtest/gtest.h>

#include <string>

#include "../../chapters/ch15/trace_kv_budget.hpp"

namespace {

constexpr double kGiB = 1073741824.0;

std::vector<aisp::TraceRequest> three_requests() {
  // arrival, prompt, output, id
  return {{0, 100, 10, 0}, {5, 200, 20, 1}, {9, 300, 30, 2}};
}

TEST(TraceKvBudget, FootprintSumsTheTokensTheCacheKeeps) {
  auto t = three_requests();
  auto prompt = trace_kv::footprint(t, 1024, trace_kv::Rows::prompt, 4096);
  EXPECT_EQ(prompt.requests, 3);
  EXPECT_EQ(prompt.tokens, 600);
  EXPECT_DOUBLE_EQ(prompt.kv_bytes(), 600.0 * 1024);
  EXPECT_DOUBLE_EQ(prompt.total_bytes(), 600.0 * 1024 + 4096);
  auto both = trace_kv::footprint(t, 1024, trace_kv::Rows::prompt_and_output, 0);
  EXPECT_EQ(both.tokens, 660);  // a cache that also keeps every generated token's K/V
  EXPECT_DOUBLE_EQ(both.kv_bytes(), 660.0 * 1024);
}

TEST(TraceKvBudget, FitsUpToTheLastFreeByteAndNotOneByteMore) {
  auto f = trace_kv::footprint(three_requests(), 1024, trace_kv::Rows::prompt, 4096);
  const double need = 600.0 * 1024 + 4096;
  EXPECT_EQ(trace_kv::shortfall(f, need, 2 * need, "--axis requests"), "");
  EXPECT_EQ(trace_kv::shortfall(f, need + 1, 2 * need, "--axis requests"), "");
  EXPECT_NE(trace_kv::shortfall(f, need - 1, 2 * need, "--axis requests"), "");
  EXPECT_NE(trace_kv::shortfall(f, 0, 2 * need, "--axis requests"), "");
}

// The message of the example: 4096 requests of 8192 prompt tokens, 8 KV heads x 128 x 2 (K, V) x
// bf16 = 4 KiB per token: 128 GiB of KV cache, against a device with 100 GiB free.
TEST(TraceKvBudget, TheMessageNamesEveryNumber) {
  std::vector<aisp::TraceRequest> t;
  for (int i = 0; i < 4096; ++i) t.push_back({i * 30, 8192, 64, i});
  auto f = trace_kv::footprint(t, 4096, trace_kv::Rows::prompt, 0.5 * kGiB);
  std::string why = trace_kv::shortfall(f, 100 * kGiB, 140.5 * kGiB, "--axis requests=... / --axis prompt_max=...");
  ASSERT_FALSE(why.empty());
  for (const char* part : {"needs 128.0 GiB of KV cache", "4096 requests x 8192.0 prompt tokens on average",
                           "= 33554432 tokens x 4096 B per token", "+ 0.5 GiB of other buffers = 128.5 GiB",
                           "the device has 100.0 GiB free of 140.5 GiB", "--axis requests=... / --axis prompt_max=..."})
    EXPECT_NE(why.find(part), std::string::npos) << "missing '" << part << "' in: " << why;
  // Never worded as an out-of-memory error: the worker would file it as kind "oom" (a CUDA allocation that
  // failed), and this is a bad input, refused before anything was allocated.
  EXPECT_EQ(why.find("out of memory"), std::string::npos) << why;
}

// The traces ch15:inference_monolithic declares (TraceSpec as its setup() builds it: prompts P/8..P,
// outputs 16-64, 1 KiB per prompt token): the default fits a small GPU; --axis requests=1M (the command
// the README gives) needs ~576 GiB and is refused on an H200 with ~140 GiB free.
aisp::TraceSpec monolithic_spec(int32_t requests, int32_t prompt_max) {
  aisp::TraceSpec s;
  s.requests = requests;
  s.mean_interarrival_us = 30;
  s.prompt_min = prompt_max / 8, s.prompt_max = prompt_max;
  s.output_min = 16, s.output_max = 64;
  return s;
}

TEST(TraceKvBudget, InferenceMonolithicDefaultFitsOneMillionRequestsDoNot) {
  const double free_h200 = 139.8 * kGiB, total_h200 = 140.4 * kGiB;
  auto small = aisp::generate_request_trace(42, monolithic_spec(32, 1024));
  auto f_small = trace_kv::footprint(small, 1024, trace_kv::Rows::prompt, 2.0 * 32 * 1024 + 32 * 4);
  EXPECT_LT(f_small.total_bytes(), 64.0 * 1024 * 1024);  // 32 prompts of at most 1024 rows: <= 32 MiB + x, y
  EXPECT_EQ(trace_kv::shortfall(f_small, 1.0 * kGiB, 2.0 * kGiB, "x"), "");

  const int32_t n = 1 << 20;
  auto big = aisp::generate_request_trace(42, monolithic_spec(n, 1024));
  auto f_big = trace_kv::footprint(big, 1024, trace_kv::Rows::prompt, 2.0 * n * 1024 + 4.0 * n);
  // Prompts uniform in 128..1024: mean 576 tokens, so ~576 GiB (the sum of 2^20 draws is within 0.2%).
  EXPECT_NEAR(f_big.kv_bytes() / kGiB, 576.0, 576.0 * 0.002);
  std::string why = trace_kv::shortfall(f_big, free_h200, total_h200, "--axis requests=... / --axis prompt_max=...");
  ASSERT_FALSE(why.empty());
  EXPECT_NE(why.find("1048576 requests x 57"), std::string::npos) << why;
  EXPECT_NE(why.find("the device has 139.8 GiB free of 140.4 GiB"), std::string::npos) << why;
}

// A trace far beyond any device: the token count stays exact (int64) and the byte count (double) cannot
// wrap to something small that would pass.
TEST(TraceKvBudget, HugeTracesCannotOverflowIntoFitting) {
  trace_kv::Footprint f;
  f.requests = int64_t{1} << 24;
  f.tokens = (int64_t{1} << 24) * ((int64_t{1} << 31) - 1);
  f.bytes_per_token = 1024;
  EXPECT_GT(f.kv_bytes(), 3.6e19);  // 2^65 bytes: an int64 byte count would have wrapped
  EXPECT_NE(trace_kv::shortfall(f, 1e15, 1e15, "x"), "");
}

}  // namespace
