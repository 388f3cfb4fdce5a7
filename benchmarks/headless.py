#!/usr/bin/env python3
"""The engine without a terminal: time to walk every built-in flow start to finish
(its key script in examples/scripts, headless, on the embedded mock, a fresh state
folder each run), and to load and lint every flow file.

    python3 benchmarks/headless.py ONBOARD [RUNS]
"""
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOWS = ("oklah", "babybasics", "abby", "rucktracker", "miga")


def timed(argv):
    env = dict(os.environ, LANG="C.UTF-8")
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, env=env)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({result.returncode}):\n{result.stdout.decode()[-1500:]}{result.stderr.decode()}")
    return elapsed


def main():
    onboard = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    files = sorted(glob.glob(os.path.join(ROOT, "Sources/FlowFiles/BuiltinFlows/*.yaml")) + glob.glob(os.path.join(ROOT, "examples/*.yaml")))
    rows = []
    for flow in FLOWS:
        script = os.path.join(ROOT, "examples", "scripts", f"{flow}.keys")
        samples = [timed([onboard, "run", flow, "--headless", "--keys", script, "--frames", tempfile.mkdtemp(prefix="onboard-frames-"),
                          "--state-dir", tempfile.mkdtemp(prefix="onboard-bench-")]) for _ in range(runs)]
        rows.append((f"walk {flow} start to finish", samples))
    rows.append((f"load and lint all {len(files)} flow files", [timed([onboard, "lint"] + files) for _ in range(runs)]))
    rows.append(("`onboard --version` (process start alone)", [timed([onboard, "--version"]) for _ in range(runs)]))
    print(f"\nHeadless engine, {runs} runs each (whole process, exec to exit)\n")
    print("| work | median ms | worst ms |")
    print("|---|---|---|")
    for name, samples in rows:
        print(f"| {name} | {statistics.median(samples):.0f} | {max(samples):.0f} |")


if __name__ == "__main__":
    main()
