"""What scripts/serve_faults.py and serve_load.py share: sample images made with a real encoder,
a source server on 127.0.0.1 with fault modes and a download count per path, a cluster of
iris-server replicas behind nginx started through scripts/serve-cluster, a bounded load
generator recording every request, and readers of nginx's access log, /health and /metrics.
Python 3 standard library only; everything on loopback; every loop bounded in count and time.
"""
import http.client, http.server, json, os, random, re, shutil, signal, socket, subprocess, sys, tempfile
import threading, time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------------------- sample images

def find_convert():
    """An ImageMagick that really writes a JPEG (some machines have a stand-in `convert`)."""
    probe = tempfile.mkdtemp(prefix="serve-convert-")
    try:
        for name in ("magick", "convert-im6.q16", "convert-im7", "convert"):
            path = shutil.which(name)
            if not path:
                continue
            out = os.path.join(probe, "probe.jpg")
            subprocess.run([path, "-size", "8x8", "xc:red", out], capture_output=True)
            if os.path.exists(out) and open(out, "rb").read(2) == b"\xff\xd8":
                return path
        return None
    finally:
        shutil.rmtree(probe, ignore_errors=True)


def make_samples(folder):
    """photo.jpg (1024×768 JPEG q85) and logo.png (320×240 RGBA PNG), made by ImageMagick."""
    convert = find_convert()
    if not convert:
        sys.exit("serve: no working ImageMagick (apt-get install imagemagick)")
    os.makedirs(folder, exist_ok=True)
    jobs = {
        "photo.jpg": ["-seed", "29", "-size", "1024x768", "plasma:steelblue-orange", "-blur", "0x1",
                      "-quality", "85", "-sampling-factor", "4:2:0"],
        "logo.png": ["-size", "320x240", "radial-gradient:#ff000080-#0000ff00", "-define", "png:color-type=6"],
    }
    for name, args in jobs.items():
        out = os.path.join(folder, name)
        if not os.path.exists(out):
            subprocess.run([convert] + args + [out], check=True, capture_output=True)
    return {name: open(os.path.join(folder, name), "rb").read() for name in jobs}


# ---------------------------------------------------------------------------- source server

class SourceServer:
    """The images' origin on 127.0.0.1, a mode per path prefix:
    /img/<any>/<file>        the file (200, its type, its length)
    /slow/<any>/<file>       the same after `slow_seconds` (10)
    /garbage/<any>           200 image/jpeg, 64 KiB of random bytes
    /truncated/<any>/<file>  Content-Length of the whole file, half the bytes, then the connection closes
    anything else            404
    `down_url(path)` is a URL on a port where nothing listens (connection refused).
    Every request is counted by path (`downloads`)."""

    def __init__(self, files, slow_seconds=10):
        self.files, self.slow_seconds = files, slow_seconds
        self.lock = threading.Lock()
        self.counts = Counter()
        self.closing = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with server.lock:
                    server.counts[self.path] += 1
                parts = self.path.split("?")[0].strip("/").split("/")
                mode, name = parts[0], parts[-1]
                body = server.files.get(name)
                if mode == "garbage":
                    body = random.Random(self.path).randbytes(64 << 10)
                    return self.send(200, "image/jpeg", body)
                if body is None or mode not in ("img", "slow", "truncated"):
                    return self.send(404, "text/plain", b"not found\n")
                kind = "image/png" if name.endswith(".png") else "image/jpeg"
                if mode == "slow":
                    server.closing.wait(server.slow_seconds)
                if mode == "truncated":
                    self.send_response(200)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.send(200, kind, body)

            def send(self, status, kind, body):
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(body)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client (a replica past its timeout) went away
                self.close_connection = True

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        refused = socket.socket()
        refused.bind(("127.0.0.1", 0))
        self.down_port = refused.getsockname()[1]
        refused.close()  # bound once, never listening: connections are refused

    def down_url(self, path):
        return f"http://127.0.0.1:{self.down_port}{path}"

    def downloads(self, prefix=""):
        with self.lock:
            return {path: n for path, n in self.counts.items() if path.startswith(prefix)}

    def close(self):
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()


