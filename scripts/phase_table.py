#!/usr/bin/env python3
"""Where a run's wall time went: per-phase seconds summed over targets (phase_seconds in the results
JSON), the top targets by harness time, and the GPU time the variants' timed samples account for.
Usage: phase_table.py RESULTS_JSON [--top N]"""
import json
import sys


def main():
    path = sys.argv[1]
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 8
    doc = json.load(open(path))
    targets = [b for r in doc["results"] for b in r["benchmarks"]]
    phases, per_target = {}, []
    for t in targets:
        ps = t.get("phase_seconds") or {}
        for k, v in ps.items():
            phases[k or "(none)"] = phases.get(k or "(none)", 0.0) + v
        variants = [t["baseline"]] + t.get("optimizations", [])
        gpu_s = sum(sum(v.get("raw_times_ms") or []) for v in variants) / 1e3
        samples = sum(len(v.get("raw_times_ms") or []) for v in variants)
        per_target.append((sum(ps.values()), t["target"], ps, gpu_s, samples))
    total = sum(phases.values())
    print(f"{len(targets)} targets, {total:.1f} s in phases")
    print("| phase | seconds | share |\n|---|---:|---:|")
    for k, v in sorted(phases.items(), key=lambda kv: -kv[1]):
        print(f"| {k} | {v:.1f} | {100 * v / total:.0f}% |")
    gpu = sum(p[3] for p in per_target)
    print(f"\ntimed GPU seconds (sum of raw samples): {gpu:.1f} s ({100 * gpu / total:.0f}% of the phases)")
    print(f"\n| target | wall s | timed GPU s | samples | " + " | ".join(sorted(phases)) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(phases))
    for wall, name, ps, gpu_s, n in sorted(per_target, reverse=True)[:top]:
        cells = " | ".join(f"{ps.get(k if k != '(none)' else '', 0):.1f}" for k in sorted(phases))
        print(f"| {name} | {wall:.1f} | {gpu_s:.2f} | {n} | {cells} |")


if __name__ == "__main__":
    main()
