#!/usr/bin/env python3
"""`make coverage`: which of the seed's topics (chapters ch01-ch20 and its labs) have baseline/optimized
pairs in this tree, measured from the files, against the seed's reference list.

The reference list is data/seed_reference_pairs.json: the pair inventory of the seed repository
(research/seed_repo.md, sections 1.2 "Chapters: pair inventory" and 1.3 "Labs"), extracted by
`--extract-from <seed_repo.md>`. The tree is read the way discovery reads it (docs/writing-benchmarks.md):
a pair is a baseline_<x>.cu|.py with at least one optimized_<x>.cu|.py or optimized_<x>_<suffix>.cu|.py
in the same folder. A pair "matches the seed" when its name <x> is one of the seed's pair names for that
chapter (brace groups like gradient_compression_{fp16,int8} expanded). Output format: docs/coverage.md.
"""
import argparse
import datetime
import itertools
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "data", "seed_reference_pairs.json")


def split_top(text, sep=","):
    """Split at `sep` outside {...} and (...)."""
    out, depth, cur = [], 0, ""
    for c in text:
        depth += c in "{(["
        depth -= c in "})]"
        if c == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def expand(name):
    """gradient_compression_{fp16,int8}{,_comm_only} -> every combination; [k] and (+mg) notes dropped."""
    name = re.sub(r"\[\d+\]|\(\+[^)]*\)", "", name).strip()
    parts = re.split(r"(\{[^}]*\})", name)
    choices = [p[1:-1].split(",") if p.startswith("{") else [p] for p in parts]
    return sorted({"".join(c) for c in itertools.product(*choices)})


def extract(seed_md):
    text = open(seed_md, encoding="utf-8").read()
    chapters, labs = [], []
    for m in re.finditer(r"^\| (ch\d\d) ([^|]*)\| ([^|]*)\| ([^|]*)\| (\d+)/(\d+) \| ([^|]*)\|$", text, re.M):
        names = sorted({n for tok in split_top(m.group(7)) for n in expand(tok)})
        chapters.append({"chapter": m.group(1), "topic": m.group(2).strip(), "seed_pairs": int(m.group(5)),
                         "seed_targets": int(m.group(6)), "pair_names": names})
    labs_section = text[text.index("### 1.3 Labs"):text.index("Non-pair labs")]
    body = re.sub(r"^### 1.3 Labs.*\n", "", labs_section).replace("\n", " ")
    for entry in body.split(" · "):
        m = re.match(r"\s*([a-z0-9_]+(?:/[a-z0-9_]+)?) (\d+)/(\d+)(?: \((.*)\))?", entry.strip())
        if m:
            names = sorted({n for tok in split_top(m.group(4) or "") for n in expand(tok)}) or [m.group(1)]
            labs.append({"lab": m.group(1), "seed_pairs": int(m.group(2)), "seed_targets": int(m.group(3)), "pair_names": names})
    return {"schema": "aisp.seed_reference_pairs/1",
            "source": "research/seed_repo.md sections 1.2 and 1.3 (pair inventory of the seed repository, computed from its tree)",
            "chapters": chapters, "labs": labs}


def pairs_in(folder):
    """{pair name: [optimized variant file stems]} of one chapter or lab folder."""
    try:
        files = os.listdir(folder)
    except OSError:
        return {}
    stems = [os.path.splitext(f)[0] for f in files if f.endswith((".cu", ".py"))]
    pairs = {}
    for b in sorted(s[len("baseline_"):] for s in stems if s.startswith("baseline_")):
        opt = sorted(s for s in stems if s == "optimized_" + b or s.startswith("optimized_" + b + "_"))
        if opt:
            pairs[b] = opt
    return pairs