# ---------------------------------------------------------------------------- HTTP helpers

def get(port, path, timeout=10, headers=None):
    """(status, headers dict, body, seconds); status 0 when the connection failed."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, dict(response.getheaders()), body, time.perf_counter() - started
    except (OSError, http.client.HTTPException):
        return 0, {}, b"", time.perf_counter() - started
    finally:
        conn.close()


def health(port, timeout=5):
    """(status, parsed body or None, seconds)."""
    status, _, body, seconds = get(port, "/health", timeout=timeout)
    try:
        return status, json.loads(body), seconds
    except ValueError:
        return status, None, seconds


def wait_until(predicate, seconds, step=0.05):
    """Polls predicate until it is true or `seconds` pass; returns the seconds it took or None."""
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if predicate():
            return time.perf_counter() - started
        time.sleep(step)
    return None


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) / 1024
    except (OSError, AttributeError):
        return float("nan")


def alive(pid):
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def metrics(port):
    """{(name, labels): value} of a replica's /metrics (counters and gauges)."""
    status, _, body, _ = get(port, "/metrics")
    if status != 200:
        return {}
    values = {}
    for line in body.decode().splitlines():
        match = re.match(r"^([a-z_]+)(\{[^}]*\})?\s+([0-9.e+-]+)$", line)
        if match:
            values[(match.group(1), match.group(2) or "")] = float(match.group(3))
    return values


def metric_sum(values, name, **labels):
    total = 0.0
    for (metric, tags), value in values.items():
        if metric == name and all(f'{k}="{v}"' in tags for k, v in labels.items()):
            total += value
    return total


def free_port_block(count):
    """A first port p with p…p+count-1 free on 127.0.0.1 (checked by binding)."""
    for _ in range(200):
        base = random.randrange(20000, 60000 - count)
        sockets = []
        try:
            for port in range(base, base + count):
                s = socket.socket()
                s.bind(("127.0.0.1", port))
                sockets.append(s)
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    sys.exit("serve: no free block of ports")


# ---------------------------------------------------------------------------- the cluster

