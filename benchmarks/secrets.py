#!/usr/bin/env python3
"""What the system keyring costs (issue 19): the same headless runs with
--secret-store file and the default, auto, finding a keyring (gnome-keyring on a private
bus, as in the tests), whole walks and the first frame of a relaunch, which must read the session and
the data key before it can draw.

    python3 benchmarks/secrets.py ONBOARD [RUNS]

Runs itself again under dbus-run-session with gnome-keyring unlocked in a throwaway home.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "examples", "scripts")
INSIDE = "ONBOARD_BENCH_KEYRING_INSIDE"


def walk(onboard, flow, store):
    state = tempfile.mkdtemp(prefix="onboard-bench-secrets-")
    argv = [onboard, "run", flow, "--headless", "--keys", os.path.join(SCRIPTS, f"{flow}.keys"),
            "--frames", tempfile.mkdtemp(prefix="onboard-frames-"), "--state-dir", state, "--secret-store", store]
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({result.returncode}):\n{result.stdout.decode()[-1500:]}{result.stderr.decode()}")
    return elapsed, state


def first_frame(onboard, state, store, wait_for):
    """ms from exec to the first frame of a relaunch (session and progress read first)."""
    script = os.path.join(tempfile.mkdtemp(), "resume.keys")
    with open(script, "w") as handle:
        handle.write(f"wait:{wait_for}\n")
    start = time.perf_counter()
    process = subprocess.Popen([onboard, "run", "oklah", "--headless", "--keys", script, "--state-dir", state, "--secret-store", store],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for line in process.stdout:
        if line.startswith("── frame".encode()):
            elapsed = (time.perf_counter() - start) * 1000
            break
    else:
        sys.exit("the relaunch printed no frame")
    process.stdout.read()
    if process.wait() != 0:
        sys.exit(f"the relaunch did not reach '{wait_for}' ({store})")
    return elapsed


def measure(onboard, runs):
    rows = []
    for flow in ("oklah", "abby"):
        row = []
        for store in ("file", "auto"):
            row.append([walk(onboard, flow, store)[0] for _ in range(runs)])
        rows.append((f"walk {flow} start to finish", row))
    row = []
    for store in ("file", "auto"):
        row.append([first_frame(onboard, tempfile.mkdtemp(prefix="onboard-bench-secrets-"), store, "Welcome to OKLah") for _ in range(runs)])
    rows.append(("first start of OKLah: first frame", row))
    row = []
    for store in ("file", "auto"):
        _, state = walk(onboard, "oklah", store)
        row.append([first_frame(onboard, state, store, "Check in") for _ in range(runs)])
    rows.append(("relaunch OKLah signed in: first frame", row))
    print(f"\nSecrets at rest, {runs} runs each (median ms; the keyring is gnome-keyring on a private bus)\n")
    print("| work | file | keyring (auto) | keyring / file |")
    print("|---|---|---|---|")
    for name, (file_samples, keyring_samples) in rows:
        file_ms, keyring_ms = statistics.median(file_samples), statistics.median(keyring_samples)
        print(f"| {name} | {file_ms:.1f} | {keyring_ms:.1f} | {keyring_ms / file_ms:.2f}x |")


def main():
    onboard = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if os.environ.get(INSIDE):
        measure(onboard, runs)
        return
    for tool in ("dbus-run-session", "gnome-keyring-daemon"):
        if not shutil.which(tool):
            print(f"\nSecrets at rest: skipped ({tool} is not installed; apt-get install dbus-daemon gnome-keyring)")
            return
    home = tempfile.mkdtemp(prefix="onboard-bench-keyring-")
    setup = ('export HOME="$1" XDG_DATA_HOME="$1/data" XDG_RUNTIME_DIR="$1/run"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"; '
             'printf onboard | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; shift; exec "$@"')
    env = dict(os.environ, LANG="C.UTF-8", **{INSIDE: "1"})
    result = subprocess.run(["dbus-run-session", "--", "bash", "-c", setup, "bench", home, sys.executable, os.path.abspath(__file__), onboard, str(runs)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    sys.stdout.write(result.stdout.decode())
    shutil.rmtree(home, ignore_errors=True)
    if result.returncode != 0:
        sys.exit(result.returncode)


if __name__ == "__main__":
    main()
