#!/usr/bin/env python3
"""Appends (or replaces) an "Every variant on <GPU> (<date>)" section in each chapter/lab README from one run's
benchmark_test_results.json: target, every variant, median, speedup [95% CI], verdict, memory. Beside the
best-variant tables scripts/readme_results.py generates from the expectations (chapters only, checked by a
test), this is the per-variant view of one run, and the only measured table for labs. The numbers are the
run's own; the section names the run and the measurement document it belongs to.
Usage: readme_variant_table.py RESULTS_JSON "H200 (2026-11-28)" docs/measurements/<doc>.md [chapter ...]"""
import json
import os
import re
import sys


def fmt_ms(ms):
    return f"{ms * 1000:.1f} µs" if ms < 1 else f"{ms:.3f} ms"


def rows_for(chapter, results):
    rows = []
    for c in results["results"]:
        for b in c["benchmarks"]:
            if b["chapter"] != chapter:
                continue
            base = b["baseline"]
            rows.append(f"| `{b['target']}` | baseline | {fmt_ms(base['time_ms']) if base.get('time_ms') else '-'} | - | - | "
                        f"{base.get('memory_mb', 0):.0f} MiB |")
            for v in b.get("optimizations", []):
                t = fmt_ms(v["time_ms"]) if v.get("time_ms") else "-"
                sp = (f"{v['speedup']:.3f}× [{v['ci_low']:.3f}, {v['ci_high']:.3f}]"
                      if v.get("speedup") and v.get("ci_low") is not None else "-")
                rows.append(f"| `{b['target']}` | {v['name']} | {t} | {sp} | {v.get('verdict') or v.get('status')} | "
                            f"{v.get('memory_mb', 0):.0f} MiB |")
    return rows


def main():
    results = json.load(open(sys.argv[1]))
    label, doc = sys.argv[2], sys.argv[3]
    for chapter in sys.argv[4:]:
        readme = os.path.join(chapter if chapter.startswith("labs/") else os.path.join("chapters", chapter), "README.md")
        rows = rows_for(chapter, results)
        if not rows:
            continue
        head = f"## Every variant on {label}"
        section = (f"{head}\n\nFrom `{doc}` (one run, every check on; the speedup of a latency pair "
                   "is that of its judged statistic). Timings are this run's medians.\n\n"
                   "| target | variant | median | speedup [95% CI] | verdict | peak memory |\n|---|---|---|---|---|---|\n"
                   + "\n".join(rows) + "\n")
        text = open(readme).read()
        pattern = re.compile(re.escape(head) + r".*?(?=\n## |\Z)", re.S)
        text = pattern.sub(section.rstrip("\n"), text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
        open(readme, "w").write(text if text.endswith("\n") else text + "\n")
        print(readme, len(rows), "rows")


if __name__ == "__main__":
    main()
