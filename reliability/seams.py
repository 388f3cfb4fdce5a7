#!/usr/bin/env python3
"""The seam explorer (issue 45): a model-based test that does what careful walks did by
hand, in any order, and checks after every step that nothing a person made was lost,
doubled or handed to someone else.

It drives the real `onboard` (RuckTracker, whose records and identities are the
richest) on pseudo-terminals against the embedded mock (a shared `--mock-db` file, so
this harness can read it) and a real `onboard-server` on SQLite. Hypothesis' stateful
testing picks the steps: open a window on the folder (on the mock or the server), log a
ruck, kill a window while it saves, quit, add an email, sign out, log in, restart the
server. Up to two windows share one state folder, as two terminals do.

After every step, against the service's database and the folder:
- no ruck is on the service twice, and none is on an account its window did not hold;
- no account is made that an uninterrupted run would not make: the guests nothing
  leads back to are at most the ones a person left by logging in elsewhere.
At the end of each run every window is closed, one opened per service (which syncs what
was kept on the device), and every ruck a window showed as saved is on an account the
folder can reach: the one it holds, or one with an email.

A failure is shrunk by Hypothesis to a short list of steps and printed; keep it as a
test in the suite (a tmux walk of the same steps) once the seam is closed.

    python3 reliability/seams.py [--examples N] [--steps N] [--fixed]
"""
import argparse
import json
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import time

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from server import NO_LIMITS, Server, build_folder  # noqa: E402
from terminal import NAMED, Terminal  # noqa: E402

WAIT = 30
PASSWORD = "march on!"
HOME = "Your rucks"
# Said by a window that found its folder changed by another and followed it: whatever
# the person pressed then was not done as the identity the folder no longer holds.
FOLLOWED = "Another Onboard window"
# Where a relaunch may put a person: Home, or a screen they were on when a window was
# killed (a form keeps what was typed, a question waits for its answer).
RESTING = [HOME, "Log in again", "Sign out?", "Log a ruck", "Guest User", "Signed In", "Add Email to Sync", "Log In",
           "Welcome to Pro!", "Your account is secured"]


class Finding(AssertionError):
    pass


class World:
    """What outlives one Hypothesis run's windows: the binaries."""

    def __init__(self):
        folder = build_folder()
        self.onboard = os.path.join(folder, "onboard")
        self.server_binary = os.path.join(folder, "onboard-server")


