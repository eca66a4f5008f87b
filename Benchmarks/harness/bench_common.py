"""What the benchmark drivers share: running a tool under /usr/bin/time -v, a free loopback port,
waiting for a server to answer."""
import re, resource, socket, subprocess, sys, time, urllib.request

def timed(cmd, env=None):
    """Runs cmd under /usr/bin/time -v; returns (seconds, peak RSS in MiB, stdout). Exits on failure."""
    elapsed, rss, _, out = timed_cpu(cmd, env)
    return elapsed, rss, out


def timed_cpu(cmd, env=None):
    """timed, and the CPU time (user + system, in seconds) of cmd and its children, measured to
    the microsecond from this process's reaped children (it includes /usr/bin/time's own, about
    a millisecond): (seconds, peak RSS in MiB, CPU seconds, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd[:3])}…\n{proc.stderr[-2000:]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1)) / 1024
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, rss, cpu, proc.stdout.strip()


def free_port():
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, seconds=120):
    """Returns once `url` answers; exits when it has not within `seconds` (a hang detector, not a
    measurement)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except Exception:
            time.sleep(0.2)
    sys.exit(f"not ready: {url}")
