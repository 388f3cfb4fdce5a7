"""Reading a process from /proc: what the benchmarks sample memory with (VmRSS, not
ru_maxrss, which a child inherits from its parent)."""


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