class Seams(RuleBasedStateMachine):
    world = None
    verbose = False

    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="onboard-seams-")
        self.state = os.path.join(self.folder, "state")
        self.mock = os.path.join(self.folder, "mock.sqlite")
        self.server = None
        self.windows = []
        self.saved = []        # (service, ruck text) a window showed as saved
        self.accounts = {}     # service -> [email] made by linking
        self.left_guests = 0   # guests a person left by logging in to an account
        self.counter = 0
        self.log = []

    # The places

    def service_url(self, service):
        if service == "server" and self.server is None:
            self.server = Server(self.world.server_binary, self.folder, NO_LIMITS)
        return self.server.url if service == "server" else None

    def database(self, service):
        return self.server.database if service == "server" else self.mock

    def query(self, service, sql):
        path = self.database(service)
        if not os.path.exists(path):
            return []
        with sqlite3.connect(path, timeout=30) as db:
            return db.execute(sql).fetchall()

    def sessions(self):
        """Each service's folder of RuckTracker: which kind of service, and the readable half
        of the session it holds (user id, whether a guest)."""
        for name in os.listdir(self.state) if os.path.isdir(self.state) else []:
            folder = os.path.join(self.state, name)
            try:
                service = open(os.path.join(folder, "service")).read().strip()
                session = json.load(open(os.path.join(folder, "session.json")))
            except (OSError, ValueError):
                continue
            if name.startswith("rucktracker"):
                yield ("mock" if service.startswith("mock://") else "server"), session

    def holders(self):
        """The user id each service's folder holds."""
        return {kind: session.get("userID") for kind, session in self.sessions()}

    def holder_is_guest(self, service):
        return next((session.get("isAnonymous", True) for kind, session in self.sessions() if kind == service), True)

    # Windows

    def open(self, service):
        argv = [self.world.onboard, "run", "rucktracker", "--state-dir", self.state]
        url = self.service_url(service)
        argv += ["--service", url] if url else ["--mock-db", self.mock]
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS", "NO_COLOR")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", ONBOARD_SECRET_STORE="file",
                   XDG_CONFIG_HOME=os.path.join(self.folder, "config"), DO_NOT_TRACK="1")
        window = Terminal(argv, env)
        window.service = service
        self.windows.append(window)
        self.expect(window, RESTING)
        return window

    def expect(self, window, texts, timeout=WAIT):
        if not window.wait_for(lambda screen: any(text in screen for text in texts), timeout):
            raise Finding(f"expected one of {texts} on the {window.service} window; the screen was:\n{window.text()}\n"
                          f"steps: {'; '.join(self.log)}")
        return window.text()

    def reached(self, window, text):
        """After a press: the screen `text`, or False when the window followed its folder
        instead (another window changed who it holds)."""
        screen = self.expect(window, [text, FOLLOWED])
        if text not in screen:
            # A note from an earlier follow may still be up while the press is handled.
            window.settle(0.3, 5)
            screen = self.expect(window, [text, FOLLOWED])
        return text in screen

    def press(self, window, *keys):
        for key in keys:
            window.send(NAMED.get(key, key.encode()))
            time.sleep(0.05)

    def type(self, window, text):
        for character in text:
            window.send(character.encode())
            time.sleep(0.01)

    def close(self, window, how):
        if how == "quit":
            window.send(b"\x03")
            window.wait_exit(10)
        window.close()
        self.windows.remove(window)

    def at_home(self, index):
        window = self.windows[index % len(self.windows)]
        return window, window.process.poll() is None and HOME in window.text() and window.settle(0.3, 5)

    # Rules: what a person or the world can do, in any order

    @precondition(lambda self: len(self.windows) < 2)
    @rule(service=st.sampled_from(["mock", "server"]))
    def open_window(self, service):
        self.log.append(f"open a window on the {service}")
        self.open(service)

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1), how=st.sampled_from(["quit", "kill"]))
    def close_window(self, index, how):
        window = self.windows[index % len(self.windows)]
        self.log.append(f"{how} the {window.service} window")
        self.close(window, how)

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1), kill_after=st.one_of(st.none(), st.floats(0, 1.5)))
    def log_a_ruck(self, index, kill_after):
        window, home = self.at_home(index)
        if not home:
            return
        self.counter += 1
        # Never a whole number: "3.0" reads back as "3 km".
        kilometres, minutes = f"{self.counter}.{self.counter % 9 + 1}", f"{10 + self.counter}"
        ruck = f"{kilometres} km in {minutes} min"
        self.log.append(f"log {ruck} on the {window.service} window" + (f", killed {kill_after:.2f} s after Save" if kill_after is not None else ""))
        self.press(window, "l")
        if not self.reached(window, "Log a ruck"):
            return
        self.type(window, kilometres)
        self.press(window, "Tab")
        self.type(window, minutes)
        self.press(window, "Tab", "Enter")
        if kill_after is not None:
            time.sleep(kill_after)
            self.close(window, "kill")
            return
        screen = self.expect(window, [ruck, "Log in again", "could not be saved", FOLLOWED])
        if ruck in screen or "Log in again" in screen:
            # Shown on Home, or kept for an account asked to log in again: the person was told it is theirs.
            self.saved.append((window.service, ruck))

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1))
    def add_an_email(self, index):
        window, home = self.at_home(index)
        if not home or not self.holder_is_guest(window.service):
            return
        self.press(window, "p")
        screen = self.expect(window, ["Guest User", "Signed In", FOLLOWED])
        if "Guest User" not in screen:
            self.press(window, "Esc")
            return
        self.counter += 1
        email = f"walker{self.counter}@example.org"
        self.log.append(f"add {email} on the {window.service} window")
        self.press(window, "Enter")
        if not self.reached(window, "Secure My Account"):
            return
        self.type(window, email)
        self.press(window, "Tab")
        self.type(window, PASSWORD)
        self.press(window, "Tab")
        self.type(window, PASSWORD)
        self.press(window, "Tab", "Enter")
        screen = self.expect(window, ["Your account is secured", "could not be added", FOLLOWED, HOME])
        if "Your account is secured" in screen:
            self.accounts.setdefault(window.service, []).append(email)
            self.press(window, "Enter")
            self.expect(window, [HOME])

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1), kill_after=st.one_of(st.none(), st.floats(0, 0.5)))
    def sign_out(self, index, kill_after):
        window, home = self.at_home(index)
        if not home or self.holder_is_guest(window.service):
            return
        self.log.append(f"sign out on the {window.service} window" + (f", killed {kill_after:.2f} s after" if kill_after is not None else ""))
        self.press(window, "p")
        screen = self.expect(window, ["Signed In", "Guest User", FOLLOWED])
        if "Signed In" not in screen:
            self.press(window, "Esc")
            return
        self.press(window, "Enter")
        if not self.reached(window, "Sign out?"):
            return
        self.press(window, "Right", "Enter")
        if kill_after is not None:
            time.sleep(kill_after)
            self.close(window, "kill")
            return
        self.expect(window, [HOME, FOLLOWED])

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1))
    def back_to_home(self, index):
        """Esc from wherever a relaunch left the person, until Home."""
        window = self.windows[index % len(self.windows)]
        for _ in range(3):
            screen = window.text()
            if HOME in screen or "Log in again" in screen or window.process.poll() is not None:
                return
            self.log.append(f"Esc on the {window.service} window")
            self.press(window, "Esc")
            window.settle(0.5, 5)

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1))
    def start_over_as_a_guest(self, index):
        """"Log in again" offers a new guest: the person takes it."""
        window = self.windows[index % len(self.windows)]
        if "Log in again" not in window.text():
            return
        self.log.append(f"continue as a guest on the {window.service} window")
        self.press(window, "Tab", "Tab", "Right", "Enter")
        self.expect(window, [HOME, FOLLOWED])

    @precondition(lambda self: self.windows and any(self.accounts.values()))
    @rule(index=st.integers(0, 1), pick=st.integers(0, 10))
    def log_in(self, index, pick):
        window, home = self.at_home(index)
        emails = self.accounts.get(window.service, [])
        if not home or not emails or not self.holder_is_guest(window.service):
            return
        email = emails[pick % len(emails)]
        self.press(window, "p")
        screen = self.expect(window, ["Guest User", "Signed In", FOLLOWED])
        if "Guest User" not in screen:
            self.press(window, "Esc")
            return
        self.log.append(f"log in to {email} on the {window.service} window")
        self.press(window, "Right", "Right", "Enter")
        if not self.reached(window, "Log in to an account"):
            return
        self.type(window, email)
        self.press(window, "Tab")
        self.type(window, PASSWORD)
        self.press(window, "Tab", "Enter")
        screen = self.expect(window, [HOME, "Invalid email", "Could not log in", FOLLOWED])
        if HOME in screen and FOLLOWED not in screen:
            # The guest it leaves is the person's choice, and the screen warned of it.
            self.left_guests += 1

    @precondition(lambda self: self.server is not None)
    @rule()
    def restart_the_server(self):
        self.log.append("restart the server")
        self.server.kill()
        self.server.start()

    # Invariants, after every step

    @invariant()
    def no_ruck_twice_and_none_on_a_stranger(self):
        for service in ("mock", "server"):
            if service == "server" and self.server is None:
                continue
            seen = {}
            for user, value in self.query(service, "SELECT user_id, value FROM records WHERE key = 'rucks'"):
                for ruck in json.loads(value):
                    seen.setdefault(described(ruck), []).append(user)
            for text, users in seen.items():
                if len(users) > 1:
                    raise Finding(f"on the {service}, the ruck {text!r} is kept {len(users)} times, on {sorted(set(users))}")

    @invariant()
    def no_account_an_uninterrupted_run_would_not_make(self):
        holders = set(self.holders().values())
        orphans = 0
        for service in ("mock", "server"):
            if service == "server" and self.server is None:
                continue
            for (user,) in self.query(service, "SELECT id FROM users WHERE email IS NULL"):
                if user not in holders:
                    orphans += 1
        if orphans > self.left_guests:
            raise Finding(f"{orphans} guests nothing leads back to, but a person left only {self.left_guests} by logging in")

    def teardown(self):
        if self.verbose:
            print("run:", "; ".join(self.log) or "(nothing)", flush=True)
        try:
            for window in list(self.windows):
                self.close(window, "quit")
            self.check_every_saved_ruck_is_reachable()
        finally:
            for window in list(self.windows):
                window.close()
            if self.server:
                self.server.stop()
            shutil.rmtree(self.folder, ignore_errors=True)

    def check_every_saved_ruck_is_reachable(self):
        for service in sorted({service for service, _ in self.saved}):
            window = self.open(service)
            self.back_to_home(len(self.windows) - 1)
            if "Log in again" in window.text():
                self.start_over_as_a_guest(len(self.windows) - 1)
            self.expect(window, [HOME])
            # What was kept on the device goes up as Home loads.
            window.wait_for(lambda text: "(pending)" not in text, 15)
            self.close(window, "quit")
            holders = set(self.holders().values())
            reachable = holders | {user for (user,) in self.query(service, "SELECT id FROM users WHERE email IS NOT NULL")}
            on_service = {}
            for user, value in self.query(service, "SELECT user_id, value FROM records WHERE key = 'rucks'"):
                for ruck in json.loads(value):
                    on_service.setdefault(described(ruck), set()).add(user)
            for saved_on, ruck in self.saved:
                if saved_on != service:
                    continue
                owners = on_service.get(ruck, set())
                if not owners & reachable:
                    raise Finding(f"the ruck {ruck!r} a window showed as saved on the {service} is on no account this folder reaches"
                                  f" (it is on {sorted(owners) or 'none'}); steps: {self.log}")


def described(entry):
    """`1.2 km in 11 min` of a stored entry (`… · 2026-11-27 10:00:01`)."""
    return entry.split(" · ")[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=8, help="runs of the model (default 8)")
    parser.add_argument("--steps", type=int, default=10, help="steps per run, at most (default 10)")
    parser.add_argument("--fixed", action="store_true", help="the same runs every time (the suite's pass)")
    parser.add_argument("--verbose", action="store_true", help="print each run's steps")
    arguments = parser.parse_args()
    Seams.world = World()
    Seams.verbose = arguments.verbose
    started = time.monotonic()
    try:
        run_state_machine_as_test(Seams, settings=settings(
            max_examples=arguments.examples, stateful_step_count=arguments.steps, deadline=None, database=None,
            derandomize=arguments.fixed, suppress_health_check=list(HealthCheck)))
    except Finding as finding:
        # Hypothesis printed the shrunk steps above ("Falsifying example").
        print(f"seams: FOUND a seam: {finding}")
        return 1
    print(f"seams: {arguments.examples} runs of up to {arguments.steps} steps in {time.monotonic() - started:.0f} s: no seam found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
