#!/usr/bin/env python3
"""Target ids for a device call, from `aisp bench list-targets --json`, split by language: a pair is Python
when its baseline or any optimized variant is a .py file (the Python worker's torch import makes those slow to
start, so device calls run them apart). Used to write .carry/targets_<tag>.txt for scripts/device_closing.sh.
Usage: scripts/device_targets.py [--python] [--build DIR] SELECTOR...   (selectors: ch15, labs/, labs/gemm)
Example: scripts/device_targets.py ch15 ch16 labs/ > .carry/targets_c.txt"""
import argparse
import json
import os
import subprocess


def is_python(directory, target):
    if os.path.exists(os.path.join(directory, "baseline_%s.py" % target["example"])):
        return True
    return any(os.path.exists(os.path.join(directory, "optimized_%s.py" % n)) for n in target["optimized"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", action="store_true", help="the Python pairs instead of the C++ ones")
    ap.add_argument("--build", default="build")
    ap.add_argument("selectors", nargs="*", help="chapters (ch15), labs/ for every lab, or labs/<lab>; none: every chapter and lab")
    args = ap.parse_args()
    listed = json.loads(subprocess.check_output([os.path.join(args.build, "aisp"), "bench", "list-targets", "--json"]))
    chosen = []
    for t in listed:
        chapter = t["chapter"]
        if not (chapter.startswith("ch") or chapter.startswith("labs/")):
            continue  # test-fixture folders run only when named
        if args.selectors and not any(chapter == s or (s.endswith("/") and chapter.startswith(s)) for s in args.selectors):
            continue
        directory = chapter if chapter.startswith("labs/") else os.path.join("chapters", chapter)
        if is_python(directory, t) == args.python:
            chosen.append(t["target"])
    print(" ".join(chosen))


if __name__ == "__main__":
    main()
