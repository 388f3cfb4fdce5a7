#!/usr/bin/env python3
"""onboard-server on each store, side by side in one run: SQLite (one instance), and
PostgreSQL with one instance and with two behind nginx (round robin, keep-alive to the
instances). PostgreSQL is a throwaway cluster with its default durability (fsync and
synchronous commit on), as a team would run it.

For anonymous sign-in, login, refresh and invite redeem at 16 and 64 clients (wrk,
benchmarks/load.lua): requests per second and p50/p99, each as a ratio of the ceiling
that matters for an endpoint that must write — a bare route doing one durable insert
transaction of a user-sized and a token-sized row in the same store, through the same
pool (bench-hello PORT DATABASE), measured in the same configuration. After every run
the database must hold exactly what the successful answers promised.

    python3 benchmarks/scale.py SERVER HELLO [SECONDS] [CLIENTS,…] [ENDPOINTS,…] [STORES,…]

STORES picks configurations by short name: sqlite, postgres, postgres2 (all by default).
"""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

from server import post, wrk
from support import free_port, wait_until_up

ENDPOINTS = (  # mode, what a success adds, counted as
    ("insert", "ceiling_users", "SELECT count(*) FROM ceiling_users"),
    ("anonymous", "users", "SELECT count(*) FROM users"),
    ("login", "refresh_tokens", "SELECT count(*) FROM refresh_tokens"),
    ("refresh", "refresh_tokens", "SELECT count(*) FROM refresh_tokens"),
    ("invite", "invites used", "SELECT count(*) FROM invites WHERE used_at IS NOT NULL"),
)
INVITES = 60000  # unused invites ready for each invite run: more than any run redeems


def postgres_tool(name):
    for version in sorted(os.listdir("/usr/lib/postgresql"), reverse=True):
        path = f"/usr/lib/postgresql/{version}/bin/{name}"
        if os.access(path, os.X_OK):
            return path
    sys.exit(f"{name} not found: install Debian's postgresql package")


class Postgres:
    """A throwaway PostgreSQL cluster on a free loopback port, default durability."""

    def __init__(self, folder):
        self.folder, self.port = folder, free_port()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        os.makedirs(folder, exist_ok=True)
        if self.as_postgres:
            shutil.chown(folder, "postgres")
        data = folder + "/data"
        subprocess.run(self.as_postgres + [postgres_tool("initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"],
                       check=True, capture_output=True)
        options = f"-p {self.port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        subprocess.run(self.as_postgres + [postgres_tool("pg_ctl"), "-D", data, "-o", options, "-l", folder + "/log", "-w", "start"],
                       check=True, capture_output=True)
        self.data = data

    def psql(self, database, sql, stdin=None):
        return subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database, "-At", "-c", sql],
                              input=stdin, capture_output=True, text=True, check=True).stdout.strip()

    def new_database(self, name):
        self.psql("postgres", f"CREATE DATABASE {name}")
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}?sslmode=disable"

    def stop(self):
        subprocess.run(self.as_postgres + [postgres_tool("pg_ctl"), "-D", self.data, "-m", "fast", "stop"], capture_output=True)


