// With no results store yet, `aisp serve` and `aisp bench analyze` use the shipped reference runs
// (results/reference/<gpu>/): built once into a store in the cache directory, opened read-only, and
// labelled as the reference dataset wherever it is shown.
#include <cstdlib>

#include "serve/reference_dataset.hpp"
#include "serve_test_server.hpp"

namespace aisp::serve::testing {
namespace {

TEST(ServeReference, TheShippedRunsBecomeOneLabelledStoreBuiltOnce) {
  TempDir cache;
  setenv("XDG_CACHE_HOME", cache.path.c_str(), 1);
  fs::path root = kSourceDir / "results" / "reference";
  auto runs = reference::run_dirs(root);
  ASSERT_GE(runs.size(), 2u);
  auto d = reference::open({cache.path / "nothing-here", root});
  EXPECT_EQ(d.source, root);
  EXPECT_EQ(d.runs, runs.size());
  EXPECT_EQ(d.store.parent_path(), cache.path / "aisp");
  EXPECT_NE(d.label().find("shipped reference dataset"), std::string::npos);
  EXPECT_NE(d.label().find("read-only"), std::string::npos);
  {
    Store store = Store::open_read_only(d.store);
    EXPECT_EQ(store.list_runs().size(), runs.size()) << "every shipped run is in the store";
  }
  // A second use finds the store instead of building it again.
  auto before = fs::last_write_time(d.store);
  auto again = reference::open({root});
  EXPECT_EQ(again.store, d.store);
  EXPECT_EQ(fs::last_write_time(again.store), before);
  EXPECT_THROW(reference::open({cache.path / "nothing-here"}), std::runtime_error);
  unsetenv("XDG_CACHE_HOME");
}

TEST(ServeReference, TheServerSaysItServesTheReferenceDataset) {
  TestServer plain("", 4);
  EXPECT_EQ(plain.ok("/api/health")["dataset"]["reference"], false);
  TestServer labelled("", 4, [](ServeConfig& c) { c.api.dataset_label = "shipped reference dataset (test)"; });
  json health = labelled.ok("/api/health");
  EXPECT_EQ(health["dataset"]["reference"], true);
  EXPECT_EQ(health["dataset"]["label"], "shipped reference dataset (test)");
  EXPECT_EQ(labelled.ok("/api/summary")["dataset"]["reference"], true);
}

}  // namespace
}  // namespace aisp::serve::testing
