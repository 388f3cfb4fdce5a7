#!/usr/bin/env python3
"""`onboard serve-ssh` with 1, 10 and 50 sessions at once: time from starting `ssh` to
the session's first screen, the server's own memory idle and with the sessions, and
the memory each session costs (the server's growth plus its onboard, from /proc).

    python3 benchmarks/ssh.py ONBOARD
"""
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from support import rollup_kib, rss_kib

MARK = b"Welcome to OKLah"


def children(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(line) for line in out.split()]


def main():
    onboard = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="onboard-ssh-bench-")
    server = subprocess.Popen(
        [onboard, "serve-ssh", "--listen", "127.0.0.1:0", "--flow", "oklah", "--max-sessions", "100",
         "--host-key", folder + "/host_key", "--state-dir", folder + "/state"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    line = server.stdout.readline().decode()
    port = re.search(r"127\.0\.0\.1:(\d+)", line).group(1)
    time.sleep(0.5)
    idle = rss_kib(server.pid) / 1024
    rows = []
    try:
        for count in (1, 10, 50):
            started = time.perf_counter()
            clients = [subprocess.Popen(
                ["ssh", "-tt", "-p", port, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                 "-o", "LogLevel=ERROR", "demo@127.0.0.1"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) for _ in range(count)]
            seen, output = {}, {client.stdout.fileno(): b"" for client in clients}
            while len(seen) < count and time.perf_counter() - started < 60:
                ready, _, _ = select.select([c.stdout for c in clients if c.stdout.fileno() not in seen], [], [], 0.5)
                for stream in ready:
                    output[stream.fileno()] += os.read(stream.fileno(), 65536)
                    if MARK in output[stream.fileno()]:
                        seen[stream.fileno()] = time.perf_counter() - started
            if len(seen) < count:
                sys.exit(f"only {len(seen)} of {count} sessions showed their first screen")
            time.sleep(0.3)
            server_mb = rss_kib(server.pid) / 1024
            sessions = children(server.pid)
            programs_mb = sum(rss_kib(pid) for pid in sessions) / 1024
            rollups = [rollup_kib(pid) for pid in sessions]
            pss_mb = sum(pss for pss, _ in rollups) / 1024
            private_mb = sum(private for _, private in rollups) / 1024
            times = sorted(seen.values())
            each = max(1, len(sessions))
            rows.append((count, statistics.median(times) * 1000, times[-1] * 1000, server_mb,
                         (server_mb - idle) / count, programs_mb / each, pss_mb / each, private_mb / each))
            for client in clients:
                client.send_signal(signal.SIGTERM)
            for client in clients:
                client.wait()
            deadline = time.time() + 10
            while children(server.pid) and time.time() < deadline:
                time.sleep(0.1)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    print(f"\n`onboard serve-ssh` on loopback, OKLah in each session; server idle: {idle:.1f} MB\n")
    print("| sessions at once | ssh start to first screen, median ms | worst ms | server MB | server growth per session MB | each session's onboard: RSS MB | PSS MB | private MB |")
    print("|---|---|---|---|---|---|---|---|")
    for count, median, worst, server_mb, growth, program, pss, private in rows:
        print(f"| {count} | {median:.0f} | {worst:.0f} | {server_mb:.1f} | {growth:.2f} | {program:.1f} | {pss:.1f} | {private:.1f} |")
    print("\nRSS counts every page of the Swift runtime, Foundation and the other libraries in full in every")
    print("session; they are the same file pages for all of them. PSS shares them out; private is what")
    print("each session alone adds.")


if __name__ == "__main__":
    main()
