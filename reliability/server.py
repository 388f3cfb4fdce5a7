"""An onboard-server of a harness's own: a fresh SQLite database in the harness's
folder, `--dev`, and kill/start on the same port and file, as the harnesses do to it."""
import os
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from support import free_port, wait_until_up  # noqa: E402

# Rate limits out of the way: the harnesses sign in far more than one address should.
NO_LIMITS = ["--sign-in-limit", "100000000", "--login-failure-limit", "100000000",
             "--invite-limit", "100000000", "--sms-limit", "100000000"]


def build_folder():
    """Where `swift build` put the executables (ONBOARD_BIN when the caller knows: under
    `swift test`, asking SwiftPM would wait for the build folder's lock)."""
    if os.environ.get("ONBOARD_BIN"):
        return os.environ["ONBOARD_BIN"]
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()


class Server:
    """`database_url`: PostgreSQL in place of the folder's SQLite file."""

    def __init__(self, binary, folder, options=(), database_url=None, name="server"):
        self.binary, self.options, self.port = binary, list(options), free_port()
        self.database = os.path.join(folder, f"{name}.sqlite")
        self.database_url = database_url
        self.log = open(os.path.join(folder, f"{name}.log"), "ab")
        self.url = f"http://127.0.0.1:{self.port}"
        self.up = threading.Event()  # clear while killed
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), *(["--database", self.database_url] if self.database_url else ["--db", self.database]),
             "--dev", "--log-level", "warning", *self.options],
            stdout=self.log, stderr=self.log)
        wait_until_up(self.url + "/api/v1/health", self.process)
        self.up.set()

    def kill(self):
        self.up.clear()
        self.process.kill()
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait()
        self.log.close()
