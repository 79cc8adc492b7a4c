#include "core/discovery.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

namespace aisp {

namespace {

constexpr std::string_view kBaseline = "baseline_";
constexpr std::string_view kOptimized = "optimized_";

struct ChapterFiles {
  std::map<std::string, std::string> baselines;  // example -> file
  std::map<std::string, std::string> optimized;   // variant name -> file
};

bool ignored_stem(std::string_view stem) {
  // The seed's submission templates are scaffolding for contributors, not benchmarks.
  return stem == "baseline_submission" || stem.starts_with("optimized_submission");
}

// The baseline an optimized variant belongs to: the longest baseline name equal to it or followed by
// "_<suffix>", so baseline_x_fast claims optimized_x_fast_v2 from baseline_x.
const std::string* owner_of(const std::string& variant, const std::map<std::string, std::string>& baselines) {
  const std::string* best = nullptr;
  for (const auto& [name, file] : baselines) {
    bool match = variant == name || (variant.size() > name.size() && variant.starts_with(name) &&
                                     variant[name.size()] == '_');
    if (match && (!best || name.size() > best->size())) best = &name;
  }
  return best;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// Records `file` under `key`; a compiled variant wins over a Python file of the same stem, whatever the
// order of the listing.
void add_variant(std::map<std::string, std::string>& into, const std::string& key, const std::string& file) {
  auto [it, inserted] = into.emplace(key, file);
  if (!inserted && is_python_variant(it->second) && !is_python_variant(file)) it->second = file;
}

}  // namespace

bool is_python_variant(const std::string& file) {
  const std::string_view py = kPythonVariantExtension;
  return file.size() > py.size() && file.ends_with(py);
}

std::vector<Target> discover_targets(const std::vector<std::string>& files, const std::string& ext) {
  std::map<std::string, ChapterFiles> chapters;
  for (const std::string& file : files) {
    const size_t ext_size = is_python_variant(file) ? std::string_view(kPythonVariantExtension).size() : ext.size();
    if (!is_python_variant(file) && (file.size() <= ext.size() || !file.ends_with(ext))) continue;
    size_t slash = file.rfind('/');
    if (slash == std::string::npos || slash == 0) continue;  // a target always lives in a chapter/lab dir
    std::string chapter = file.substr(0, slash);
    std::string stem = file.substr(slash + 1, file.size() - ext_size - slash - 1);
    if (ignored_stem(stem)) continue;
    if (stem.starts_with(kBaseline) && stem.size() > kBaseline.size())
      add_variant(chapters[chapter].baselines, stem.substr(kBaseline.size()), file);
    else if (stem.starts_with(kOptimized) && stem.size() > kOptimized.size())
      add_variant(chapters[chapter].optimized, stem.substr(kOptimized.size()), file);
  }

  std::vector<Target> out;
  for (const auto& [chapter, cf] : chapters) {
    std::map<std::string, Target> by_example;
    for (const auto& [variant, file] : cf.optimized) {
      const std::string* owner = owner_of(variant, cf.baselines);
      if (!owner) continue;  // an optimized file with no baseline has nothing to be compared with
      Target& t = by_example[*owner];
      if (t.id.empty()) {
        t.id = chapter + ":" + *owner;
        t.chapter = chapter;
        t.example = *owner;
        t.baseline = {"baseline", cf.baselines.at(*owner)};
      }
      t.optimized.push_back({variant, file});  // std::map iteration: already sorted by name
    }
    for (auto& [example, t] : by_example) out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(), [](const Target& a, const Target& b) { return a.id < b.id; });
  return out;
}

Selection select_targets(const std::vector<Target>& all, const std::vector<std::string>& selectors) {
  // Per target: whole (all variants) or the set of variants named through aliases.
  std::vector<bool> whole(all.size(), false);
  std::vector<std::set<std::string>> aliased(all.size());
  Selection sel;
  for (std::string s : selectors) {
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    bool matched = false;
    if (s == "all") {
      std::fill(whole.begin(), whole.end(), true);
      matched = true;  // "all" of an empty tree is empty, not an unknown selector
    }
    for (size_t i = 0; i < all.size() && !matched; ++i)
      if (all[i].id == s) whole[i] = matched = true;
    if (!matched)
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].chapter == s) whole[i] = matched = true;
    if (!matched) {
      // Variant alias, as in the seed: "ch07:copy_scalar_v2" runs copy_scalar's baseline against v2 only.
      size_t colon = s.rfind(':');
      if (colon != std::string::npos) {
        std::string chapter = s.substr(0, colon), variant = s.substr(colon + 1);
        for (size_t i = 0; i < all.size() && !matched; ++i) {
          if (all[i].chapter != chapter) continue;
          for (const Variant& v : all[i].optimized)
            if (v.name == variant) {
              aliased[i].insert(variant);
              matched = true;
            }
        }
      }
    }
    if (!matched && std::find(sel.unknown.begin(), sel.unknown.end(), s) == sel.unknown.end())
      sel.unknown.push_back(s);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    if (whole[i]) {
      sel.targets.push_back(all[i]);
    } else if (!aliased[i].empty()) {
      Target t = all[i];
      std::erase_if(t.optimized, [&](const Variant& v) { return !aliased[i].count(v.name); });
      sel.targets.push_back(std::move(t));
    }
  }
  return sel;
}

std::vector<std::string> closest_names(const std::vector<Target>& all, const std::string& query, int limit) {
  std::set<std::string> names;
  for (const Target& t : all) {
    names.insert(t.id);
    names.insert(t.chapter);
  }
  const std::string q = lower(query);
  const size_t max_distance = std::max<size_t>(3, q.size() / 2);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& name : names) {
    size_t d = edit_distance(q, lower(name));
    if (d <= max_distance) scored.emplace_back(d, name);
  }
  std::sort(scored.begin(), scored.end());  // by distance, then name
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && static_cast<int>(i) < limit; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace aisp
