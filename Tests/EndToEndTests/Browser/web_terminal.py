"""Visitors of `onboard serve-web`, for real: headless Chromium (Debian's chromium and
chromium-driver), driven over WebDriver, types into the page's terminal and reads the
screen from xterm.js' own buffer (not pixels).

    python3 web_terminal.py BASE walk KEYS       # a key script (reliability/scripts/*.keys)
    python3 web_terminal.py BASE resize          # the window made smaller, then the screen
    python3 web_terminal.py BASE reconnect       # RuckTracker: a ruck typed, the socket dropped
    python3 web_terminal.py BASE watch           # a second browser on the watch link
    python3 web_terminal.py BASE second-visitor  # two visitors, two sessions
    python3 web_terminal.py BASE cross-origin    # another site's page opens the socket
    python3 web_terminal.py BASE screenshot PNG TEXT  # the page once TEXT shows, as a picture
    python3 web_terminal.py FILE gallery WORDS   # `onboard gallery`'s page, filtered by WORDS
    python3 web_terminal.py BASE said            # the page's bar once it says something (a refusal)
    python3 web_terminal.py LINK watch-link FIRST THEN  # a watch link: FIRST on screen, "ready"
                                                 # printed, then THEN awaited (another drives)

prints what the visitors saw, as JSON: screens, sizes, and the browser's console errors
(a script the page's content policy refused shows there).
"""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
KEYS = {"<Enter>": "\ue007", "<Tab>": "\ue004", "<Right>": "\ue014", "<Left>": "\ue012", "<Space>": " ", "<Esc>": "\ue00c"}
SCREEN = """
var term = window.onboardTerminal;
if (!term) return null;
// What is on screen: each row up to the terminal's width (xterm.js 3 keeps cells past it after a shrink).
var buffer = term._core.buffer, lines = [];
for (var y = 0; y < term.rows; y++) lines.push(buffer.translateBufferLineToString(buffer.ydisp + y, true, 0, term.cols));
return {text: lines.join("\\n"), columns: term.cols, rows: term.rows};
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """chromedriver, and the browsers (WebDriver sessions) it runs."""

    def __init__(self):
        self.port = free_port()
        self.profiles = []
        self.process = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if self.call("GET", "/status")["ready"]:
                    return
            except OSError:
                time.sleep(0.1)

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response).get("value")

    def browser(self, width=1000, height=640):
        profile = tempfile.mkdtemp(prefix="onboard-chromium-")
        self.profiles.append(profile)
        # --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
        options = {"binary": shutil.which("chromium") or "/usr/bin/chromium",
                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            f"--user-data-dir={profile}", f"--window-size={width},{height}"]}
        session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}}})["sessionId"]
        return Browser(self, f"/session/{session}")

    def stop(self):
        self.process.terminate()
        for profile in self.profiles:
            shutil.rmtree(profile, ignore_errors=True)


class Browser:
    def __init__(self, driver, base):
        self.driver, self.base = driver, base

    def call(self, method, path, body=None):
        return self.driver.call(method, self.base + path, body)

    def open(self, url):
        self.call("POST", "/url", {"url": url})

    def run(self, script, *args):
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def screen(self):
        return self.run(SCREEN) or {"text": "", "columns": 0, "rows": 0}

    def wait_for(self, text, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen["text"]:
                return screen
            time.sleep(0.05)
        raise SystemExit(json.dumps({"error": f"{text!r} never showed", "screen": self.screen()["text"]}))

    def send(self, text):
        """Keys, typed into the terminal as a person would (into xterm.js' text area)."""
        area = self.call("POST", "/element", {"using": "css selector", "value": ".xterm-helper-textarea"})[ELEMENT]
        self.call("POST", f"/element/{area}/value", {"text": text})

    def type_script(self, path):
        for line in open(path):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("wait:"):
                self.wait_for(line[5:])
            else:
                self.send(KEYS.get(line, line))
                time.sleep(0.1)

    def resize(self, width, height):
        self.call("POST", "/window/rect", {"width": width, "height": height})

    def errors(self):
        try:
            logs = self.call("POST", "/se/log", {"type": "browser"}) or []
        except urllib.error.HTTPError:
            logs = []
        return [entry["message"] for entry in logs if entry.get("level") == "SEVERE" and "favicon" not in entry["message"]]

    def status(self):
        return self.run("return [document.getElementById('status').textContent, document.getElementById('share').textContent]")


def changed_after(watcher, before, seconds=10):
    """Waits for the watcher's screen to differ from `before`; returns the milliseconds."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if watcher.screen()["text"] != before:
            return round((time.monotonic() - started) * 1000)
        time.sleep(0.02)
    return None


def other_site(target):
    """A page of another origin (another port) whose script opens the terminal's socket."""
    page = f"""<!doctype html><title>other</title><script>
var socket = new WebSocket("{target.replace('http', 'ws')}/terminal");
socket.onopen = function () {{ document.title = "opened"; socket.send(JSON.stringify({{start: true}})); }};
socket.onerror = function () {{ document.title = "refused"; }};
</script>""".encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://localhost:{server.server_address[1]}/"


def main():
    base, scenario = sys.argv[1].rstrip("/"), sys.argv[2]  # a file's path for `gallery`
    driver = Driver()
    result = {}
    browsers = []
    try:
        visitor = driver.browser()
        browsers.append(visitor)
        if scenario == "cross-origin":
            server, address = other_site(base)
            visitor.open(address)
            for _ in range(100):
                title = visitor.run("return document.title")
                if title in ("opened", "refused"):
                    break
                time.sleep(0.05)
            result["other_site"] = visitor.run("return document.title")
            server.shutdown()
        elif scenario == "watch-link":
            visitor.open(sys.argv[1])
            result["first"] = visitor.wait_for(sys.argv[3])
            print("ready", flush=True)
            result["then"] = visitor.wait_for(sys.argv[4], 60)
            result["said"] = visitor.status()[0]
        elif scenario == "gallery":
            visitor.open("file://" + sys.argv[1])
            count = "return Array.from(document.querySelectorAll('section.state')).filter(function (s) { return !s.hidden; }).length"
            result["sections"] = visitor.run(count)
            field = visitor.call("POST", "/element", {"using": "css selector", "value": "#search"})[ELEMENT]
            visitor.call("POST", f"/element/{field}/value", {"text": sys.argv[3]})
            time.sleep(0.3)
            result["shown_after_filter"] = visitor.run(count)
            result["first_shown"] = visitor.run(
                "var s = Array.from(document.querySelectorAll('section.state')).find(function (s) { return !s.hidden; }); return s ? s.id : null")
        else:
            visitor.open(base + "/")
        if scenario == "screenshot":
            visitor.wait_for(sys.argv[4])
            time.sleep(0.5)
            import base64
            with open(sys.argv[3], "wb") as picture:
                picture.write(base64.b64decode(visitor.call("GET", "/screenshot")))
        elif scenario == "said":
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not visitor.status()[0]:
                time.sleep(0.05)
            result["said"] = visitor.status()[0]
            result["screen"] = visitor.screen()
        elif scenario == "stopped":
            # The page stays open while its server is stopped (the test sends SIGTERM once
            # "ready" is printed): what it says then.
            visitor.wait_for("Welcome to OKLah")
            print("ready", flush=True)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and "ended" not in visitor.status()[0]:
                time.sleep(0.05)
            result["said"] = visitor.status()[0]
        elif scenario == "walk":
            visitor.type_script(sys.argv[3])
            result["screen"] = visitor.screen()
        elif scenario == "resize":
            result["before"] = visitor.wait_for("Welcome to OKLah")
            visitor.resize(700, 450)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and visitor.screen()["columns"] == result["before"]["columns"]:
                time.sleep(0.05)
            # The program redraws at the new size once its SIGWINCH is read: waited for,
            # not slept on (a loaded machine took longer than a second).
            while time.monotonic() < deadline and not all(text in visitor.screen()["text"] for text in ("Welcome to OKLah", "╭")):
                time.sleep(0.05)
            time.sleep(1)
            result["after"] = visitor.screen()
        elif scenario == "reconnect":
            visitor.wait_for("Your rucks")
            visitor.send("l")
            visitor.wait_for("Log a ruck")
            visitor.send("4.2")
            result["before"] = visitor.wait_for("4.2")
            visitor.run("window.onboardDropConnection()")
            visitor.wait_for("Log a ruck")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and visitor.status()[0]:
                time.sleep(0.05)
            time.sleep(0.5)
            result["after"] = visitor.screen()
            result["said"] = visitor.run("return window.onboardStatusSeen")
            visitor.send("\ue004" + "42")
            time.sleep(1)
            result["typed_after"] = visitor.screen()
        elif scenario == "watch":
            visitor.wait_for("Welcome to OKLah")
            result["shown_before_asked"] = visitor.status()[1]
            button = visitor.call("POST", "/element", {"using": "css selector", "value": "#share-button"})[ELEMENT]
            visitor.call("POST", f"/element/{button}/click", {})
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and "/watch#" not in visitor.status()[1]:
                time.sleep(0.05)
            link = visitor.status()[1].split(": ", 1)[1]
            result["link_shape"] = link.split("#")[0] + "#…"
            result["tokens"] = [visitor.run("return sessionStorage.getItem('onboard-session')"), link.split("#")[1]]
            watcher = driver.browser()
            browsers.append(watcher)
            watcher.open(link)
            result["watcher_first"] = watcher.wait_for("Welcome to OKLah")
            result["presenter_status"] = visitor.status()[0]
            before = watcher.screen()["text"]
            visitor.send("\ue007")
            result["watcher_saw_change_ms"] = changed_after(watcher, before)
            result["watcher_after"] = watcher.wait_for("Pick your name", 10)
            result["presenter_after"] = visitor.screen()
            watcher.send("\ue007")
            time.sleep(1)
            result["presenter_after_watcher_keys"] = visitor.screen()
            # The QA console (Ctrl-G), "Context and session": the session's own watch link.
            visitor.send("\ue009g\ue009")
            visitor.wait_for("QA console")
            visitor.send("\ue007")
            result["console"] = visitor.wait_for("watch link:", 10)
            # The watcher closes its tab: the presenter's bar stops counting it.
            watcher.call("DELETE", "")
            browsers.remove(watcher)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and visitor.status()[0]:
                time.sleep(0.05)
            result["presenter_status_after_watcher_left"] = visitor.status()[0]
        elif scenario == "second-visitor":
            visitor.wait_for("Welcome to OKLah")
            visitor.send("\ue007")
            result["first"] = visitor.wait_for("Pick your name")
            second = driver.browser()
            browsers.append(second)
            second.open(base + "/")
            result["second"] = second.wait_for("Welcome to OKLah")
            result["first_again"] = visitor.screen()
            result["tokens_differ"] = visitor.run("return sessionStorage.getItem('onboard-session')") != \
                second.run("return sessionStorage.getItem('onboard-session')")
        result["console_errors"] = [error for browser in browsers for error in browser.errors()]
        print(json.dumps(result))
    finally:
        for browser in browsers:
            try:
                browser.call("DELETE", "")
            except OSError:
                pass
        driver.stop()


if __name__ == "__main__":
    main()
