#!/usr/bin/env python3
"""Fault tests of iris-server behind nginx (issue 29), driven by Benchmarks/runners/serve-faults.

Two replicas and nginx (scripts/serve-cluster 2, replicas restarted when they exit) on
127.0.0.1, sources from a server of this script's own on 127.0.0.1 (serve_common.SourceServer).
The steady load is `--threads` clients sending distinct URLs (a cachebuster each, so every
request passes nginx's cache and the result cache and is rendered by a replica: 1024×768 JPEG
→ fit 300 WebP) of 16 sources (nginx routes by source: both replicas get some). Scenarios, one line of numbers each; the exit status is 1 when a claim fails:
  a  SIGKILL to replica 1 under load: no more requests fail than were in flight; the replica is
     restarted and serves again
  b  SIGTERM to replica 2 under load: no request fails (it drains; nginx sends elsewhere)
  c  the source slow (10 s), garbage, truncated, down: each such request gets its 4xx/5xx,
     within the download timeout (+1 s) when slow, within 1 s otherwise; the steady load around it neither fails nor slows
     (p99 under 1 s); no render slot is held after the last fault request ends
  d  1 000 connections held open to replica 1 (idle, half a request, a finished keep-alive
     request): its RSS stays within 64 MiB of before, /health answers in under 1 s
  e  a flood of distinct renders (many clients) through nginx: each answered 200, or 429 past the
     queue, no other failure, no replica dies, and a render succeeds within 1 s after the flood stops
"""
import argparse, os, signal, socket, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
from serve_common import (Cluster, Load, SourceServer, alive, fmt, get, health, make_samples, metric_sum, metrics,
                          rss_mib, summary, wait_until)

DOWNLOAD_TIMEOUT = int(os.environ.get("FAULTS_DOWNLOAD_TIMEOUT", "4"))


