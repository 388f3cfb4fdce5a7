"""Issue 35's costs: what delivering analytics costs the client, and the funnel over
1,000,000 events on SQLite and on PostgreSQL, each next to a floor in the same run.

    python3 benchmarks/analytics.py BIN_DIR [RUNS]

Delivery: every built-in flow walked headless (`examples/scripts/*.keys`) with delivery on
(the default) and off (`DO_NOT_TRACK=1`), alternating; the walk includes recording,
queueing and the clean exit's flush to the embedded mock. The funnel: 162,602 OKLah runs
(about 1,000,000 events: 15% stop on the privacy screen, 10% at the name picker, 5% fail once and
retry) written straight into each store, then `onboard-server funnel oklah --json` against
the floor of one SQL statement that counts who reached each screen (`COUNT(DISTINCT)`
grouped by screen), the least any funnel reads.
"""
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(__file__))
from scale import Postgres  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEOPLE = 162_602  # about 1,000,000 events
FLOOR_SQL = ("SELECT screen, COUNT(DISTINCT anonymous_id) FROM analytics_events "
             "WHERE flow = 'oklah' AND occurred_at_ms >= 0 AND screen_index IS NOT NULL GROUP BY screen")


def walk(onboard, flow, environment):
    state = tempfile.mkdtemp(prefix="onboard-bench-analytics-")
    start = time.perf_counter()
    result = subprocess.run([onboard, "run", flow, "--headless", "--keys", f"{ROOT}/examples/scripts/{flow}.keys", "--state-dir", state],
                            env=environment, capture_output=True)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        sys.exit(f"{flow} walk failed: {result.stdout[-500:]}")
    return elapsed


def delivery(onboard, runs):
    base = dict(os.environ, LANG="C.UTF-8", ONBOARD_SECRET_STORE="file")
    base.pop("DO_NOT_TRACK", None)
    print("\n### Delivering analytics: the client's cost (headless walks, median ms of %d alternating runs)\n" % runs)
    print("| flow | delivery on | off (DO_NOT_TRACK=1) | on / off |")
    print("|---|---|---|---|")
    for flow in ["oklah", "babybasics", "abby", "rucktracker", "miga"]:
        on, off = [], []
        for _ in range(runs):
            on.append(walk(onboard, flow, base))
            off.append(walk(onboard, flow, dict(base, DO_NOT_TRACK="1")))
        print(f"| {flow} | {statistics.median(on):.0f} | {statistics.median(off):.0f} | {statistics.median(on) / statistics.median(off):.2f}x |")


def cohort_rows():
    """OKLah runs as the client records them: about 6 events a person."""
    random.seed(20261126)
    start = int(time.time() * 1000) - 86_400_000
    for number in range(PEOPLE):
        person = f"local-{uuid.UUID(int=random.getrandbits(128))}"
        at = start + number * 500
        kind = number % 20
        def row(event, screen, index=None, error=None, attempt=None, duration=None):
            return (str(uuid.UUID(int=random.getrandbits(128))), "oklah", event, screen, index, person, person, at, at // 1000,
                    "0.1.0", error, attempt, duration, None, "{}")
        yield row("onboarding_start", "privacy")
        yield row("screen_viewed", "privacy", 0)
        at += 2000
        if kind < 3:
            continue
        yield row("screen_viewed", "creating", 1)
        at += 500
        if kind == 3:
            yield row("onboarding_error", "creating", error="ERR-ONB-001")
            yield row("screen_viewed", "failed", 2)
            at += 3000
            yield row("onboarding_retry", "failed", attempt=1)
            yield row("screen_viewed", "creating", 1)
            at += 500
        yield row("screen_viewed", "pick_name", 3)
        at += 4000
        if kind in (4, 5):
            continue
        yield row("screen_viewed", "saving_name", 4)
        at += 200
        yield row("screen_viewed", "home", 5)
        yield row("onboarding_complete", "home", duration=at - (start + number * 500))


COLUMNS = ("id, flow, event, screen, screen_index, user_id, anonymous_id, occurred_at_ms, received_at, app_version, "
           "error_code, attempt_number, duration_ms, variant, properties")


def migrate(server, arguments):
    """Starts onboard-server on the store until it listens (its migrations done), then stops it."""
    process = subprocess.Popen([server, "--port", "0", "--log-level", "warning"] + arguments, stdout=subprocess.PIPE, text=True)
    for line in process.stdout:
        if "listening on" in line:
            break
    process.terminate()
    process.wait()


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        times.append((time.perf_counter() - start) * 1000)
        if result.returncode != 0:
            sys.exit(f"{command[0]} failed: {result.stderr[-500:]}")
    return statistics.median(times), result.stdout


def funnel(server, runs):
    rows = list(cohort_rows())
    folder = tempfile.mkdtemp(prefix="onboard-bench-funnel-")
    os.chmod(folder, 0o755)  # the cluster's folder inside it belongs to the postgres user
    database = folder + "/server.sqlite"
    migrate(server, ["--db", database])
    with sqlite3.connect(database) as connection:
        connection.executemany(f"INSERT INTO analytics_events ({COLUMNS}) VALUES ({', '.join('?' * 15)})", rows)
    postgres = Postgres(folder + "/postgres")
    try:
        url = postgres.new_database("funnel")
        migrate(server, ["--database", url])
        def cell(value):
            return "\\N" if value is None else str(value)
        postgres.psql("funnel", f"\\copy analytics_events ({COLUMNS}) FROM STDIN",
                      stdin="".join("\t".join(cell(value) for value in row) + "\n" for row in rows))
        postgres.psql("funnel", "ANALYZE analytics_events")
        print(f"\n### The funnel over {len(rows):,} events ({PEOPLE:,} OKLah runs; median ms of {runs} runs, the process included)\n")
        print("| store | onboard-server funnel | floor: one COUNT(DISTINCT) by screen | funnel / floor | `funnel --help` (start-up) |")
        print("|---|---|---|---|---|")
        version, _ = timed([server, "funnel", "--help"], runs)
        ours, output = timed([server, "funnel", "oklah", "--since", "30d", "--json", "--db", database], runs)
        report = json.loads(output)
        floor, _ = timed(["python3", "-c", f"import sqlite3; list(sqlite3.connect('{database}').execute(\"{FLOOR_SQL}\"))"], runs)
        print(f"| SQLite | {ours:.0f} | {floor:.0f} | {ours / floor:.2f}x | {version:.0f} |")
        ours_pg, output_pg = timed([server, "funnel", "oklah", "--since", "30d", "--json", "--database", url], runs)
        floor_pg, _ = timed(["psql", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres", "-d", "funnel", "-Atc", FLOOR_SQL], runs)
        print(f"| PostgreSQL | {ours_pg:.0f} | {floor_pg:.0f} | {ours_pg / floor_pg:.2f}x | {version:.0f} |")
        def numbers(text):
            parsed = json.loads(text)
            return {key: value for key, value in parsed.items() if key not in ("since", "until")}
        same = numbers(output_pg) == numbers(output)
        print(f"\nBoth stores: {report['started']:,} started, {report['completed']:,} completed, "
              f"{len(report['steps'])} steps; the two reports {'are the same' if same else 'DIFFER'}.")
    finally:
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)  # a million events and a cluster: gigabytes


def main():
    bin_dir = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if "--funnel-only" not in sys.argv:
        delivery(f"{bin_dir}/onboard", runs)
    funnel(f"{bin_dir}/onboard-server", runs)


if __name__ == "__main__":
    main()
