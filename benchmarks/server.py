#!/usr/bin/env python3
"""onboard-server under load, next to a bare Hummingbird "hello" route measured in the
same run as the ceiling. Loopback only, bounded runs, rate limits raised, request
logging off (as for any load test). Uses wrk (benchmarks/load.lua).

For anonymous sign-in, login and refresh at 1, 16 and 64 concurrent clients: requests
per second, p50/p99 latency, and the answers by class. After each run the database
must hold exactly what the successful answers promised (users or refresh tokens):
nothing lost. Registration is reported against raw bcrypt hashes per second (same
cost, every core).

    python3 benchmarks/server.py SERVER HELLO [SECONDS]
"""
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

import bcrypt

from support import free_port, wait_until_up

HERE = os.path.dirname(os.path.abspath(__file__))
CONCURRENCY = (1, 16, 64)


def post(base, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def wrk(base, mode, clients, seconds, extra_env=None):
    threads = min(2, clients)
    env = dict(os.environ, MODE=mode, THREADS=str(threads))
    env.update(extra_env or {})
    output = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(clients), "-d", f"{seconds}s", "--timeout", "10s",
         "-s", os.path.join(HERE, "load.lua"), base],
        env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def count(database, table):
    with sqlite3.connect(database) as connection:
        return connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def settled(database, table):
    """The count once requests still in flight from a run have finished (it holds still)."""
    last, still_since = count(database, table), time.perf_counter()
    while time.perf_counter() - still_since < 0.5:
        time.sleep(0.1)
        now = count(database, table)
        if now != last:
            last, still_since = now, time.perf_counter()
    return last


def hash_once(_):
    bcrypt.hashpw(b"long enough", bcrypt.gensalt(10))


def bcrypt_rate(seconds=3):
    """Raw bcrypt cost-10 hashes per second on every core, the ceiling for registration."""
    with multiprocessing.Pool(os.cpu_count()) as pool:
        start, done = time.perf_counter(), 0
        while time.perf_counter() - start < seconds:
            done += len(pool.map(hash_once, range(os.cpu_count() * 2)))
        return done / (time.perf_counter() - start)


def main():
    server, hello = sys.argv[1], sys.argv[2]
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    folder = tempfile.mkdtemp(prefix="onboard-load-")
    database = os.path.join(folder, "server.sqlite")
    port, hello_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    processes = [
        subprocess.Popen([server, "--port", str(port), "--db", database, "--log-level", "warning",
                          "--sign-in-limit", "100000000", "--login-failure-limit", "100000000"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        subprocess.Popen([hello, str(hello_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]
    rows, checks = [], []
    try:
        wait_until_up(base + "/api/v1/health", processes[0])
        wait_until_up(f"http://127.0.0.1:{hello_port}/hello", processes[1])
        post(base, "/api/v1/auth/register", {"flow": "babybasics", "name": "Bench", "email": "bench@example.org", "password": "long enough"})
        for clients in CONCURRENCY:
            ceiling = wrk(f"http://127.0.0.1:{hello_port}", "hello", clients, seconds)
            rows.append(("hello (ceiling)", clients, ceiling, None))
            for mode, table in (("anonymous", "users"), ("login", "refresh_tokens"), ("refresh", "refresh_tokens")):
                extra = {}
                if mode == "refresh":
                    # Fresh tokens, two per connection; each answer brings the next.
                    tokens = os.path.join(folder, "tokens.txt")
                    with open(tokens, "w") as out:
                        for _ in range(clients * 2 + 2):
                            out.write(post(base, "/api/v1/auth/anonymous", {"flow": "oklah"})["session"]["refresh_token"] + "\n")
                    extra = {"TOKENS": tokens, "SHARE": str(clients + 1)}
                before = settled(database, table)
                result = wrk(base, mode, clients, seconds, extra)
                grown = settled(database, table) - before
                rows.append((mode, clients, result, ceiling))
                checks.append((mode, clients, result["ok"], grown, table))
        registration = wrk(base, "register", 16, seconds)
        rows.append(("register (bcrypt 10)", 16, registration, None))
    finally:
        for process in processes:
            process.terminate()
            process.wait()
    hashes = bcrypt_rate()
    print_tables(rows, checks, registration, hashes, seconds)


def print_tables(rows, checks, registration, hashes, seconds):
    print(f"\nServer on loopback, {seconds} s per run, wrk (2 threads), request logging off\n")
    print("| endpoint | clients | req/s | p50 ms | p99 ms | 2xx | 4xx | 5xx | vs hello |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, clients, result, ceiling in rows:
        rate = result["requests"] / result["seconds"]
        versus = "" if ceiling is None else f"{rate / (ceiling['requests'] / ceiling['seconds']):.2f}x"
        print(f"| {name} | {clients} | {rate:.0f} | {result['p50_ms']:.2f} | {result['p99_ms']:.2f} | "
              f"{result['ok']} | {result['client_errors']} | {result['server_errors']} | {versus} |")
    register_rate = registration["ok"] / registration["seconds"]
    print(f"\nRegistration: {register_rate:.1f} accounts/s against {hashes:.1f} raw bcrypt (cost 10) hashes/s on "
          f"{os.cpu_count()} cores ({register_rate / hashes:.2f}x).")
    print("\nNothing lost: every successful answer is in the database. A run ends with up to one request")
    print("per client still in flight, which the server completes but wrk no longer counts:\n")
    print("| endpoint | clients | 2xx answers | rows added | cut off at the end | table | nothing lost |")
    print("|---|---|---|---|---|---|---|")
    for mode, clients, ok, grown, table in checks:
        fine = ok <= grown <= ok + clients
        print(f"| {mode} | {clients} | {ok} | {grown} | {grown - ok} | {table} | {'yes' if fine else 'NO'} |")


if __name__ == "__main__":
    main()
