#!/usr/bin/env python3
"""MIGA's own targets, measured (not asserted): time to the first screen, setup
duration on the embedded mock, and peak memory over the whole twelve-step sequence.

Runs `onboard run miga --headless` with examples/scripts/miga.keys RUNS times in fresh
state folders, sampling the process's resident memory from /proc (VmRSS every 2 ms;
ru_maxrss would include the parent's). Usage:

    swift build -c release && python3 benchmarks/miga.py [RUNS]

Uses .build/release/onboard when present, else .build/debug/onboard.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from support import rss_kib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def binary():
    for configuration in ("release", "debug"):
        path = os.path.join(ROOT, ".build", configuration, "onboard")
        if os.access(path, os.X_OK):
            return path, configuration
    sys.exit("build onboard first: swift build -c release")


def one_run(path):
    state = tempfile.mkdtemp(prefix="onboard-bench-")
    script = os.path.join(ROOT, "examples", "scripts", "miga.keys")
    env = dict(os.environ, LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    started = time.perf_counter()
    process = subprocess.Popen(
        [path, "run", "miga", "--headless", "--keys", script, "--state-dir", state],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    os.set_blocking(process.stdout.fileno(), False)
    first_frame = None
    peak = 0
    output = b""
    while process.poll() is None:
        peak = max(peak, rss_kib(process.pid))
        try:
            chunk = process.stdout.read()
        except BlockingIOError:
            chunk = None
        if chunk:
            output += chunk
            if first_frame is None and b"\xe2\x94\x80\xe2\x94\x80 frame 1" in output:
                first_frame = time.perf_counter() - started
        time.sleep(0.002)
    total = time.perf_counter() - started
    if process.returncode != 0:
        sys.exit(f"the run failed ({process.returncode}): {output[-2000:].decode(errors='replace')}")
    setup_ms = None
    with open(os.path.join(state, "miga", "events.jsonl")) as events:
        for line in events:
            event = json.loads(line)
            if event.get("event") == "setup_completed":
                setup_ms = event["duration_ms"]
    return first_frame or total, setup_ms, peak / 1024, total


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    path, configuration = binary()
    results = [one_run(path) for _ in range(runs)]
    first, setup, peak, total = zip(*results)
    print(f"MIGA, {runs} runs, {configuration} build, {os.uname().machine}, {os.cpu_count()} cores")
    print("| measure | median | worst | spec target |")
    print("|---|---|---|---|")
    print(f"| exec to first screen | {statistics.median(first) * 1000:.0f} ms | {max(first) * 1000:.0f} ms | < 1 s |")
    print(f"| setup checklist (mock) | {statistics.median(setup):.0f} ms | {max(setup):.0f} ms | < 3 s |")
    print(f"| peak memory, whole sequence | {statistics.median(peak):.1f} MB | {max(peak):.1f} MB | < 50 MB |")
    print(f"| whole scripted run | {statistics.median(total) * 1000:.0f} ms | {max(total) * 1000:.0f} ms | - |")


if __name__ == "__main__":
    main()