class Faults:
    def __init__(self, args):
        self.args = args
        self.source = SourceServer(make_samples(args.samples), slow_seconds=10)
        # Sources slower than the download timeout: a 504 at the timeout, not a race with it.
        self.cluster = Cluster(2, args.binary, restart=True, env={"IRIS_DOWNLOAD_TIMEOUT": str(DOWNLOAD_TIMEOUT)})
        self.failures = []
        self.counter = 0
        self.lock = threading.Lock()

    def close(self):
        self.cluster.stop()
        self.source.close()
        if not self.args.keep:
            self.cluster.remove()

    def steady_path(self, tag):
        # 16 sources: nginx routes by source, so one source would load one replica only.
        return lambda n: f"/unsafe/rs:fit:300:0/cb:{tag}{n}/plain/{self.source.base}/img/steady-{n % 16}/photo.jpg@webp"

    def report(self, name, ok, line):
        print(f"{name}: {'ok' if ok else 'FAILED'}: {line}", flush=True)
        if not ok:
            self.failures.append(name)

    def served_by(self, i, since):
        port = str(self.cluster.replica_port(i))
        return [e for e in self.cluster.access_log(since) if e["upstreams"] and e["upstreams"][-1] == port and e["status"] == 200]

    # -- a: SIGKILL
    def kill(self):
        load = Load(self.cluster.port, self.steady_path("a"), threads=self.args.threads, max_seconds=60)
        time.sleep(3)
        pid = self.cluster.pid(1)
        _, state, _ = health(self.cluster.replica_port(1), timeout=1)
        busy = (state or {}).get("inFlight", 0) + (state or {}).get("queued", 0)
        killed = time.time()
        os.kill(pid, signal.SIGKILL)
        restarted = wait_until(lambda: self.cluster.pid(1) not in (None, pid)
                               and health(self.cluster.replica_port(1), timeout=0.5)[0] == 200, 20)
        back = None
        if restarted is not None:
            back = wait_until(lambda: len(self.served_by(1, killed + restarted)) > 0, 15, 0.1)
        time.sleep(2)
        records = load.stop()
        s = summary(records)
        in_flight = sum(1 for start, end, _, _ in records if start <= killed <= end)
        ok = s["failed"] <= in_flight and restarted is not None and back is not None
        self.report("a SIGKILL", ok, f"{fmt(s)}; {in_flight} in flight at the kill ({busy} on the replica); "
                    f"restarted and healthy after {restarted or float('nan'):.2f} s, serving again "
                    f"{(restarted or 0) + (back or float('nan')):.2f} s after the kill")

    # -- b: SIGTERM
    def term(self):
        load = Load(self.cluster.port, self.steady_path("b"), threads=self.args.threads, max_seconds=60)
        time.sleep(3)
        pid = self.cluster.pid(2)
        termed = time.time()
        os.kill(pid, signal.SIGTERM)
        exited = wait_until(lambda: not alive(pid), 40)
        restarted = wait_until(lambda: self.cluster.pid(2) not in (None, pid)
                               and health(self.cluster.replica_port(2), timeout=0.5)[0] == 200, 20)
        back = wait_until(lambda: len(self.served_by(2, termed + 0.5)) > 0, 15, 0.1) if restarted is not None else None
        time.sleep(2)
        s = summary(load.stop())
        ok = s["failed"] == 0 and exited is not None
        self.report("b SIGTERM", ok, f"{fmt(s)}; drained and exited after {exited or float('nan'):.2f} s, "
                    f"restarted {'and serving again' if back is not None else 'but not serving'}")

    # -- c: source faults
    def fault_path(self, mode, n):
        tag = f"c{n}"
        source = {"slow": f"{self.source.base}/slow/{tag}/photo.jpg",
                  "garbage": f"{self.source.base}/garbage/{tag}.jpg",
                  "truncated": f"{self.source.base}/truncated/{tag}/photo.jpg",
                  "down": self.source.down_url(f"/{tag}/photo.jpg")}[mode]
        return f"/unsafe/rs:fit:200:0/plain/{source}@webp"

    def source_faults(self):
        baseline = summary(Load(self.cluster.port, self.steady_path("c0-"), threads=self.args.threads, max_seconds=3).wait())
        load = Load(self.cluster.port, self.steady_path("c1-"), threads=self.args.threads, max_seconds=60)
        time.sleep(1)
        results = {mode: [] for mode in ("slow", "garbage", "truncated", "down")}
        ids = iter(range(1, 10_000))

        def client(mode, rounds):
            for _ in range(rounds):
                with self.lock:
                    n = next(ids)
                status, _, _, seconds = get(self.cluster.port, self.fault_path(mode, n), timeout=30)
                with self.lock:
                    results[mode].append((status, seconds))

        clients = self.args.fault_clients
        with ThreadPoolExecutor(max_workers=4 * clients) as pool:
            jobs = [pool.submit(client, mode, 3 if mode == "slow" else 20) for mode in results for _ in range(clients)]
            for job in jobs:
                job.result(timeout=120)
        during = summary(load.stop())
        # Every slot given back once the faults are answered (the steady load has stopped too).
        idle = wait_until(lambda: all((health(self.cluster.replica_port(i), timeout=1)[1] or {}).get("inFlight", 1) == 0
                                      for i in self.cluster.indices()), 5)
        parts, ok = [], True
        for mode, answers in results.items():
            statuses = sorted(set(status for status, _ in answers))
            slowest = max(seconds for _, seconds in answers)
            limit = DOWNLOAD_TIMEOUT + 1 if mode == "slow" else 1
            good = all(400 <= status < 600 for status, _ in answers) and slowest <= limit
            ok &= good
            parts.append(f"{mode} {len(answers)}× {'/'.join(map(str, statuses))} in ≤ {slowest:.2f} s")
        steady_ok = during["failed"] == 0 and during["p99"] < 1000
        ok &= steady_ok and idle is not None
        self.report("c source faults", ok, f"{'; '.join(parts)} (limits: slow {DOWNLOAD_TIMEOUT + 1} s, others 1 s); steady load alongside: "
                    f"{fmt(during)} (alone before: p50 {baseline['p50']:.0f} ms, p99 {baseline['p99']:.0f} ms); "
                    f"no render in flight {idle if idle is not None else float('nan'):.2f} s after the last fault answer")

    # -- d: 1 000 connections held open
    def connections(self):
        port = self.cluster.replica_port(1)
        pid = self.cluster.pid(1)
        before = rss_mib(pid)
        held, refused = [], 0
        for k in range(self.args.connections):
            s = socket.socket()
            s.settimeout(2)
            try:
                s.connect(("127.0.0.1", port))
                if k % 3 == 1:
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # half a request
                elif k % 3 == 2:
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")      # a request, then kept open
                held.append(s)
            except OSError:
                refused += 1
                s.close()
        time.sleep(1)
        peak = rss_mib(pid)
        checks = []
        for _ in range(5):
            status, _, seconds = health(port, timeout=5)
            nginx_status, _, nginx_seconds = health(self.cluster.port, timeout=5)
            checks.append((status, seconds, nginx_status, nginx_seconds))
            peak = max(peak, rss_mib(pid))
            time.sleep(0.5)
        image, _, _, image_seconds = get(port, self.steady_path("d")(1), timeout=10)
        still_open = 0
        for s in held:
            try:
                s.settimeout(0)
                still_open += s.recv(1, socket.MSG_PEEK) != b"" if s.fileno() >= 0 else 0
            except BlockingIOError:
                still_open += 1
            except OSError:
                pass
        for s in held:
            s.close()
        time.sleep(1)
        after = rss_mib(pid)
        worst = max(c[1] for c in checks)
        worst_nginx = max(c[3] for c in checks)
        ok = (all(c[0] == 200 and c[2] == 200 for c in checks) and worst < 1 and worst_nginx < 1 and image == 200
              and peak - before < 64 and alive(pid))
        self.report("d 1000 connections", ok, f"{len(held)} held ({refused} refused), {still_open} still open after "
                    f"{len(checks) * 0.5 + 1:.1f} s; replica RSS {before:.0f} → {peak:.0f} MiB held → {after:.0f} MiB after; "
                    f"/health ≤ {worst * 1000:.0f} ms direct, ≤ {worst_nginx * 1000:.0f} ms via nginx; "
                    f"a render meanwhile {image} in {image_seconds * 1000:.0f} ms")

    # -- e: flood past the queue
    def flood(self):
        pids = {i: self.cluster.pid(i) for i in self.cluster.indices()}
        busy_before = sum(metric_sum(metrics(self.cluster.replica_metrics_port(i)), "iris_busy_total") for i in pids)
        load = Load(self.cluster.port, self.steady_path("e"), threads=self.args.flood_clients, max_seconds=self.args.flood_seconds,
                    max_requests=200_000, timeout=30)
        records = load.wait()
        recovered = wait_until(lambda: get(self.cluster.port, self.steady_path("e-after-")(int(time.time() * 1000)),
                                           timeout=2)[0] == 200, 10, 0.02)
        drained = wait_until(lambda: all((health(self.cluster.replica_port(i), timeout=1)[1] or {}).get("queued", 1) == 0
                                         for i in pids), 10, 0.02)
        s = summary(records, ok=(200, 429))
        busy = sum(metric_sum(metrics(self.cluster.replica_metrics_port(i)), "iris_busy_total") for i in pids) - busy_before
        rate = s["n"] / max(1e-9, max(end for _, end, _, _ in records) - min(start for start, _, _, _ in records))
        survived = all(alive(pid) and self.cluster.pid(i) == pid for i, pid in pids.items())
        # Every request answered 200, or 429 past the queue (a flood the queue holds is all 200).
        ok = s["failed"] == 0 and survived and recovered is not None and recovered <= 1
        self.report("e flood", ok, f"{self.args.flood_clients} clients × {self.args.flood_seconds} s: {fmt(s)} ({rate:.0f} req/s), "
                    f"iris_busy_total +{busy:.0f}; replicas {'alive' if survived else 'DIED'}; a render 200 again "
                    f"{(recovered if recovered is not None else float('nan')) * 1000:.0f} ms after the flood, queues empty after "
                    f"{(drained if drained is not None else float('nan')) * 1000:.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--samples", required=True)
    parser.add_argument("--only", default="abcde", help="scenarios to run, e.g. ace")
    parser.add_argument("--threads", type=int, default=4, help="clients of the steady load")
    parser.add_argument("--fault-clients", type=int, default=4, help="clients per fault mode in c")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--flood-clients", type=int, default=200)
    parser.add_argument("--flood-seconds", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the cluster's folder (logs)")
    args = parser.parse_args()
    faults = Faults(args)
    print(f"serve-faults: nginx 127.0.0.1:{faults.cluster.port} → replicas :{faults.cluster.port + 1}, :{faults.cluster.port + 2}; "
          f"source server {faults.source.base}; download timeout {DOWNLOAD_TIMEOUT} s; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; cluster folder {faults.cluster.dir}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        for key, scenario in [("a", faults.kill), ("b", faults.term), ("c", faults.source_faults),
                              ("d", faults.connections), ("e", faults.flood)]:
            if key in args.only:
                scenario()
    finally:
        faults.close()
    if faults.failures:
        print(f"serve-faults: failed: {', '.join(faults.failures)}", flush=True)
        sys.exit(1)
    print("serve-faults: every claim held", flush=True)


if __name__ == "__main__":
    main()
