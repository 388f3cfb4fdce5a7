#!/usr/bin/env python3
"""Line coverage of the test suite per module: runs `swift test
--enable-code-coverage` and sums llvm-cov's per-file counts by Sources/MODULE.

    python3 benchmarks/coverage.py
"""
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    run = subprocess.run(["swift", "test", "--enable-code-coverage"], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        failed = [line for line in run.stdout.splitlines() if "✘" in line][:10]
        print("\n(the suite failed under coverage; the numbers below are from the run as it went)\n" + "\n".join(failed))
    path = subprocess.run(["swift", "test", "--show-codecov-path"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    with open(path) as data:
        report = json.load(data)
    covered, total = collections.Counter(), collections.Counter()
    for file in report["data"][0]["files"]:
        name = os.path.relpath(file["filename"], ROOT)
        if not name.startswith("Sources/"):
            continue
        module = name.split("/")[1]
        lines = file["summary"]["lines"]
        covered[module] += lines["covered"]
        total[module] += lines["count"]
    print("\nLine coverage by the test suite, per module\n")
    print("| module | lines | covered | coverage |")
    print("|---|---|---|---|")
    for module in sorted(total, key=lambda m: -covered[m] / max(1, total[m])):
        print(f"| {module} | {total[module]} | {covered[module]} | {100 * covered[module] / max(1, total[module]):.1f}% |")
    all_covered, all_total = sum(covered.values()), sum(total.values())
    print(f"| all | {all_total} | {all_covered} | {100 * all_covered / max(1, all_total):.1f}% |")


if __name__ == "__main__":
    sys.exit(main())
