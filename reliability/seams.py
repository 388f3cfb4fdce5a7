#!/usr/bin/env python3
"""The seam explorer (issue 45): a model-based test that does what careful walks did by
hand, in any order, and checks after every step that nothing a person made was lost,
doubled or handed to someone else.

It drives the real `onboard` (RuckTracker, whose records and identities are the
richest) on pseudo-terminals against the embedded mock (a shared `--mock-db` file, so
this harness can read it) and a real `onboard-server` on SQLite and on PostgreSQL.
Hypothesis' stateful testing picks the steps: open a window on the folder (on any of the
three, with the client's clock moved or not, with DO_NOT_TRACK or not), log a ruck, kill
a window while it saves, quit, add an email, sign out, log in, log in again after the
session ended, move a server's clock a day or a month on, restart a server. Up to two
windows share one state folder, as two terminals do.

After every step, against the service's database and the folder:
- no ruck is on the service twice, and none is on an account its window did not hold;
- no account is made that an uninterrupted run would not make: the guests nothing
  leads back to are at most the ones a person left by logging in elsewhere.
At the end of each run every window is closed, one opened per service (which syncs what
was kept on the device), and every ruck a window showed as saved is on an account the
folder can reach: the one it holds, or one with an email. A window asked to "Log in
again" logs in to the account it held, as the screen tells the person to.

A failure is shrunk by Hypothesis to a short list of steps and printed; keep it as a
test in the suite (a tmux walk of the same steps) once the seam is closed.

    python3 reliability/seams.py [--examples N] [--steps N] [--fixed] [--no-postgres]
"""
import argparse
import atexit
import json
import os
import re
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
import urllib.request

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from postgres import Postgres  # noqa: E402
from server import NO_LIMITS, Server, build_folder  # noqa: E402
from terminal import NAMED, Terminal  # noqa: E402

WAIT = 30
PASSWORD = "march on!"
HOME = "Your rucks"
# Said by a window that found its folder changed by another and followed it: whatever
# the person pressed then was not done as the identity the folder no longer holds.
FOLLOWED = "Another Onboard window"
# Put up by a background answer when an account's session ended, whatever screen was up.
ENDED = "Log in again"
# Screens that can change without the person's doing: the window then lets keys go for
# a moment (they were typed at the screen before), so a person reads first, and so
# does the model.
CHANGED_UNDER = [FOLLOWED, ENDED]
# A guest's profile and an account's, where `p` on Home goes.
PROFILES = ["Guest User", "Signed In"]
# Longer than that moment (`FlowSession.keysMeantForTheScreenBefore`, 0.5 s).
READ_THE_NOTE = 0.7
# Said when an account's session ended as a ruck was saved: the ruck is that account's,
# kept on the device until the person logs in to it again.
KEPT = "kept on this device for your account"
# Where a relaunch may put a person: Home, or a screen they were on when a window was
# killed (a form keeps what was typed, a question waits for its answer).
RESTING = [HOME, "Log in again", "Sign out?", "Log a ruck", "Guest User", "Signed In", "Add Email to Sync", "Log In",
           "Welcome to Pro!", "Your account is secured"]


class Finding(AssertionError):
    pass


# Where a window's service may be: the embedded mock, onboard-server on SQLite, on PostgreSQL.
SERVERS = ["server", "postgres"]
DAY = 86_400


class World:
    """What outlives one Hypothesis run's windows: the binaries, and one PostgreSQL
    (each run has a database of its own on it)."""

    def __init__(self, postgres):
        folder = build_folder()
        self.onboard = os.path.join(folder, "onboard")
        self.server_binary = os.path.join(folder, "onboard-server")
        self.postgres = Postgres() if postgres else None
        if self.postgres:
            atexit.register(self.postgres.stop)

    @property
    def services(self):
        return ["mock", "server"] + (["postgres"] if self.postgres else [])


