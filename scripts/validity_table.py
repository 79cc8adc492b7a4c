#!/usr/bin/env python3
"""The validity run's artifact and docs/VALIDITY.md's measured table, from one results file.

Usage: scripts/validity_table.py benchmark_test_results.json artifact.json ["GPU, driver, date"]
Writes the trimmed artifact (each validity pair's variant: status, verdict, failed check ids) and prints
the markdown rows for docs/VALIDITY.md's "Measured" table, so the table is copied from the artifact that
is committed beside it (tests/unit/test_validity_inventory.cpp compares the two)."""
import json
import sys

results = json.load(open(sys.argv[1]))
rows = []
for chapter in results["results"]:
    for target in chapter["benchmarks"]:
        for v in [target["baseline"]] + target["optimizations"]:
            failed = sorted((c["id"] for c in v.get("checks", []) if not c["passed"]), key=lambda k: int(k[1:]))
            if v["name"] == "baseline" and not failed:
                continue
            rows.append({"case": target["example"], "variant": v["name"], "status": v["status"],
                         "verdict": v.get("verdict", ""), "failed_checks": failed})
artifact = {"source": "aisp bench run --targets validity --iterations 40 --warmup 2 (tests/gpu/test_validity_fixtures)",
            "gpu": sys.argv[3] if len(sys.argv) > 3 else "", "variants": rows}
json.dump(artifact, open(sys.argv[2], "w"), indent=1)
for r in rows:
    who = r["case"] if r["variant"] != "baseline" else r["case"] + " (baseline)"
    print(f"| {who} | {r['status']} ({r['verdict'] or '-'}) | {', '.join(r['failed_checks']) or 'none'} |")