class SQLiteStore:
    def __init__(self, path):
        self.path = path

    def count(self, sql):
        with sqlite3.connect(self.path, timeout=30) as connection:
            return connection.execute(sql).fetchone()[0]

    def add_invites(self, owner, rows):
        with sqlite3.connect(self.path, timeout=30) as connection:
            connection.executemany("INSERT INTO children (id, name, created_by, created_at) VALUES (?, 'Bench', ?, ?)",
                                   [(child, owner, now) for child, _, now, _ in rows])
            connection.executemany("INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                                   [(code_hash, child, owner, now, expires) for child, code_hash, now, expires in rows])


class PostgresStore:
    def __init__(self, postgres, database):
        self.postgres, self.database = postgres, database

    def count(self, sql):
        return int(self.postgres.psql(self.database, sql))

    def add_invites(self, owner, rows):
        children = "".join(f"{child}\tBench\t{owner}\t{now}\n" for child, _, now, _ in rows)
        invites = "".join(f"{code_hash}\t{child}\t{owner}\t{now}\t{expires}\n" for child, code_hash, now, expires in rows)
        self.postgres.psql(self.database, "\\copy children (id, name, created_by, created_at) FROM STDIN", stdin=children)
        self.postgres.psql(self.database, "\\copy invites (code_hash, child_id, created_by, created_at, expires_at) FROM STDIN", stdin=invites)


def settled(store, sql):
    """The count once requests still in flight from a run have finished (it holds still)."""
    last, still_since = store.count(sql), time.perf_counter()
    while time.perf_counter() - still_since < 0.5:
        time.sleep(0.1)
        now = store.count(sql)
        if now != last:
            last, still_since = now, time.perf_counter()
    return last


def nginx(folder, ports):
    """nginx round robin over `ports`, keeping connections to them open."""
    port = free_port()
    upstreams = " ".join(f"server 127.0.0.1:{p};" for p in ports)
    os.makedirs(folder, exist_ok=True)
    with open(folder + "/nginx.conf", "w") as conf:
        conf.write(f"""
worker_processes 2; daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi; uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;
    upstream instances {{ {upstreams} keepalive 128; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{ proxy_pass http://instances; proxy_http_version 1.1; proxy_set_header Connection "";
                     proxy_set_header X-Forwarded-For $remote_addr; }}
    }}
}}
""")
    process = subprocess.Popen(["nginx", "-c", folder + "/nginx.conf", "-p", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process, port


class Configuration:
    """One or two server instances (and as many ceilings) on one store, one address each."""

    def __init__(self, name, server, hello, database, store, instances, folder):
        self.name, self.store, self.processes = name, store, []
        limits = ["--sign-in-limit", "100000000", "--login-failure-limit", "100000000", "--invite-limit", "100000000"]
        database_option = ["--database", database] if database.startswith("postgres") else ["--db", database]
        server_ports, hello_ports = [], []
        for _ in range(instances):  # one after the other: the first migrates
            port = free_port()
            process = subprocess.Popen([server, "--port", str(port), "--log-level", "warning"] + database_option + limits,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.processes.append(process)
            wait_until_up(f"http://127.0.0.1:{port}/api/v1/health", process)
            server_ports.append(port)
            port = free_port()
            process = subprocess.Popen([hello, str(port), database], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.processes.append(process)
            wait_until_up(f"http://127.0.0.1:{port}/hello", process)
            hello_ports.append(port)
        if instances == 1:
            self.base, self.ceiling = f"http://127.0.0.1:{server_ports[0]}", f"http://127.0.0.1:{hello_ports[0]}"
        else:
            proxy, port = nginx(folder + "/nginx-server", server_ports)
            self.processes.append(proxy)
            wait_until_up(f"http://127.0.0.1:{port}/api/v1/health", proxy)
            self.base = f"http://127.0.0.1:{port}"
            proxy, port = nginx(folder + "/nginx-hello", hello_ports)
            self.processes.append(proxy)
            wait_until_up(f"http://127.0.0.1:{port}/hello", proxy)
            self.ceiling = f"http://127.0.0.1:{port}"
        post(self.base, "/api/v1/auth/register", {"flow": "babybasics", "name": "Bench", "email": "bench@example.org", "password": "long enough"})
        self.owner = post(self.base, "/api/v1/auth/login", {"flow": "babybasics", "email": "bench@example.org", "password": "long enough"})["user_id"]
        self.folder = folder
        os.makedirs(folder, exist_ok=True)

    def run(self, mode, clients, seconds):
        """One wrk run: its result and the rows it added."""
        extra, base = {}, self.base
        tokens = os.path.join(self.folder, "tokens.txt")
        if mode == "insert":
            base = self.ceiling
        elif mode == "refresh":
            with open(tokens, "w") as out:
                for _ in range(clients * 2 + 2):
                    out.write(post(self.base, "/api/v1/auth/anonymous", {"flow": "oklah"})["session"]["refresh_token"] + "\n")
            extra = {"TOKENS": tokens, "SHARE": str(clients + 1)}
        elif mode == "invite":
            stamp, now = f"{time.time_ns()}", int(time.time())
            codes = [f"bench-{stamp}-{index}" for index in range(INVITES)]
            self.store.add_invites(self.owner, [(f"child-{stamp}-{index}", hashlib.sha256(code.encode()).hexdigest(), now, now + 86400)
                                                for index, code in enumerate(codes)])
            with open(tokens, "w") as out:
                out.write("\n".join(codes) + "\n")
            redeemer = post(self.base, "/api/v1/auth/anonymous", {"flow": "babybasics"})["session"]["access_token"]
            extra = {"TOKENS": tokens, "SHARE": str(INVITES), "ACCESS": redeemer}
        sql = next(count for name, _, count in ENDPOINTS if name == mode)
        before = settled(self.store, sql)
        result = wrk(base, mode, clients, seconds, extra)
        return result, settled(self.store, sql) - before

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            process.wait()


def main():
    server, hello = sys.argv[1], sys.argv[2]
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    levels = [int(n) for n in sys.argv[4].split(",")] if len(sys.argv) > 4 else [16, 64]
    # A subset of the endpoints (the ceiling always runs: every ratio needs it).
    modes = {"insert"} | set(sys.argv[5].split(",")) if len(sys.argv) > 5 else {mode for mode, _, _ in ENDPOINTS}
    folder = tempfile.mkdtemp(prefix="onboard-scale-")
    os.chmod(folder, 0o755)  # the postgres user reaches its cluster inside
    postgres = Postgres(folder + "/postgres")
    rows = []
    try:
        plans = [("sqlite", "SQLite, 1 instance", folder + "/server.sqlite", 1), ("postgres", "PostgreSQL, 1 instance", "one", 1),
                 ("postgres2", "PostgreSQL, 2 instances + nginx", "two", 2)]
        chosen = set(sys.argv[6].split(",")) if len(sys.argv) > 6 else {short for short, _, _, _ in plans}
        plans = [(name, where, instances) for short, name, where, instances in plans if short in chosen]
        for name, where, instances in plans:
            if where.endswith(".sqlite"):
                database, store = where, SQLiteStore(where)
            else:
                database = postgres.new_database(where)
                store = PostgresStore(postgres, where)
            configuration = Configuration(name, server, hello, database, store, instances, f"{folder}/{where.replace('.', '-').split('/')[-1]}")
            try:
                for clients in levels:
                    for mode, added, _ in ENDPOINTS:
                        if mode not in modes:
                            continue
                        result, grown = configuration.run(mode, clients, seconds)
                        rows.append((name, mode, clients, result, grown, added))
            finally:
                configuration.stop()
    finally:
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print_tables(rows, levels, seconds)


def rate(result):
    return result["requests"] / result["seconds"]


def print_tables(rows, levels, seconds):
    print(f"\nStores side by side: loopback, {seconds} s per run, wrk (2 threads), request logging off, "
          "PostgreSQL with fsync and synchronous commit on\n")
    print("| store | endpoint | clients | req/s | p50 ms | p99 ms | 5xx | vs ceiling | rows added | nothing lost |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ceilings = {(name, clients): rate(result) for name, mode, clients, result, _, _ in rows if mode == "insert"}
    for name, mode, clients, result, grown, added in rows:
        ok = result["ok"]
        # A run ends with up to one request per client in flight: the server completes it,
        # wrk no longer counts it.
        fine = ok <= grown <= ok + clients
        label = "durable insert (ceiling)" if mode == "insert" else mode
        versus = "1.00x" if mode == "insert" else f"{rate(result) / ceilings[(name, clients)]:.2f}x"
        print(f"| {name} | {label} | {clients} | {rate(result):.0f} | {result['p50_ms']:.2f} | {result['p99_ms']:.2f} | "
              f"{result['server_errors']} | {versus} | {grown} {added} for {ok} 2xx | {'yes' if fine else 'NO'} |")
    print("\nTwo instances against one (same run, PostgreSQL):\n")
    print("| endpoint | clients | 1 instance req/s | 2 instances req/s | growth |")
    print("|---|---|---|---|---|")
    by = {(name, mode, clients): rate(result) for name, mode, clients, result, _, _ in rows}
    for clients in levels:
        for mode, _, _ in ENDPOINTS:
            one = by.get(("PostgreSQL, 1 instance", mode, clients))
            two = by.get(("PostgreSQL, 2 instances + nginx", mode, clients))
            if one and two:
                label = "durable insert (ceiling)" if mode == "insert" else mode
                print(f"| {label} | {clients} | {one:.0f} | {two:.0f} | {two / one:.2f}x |")


if __name__ == "__main__":
    main()
