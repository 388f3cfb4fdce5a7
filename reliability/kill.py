#!/usr/bin/env python3
"""Kill anywhere: each built-in flow's straight path (`reliability/scripts/FLOW.keys`, the
way a person who makes no mistake goes; `examples/scripts/` walk the error branches for
QA's coverage and change with it) is typed into the real
`onboard` on a pseudo-terminal and the client is sent SIGKILL, SIGTERM or SIGHUP after a
random keystroke (at once, after a random delay, or once the screen has settled); then
it is relaunched and the flow finished. With --server-kills, the *server* is killed
under the client's feet instead and restarted.

    python3 reliability/kill.py [--trials N] [--seed S] [--backend mock|server] [--server-kills]
                                [--jobs J] [--trial K]

Counted per trial, each a failure: a state file that does not parse; a terminal left
altered after SIGTERM/SIGHUP or a normal quit (modes as `stty -g` sees them, alternate
screen, cursor); a relaunch that shows an earlier screen than the last one the person
saw, or (when killed on a settled screen) loses a field already typed and left; a
relaunch that renames a state file as corrupt; a flow that cannot be finished; more
accounts or guests than an uninterrupted run makes; an account without a session.
Every trial is reproducible alone: `--seed S --trial K`.
"""
import argparse
import base64
import binascii
import concurrent.futures
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import json
import re

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from server import Server, build_folder  # noqa: E402
from terminal import Terminal, parse_script  # noqa: E402

FLOWS = ["oklah", "babybasics", "abby", "rucktracker", "miga"]
SIGNALS = [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP]
WAIT = 30  # seconds a screen may take: a relaunch within 15 s of a kill waits out the call the kill abandoned
# What the flows say when the service cannot be reached; the harness then waits for the
# server and presses the button again, as a person would.
OFFLINE = ["Can't reach", "Can't connect", "can't be reached", "connection", "Try Again", "offline"]


def binaries():
    return os.path.join(build_folder(), "onboard"), os.path.join(build_folder(), "onboard-server")