class Cluster:
    """scripts/serve-cluster N in a session of its own: nginx on `port`, replica i on port + i,
    its metrics on metrics_port + i; a fresh folder (caches, logs) per cluster."""

    def __init__(self, replicas, binary, env=None, restart=False):
        self.replicas = replicas
        self.port = free_port_block(replicas + 1)
        self.metrics_port = free_port_block(replicas + 1)
        self.dir = tempfile.mkdtemp(prefix="serve-cluster-")
        os.chmod(self.dir, 0o755)  # nginx's workers (nobody, when started as root) write its cache in here
        environment = dict(os.environ, CLUSTER_PORT=str(self.port), CLUSTER_METRICS_PORT=str(self.metrics_port),
                           CLUSTER_DIR=self.dir, CLUSTER_BINARY=binary, CLUSTER_RESTART="1" if restart else "0",
                           IRIS_DEV="1", IRIS_ALLOW_ADDRESSES="loopback")
        environment.update(env or {})
        self.log = open(os.path.join(self.dir, "serve-cluster.log"), "w")
        self.process = subprocess.Popen([os.path.join(ROOT, "scripts/serve-cluster"), str(replicas)], cwd=ROOT,
                                        env=environment, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        ready = wait_until(lambda: get(self.port, "/health", timeout=1)[0] == 200
                           and all(get(self.replica_port(i), "/health", timeout=1)[0] == 200 for i in self.indices()), 120, 0.2)
        if ready is None:
            self.stop()
            sys.exit(f"serve: the cluster did not start; see {self.dir}/serve-cluster.log")

    def indices(self):
        return range(1, self.replicas + 1)

    def replica_port(self, i):
        return self.port + i

    def replica_metrics_port(self, i):
        return self.metrics_port + i

    def pid(self, i):
        try:
            return int(open(os.path.join(self.dir, f"replica-{i}", "pid")).read())
        except (OSError, ValueError):
            return None

    def access_log(self, since=0.0):
        """nginx's access log lines from `since` (epoch seconds) on, parsed."""
        entries = []
        try:
            lines = open(os.path.join(self.dir, "nginx", "access.log")).read().splitlines()
        except OSError:
            return entries
        for line in lines:
            match = re.match(r'^([\d.]+) (\d+) ([\d.]+) (\S+) "([^"]*)" "([^"]*)" "(\S+) (\S+)', line)
            if not match or float(match.group(1)) < since:
                continue
            entries.append({"time": float(match.group(1)), "status": int(match.group(2)), "seconds": float(match.group(3)),
                            "cache": match.group(4), "upstreams": [a for a in re.split(r"[ ,:]+", match.group(5)) if a.isdigit()],
                            "upstream_statuses": match.group(6), "path": match.group(8)})
        return entries

    def stop(self):
        """SIGTERM to serve-cluster (it stops nginx and drains the replicas), then its session if it lingers."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=45)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.log.close()

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------- load

class Load:
    """`threads` clients on keep-alive connections to 127.0.0.1:port, each sending GETs for
    `paths(n)` (n counts requests across clients) until `stop()`, `max_requests` or `max_seconds`.
    Records (start, end, status, X-Cache-Status) per request; status 0 is a failed connection."""

    def __init__(self, port, paths, threads=4, max_requests=100_000, max_seconds=120, timeout=30):
        self.port, self.paths, self.timeout = port, paths, timeout
        self.max_requests, self.deadline = max_requests, time.time() + max_seconds
        self.records, self.lock, self.halt = [], threading.Lock(), threading.Event()
        self.sent = 0
        self.workers = [threading.Thread(target=self.run, daemon=True) for _ in range(threads)]
        for worker in self.workers:
            worker.start()

    def next_index(self):
        with self.lock:
            if self.sent >= self.max_requests:
                return None
            self.sent += 1
            return self.sent

    def run(self):
        conn = None
        while not self.halt.is_set() and time.time() < self.deadline:
            n = self.next_index()
            if n is None:
                break
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            started = time.time()
            status, cache = 0, ""
            try:
                conn.request("GET", self.paths(n))
                response = conn.getresponse()
                response.read()
                status, cache = response.status, response.getheader("X-Cache-Status", "")
                if response.will_close:
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = None
            with self.lock:
                self.records.append((started, time.time(), status, cache))
        if conn:
            conn.close()

    def stop(self):
        self.halt.set()
        for worker in self.workers:
            worker.join(timeout=self.timeout + 5)
        return self.records

    def wait(self):
        for worker in self.workers:
            worker.join(timeout=max(1, self.deadline - time.time() + self.timeout + 5))
        return self.records


def percentile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def summary(records, ok=(200,)):
    """n, failed (status not in ok), statuses, p50 and p99 in ms."""
    latencies = [(end - start) * 1000 for start, end, _, _ in records]
    statuses = Counter(status for _, _, status, _ in records)
    failed = sum(n for status, n in statuses.items() if status not in ok)
    return {"n": len(records), "failed": failed, "statuses": dict(sorted(statuses.items())),
            "p50": percentile(latencies, 50), "p99": percentile(latencies, 99)}


def fmt(s):
    statuses = " ".join(f"{k}×{v}" for k, v in s["statuses"].items())
    return f"sent {s['n']}, failed {s['failed']} [{statuses}], p50 {s['p50']:.0f} ms, p99 {s['p99']:.0f} ms"


def wrk(url, seconds, connections=8, threads=2, script=None, env=None):
    """wrk's requests/s, p50/p99 in ms, non-2xx/3xx count and total requests."""
    cmd = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "30s"]
    if script:
        cmd += ["-s", script]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, env=dict(os.environ, **(env or {})),
                         timeout=seconds + 60).stdout

    def latency(label):
        match = re.search(rf"\s{label}%\s+([\d.]+)(us|ms|s)\b", out)
        if not match:
            return float("nan")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rate": float(rate.group(1)) if rate else 0.0, "p50": latency("50"), "p99": latency("99"),
            "non2xx": int(errors.group(1)) if errors else 0, "total": int(total.group(1)) if total else 0}
