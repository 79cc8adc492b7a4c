#!/usr/bin/env python3
"""Measure and record the between-run spread of a target's speedup in its expectation entry.

An expectation is one run's speedup and CI. The CI covers the sampling noise of that run only; another
run of the same code can land elsewhere because the machine differs (host CPU, VM, driver state: ch03's
host-bound pairs) or because the run's seeded inputs differ (a latency pair's p50/p99 depends on the trace
drawn; `bench run` now pools several traces per verdict, --trace-replicates, so its CI covers that part). `aisp bench run` widens the recorded band by an entry's `between_machine_spread` s
(src/core/expectation_check.hpp); this script measures s from runs instead of anyone typing it:

    s = max over runs of max(run / recorded, recorded / run) - 1      (best speedups, same hardware key)

for the targets named on the command line only, and writes it when it exceeds the entry's current s, with
`between_machine_spread_from` saying which runs it came from. A run that failed verification or validity
does not count. Usage:

    scripts/expectation_spread.py --hardware h200 --runs RUN.json [RUN.json ...] --targets ch16:runtime_scheduler ...
"""
import argparse
import glob
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTED = {"succeeded", "failed_regression", "failed_no_speedup"}


def chapter_dir(chapter):
    for d in (os.path.join(ROOT, "chapters", chapter), os.path.join(ROOT, chapter)):
        if os.path.isdir(d):
            return d
    return None


def run_speedups(paths):
    """target id -> best speedups of the runs that measured it validly."""
    out = {}
    for p in paths:
        doc = json.load(open(p))
        for r in doc.get("results", []):
            for b in r.get("benchmarks", []):
                if b.get("status") in COUNTED and b.get("best_speedup", 0) > 0:
                    out.setdefault(b["target"], []).append(b["best_speedup"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hardware", required=True, help="hardware key of the runs and the files (h200, ...)")
    ap.add_argument("--runs", nargs="+", required=True, help="benchmark_test_results.json of each run")
    ap.add_argument("--targets", nargs="+", required=True, help="target ids to measure the spread of")
    ap.add_argument("--note", default="", help="where the runs came from (written beside the spread)")
    ap.add_argument("--dry-run", action="store_true", help="print, write nothing")
    a = ap.parse_args()
    measured = run_speedups(a.runs)
    code = 0
    for target in a.targets:
        chapter, key = target.split(":", 1)
        d = chapter_dir(chapter)
        path = d and os.path.join(d, f"expectations_{a.hardware}.json")
        if not path or not os.path.exists(path):
            print(f"{target}: no expectations_{a.hardware}.json", file=sys.stderr)
            code = 1
            continue
        doc = json.load(open(path))
        entry = doc["examples"].get(key)
        runs = measured.get(target, [])
        if entry is None or not runs:
            print(f"{target}: {'no entry' if entry is None else 'no valid run measured it'}", file=sys.stderr)
            code = 1
            continue
        recorded = entry["metrics"]["best_speedup"]
        s = max(max(x / recorded, recorded / x) for x in runs) - 1
        s = math.ceil(s * 100) / 100  # two decimals, rounded up
        old = entry.get("between_machine_spread", 0)
        lo, hi = min(runs + [recorded]), max(runs + [recorded])
        print(f"{target}: recorded {recorded:.3f}x, {len(runs)} runs {', '.join(f'{x:.3f}' for x in runs)}; "
              f"spread {s:.2f} (was {old})")
        if s <= old or a.dry_run:
            continue
        entry["between_machine_spread"] = s
        entry["between_machine_spread_from"] = (f"{len(runs)} runs + the recorded one, {lo:.3f}x-{hi:.3f}x"
                                                + (f" ({a.note})" if a.note else "") + " (scripts/expectation_spread.py)")
        with open(path + ".tmp", "w") as f:
            json.dump(doc, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(path + ".tmp", path)
    return code


if __name__ == "__main__":
    sys.exit(main())
