"""What the benchmark scripts share: reading a process from /proc (VmRSS, not ru_maxrss,
which a child inherits from its parent), a free loopback port, and waiting for a
server to answer."""
import socket
import subprocess
import sys
import time
import urllib.request


def status(pid):
    """The fields of /proc/PID/status; empty once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as lines:
            return dict(line.rstrip("\n").split(":\t", 1) for line in lines if ":\t" in line)
    except OSError:
        return {}


def rss_kib(pid):
    """Resident memory in KiB; 0 once the process is gone."""
    return int(status(pid).get("VmRSS", "0 kB").split()[0])


def rollup_kib(pid):
    """Pss and Private_Dirty in KiB (`/proc/PID/smaps_rollup`): a process's share of the
    pages it maps, and the pages no other process has. RSS counts every shared library
    page in full in every process that maps it."""
    values = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                parts = line.split()
                if len(parts) >= 2 and parts[0] in ("Pss:", "Private_Dirty:"):
                    values[parts[0][:-1]] = int(parts[1])
    except OSError:
        pass
    return values.get("Pss", 0), values.get("Private_Dirty", 0)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url, process):
    """Waits (15 s at most) until `url` answers; exits if the server dies first."""
    for _ in range(300):
        if process.poll() is not None:
            sys.exit(f"the server exited: {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except Exception:
            time.sleep(0.05)
    sys.exit(f"{url} never answered")


def percentile(values, fraction):
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def children_of(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(line) for line in out.split()]


def demo_processes(server_pid):
    """A demo server's processes below it, as (sessions, zygotes): each session's
    onboard, and the warm onboard they are forked from (DECISIONS 60), whose children
    they are."""
    sessions, zygotes = [], []
    for pid in children_of(server_pid):
        try:
            command = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        if b"--session-zygote" in command.split(b"\0"):
            zygotes.append(pid)
            sessions += children_of(pid)
        else:
            sessions.append(pid)
    return sessions, zygotes


def demo_server_mb(server_pid):
    """The server's memory and its zygote's: what serving costs before any session."""
    return (rss_kib(server_pid) + sum(rss_kib(pid) for pid in demo_processes(server_pid)[1])) / 1024


def demo_sessions_row(count, seconds, server_pid, idle_mb):
    """One row of a demo server's table (serve-ssh, serve-web): `count` sessions whose
    first screens came after `seconds`, the server's memory (its zygote's included), and
    each session's onboard as RSS, PSS and private."""
    sessions = demo_processes(server_pid)[0]
    server_mb = demo_server_mb(server_pid)
    rollups = [rollup_kib(pid) for pid in sessions]
    each = max(1, len(sessions))
    return [str(count), f"{percentile(seconds, 0.5) * 1000:.0f}", f"{percentile(seconds, 0.99) * 1000:.0f}", f"{server_mb:.1f}",
            f"{(server_mb - idle_mb) / count:.2f}", f"{sum(rss_kib(pid) for pid in sessions) / 1024 / each:.1f}",
            f"{sum(pss for pss, _ in rollups) / 1024 / each:.1f}", f"{sum(private for _, private in rollups) / 1024 / each:.1f}"]