class Trial:
    def __init__(self, number, seed, backend, server_kills, onboard, server_binary):
        self.rng = random.Random(f"{seed}-{number}")
        self.number, self.backend, self.server_kills = number, backend, server_kills
        self.flow = FLOWS[number % len(FLOWS)]
        self.steps = parse_script(os.path.join(HERE, "scripts", self.flow + ".keys"))
        self.screen_of = self.groups()
        self.resume_waits = resume_waits(self.flow, self.steps)
        keystrokes = [i for i, step in enumerate(self.steps) if step[0] != "wait"]
        self.kill_after = self.rng.choice(keystrokes)
        self.moment = self.rng.choice(["at once", "delay", "settled"])
        self.delay = self.rng.uniform(0, 0.4) if self.moment == "delay" else 0
        self.signal = signal.SIGKILL if server_kills else self.rng.choice(SIGNALS)
        self.outage = self.rng.uniform(0.2, 3)
        self.folder = tempfile.mkdtemp(prefix=f"kill-{number}-")
        self.state = os.path.join(self.folder, "state")
        self.onboard, self.server_binary = onboard, server_binary
        self.failures, self.notes, self.terminals = [], [], []
        self.server = None

    def describe(self):
        who = "server" if self.server_kills else "client"
        return (f"trial {self.number}: {self.flow} on {self.backend}, {self.signal.name} to the {who} after step "
                f"{self.kill_after} ({self.steps[self.kill_after]!r}), {self.moment}"
                + (f" {self.delay * 1000:.0f} ms" if self.moment == "delay" else ""))

    # The run -------------------------------------------------------------------------

    def argv(self):
        argv = [self.onboard, "run", self.flow, "--state-dir", self.state]
        return argv + (["--service", self.server.url] if self.server else [])

    def env(self):
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS", "NO_COLOR")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   XDG_CONFIG_HOME=os.path.join(self.folder, "config"), XDG_STATE_HOME=os.path.join(self.folder, "xdg"))
        return env

    def database(self):
        return self.server.database if self.server else os.path.join(self.state, "mock.sqlite")

    def sms_code(self):
        with sqlite3.connect(self.database()) as db:
            row = db.execute("SELECT code FROM outbox WHERE kind = 'sms' ORDER BY id DESC LIMIT 1").fetchone()
        return row[0].encode() if row else b""

    def type(self, terminal, start, end, clearing=False):
        """Runs steps[start:end]; the index of the last wait seen, or raises on a screen
        that never came. `clearing`: after a relaunch a form may show what was typed
        before the kill, so each field is emptied (Ctrl-U, Ctrl-K) before it is typed again."""
        seen, fresh = None, True
        for index in range(start, end):
            step = self.steps[index]
            if step[0] == "wait" and clearing and index not in self.resume_waits:
                # After a relaunch the form may hold what was typed before the kill, so a
                # message the script shows from empty fields may not come: a person
                # reads the screen and goes on. Screens themselves must still come.
                terminal.wait_for(lambda screen: step[1] in words(screen), 3)
                seen, fresh = index, True
                continue
            if step[0] == "wait":
                if not self.wait(terminal, step[1]):
                    raise Stuck(f"{step[1]!r} never came; the screen:\n{terminal.text()}")
                seen, fresh = index, True
                continue
            if clearing and step == ("key", b" ") and terminal.text().count("[x]") >= self.spaces(index):
                continue  # the pick was kept: a person sees it made and does not undo it
            if clearing and fresh and step[0] == "key" and step[1] not in (b"\t", b"\x1b[Z", b"\r"):
                terminal.send(b"\x15\x0b")
                time.sleep(0.01)
            fresh = step[0] == "key" and step[1] in (b"\t", b"\x1b[Z", b"\r")
            if step[0] == "sms":
                for digit in self.sms_code():
                    terminal.send(bytes([digit]))
                    time.sleep(0.01)
            else:
                terminal.send(step[1])
                # A lone Esc is told from the start of a sequence by the pause after it
                # (ncurses' ESCDELAY): a person never types two 10 ms apart.
                time.sleep(0.15 if step[1] == b"\x1b" else 0.01)
        return seen

    def spaces(self, index):
        """How many picks (Space) the script makes on the screen of step `index`."""
        start = max(i for i in range(index + 1) if self.steps[i][0] == "wait")
        end = next((i for i in range(index, len(self.steps)) if self.steps[i][0] == "wait"), len(self.steps))
        return sum(1 for step in self.steps[start:end] if step == ("key", b" "))

    def wait(self, terminal, text):
        """Waits for `text`; when the screen says the service failed, waits for the server
        (if it was killed) and presses the button again, as the message asks (at most
        three times; the trial notes it)."""
        if self.server_kills and text in OUTAGE_OUTCOMES:
            shown = terminal.wait_for(lambda screen: text in screen or OUTAGE_OUTCOMES[text] in words(screen), WAIT)
            if shown and OUTAGE_OUTCOMES[text] in words(terminal.text()):
                self.notes.append("went on without the service")
            return shown
        if terminal.wait_for(lambda screen: text in screen or self.offline(screen), WAIT):
            if text in terminal.text():
                return True
            # After a client kill this is the service refusing a repeat of the call the
            # kill cut off while the first is, as far as it knows, still under way.
            self.notes.append("connection error shown" if self.server_kills else "error after relaunch, pressed again")
            for _ in range(3):
                if self.server:
                    self.server.up.wait()
                # Some screens retry by themselves (a checklist, a renewal): give them time.
                if terminal.wait_for(lambda screen: text in screen or not self.offline(screen), 5):
                    if text in terminal.text():
                        return True
                    if terminal.wait_for(lambda screen: text in screen or self.offline(screen), WAIT):
                        if text in terminal.text():
                            return True
                        continue
                    return False
                terminal.send(b"\r")
                if terminal.wait_for(lambda screen: text in screen, 5):
                    return True
        return False

    @staticmethod
    def offline(screen):
        return any(phrase in words(screen) for phrase in OFFLINE)

    def groups(self):
        """Wait steps with no keystroke between them are one screen: its first wait's index."""
        first, groups = None, {}
        for index, step in enumerate(self.steps):
            if step[0] == "wait":
                first = index if first is None else first
                groups[index] = first
            else:
                first = None
        return groups

    def screen_index(self, text):
        """Which of the script's screens the terminal shows (by the screen's first wait). A
        screen the script passes twice ("Create your account" before and after a taken
        email) is taken at its latest pass up to the kill, not a later one: a relaunch
        returns to where the person was, and going on from a later pass would type the
        wrong answers."""
        shown = [first for index, first in self.screen_of.items() if index == first and self.steps[index][1] in text]
        before = [index for index in shown if index <= self.kill_after]
        return max(before) if before else (min(shown) if shown else None)

    def run(self):
        os.makedirs(self.state)
        if self.backend == "server":
            self.server = Server(self.server_binary, self.folder)
        try:
            self.kill_and_relaunch()
        except Stuck as stuck:
            self.failures.append(f"flow not finished: {stuck}")
        finally:
            if self.server:
                self.server.stop()
        if not self.failures:
            shutil.rmtree(self.folder, ignore_errors=True)
        else:  # each run's output, to replay through terminal.Screen
            for number, terminal in enumerate(self.terminals, 1):
                with open(os.path.join(self.folder, f"run{number}.raw"), "wb") as raw:
                    raw.write(bytes(terminal.output))
        return self

    def launch(self):
        self.terminals.append(Terminal(self.argv(), self.env()))
        return self.terminals[-1]

    def kill_and_relaunch(self):
        first = self.launch()
        try:
            seen = self.type(first, 0, self.kill_after + 1)
            if self.moment == "settled":
                first.settle()
            time.sleep(self.delay)
            before_kill = first.text()
            if self.server_kills:
                # Down for `outage` seconds while the person goes on typing.
                self.server.kill()
                restart = threading.Timer(self.outage, self.server.start)
                restart.start()
                self.type(first, self.kill_after + 1, len(self.steps))  # the client goes on
                restart.join()
                self.quit(first)
                self.check_accounts()
                return
            first.signal(self.signal)
            status = first.wait_exit(5)
            if status is None:
                self.failures.append(f"still running 5 s after {self.signal.name}")
            elif self.signal != signal.SIGKILL:
                self.failures += [f"after {self.signal.name}: {problem}" for problem in first.restored()]
        finally:
            first.close()
        self.check_state_files()
        self.completed_before_kill = self.onboarding_complete()
        second = self.launch()
        try:
            self.check_resume(second, seen, before_kill)
            self.finish(second, self.resumed_at)
            self.quit(second)
        finally:
            second.close()
        if any("corrupt" in name for _, _, names in os.walk(self.state) for name in names):
            self.failures.append("a state file was set aside as corrupt on relaunch")
        self.check_accounts()

    def check_resume(self, terminal, seen, before_kill):
        groups = self.screen_of
        if not terminal.wait_for(lambda text: self.screen_index(text) is not None, WAIT):
            raise Stuck(f"the relaunch shows no screen of the script:\n{terminal.text()}")
        terminal.settle(timeout=2)
        self.resumed_at = self.screen_index(terminal.text())
        # A message (a refusal, "Something went wrong") or a spinner is not a place to
        # resume: the last screen seen that is one is where a relaunch may return to.
        last_seen = max((i for i in self.resume_waits if seen is not None and i <= seen), default=None)
        if self.completed_before_kill:
            # Onboarding done: a relaunch opens the flow's home, as an app does.
            last_seen = next(i for i, step in enumerate(self.steps) if step == ("wait", HOME[self.flow]))
        if last_seen is not None and self.resumed_at < groups[last_seen]:
            self.failures.append(f"relaunch went back from {self.steps[last_seen][1]!r} to {self.steps[self.resumed_at][1]!r}")
        # Typed fields are judged where they were typed: after onboarding is complete the
        # relaunch opens the home, not the app form the person was filling in.
        if self.moment == "settled" and not self.completed_before_kill and last_seen is not None and self.resumed_at == groups[last_seen]:
            after = terminal.text()
            for value in self.left_fields(last_seen):
                if value in before_kill and value not in after:
                    self.failures.append(f"typed {value!r}, left the field, and the relaunch lost it")

    def left_fields(self, seen):
        """Text typed into fields the person then left with Tab, since the last screen."""
        values, typed = [], b""
        for step in self.steps[seen + 1:self.kill_after + 1]:
            if step[0] != "key":
                continue
            if step[1] in (b"\t", b"\x1b[Z", b"\r"):
                if step[1] != b"\r" and len(typed) >= 2 and all(32 <= c < 127 or c >= 128 for c in typed):
                    values.append(typed.decode())
                typed = b""
            elif len(step[1]) == 1 or step[1][0] >= 128:
                typed += step[1]
            else:
                typed = b""
        return values

    def finish(self, terminal, start):
        self.type(terminal, start, len(self.steps), clearing=True)

    def quit(self, terminal):
        terminal.settle(timeout=2)
        terminal.send(b"\x03")
        if terminal.wait_exit(5) is None:
            self.failures.append("Ctrl-C did not quit within 5 s")
        else:
            self.failures += [f"after Ctrl-C: {problem}" for problem in terminal.restored()]

    def onboarding_complete(self):
        try:
            return json.load(open(os.path.join(self.state, self.flow, "session.json")))["onboardingComplete"]
        except (OSError, ValueError, KeyError):
            return False

    def check_state_files(self):
        for folder, _, names in os.walk(self.state):
            for name in names:
                path = os.path.join(folder, name)
                try:
                    if name.endswith(".json") or name.endswith(".session"):
                        record = json.load(open(path, encoding="utf-8"))
                        self.check_secret_beside(name, record)
                    elif name.endswith(".jsonl"):
                        for line in open(path, encoding="utf-8"):
                            json.loads(line)
                    elif name == "data-key" and len(base64.b64decode(open(path).read(), validate=True)) != 32:
                        self.failures.append("secrets/data-key is not a 256-bit key")
                except (ValueError, UnicodeDecodeError, binascii.Error) as error:
                    self.failures.append(f"{os.path.relpath(path, self.state)} does not parse: {error}")

    def check_secret_beside(self, name, record):
        """A kill leaves the old or the new secret, never neither: a session file that says
        its tokens are kept aside has them, a sealed progress file has its key."""
        kept = record.get("tokensKeptIn", "") if name == "session.json" else ""
        if kept and not self.has_secret(kept, self.flow, "session"):
            self.failures.append("session.json points at tokens that are not there")
        if name == "progress.json" and record.get("sealedContext") and not self.has_secret(kept or self.backend_of_key(), "", "data-key"):
            self.failures.append("progress.json is sealed with a key that is not there")

    def backend_of_key(self):
        return "a private file" if os.path.exists(os.path.join(self.state, "secrets", "data-key")) else "the system keyring"

    def has_secret(self, kept, flow, kind):
        """Whether the item exists where the state says: the file, or the keyring
        (`secret-tool`, when the harness runs under a Secret Service)."""
        if kept.startswith("a private file"):
            return os.path.exists(os.path.join(self.state, "secrets", f"{flow}.session" if kind == "session" else "data-key"))
        found = subprocess.run(["secret-tool", "lookup", "application", "onboard", "state_dir", self.state, "flow", flow, "kind", kind],
                               capture_output=True)
        return bool(found.stdout.strip())

    def check_accounts(self):
        with sqlite3.connect(self.database()) as db:
            users = db.execute("SELECT count(*) FROM users").fetchone()[0]
            bare = db.execute("SELECT count(*) FROM users u WHERE NOT EXISTS "
                              "(SELECT 1 FROM refresh_tokens r WHERE r.user_id = u.id)").fetchone()[0]
        expected = expected_users(self.flow, self.onboard)
        if users > expected:
            self.failures.append(f"{users} accounts where an uninterrupted run makes {expected}")
        if bare:
            self.failures.append(f"{bare} accounts without a session")


