#!/usr/bin/env python3
"""What imports cost in memory: tiny Swift programs that link only the standard
library, FoundationEssentials, or all of Foundation (benchmarks/floor/swift), next to
the C ncursesw floor and Onboard on its first screen, each sampled from /proc (peak
VmRSS) in a pseudo-terminal at 80x24. Also what Onboard's binary links.

    python3 benchmarks/memory.py ONBOARD FLOOR_DIR
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Session  # noqa: E402


def peak(argv, mark, settle=0.3):
    session = Session(argv)
    session.read_until(mark, quiet=0.05)
    end = time.perf_counter() + settle
    while time.perf_counter() < end:
        session.sample_memory()
        time.sleep(0.002)
    session.finish()
    return session.peak_kib / 1024


def main():
    onboard, floors = sys.argv[1], sys.argv[2]
    rows = [
        ("Swift, standard library only", [os.path.join(floors, "floor-stdlib")], "ready"),
        ("Swift + FoundationEssentials", [os.path.join(floors, "floor-essentials")], "ready"),
        ("Swift + Foundation", [os.path.join(floors, "floor-foundation")], "ready"),
        ("C ncursesw floor, privacy screen", [os.path.join(floors, "floor"), "privacy"], "Your privacy comes first"),
        ("onboard, OKLah privacy screen", [onboard, "run", "oklah", "--state-dir", tempfile.mkdtemp(prefix="onboard-bench-")], "Your privacy comes first"),
    ]
    print("\nPeak resident memory (median of 3), in a pty at 80x24\n")
    print("| program | peak MB |")
    print("|---|---|")
    for name, argv, mark in rows:
        samples = []
        for _ in range(3):
            if "--state-dir" in argv:
                argv[argv.index("--state-dir") + 1] = tempfile.mkdtemp(prefix="onboard-bench-")
            samples.append(peak(argv, mark))
        print(f"| {name} | {statistics.median(samples):.1f} |")
    libraries = [line.split()[0] for line in subprocess.run(["ldd", onboard], capture_output=True, text=True).stdout.splitlines() if line.strip()]
    swift = [name for name in libraries if "swift" in name.lower() or "Foundation" in name or "dispatch" in name or "icu" in name.lower()]
    print(f"\n`onboard` is {os.path.getsize(onboard) / 1e6:.1f} MB and loads {len(libraries)} shared libraries, "
          f"{len(swift)} of them Swift's: {', '.join(sorted(swift))}.")


if __name__ == "__main__":
    main()