def measure(ref):
    rows = []
    for c in ref["chapters"]:
        ours = pairs_in(os.path.join(ROOT, "chapters", c["chapter"]))
        same = sorted(n for n in ours if n in c["pair_names"])
        rows.append({"chapter": c["chapter"], "topic": c["topic"], "seed_pairs": c["seed_pairs"], "aisp_pairs": len(ours),
                     "aisp_variants": sum(len(v) for v in ours.values()), "same_name": same, "aisp_pair_names": sorted(ours)})
    seed_labs = {l["lab"]: l for l in ref["labs"]}
    labs = []
    lab_root = os.path.join(ROOT, "labs")
    for lab in sorted(os.listdir(lab_root)) if os.path.isdir(lab_root) else []:
        ours = pairs_in(os.path.join(lab_root, lab))
        if ours:
            s = seed_labs.get(lab)
            labs.append({"lab": lab, "aisp_pairs": len(ours), "aisp_pair_names": sorted(ours), "in_seed": s is not None,
                         "seed_pairs": s["seed_pairs"] if s else None})
    covered = [r for r in rows if r["aisp_pairs"] > 0]
    summary = {"chapters_with_pairs": len(covered), "seed_chapters": len(rows),
               "aisp_chapter_pairs": sum(r["aisp_pairs"] for r in rows), "seed_chapter_pairs": sum(r["seed_pairs"] for r in rows),
               "same_name_pairs": sum(len(r["same_name"]) for r in rows),
               "aisp_labs_with_pairs": len(labs), "seed_labs": len(ref["labs"]),
               "aisp_lab_pairs": sum(l["aisp_pairs"] for l in labs), "seed_lab_pairs": sum(l["seed_pairs"] for l in ref["labs"]),
               "chapters_without_pairs": [r["chapter"] for r in rows if r["aisp_pairs"] == 0]}
    return {"schema": "aisp.seed_coverage/1", "commit": git_commit(), "date": datetime.date.today().isoformat(),
            "reference": os.path.relpath(REFERENCE, ROOT), "summary": summary, "chapters": rows, "labs": labs}


def git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def text(doc):
    s = doc["summary"]
    lines = [f"seed coverage at {doc['commit']} ({doc['date']}), reference {doc['reference']}",
             f"chapters with pairs: {s['chapters_with_pairs']}/{s['seed_chapters']}; pairs {s['aisp_chapter_pairs']} "
             f"(seed {s['seed_chapter_pairs']}); same name as a seed pair: {s['same_name_pairs']}",
             f"labs with pairs: {s['aisp_labs_with_pairs']} (seed {s['seed_labs']} labs, {s['seed_lab_pairs']} pairs); "
             f"lab pairs {s['aisp_lab_pairs']}",
             f"chapters without pairs: {', '.join(s['chapters_without_pairs']) or 'none'}", "",
             f"{'chapter':<8} {'seed topic':<40} {'seed':>4} {'aisp':>4} {'same':>4}  aisp pairs"]
    for r in doc["chapters"]:
        lines.append(f"{r['chapter']:<8} {r['topic'][:40]:<40} {r['seed_pairs']:>4} {r['aisp_pairs']:>4} {len(r['same_name']):>4}  "
                     + ", ".join(n + ("*" if n in r["same_name"] else "") for n in r["aisp_pair_names"]))
    lines.append("(* = same name as a seed pair of that chapter)")
    for l in doc["labs"]:
        lines.append(f"labs/{l['lab']:<26} aisp {l['aisp_pairs']} pair(s): {', '.join(l['aisp_pair_names'])}"
                     + ("" if l["in_seed"] else "  (no seed lab of that name)"))
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--json", action="store_true", help="print the aisp.seed_coverage/1 document")
    p.add_argument("--extract-from", metavar="SEED_REPO_MD", help="rewrite data/seed_reference_pairs.json from seed_repo.md")
    p.add_argument("--reference", default=REFERENCE, help="the reference list (default data/seed_reference_pairs.json)")
    a = p.parse_args()
    if a.extract_from:
        ref = extract(a.extract_from)
        if len(ref["chapters"]) != 20 or not ref["labs"]:
            sys.exit(f"{a.extract_from}: expected 20 chapter rows and the labs list, found {len(ref['chapters'])} and {len(ref['labs'])}")
        with open(a.reference, "w", encoding="utf-8") as f:
            json.dump(ref, f, indent=1)
            f.write("\n")
        print(f"wrote {a.reference}: {len(ref['chapters'])} chapters, {len(ref['labs'])} labs")
        return
    ref = json.load(open(a.reference, encoding="utf-8"))
    doc = measure(ref)
    print(json.dumps(doc, indent=1) if a.json else text(doc))


if __name__ == "__main__":
    main()
