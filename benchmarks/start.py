#!/usr/bin/env python3
"""A start as its peers make it (issue 50), timed from outside by tuibench
(../shared/tools/tuibench.py: posix_spawn into an 80x24 pty, no per-iteration work in
the harness), all commands of a group alternating in one run:

  first paint   exec to OKLah's privacy screen, next to dialog, whiptail and the C
                ncursesw floor drawing the same box
  floors        exec to the first line of Swift programs that do nothing else: the
                standard library only, + FoundationEssentials, + Foundation (ICU)
  --version     exec to the line `onboard --version` prints

Onboard runs twice per group: a first launch (a fresh state folder each run, made by
`mkdir` in a shell that then execs Onboard; the shell's own cost is measured on
`/bin/true` the same way and taken off) and a relaunch (the folder one clean run at the
privacy screen left: a progress file and the embedded mock's database, which that
run's analytics delivery made). Medians, with ratios to dialog and to the floors.

    python3 benchmarks/start.py ONBOARD FLOORS_DIR [RUNS] [STATIC_ONBOARD]
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TUIBENCH = os.path.join(HERE, "..", "..", "shared", "tools", "tuibench.py")
PRIVACY = "Your privacy comes first"
DIALOG = ["--title", "'Welcome to OKLah'", "--ok-label", "Start", "--msgbox",
          "'1. Your privacy comes first\n2. No name, email, or phone needed\n3. Your data stays on your device'", "14", "64"]


def tuibench(commands, labels, steps, runs):
    """`steps`: one scenario for all, or a list of scenarios, one per command."""
    argv = [sys.executable, TUIBENCH, "--json", "-n", str(runs), "--warmup", "2", "--expect-exit", "any"]
    if steps and isinstance(steps[0], list):
        for scenario in steps:
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
                file.write("\n".join(scenario) + "\n")
            argv += ["--scenario", file.name]
    else:
        for step in steps:
            argv += ["-s", step]
    argv.append(commands[0])
    for command in commands[1:]:
        argv += ["--vs", command]
    for label in labels:
        argv += ["--label", label]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"start.py: tuibench failed:\n{done.stderr[-2000:]}{done.stdout[-2000:]}")
    return {result["label"]: {key: value["median"] for key, value in result["summary"].items()} for result in json.loads(done.stdout)["results"]}


def relaunch_folder(onboard):
    """A state folder as one clean run at the privacy screen leaves it (Ctrl-C quits)."""
    folder = tempfile.mkdtemp(prefix="onboard-start-")
    tuibench([f"{onboard} run oklah --state-dir {folder}"], ["seed"], [f"wait:{PRIVACY}", "keys:<C-c>"], 1)
    return folder


def main():
    onboard, floors = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    static = sys.argv[4] if len(sys.argv) > 4 else None
    fresh = tempfile.mkdtemp(prefix="onboard-start-fresh-")
    shell = f"sh -c 'd=$(mktemp -d -p {fresh}) && exec \"$0\" run oklah --state-dir \"$d\"'"
    commands = {
        "onboard, first launch": f"{shell} {onboard}",
        "onboard, relaunch": f"{onboard} run oklah --state-dir {relaunch_folder(onboard)}",
        "onboard, relaunch, DO_NOT_TRACK=1": f"env DO_NOT_TRACK=1 {onboard} run oklah --state-dir {relaunch_folder(onboard)}",
        "dialog": "dialog " + " ".join(DIALOG),
        "whiptail": "whiptail " + " ".join(DIALOG).replace("--ok-label", "--ok-button"),
        "C ncursesw floor": f"{floors}/floor privacy",
    }
    if static:
        commands["onboard (.deb's static build), relaunch"] = f"{static} run oklah --state-dir {relaunch_folder(static)}"
        commands["onboard (.deb's static build), relaunch, DO_NOT_TRACK=1"] = (
            f"env DO_NOT_TRACK=1 {static} run oklah --state-dir {relaunch_folder(static)}")
    # Each quits its own way: Onboard and the floor on Ctrl-C, dialog and whiptail on Enter.
    scenarios = [[f"wait:{PRIVACY}", "keys:<Enter>" if name in ("dialog", "whiptail") else "keys:<C-c>"] for name in commands]
    paint = tuibench(list(commands.values()), list(commands), scenarios, runs)
    # The shell and mktemp before a first launch, measured the same way.
    harness = tuibench([f"sh -c 'd=$(mktemp -d -p {fresh}) && exec /bin/echo {PRIVACY}'"], ["sh"], [f"wait:{PRIVACY}"], runs)["sh"]
    for key in ("ttfp_ms", "cpu_ms"):
        paint["onboard, first launch"][key] -= harness[key]
    floor_names = {"Swift, standard library only": "floor-stdlib", "Swift + FoundationEssentials": "floor-essentials",
                   "Swift + Foundation": "floor-foundation"}
    swift = tuibench([f"{floors}/{name}" for name in floor_names.values()], list(floor_names), ["wait:ready", "keys:<Enter>"], runs)
    version = tuibench([f"{onboard} --version"], ["onboard --version"], ["wait:release build"], runs)

    print(f"\nFirst paint of OKLah's privacy screen, 80x24 (tuibench, median of {runs}, alternating)\n")
    print("| program | first paint ms | CPU ms | peak MB |")
    print("|---|---|---|---|")
    for name, row in list(paint.items()) + list(swift.items()):
        print(f"| {name} | {row['ttfp_ms']:.1f} | {row['cpu_ms']:.1f} | {row['maxrss_kb'] / 1024:.1f} |")
    # It exits as it prints: /proc is gone before a sample, so no peak is given.
    print(f"| onboard --version (exec to its line) | {version['onboard --version']['ttfp_ms']:.1f} | {version['onboard --version']['cpu_ms']:.1f} | — |")
    dialog, essentials = paint["dialog"], swift["Swift + FoundationEssentials"]
    print("\nAgainst the goals (issue 50):\n")
    print("| measure | now | goal |")
    print("|---|---|---|")
    for name in [name for name in paint if name.startswith("onboard")]:
        row = paint[name]
        print(f"| {name}: first paint / dialog's | {row['ttfp_ms'] / dialog['ttfp_ms']:.1f}x | ≤ 2x |")
        print(f"| {name}: CPU / dialog's | {row['cpu_ms'] / dialog['cpu_ms']:.1f}x | ≤ 2x |")
        print(f"| {name}: peak memory / FoundationEssentials floor's | {row['maxrss_kb'] / essentials['maxrss_kb']:.1f}x | ≤ 1.2x |")
    print(f"| `onboard --version` / FoundationEssentials floor's (exec to its line) | "
          f"{version['onboard --version']['ttfp_ms'] / essentials['ttfp_ms']:.1f}x | ≤ 1.2x |")


if __name__ == "__main__":
    main()
