#!/usr/bin/env python3
"""The client in a pseudo-terminal at 80x24, side by side with dialog, whiptail and a
tiny C ncursesw program (the floor), alternating, on the same work:

  first paint   exec to OKLah's privacy screen fully drawn (the same text in each
                peer), and the bytes written for it
  transition    bytes for a whole-screen change (Enter on one screen to the next)
  keystroke     per typed character in a text field (Baby Basics' server URL): the
                bytes written and the time until it shows on the screen
  memory, CPU   peak resident memory sampled from /proc (VmRSS every 2 ms; not
                ru_maxrss, which inherits the parent's) and user+system CPU time, over
                the typing session

The screen is read with pyte, as a terminal would show it. Usage:

    python3 benchmarks/client.py ONBOARD FLOOR [ROUNDS]

Prints a Markdown table (medians over the rounds) and ratios to the floor and dialog.
"""
import fcntl
import os
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

import pyte

import support

WIDTH, HEIGHT = 80, 24
PRIVACY_MARK = "Your privacy comes first"
PRIVACY_TEXT = "1. Your privacy comes first\n2. No name, email, or phone needed\n3. Your data stays on your device"
TYPED = "/abcdefghijklmnopqrst"


class Session:
    """One program on a fresh pseudo-terminal, its screen kept by pyte."""

    def __init__(self, argv, env_extra=None):
        self.leader, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "LINES", "COLUMNS", "TMUX")}
        env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})
        env.update(env_extra or {})
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.ByteStream(self.screen)
        self.peak_kib = 0
        self.started = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.setsid()
            fcntl.ioctl(follower, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(follower, fd)
            os.close(self.leader)
            os.execvpe(argv[0], argv, env)
        os.close(follower)
        self.pid = pid

    def text(self):
        return "\n".join(self.screen.display)

    def sample_memory(self):
        fields = support.status(self.pid)
        # Between fork and exec the child is still a copy of this Python.
        if fields and not fields.get("Name", "").startswith("python"):
            self.peak_kib = max(self.peak_kib, int(fields.get("VmRSS", "0 kB").split()[0]))

    def read_until(self, mark, quiet=0.06, limit=10.0):
        """Reads until `mark` is on screen and output has paused for `quiet` s; returns
        (when the mark showed, as time.perf_counter(), bytes read)."""
        start = time.perf_counter()
        seen_at = None
        count = 0
        last_output = start
        while True:
            now = time.perf_counter()
            if now - start > limit:
                raise TimeoutError(f"'{mark}' never showed:\n{self.text()}")
            if seen_at is not None and now - last_output >= quiet:
                return seen_at, count
            ready, _, _ = select.select([self.leader], [], [], 0.002)
            self.sample_memory()
            if not ready:
                continue
            try:
                data = os.read(self.leader, 65536)
            except OSError:
                data = b""
            if not data:
                if seen_at is None:
                    raise RuntimeError(f"the program ended before '{mark}':\n{self.text()}")
                return seen_at, count
            count += len(data)
            last_output = time.perf_counter()
            self.stream.feed(data)
            if seen_at is None and mark in self.text():
                seen_at = time.perf_counter()

    def send(self, data):
        os.write(self.leader, data)

    def finish(self):
        """Ends the program; returns its CPU seconds (user + system)."""
        self.sample_memory()
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = time.time() + 5
        while True:
            pid, _, usage = os.wait4(self.pid, os.WNOHANG)
            if pid:
                break
            try:
                os.read(self.leader, 65536)  # keep its output flowing while it exits
            except OSError:
                pass
            if time.time() > deadline:
                os.kill(self.pid, signal.SIGKILL)
            time.sleep(0.005)
        os.close(self.leader)
        return usage.ru_utime + usage.ru_stime


def subjects(onboard, floor):
    """Per peer: the command for the privacy screen, for a screen transition (with the
    marks before and after Enter), and for the text field (with its prefilled value)."""
    state = tempfile.mkdtemp(prefix="onboard-bench-")
    dialog_box = ["--title", "Welcome to OKLah", "--ok-label", "Start", "--msgbox", PRIVACY_TEXT, "14", "64"]
    return {
        "onboard": {
            "paint": [onboard, "run", "oklah", "--state-dir", tempfile.mkdtemp(dir=state)],
            "transition": ([onboard, "run", "miga", "--state-dir", tempfile.mkdtemp(dir=state)], "Begin My Journey", "Our mission"),
            "input": [onboard, "run", "babybasics", "--state-dir", tempfile.mkdtemp(dir=state)],
            "fresh_state": True,
        },
        "dialog": {
            "paint": ["dialog"] + dialog_box,
            "transition": (["dialog"] + dialog_box + ["--and-widget", "--title", "Our mission", "--msgbox", "Technology should serve your life.", "14", "64"], PRIVACY_MARK, "Our mission"),
            "input": ["dialog", "--title", "Baby Basics", "--inputbox", "Server URL", "14", "64", "mock://local"],
        },
        "whiptail": {
            "paint": ["whiptail", "--title", "Welcome to OKLah", "--ok-button", "Start", "--msgbox", PRIVACY_TEXT, "14", "64"],
            "transition": None,  # no way to chain two screens in one process
            "input": ["whiptail", "--title", "Baby Basics", "--inputbox", "Server URL", "14", "64", "mock://local"],
        },
        "C ncursesw floor": {
            "paint": [floor, "privacy"],
            "transition": ([floor, "privacy"], PRIVACY_MARK, "Our mission"),
            "input": [floor, "input"],
        },
    }


def fresh(argv, subject):
    """Onboard keeps state: each run gets a new folder, so each starts at the beginning."""
    if not subject.get("fresh_state"):
        return argv
    argv = list(argv)
    argv[argv.index("--state-dir") + 1] = tempfile.mkdtemp(prefix="onboard-bench-")
    return argv


def one_round(name, subject, results):
    row = results.setdefault(name, {k: [] for k in ("paint_ms", "paint_bytes", "transition_bytes", "key_bytes", "key_ms", "peak_mb", "cpu_ms")})
    session = Session(fresh(subject["paint"], subject))
    seen, count = session.read_until(PRIVACY_MARK)
    row["paint_ms"].append((seen - session.started) * 1000)  # from exec
    row["paint_bytes"].append(count)
    session.finish()

    if subject["transition"]:
        argv, before, after = subject["transition"]
        session = Session(fresh(argv, subject))
        session.read_until(before)
        session.send(b"\r")
        _, count = session.read_until(after)
        row["transition_bytes"].append(count)
        session.finish()

    session = Session(fresh(subject["input"], subject))
    session.read_until("mock://local")
    typed = "mock://local"
    for character in TYPED:
        typed += character
        begin = time.perf_counter()
        session.send(character.encode())
        seen, count = session.read_until(typed, quiet=0.03)
        row["key_ms"].append((seen - begin) * 1000)
        row["key_bytes"].append(count)
    row["cpu_ms"].append(session.finish() * 1000)
    row["peak_mb"].append(session.peak_kib / 1024)


def main():
    onboard, floor = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    peers = subjects(onboard, floor)
    missing = [name for name in ("dialog", "whiptail") if shutil.which(name) is None]
    for name in missing:
        print(f"({name} is not installed: left out)", file=sys.stderr)
        peers.pop(name)
    results = {}
    for _ in range(rounds):
        for name, subject in peers.items():  # alternating: each round runs every peer
            one_round(name, subject, results)
    print_table(results, rounds)


def median(values):
    return statistics.median(values) if values else None


def print_table(results, rounds):
    def cell(value, digits=1):
        return "n/a" if value is None else f"{value:.{digits}f}"

    print(f"\nClient in a pty at {WIDTH}x{HEIGHT}, medians of {rounds} alternating rounds\n")
    print("| program | first paint ms | paint bytes | transition bytes | bytes/key | ms/key | peak MB | CPU ms |")
    print("|---|---|---|---|---|---|---|---|")
    for name, row in results.items():
        print(f"| {name} | {cell(median(row['paint_ms']))} | {cell(median(row['paint_bytes']), 0)} | "
              f"{cell(median(row['transition_bytes']), 0)} | {cell(median(row['key_bytes']), 0)} | "
              f"{cell(median(row['key_ms']), 2)} | {cell(median(row['peak_mb']))} | {cell(median(row['cpu_ms']))} |")
    onboard = results.get("onboard")
    print("\nOnboard as a ratio (lower is better):\n")
    print("| against | first paint | paint bytes | bytes/key | ms/key | peak MB | CPU |")
    print("|---|---|---|---|---|---|---|")
    for peer in ("C ncursesw floor", "dialog", "whiptail"):
        other = results.get(peer)
        if not other or not onboard:
            continue

        def ratio(key):
            mine, theirs = median(onboard[key]), median(other[key])
            return "n/a" if not mine or not theirs else f"{mine / theirs:.2f}x"

        print(f"| {peer} | {ratio('paint_ms')} | {ratio('paint_bytes')} | {ratio('key_bytes')} | {ratio('key_ms')} | {ratio('peak_mb')} | {ratio('cpu_ms')} |")


if __name__ == "__main__":
    main()
