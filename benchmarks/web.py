#!/usr/bin/env python3
"""`onboard serve-web` beside `onboard serve-ssh`, in one run: 1, 10 and 100 sessions at
once, each from opening its connection (a WebSocket; `ssh`) to its first screen, p50 and
p99, the server's memory and each session's; and a page load in headless Chromium, from
navigation to the first screen drawn by xterm.js.

    python3 benchmarks/web.py ONBOARD [COUNTS]     # COUNTS: 1,10,100 by default
"""
import base64
import json
import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import ssh
from support import demo_server_mb, demo_sessions_row

MARK = b"Welcome to OKLah"
HERE = os.path.dirname(os.path.abspath(__file__))


class Socket:
    """A WebSocket client, enough for the terminal's socket: the handshake, one masked
    text frame (the page's hello), then the server's frames read as bytes."""

    def __init__(self, port):
        self.started = time.perf_counter()
        # Connected without blocking, as a browser connects: a connection the server's
        # listen queue holds back must not hold back the harness's other pages.
        self.connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.connection.setblocking(False)
        self.connection.connect_ex(("127.0.0.1", port))
        self.received = b""
        self.connected = False
        self.upgraded = False
        self.port = port

    def connect(self):
        """Sends the upgrade request once the connection is made."""
        error = self.connection.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if error:
            sys.exit(f"the connection failed: {os.strerror(error)}")
        key = base64.b64encode(os.urandom(16)).decode()
        self.connection.sendall((f"GET /terminal HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{self.port}\r\n\r\n").encode())
        self.connected = True

    def fileno(self):
        return self.connection.fileno()

    def hello(self):
        payload = json.dumps({"start": True, "columns": 80, "rows": 24}).encode()
        mask = os.urandom(4)
        frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.connection.sendall(frame)

    def read(self):
        """Reads what came; True once the first screen has."""
        self.received += self.connection.recv(65536)
        if not self.upgraded and b"\r\n\r\n" in self.received:
            head, self.received = self.received.split(b"\r\n\r\n", 1)
            if b" 101 " not in head.split(b"\r\n")[0]:
                sys.exit(f"the socket was refused: {head[:200]!r}")
            self.upgraded = True
            self.hello()
        # Frames are not taken apart: the mark is looked for in the bytes as they come.
        return self.upgraded and MARK in self.received

    def close(self):
        self.connection.close()


def measure_web(onboard, counts):
    folder = tempfile.mkdtemp(prefix="onboard-web-bench-")
    server = subprocess.Popen(
        [onboard, "serve-web", "--listen", "127.0.0.1:0", "--flow", "oklah", "--max-sessions", str(max(counts)),
         "--per-address", str(sum(counts) + 1), "--state-dir", folder + "/state"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    line = server.stdout.readline().decode()
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
    time.sleep(0.5)
    idle = demo_server_mb(server.pid)
    rows = []
    try:
        for count in counts:
            sockets = []
            seen = {}
            deadline = time.perf_counter() + 120
            # epoll, not select(): descriptors past 1024 at 500 sessions.
            waiting = selectors.DefaultSelector()
            while len(seen) < count and time.perf_counter() < deadline:
                # Connections are opened while earlier ones are answered: each page says
                # hello as soon as its socket is upgraded, as a browser would, not once
                # the harness has opened them all (which timed the harness at 500).
                if len(sockets) < count:
                    sockets.append(Socket(port))
                    waiting.register(sockets[-1], selectors.EVENT_WRITE)
                for key, _ in waiting.select(0 if len(sockets) < count else 0.5):
                    if not key.fileobj.connected:
                        key.fileobj.connect()
                        waiting.modify(key.fileobj, selectors.EVENT_READ)
                    elif key.fileobj.read():
                        seen[key.fileobj] = time.perf_counter() - key.fileobj.started
                        waiting.unregister(key.fileobj)
            waiting.close()
            if len(seen) < count:
                sys.exit(f"only {len(seen)} of {count} web sessions showed their first screen")
            time.sleep(0.3)
            rows.append(demo_sessions_row(count, list(seen.values()), server.pid, idle))
            for each in sockets:
                each.close()
            # Closed pages wait a minute for their visitor: end them as the server's stop would.
            server.send_signal(signal.SIGTERM)
            server.wait()
            server = subprocess.Popen(
                [onboard, "serve-web", "--listen", f"127.0.0.1:{port}", "--flow", "oklah", "--max-sessions", str(max(counts)),
                 "--per-address", str(sum(counts) + 1), "--state-dir", folder + "/state"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            server.stdout.readline()
            time.sleep(0.5)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return rows, idle


def page_load(onboard, rounds=5):
    """Milliseconds from navigation to the first screen in xterm.js' buffer, per round."""
    folder = tempfile.mkdtemp(prefix="onboard-web-page-")
    server = subprocess.Popen(
        [onboard, "serve-web", "--listen", "127.0.0.1:0", "--flow", "oklah", "--state-dir", folder + "/state"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    port = re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline().decode()).group(1)
    sys.path.insert(0, os.path.join(HERE, "..", "Tests", "EndToEndTests", "Browser"))
    import web_terminal
    driver = web_terminal.Driver()
    times = []
    try:
        for _ in range(rounds):
            browser = driver.browser()
            browser.open(f"http://127.0.0.1:{port}/")
            # Polled in the page each animation frame: performance.now() counts from navigation.
            times.append(browser.call("POST", "/execute/async", {"script": """
                var done = arguments[0];
                (function look() {
                  var term = window.onboardTerminal;
                  if (term) {
                    var buffer = term._core.buffer;
                    for (var y = 0; y < term.rows; y++) {
                      if (buffer.translateBufferLineToString(buffer.ydisp + y, true).indexOf("Welcome to OKLah") >= 0) return done(performance.now());
                    }
                  }
                  requestAnimationFrame(look);
                })();""", "args": []}))
            browser.call("DELETE", "")
    finally:
        driver.stop()
        server.send_signal(signal.SIGTERM)
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return sorted(times)


def main():
    onboard = sys.argv[1]
    counts = tuple(int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "1,10,100").split(","))
    web, web_idle = measure_web(onboard, counts)
    secure, ssh_idle = ssh.measure(onboard, counts)
    loads = page_load(onboard)
    print(f"\n`onboard serve-web` beside `onboard serve-ssh`, loopback, OKLah in each session; servers idle: web {web_idle:.1f} MB, ssh {ssh_idle:.1f} MB\n")
    print("serve-web (a WebSocket opened to the first screen's bytes):\n")
    ssh.print_demo_sessions_table("socket open", web)
    print("\nserve-ssh, the same run (`ssh` started to the first screen's bytes):\n")
    ssh.print_demo_sessions_table("ssh start", secure)
    print(f"\nA page load in headless Chromium, navigation to the first screen in xterm.js' buffer: median {loads[len(loads) // 2]:.0f} ms, "
          f"slowest {loads[-1]:.0f} ms of {len(loads)} (a new browser each time: no cache).")


if __name__ == "__main__":
    main()
