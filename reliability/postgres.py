"""A throwaway PostgreSQL for a harness (Debian's postgresql, which .ci/run installs):
`initdb` in the harness's folder (as the postgres user when we are root: PostgreSQL
refuses to run as root), `pg_ctl` on a free loopback port with fsync off, a new database
per run, stopped when the harness is done. The Swift suite's `ThrowawayPostgres` does
the same for the tests."""
import glob
import os
import shutil
import socket
import subprocess
import tempfile


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tool(name):
    """Debian keeps the server's programs under /usr/lib/postgresql/VERSION/bin."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) + ["/usr/local/bin", "/usr/bin"]:
        if os.access(os.path.join(folder, name), os.X_OK):
            return os.path.join(folder, name)
    return None


class Postgres:
    available = tool("initdb") is not None

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="onboard-seams-pg-")
        self.as_postgres = os.getuid() == 0
        if self.as_postgres:
            shutil.chown(self.folder, "postgres")
        self.data = os.path.join(self.folder, "data")
        self.port = free_port()
        self.count = 0
        self.run(tool("initdb"), "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        self.run(tool("pg_ctl"), "-D", self.data, "-o", options, "-l", os.path.join(self.folder, "log"), "-w", "start")

    def run(self, *argv):
        if self.as_postgres:
            argv = ("/usr/sbin/runuser", "-u", "postgres", "--") + argv
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout

    def new_database(self):
        """A new, empty database: its URL."""
        self.count += 1
        name = f"seams_{os.getpid()}_{self.count}"
        self.query("postgres", f"CREATE DATABASE {name}")
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}?sslmode=disable", name

    def query(self, database, sql):
        """The rows of one statement, each a tuple of text (NULL as None)."""
        psql = tool("psql") or "psql"
        out = subprocess.run([psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database, "-At",
                              "-F", "\x1f", "-P", "null=<NULL>", "-c", sql], capture_output=True, text=True, check=True).stdout
        return [tuple(None if cell == "<NULL>" else cell for cell in line.split("\x1f")) for line in out.splitlines() if line]

    def stop(self):
        try:
            self.run(tool("pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
