#!/usr/bin/env python3
"""Chapter README results tables, generated from the committed expectations.

Each chapters/chNN/README.md carries, between
    <!-- aisp:results <hwkey> begin -->  and  <!-- aisp:results <hwkey> end -->
a table made from chapters/chNN/expectations_<hwkey>.json (speedups, CIs, times, samples, provenance) and,
for % of roof, `aisp bench analyze --data <run>` over the run the expectations were written from
(provenance.run_dir, committed under results/reference/). Nothing is typed in: rerun this after
`aisp bench run --update-expectations` (or `aisp bench expectations --update-from RUN`).

    scripts/readme_results.py [--hardware all|h100_80gb_hbm3|h200] [--aisp build/aisp]  # rewrite the tables
    scripts/readme_results.py --check                                                   # exit 1 if stale
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def markers(hw):
    return f"<!-- aisp:results {hw} begin -->", f"<!-- aisp:results {hw} end -->"


def find_run(run_dir):
    """The run directory as recorded, else its copy under results/reference/ (runs made on a GPU machine
    record that machine's path), else under docs/measurements/runs/ (runs that did not finish, kept as
    evidence: the results store and the dashboard's reference data take only finished runs)."""
    if run_dir and (ROOT / run_dir).is_dir():
        return ROOT / run_dir
    name = pathlib.PurePath(run_dir).name if run_dir else ""
    copies = sorted((ROOT / "results" / "reference").glob(f"*/{name}")) if name else []
    copies += sorted((ROOT / "docs" / "measurements" / "runs").glob(f"{name}*")) if name else []
    return copies[0] if copies else None


def analysis_rows(aisp, run_dir):
    """(target, variant) -> analysis row, from the run the expectations came from; {} without it."""
    run = find_run(run_dir)
    if not aisp or not run:
        return {}
    out = subprocess.run([aisp, "bench", "analyze", "--data", str(run), "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"aisp bench analyze --data {run_dir} failed: {out.stderr.strip()}")
    rows = json.loads(out.stdout)["result"]["rows"]
    return {(r["target"], r["variant"]): r for r in rows}


def calibrated(prov):
    """Whether the run applied an A/A calibration (its manifest names the noise-floor file)."""
    run = find_run(prov.get("run_dir", ""))
    if not run or not (run / "manifest.json").exists():
        return False
    return "noise_floor" in json.loads((run / "manifest.json").read_text())


def run_name(prov):
    run = find_run(prov.get("run_dir", ""))
    return str(run.relative_to(ROOT)) if run else prov.get("run_dir", "?")


def fmt_ms(ms):
    return f"{ms * 1000:.1f} µs" if ms < 1 else f"{ms:.3f} ms"


def roof(row):
    if not row or row.get("roofline_pct") is None:
        return "-"
    return f"{row['roofline_pct']:.1f}% ({row.get('bound', '?')})"


def table(chapter, hw, aisp):
    path = ROOT / "chapters" / chapter / f"expectations_{hw}.json"
    doc = json.loads(path.read_text())
    entries = [doc["examples"][k] for k in sorted(doc["examples"])]
    if not entries:
        return None
    prov = entries[0]["provenance"]
    # Entries can come from different runs (a pair re-run later): each row's % of roof comes from its own.
    run_of = {e["target"]: e["provenance"].get("run_dir", "") for e in entries}
    run_dirs = sorted(set(run_of.values()))
    rows = {}
    for run_dir in run_dirs:
        rows.update({k: v for k, v in analysis_rows(aisp, run_dir).items() if run_of.get(k[0]) == run_dir})
    runs = ", ".join(f"`{run_name({'run_dir': d})}`" for d in run_dirs)
    lines = [
        f"Measured by the harness on {prov['gpu']} (driver {prov['driver_version']}, CUDA {prov['cuda_version']}), "
        f"{prov['timestamp'][:10]}, {prov['mode']} mode, every validity check on; generated from "
        f"`expectations_{hw}.json` by `scripts/readme_results.py` (run{'s' if len(run_dirs) > 1 else ''}: {runs}). "
        "Speedup = baseline median / optimized median with its bootstrap 95% CI"
        + (", widened by the between-process spread of this GPU's A/A calibration" if calibrated(prov) else
           " (no A/A calibration on this GPU: the interval covers sampling noise only)")
        + "; % of roof = achieved bytes/s or FLOP/s against the ceiling the analysis names (memory or compute bound).",
        "",
        "| Target | Best variant | Baseline | Optimized | Speedup [95% CI] | Verdict | Samples (b/o) "
        "| % of roof: baseline → optimized |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in entries:
        m, md, p = e["metrics"], e["metadata"], e["provenance"]
        best = md["best_optimization"]
        base_row, opt_row = rows.get((e["target"], "baseline")), rows.get((e["target"], best))
        lines.append(
            f"| `{e['target']}` | {best} | {fmt_ms(m['baseline_time_ms'])} | {fmt_ms(m['best_optimized_time_ms'])} "
            f"| {m['best_speedup']:.3f}× [{m['best_speedup_ci_low']:.3f}, {m['best_speedup_ci_high']:.3f}] "
            f"| {md.get('verdict', '-')} | {p['baseline_samples']}/{p['optimized_samples']} "
            f"| {roof(base_row)} → {roof(opt_row)} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hardware", default="all", help="a hardware key, or all (every expectations_<hwkey>.json)")
    ap.add_argument("--aisp", default=str(ROOT / "build" / "aisp"), help="for %% of roof (skipped if missing)")
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 when a README is stale")
    a = ap.parse_args()
    aisp = a.aisp if pathlib.Path(a.aisp).exists() else None
    stale = []
    pattern = "expectations_*.json" if a.hardware == "all" else f"expectations_{a.hardware}.json"
    for exp in sorted((ROOT / "chapters").glob(f"*/{pattern}")):
        hw = exp.stem[len("expectations_"):]
        begin, end = markers(hw)
        chapter = exp.parent.name
        readme = exp.parent / "README.md"
        text = readme.read_text() if readme.exists() else f"# {chapter}\n"
        body = table(chapter, hw, aisp)
        if body is None:
            continue
        block = f"{begin}\n{body}\n{end}"
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            new = head + block + rest.split(end, 1)[1]
        elif "<!-- aisp:results " in text:
            # A new GPU's table goes right after the last one already there.
            cut = text.rindex(" end -->", 0, len(text)) + len(" end -->")
            new = text[:cut] + f"\n\n## Measured results ({hw})\n\n{block}" + text[cut:]
        else:
            new = text.rstrip("\n") + f"\n\n## Measured results ({hw})\n\n{block}\n"
        if a.check:
            # Without aisp (no build) only the expectation columns can be compared.
            if (new if aisp else strip_roof(new)) != (text if aisp else strip_roof(text)):
                stale.append(str(readme.relative_to(ROOT)))
        elif new != text:
            readme.write_text(new)
            print(f"updated {readme.relative_to(ROOT)}")
    if stale:
        print("README results tables do not match the expectations (run scripts/readme_results.py):\n  " +
              "\n  ".join(stale))
        return 1
    return 0


def strip_roof(text):
    """The table with its last (% of roof) column removed."""
    return "\n".join(l.rsplit("|", 2)[0] if l.startswith("| `") else l for l in text.splitlines())


if __name__ == "__main__":
    sys.exit(main())
