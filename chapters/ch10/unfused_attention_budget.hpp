// Can the unfused ("math path") attention run at this sequence length? Pure host decisions, no CUDA, so a
// CPU test proves them (tests/unit/test_unfused_attention_budget.cpp).
//
// The unfused attention (attention_unfused.cuh) materializes the fp32 scores S and the bf16 probabilities P
// for every head: bh x seq^2 x 6 bytes, quadratic in the length that `--axis seq` sweeps (24 GiB at 16
// heads x 16384). Its softmax holds a row in registers up to 8192 keys and in shared memory beyond, so a
// row must fit the device's opt-in shared memory per block (58 K keys on Hopper's 227 KiB). A length that
// breaks either limit must end in setup() with the numbers, not in a cudaMalloc failure naming no input,
// and never in a kernel that quietly handles part of a row (which is what the register-only softmax did for
// rows past 8192 keys before this check existed: ch20's transformer_block baseline at seq 12288 produced
// wrong outputs and the harness had to catch it as a failed verification).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace unfused_budget {

inline double gib(double bytes) { return bytes / 1073741824.0; }

// S (fp32) and P (bf16) of bh heads of seq x seq.
inline double score_and_prob_bytes(int64_t bh, int64_t seq) {
  return static_cast<double>(bh) * static_cast<double>(seq) * static_cast<double>(seq) * (4.0 + 2.0);
}

// Empty when the softmax can hold a row of `seq` keys; otherwise why not. Rows are read as float4, so the
// length must be a multiple of 4; past the register path's 8192 a row (seq x 4 B) lives in shared memory.
inline std::string row_problem(int64_t seq, int64_t register_row_max, int64_t max_smem_bytes) {
  char buf[320];
  if (seq <= 0 || seq % 4 != 0) {
    std::snprintf(buf, sizeof buf, "the unfused softmax reads rows as float4: seq must be a positive multiple of 4 (got %lld)",
                  static_cast<long long>(seq));
    return buf;
  }
  if (seq <= register_row_max || seq * 4 <= max_smem_bytes) return {};
  std::snprintf(buf, sizeof buf,
                "the unfused softmax keeps a row of %lld keys (%lld B of fp32) in shared memory, and this device "
                "allows %lld B per block (at most %lld keys): use a smaller --axis seq",
                static_cast<long long>(seq), static_cast<long long>(seq * 4), static_cast<long long>(max_smem_bytes),
                static_cast<long long>(max_smem_bytes / 4));
  return buf;
}

// Empty when S, P and the pair's other buffers fit in the free device memory; otherwise the reason, naming
// the numbers and the axis that makes them smaller.
inline std::string memory_shortfall(int64_t bh, int64_t seq, double other_bytes, double free_bytes, double total_bytes) {
  const double sp = score_and_prob_bytes(bh, seq);
  if (sp + other_bytes <= free_bytes) return {};
  char buf[480];
  std::snprintf(buf, sizeof buf,
                "the unfused attention's scores and probabilities need %.1f GiB (%lld heads x %lld^2 x 6 B) + %.1f "
                "GiB of other buffers = %.1f GiB; the device has %.1f GiB free of %.1f GiB: use a smaller --axis seq",
                gib(sp), static_cast<long long>(bh), static_cast<long long>(seq), gib(other_bytes), gib(sp + other_bytes),
                gib(free_bytes), gib(total_bytes));
  return buf;
}

}  // namespace unfused_budget
