#!/usr/bin/env python3
"""Load with faults: CLIENTS clients (64) hammer onboard-server for SECONDS (90) with
anonymous sign-ins, logins, refresh rotations and invite redemptions, while the server
is SIGKILLed and restarted KILLS times (2). Clients do what Onboard's client does: a call
that gets no answer is retried, with the same Idempotency-Key where it has one, until it
is answered. Then the database is checked against every answer:

  - every guest a client was given exists, with its session; no guest exists that no
    client was given (beyond requests still in flight at a kill that never came back);
  - every refresh chain still works: no refresh refused during the run, and each
    client's last refresh token refreshes afterwards (families with a grace sibling,
    a repeat whose first answer was lost, are counted);
  - every invite is used at most once, by the user its success was answered to, and
    each code tried by two clients at once succeeded for at most one;
  - names offered are unique; no 5xx other than 503, no 401 on a refresh.

    python3 reliability/load.py [--clients N] [--seconds S] [--kills K] [--server BINARY]
"""
import argparse
import hashlib
import http.client
import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from server import NO_LIMITS, Server, build_folder  # noqa: E402
from support import rss_kib  # noqa: E402

MODES = ["anonymous", "login", "refresh", "invite"]


class Client:
    """One keep-alive connection; `call` retries until the server answers."""

    def __init__(self, server, tally):
        self.server, self.tally, self.connection = server, tally, None

    def call(self, path, body, token=None, key=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        if key:
            # As Onboard's own client: the key and this device's proof of it, without
            # which a guest's repeat is refused (issue 31) and its guest left unanswered.
            headers["Idempotency-Key"] = key
            headers["Idempotency-Proof"] = "load-client-proof-" + key
        while True:
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
                self.connection.request("POST", "/api/v1" + path, json.dumps(body), headers)
                response = self.connection.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException):
                self.connection = None
                self.tally.add("no answer (retried)")
                time.sleep(0.1)
                continue
            if response.status == 503 or response.status == 429:
                self.tally.add(str(response.status))
                time.sleep(0.1)
                continue  # the server says: again later
            self.tally.add(str(response.status))
            return response.status, (json.loads(data) if data else {})


class Tally:
    def __init__(self):
        self.lock, self.counts = threading.Lock(), {}

    def add(self, name, count=1):
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + count