class Seams(RuleBasedStateMachine):
    world = None
    verbose = False

    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="onboard-seams-")
        self.state = os.path.join(self.folder, "state")
        self.mock = os.path.join(self.folder, "mock.sqlite")
        self.servers = {}      # "server"/"postgres" -> Server, started when first used
        self.databases = {}    # "postgres" -> its database's name
        self.windows = []
        self.saved = []        # (service, ruck text) a window showed as saved
        self.accounts = {}     # service -> [email] made by linking
        self.left_guests = 0   # guests a person left by logging in to an account
        self.left_guest_ids = set()  # and who they were: their rucks stay with them, as told
        self.counter = 0
        self.log = []

    # The places

    def service_url(self, service):
        if service == "mock":
            return None
        if service not in self.servers:
            url = None
            if service == "postgres":
                url, self.databases[service] = self.world.postgres.new_database()
            self.servers[service] = Server(self.world.server_binary, self.folder, NO_LIMITS, database_url=url, name=service)
        return self.servers[service].url

    def started(self):
        """The services this run has used so far."""
        return ["mock"] + [service for service in SERVERS if service in self.servers]

    def query(self, service, sql):
        if service == "postgres":
            return self.world.postgres.query(self.databases[service], sql)
        path = self.servers[service].database if service == "server" else self.mock
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
            if not name.startswith("rucktracker"):
                continue
            if service.startswith("mock://"):
                yield "mock", session
            for kind, server in self.servers.items():
                if service.rstrip("/") == server.url:
                    yield kind, session

    def holders(self):
        """The user id each service's folder holds."""
        return {kind: session.get("userID") for kind, session in self.sessions()}

    def holder_is_guest(self, service):
        return next((session.get("isAnonymous", True) for kind, session in self.sessions() if kind == service), True)

    # Windows

    def open(self, service, clock=None, tracking=False):
        argv = [self.world.onboard, "run", "rucktracker", "--state-dir", self.state]
        url = self.service_url(service)
        argv += ["--service", url] if url else ["--mock-db", self.mock]
        if clock:
            argv += ["--clock-offset", clock]
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS", "NO_COLOR", "DO_NOT_TRACK")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", ONBOARD_SECRET_STORE="file",
                   XDG_CONFIG_HOME=os.path.join(self.folder, "config"))
        if not tracking:
            env["DO_NOT_TRACK"] = "1"
        window = Terminal(argv, env)
        window.service = service
        self.windows.append(window)
        self.expect(window, RESTING)
        return window

    def expect(self, window, texts, timeout=WAIT, otherwise=lambda screen: False):
        if not window.wait_for(lambda screen: any(text in screen for text in texts) or otherwise(screen), timeout):
            raise Finding(f"expected one of {texts} on the {window.service} window; the screen was:\n{window.text()}\n"
                          f"steps: {'; '.join(self.log)}")
        return window.text()

    def reached(self, window, text, before):
        """After a press: the screen `text`, or False when the screen changed under the
        person instead (another window changed who the folder holds, or the session ended
        as the key was pressed, and the key was let go). `before`: the screen the key was
        pressed at; a note already up on it says nothing about the key, so it is waited on."""
        return text in self.answered(window, [text], before)

    def answered(self, window, texts, before):
        """The screen after a press: one of `texts`, or a note that it changed under the
        person, put up after the press (under load a window reads a key late, and the
        note it showed before is still there when the harness looks), or the same note
        again over a screen that changed (a window that followed again as the key came)."""
        return self.expect(window, texts + [note for note in CHANGED_UNDER if note not in before],
                           otherwise=lambda screen: screen != before and any(note in screen for note in CHANGED_UNDER))

    def press(self, window, *keys):
        """Returns the screen the keys were pressed at."""
        # A screen that changed under the person lets keys go for a moment (they were
        # typed at the screen before): a person reads it first, and so does the model.
        if any(text in window.text() for text in CHANGED_UNDER):
            window.settle(READ_THE_NOTE, 5)
        before = window.text()
        for key in keys:
            window.send(NAMED.get(key, key.encode()))
            time.sleep(0.05)
        return before

    def open_profile(self, window, wanted):
        """`p` on Home: True on the profile `wanted` ("Guest User" or "Signed In"). The
        other one goes back; a screen that changed under the person as `p` was pressed
        (a follow, "Log in again") let the key go, and is left as it is."""
        before = self.press(window, "p")
        screen = self.answered(window, PROFILES, before)
        if wanted in screen:
            return True
        if any(profile in screen for profile in PROFILES):
            self.press(window, "Esc")
        return False

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
    @rule(service=st.sampled_from(["mock", "server", "postgres"]), clock=st.sampled_from([None, None, "25h", "-2h", "31d"]),
          tracking=st.booleans())
    def open_window(self, service, clock, tracking):
        if service not in self.world.services:
            service = "server"
        self.log.append(f"open a window on the {service}" + (f", its clock {clock} off" if clock else "")
                        + (", tracking allowed" if tracking else ""))
        self.open(service, clock, tracking)

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
        before = self.press(window, "l")
        if not self.reached(window, "Log a ruck", before):
            return
        # The form may hold a draft (kept across a hang-up): a person sees it and clears it.
        self.press(window, "\x15")
        self.type(window, kilometres)
        self.press(window, "Tab", "\x15")
        self.type(window, minutes)
        self.press(window, "Tab", "Enter")
        if kill_after is not None:
            time.sleep(kill_after)
            self.close(window, "kill")
            return
        screen = self.expect(window, [ruck, "Log in again", "could not be saved", FOLLOWED])
        if "Log in again" in screen and KEPT not in screen:
            raise Finding(f"asked to log in again after Save, the window does not say where the ruck is:\n{screen}\n"
                          f"steps: {'; '.join(self.log)}")
        if ruck in screen or "Log in again" in screen:
            # Shown on Home, or kept for an account asked to log in again: the person was told it is theirs.
            self.saved.append((window.service, ruck))

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1))
    def hang_up_while_typing(self, index):
        """A person typing a ruck loses the terminal (a dropped SSH connection, a closed
        tab) and opens the flow again at once. The window that lost its terminal saves
        what was typed as it closes; held back by a busy machine (stopped here until the
        new window is up), that save lands after the new window read the folder. The new
        window shows what was typed all the same."""
        window, home = self.at_home(index)
        if not home:
            return
        self.counter += 1
        kilometres = f"{self.counter}.{self.counter % 9 + 1}"
        self.log.append(f"type {kilometres} km on the {window.service} window, hang up and open another at once")
        before = self.press(window, "l")
        if not self.reached(window, "Log a ruck", before):
            return
        self.type(window, kilometres)
        if not window.wait_for(lambda screen: kilometres in screen, WAIT):
            return  # not typed (the screen changed under the person): nothing to lose
        window.signal(signal.SIGSTOP)
        window.signal(signal.SIGHUP)
        again = self.open(window.service)
        window.signal(signal.SIGCONT)
        window.wait_exit(10)
        self.close(window, "kill")
        if not again.wait_for(lambda screen: kilometres in screen, WAIT):
            raise Finding(f"{kilometres} km typed before the hang-up is not on the window opened after it:\n{again.text()}\n"
                          f"steps: {'; '.join(self.log)}")

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1))
    def add_an_email(self, index):
        window, home = self.at_home(index)
        if not home or not self.holder_is_guest(window.service):
            return
        if not self.open_profile(window, "Guest User"):
            return
        self.counter += 1
        email = f"walker{self.counter}@example.org"
        self.log.append(f"add {email} on the {window.service} window")
        before = self.press(window, "Enter")
        if not self.reached(window, "Secure My Account", before):
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
        if not self.open_profile(window, "Signed In"):
            return
        before = self.press(window, "Enter")
        if not self.reached(window, "Sign out?", before):
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
            # A person waits for the screen to answer the key before pressing it again
            # (a lone Esc is answered only once the terminal's escape delay has passed).
            before = self.press(window, "Esc")
            window.wait_for(lambda now: now != before, 2)
            window.settle(0.3, 5)

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
        if not self.open_profile(window, "Guest User"):
            return
        self.log_in_from_guest(window, email)

    def log_in_from_guest(self, window, email):
        """From the guest's profile: Log In to `email` (the guest's own rucks stay with it)."""
        self.log.append(f"log in to {email} on the {window.service} window")
        guest = self.holders().get(window.service)
        before = self.press(window, "Right", "Right", "Enter")
        if not self.reached(window, "Log in to an account", before):
            return
        self.type(window, email)
        self.press(window, "Tab")
        self.type(window, PASSWORD)
        self.press(window, "Tab", "Enter")
        screen = self.expect(window, [HOME, "Invalid email", "Could not log in", FOLLOWED])
        if HOME in screen and FOLLOWED not in screen:
            # The guest it leaves is the person's choice, and the screen warned of it: "Rucks
            # logged as this guest stay with the guest account unless you bring them".
            self.left_guests += 1
            self.left_guest_ids.add(guest)

    def log_in_again(self, window):
        """"Log in again": the person logs in to the account the screen names, as told.
        False when the screen names none."""
        named = re.search(r"Your session as (\S+@\S+) has ended", window.text())
        if "Log in again" not in window.text() or not named:
            return False
        email = named.group(1)
        self.log.append(f"log in again to {email} on the {window.service} window")
        self.press(window, "\x15")  # Ctrl-U: what a pre-filled field held
        self.type(window, email)
        self.press(window, "Tab", "\x15")
        self.type(window, PASSWORD)
        self.press(window, "Tab", "Enter")
        self.expect(window, [HOME, "Invalid email", "Could not log in", FOLLOWED])
        return True

    @precondition(lambda self: self.windows)
    @rule(index=st.integers(0, 1))
    def log_in_again_when_asked(self, index):
        self.log_in_again(self.windows[index % len(self.windows)])

    @precondition(lambda self: self.servers)
    @rule(which=st.integers(0, 1), days=st.sampled_from([1, 2, 31]))
    def move_a_server_clock(self, which, days):
        """The server's clock a day or a month on (`/api/v1/dev/clock`): access tokens
        expire, an account's session ends after 30 days, a guest's never does."""
        service = sorted(self.servers)[which % len(self.servers)]
        server = self.servers[service]
        server.offset = getattr(server, "offset", 0) + days * DAY
        self.log.append(f"move the {service}'s clock {days} day(s) on")
        request = urllib.request.Request(server.url + "/api/v1/dev/clock", data=json.dumps({"offset_seconds": server.offset}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=10).read()

    @precondition(lambda self: self.servers)
    @rule(which=st.integers(0, 1))
    def restart_a_server(self, which):
        service = sorted(self.servers)[which % len(self.servers)]
        self.log.append(f"restart the {service}")
        server = self.servers[service]
        server.kill()
        server.start()
        # Its clock is its machine's again.
        server.offset = 0

    # Invariants, after every step

    @invariant()
    def no_ruck_twice_and_none_on_a_stranger(self):
        for service in self.started():
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
        for service in self.started():
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
            for server in self.servers.values():
                server.stop()
            shutil.rmtree(self.folder, ignore_errors=True)

    def check_every_saved_ruck_is_reachable(self):
        for service in sorted({service for service, _ in self.saved}):
            self.open_to_home(service)
            unreached = self.unreached(service)
            # A ruck kept on the device for an account goes up when the person logs in to
            # it, as the window said: they do (signing out of another account first).
            for email in self.accounts.get(service, []) if unreached else []:
                window = self.open_to_home(service, keep_open=True)
                if not self.holder_is_guest(service):
                    self.sign_out(len(self.windows) - 1, None)
                if self.holder_is_guest(service):
                    self.press(window, "p")
                    if "Guest User" in self.expect(window, ["Guest User", "Signed In"]):
                        self.log_in_from_guest(window, email)
                        window.wait_for(lambda text: HOME in text and "(pending)" not in text, 15)
                self.close(window, "quit")
                # Leaving the guest leaves its rucks, which were reached before: only those
                # unreached then are looked for again.
                unreached = self.unreached(service, among={ruck for ruck, _ in unreached})
                if not unreached:
                    break
            for ruck, owners in unreached:
                raise Finding(f"the ruck {ruck!r} a window showed as saved on the {service} is on no account this folder reaches"
                              f" (it is on {sorted(owners) or 'none'}); steps: {self.log}")

    def open_to_home(self, service, keep_open=False):
        """A window on `service` at Home, having logged in again when asked; closed after
        what was kept on the device went up, unless `keep_open`."""
        window = self.open(service)
        self.back_to_home(len(self.windows) - 1)
        if "Log in again" in window.text() and not self.log_in_again(window):
            self.start_over_as_a_guest(len(self.windows) - 1)
        self.expect(window, [HOME])
        # What was kept on the device goes up as Home loads.
        window.wait_for(lambda text: "(pending)" not in text, 15)
        if not keep_open:
            self.close(window, "quit")
        return window

    def unreached(self, service, among=None):
        """The rucks a window showed as saved on `service` (those `among`, if given) that are
        on no account the folder reaches (the one it holds, or one with an email) nor on a
        guest the person left by logging in without bringing its rucks, each with whom it
        is on."""
        reachable = set(self.holders().values()) | {user for (user,) in self.query(service, "SELECT id FROM users WHERE email IS NOT NULL")}
        reachable |= self.left_guest_ids
        on_service = {}
        for user, value in self.query(service, "SELECT user_id, value FROM records WHERE key = 'rucks'"):
            for ruck in json.loads(value):
                on_service.setdefault(described(ruck), set()).add(user)
        return [(ruck, on_service.get(ruck, set())) for saved_on, ruck in self.saved
                if saved_on == service and (among is None or ruck in among) and not on_service.get(ruck, set()) & reachable]


# A hang-up's window reopened at once, then a second window opened and taken back Home:
# one window nobody has used beside one in use, on one folder (CI's find, under load).
HUNG_UP_BESIDE_ANOTHER = [
    ("open_window", dict(service="server", clock="31d", tracking=True)),
    ("hang_up_while_typing", dict(index=0)),
    ("open_window", dict(service="server", clock="-2h", tracking=False)),
    ("back_to_home", dict(index=1)),
]

# Steps kept as written: each a seam found by a walk or by the explorer, replayed before
# the random runs whenever the runs are fixed (the suite's pass). `reached` says the
# replay got where the seam was, so a replay that drifted fails instead of passing idle.
REPLAYS = [
    ("a terminal lost while typing a ruck, the flow opened again at once: the closing window's save of what was typed lands"
     " after the new window read the folder, which follows it (found by CI, issue 50's session)", [
        ("open_window", dict(service="mock", clock=None, tracking=False)),
        ("hang_up_while_typing", dict(index=0)),
    ], lambda machine: any("hang up" in step for step in machine.log)),
    ("a window no one used follows the other window's account being secured, and Log a Ruck is pressed on it as it follows"
     " again (found by CI: the key went with no sign of why, for a value behind the screen)", HUNG_UP_BESIDE_ANOTHER + [
        ("add_an_email", dict(index=1)),
        ("hang_up_while_typing", dict(index=0)),
    ], lambda machine: any(step.startswith("add ") for step in machine.log)),
    ("a hang-up's late save lands before the new window's first save, which waits for its first frame: the new window"
     " follows it, and does not write over it (found under load, this issue's session)", HUNG_UP_BESIDE_ANOTHER + [
        ("hang_up_while_typing", dict(index=1)),
    ], lambda machine: sum("hang up" in step for step in machine.log) == 2),
    ("two windows with clocks 31 days fast, one reopened after a hang-up (its clock right): the other secures the account,"
     " and the fast one, opened on the skew the right one measured, ended the account's session for the folder on its own"
     " clock; the service is asked now (found by the quick run, this issue's session)", [
        ("open_window", dict(service="server", clock="31d", tracking=False)),
        ("hang_up_while_typing", dict(index=0)),
        ("back_to_home", dict(index=0)),
        ("open_window", dict(service="server", clock="31d", tracking=False)),
        ("add_an_email", dict(index=0)),
    ], lambda machine: any(step.startswith("add ") for step in machine.log)),
    ("two windows: one signs out to a new guest, and the other, its note up, lets a key go as it follows; the first logs"
     " in and is killed, and the other follows again at Log a Ruck to the same screen and the same note: nothing new to"
     " read, so the key is the person's (found by the quick run, issue 50's sixth session)", [
        ("open_window", dict(service="mock", clock=None, tracking=False)),
        ("add_an_email", dict(index=0)),
        ("sign_out", dict(index=0, kill_after=None)),
        ("add_an_email", dict(index=0)),
        ("open_window", dict(service="mock", clock=None, tracking=False)),
        ("sign_out", dict(index=0, kill_after=None)),
        ("hang_up_while_typing", dict(index=1)),
        ("log_in", dict(index=0, pick=0)),
        ("close_window", dict(index=0, how="kill")),
        ("hang_up_while_typing", dict(index=0)),
    ], lambda machine: any(step.startswith("log in to") for step in machine.log)
        and sum("hang up" in step for step in machine.log) == 2),
    ("a ruck saved after the account's session ended is the account's once it logs in again (issue 45 §1), on SQLite", [
        ("open_window", dict(service="server", clock=None, tracking=False)),
        ("add_an_email", dict(index=0)),
        ("move_a_server_clock", dict(which=0, days=31)),
        ("log_a_ruck", dict(index=0, kill_after=None)),
        ("log_in_again_when_asked", dict(index=0)),
    ], lambda machine: machine.saved and any(step.startswith("log in again") for step in machine.log)),
    ("the same on PostgreSQL, the window's clock a day fast", [
        ("open_window", dict(service="postgres", clock="25h", tracking=True)),
        ("add_an_email", dict(index=0)),
        ("move_a_server_clock", dict(which=0, days=31)),
        ("log_a_ruck", dict(index=0, kill_after=None)),
        ("log_in_again_when_asked", dict(index=0)),
    ], lambda machine: machine.saved and any(step.startswith("log in again") for step in machine.log)),
    ("a ruck saved as the account's session ended, then continue as a guest: the ruck stays the account's, said so, and the"
     " guest's form starts empty", [
        ("open_window", dict(service="server", clock=None, tracking=True)),
        ("add_an_email", dict(index=0)),
        ("move_a_server_clock", dict(which=0, days=31)),
        ("log_a_ruck", dict(index=0, kill_after=None)),
        ("start_over_as_a_guest", dict(index=0)),
        ("log_a_ruck", dict(index=0, kill_after=None)),
    ], lambda machine: len(machine.saved) == 2 and any(step.startswith("continue as a guest") for step in machine.log)),
    ("two windows: one signs out to a new guest, the other logs back in, the first logs a ruck (issue 45 §1)", [
        ("open_window", dict(service="mock", clock=None, tracking=False)),
        ("add_an_email", dict(index=0)),
        ("open_window", dict(service="mock", clock=None, tracking=False)),
        ("sign_out", dict(index=0, kill_after=None)),
        # The first press follows the folder (the other window changed it), the second logs in.
        ("log_in", dict(index=1, pick=0)),
        ("log_in", dict(index=1, pick=0)),
        ("log_a_ruck", dict(index=0, kill_after=None)),
    ], lambda machine: any(step.startswith("log in to") for step in machine.log) and machine.log[-1].startswith("log ")),
    ("two windows asked to log in again: one continues as a guest; the other follows it before a key is pressed, and"
     " keys typed at the screen it showed before do not act on the one it follows to (found by the explorer)", [
        ("open_window", dict(service="mock", clock=None, tracking=False)),
        ("add_an_email", dict(index=0)),
        ("close_window", dict(index=0, how="quit")),
        ("open_window", dict(service="mock", clock="31d", tracking=False)),
        ("open_window", dict(service="mock", clock="31d", tracking=False)),
        ("start_over_as_a_guest", dict(index=0)),
        ("start_over_as_a_guest", dict(index=1)),
        ("log_a_ruck", dict(index=1, kill_after=None)),
    ], lambda machine: any(step.startswith("continue as a guest") for step in machine.log) and machine.log[-1].startswith("log ")),
]


def replay(name, steps, reached):
    """One kept run, step by step, with the invariants after each and the end's check."""
    machine = Seams()
    try:
        for step, arguments in steps:
            getattr(machine, step)(**arguments)
            machine.no_ruck_twice_and_none_on_a_stranger()
            machine.no_account_an_uninterrupted_run_would_not_make()
        if not reached(machine):
            raise Finding(f"the replay {name!r} no longer reaches its seam; steps: {'; '.join(machine.log)}")
    finally:
        machine.teardown()


def described(entry):
    """`1.2 km in 11 min` of a stored entry (`… · 2026-11-27 10:00:01`)."""
    return entry.split(" · ")[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=8, help="runs of the model (default 8)")
    parser.add_argument("--steps", type=int, default=10, help="steps per run, at most (default 10)")
    parser.add_argument("--fixed", action="store_true", help="the same runs every time (the suite's pass)")
    parser.add_argument("--verbose", action="store_true", help="print each run's steps")
    parser.add_argument("--no-postgres", action="store_true", help="leave PostgreSQL out (it is in by default: Debian's postgresql)")
    arguments = parser.parse_args()
    if not arguments.no_postgres and not Postgres.available:
        print("seams: PostgreSQL's initdb not found: install Debian's postgresql (.ci/run does), or pass --no-postgres")
        return 2
    Seams.world = World(postgres=not arguments.no_postgres)
    Seams.verbose = arguments.verbose
    started = time.monotonic()
    try:
        if arguments.fixed:
            for name, steps, reached in REPLAYS:
                if "PostgreSQL" in name and not Seams.world.postgres:
                    continue
                replay(name, steps, reached)
                print(f"seams: replayed {name}", flush=True)
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
