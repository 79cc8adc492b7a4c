// Issue 18, hole 3: `--bench-root` plugins are built like the in-tree ones and their cache follows every
// header the compiler read. Needs nvcc and the in-tree plugins (built first by CMake), no GPU: its own
// binary (aisp_plugin_compiler_tests, ctest plugin_compiler_build), kept out of the fast unit binary.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/discovery.hpp"
#include "core/json_io.hpp"
#include "runner/plugin_compiler.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

const fs::path kSource = AISP_SOURCE_DIR;

std::string run(const std::string& cmd, int* code = nullptr) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  if (code) *code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

// The shared libraries a binary asks the loader for, in order (readelf -d, NEEDED entries).
std::vector<std::string> needed(const fs::path& so) {
  int code = 0;
  std::string text = run("readelf -d '" + so.string() + "'", &code);
  EXPECT_EQ(code, 0) << text;
  std::vector<std::string> libs;
  size_t pos = 0;
  while ((pos = text.find("(NEEDED)", pos)) != std::string::npos) {
    size_t open = text.find('[', pos), close = text.find(']', open);
    libs.push_back(text.substr(open + 1, close - open - 1));
    pos = close;
  }
  return libs;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += x + " ";
  return s;
}

struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name) : dir(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
};

CompileSettings settings_in(const fs::path& cache) {
  CompileSettings s = default_compile_settings(kSource / "aisp");  // finds <source>/include
  s.cache_dir = cache;
  return s;
}

TEST(PluginCompiler, ParsesNvccDependencyFiles) {
  auto deps = parse_depfile("/tmp/x.so : a.cu \\\n    /usr/include/stdc-predef.h \\\n    dir\\ with\\ space/h.cuh \\\n    b.h\n");
  ASSERT_EQ(deps.size(), 4u) << joined(deps);
  EXPECT_EQ(deps[0], "a.cu");
  EXPECT_EQ(deps[2], "dir with space/h.cuh");
  EXPECT_EQ(deps[3], "b.h");
  EXPECT_EQ(parse_depfile("out.o: x.cu y.h").size(), 2u);
}

TEST(PluginCompiler, UsesTheInTreeFlags) {
  CompileSettings s = settings_in("/tmp/unused");
  auto has = [&](const std::vector<std::string>& v, const std::string& f) {
    return std::find(v.begin(), v.end(), f) != v.end();
  };
  EXPECT_TRUE(has(s.compile_flags, "-O3")) << joined(s.compile_flags);
  EXPECT_TRUE(has(s.compile_flags, "-lineinfo"));
  EXPECT_TRUE(has(s.compile_flags, "--expt-relaxed-constexpr"));
  EXPECT_TRUE(std::any_of(s.compile_flags.begin(), s.compile_flags.end(),
                          [](auto& f) { return f.rfind("--generate-code=arch=compute_", 0) == 0 || f.rfind("-arch=", 0) == 0; }));
  // The worker must share the plugin's CUDA runtime: never a static one.
  auto cudart = std::find(s.link_flags.begin(), s.link_flags.end(), "-cudart");
  ASSERT_NE(cudart, s.link_flags.end()) << joined(s.link_flags);
  ASSERT_NE(cudart + 1, s.link_flags.end());
  EXPECT_EQ(*(cudart + 1), "shared");
}

// The same chapter sources as bench-root plugins ask the loader for the same libraries, in the same order,
// as the in-tree plugins CMake built (a cuBLAS one and a plain kernel).
TEST(PluginCompiler, BenchRootPluginHasTheInTreeDynamicDependencies) {
  Scratch root("aisp_benchroot_needed"), cache("aisp_benchroot_needed_cache");
  struct Case { std::string chapter, source, header; fs::path in_tree; };
  std::vector<Case> cases{{"ch02", "optimized_cublas.cu", "cublas.cuh", AISP_INTREE_CUBLAS_PLUGIN},
                          {"ch07", "baseline_copy_scalar.cu", "copy_scalar.cuh", AISP_INTREE_COPY_PLUGIN}};
  for (auto& c : cases) {
    fs::create_directories(root.dir / c.chapter);
    for (auto& f : {c.source, c.header})
      fs::copy_file(kSource / "chapters" / c.chapter / f, root.dir / c.chapter / f);
  }
  CompiledTree tree = compile_bench_root(root.dir, settings_in(cache.dir));
  ASSERT_TRUE(tree.failures.empty()) << tree.failures.front();
  EXPECT_EQ(tree.compiled, 2);
  EXPECT_GE(tree.jobs, 1);
  for (auto& c : cases) {
    fs::path built = tree.plugin_root / c.chapter / (fs::path(c.source).stem().string() + ".so");
    ASSERT_TRUE(fs::exists(built)) << built;
    std::vector<std::string> ours = needed(built), theirs = needed(c.in_tree);
    EXPECT_EQ(ours, theirs) << c.source << "\n bench-root: " << joined(ours) << "\n in-tree:    " << joined(theirs);
    EXPECT_TRUE(std::any_of(ours.begin(), ours.end(), [](auto& l) { return l.rfind("libcudart.so", 0) == 0; }))
        << "no shared CUDA runtime: " << joined(ours);
  }
}

