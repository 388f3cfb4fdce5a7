"""Onboard in a pseudo-terminal, as a person's terminal runs it: the real binary on a
real pty (80x24, xterm-256color, UTF-8), its output drawn by pyte so the harness reads
the screen a person would, and key scripts (`examples/scripts/*.keys`) typed into it one
keystroke at a time."""
import array
import fcntl
import os
import re
import signal
import struct
import subprocess
import termios
import threading
import time

import pyte

NAMED = {
    "Enter": b"\r", "Tab": b"\t", "BTab": b"\x1b[Z", "Up": b"\x1b[A", "Down": b"\x1b[B",
    "Right": b"\x1b[C", "Left": b"\x1b[D", "Esc": b"\x1b", "Space": b" ", "BSpace": b"\x7f",
    "Delete": b"\x1b[3~", "Home": b"\x1b[H", "End": b"\x1b[F", "PgUp": b"\x1b[5~", "PgDn": b"\x1b[6~",
}


class Screen(pyte.Screen):
    """pyte's screen with the xterm sequences ncurses uses that pyte lacks: REP (repeat
    the last character, `rep` in xterm-256color's terminfo), SU and SD (scroll the
    region up or down, `indn`/`rin`). Without them ncurses' redraws come out garbled."""

    last = " "

    def draw(self, data):
        if data:
            self.last = data[-1]
        super().draw(data)

    def repeat_last(self, count=1, *rest, **options):
        super().draw(self.last * max(1, count))

    def scroll_up(self, count=1, *rest, **options):
        self._scroll(self.index, bottom=True, count=count)

    def scroll_down(self, count=1, *rest, **options):
        self._scroll(self.reverse_index, bottom=False, count=count)

    def _scroll(self, step, bottom, count):
        """Scrolls the region whatever the cursor's row, as xterm does; the cursor stays."""
        top, last = self.margins or (0, self.lines - 1)
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = last if bottom else top
        for _ in range(max(1, count)):
            step()
        self.cursor.x, self.cursor.y = x, y


class Stream(pyte.ByteStream):
    csi = {**pyte.ByteStream.csi, "b": "repeat_last", "S": "scroll_up", "T": "scroll_down"}


def parse_script(path):
    """A key script as steps: ("wait", text), ("key", bytes) one per keystroke, ("sms",)."""
    steps = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        if line.startswith("wait:"):
            steps.append(("wait", line[5:]))
            continue
        for token in re.findall(r"<<|<[^<>]+>|.", line):
            if token == "<<":
                steps.append(("key", b"<"))
            elif token == "<sms-code>":
                steps.append(("sms",))
            elif token.startswith("<C-") and len(token) == 5:
                steps.append(("key", bytes([ord(token[3]) & 0x1F])))
            elif token.startswith("<") and len(token) > 2:
                steps.append(("key", NAMED[token[1:-1]]))
            else:
                steps.append(("key", token.encode()))
    return steps


class Terminal:
    """One run of a program on a fresh pty. The harness keeps the pty's slave end open,
    so the terminal's modes can be read after the program is gone (`stty -g`)."""

    def __init__(self, argv, env, columns=80, rows=24):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.modes_before = termios.tcgetattr(self.slave)
        self.screen = Screen(columns, rows)
        self.stream = Stream(self.screen)
        self.output = bytearray()
        self.lock = threading.Lock()
        self.last_output = time.monotonic()
        self.process = subprocess.Popen(
            argv, env=env, stdin=self.slave, stdout=self.slave, stderr=self.slave,
            start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.output += data
                self.stream.feed(data)
                self.last_output = time.monotonic()

    def text(self):
        with self.lock:
            return "\n".join(self.screen.display)

    def shows(self, text):
        return text in self.text()

    def wait_for(self, predicate, timeout):
        """Polls the screen until `predicate(text)` is true; False after `timeout` or
        once the program has exited."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.text()):
                return True
            if self.process.poll() is not None:
                time.sleep(0.05)  # the last output may still be in the pty
                return predicate(self.text())
            time.sleep(0.02)
        return False

    def settle(self, quiet=0.3, timeout=5):
        """Waits until nothing has been drawn for `quiet` seconds (at most `timeout`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                idle = time.monotonic() - self.last_output
            if idle >= quiet:
                return True
            time.sleep(0.02)
        return False

    def drain(self):
        """Once the program has exited: waits until the reader has taken everything it
        wrote (its last bytes, which restore the terminal, may still be in the pty)."""
        pending = array.array("i", [0])
        for _ in range(200):
            fcntl.ioctl(self.master, termios.FIONREAD, pending)
            if pending[0] == 0:
                break
            time.sleep(0.01)
        time.sleep(0.05)  # the reader may hold bytes it has read but not yet fed

    def send(self, data):
        try:
            os.write(self.master, data)
        except OSError:
            pass

    def signal(self, number):
        try:
            os.kill(self.process.pid, number)
        except ProcessLookupError:
            pass

    def wait_exit(self, timeout):
        """The exit status, or None if the program is still running after `timeout`."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def restored(self):
        """Problems with the terminal the program left: modes changed, the alternate
        screen still up, the cursor still hidden."""
        self.drain()
        problems = []
        if termios.tcgetattr(self.slave) != self.modes_before:
            problems.append("terminal modes changed (stty -g differs)")
        with self.lock:
            output = bytes(self.output)
        if output.rfind(b"\x1b[?1049h") > output.rfind(b"\x1b[?1049l"):
            problems.append("alternate screen not left")
        if output.rfind(b"\x1b[?25l") > output.rfind(b"\x1b[?25h"):
            problems.append("cursor left hidden")
        return problems

    def close(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.reader.join(1)
