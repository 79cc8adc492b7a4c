#include "runner/rank_group.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <thread>

namespace aisp {

RankGroup::RankGroup(std::vector<std::unique_ptr<VariantWorker>> ranks) : ranks_(std::move(ranks)) {}

template <class F>
std::vector<Reply> RankGroup::each_rank(F&& f) {
  std::vector<Reply> replies(ranks_.size());
  std::vector<std::thread> threads;
  for (size_t r = 0; r < ranks_.size(); ++r) threads.emplace_back([&, r] { replies[r] = f(static_cast<int>(r), *ranks_[r]); });
  for (auto& t : threads) t.join();
  return replies;
}

std::vector<Reply> RankGroup::wait_ready(double timeout_s) {
  return each_rank([&](int, VariantWorker& w) { return w.wait_ready(timeout_s); });
}

std::vector<Reply> RankGroup::request(const json& req, double timeout_s) {
  return each_rank([&](int r, VariantWorker& w) { return w.request(request_for_rank(req, r), timeout_s); });
}

void RankGroup::shutdown(double timeout_s) {
  each_rank([&](int, VariantWorker& w) {
    w.shutdown(timeout_s);
    return Reply{};
  });
}

RankGroup start_rank_group(const RankPlan& plan, const WorkerSpawn& base, const WorkerFactory& factory) {
  std::vector<std::unique_ptr<VariantWorker>> ranks;
  for (const WorkerSpawn& s : rank_spawns(plan, base)) ranks.push_back(factory(s));
  return RankGroup(std::move(ranks));
}

json request_for_rank(const json& req, int rank) {
  json out = req;
  if (out.contains("dir") && out["dir"].is_string())
    out["dir"] = (std::filesystem::path(out["dir"].get<std::string>()) / fmt::format("rank{}", rank)).string();
  return out;
}

std::optional<std::string> first_rank_failure(const std::vector<Reply>& replies) {
  for (size_t r = 0; r < replies.size(); ++r)
    if (!replies[r].ok()) return fmt::format("rank {}: {}", r, replies[r].reason);
  return std::nullopt;
}

RankResult rank_result(int rank, int world_size, const std::vector<TimeReply>& blocks,
                       const std::optional<Verification>& comparison) {
  RankResult r;
  r.rank = rank;
  r.world_size = world_size;
  for (const TimeReply& b : blocks)
    for (const TimedSampleReply& s : b.samples) r.samples_ms.push_back(s.gpu_ms);
  r.outputs_compared = comparison.has_value();
  if (comparison) r.verification = *comparison;
  return r;
}

}  // namespace aisp
