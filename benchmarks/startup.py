#!/usr/bin/env python3
"""What a start costs before any screen (issue 20): each release executable's size on
disk and shared libraries, and the time from exec to exit of `onboard --version` (the
loader, the Swift runtime, Foundation and argument parsing: the time before `main` does
any work), next to the Swift floors built from benchmarks/floor in the same run (each
exits at once with no input).

    python3 benchmarks/startup.py BIN_DIR FLOORS_DIR [RUNS]
"""
import os
import statistics
import subprocess
import sys
import time


def exec_to_exit(argv, runs):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def shared_libraries(path):
    listed = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    return sum(1 for line in listed.splitlines() if "=>" in line or line.strip().startswith("/"))


def main():
    bin_dir, floors = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    print(f"\nStart-up, release build (median of {runs} execs, exec to exit)\n")
    print("| executable | MB on disk | shared libraries | exec to exit ms |")
    print("|---|---|---|---|")
    rows = [("onboard --version", os.path.join(bin_dir, "onboard"), ["--version"]),
            ("onboard-server --version", os.path.join(bin_dir, "onboard-server"), ["--version"]),
            ("onboard-ssh --help (what `onboard serve-ssh` execs)", os.path.join(bin_dir, "onboard-ssh"), ["--help"]),
            ("Swift, standard library only", os.path.join(floors, "floor-stdlib"), []),
            ("Swift + Foundation", os.path.join(floors, "floor-foundation"), [])]
    times = {}
    for name, path, arguments in rows:
        if not os.path.exists(path):
            continue
        times[name] = exec_to_exit([path] + arguments, runs)
        print(f"| {name} | {os.path.getsize(path) / 1e6:.2f} | {shared_libraries(path)} | {times[name]:.1f} |")
    onboard = times.get("onboard --version")
    if onboard:
        print()
        for floor in ("Swift, standard library only", "Swift + Foundation"):
            if floor in times:
                print(f"`onboard --version` against {floor}: {onboard / times[floor]:.2f}x")


if __name__ == "__main__":
    main()