# Screens that go on without the service by design: MIGA's setup finishes in
# local-only mode when its sign-in cannot reach the server.
OUTAGE_OUTCOMES = {"Everything is ready.": "runs in local-only mode"}

# Where a relaunch after onboarding is complete opens.
HOME = {"oklah": "Check in", "babybasics": "Dashboard", "abby": "You're all set",
        "rucktracker": "Your rucks", "miga": "Day 1 of your mindful streak"}


def words(screen):
    """The screen's words in one line: a message wrapped in a box reads as one."""
    return " ".join(screen.replace("│", " ").split())


class Stuck(Exception):
    pass


def resume_waits(flow, steps):
    """The script's waits for text on a resume point: a screen a relaunch may open (not a
    progress, error, route or checklist screen, nor one marked `resumable: false`), read
    from the flow's own file. A wait for a message, or for a screen that is no resume
    point, names where the person was, not where a relaunch returns."""
    document = yaml.safe_load(open(os.path.join(ROOT, "Sources", "FlowFiles", "BuiltinFlows", flow + ".yaml"), encoding="utf-8"))
    pieces = []
    for screen in document["screens"]:
        if screen.get("kind") in ("progress", "error", "route", "checklist") or screen.get("resumable") is False:
            continue
        texts = [screen.get("title"), screen.get("body"), screen.get("empty")] + (screen.get("bullets") or [])
        texts += [part.get("label") for part in (screen.get("fields") or []) + (screen.get("actions") or [])]
        for text in texts:
            # Placeholders ({name}) are filled at run time: their literal parts remain.
            pieces += [piece.strip() for piece in re.split(r"\{[^}]*\}", str(text or "")) if len(piece.strip()) >= 4]
    return {index for index, step in enumerate(steps)
            if step[0] == "wait" and any(step[1] in piece or piece in step[1] for piece in pieces)}