class Run:
    def __init__(self, arguments, folder):
        self.arguments, self.server = arguments, Server(arguments.server, folder, NO_LIMITS)
        self.tally, self.stop = Tally(), threading.Event()
        self.guests, self.refresh_tokens, self.redeemed, self.names = {}, {}, {}, []
        self.lock, self.problems = threading.RLock(), []
        setup = Client(self.server, Tally())
        _, account = setup.call("/auth/register", {"flow": "babybasics", "name": "Load", "email": "load@example.org",
                                                       "password": "long enough"}, key="load-setup-register-0001")
        self.owner = account["user_id"]
        pairs = arguments.clients * arguments.seconds * 20
        now = int(time.time())
        self.codes = [f"load-{index}-{random.getrandbits(64):016x}" for index in range(pairs)]
        with sqlite3.connect(self.server.database, timeout=30) as db:
            db.executemany("INSERT INTO children (id, name, created_by, created_at) VALUES (?, 'Load', ?, ?)",
                           [(f"child-{index}", self.owner, now) for index in range(pairs)])
            db.executemany("INSERT INTO invites (code_hash, child_id, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                           [(hashlib.sha256(code.encode()).hexdigest(), f"child-{index}", self.owner, now, now + 86400)
                            for index, code in enumerate(self.codes)])

    def worker(self, number):
        client = Client(self.server, self.tally)
        mode = MODES[number % len(MODES)]
        if mode == "refresh":
            _, first = client.call("/auth/anonymous", {"flow": "oklah"}, key=f"load-refresh-owner-{number:08d}")
            token = first["session"]["refresh_token"]
            self.guests[first["session"]["user_id"]] = "setup"
        elif mode == "invite":
            _, first = client.call("/auth/anonymous", {"flow": "babybasics"}, key=f"load-invite-owner-{number:08d}")
            access, me = first["session"]["access_token"], first["session"]["user_id"]
            self.guests[me] = "setup"
            pair = number // len(MODES) // 2  # two clients share each code list and race for it
        sequence = 0
        while not self.stop.is_set():
            sequence += 1
            if mode == "anonymous":
                key = f"load-anonymous-{number:04d}-{sequence:08d}"
                status, body = client.call("/auth/anonymous", {"flow": "oklah"}, key=key)
                if status == 200:
                    with self.lock:
                        self.guests[body["session"]["user_id"]] = key
                        self.names += body["name_options"]
            elif mode == "login":
                status, _ = client.call("/auth/login", {"flow": "babybasics", "email": "load@example.org", "password": "long enough"})
            elif mode == "refresh":
                status, body = client.call("/auth/refresh", {"refresh_token": token})
                if status == 200:
                    token = body["refresh_token"]
                else:
                    self.problem(f"refresh answered {status}: {body}")
                    return
                self.refresh_tokens[number] = token
            else:
                # Both clients of a pair go through the same codes, each once: they race for each.
                code = self.codes[(pair * 100000 + sequence) % len(self.codes)]
                status, body = client.call("/invites/accept", {"code": code}, token=access,
                                              key=f"load-invite-{number:04d}-{sequence:08d}")
                if status == 200:
                    with self.lock:
                        if self.redeemed.get(code, me) != me:
                            self.problem(f"invite {code} redeemed twice: by {self.redeemed[code]} and {me}")
                        self.redeemed[code] = me
            if status >= 500:
                self.problem(f"{mode}: {status} {body}")

    def problem(self, text):
        with self.lock:
            if len(self.problems) < 20:
                self.problems.append(text)
            self.tally.add("problems")

    def run(self):
        threads = [threading.Thread(target=self.worker, args=(n,)) for n in range(self.arguments.clients)]
        for thread in threads:
            thread.start()
        memory = [rss_kib(self.server.process.pid)]
        span = self.arguments.seconds / (self.arguments.kills + 1)
        for _ in range(self.arguments.kills):
            time.sleep(span)
            memory.append(rss_kib(self.server.process.pid))
            self.server.kill()
            time.sleep(1)
            self.server.start()
        time.sleep(span)
        memory.append(rss_kib(self.server.process.pid))
        self.stop.set()
        for thread in threads:
            thread.join()
        self.memory = memory

    def check(self):
        client = Client(self.server, Tally())
        for number, token in self.refresh_tokens.items():
            status, body = client.call("/auth/refresh", {"refresh_token": token})
            if status != 200:
                self.problem(f"client {number}'s last refresh token no longer works: {status} {body}")
        with sqlite3.connect(self.server.database, timeout=30) as db:
            def rows(sql):
                return db.execute(sql).fetchall()
            guests = {user for (user,) in rows("SELECT id FROM users WHERE is_anonymous = 1")}
            owners = {user for (user,) in rows("SELECT user_id FROM refresh_tokens")}
            missing = set(self.guests) - guests
            if missing:
                self.problem(f"{len(missing)} guests answered but not in the database, e.g. {sorted(missing)[:3]}")
            unanswered = guests - set(self.guests)
            self.orphans = len(unanswered)
            if unanswered:
                self.problem(f"{len(unanswered)} guests created that no client was given, e.g. {sorted(unanswered)[:3]}")
            bare = guests - owners
            if bare:
                self.problem(f"{len(bare)} guests without a session")
            # A refresh repeated within the grace (its answer lost to a kill) mints a sibling
            # and leaves the first successor live, as a second terminal needs: counted, not a fault.
            self.siblings = len(rows("SELECT family_id FROM refresh_tokens WHERE rotated_at IS NULL AND revoked_at IS NULL "
                                     "GROUP BY family_id HAVING count(*) > 1"))
            used = dict(rows("SELECT code_hash, used_by FROM invites WHERE used_at IS NOT NULL"))
            answered = {hashlib.sha256(code.encode()).hexdigest(): user for code, user in self.redeemed.items()}
            if used != answered:
                wrong = [h for h in set(used) | set(answered) if used.get(h) != answered.get(h)]
                self.problem(f"{len(wrong)} invites whose use differs from the answers, e.g. "
                             f"{[(used.get(h), answered.get(h)) for h in wrong[:3]]}")
            offered = rows("SELECT count(*), count(DISTINCT name) FROM name_offers")[0]
            if offered[0] != offered[1] or len(self.names) != len(set(self.names)):
                self.problem("a name was offered twice")
            self.counts = {"guests": len(guests), "invites used": len(used),
                           "refresh rotations": rows("SELECT count(*) FROM refresh_tokens WHERE rotated_at IS NOT NULL")[0][0]}

    def report(self):
        counts = dict(sorted(self.tally.counts.items()))
        print(f"{self.arguments.clients} clients, {self.arguments.seconds} s, server SIGKILLed {self.arguments.kills} times")
        print(f"  answers: {counts}")
        print(f"  in the database: {self.counts}; guests no client was given: {self.orphans}; "
              f"refresh families with a grace sibling: {self.siblings}")
        print(f"  server memory (MB) before each kill and at the end: {[round(k / 1024, 1) for k in self.memory]}")
        for problem in self.problems:
            print("  PROBLEM " + problem)
        print(f"{self.tally.counts.get('problems', 0)} problems")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=int, default=90)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--server", help="the onboard-server binary (default: swift build's)")
    arguments = parser.parse_args()
    if not arguments.server:
        arguments.server = os.path.join(build_folder(), "onboard-server")
    with tempfile.TemporaryDirectory(prefix="onboard-load-") as folder:
        run = Run(arguments, folder)
        try:
            run.run()
            run.check()
        finally:
            run.server.stop()
        run.report()
        sys.exit(1 if run.tally.counts.get("problems") else 0)


if __name__ == "__main__":
    main()
