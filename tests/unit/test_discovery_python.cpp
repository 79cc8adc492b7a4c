// Python variants in discovery (issue 23): baseline_<x>.py / optimized_<x>[_<suffix>].py pair by the seed's
// rules beside compiled ones, a pair may mix .so/.cu and .py variants, and the supervisor starts the
// Python worker for a .py variant and `aisp worker` for the rest.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/discovery.hpp"
#include "runner/worker_process.hpp"

namespace aisp {
namespace {

using Strings = std::vector<std::string>;

Strings names(const std::vector<Variant>& vs) {
  Strings out;
  for (const auto& v : vs) out.push_back(v.name);
  return out;
}

const Target* find(const std::vector<Target>& ts, const std::string& id) {
  for (const auto& t : ts)
    if (t.id == id) return &t;
  return nullptr;
}

TEST(DiscoveryPython, PythonPairsAndMixedPairs) {
  auto ts = discover_targets({"ch07/baseline_saxpy_torch.py", "ch07/optimized_saxpy_torch_fused.py",
                              "ch07/optimized_saxpy_torch_triton.py", "ch07/saxpy_torch_common.py",
                              "ch07/baseline_copy.so", "ch07/optimized_copy.so", "ch07/optimized_copy_torch.py",
                              "ch08/baseline_only.py", "ch08/__init__.py", "ch08/optimized_only.pyc"},
                             ".so");
  ASSERT_EQ(ts.size(), 2u);
  const Target* saxpy = find(ts, "ch07:saxpy_torch");
  ASSERT_NE(saxpy, nullptr);
  EXPECT_EQ(saxpy->baseline.file, "ch07/baseline_saxpy_torch.py");
  EXPECT_EQ(names(saxpy->optimized), (Strings{"saxpy_torch_fused", "saxpy_torch_triton"}));
  const Target* copy = find(ts, "ch07:copy");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->baseline.file, "ch07/baseline_copy.so");
  ASSERT_EQ(copy->optimized.size(), 2u);
  EXPECT_EQ(copy->optimized[1].file, "ch07/optimized_copy_torch.py");
  EXPECT_EQ(find(ts, "ch08:only"), nullptr);  // a .pyc is not a variant
}

TEST(DiscoveryPython, TheCompiledVariantWinsOverAPythonFileOfTheSameStemInAnyOrder) {
  for (const Strings& files : {Strings{"c/baseline_a.py", "c/baseline_a.cu", "c/optimized_a.cu", "c/optimized_a.py"},
                               Strings{"c/baseline_a.cu", "c/baseline_a.py", "c/optimized_a.py", "c/optimized_a.cu"}}) {
    auto ts = discover_targets(files, ".cu");
    ASSERT_EQ(ts.size(), 1u);
    EXPECT_EQ(ts[0].baseline.file, "c/baseline_a.cu");
    EXPECT_EQ(ts[0].optimized.at(0).file, "c/optimized_a.cu");
  }
}

TEST(DiscoveryPython, IsPythonVariant) {
  EXPECT_TRUE(is_python_variant("ch07/optimized_x.py"));
  EXPECT_FALSE(is_python_variant("ch07/optimized_x.so"));
  EXPECT_FALSE(is_python_variant("ch07/optimized_x.pyc"));
  EXPECT_FALSE(is_python_variant(".py"));
}

TEST(WorkerCommand, CompiledVariantsRunAispWorkerAndPythonVariantsThePythonWorker) {
  WorkerSpawn s;
  s.aisp_exe = "/opt/aisp/build/aisp";
  s.plugin = "/opt/aisp/build/plugins/ch07/baseline_copy.so";
  s.validity = false;
  WorkerCommand plugin = worker_command(s);
  EXPECT_EQ(plugin.argv, (Strings{"/opt/aisp/build/aisp", "worker", "--plugin", s.plugin, "--validity", "off"}));
  EXPECT_TRUE(plugin.env.empty());

  unsetenv("AISP_PYTHON");
  s.plugin = "/opt/aisp/build/plugins/ch07/optimized_saxpy_torch_fused.py";
  s.validity = true;
  WorkerCommand py = worker_command(s);
  EXPECT_EQ(py.argv, (Strings{"python3", "-m", "aisp.worker", "--benchmark", s.plugin, "--validity", "on"}));
  std::map<std::string, std::string> env(py.env.begin(), py.env.end());
  EXPECT_EQ(env.at("AISP_WORKER_LIBRARY"), "/opt/aisp/build/lib/libaisp_worker.so");
  // No python/ beside this made-up build tree: the source tree's package.
  EXPECT_EQ(env.at("PYTHONPATH").rfind("/python"), env.at("PYTHONPATH").size() - 7) << env.at("PYTHONPATH");
  setenv("AISP_PYTHON", "/usr/bin/python3.12", 1);
  EXPECT_EQ(worker_command(s).argv.at(0), "/usr/bin/python3.12");
  unsetenv("AISP_PYTHON");
}

}  // namespace
}  // namespace aisp