_expected = {}
_expected_lock = threading.Lock()


def expected_users(flow, onboard):
    """Accounts the flow's script makes when nothing is killed (RuckTracker's signs out
    and in again): run once, headless, on a fresh embedded mock."""
    with _expected_lock:
        if flow not in _expected:
            folder = tempfile.mkdtemp(prefix=f"kill-expected-{flow}-")
            subprocess.run([onboard, "run", flow, "--headless", "--keys", os.path.join(HERE, "scripts", flow + ".keys"),
                            "--state-dir", folder], env=dict(os.environ, ONBOARD_SECRET_STORE="file"), capture_output=True, check=True)
            with sqlite3.connect(os.path.join(folder, "mock.sqlite")) as db:
                _expected[flow] = db.execute("SELECT count(*) FROM users").fetchone()[0]
            shutil.rmtree(folder, ignore_errors=True)
        return _expected[flow]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--backend", choices=["mock", "server"], default="mock")
    parser.add_argument("--server-kills", action="store_true", help="kill the server, not the client")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--trial", type=int, help="run only this trial")
    arguments = parser.parse_args()
    if arguments.server_kills:
        arguments.backend = "server"
    onboard, server = binaries()
    numbers = [arguments.trial] if arguments.trial is not None else range(arguments.trials)
    started, failed, counts = time.monotonic(), [], {}
    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        trials = [Trial(n, arguments.seed, arguments.backend, arguments.server_kills, onboard, server) for n in numbers]
        for trial in pool.map(Trial.run, trials):
            key = (trial.flow, trial.signal.name)
            counts[key] = counts.get(key, 0) + 1
            if trial.failures:
                failed.append(trial)
                print(f"FAIL {trial.describe()} (folder {trial.folder})", flush=True)
                for failure in trial.failures:
                    print("    " + failure.replace("\n", "\n    "), flush=True)
    errors_seen = sum(1 for trial in trials if trial.notes)
    print(f"{len(trials)} trials in {time.monotonic() - started:.0f} s on {arguments.backend}"
          + (" (server killed)" if arguments.server_kills else "") + f", seed {arguments.seed}: {len(failed)} failed")
    for flow in FLOWS:
        print(f"  {flow:12} " + "  ".join(f"{name} {counts.get((flow, name), 0)}" for name in [s.name for s in SIGNALS]))
    if arguments.server_kills:
        print(f"  connection error shown and recovered from in {errors_seen} trials")
    else:
        print(f"  an error after the relaunch, pressed through: {errors_seen} trials")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
