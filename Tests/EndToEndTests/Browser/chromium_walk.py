"""A person's browser, for real: headless Chromium (Debian's chromium and
chromium-driver), driven over WebDriver, walks a device sign-in's pages.

    python3 chromium_walk.py ADDRESS allow EMAIL   # the QR's address, then sign in as EMAIL
                                                   # (at another provider: its Allow)
    python3 chromium_walk.py ADDRESS deny          # ... then Deny at the provider
    python3 chromium_walk.py ADDRESS type CODE     # the plain page, a code typed by hand
    python3 chromium_walk.py ADDRESS visit         # a page (another site's) that posts by itself

prints what the person saw, as JSON: each page's heading, the code field's value, any
error shown, and the browser's console errors (a page that tried to run a script, or
broke its own content policy, shows there).
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

address, action = sys.argv[1], sys.argv[2]
argument = sys.argv[3] if len(sys.argv) > 3 else ""
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


port = free_port()
profile = tempfile.mkdtemp(prefix="onboard-chromium-")
driver = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response).get("value")


try:
    for _ in range(100):
        try:
            if call("GET", "/status")["ready"]:
                break
        except OSError:
            time.sleep(0.1)
    options = {"binary": shutil.which("chromium") or "/usr/bin/chromium",
               # --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
               "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}"]}
    session = call("POST", "/session", {"capabilities": {"alwaysMatch": {
        "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}}})["sessionId"]
    base = f"/session/{session}"

    def find(css):
        return call("POST", base + "/element", {"using": "css selector", "value": css})[ELEMENT]

    def text(css):
        try:
            return call("GET", f"{base}/element/{find(css)}/text")
        except urllib.error.HTTPError:
            return None

    def click(css):
        """Clicks, then waits for the next page to have loaded (a form's post and its
        redirects): WebDriver's click need not wait for the navigation it starts. The
        button clicked goes stale once its page is gone."""
        button = find(css)
        call("POST", f"{base}/element/{button}/click", {})
        for _ in range(200):
            try:
                call("GET", f"{base}/element/{button}/name")
            except urllib.error.HTTPError:
                ready = call("POST", base + "/execute/sync", {"script": "return document.readyState", "args": []})
                if ready == "complete":
                    return
            time.sleep(0.05)

    seen = []

    def note():
        seen.append({"url": call("GET", base + "/url"), "heading": text("h1"), "error": text(".error")})

    def confirming():
        return (seen[-1]["heading"] or "").startswith("Sign in to a terminal with")

    call("POST", base + "/url", {"url": address})
    note()
    if action == "visit":
        # Another site's page that posts by itself: wait for where it lands.
        for _ in range(100):
            if call("GET", base + "/url") != address:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        note()
    elif not confirming():
        code_field = find("#code")
        seen[-1]["code"] = call("GET", f"{base}/element/{code_field}/property/value")
        if action == "type":
            call("POST", f"{base}/element/{code_field}/clear", {})
            call("POST", f"{base}/element/{code_field}/value", {"text": argument})
        click("form button[type=submit]")
        note()
    if action in ("allow", "deny") and confirming():
        # The page says which terminal would be signed in: Continue.
        seen[-1]["says"] = text("p")
        click("form button[type=submit]")
        note()
    if action in ("allow", "deny") and seen[-1]["heading"] == "Development sign-in":
        if action == "allow":
            call("POST", f"{base}/element/{find('#email')}/value", {"text": argument})
        click(f"button[name=decision][value={action}]")
        note()
    elif action in ("allow", "deny"):
        # Another provider's own page: its Allow or Deny button.
        try:
            click(f"button[value={action}]")
        except urllib.error.HTTPError:
            source = call("GET", base + "/source")
            print(json.dumps({"pages": seen, "console_errors": [], "stuck_on": source[:2000]}))
            raise
        note()
    try:
        logs = call("POST", base + "/se/log", {"type": "browser"}) or []
    except urllib.error.HTTPError:
        logs = []
    errors = [entry["message"] for entry in logs if entry.get("level") == "SEVERE" and "favicon" not in entry["message"]]
    print(json.dumps({"pages": seen, "console_errors": errors}))
    call("DELETE", base)
finally:
    driver.terminate()
    shutil.rmtree(profile, ignore_errors=True)
