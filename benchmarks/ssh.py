#!/usr/bin/env python3
"""`onboard serve-ssh` with 1, 10 and 50 sessions at once: time from starting `ssh` to
the session's first screen, the server's own memory idle and with the sessions, and
the memory each session costs (the server's growth plus its onboard, from /proc).

    python3 benchmarks/ssh.py ONBOARD
"""
import os
import re
import selectors
import signal
import subprocess
import sys
import tempfile
import time

from support import demo_processes, demo_server_mb, demo_sessions_row

MARK = b"Welcome to OKLah"


def measure(onboard, counts):
    """Rows for `demo_sessions_table`, one per count, and the server's idle MB."""
    folder = tempfile.mkdtemp(prefix="onboard-ssh-bench-")
    server = subprocess.Popen(
        [onboard, "serve-ssh", "--listen", "127.0.0.1:0", "--flow", "oklah", "--max-sessions", str(max(counts)),
         "--host-key", folder + "/host_key", "--state-dir", folder + "/state"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    line = server.stdout.readline().decode()
    port = re.search(r"127\.0\.0\.1:(\d+)", line).group(1)
    time.sleep(0.5)
    idle = demo_server_mb(server.pid)
    rows = []
    try:
        for count in counts:
            started = time.perf_counter()
            clients = [subprocess.Popen(
                ["ssh", "-tt", "-p", port, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                 "-o", "LogLevel=ERROR", "demo@127.0.0.1"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) for _ in range(count)]
            seen, output = {}, {client.stdout.fileno(): b"" for client in clients}
            # epoll, not select(): 500 sessions' descriptors pass select's 1024.
            waiting = selectors.DefaultSelector()
            for client in clients:
                waiting.register(client.stdout, selectors.EVENT_READ)
            while len(seen) < count and time.perf_counter() - started < 120:
                for key, _ in waiting.select(0.5):
                    descriptor = key.fileobj.fileno()
                    chunk = os.read(descriptor, 65536)
                    output[descriptor] += chunk
                    if MARK in output[descriptor] or not chunk:
                        waiting.unregister(key.fileobj)
                    if MARK in output[descriptor]:
                        seen[descriptor] = time.perf_counter() - started
            waiting.close()
            if len(seen) < count:
                sys.exit(f"only {len(seen)} of {count} sessions showed their first screen")
            time.sleep(0.3)
            rows.append(demo_sessions_row(count, list(seen.values()), server.pid, idle))
            for client in clients:
                client.send_signal(signal.SIGTERM)
            for client in clients:
                client.wait()
            deadline = time.time() + 10
            while demo_processes(server.pid)[0] and time.time() < deadline:
                time.sleep(0.1)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    return rows, idle


def main():
    rows, idle = measure(sys.argv[1], (1, 10, 50))
    print(f"\n`onboard serve-ssh` on loopback, OKLah in each session; server idle: {idle:.1f} MB\n")
    print_demo_sessions_table("ssh start", rows)


def print_demo_sessions_table(start, rows):
    print(f"| sessions at once | {start} to first screen, median ms | p99 ms | server MB | server growth per session MB | each session's onboard: RSS MB | PSS MB | private MB |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("\nRSS counts every page of the Swift runtime, Foundation and the other libraries in full in every")
    print("session; they are the same file pages for all of them. PSS shares them out; private is what")
    print("each session alone adds.")


if __name__ == "__main__":
    main()