// A header outside the source's own folder, edited between two runs, must give a new binary; an
// unchanged tree is reused without calling nvcc.
TEST(PluginCompiler, EditingAnIncludedHeaderInvalidatesTheCache) {
  Scratch root("aisp_benchroot_header"), cache("aisp_benchroot_header_cache");
  fs::create_directories(root.dir / "pair");
  fs::create_directories(root.dir / "common");
  auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
  write(root.dir / "common" / "probe_value.cuh", "#pragma once\nconstexpr int kProbe = 1;\n");
  write(root.dir / "pair" / "baseline_probe.cu",
        "#include \"../common/probe_value.cuh\"\n"
        "__global__ void probe(int* p) { *p = kProbe; }\n"
        "extern \"C\" int launch_probe(int* p) { probe<<<1, 1>>>(p); return static_cast<int>(cudaGetLastError()); }\n");
  CompileSettings s = settings_in(cache.dir);

  CompiledTree first = compile_bench_root(root.dir, s);
  ASSERT_TRUE(first.failures.empty()) << first.failures.front();
  EXPECT_EQ(first.compiled, 1);
  fs::path so1 = fs::read_symlink(first.plugin_root / "pair" / "baseline_probe.so");
  std::string bytes1 = read_file(so1);

  CompiledTree again = compile_bench_root(root.dir, s);
  EXPECT_EQ(again.compiled, 0);
  EXPECT_EQ(again.reused, 1);
  EXPECT_EQ(fs::read_symlink(again.plugin_root / "pair" / "baseline_probe.so"), so1);

  write(root.dir / "common" / "probe_value.cuh", "#pragma once\nconstexpr int kProbe = 2;\n");
  CompiledTree edited = compile_bench_root(root.dir, s);
  ASSERT_TRUE(edited.failures.empty()) << edited.failures.front();
  EXPECT_EQ(edited.compiled, 1) << "an edited header must not reuse the old binary";
  fs::path so2 = fs::read_symlink(edited.plugin_root / "pair" / "baseline_probe.so");
  EXPECT_NE(so2, so1);
  EXPECT_NE(read_file(so2), bytes1);

  // Going back to the first content finds the first binary again.
  write(root.dir / "common" / "probe_value.cuh", "#pragma once\nconstexpr int kProbe = 1;\n");
  CompiledTree back = compile_bench_root(root.dir, s);
  EXPECT_EQ(back.reused, 1);
  EXPECT_EQ(fs::read_symlink(back.plugin_root / "pair" / "baseline_probe.so"), so1);
}

TEST(PluginCompiler, ParallelismIsBoundedByTheJobsSetting) {
  Scratch root("aisp_benchroot_jobs"), cache("aisp_benchroot_jobs_cache");
  for (int i = 0; i < 3; ++i)
    std::ofstream(root.dir / ("baseline_k" + std::to_string(i) + ".cu")) << "__global__ void k" << i << "() {}\n";
  CompileSettings s = settings_in(cache.dir);
  s.jobs = 2;
  CompiledTree tree = compile_bench_root(root.dir, s);
  EXPECT_TRUE(tree.failures.empty());
  EXPECT_EQ(tree.jobs, 2);
  EXPECT_EQ(tree.compiled, 3);
  s.jobs = 0;  // default: the usable cores, never more than the sources
  int jobs = compile_bench_root(root.dir, s).jobs;
  EXPECT_LE(jobs, 3);
  EXPECT_LE(jobs, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

// Issue 23: Python variants under a bench root need no compile but must reach the plugin tree beside the
// compiled ones, as links to their sources (the Python worker resolves the link and imports the helpers
// beside the real file); helper modules stay out, discovery pairs the .py variants with the .cu ones.
TEST(PluginCompiler, PythonVariantsAreLinkedIntoTheTree) {
  Scratch root("aisp_benchroot_python"), cache("aisp_benchroot_python_cache");
  fs::create_directories(root.dir / "chx");
  auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
  write(root.dir / "chx" / "scale_common.py", "N = 4\n");
  write(root.dir / "chx" / "baseline_scale.py", "from scale_common import N\n");
  write(root.dir / "chx" / "optimized_scale_fused.py", "from scale_common import N\n");
  write(root.dir / "chx" / "optimized_scale_cuda.cu", "__global__ void k() {}\n");
  CompiledTree tree = compile_bench_root(root.dir, settings_in(cache.dir));
  ASSERT_TRUE(tree.failures.empty()) << tree.failures.front();
  EXPECT_EQ(tree.compiled, 1);
  const fs::path dir = tree.plugin_root / "chx";
  ASSERT_TRUE(fs::is_symlink(dir / "baseline_scale.py"));
  EXPECT_EQ(fs::read_symlink(dir / "baseline_scale.py"), fs::weakly_canonical(root.dir) / "chx" / "baseline_scale.py");
  EXPECT_TRUE(fs::is_symlink(dir / "optimized_scale_fused.py"));
  EXPECT_FALSE(fs::exists(dir / "scale_common.py")) << "only variants are linked";
  std::vector<std::string> files;
  for (auto& e : fs::recursive_directory_iterator(tree.plugin_root))
    if (e.is_symlink() || e.is_regular_file()) files.push_back(e.path().lexically_relative(tree.plugin_root).string());
  auto targets = discover_targets(files, ".so");
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0].id, "chx:scale");
  EXPECT_EQ(targets[0].baseline.file, "chx/baseline_scale.py");
  ASSERT_EQ(targets[0].optimized.size(), 2u);
  EXPECT_EQ(targets[0].optimized[0].file, "chx/optimized_scale_cuda.so");
  EXPECT_EQ(targets[0].optimized[1].file, "chx/optimized_scale_fused.py");
}

}  // namespace
}  // namespace aisp
