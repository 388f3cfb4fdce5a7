#!/usr/bin/env python3
"""A demo session's start (issue 50, DECISIONS 60): `onboard run oklah` started from
nothing on a pseudo-terminal, as a demo server does with `ONBOARD_SESSION_ZYGOTE=off`,
against the same forked from a warm `onboard --session-zygote`, and dialog drawing the
same box from nothing, alternating in one run. For each: from the start (the spawn, or
the request sent to the zygote) to the first screen's bytes, and the CPU the session's
process had used by then (its `schedstat`). Medians.

    python3 benchmarks/zygote.py ONBOARD [ROUNDS]
"""
import fcntl
import os
import pty
import select
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

from start import DIALOG


def cpu_ms(pid):
    """The CPU of every thread of `pid` so far (a forked session runs on a thread of its own)."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            total += int(open(f"/proc/{pid}/task/{thread}/schedstat").read().split()[0])
        except OSError:
            pass
    return total / 1e6


class Sessions:
    def __init__(self, onboard):
        self.onboard = onboard
        self.home = tempfile.mkdtemp(prefix="onboard-zygote-bench-")
        self.environment = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": self.home, "PATH": os.environ["PATH"],
                            "DO_NOT_TRACK": "1"}
        self.socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.zygote = subprocess.Popen([onboard, "--session-zygote", "run", "oklah"], stdin=theirs,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        theirs.close()
        time.sleep(0.3)

    def close(self):
        self.socket.close()
        self.zygote.wait(5)
        shutil.rmtree(self.home, ignore_errors=True)

    def one(self, how):
        """(ms to the first screen, the process's CPU ms by then)."""
        leader, follower = pty.openpty()
        fcntl.ioctl(leader, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        arguments = ["run", "oklah", "--state-dir", tempfile.mkdtemp(dir=self.home)]
        started = time.perf_counter()
        exits = process = None
        if how == "forked":
            strings = [str(len(arguments))] + arguments + [f"{k}={v}" for k, v in self.environment.items()]
            socket.send_fds(self.socket, [b"".join(s.encode() + b"\0" for s in strings)], [follower])
            answer, descriptors, _, _ = socket.recv_fds(self.socket, 4, 1)
            pid, exits = struct.unpack("i", answer)[0], descriptors[0]
        else:
            program = [self.onboard] + arguments if how == "spawned" else ["dialog"] + [a.strip("'") for a in DIALOG]
            process = subprocess.Popen(program, stdin=follower, stdout=follower, stderr=follower, env=self.environment,
                                       start_new_session=True)
            pid = process.pid
        os.close(follower)
        seen = b""
        while b"Welcome to OKLah" not in seen:
            if not select.select([leader], [], [], 10)[0]:
                sys.exit(f"{how}: no first screen in 10 s")
            seen += os.read(leader, 65536)
        elapsed, cpu = (time.perf_counter() - started) * 1000, cpu_ms(pid)
        os.write(leader, b"\x03" if how != "dialog" else b"\r")
        if exits is not None:
            os.read(exits, 4)
            os.close(exits)
        else:
            process.wait(10)
        os.close(leader)
        return elapsed, cpu


def main():
    onboard = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 31
    sessions = Sessions(onboard)
    kinds = ["spawned", "forked", "dialog"]
    results = {kind: [] for kind in kinds}
    try:
        for _ in range(rounds):
            for kind in kinds:
                results[kind].append(sessions.one(kind))
    finally:
        sessions.close()
    medians = {kind: (statistics.median(r[0] for r in results[kind]), statistics.median(r[1] for r in results[kind]))
               for kind in kinds}
    dialog = medians["dialog"]
    print(f"\nA demo session's start, OKLah's first screen on a pty, medians of {rounds}, alternating:\n")
    print("| session | first screen ms | x dialog | its CPU to it ms | x dialog |")
    print("|---|---|---|---|---|")
    names = {"spawned": "onboard, started from nothing", "forked": "onboard, forked from the zygote", "dialog": "dialog"}
    for kind in kinds:
        ms, cpu = medians[kind]
        print(f"| {names[kind]} | {ms:.1f} | {ms / dialog[0]:.1f} | {cpu:.1f} | {cpu / dialog[1]:.1f} |")


if __name__ == "__main__":
    main()
